//! What a change is before its witness (`Detected`), and the comparisons of
//! value classes, bounds and counts that `schema.rs` reports them with.

use super::lattice;
use super::rules::{self, ChangeRule, Direction};
use crate::contract::{Constraints, JsonType, TypeSet};
use crate::json::number::Decimal;
use crate::keywords::name;

/// A change found, before any witness.
#[derive(Debug, Clone)]
pub(super) struct Detected {
    pub rule: &'static ChangeRule,
    pub field: String,
    pub message: String,
    /// Values the detector knows to tell the revisions apart at `field`
    /// (a string one pattern accepts and the other refuses): the witness
    /// search tries them first.
    pub hints: Vec<String>,
}

/// The classes of values a type set accepts: integers and other numbers apart,
/// so that `integer` sits inside `number`.
pub(super) fn classes(t: TypeSet) -> u8 {
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

pub(super) struct Out(pub(super) Vec<Detected>);

impl Out {
    pub(super) fn push(&mut self, rule: &'static ChangeRule, field: &str, message: String) {
        self.0.push(Detected { rule, field: field.to_string(), message, hints: Vec::new() });
    }

    pub(super) fn keyword(&mut self, keyword: &str, direction: Direction, field: &str, message: String) {
        if let Some(rule) = rules::keyword_rule(keyword, direction) {
            self.push(rule, field, message);
        }
    }
}

/// `string|integer` for a set of value classes (`classes`); `any` for all,
/// `nothing (false)` for none.
pub(super) fn bits_label(bits: u8) -> String {
    if bits == 0 {
        return "nothing (false)".into();
    }
    if bits == 0x7f {
        return "any".into();
    }
    let mut parts = Vec::new();
    for (b, name) in [(1u8, "string"), (8, "boolean"), (16, "object"), (32, "array"), (64, "null")] {
        if bits & b != 0 {
            parts.push(name);
        }
    }
    match bits & 6 {
        6 | 4 => parts.insert(usize::from(bits & 1), "number"),
        2 => parts.insert(usize::from(bits & 1), "integer"),
        _ => {}
    }
    parts.join("|")
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

/// How a bound moved; `lower` tells which side of the range it guards,
/// `integers` that only integers are judged (where `exclusiveMinimum: 4`
/// is `minimum: 5`).
fn bound_direction(old: Option<Bound<'_>>, new: Option<Bound<'_>>, lower: bool, integers: bool) -> Option<Direction> {
    if integers {
        let int = |b: Option<Bound<'_>>| b.map(|b| lattice::integer_bound(b.value, b.exclusive, lower));
        match (int(old), int(new)) {
            (Some(Some(o)), Some(Some(n))) => {
                let inward = if lower { n > o } else { n < o };
                return (o != n).then_some(if inward { Direction::Tightened } else { Direction::Relaxed });
            }
            (None, None) => return None,
            _ => {}
        }
    }
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

/// The keyword changes between two nodes' constraints, on the values both
/// may hold: `shared` their common types, `common` the value classes both
/// hold (their bounds and enums considered), so that numbers both hold
/// that are all integers are judged as integers.
pub(super) fn constraints(out: &mut Out, path: &str, o: &Constraints, n: &Constraints, shared: TypeSet, common: u8) {
    if shared.has_numbers() && common & lattice::NUMBERS != 0 {
        numbers(out, path, o, n, common & lattice::NUMBERS == lattice::INTEGERS);
    }
    if shared.has_strings() {
        strings(out, path, o, n);
    }
    if shared.has_arrays() {
        arrays(out, path, o, n);
    }
}

fn numbers(out: &mut Out, path: &str, o: &Constraints, n: &Constraints, integers: bool) {
    for (lower, keyword) in [(true, name::MINIMUM), (false, name::MAXIMUM)] {
        fn pick(c: &Constraints, lower: bool) -> Option<Bound<'_>> {
            if lower {
                bound((name::MINIMUM, &c.minimum), (name::EXCLUSIVE_MINIMUM, &c.exclusive_minimum), true)
            } else {
                bound((name::MAXIMUM, &c.maximum), (name::EXCLUSIVE_MAXIMUM, &c.exclusive_maximum), false)
            }
        }
        let (ob, nb) = (pick(o, lower), pick(n, lower));
        if let Some(d) = bound_direction(ob, nb, lower, integers) {
            out.keyword(keyword, d, path, format!("{} -> {}", Bound::show(ob), Bound::show(nb)));
        }
    }
    if integers && integer_steps(out, path, o.multiple_of.as_ref(), n.multiple_of.as_ref()) {
        return;
    }
    match (&o.multiple_of, &n.multiple_of) {
        (None, Some(m)) => {
            out.keyword(name::MULTIPLE_OF, Direction::Tightened, path, format!("(none) -> multipleOf {}", m.raw()))
        }
        (Some(m), None) => {
            out.keyword(name::MULTIPLE_OF, Direction::Relaxed, path, format!("multipleOf {} -> (none)", m.raw()))
        }
        (Some(a), Some(b)) if a.dec().compare(&b.dec()).is_ne() => {
            let d = if b.dec().is_multiple_of(&a.dec()) {
                Direction::Tightened
            } else if a.dec().is_multiple_of(&b.dec()) {
                Direction::Relaxed
            } else {
                Direction::Changed
            };
            out.keyword(name::MULTIPLE_OF, d, path, format!("multipleOf {} -> {}", a.raw(), b.raw()));
        }
        _ => {}
    }
}

/// `multipleOf` on integers: each value stands for the integers it lets
/// through (`0.5` for all of them, as none). Returns `false`, with nothing
/// reported, when a value is too large to judge so.
fn integer_steps(out: &mut Out, path: &str, o: Option<&Decimal>, n: Option<&Decimal>) -> bool {
    let step = |m: Option<&Decimal>| m.map_or(Some(1), lattice::integer_divisor);
    let (Some(a), Some(b)) = (step(o), step(n)) else { return false };
    if a == b {
        return true;
    }
    let d = if b % a == 0 {
        Direction::Tightened
    } else if a % b == 0 {
        Direction::Relaxed
    } else {
        Direction::Changed
    };
    let msg = match (o, n) {
        (None, Some(m)) => format!("(none) -> multipleOf {}", m.raw()),
        (Some(m), None) => format!("multipleOf {} -> (none)", m.raw()),
        (Some(x), Some(y)) => format!("multipleOf {} -> {}", x.raw(), y.raw()),
        (None, None) => return true,
    };
    out.keyword(name::MULTIPLE_OF, d, path, msg);
    true
}

/// A field's pattern, unless every string matches it: such a pattern
/// rejects nothing, the same as none.
fn effective_pattern(c: &Constraints) -> Option<&crate::contract::Pattern> {
    c.pattern.as_ref().filter(|p| !p.matches_everything())
}

fn strings(out: &mut Out, path: &str, o: &Constraints, n: &Constraints) {
    let before = out.0.len();
    keyword_strings(out, path, o, n);
    if out.0.len() == before || (effective_pattern(o).is_none() && effective_pattern(n).is_none()) {
        return;
    }
    // With a pattern, its keywords are judged together: a length bound the
    // pattern already implies changes nothing; otherwise the strings that
    // tell the revisions apart guide the witness search.
    use super::regex_inclusion::{compare_strings, Inclusion, Lengths, Strings};
    fn side(c: &Constraints) -> Strings<'_> {
        Strings {
            pattern: effective_pattern(c).map(|p| p.source()),
            lengths: Lengths { min: c.min_length.unwrap_or(0), max: c.max_length },
        }
    }
    let hints = match compare_strings(side(o), side(n)) {
        Inclusion::Equal => return out.0.truncate(before),
        Inclusion::Tightened { witness } | Inclusion::Relaxed { witness } => vec![witness],
        Inclusion::Changed { old_only, new_only } => vec![old_only, new_only],
        Inclusion::Unknown(_) => return,
    };
    for d in &mut out.0[before..] {
        for h in &hints {
            if !d.hints.contains(h) {
                d.hints.push(h.clone());
            }
        }
    }
}

/// The string keywords compared one by one.
fn keyword_strings(out: &mut Out, path: &str, o: &Constraints, n: &Constraints) {
    counts(
        out,
        path,
        [(name::MIN_LENGTH, o.min_length, n.min_length, true), (name::MAX_LENGTH, o.max_length, n.max_length, false)],
    );
    // A pattern every string matches rejects nothing: the same as none.
    match (effective_pattern(o), effective_pattern(n)) {
        (None, Some(p)) => {
            out.keyword(name::PATTERN, Direction::Tightened, path, format!("(none) -> pattern {}", quote(p.source())))
        }
        (Some(p), None) => {
            out.keyword(name::PATTERN, Direction::Relaxed, path, format!("pattern {} -> (none)", quote(p.source())))
        }
        (Some(a), Some(b)) if a.source() != b.source() => patterns(out, path, a.source(), b.source()),
        _ => {}
    }
}

/// Two different patterns, compared by the strings they accept: the
/// change's direction and the strings that tell them apart.
fn patterns(out: &mut Out, path: &str, a: &str, b: &str) {
    use super::regex_inclusion::{compare, Inclusion};
    let message = format!("pattern {} -> {}", quote(a), quote(b));
    let (direction, hints, note) = match compare(a, b) {
        Inclusion::Equal => return,
        Inclusion::Tightened { witness } => (Direction::Tightened, vec![witness], String::new()),
        Inclusion::Relaxed { witness } => (Direction::Relaxed, vec![witness], String::new()),
        Inclusion::Changed { old_only, new_only } => (Direction::Changed, vec![old_only, new_only], String::new()),
        Inclusion::Unknown(why) => (Direction::Changed, Vec::new(), format!(" (inclusion not decided: {why})")),
    };
    if let Some(rule) = rules::keyword_rule(name::PATTERN, direction) {
        out.0.push(Detected { rule, field: path.to_string(), message: format!("{message}{note}"), hints });
    }
}

fn arrays(out: &mut Out, path: &str, o: &Constraints, n: &Constraints) {
    counts(
        out,
        path,
        [(name::MIN_ITEMS, o.min_items, n.min_items, true), (name::MAX_ITEMS, o.max_items, n.max_items, false)],
    );
    match (o.unique_items, n.unique_items) {
        (false, true) => {
            out.keyword(name::UNIQUE_ITEMS, Direction::Tightened, path, "uniqueItems false -> true".into())
        }
        (true, false) => out.keyword(name::UNIQUE_ITEMS, Direction::Relaxed, path, "uniqueItems true -> false".into()),
        _ => {}
    }
}

/// A pair of count bounds (`minLength`/`maxLength`, `minItems`/`maxItems`).
pub(super) fn counts(out: &mut Out, path: &str, pairs: [(&str, Option<u64>, Option<u64>, bool); 2]) {
    for (keyword, ov, nv, lower) in pairs {
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
}

pub(super) fn quote(s: &str) -> String {
    crate::json::text::quote(s, 200)
}
