//! Change detection: both contracts' path trees are laid side by side, path by
//! path (declared fields and the parents they imply; nested objects and array
//! elements alike), and every difference in presence, required-ness, type set,
//! enum or constraint becomes a change named by `rules.rs`.

use std::collections::BTreeMap;

use super::rules::{self, ChangeRule, Direction};
use super::CONTRACT_FIELD;
use crate::contract::tree::Node;
use crate::contract::{enum_label, Constraints, ContractSpec, FieldSpec, JsonType, Scalar, TypeSet};
use crate::json::number::Decimal;

/// A change found, before any witness.
#[derive(Debug, Clone)]
pub(super) struct Detected {
    pub rule: ChangeRule,
    pub field: String,
    pub message: String,
}

/// One path of a contract's shape.
#[derive(Debug, Clone, Copy)]
pub(super) struct Site<'c> {
    /// The field declared at this path, if any (else the node is implied).
    pub field: Option<&'c FieldSpec>,
    pub node: &'c Node,
    pub types: TypeSet,
    pub required: bool,
}

/// Every path of a contract's tree, with what it means.
pub(super) fn sites(c: &ContractSpec) -> BTreeMap<String, Site<'_>> {
    fn walk<'c>(c: &'c ContractSpec, node: &'c Node, path: String, out: &mut BTreeMap<String, Site<'c>>) {
        let field = node.field.map(|i| &c.fields[i]);
        let types = field.map_or_else(|| node.implied_types(), |f| f.types);
        out.insert(path.clone(), Site { field, node, types, required: node.required });
        for child in &node.keys {
            let p = if path.is_empty() { child.key.to_string() } else { format!("{path}.{}", child.key) };
            walk(c, &child.node, p, out);
        }
        if let Some(items) = &node.items {
            walk(c, items, format!("{path}[]"), out);
        }
    }
    let mut out = BTreeMap::new();
    for child in &c.tree.keys {
        walk(c, &child.node, child.key.to_string(), &mut out);
    }
    out
}

/// The classes of values a type set accepts: integers and other numbers apart,
/// so that `integer` sits inside `number`.
fn classes(t: TypeSet) -> u8 {
    let mut bits = 0u8;
    for ty in t.iter() {
        bits |= match ty {
            JsonType::String => 1,
            JsonType::Integer => 2,
            JsonType::Number => 2 | 4,
            JsonType::Boolean => 8,
            JsonType::Object => 16,
            JsonType::Array => 32,
            JsonType::Null => 64,
        };
    }
    bits
}

struct Out(Vec<Detected>);

impl Out {
    fn push(&mut self, rule: ChangeRule, field: &str, message: String) {
        self.0.push(Detected { rule, field: field.to_string(), message });
    }

    fn fixed(&mut self, id: &str, field: &str, message: String) {
        if let Some(rule) = rules::find(id) {
            self.push(rule, field, message);
        }
    }

    fn keyword(&mut self, keyword: &str, direction: Direction, field: &str, message: String) {
        if let Some(rule) = rules::keyword_rule(keyword, direction) {
            self.push(rule, field, message);
        }
    }
}

/// Every change from `old` to `new` (unsorted, without witnesses).
pub(super) fn changes(old: &ContractSpec, new: &ContractSpec) -> Vec<Detected> {
    let mut out = Out(Vec::new());
    match (old.strict, new.strict) {
        (false, true) => out.fixed(rules::STRICT_ENABLED, CONTRACT_FIELD, "strict false -> true".into()),
        (true, false) => out.fixed(rules::STRICT_DISABLED, CONTRACT_FIELD, "strict true -> false".into()),
        _ => {}
    }
    let (a, b) = (sites(old), sites(new));
    let mut paths: Vec<&String> = a.keys().chain(b.keys()).collect();
    paths.sort();
    paths.dedup();
    for path in paths {
        match (a.get(path), b.get(path)) {
            (Some(o), None) => {
                if let Some(f) = o.field {
                    let (id, why) = if f.required {
                        (rules::REMOVED_REQUIRED, " (no envelope is rejected; readers of the field break)")
                    } else {
                        (rules::REMOVED_OPTIONAL, "")
                    };
                    out.fixed(id, path, format!("removed {}{why}", f.types));
                }
            }
            (None, Some(n)) => {
                if let Some(f) = n.field {
                    let id = if f.required { rules::ADDED_REQUIRED } else { rules::ADDED_OPTIONAL };
                    out.fixed(id, path, format!("added {}", f.types));
                }
            }
            (Some(o), Some(n)) => site(&mut out, path, o, n),
            (None, None) => {}
        }
    }
    out.0
}

