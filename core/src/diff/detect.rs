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
    pub rule: &'static ChangeRule,
    pub field: String,
    pub message: String,
    /// Values the detector knows to tell the revisions apart at `field`
    /// (a string one pattern accepts and the other refuses): the witness
    /// search tries them first.
    pub hints: Vec<String>,
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

/// The node of an open array element (no field, no children).
static OPEN: std::sync::LazyLock<Node> = std::sync::LazyLock::new(Node::default);

/// Every path of a contract's tree, with what it means.
pub(super) fn sites(c: &ContractSpec) -> BTreeMap<String, Site<'_>> {
    fn walk<'c>(c: &'c ContractSpec, node: &'c Node, path: String, out: &mut BTreeMap<String, Site<'c>>) {
        let field = node.field.map(|i| &c.fields[i]);
        let types = field.map_or_else(|| node.implied_types(), |f| f.types);
        out.insert(path.clone(), Site { field, node, types, required: node.required });
        for child in &node.keys {
            let p = crate::contract::join_key(&path, &child.key);
            walk(c, &child.node, p, out);
        }
        if let Some(items) = &node.items {
            walk(c, items, format!("{path}[]"), out);
        }
        if let Some(values) = &node.values {
            walk(c, values, format!("{path}{{}}"), out);
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

    pub(super) fn fixed(&mut self, rule: &'static ChangeRule, field: &str, message: String) {
        self.push(rule, field, message);
    }

    pub(super) fn keyword(&mut self, keyword: &str, direction: Direction, field: &str, message: String) {
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
    match (old.closed, new.closed) {
        (false, true) => out.fixed(rules::CONTRACT_CLOSED_ENABLED, CONTRACT_FIELD, "closed false -> true".into()),
        (true, false) => out.fixed(rules::CONTRACT_CLOSED_DISABLED, CONTRACT_FIELD, "closed true -> false".into()),
        _ => {}
    }
    let (a, b) = (sites(old), sites(new));
    let mut paths: Vec<&String> = a.keys().chain(b.keys()).collect();
    paths.sort();
    paths.dedup();
    // Both sides of every path.
    let mut pairs: BTreeMap<&str, (Option<Site<'_>>, Option<Site<'_>>)> = BTreeMap::new();
    for path in paths {
        // Elements of an array one revision declares and leaves open are
        // `any` there: declaring them narrows, undeclaring them widens.
        let open = |m: &BTreeMap<String, Site<'_>>, other: Option<&Site<'_>>| {
            let parent = m.get(path.strip_suffix("[]")?)?;
            let declared_array = parent.field.is_some_and(|f| f.types.contains(JsonType::Array));
            let required = other?.required;
            declared_array.then_some(Site { field: None, node: &OPEN, types: TypeSet::ANY, required })
        };
        let (sa, sb) = (a.get(path).copied(), b.get(path).copied());
        let sa = sa.or_else(|| open(&a, sb.as_ref()));
        let sb = sb.or_else(|| open(&b, sa.as_ref()));
        pairs.insert(path, (sa, sb));
    }
    let in_old = |p: &str| pairs.get(p).is_some_and(|(o, _)| o.is_some());
    let in_new = |p: &str| pairs.get(p).is_some_and(|(_, n)| n.is_some());
    for (&path, (sa, sb)) in &pairs {
        match (sa, sb) {
            (Some(o), None) => one_sided(&mut out, path, o, &a, in_new, false),
            (None, Some(n)) => one_sided(&mut out, path, n, &b, in_old, true),
            (Some(o), Some(n)) => {
                // An element's own `required` matters only through an array
                // parent that both revisions imply (required when an element
                // field is); where a revision declares the array, the
                // array's own flag says it all, and is compared there.
                let parent = path.strip_suffix("[]");
                let implied = |m: &BTreeMap<String, Site<'_>>| {
                    parent.is_some_and(|p| m.get(p).is_some_and(|s| s.field.is_none()))
                };
                let element_counts = implied(&a) && implied(&b);
                site(&mut out, path, o, n, element_counts);
                if let (Some(x), Some(y)) = (o.field, n.field) {
                    super::annotations::compare(&mut out.0, path, "doc", x.doc(), y.doc());
                }
            }
            (None, None) => {}
        }
    }
    // A key added to (removed from) an object that the other revision
    // closes: old readers reject the new key (the new revision rejects the
    // old one).
    let closed = |c: &ContractSpec, m: &BTreeMap<String, Site<'_>>, path: &str| match parent(path) {
        Some(p) => m.get(p).is_some_and(|s| s.node.closed),
        None => c.closed,
    };
    let mut extra = Vec::new();
    for d in &out.0 {
        let added = d.rule == rules::ADDED_OPTIONAL || d.rule == rules::ADDED_REQUIRED;
        let removed = d.rule == rules::REMOVED_OPTIONAL || d.rule == rules::REMOVED_REQUIRED;
        if added && closed(old, &a, &d.field) {
            extra.push((rules::ADDED_CLOSED, d.field.clone(), "the key was undeclared in a closed object".to_string()));
        }
        if removed && closed(new, &b, &d.field) {
            extra.push((
                rules::REMOVED_CLOSED,
                d.field.clone(),
                "the key is undeclared in a closed object now".to_string(),
            ));
        }
    }
    for (rule, field, message) in extra {
        out.push(rule, &field, message);
    }
    out.0
}

