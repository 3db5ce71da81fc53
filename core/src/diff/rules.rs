//! The change rules of SPEC §5, as one table: the detector emits these ids,
//! the impact of a change is looked up here, and `--explain`, the docs and the
//! tests read the descriptions. Adding a rule starts here.

use super::Impact;

/// A compatibility rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangeRule {
    pub id: &'static str,
    pub impact: Impact,
    pub summary: &'static str,
}

macro_rules! change_rules {
    ($($name:ident = $id:literal, $impact:ident, $summary:literal;)*) => {
        $(pub const $name: &str = $id;)*
        /// Every fixed-name change rule. Keyword rules (`field.<keyword>.*`) are
        /// listed per keyword by [`keyword_rule`].
        pub const CHANGE_RULES: &[ChangeRule] = &[
            $(ChangeRule { id: $id, impact: Impact::$impact, summary: $summary },)*
        ];
    };
}

change_rules! {
    ADDED_OPTIONAL = "field.added.optional", Forward, "a new optional field";
    ADDED_REQUIRED = "field.added.required", Breaking, "a new required field: envelopes without it are rejected";
    REMOVED_REQUIRED = "field.removed.required", Breaking, "a required field removed: no envelope is rejected, but readers of it break";
    REMOVED_OPTIONAL = "field.removed.optional", Forward, "an optional field removed";
    REQUIRED_TIGHTENED = "field.required.tightened", Breaking, "an optional field became required";
    REQUIRED_RELAXED = "field.required.relaxed", Forward, "a required field became optional";
    TYPE_NARROWED = "field.type.narrowed", Breaking, "the field accepts fewer types";
    TYPE_WIDENED = "field.type.widened", Forward, "the field accepts more types (integer -> number widens)";
    TYPE_CHANGED = "field.type.changed", Breaking, "the field accepts other types, neither more nor fewer";
    ENUM_ADDED = "field.enum.added", Breaking, "an enum on a field that was open";
    ENUM_REMOVED = "field.enum.removed", Forward, "the enum was dropped: the field is open";
    ENUM_RESTRICTED = "field.enum.restricted", Breaking, "enum values dropped";
    ENUM_EXPANDED = "field.enum.expanded", Forward, "enum values added";
    STRICT_ENABLED = "contract.strict.enabled", Breaking, "the contract became strict: undeclared top-level keys are flagged";
    STRICT_DISABLED = "contract.strict.disabled", Forward, "the contract is no longer strict";
}

/// The constraint keywords whose changes are rules, as reported: the lower
/// bound (`minimum` with `exclusiveMinimum`) is `minimum`, the upper bound is
/// `maximum`.
pub const KEYWORDS: &[&str] =
    &["minimum", "maximum", "multipleOf", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems"];

/// How a constraint keyword moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Tightened,
    Relaxed,
    Changed,
}

/// The rule id and impact of a keyword change: `field.maxLength.tightened`.
pub fn keyword_rule(keyword: &str, direction: Direction) -> Option<ChangeRule> {
    let ids = KEYWORD_IDS.iter().find(|(k, _)| *k == keyword)?.1;
    let (i, impact, summary) = match direction {
        Direction::Tightened => (0, Impact::Breaking, "the constraint accepts fewer values (a bound introduced or moved in, uniqueItems on, a pattern added, multipleOf added or made a multiple)"),
        Direction::Relaxed => (1, Impact::Forward, "the constraint accepts more values (the reverse of tightened, including removal)"),
        Direction::Changed => (2, Impact::Breaking, "the constraint accepts other values, neither more nor fewer (another pattern, multipleOf 2 -> 3)"),
    };
    // Bounds and flags are ordered: they only tighten or relax.
    Some(ChangeRule { id: Some(ids[i]).filter(|id| !id.is_empty())?, impact, summary })
}

/// Every keyword rule id, spelled out so ids are `&'static str`.
const KEYWORD_IDS: &[(&str, [&str; 3])] = &[
    ("minimum", ["field.minimum.tightened", "field.minimum.relaxed", ""]),
    ("maximum", ["field.maximum.tightened", "field.maximum.relaxed", ""]),
    ("multipleOf", ["field.multipleOf.tightened", "field.multipleOf.relaxed", "field.multipleOf.changed"]),
    ("minLength", ["field.minLength.tightened", "field.minLength.relaxed", ""]),
    ("maxLength", ["field.maxLength.tightened", "field.maxLength.relaxed", ""]),
    ("pattern", ["field.pattern.tightened", "field.pattern.relaxed", "field.pattern.changed"]),
    ("minItems", ["field.minItems.tightened", "field.minItems.relaxed", ""]),
    ("maxItems", ["field.maxItems.tightened", "field.maxItems.relaxed", ""]),
    ("uniqueItems", ["field.uniqueItems.tightened", "field.uniqueItems.relaxed", ""]),
];

/// The rule with this id, fixed-name or keyword.
pub fn find(id: &str) -> Option<ChangeRule> {
    if let Some(r) = CHANGE_RULES.iter().find(|r| r.id == id) {
        return Some(*r);
    }
    let (keyword, ids) = KEYWORD_IDS.iter().find(|(_, ids)| ids.contains(&id))?;
    let at = ids.iter().position(|i| !i.is_empty() && *i == id)?;
    keyword_rule(keyword, [Direction::Tightened, Direction::Relaxed, Direction::Changed][at])
}

/// Every rule: fixed-name rules, then each keyword's three.
pub fn all() -> Vec<ChangeRule> {
    let mut out = CHANGE_RULES.to_vec();
    for k in KEYWORDS {
        for d in [Direction::Tightened, Direction::Relaxed, Direction::Changed] {
            out.extend(keyword_rule(k, d));
        }
    }
    out
}