/// Compares one path present in both revisions.
fn site(out: &mut Out, path: &str, o: &Site<'_>, n: &Site<'_>) {
    let (co, cn) = (classes(o.types), classes(n.types));
    if co != cn {
        let id = if co & cn == co {
            rules::TYPE_WIDENED
        } else if co & cn == cn {
            rules::TYPE_NARROWED
        } else {
            rules::TYPE_CHANGED
        };
        out.fixed(id, path, format!("{} -> {}", o.types, n.types));
    }
    if o.field.is_none() && n.field.is_none() {
        // Both implied: their required-ness follows their children, whose
        // own changes are reported.
        return;
    }
    let element = path.ends_with("[]");
    if !element && o.required != n.required {
        let (id, msg) = if n.required {
            (rules::REQUIRED_TIGHTENED, "optional -> required")
        } else {
            (rules::REQUIRED_RELAXED, "required -> optional")
        };
        out.fixed(id, path, msg.into());
    }
    let empty = Constraints::default();
    let (oc, nc) = (o.field.map_or(&empty, |f| &f.constraints), n.field.map_or(&empty, |f| &f.constraints));
    enums(out, path, o.field.and_then(|f| f.enum_values.as_deref()), n.field.and_then(|f| f.enum_values.as_deref()));
    constraints(out, path, oc, nc);
}

fn enums(out: &mut Out, path: &str, old: Option<&[Scalar]>, new: Option<&[Scalar]>) {
    match (old, new) {
        (None, None) => {}
        (None, Some(n)) => out.fixed(rules::ENUM_ADDED, path, format!("open -> {}", enum_label(n))),
        (Some(o), None) => out.fixed(rules::ENUM_REMOVED, path, format!("{} -> open", enum_label(o))),
        (Some(o), Some(n)) => {
            let missing = |from: &[Scalar], to: &[Scalar]| -> Vec<Scalar> {
                from.iter().filter(|v| !to.iter().any(|w| w.same_value(v))).cloned().collect()
            };
            let dropped = missing(o, n);
            if !dropped.is_empty() {
                out.fixed(rules::ENUM_RESTRICTED, path, format!("dropped {}", enum_label(&dropped)));
            }
            let added = missing(n, o);
            if !added.is_empty() {
                out.fixed(rules::ENUM_EXPANDED, path, format!("added {}", enum_label(&added)));
            }
        }
    }
}

/// A number bound: its value, whether it is exclusive, and how it was spelled.
#[derive(Clone, Copy)]
struct Bound<'a> {
    value: &'a Decimal,
    exclusive: bool,
    keyword: &'static str,
}

impl Bound<'_> {
    fn show(b: Option<Bound<'_>>) -> String {
        b.map_or("(none)".to_string(), |b| format!("{} {}", b.keyword, b.value.raw()))
    }
}

/// The tighter of an inclusive and an exclusive bound (`lower`: the larger).
fn bound<'a>(
    incl: (&'static str, &'a Option<Decimal>),
    excl: (&'static str, &'a Option<Decimal>),
    lower: bool,
) -> Option<Bound<'a>> {
    let i = incl.1.as_ref().map(|v| Bound { value: v, exclusive: false, keyword: incl.0 });
    let e = excl.1.as_ref().map(|v| Bound { value: v, exclusive: true, keyword: excl.0 });
    match (i, e) {
        (Some(i), Some(e)) => {
            let ord = e.value.dec().compare(&i.value.dec());
            let e_tighter = if lower { ord.is_ge() } else { ord.is_le() };
            Some(if e_tighter { e } else { i })
        }
        (i, e) => i.or(e),
    }
}