/// The parent of a path: `a.b[]` -> `a.b`, `a.b[].c` -> `a.b[]`, `a` -> none
/// (the body itself).
fn parent(path: &str) -> Option<&str> {
    path.strip_suffix("[]").or_else(|| path.rfind('.').map(|i| &path[..i]))
}

/// Whether a path must be present whenever its parent is (the
/// required flag is relative to the parent). The elements of a declared
/// array never are: the array may be empty.
fn required_in_parent(m: &BTreeMap<String, Site<'_>>, path: &str) -> bool {
    let Some(s) = m.get(path) else { return false };
    if let Some(array) = path.strip_suffix("[]") {
        if m.get(array).is_some_and(|p| p.field.is_some()) {
            return false;
        }
    }
    s.required
}

/// A path only one revision has: `added` (only the new one) or removed
/// (only the old one); `m` is that revision's sites, `other_has` tells which
/// paths the other revision has.
///
/// A subtree only one revision has is reported at its root when the root is
/// optional: the fields below it, required or not, are required
/// only relative to it, so an optional object or array with required
/// children is one `field.added.optional` (or `.removed.optional`). The root
/// may be a declared field or an implied parent of optional fields only. In a
/// required new subtree every field is reported on its own, up to the next
/// optional root below; the elements of a new declared array belong to it.
fn one_sided(
    out: &mut Out,
    path: &str,
    s: &Site<'_>,
    m: &BTreeMap<String, Site<'_>>,
    other_has: impl Fn(&str) -> bool,
    added: bool,
) {
    let mut up = parent(path);
    while let Some(p) = up.filter(|p| !other_has(p)) {
        if !required_in_parent(m, p) {
            // Inside an optional subtree, reported at its root.
            return;
        }
        up = parent(p);
    }
    if let Some(array) = path.strip_suffix("[]") {
        if !other_has(array) && m.get(array).is_some_and(|p| p.field.is_some()) {
            // The elements of a new (or removed) declared array.
            return;
        }
    }
    let required = required_in_parent(m, path);
    if s.field.is_none() && required {
        // An implied parent that is required: its required fields are reported.
        return;
    }
    let id = match (added, required) {
        (true, true) => rules::ADDED_REQUIRED,
        (true, false) => rules::ADDED_OPTIONAL,
        (false, true) => rules::REMOVED_REQUIRED,
        (false, false) => rules::REMOVED_OPTIONAL,
    };
    let message = match (added, required) {
        (true, _) => format!("added {}", s.types),
        (false, _) => format!("removed {}", s.types),
    };
    out.fixed(id, path, message);
}

