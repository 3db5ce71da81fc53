//! Schema-form revisions compared keyword by keyword (SPEC §11).
//!
//! Both compiled schema graphs are walked side by side from their roots,
//! node pair by node pair: types, `const`/`enum`, `format`, the numeric,
//! string and array bounds (shared with the fields form's detector),
//! properties and their required-ness, closed objects and map values
//! (`name{}`), `prefixItems` positions (`name[0]`) and `items` (`name[]`),
//! `propertyNames`, `contains`, `dependentRequired`, `default`, and unions:
//! tagged members matched by tag, untagged ones by what they accept, each
//! added or removed member one change, each matched member diffed like any
//! other node at the union's path.
//!
//! A pair of nodes is compared once: a `$defs` entry used at several paths
//! is reported at the first path that reaches it (in document order), and a
//! recursive schema ends where a pair repeats. A node's keywords are
//! judged together (`lattice.rs`: integer bounds and steps; a pattern with
//! its length bounds), and a schema applied beside others (an `allOf`
//! member, a `$ref` beside siblings, `then`/`else`, a dependent schema, a
//! union member, `not`, `if`) on the value classes the schema holding it
//! lets through, its keys on the classes the instance's own `properties`
//! give them. What the engine cannot compare (a changed `if`, overlapping
//! `oneOf` members that changed, ...) is `schema.undecided`: breaking, never
//! a silent "compatible". The list is in the rule's record.

use std::collections::HashSet;
use std::rc::Rc;
use std::sync::LazyLock;

use super::detect::{bits_label, classes, constraints, counts, Detected, Out};
use super::lattice;
use super::memo::Memo;
use super::rules::{self, ChangeRule, Direction};
use super::{Impact, CONTRACT_FIELD};
use crate::contract::schema::{literal_label, Id, Literal, Node, Schema, Union};
use crate::contract::{join_key, ContractSpec, JsonType, TypeSet};
use crate::keywords::name;
use crate::validate::DATA_FIELD;
use crate::walk::schema::passes_node;

/// The `true` schema: what an absent subschema (`items`, a map's values)
/// accepts.
static TRUE: LazyLock<Node> = LazyLock::new(Node::default);

/// Listed values (`enum`, `const`) two nodes are judged on at most, to
/// tell whether they accept the same ones.
const MAX_LITERALS_JUDGED: usize = 256;

/// Every value class (as `detect::classes`).
const ALL_CLASSES: u8 = 0x7f;

/// How deep comparisons may nest inside one another (a `not` inside a
/// union member inside `propertyNames`...): past it, a difference is
/// undecided rather than compared.
const MAX_NESTED: usize = 8;

/// Every change between two schema-form revisions (unsorted, without
/// witnesses).
pub(super) fn changes(old: &ContractSpec, new: &ContractSpec) -> Vec<Detected> {
    changes_in(old, new, &Rc::new(Memo::default()))
}

/// [`changes`], with the memo of fresh comparisons (and its step count) given.
pub(super) fn changes_in(old: &ContractSpec, new: &ContractSpec, memo: &Rc<Memo>) -> Vec<Detected> {
    let (Some(a), Some(b)) = (old.schema(), new.schema()) else {
        let mut out = Out(Vec::new());
        out.push(rules::SCHEMA_UNDECIDED, CONTRACT_FIELD, "the revisions are in different forms".into());
        return out.0;
    };
    // (A lowered fields form has no canonical text: it is compared.)
    if !a.canonical_json().is_empty() && a.canonical_json() == b.canonical_json() {
        return Vec::new();
    }
    let mut cx = Cx::new(a, b, 0, memo);
    if a.node(Schema::ROOT).dynamic_scope || b.node(Schema::ROOT).dynamic_scope {
        // Where a `$dynamicRef` leads depends on the path the walk took:
        // the engine does not follow it.
        cx.undecided("", "a schema with a dynamic $dynamicRef changed".into());
    }
    cx.pair(Some(Schema::ROOT), Some(Schema::ROOT), "");
    cx.out.0
}

/// Whether a node holds a keyword whose verdict depends on what the rest
/// of its in-place graph evaluates (`unevaluatedProperties`,
/// `unevaluatedItems`) or on the dynamic scope (`$dynamicRef`).
fn evaluates_others(n: &Node) -> bool {
    n.unevaluated_properties.is_some() || n.unevaluated_items.is_some() || n.dynamic_ref.is_some()
}

/// A subschema's graph as text, its nodes numbered in the order they are
/// reached and annotations, offsets and derived flags left out: two
/// revisions' texts are equal when the graphs accept the same values by the
/// same keywords. With `keys_only`, the root's member schemas (`properties`,
/// `patternProperties`, `additionalProperties`, `items`, `propertyNames`)
/// count by name and presence only: what `unevaluated*` beside them sees
/// (the normal comparison judges their values).
fn shape(s: &Schema, root: Id, keys_only: bool) -> String {
    let mut order: Vec<Id> = vec![root];
    let mut index: std::collections::HashMap<Id, Id> = std::collections::HashMap::from([(root, 0)]);
    let mut out = String::new();
    let mut i = 0;
    while i < order.len() {
        let mut n = s.node(order[i]).clone();
        let own = keys_only && i == 0;
        i += 1;
        let mut follow = |x: &mut Id| {
            let next = index.len() as Id;
            *x = *index.entry(*x).or_insert_with(|| {
                order.push(*x);
                next
            });
        };
        let cut = |x: &mut Id| *x = Id::MAX;
        for (_, c) in &mut n.properties {
            if own {
                cut(c)
            } else {
                follow(c)
            }
        }
        for (_, c) in &mut n.pattern_properties {
            if own {
                cut(c)
            } else {
                follow(c)
            }
        }
        for c in [&mut n.additional, &mut n.property_names, &mut n.items].into_iter().flatten() {
            if own {
                cut(c)
            } else {
                follow(c)
            }
        }
        for (_, c) in &mut n.dependent_schemas {
            follow(c);
        }
        n.prefix_items.iter_mut().for_each(&mut follow);
        n.all_of.iter_mut().for_each(&mut follow);
        for c in [&mut n.contains, &mut n.reference, &mut n.not, &mut n.bare].into_iter().flatten() {
            follow(c);
        }
        for c in [&mut n.unevaluated_properties, &mut n.unevaluated_items].into_iter().flatten() {
            follow(c);
        }
        for u in [&mut n.any_of, &mut n.one_of].into_iter().flatten() {
            u.members.iter_mut().for_each(&mut follow);
            u.tag = None;
        }
        if let Some(c) = &mut n.condition {
            follow(&mut c.test);
            c.then.iter_mut().for_each(&mut follow);
            c.otherwise.iter_mut().for_each(&mut follow);
        }
        if let Some(d) = &mut n.dynamic_ref {
            follow(&mut d.0);
            for (r, c) in &mut d.1 {
                *r = 0;
                follow(c);
            }
        }
        (n.offset, n.resource, n.label, n.def, n.default, n.description) = (0, 0, None, None, None, None);
        (n.property_index, n.property_heads, n.dynamic_scope) = (None, Vec::new(), false);
        out.push_str(&format!("{n:?}\n"));
    }
    out
}