/// How a bound moved; `lower` tells which side of the range it guards.
fn bound_direction(old: Option<Bound<'_>>, new: Option<Bound<'_>>, lower: bool) -> Option<Direction> {
    match (old, new) {
        (None, None) => None,
        (None, Some(_)) => Some(Direction::Tightened),
        (Some(_), None) => Some(Direction::Relaxed),
        (Some(o), Some(n)) => {
            let ord = n.value.dec().compare(&o.value.dec());
            let inward = if lower { ord.is_gt() } else { ord.is_lt() };
            let outward = if lower { ord.is_lt() } else { ord.is_gt() };
            if inward || (ord.is_eq() && n.exclusive && !o.exclusive) {
                Some(Direction::Tightened)
            } else if outward || (ord.is_eq() && o.exclusive && !n.exclusive) {
                Some(Direction::Relaxed)
            } else {
                None
            }
        }
    }
}

fn constraints(out: &mut Out, path: &str, o: &Constraints, n: &Constraints) {
    for (lower, keyword) in [(true, "minimum"), (false, "maximum")] {
        fn pick(c: &Constraints, lower: bool) -> Option<Bound<'_>> {
            if lower {
                bound(("minimum", &c.minimum), ("exclusiveMinimum", &c.exclusive_minimum), true)
            } else {
                bound(("maximum", &c.maximum), ("exclusiveMaximum", &c.exclusive_maximum), false)
            }
        }
        let (ob, nb) = (pick(o, lower), pick(n, lower));
        if let Some(d) = bound_direction(ob, nb, lower) {
            out.keyword(keyword, d, path, format!("{} -> {}", Bound::show(ob), Bound::show(nb)));
        }
    }
    match (&o.multiple_of, &n.multiple_of) {
        (None, Some(m)) => {
            out.keyword("multipleOf", Direction::Tightened, path, format!("(none) -> multipleOf {}", m.raw()))
        }
        (Some(m), None) => {
            out.keyword("multipleOf", Direction::Relaxed, path, format!("multipleOf {} -> (none)", m.raw()))
        }
        (Some(a), Some(b)) if a.dec().compare(&b.dec()).is_ne() => {
            let d = if b.dec().is_multiple_of(&a.dec()) {
                Direction::Tightened
            } else if a.dec().is_multiple_of(&b.dec()) {
                Direction::Relaxed
            } else {
                Direction::Changed
            };
            out.keyword("multipleOf", d, path, format!("multipleOf {} -> {}", a.raw(), b.raw()));
        }
        _ => {}
    }
    let counts = [
        ("minLength", o.min_length, n.min_length, true),
        ("maxLength", o.max_length, n.max_length, false),
        ("minItems", o.min_items, n.min_items, true),
        ("maxItems", o.max_items, n.max_items, false),
    ];
    for (keyword, ov, nv, lower) in counts {
        // An absent minimum is 0; an absent maximum is no bound at all.
        let (oe, ne) = if lower { (Some(ov.unwrap_or(0)), Some(nv.unwrap_or(0))) } else { (ov, nv) };
        let d = match (oe, ne) {
            (Some(a), Some(b)) if a == b => None,
            (Some(a), Some(b)) => Some(if (b > a) == lower { Direction::Tightened } else { Direction::Relaxed }),
            (None, Some(_)) => Some(Direction::Tightened),
            (Some(_), None) => Some(Direction::Relaxed),
            (None, None) => None,
        };
        if let Some(d) = d {
            let show = |v: Option<u64>| v.map_or("(none)".to_string(), |v| format!("{keyword} {v}"));
            out.keyword(keyword, d, path, format!("{} -> {}", show(ov), show(nv)));
        }
    }
    match (&o.pattern, &n.pattern) {
        (None, Some(p)) => {
            out.keyword("pattern", Direction::Tightened, path, format!("(none) -> pattern {}", quote(p.source())))
        }
        (Some(p), None) => {
            out.keyword("pattern", Direction::Relaxed, path, format!("pattern {} -> (none)", quote(p.source())))
        }
        (Some(a), Some(b)) if a.source() != b.source() => out.keyword(
            "pattern",
            Direction::Changed,
            path,
            format!("pattern {} -> {}", quote(a.source()), quote(b.source())),
        ),
        _ => {}
    }
    match (o.unique_items, n.unique_items) {
        (false, true) => out.keyword("uniqueItems", Direction::Tightened, path, "uniqueItems false -> true".into()),
        (true, false) => out.keyword("uniqueItems", Direction::Relaxed, path, "uniqueItems true -> false".into()),
        _ => {}
    }
}

fn quote(s: &str) -> String {
    crate::json::text::quote(s, 200)
}