/// The classes of values a site can hold: its types, narrowed to the types
/// of its enum members when it has an enum (`boolean|null` with enum `[true]`
/// holds booleans only).
fn effective(s: &Site<'_>) -> u8 {
    let declared = classes(s.types);
    match s.field.and_then(|f| f.enum_values.as_deref()) {
        Some(values) => {
            let members = values.iter().fold(0u8, |acc, v| {
                acc | match v.json_type() {
                    JsonType::Number => 4,
                    t => classes(TypeSet::of(t)),
                }
            });
            declared & members
        }
        None => declared,
    }
}

/// The types a site holds, as `string|integer`; when its enum holds fewer
/// types than it declares, those, marked `(by enum)`.
fn type_label(s: &Site<'_>, effective: u8) -> String {
    if effective == classes(s.types) {
        return s.types.label();
    }
    format!("{} (by enum)", bits_label(effective))
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

/// Compares one path present in both revisions.
fn site(out: &mut Out, path: &str, o: &Site<'_>, n: &Site<'_>, element_counts: bool) {
    let (co, cn) = (effective(o), effective(n));
    if co != cn {
        let id = if co & cn == co {
            rules::TYPE_WIDENED
        } else if co & cn == cn {
            rules::TYPE_NARROWED
        } else {
            rules::TYPE_CHANGED
        };
        out.fixed(id, path, format!("{} -> {}", type_label(o, co), type_label(n, cn)));
    }
    if o.field.is_none() && n.field.is_none() {
        // Both implied: their required-ness follows their children, whose
        // own changes are reported.
        return;
    }
    let element = path.ends_with("[]");
    if (!element || element_counts) && o.required != n.required {
        let (id, msg) = if n.required {
            (rules::REQUIRED_TIGHTENED, "optional -> required")
        } else {
            (rules::REQUIRED_RELAXED, "required -> optional")
        };
        out.fixed(id, path, msg.into());
    }
    let empty = Constraints::default();
    let (oc, nc) = (o.field.map_or(&empty, |f| &f.constraints), n.field.map_or(&empty, |f| &f.constraints));
    // Values of a type only one revision accepts are the type change's
    // business: enums and constraints are compared on the shared types.
    let shared = o.types.intersect(n.types);
    let (oe, ne) = (o.field.and_then(|f| f.enum_values.as_deref()), n.field.and_then(|f| f.enum_values.as_deref()));
    enums(out, path, oe, ne, (o.types, n.types));
    constraints(out, path, oc, nc, shared);
    if shared.has_strings() {
        match (asserted_format(o.field), asserted_format(n.field)) {
            (None, Some(b)) => out.keyword("format", Direction::Tightened, path, format!("no format -> format {b}")),
            (Some(a), None) => out.keyword("format", Direction::Relaxed, path, format!("format {a} -> no format")),
            (Some(a), Some(b)) if a != b => {
                out.keyword("format", Direction::Changed, path, format!("format {a} -> format {b}"));
            }
            _ => {}
        }
    }
    if shared.has_objects() && o.node.closed != n.node.closed {
        let (rule, msg) = if n.node.closed {
            (rules::CLOSED_ENABLED, "open -> closed")
        } else {
            (rules::CLOSED_DISABLED, "closed -> open")
        };
        out.fixed(rule, path, msg.into());
    }
}

/// The field's `format` when it is asserted (an annotation is no shape).
fn asserted_format(f: Option<&FieldSpec>) -> Option<&str> {
    f.and_then(FieldSpec::format).filter(|n| crate::format::is_asserted(n))
}

/// A scalar's value as a key: equal keys for equal JSON values (`1.0`
/// and `1`).
fn value_key(v: &Scalar) -> String {
    match v {
        Scalar::Null => "null".into(),
        Scalar::Bool(b) => format!("b{b}"),
        Scalar::Number(d) => {
            let mut out = "n".to_string();
            d.dec().canonical(&mut out);
            out
        }
        Scalar::String(s) => format!("s{s}"),
    }
}

/// `{'a', 'b'}`, or the first values and how many more.
fn bounded_enum_label(values: &[Scalar]) -> String {
    const LISTED: usize = 8;
    let label = enum_label(&values[..values.len().min(LISTED)]);
    match values.len().checked_sub(LISTED) {
        Some(more) if more > 0 => format!("{} and {more} more}}", &label[..label.len() - 1]),
        _ => label,
    }
}

fn enums(out: &mut Out, path: &str, old: Option<&[Scalar]>, new: Option<&[Scalar]>, types: (TypeSet, TypeSet)) {
    let shared = types.0.intersect(types.1);
    if shared.is_empty() {
        return;
    }
    match (old, new) {
        (None, None) => {}
        (None, Some(n)) => out.fixed(rules::ENUM_ADDED, path, format!("open -> {}", bounded_enum_label(n))),
        (Some(o), None) => out.fixed(rules::ENUM_REMOVED, path, format!("{} -> open", bounded_enum_label(o))),
        (Some(o), Some(n)) => {
            // Members only one revision's types accept come and go with the types.
            // Looked up by value (numbers by their canonical form): a wide
            // enum costs linear time.
            let missing = |from: &[Scalar], to: &[Scalar], other: TypeSet| -> Vec<Scalar> {
                let to: std::collections::HashSet<String> = to.iter().map(value_key).collect();
                from.iter().filter(|v| other.accepts(v.json_type()) && !to.contains(&value_key(v))).cloned().collect()
            };
            let dropped = missing(o, n, types.1);
            if !dropped.is_empty() {
                out.fixed(rules::ENUM_RESTRICTED, path, format!("dropped {}", bounded_enum_label(&dropped)));
            }
            let added = missing(n, o, types.0);
            if !added.is_empty() {
                out.fixed(rules::ENUM_EXPANDED, path, format!("added {}", bounded_enum_label(&added)));
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

pub(super) fn constraints(out: &mut Out, path: &str, o: &Constraints, n: &Constraints, shared: TypeSet) {
    if shared.has_numbers() {
        numbers(out, path, o, n);
    }
    if shared.has_strings() {
        strings(out, path, o, n);
    }
    if shared.has_arrays() {
        arrays(out, path, o, n);
    }
}

fn numbers(out: &mut Out, path: &str, o: &Constraints, n: &Constraints) {
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
}

/// A field's pattern, unless every string matches it: such a pattern
/// rejects nothing, the same as none.
fn effective_pattern(c: &Constraints) -> Option<&crate::contract::Pattern> {
    c.pattern.as_ref().filter(|p| !p.matches_everything())
}

fn strings(out: &mut Out, path: &str, o: &Constraints, n: &Constraints) {
    counts(
        out,
        path,
        [("minLength", o.min_length, n.min_length, true), ("maxLength", o.max_length, n.max_length, false)],
    );
    // A pattern every string matches rejects nothing: the same as none.
    match (effective_pattern(o), effective_pattern(n)) {
        (None, Some(p)) => {
            out.keyword("pattern", Direction::Tightened, path, format!("(none) -> pattern {}", quote(p.source())))
        }
        (Some(p), None) => {
            out.keyword("pattern", Direction::Relaxed, path, format!("pattern {} -> (none)", quote(p.source())))
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
    if let Some(rule) = rules::keyword_rule("pattern", direction) {
        out.0.push(Detected { rule, field: path.to_string(), message: format!("{message}{note}"), hints });
    }
}

fn arrays(out: &mut Out, path: &str, o: &Constraints, n: &Constraints) {
    counts(out, path, [("minItems", o.min_items, n.min_items, true), ("maxItems", o.max_items, n.max_items, false)]);
    match (o.unique_items, n.unique_items) {
        (false, true) => out.keyword("uniqueItems", Direction::Tightened, path, "uniqueItems false -> true".into()),
        (true, false) => out.keyword("uniqueItems", Direction::Relaxed, path, "uniqueItems true -> false".into()),
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