struct Cx<'s> {
    a: &'s Schema,
    b: &'s Schema,
    out: Out,
    /// Node pairs already compared (or being compared: recursion).
    seen: HashSet<(Option<Id>, Option<Id>)>,
    nested: usize,
    /// The union members being compared, innermost last: each message
    /// names its member, since members share their union's path.
    members: Vec<String>,
    /// Whether the next [`Cx::pair`] compares schemas applied beside others
    /// to the instance already being compared (an `allOf` member, a `$ref`
    /// beside siblings, `then`/`else`, a dependent schema, a union member),
    /// not a new instance.
    conjunct: bool,
    /// For each instance being compared, innermost last: the keys each
    /// revision declares there, in the node or any schema applied beside it.
    keys: Vec<Rc<[HashSet<Box<str>>; 2]>>,
    /// Fresh comparisons already made, shared with every nested one.
    memo: Rc<Memo>,
    /// The value classes the instance being compared can hold under both
    /// revisions' schemas around the one compared (an outer `type: string`
    /// beside a `then`): what a conjunct says of other values is moot.
    within: u8,
    /// Node pairs compared within fewer classes than all (a conjunct under
    /// an outer type), with those classes: such a comparison does not stand
    /// for one within all classes.
    seen_within: HashSet<(Option<Id>, Option<Id>, u8)>,
    /// For each instance being compared, innermost last: the node pair the
    /// instance was reached at (whose own properties hold under every
    /// schema applied beside it).
    instances: Vec<(Option<Id>, Option<Id>)>,
    /// The classes the next new instance is compared within (a key's value
    /// that the instance's own `properties` already type).
    next_within: u8,
}

/// A finding path's text for a change at `path` (`<data>` for the value
/// itself).
fn shown(path: &str) -> &str {
    if path.is_empty() {
        DATA_FIELD
    } else {
        path
    }
}

/// Whether `id` is a parent that a fields-form contract's dotted paths
/// only imply.
fn implied(s: &Schema, id: Option<Id>) -> bool {
    id.is_some_and(|id| s.node(id).field.as_ref().is_some_and(|m| !m.declared))
}

fn node(s: &Schema, id: Option<Id>) -> &Node {
    match id {
        Some(id) => s.node(id),
        None => &TRUE,
    }
}

/// The node a chain of bare `$ref`s ends at (`None`, the `true` schema, for
/// a trivial node).
fn resolve(s: &Schema, mut id: Option<Id>) -> Option<Id> {
    for _ in 0..=crate::contract::schema::compile::MAX_CHAIN {
        let at = id?;
        let n = s.node(at);
        match n.bare {
            Some(target) => id = Some(target),
            None if n.is_trivial() && n.default.is_none() => return None,
            None => return Some(at),
        }
    }
    id
}

/// The value classes (as `detect::classes`) a literal belongs to.
fn literal_bits(l: &Literal) -> u8 {
    match l.canonical.as_bytes().first() {
        Some(b'"') => 1,
        Some(b't' | b'f') => 8,
        Some(b'n') => 64,
        Some(b'{') => 16,
        Some(b'[') => 32,
        // A number, canonical as its significant digits and the exponent of
        // the first (`15e0` is 1.5, `25e1` is 25, `0` is 0).
        _ => {
            let text = l.canonical.trim_start_matches('-');
            let integer = match text.split_once('e') {
                Some((digits, exp)) => exp.parse::<i64>().is_ok_and(|e| digits.len() as i64 - 1 <= e),
                None => true,
            };
            if integer {
                2
            } else {
                4
            }
        }
    }
}

/// The literals a node allows (`const` and `enum` together), if it names
/// any.
fn literals(n: &Node) -> Option<Vec<&Literal>> {
    match (&n.constant, &n.enum_values) {
        (Some(c), Some(e)) => Some(if e.contains(c) { vec![c] } else { Vec::new() }),
        (Some(c), None) => Some(vec![c]),
        (None, Some(e)) => Some(e.iter().collect()),
        (None, None) => None,
    }
}

fn types(n: &Node) -> TypeSet {
    if n.never {
        TypeSet::EMPTY
    } else {
        n.types.unwrap_or(TypeSet::ANY)
    }
}

/// The value classes a node can hold: its types, narrowed by its numeric
/// keywords (a `multipleOf: 1` number holds integers) and its literals.
fn effective(n: &Node) -> u8 {
    let mut declared = classes(types(n));
    if declared & lattice::NUMBERS != 0 {
        let integers = declared & lattice::NUMBERS == lattice::INTEGERS;
        declared = declared & !lattice::NUMBERS | lattice::number_classes(&n.constraints, integers);
    }
    match literals(n) {
        Some(ls) => declared & ls.iter().fold(0u8, |acc, l| acc | literal_bits(l)),
        None => declared,
    }
}

/// How a message names the values a node holds: their classes; for a
/// field a fields-form contract declares, its types as written, or the
/// classes its enum leaves, marked so.
fn type_text(n: &Node, effective: u8) -> String {
    match n.field {
        Some(_) if effective == classes(types(n)) => types(n).label(),
        Some(_) if literals(n).is_some() => format!("{} (by enum)", bits_label(effective)),
        _ => bits_label(effective),
    }
}

fn show_literal(l: Option<&Literal>) -> String {
    l.map_or("(none)".into(), Literal::display)
}

/// The literals of `from` that `to` lacks and the other revision's types
/// accept (looked up by canonical form: a wide enum costs linear time).
fn missing<'x>(from: &[&'x Literal], to: &[&Literal], other: TypeSet) -> Vec<&'x Literal> {
    let to: HashSet<&str> = to.iter().map(|l| &*l.canonical).collect();
    from.iter().copied().filter(|l| literal_bits(l) & classes(other) != 0 && !to.contains(&*l.canonical)).collect()
}

/// How many values a message lists before it counts the rest.
const LISTED: usize = 8;

/// `{'a', 'b'}`, or the first [`LISTED`] values and how many more.
fn bounded_label(ls: &[&Literal]) -> String {
    let shown: Vec<Literal> = ls.iter().take(LISTED).map(|l| (*l).clone()).collect();
    let label = literal_label(&shown);
    match ls.len().checked_sub(LISTED) {
        Some(more) if more > 0 => format!("{} and {more} more}}", &label[..label.len() - 1]),
        _ => label,
    }
}

