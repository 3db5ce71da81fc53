//! Annotations compared (SPEC §5): a `title` or description (a contract's
//! `doc`, a tool's description, a field's `doc`, a subschema's
//! `description`) changes no value the contract accepts, but it is what a
//! model reads, so each change is reported once per place as
//! `annotation.changed`, compatible in every direction. A long text is
//! quoted from a little before its first difference, so that the change
//! itself shows.

use super::detect::Detected;
use super::rules;
use crate::contract::schema::Node;
use crate::contract::ContractSpec;
use crate::keywords::name;

/// How much of each text a message quotes: enough to see a rewritten
/// sentence, bounded for a page-long description.
const QUOTED: usize = 120;

/// Characters of the shared beginning kept before the first difference.
const LEAD: usize = 24;

/// The text quoted from the `skip`th character on (marked `...`).
fn shown(text: Option<&str>, skip: usize) -> String {
    match text {
        None => "(none)".into(),
        Some(t) if skip == 0 => crate::json::text::quote(t, QUOTED),
        Some(t) => {
            let rest: String = t.chars().skip(skip).collect();
            let quoted = crate::json::text::quote(&rest, QUOTED);
            format!("...{quoted}")
        }
    }
}

/// Where two texts' quotes start: a little before their first difference,
/// when that lies past what a quote shows.
fn skipped(old: Option<&str>, new: Option<&str>) -> usize {
    let (Some(a), Some(b)) = (old, new) else { return 0 };
    let shared = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    if shared + LEAD < QUOTED {
        0
    } else {
        shared - LEAD
    }
}

/// The change of one annotation at `field`, if its text changed.
pub(super) fn compare(out: &mut Vec<Detected>, field: &str, what: &str, old: Option<&str>, new: Option<&str>) {
    if old != new {
        let skip = skipped(old, new);
        let message = format!("{what} {} -> {}", shown(old, skip), shown(new, skip));
        out.push(Detected { rule: rules::ANNOTATION_CHANGED, field: field.to_string(), message, hints: Vec::new() });
    }
}

/// The contract's own `title` and `doc` (an imported tool's title and
/// description).
pub(super) fn contract(out: &mut Vec<Detected>, old: &ContractSpec, new: &ContractSpec) {
    compare(out, super::CONTRACT_FIELD, name::TITLE, old.title(), new.title());
    compare(out, super::CONTRACT_FIELD, "doc", old.doc(), new.doc());
}

/// A subschema's `title`: its label, unless the label is its `$defs` name.
fn title(n: &Node) -> Option<&str> {
    n.label.as_deref().filter(|l| n.def.as_deref() != Some(*l))
}

/// A subschema's `title` and `description`, of two nodes compared at `field`.
/// A fields-form field's `doc` is its node's description, and is named so.
pub(super) fn nodes(out: &mut Vec<Detected>, field: &str, a: &Node, b: &Node) {
    compare(out, field, name::TITLE, title(a), title(b));
    let what = if a.field.is_some() && b.field.is_some() { "doc" } else { name::DESCRIPTION };
    compare(out, field, what, a.description.as_deref(), b.description.as_deref());
}