/// The union of a node, with its keyword: `anyOf` before `oneOf`.
fn unions(n: &Node) -> [(&'static str, Option<&Union>); 2] {
    [(name::ANY_OF, n.any_of.as_deref()), (name::ONE_OF, n.one_of.as_deref())]
}

/// Every key a node declares (`properties`, `required`) for the instance
/// it is applied to, with the schemas it applies there beside its own
/// keywords: `$ref`, `allOf`, `if`/`then`/`else`, dependent schemas.
/// (Union members are alternatives: a key one member declares is not
/// declared for the values another member accepts.)
fn instance_keys(s: &Schema, id: Option<Id>) -> HashSet<Box<str>> {
    let mut keys = HashSet::new();
    let mut visited = HashSet::new();
    let mut todo: Vec<Id> = id.into_iter().collect();
    while let Some(at) = todo.pop() {
        if !visited.insert(at) {
            continue;
        }
        let n = s.node(at);
        keys.extend(n.properties.iter().map(|(k, _)| k.clone()));
        keys.extend(n.required.iter().cloned());
        todo.extend(n.bare.iter().chain(&n.reference).chain(&n.all_of).copied());
        todo.extend(n.dependent_schemas.iter().map(|(_, d)| *d));
        if let Some(c) = &n.condition {
            todo.extend([Some(c.test), c.then, c.otherwise].into_iter().flatten());
        }
    }
    keys
}

/// The value classes the `properties` entry for `key` of node `id` (bare
/// references followed) allows; all of them when it declares none.
fn key_classes(s: &Schema, id: Option<Id>, key: &str) -> u8 {
    let n = node(s, resolve(s, id));
    n.properties
        .iter()
        .find(|(k, _)| &**k == key)
        .map_or(ALL_CLASSES, |(_, p)| effective(node(s, resolve(s, Some(*p)))))
}

/// Whether a node does nothing but apply one union (`{"anyOf": [...]}`).
fn only_union(n: &Node) -> Option<(&'static str, &Union)> {
    let plain = n.has_no_own_keyword()
        && n.reference.is_none()
        && n.all_of.is_empty()
        && n.not.is_none()
        && n.condition.is_none()
        && n.dependent_schemas.is_empty();
    match (plain, &n.any_of, &n.one_of) {
        (true, Some(u), None) => Some((name::ANY_OF, u)),
        (true, None, Some(u)) => Some((name::ONE_OF, u)),
        _ => None,
    }
}

impl<'s> Cx<'s> {
    fn new(a: &'s Schema, b: &'s Schema, nested: usize, memo: &Rc<Memo>) -> Self {
        Cx {
            a,
            b,
            out: Out(Vec::new()),
            seen: HashSet::new(),
            nested,
            members: Vec::new(),
            conjunct: false,
            keys: Vec::new(),
            memo: Rc::clone(memo),
            within: ALL_CLASSES,
            seen_within: HashSet::new(),
            instances: Vec::new(),
            next_within: ALL_CLASSES,
        }
    }

    /// Compares two schemas applied to the instance at `path` beside
    /// others: a key one declares and the other does not is a constraint
    /// on a key the instance may already declare, not a new field.
    fn conjunct(&mut self, a: Option<Id>, b: Option<Id>, path: &str) {
        self.conjunct = true;
        self.pair(a, b, path);
    }

    /// Whether the revision on `side` (0 old, 1 new) declares `key` at the
    /// instance being compared, in any schema applied to it.
    fn declared_here(&self, side: usize, key: &str) -> bool {
        self.keys.last().is_some_and(|k| k[side].contains(key))
    }

    fn push(&mut self, rule: &'static ChangeRule, path: &str, message: String) {
        self.out.push(rule, shown(path), message);
    }

    /// Compares two members of a union, named in the messages.
    fn member(&mut self, a: Id, b: Id, label: String, path: &str) {
        self.members.push(label);
        let before = self.out.0.len();
        self.conjunct(Some(a), Some(b), path);
        // Keyword changes write their own messages: name the member there too.
        let label = self.members.pop().unwrap_or_default();
        for d in &mut self.out.0[before..] {
            if !d.message.contains(" (in member ") {
                d.message = format!("{} (in member {label})", d.message);
            }
        }
    }

    /// A key's required-ness, when it changed.
    fn required_change(&mut self, was: bool, is: bool, path: &str) {
        if was != is {
            let (rule, msg) = if is {
                (rules::REQUIRED_TIGHTENED, "optional -> required")
            } else {
                (rules::REQUIRED_RELAXED, "required -> optional")
            };
            self.push(rule, path, msg.into());
        }
    }

    /// A key only one revision of a fields-form contract has (`added`: the
    /// new one, node `id` of it), reported at the fields the contract
    /// declares: an optional subtree at its root alone (what is below is
    /// required only relative to it); in a required one, every declared
    /// field on its own down to the next optional root, never an implied
    /// parent; the elements of a declared array belong to the array.
    fn fields_one_sided(&mut self, added: bool, id: Id, path: &str, required: bool) {
        let s = if added { self.b } else { self.a };
        let n = s.node(id);
        let declared = n.field.as_ref().is_none_or(|m| m.declared);
        let label = types(n).label();
        let (word, rule) = match (added, required) {
            (true, true) => ("added", rules::ADDED_REQUIRED),
            (true, false) => ("added", rules::ADDED_OPTIONAL),
            (false, true) => ("removed", rules::REMOVED_REQUIRED),
            (false, false) => ("removed", rules::REMOVED_OPTIONAL),
        };
        if declared || !required {
            self.push(rule, path, format!("{word} {label}"));
        }
        if !required {
            return;
        }
        for (key, child) in &n.properties {
            let r = n.required.iter().any(|k| k == key);
            self.fields_one_sided(added, *child, &join_key(path, key), r);
        }
        if let Some(items) = n.items.filter(|_| !declared) {
            let r = s.node(items).field.as_ref().is_some_and(|m| m.required);
            self.fields_one_sided(added, items, &format!("{path}[]"), r);
        }
    }

    fn undecided(&mut self, path: &str, what: String) {
        self.push(rules::SCHEMA_UNDECIDED, path, format!("{what}: not compared (judged breaking)"));
    }

    /// The changes between two subschemas on their own (a fresh comparison:
    /// nothing reported yet counts as seen).
    fn scratch(&self, a: Option<Id>, b: Option<Id>) -> Vec<Detected> {
        if self.nested >= MAX_NESTED {
            let mut cx = Cx::new(self.a, self.b, self.nested, &self.memo);
            cx.undecided("", "schemas nested too deep to compare".into());
            return cx.out.0;
        }
        self.memo.changes(a, b, self.nested, None, || {
            let mut cx = Cx::new(self.a, self.b, self.nested + 1, &self.memo);
            cx.pair(a, b, "");
            cx.out.0
        })
    }

    /// [`Cx::scratch`] on the values the instance being compared can hold
    /// (for a schema applied to that same instance: `not`, `if`).
    fn scratch_within(&self, a: Option<Id>, b: Option<Id>) -> Vec<Detected> {
        if self.nested >= MAX_NESTED {
            return self.scratch(a, b);
        }
        self.memo.changes(a, b, self.nested, Some(self.within), || {
            let mut cx = Cx::new(self.a, self.b, self.nested + 1, &self.memo);
            cx.within = self.within;
            cx.conjunct = true;
            cx.pair(a, b, "");
            cx.out.0
        })
    }

    /// Whether two schemas applied to the instance being compared accept
    /// the same of the values it can hold (their annotations may differ).
    fn alike_within(&self, a: Id, b: Id) -> bool {
        self.scratch_within(Some(a), Some(b)).iter().all(|d| d.rule == rules::ANNOTATION_CHANGED)
    }

    /// Whether two subschemas accept the same values, as far as the engine
    /// can tell (their annotations may differ).
    fn same(&self, a: Option<Id>, b: Option<Id>) -> bool {
        self.likeness(a, b).is_some()
    }

    /// `None` when two subschemas differ in what they accept (as far as the
    /// engine can tell), `Some(true)` when they are alike in annotations
    /// too.
    fn likeness(&self, a: Option<Id>, b: Option<Id>) -> Option<bool> {
        let (a, b) = (resolve(self.a, a), resolve(self.b, b));
        if a.is_none() && b.is_none() {
            return Some(true);
        }
        let changes = self.scratch(a, b);
        let notes = changes.iter().filter(|d| d.rule == rules::ANNOTATION_CHANGED).count();
        (notes == changes.len()).then_some(notes == 0)
    }

    /// Whether two nodes that each allow only listed values (`enum`,
    /// `const`) accept exactly the same ones: every value either lists is
    /// judged by both nodes, whatever else changed beside the lists (a bound
    /// that excludes no listed value changes nothing).
    fn same_literals(&self, a: Option<Id>, b: Option<Id>) -> bool {
        let (Some(a), Some(b)) = (a, b) else { return false };
        let (Some(la), Some(lb)) = (literals(self.a.node(a)), literals(self.b.node(b))) else { return false };
        if la.len() + lb.len() > MAX_LITERALS_JUDGED {
            return false;
        }
        la.iter().chain(&lb).all(|l| {
            // The value as JSON (the canonical form is a key, not JSON).
            let text = match &l.string {
                Some(s) => serde_json::Value::from(&**s).to_string(),
                None => l.shown.to_string(),
            };
            passes_node(self.a, a, text.as_bytes()) == passes_node(self.b, b, text.as_bytes())
        })
    }

    /// Two members that accept the same values, compared for their
    /// annotations when those differ (as union member `label`).
    fn noted(&mut self, a: Id, b: Id, label: Option<String>, path: &str) {
        if self.likeness(Some(a), Some(b)) != Some(false) {
            return;
        }
        match label {
            Some(label) => self.member(a, b, label, path),
            None => self.conjunct(Some(a), Some(b), path),
        }
    }

    /// The `title` and `description` of two subschemas compared at `path`,
    /// when both revisions have one there.
    fn annotations(&mut self, a: Option<Id>, b: Option<Id>, path: &str) {
        if let (Some(a), Some(b)) = (a, b) {
            let (na, nb) = (self.a.node(a), self.b.node(b));
            super::annotations::nodes(&mut self.out.0, shown(path), na, nb);
        }
    }

    /// Compares one node of each revision, at `path`: a new instance,
    /// unless [`Cx::conjunct`] called.
    fn pair(&mut self, a: Option<Id>, b: Option<Id>, path: &str) {
        let instance = !std::mem::take(&mut self.conjunct);
        let outer = self.within;
        if instance {
            let keys = [instance_keys(self.a, a), instance_keys(self.b, b)];
            self.keys.push(Rc::new(keys));
            self.instances.push((a, b));
            self.within = std::mem::replace(&mut self.next_within, ALL_CLASSES);
        }
        self.compare(a, b, path);
        if instance {
            self.keys.pop();
            self.instances.pop();
        }
        self.within = outer;
    }

    fn compare(&mut self, a: Option<Id>, b: Option<Id>, path: &str) {
        self.memo.step();
        let (raw_a, raw_b) = (a, b);
        let (a, b) = (resolve(self.a, a), resolve(self.b, b));
        if a.is_none() && b.is_none() {
            self.annotations(raw_a, raw_b, path);
            return;
        }
        let fresh = if self.within == ALL_CLASSES {
            self.seen.insert((a, b))
        } else {
            !self.seen.contains(&(a, b)) && self.seen_within.insert((a, b, self.within))
        };
        if !fresh {
            return;
        }
        let (na, nb) = (node(self.a, a), node(self.b, b));
        if evaluates_others(na) || evaluates_others(nb) {
            let alike = match (a, b) {
                (Some(a), Some(b)) => shape(self.a, a, true) == shape(self.b, b, true),
                _ => false,
            };
            if !alike {
                let what =
                    "unevaluatedProperties, unevaluatedItems or $dynamicRef, or what they see beside them, changed";
                self.undecided(path, what.into());
            }
        }
        self.annotations(raw_a, raw_b, path);
        if (raw_a, raw_b) != (a, b) {
            self.annotations(a, b, path);
        }
        let (na, nb) = (node(self.a, a), node(self.b, b));
        if na.default != nb.default {
            let msg =
                format!("default {} -> {}", show_literal(na.default.as_deref()), show_literal(nb.default.as_deref()));
            self.push(rules::DEFAULT_CHANGED, path, msg);
        }
        if self.same_literals(a, b) {
            return;
        }
        if self.wrapped(a, b, path) {
            return;
        }
        let (mut ea, mut eb) = (effective(na) & self.within, effective(nb) & self.within);
        let by_keywords = literals(na).is_none() && literals(nb).is_none();
        if by_keywords && types(na).intersect(types(nb)).contains(JsonType::Number) && ea & eb & lattice::INTEGERS != 0
        {
            // Non-integers both revisions' types allow and one's numeric
            // keywords exclude: the keywords' change, reported with them
            // (an enum's integers are the enum's change, told by type).
            let numbers = lattice::NUMBERS & self.within;
            (ea, eb) = (ea | numbers, eb | numbers);
        }
        if ea != eb {
            let rule = if ea & eb == ea {
                rules::TYPE_WIDENED
            } else if ea & eb == eb {
                rules::TYPE_NARROWED
            } else {
                rules::TYPE_CHANGED
            };
            self.push(rule, path, format!("{} -> {}", type_text(na, ea), type_text(nb, eb)));
        }
        if ea & eb == 0 {
            // Nothing both accept: the type change says it all.
            return;
        }
        // Schemas applied beside these judge only what both these hold.
        self.within = ea & eb;
        let shared = types(na).intersect(types(nb));
        self.literals(na, nb, (types(na), types(nb)), path);
        constraints(&mut self.out, shown(path), &na.constraints, &nb.constraints, shared, ea & eb);
        if shared.has_strings() {
            let field = shown(path);
            match (na.format, nb.format) {
                (None, Some(f)) => {
                    self.out.keyword(name::FORMAT, Direction::Tightened, field, format!("no format -> format {f}"))
                }
                (Some(f), None) => {
                    self.out.keyword(name::FORMAT, Direction::Relaxed, field, format!("format {f} -> no format"))
                }
                (Some(x), Some(y)) if x != y => {
                    self.out.keyword(name::FORMAT, Direction::Changed, field, format!("format {x} -> format {y}"))
                }
                _ => {}
            }
        }
        if shared.has_objects() {
            self.objects(na, nb, path);
        }
        if shared.has_arrays() {
            self.arrays(na, nb, path);
        }
        self.applicators(na, nb, path);
    }

    /// A single schema that became a union keeping it as a member (or a
    /// union that became one of its members): the other members are added
    /// (removed). Returns whether the pair was handled so.
    fn wrapped(&mut self, a: Option<Id>, b: Option<Id>, path: &str) -> bool {
        let (na, nb) = (node(self.a, a), node(self.b, b));
        let a_union = na.any_of.is_some() || na.one_of.is_some();
        let b_union = nb.any_of.is_some() || nb.one_of.is_some();
        if !a_union && b_union {
            if let Some((kind, u)) = only_union(nb) {
                if let Some(keep) = u.members.iter().position(|&m| self.same(a, Some(m))) {
                    let others: Vec<usize> = (0..u.members.len()).filter(|&i| i != keep).collect();
                    if kind == name::ONE_OF && u.tag.is_none() && self.overlapping(self.b, &u.members) {
                        self.undecided(path, "a schema became an untagged oneOf with overlapping members".into());
                    } else {
                        for i in others {
                            let msg = format!("{kind} member {} added", self.member_label(self.b, u, i));
                            self.push(rules::UNION_MEMBER_ADDED, path, msg);
                        }
                    }
                    return true;
                }
            }
        }
        if a_union && !b_union {
            if let Some((kind, u)) = only_union(na) {
                if let Some(keep) = u.members.iter().position(|&m| self.same(Some(m), b)) {
                    for i in (0..u.members.len()).filter(|&i| i != keep) {
                        let msg = format!("{kind} member {} removed", self.member_label(self.a, u, i));
                        self.push(rules::UNION_MEMBER_REMOVED, path, msg);
                    }
                    return true;
                }
            }
        }
        false
    }

    fn literals(&mut self, na: &Node, nb: &Node, types: (TypeSet, TypeSet), path: &str) {
        let (la, lb) = (literals(na), literals(nb));
        let label = bounded_label;
        match (la, lb) {
            (None, None) => {}
            (None, Some(n)) => self.push(rules::ENUM_ADDED, path, format!("open -> {}", label(&n))),
            (Some(o), None) => self.push(rules::ENUM_REMOVED, path, format!("{} -> open", label(&o))),
            (Some(o), Some(n)) => {
                // Members only one revision's types accept come and go with the types.
                let dropped = missing(&o, &n, types.1);
                if !dropped.is_empty() {
                    self.push(rules::ENUM_RESTRICTED, path, format!("dropped {}", label(&dropped)));
                    self.hint_strings(&dropped);
                }
                let added = missing(&n, &o, types.0);
                if !added.is_empty() {
                    self.push(rules::ENUM_EXPANDED, path, format!("added {}", label(&added)));
                    self.hint_strings(&added);
                }
            }
        }
    }

    /// The first string values that tell the revisions apart, as hints for
    /// the last change's witness (a wide enum's witness search samples only
    /// a few of its values).
    fn hint_strings(&mut self, values: &[&Literal]) {
        let hints = values.iter().filter_map(|l| l.string.as_deref()).take(LISTED).map(str::to_string).collect();
        if let Some(d) = self.out.0.last_mut() {
            d.hints = hints;
        }
    }

    fn objects(&mut self, na: &Node, nb: &Node, path: &str) {
        // Properties, declared by `properties` or `required`, in document order.
        let mut keys: Vec<&str> = Vec::new();
        for n in [na, nb] {
            for k in n.properties.iter().map(|(k, _)| &**k).chain(n.required.iter().map(|k| &**k)) {
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        let declared = |n: &Node, k: &str| {
            n.properties
                .iter()
                .find(|(p, _)| &**p == k)
                .map(|(_, id)| Some(*id))
                .or_else(|| n.required.iter().any(|r| &**r == k).then_some(None))
        };
        let required = |n: &Node, k: &str| n.required.iter().any(|r| &**r == k);
        let in_properties = |n: &Node, k: &str| n.properties.iter().any(|(p, _)| &**p == k);
        // In a schema applied beside the instance's own (a `then`, an
        // `allOf` member), a key's value is judged on what the instance's
        // own `properties` let it hold: those are compared on their own.
        let root = self.instances.last().copied().filter(|&(ra, rb)| {
            !(std::ptr::eq(node(self.a, resolve(self.a, ra)), na)
                && std::ptr::eq(node(self.b, resolve(self.b, rb)), nb))
        });
        for key in keys {
            let sub = join_key(path, key);
            if let Some((ra, rb)) = root {
                self.next_within = key_classes(self.a, ra, key) & key_classes(self.b, rb, key);
            }
            let (ra, rb) = (required(na, key), required(nb, key));
            let conjunct = std::ptr::eq(na, &*TRUE) || std::ptr::eq(nb, &*TRUE);
            if conjunct && !in_properties(na, key) && !in_properties(nb, key) {
                // A schema beside others (a dependent schema, an `allOf`
                // member) added or removed that names a key in `required`
                // only: only the key's required-ness changed.
                self.required_change(ra, rb, &sub);
                continue;
            }
            match (declared(na, key), declared(nb, key)) {
                (None, Some(pb)) if !na.closed && self.declared_here(0, key) => {
                    // The old revision declares the key beside this schema:
                    // the new schema constrains a key the instance had.
                    self.required_change(ra, rb, &sub);
                    self.pair(None, pb, &sub);
                }
                (Some(pa), None) if !nb.closed && self.declared_here(1, key) => {
                    // The new revision still declares the key beside this
                    // schema: this one's constraint on it is gone.
                    self.required_change(ra, rb, &sub);
                    self.pair(pa, None, &sub);
                }
                (Some(pa), None) if !nb.closed && resolve(self.b, nb.additional).is_some() => {
                    // The key now falls to the map's value schema.
                    self.required_change(ra, false, &sub);
                    self.pair(pa, nb.additional, &sub);
                }
                (None, Some(pb)) if !na.closed && resolve(self.a, na.additional).is_some() => {
                    // The key was the map's: its value schema is compared.
                    self.required_change(false, rb, &sub);
                    self.pair(na.additional, pb, &sub);
                }
                (Some(Some(pa)), None) if self.a.node(pa).field.is_some() => {
                    self.fields_one_sided(false, pa, &sub, ra);
                    if nb.closed {
                        self.push(rules::REMOVED_CLOSED, &sub, "the key is undeclared in a closed object now".into());
                    }
                }
                (None, Some(Some(pb))) if self.b.node(pb).field.is_some() => {
                    self.fields_one_sided(true, pb, &sub, rb);
                    if na.closed {
                        self.push(rules::ADDED_CLOSED, &sub, "the key was undeclared in a closed object".into());
                    }
                }
                (Some(pa), None) => {
                    let label = bits_label(effective(node(self.a, resolve(self.a, pa))));
                    let rule = if ra { rules::REMOVED_REQUIRED } else { rules::REMOVED_OPTIONAL };
                    self.push(rule, &sub, format!("removed {label}"));
                    if nb.closed {
                        self.push(rules::REMOVED_CLOSED, &sub, "the key is undeclared in a closed object now".into());
                    }
                }
                (None, Some(pb)) => {
                    let label = bits_label(effective(node(self.b, resolve(self.b, pb))));
                    let rule = if rb { rules::ADDED_REQUIRED } else { rules::ADDED_OPTIONAL };
                    self.push(rule, &sub, format!("added {label}"));
                    if na.closed {
                        self.push(rules::ADDED_CLOSED, &sub, "the key was undeclared in a closed object".into());
                    }
                }
                (Some(pa), Some(pb)) => {
                    if !(implied(self.a, pa) && implied(self.b, pb)) {
                        // (Two implied parents: their requiredness follows
                        // their children, whose own changes are reported.)
                        self.required_change(ra, rb, &sub);
                    }
                    self.pair(pa, pb, &sub);
                }
                (None, None) => {}
            }
            self.next_within = ALL_CLASSES;
        }
        self.next_within = ALL_CLASSES;
        let root = path.is_empty();
        match (na.closed, nb.closed) {
            (false, true) => {
                let rule = if root { rules::CONTRACT_CLOSED_ENABLED } else { rules::CLOSED_ENABLED };
                let field = if root { CONTRACT_FIELD } else { path };
                self.out.push(rule, field, "open -> closed".into());
            }
            (true, false) => {
                let rule = if root { rules::CONTRACT_CLOSED_DISABLED } else { rules::CLOSED_DISABLED };
                let field = if root { CONTRACT_FIELD } else { path };
                self.out.push(rule, field, "closed -> open".into());
            }
            (false, false) if na.additional.is_some() || nb.additional.is_some() => {
                self.pair(na.additional, nb.additional, &format!("{path}{{}}"));
            }
            _ => {}
        }
        self.pattern_properties(na, nb, path);
        self.summarised(na.property_names, nb.property_names, name::PROPERTY_NAMES, path);
        counts(
            &mut self.out,
            shown(path),
            [
                (name::MIN_PROPERTIES, na.min_properties, nb.min_properties, true),
                (name::MAX_PROPERTIES, na.max_properties, nb.max_properties, false),
            ],
        );
        self.dependent_required(na, nb, path);
        // Each dependent schema is one more schema the object passes when
        // its key is present: one added tightens, one removed relaxes.
        for (key, x) in &na.dependent_schemas {
            let y = nb.dependent_schemas.iter().find(|(k, _)| k == key).map(|(_, y)| *y);
            self.conjunct(Some(*x), y, path);
        }
        for (key, y) in &nb.dependent_schemas {
            if !na.dependent_schemas.iter().any(|(k, _)| k == key) {
                self.conjunct(None, Some(*y), path);
            }
        }
    }

    /// `patternProperties` matched by pattern: a pattern removed lets its
    /// keys hold anything (as `true`), one added constrains them. With
    /// `additionalProperties` beside them, a key a removed pattern let go
    /// falls to it instead: not compared.
    fn pattern_properties(&mut self, na: &Node, nb: &Node, path: &str) {
        let sources = |n: &Node| n.pattern_properties.iter().map(|(p, _)| p.source().to_string()).collect::<Vec<_>>();
        let (sa, sb) = (sources(na), sources(nb));
        let mut same = sa.clone();
        same.sort();
        let mut other = sb.clone();
        other.sort();
        let governed = na.closed || nb.closed || na.additional.is_some() || nb.additional.is_some();
        if same != other && governed {
            return self.undecided(path, "patternProperties patterns changed beside additionalProperties".into());
        }
        let values = format!("{path}{{}}");
        for (p, x) in &na.pattern_properties {
            let y = nb.pattern_properties.iter().find(|(q, _)| q.source() == p.source()).map(|(_, y)| *y);
            self.pair(Some(*x), y, &values);
        }
        for (q, y) in &nb.pattern_properties {
            if !na.pattern_properties.iter().any(|(p, _)| p.source() == q.source()) {
                self.pair(None, Some(*y), &values);
            }
        }
    }

    fn dependent_required(&mut self, na: &Node, nb: &Node, path: &str) {
        let mut keys: Vec<&str> = Vec::new();
        for n in [na, nb] {
            for (k, _) in &n.dependent_required {
                if !keys.contains(&&**k) {
                    keys.push(k);
                }
            }
        }
        for key in keys {
            let set = |n: &'_ Node| -> Vec<String> {
                let mut v: Vec<String> = n
                    .dependent_required
                    .iter()
                    .filter(|(k, _)| &**k == key)
                    .flat_map(|(_, d)| d.iter().map(|x| x.to_string()))
                    .collect();
                v.sort();
                v.dedup();
                v
            };
            let (sa, sb) = (set(na), set(nb));
            if sa == sb {
                continue;
            }
            let more = sa.iter().all(|x| sb.contains(x));
            let fewer = sb.iter().all(|x| sa.contains(x));
            let d = match (more, fewer) {
                (true, _) => Direction::Tightened,
                (_, true) => Direction::Relaxed,
                _ => Direction::Changed,
            };
            let msg = format!("{}: [{}] -> [{}]", crate::json::text::quote(key, 80), sa.join(", "), sb.join(", "));
            self.out.keyword(name::DEPENDENT_REQUIRED, d, shown(path), msg);
        }
    }

    fn arrays(&mut self, na: &Node, nb: &Node, path: &str) {
        let positions = na.prefix_items.len().max(nb.prefix_items.len());
        for i in 0..positions {
            let at = |n: &Node| n.prefix_items.get(i).copied().or(n.items);
            self.pair(at(na), at(nb), &format!("{path}[{i}]"));
        }
        if na.items.is_some() || nb.items.is_some() {
            let elements = format!("{path}[]");
            if let (Some(x), Some(y)) = (na.items, nb.items) {
                // A fields-form element's own `required` counts only through
                // an array that both revisions imply (then required when an
                // element is); a declared array's own flag says it all.
                let implies = |n: &Node| n.field.as_ref().is_some_and(|m| !m.declared);
                let flag = |s: &Schema, id: Id| s.node(id).field.as_ref().map(|m| m.required);
                let element_implied = |s: &Schema, id: Id| s.node(id).field.as_ref().is_some_and(|m| !m.declared);
                if implies(na) && implies(nb) && !(element_implied(self.a, x) && element_implied(self.b, y)) {
                    if let (Some(was), Some(is)) = (flag(self.a, x), flag(self.b, y)) {
                        self.required_change(was, is, &elements);
                    }
                }
            }
            self.pair(na.items, nb.items, &elements);
        }
        match (na.contains, nb.contains) {
            (Some(x), Some(y)) if na.max_contains.is_some() || nb.max_contains.is_some() => {
                self.capped_contains(x, y, path)
            }
            _ => self.summarised(na.contains, nb.contains, name::CONTAINS, path),
        }
        if na.contains.is_some() && nb.contains.is_some() {
            counts(
                &mut self.out,
                shown(path),
                [
                    (name::MIN_CONTAINS, Some(na.min_contains.unwrap_or(1)), Some(nb.min_contains.unwrap_or(1)), true),
                    (name::MAX_CONTAINS, na.max_contains, nb.max_contains, false),
                ],
            );
        }
    }

    /// A keyword whose value is a schema judged as a whole (`propertyNames`,
    /// `contains`): the differences inside it summed up as one change,
    /// tightened, relaxed or changed.
    fn summarised(&mut self, a: Option<Id>, b: Option<Id>, keyword: &str, path: &str) {
        if a.is_none() && b.is_none() {
            return;
        }
        // An absent `contains` accepts every array, which a `contains`
        // of `true` does not (it needs one element).
        let inner = match (keyword, a, b) {
            (name::CONTAINS, None, Some(_)) | (name::CONTAINS, Some(_), None) => {
                let d = if a.is_none() { Direction::Tightened } else { Direction::Relaxed };
                let msg = if a.is_none() { "no contains -> contains" } else { "contains -> no contains" };
                self.out.keyword(keyword, d, shown(path), msg.into());
                return;
            }
            _ => self.scratch(a, b),
        };
        self.summed(inner, keyword, path, false);
    }

    /// `contains` under a `maxContains`: a schema that matches fewer
    /// elements makes the minimum harder and the maximum easier to meet (and
    /// the reverse), so any difference inside it changes both ways.
    fn capped_contains(&mut self, a: Id, b: Id, path: &str) {
        let mut inner = self.scratch(Some(a), Some(b));
        inner.retain(|d| d.rule != rules::ANNOTATION_CHANGED);
        if let Some(first) = inner.first() {
            let more = if inner.len() > 1 { format!(" (and {} more)", inner.len() - 1) } else { String::new() };
            let msg =
                format!("contains: {} {}: {}{more} (beside maxContains)", first.rule.id, first.field, first.message);
            self.out.keyword(name::CONTAINS, Direction::Changed, shown(path), msg);
        }
    }

    /// The changes inside a keyword's schema as one keyword change:
    /// tightened, relaxed or changed (`flip`: the keyword rejects what its
    /// schema accepts, as `not` does).
    fn summed(&mut self, mut inner: Vec<Detected>, keyword: &str, path: &str, flip: bool) {
        // A keyword's schema is judged by what it accepts.
        inner.retain(|d| d.rule != rules::ANNOTATION_CHANGED);
        let mut tighter = inner.iter().any(|d| d.rule.impact == Impact::Breaking);
        let mut looser = inner.iter().any(|d| d.rule.response == Impact::Breaking);
        if flip {
            std::mem::swap(&mut tighter, &mut looser);
        }
        let d = match (tighter, looser) {
            (true, false) => Direction::Tightened,
            (false, true) => Direction::Relaxed,
            (true, true) => Direction::Changed,
            (false, false) => return,
        };
        let first = &inner[0];
        let more = if inner.len() > 1 { format!(" (and {} more)", inner.len() - 1) } else { String::new() };
        let msg = format!("{keyword}: {} {}: {}{more}", first.rule.id, first.field, first.message);
        self.out.keyword(keyword, d, shown(path), msg);
    }

    fn applicators(&mut self, na: &Node, nb: &Node, path: &str) {
        // A `$ref` beside other keywords is one more schema the value must
        // pass, like an `allOf` member.
        if na.reference.is_some() || nb.reference.is_some() {
            self.conjunct(na.reference, nb.reference, path);
        }
        if !self.switched(na, nb, path) {
            self.all_of(&na.all_of, &nb.all_of, path);
            for ((kind, ua), (_, ub)) in unions(na).into_iter().zip(unions(nb)) {
                self.union(kind, ua, ub, path);
            }
        }
        // A `not` whose schema holds none of the values both revisions
        // hold here rejects none of them: the same as none.
        let moot = |s: &Schema, id: Option<Id>| {
            id.is_some_and(|id| effective(node(s, resolve(s, Some(id)))) & self.within == 0)
        };
        let (not_a, not_b) = (na.not.filter(|_| !moot(self.a, na.not)), nb.not.filter(|_| !moot(self.b, nb.not)));
        match (not_a, not_b) {
            (None, None) => {}
            (None, Some(_)) => self.out.keyword(name::NOT, Direction::Tightened, shown(path), "no not -> not".into()),
            (Some(_), None) => self.out.keyword(name::NOT, Direction::Relaxed, shown(path), "not -> no not".into()),
            // The schema under `not` judged as a whole, its sense flipped,
            // on the values both revisions hold here.
            (Some(x), Some(y)) => self.summed(self.scratch_within(Some(x), Some(y)), name::NOT, path, true),
        }
        match (&na.condition, &nb.condition) {
            (None, None) => {}
            (Some(x), Some(y)) if self.alike_within(x.test, y.test) => {
                if x.then.is_some() || y.then.is_some() {
                    self.conjunct(x.then, y.then, path);
                }
                if x.otherwise.is_some() || y.otherwise.is_some() {
                    self.conjunct(x.otherwise, y.otherwise, path);
                }
            }
            _ => self.undecided(path, "the `if` schema changed".into()),
        }
    }

    /// Members of two lists matched: equal ones first, then by `$defs`
    /// name or title, then by value classes. Returns, per old member, its
    /// match and whether it is equal; and which new members were taken.
    fn match_members(&self, ma: &[Id], mb: &[Id]) -> (Vec<Option<(usize, bool)>>, Vec<bool>) {
        let mut matched: Vec<Option<(usize, bool)>> = vec![None; ma.len()];
        let mut taken = vec![false; mb.len()];
        for (i, &m) in ma.iter().enumerate() {
            if let Some(j) = (0..mb.len()).find(|&j| !taken[j] && self.alike_within(m, mb[j])) {
                matched[i] = Some((j, true));
                taken[j] = true;
            }
        }
        let name = |s: &Schema, id: Id| s.node(id).label.clone();
        let bits = |s: &Schema, id: Id| effective(node(s, resolve(s, Some(id)))) & self.within;
        for pass in 0..2 {
            for (i, &m) in ma.iter().enumerate() {
                if matched[i].is_some() {
                    continue;
                }
                let found = (0..mb.len()).find(|&j| {
                    !taken[j]
                        && match pass {
                            0 => name(self.a, m).is_some() && name(self.a, m) == name(self.b, mb[j]),
                            _ => bits(self.a, m) == bits(self.b, mb[j]),
                        }
                });
                if let Some(j) = found {
                    matched[i] = Some((j, false));
                    taken[j] = true;
                }
            }
        }
        (matched, taken)
    }

    /// `allOf`: every member is one more schema the value passes, in any
    /// order. A member removed is compared as if it were `true` (it relaxes),
    /// one added as if it replaced `true` (it tightens).
    fn all_of(&mut self, ma: &[Id], mb: &[Id], path: &str) {
        let (matched, taken) = self.match_members(ma, mb);
        for (i, m) in matched.iter().enumerate() {
            match m {
                Some((j, true)) => self.noted(ma[i], mb[*j], None, path),
                Some((j, false)) => self.conjunct(Some(ma[i]), Some(mb[*j]), path),
                None => self.conjunct(Some(ma[i]), None, path),
            }
        }
        for (j, t) in taken.iter().enumerate() {
            if !t {
                self.conjunct(None, Some(mb[j]), path);
            }
        }
    }

    /// `allOf`/`oneOf` <-> `anyOf` over matching members (each side using one
    /// combinator only). Returns whether the pair was such a switch.
    fn switched(&mut self, na: &Node, nb: &Node, path: &str) -> bool {
        fn one(n: &Node) -> Option<(&'static str, &[Id])> {
            match (n.all_of.is_empty(), &n.any_of, &n.one_of) {
                (false, None, None) => Some((name::ALL_OF, &n.all_of)),
                (true, Some(u), None) => Some((name::ANY_OF, &u.members)),
                (true, None, Some(u)) if u.tag.is_none() => Some((name::ONE_OF, &u.members)),
                _ => None,
            }
        }
        let (Some((ka, ma)), Some((kb, mb))) = (one(na), one(nb)) else { return false };
        if ka == kb {
            return false;
        }
        let relaxing = kb == name::ANY_OF;
        if !relaxing && ka != name::ANY_OF {
            self.undecided(path, format!("{ka} became {kb}"));
            return true;
        }
        let (matched, taken) = self.match_members(ma, mb);
        let mut inner = Vec::new();
        let mut sound = matched.iter().all(Option::is_some) || !relaxing;
        sound &= taken.iter().all(|t| *t) || relaxing;
        for (i, m) in matched.iter().enumerate() {
            if let Some((j, false)) = m {
                let changes = self.scratch(Some(ma[i]), Some(mb[*j]));
                let wrong = |d: &Detected| {
                    if relaxing {
                        d.rule.impact == Impact::Breaking
                    } else {
                        d.rule.response == Impact::Breaking
                    }
                };
                sound &= !changes.iter().any(wrong);
                inner.push((i, *j));
            }
        }
        if !sound || (!relaxing && mb.is_empty()) {
            self.undecided(path, format!("{ka} became {kb} with members that changed both ways"));
            return true;
        }
        let rule = if relaxing { rules::UNION_KIND_RELAXED } else { rules::UNION_KIND_TIGHTENED };
        self.push(rule, path, format!("{ka} -> {kb}"));
        for (i, j) in inner {
            self.member(ma[i], mb[j], format!("#{j}"), path);
        }
        for (j, t) in taken.iter().enumerate() {
            if !t {
                self.push(rules::UNION_MEMBER_ADDED, path, format!("{kb} member #{j} added"));
            }
        }
        for (i, m) in matched.iter().enumerate() {
            if m.is_none() {
                self.push(rules::UNION_MEMBER_REMOVED, path, format!("{ka} member #{i} removed"));
            }
        }
        true
    }

    /// How a message names member `i` of a union: its tag, else its
    /// `$defs` name or title, else its position and types.
    fn member_label(&self, s: &Schema, u: &Union, i: usize) -> String {
        if let Some(tag) = &u.tag {
            return format!("{}={}", tag.key, tag.values[i].display());
        }
        let id = u.members[i];
        let label = s.node(id).label.clone().or_else(|| resolve(s, Some(id)).and_then(|r| s.node(r).label.clone()));
        match label {
            Some(l) => crate::json::text::quote(&l, 80),
            None => format!("#{i} ({})", bits_label(effective(node(s, resolve(s, Some(id)))))),
        }
    }

    /// Whether two members of an untagged union may accept one value (their
    /// value classes meet).
    fn overlapping(&self, s: &Schema, members: &[Id]) -> bool {
        let bits: Vec<u8> = members.iter().map(|&m| effective(node(s, resolve(s, Some(m))))).collect();
        bits.iter().enumerate().any(|(i, x)| bits[i + 1..].iter().any(|y| x & y != 0))
    }

    fn union(&mut self, kind: &'static str, ua: Option<&Union>, ub: Option<&Union>, path: &str) {
        let (ua, ub) = match (ua, ub) {
            (None, None) => return,
            (Some(ua), Some(ub)) => (ua, ub),
            (None, Some(_)) => return self.undecided(path, format!("a {kind} was added")),
            (Some(_), None) => return self.undecided(path, format!("the {kind} was removed")),
        };
        // Tagged by the same key: members matched by tag value.
        if let (Some(ta), Some(tb)) = (&ua.tag, &ub.tag) {
            if ta.key == tb.key {
                for (i, value) in ta.values.iter().enumerate() {
                    match tb.values.iter().position(|v| v == value) {
                        Some(j) => {
                            let label = self.member_label(self.b, ub, j);
                            self.member(ua.members[i], ub.members[j], label, path);
                        }
                        None => {
                            let msg = format!("{kind} member {} removed", self.member_label(self.a, ua, i));
                            self.push(rules::UNION_MEMBER_REMOVED, path, msg);
                        }
                    }
                }
                for (j, value) in tb.values.iter().enumerate() {
                    if !ta.values.contains(value) {
                        let msg = format!("{kind} member {} added", self.member_label(self.b, ub, j));
                        self.push(rules::UNION_MEMBER_ADDED, path, msg);
                    }
                }
                return;
            }
        }
        // Untagged: equal members first, then by name, then by value classes.
        let (matched, taken) = self.match_members(&ua.members, &ub.members);
        let differs = matched.iter().any(|m| !matches!(m, Some((_, true)))) || taken.iter().any(|t| !t);
        if !differs {
            for (i, m) in matched.iter().enumerate() {
                if let Some((j, _)) = m {
                    let label = self.member_label(self.b, ub, *j);
                    self.noted(ua.members[i], ub.members[*j], Some(label), path);
                }
            }
            return;
        }
        if kind == name::ONE_OF && (self.overlapping(self.a, &ua.members) || self.overlapping(self.b, &ub.members)) {
            return self.undecided(path, "an untagged oneOf whose members overlap changed".into());
        }
        for (i, m) in matched.iter().enumerate() {
            match m {
                Some((j, false)) => {
                    let label = self.member_label(self.b, ub, *j);
                    self.member(ua.members[i], ub.members[*j], label, path);
                }
                Some((j, true)) => {
                    let label = self.member_label(self.b, ub, *j);
                    self.noted(ua.members[i], ub.members[*j], Some(label), path);
                }
                None => {
                    let msg = format!("{kind} member {} removed", self.member_label(self.a, ua, i));
                    self.push(rules::UNION_MEMBER_REMOVED, path, msg);
                }
            }
        }
        for (j, t) in taken.iter().enumerate() {
            if !t {
                let msg = format!("{kind} member {} added", self.member_label(self.b, ub, j));
                self.push(rules::UNION_MEMBER_ADDED, path, msg);
            }
        }
    }
}
