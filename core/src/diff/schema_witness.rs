//! Witnesses for schema-form contracts (SPEC §5, §10, §11): a data body one
//! revision accepts with no finding at all and the other flags at the
//! changed field, the schema-form twin of `witness.rs`.
//!
//! The search works on both compiled schema graphs at once. A set of nodes
//! (of either revision) that must all accept one value is the unit: the
//! generator ([`Search::gen`]) builds a small value for such a set (required
//! properties, the first union member that works, `const`/`enum` first
//! members, strings and numbers meeting the bounds, pattern and format
//! samples, arrays as long as `minItems`/`contains` ask), proposing values
//! and keeping only those every node of the set passes
//! (`walk::schema::passes_node`). A value both revisions accept is preferred;
//! one the accepting revision alone accepts is the fallback.
//!
//! The body is then built along the change's pattern path: every object on
//! the way holds its required properties (of both revisions where both
//! allow them), every array its elements up to the changed position, and
//! the changed place is left out or set to one candidate after another:
//! values drawn from both revisions' nodes there (bounds, multiples,
//! `enum`/`const` members, pattern and format samples and near misses, a
//! minimal instance of every union member of either side, an object with an
//! undeclared key, arrays of telling lengths, one value of every type).
//! Every body is judged by both real validators; the first one whose every
//! finding proves the change wins, else the first with a proving finding
//! among others. Nothing unchecked is returned.
//!
//! The work is bounded: union choices, templates, generator calls, leaf
//! candidates and judged bodies each have a cap, and generated values nest
//! at most [`MAX_GEN_DEPTH`] deep, so a recursive schema ends.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

use super::rules::ProofAt;
use super::sample::{self, J};
use super::CONTRACT_FIELD;
use crate::contract::schema::{Id, Literal, Node, Schema, Union};
use crate::contract::{Constraints, ContractSpec, JsonType, TypeSet};
use crate::json::number::Decimal;
use crate::report::Finding;
use crate::rules::Rule;
use crate::walk::schema::passes_node;

/// Bodies judged by both validators in one search.
const MAX_BODIES: usize = 300;
/// Ways of reaching the changed place (union members on the path).
const MAX_TEMPLATES: usize = 4;
/// Union member choices tried for one value.
const MAX_ALTERNATIVES: usize = 8;
/// Nesting of a generated value (a recursive schema stops here).
const MAX_GEN_DEPTH: usize = 12;
/// Generator calls (not answered from the memo) in one search.
const MAX_STEPS: usize = 4000;
/// Candidate values at the changed place, per template.
const MAX_LEAF_VALUES: usize = 200;
/// Values checked against one node (`walk::schema::passes_node`) in one search.
const MAX_CHECKS: usize = 5_000;
/// The longest array built.
const MAX_ARRAY: u64 = 64;

/// A data body (compact JSON) that `accepting` accepts with no finding at all and
/// `rejecting` flags with a finding of one of `proof` at `field` (as `at` says),
/// checked with both real validators; None when the search finds none.
pub(super) fn find(
    accepting: &ContractSpec,
    rejecting: &ContractSpec,
    field: &str,
    proof: &[&'static Rule],
    at: ProofAt,
    hints: &[String],
) -> Option<String> {
    let (a, r) = (accepting.schema()?, rejecting.schema()?);
    if proof.is_empty() {
        return None;
    }
    let target = if field == CONTRACT_FIELD { Vec::new() } else { parse_path(field, false)? };
    let search = Search::new(a, r);
    let templates = search.reach(&[(Side::A, Schema::ROOT)], &[(Side::R, Schema::ROOT)], &target, 0);
    let mut seen: HashSet<String> = HashSet::new();
    let mut fallback = None;
    for t in &templates {
        let mut leaves: Vec<Option<J>> = Vec::new();
        if matches!(t.hole.last(), Some(Hop::Key(_))) {
            leaves.push(None);
        }
        let mut values: Vec<J> = hints.iter().map(|h| J::Str(h.clone())).collect();
        values.extend(search.leaf_values(&t.leaf_a, &t.leaf_r, t.depth, at));
        leaves.extend(values.into_iter().filter(|v| search.accepts(&t.leaf_a, v)).map(Some));
        for leaf in leaves {
            if seen.len() >= MAX_BODIES {
                return fallback;
            }
            let Some(body) = put(&t.body, &t.hole, leaf.as_ref()) else { continue };
            let text = body.text();
            if !seen.insert(text.clone()) {
                continue;
            }
            if !accepting.validate_json(text.as_bytes()).findings().is_empty() {
                continue;
            }
            let report = rejecting.validate_json(text.as_bytes());
            let proves = |f: &Finding| search.proves(f, &body, &target, proof, at);
            if !report.findings().iter().any(proves) {
                continue;
            }
            if report.findings().iter().all(proves) {
                return Some(text);
            }
            if fallback.is_none() {
                fallback = Some(text);
            }
        }
    }
    fallback
}

/// Which revision a node belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Side {
    /// The revision that must accept the body.
    A,
    /// The revision that must flag it.
    R,
}

/// A node of one revision.
type At = (Side, Id);

/// A set of nodes and the unions whose member is already chosen.
type GenKey = (Vec<At>, Vec<(At, bool)>);

/// An object's members, in order.
type Members = Vec<(String, J)>;

/// One step of a path: a pattern path (`[]`, `{}`, `[i]` a `prefixItems`
/// position) or a finding's concrete path (`[i]` any index).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
    Items,
    Map,
}

/// One step into a body under construction.
#[derive(Debug, Clone)]
enum Hop {
    Key(String),
    Index(usize),
}

/// A body with a hole at the changed place, and the nodes of each revision
/// that judge the value put there.
struct Template {
    body: J,
    hole: Vec<Hop>,
    leaf_a: Vec<At>,
    leaf_r: Vec<At>,
    depth: usize,
}

struct Search<'c> {
    a: &'c Schema,
    r: &'c Schema,
    /// Generator calls made.
    steps: Cell<usize>,
    /// Values checked against one node.
    checks: Cell<usize>,
    /// A value found for a set of nodes (sorted) and pinned unions.
    found: RefCell<HashMap<GenKey, J>>,
    /// The smallest depth at which a set of nodes had no value: deeper, it
    /// has none either.
    failed: RefCell<HashMap<GenKey, usize>>,
}

impl<'c> Search<'c> {
    fn new(a: &'c Schema, r: &'c Schema) -> Self {
        Search {
            a,
            r,
            steps: Cell::new(0),
            checks: Cell::new(0),
            found: RefCell::default(),
            failed: RefCell::default(),
        }
    }

    fn schema(&self, side: Side) -> &'c Schema {
        match side {
            Side::A => self.a,
            Side::R => self.r,
        }
    }

    fn node(&self, at: At) -> &'c Node {
        self.schema(at.0).node(at.1)
    }

    fn union(&self, owner: At, one: bool) -> Option<&'c Union> {
        let n = self.node(owner);
        if one {
            n.one_of.as_deref()
        } else {
            n.any_of.as_deref()
        }
    }

    /// Every node applying to a value judged by `set`, through `$ref` and
    /// `allOf`, and the unions (owner, is `oneOf`) among them.
    fn expand(&self, set: &[At]) -> (Vec<At>, Vec<(At, bool)>) {
        let mut nodes: Vec<At> = Vec::new();
        let mut unions = Vec::new();
        let mut stack: Vec<At> = set.iter().rev().copied().collect();
        while let Some(at) = stack.pop() {
            if nodes.contains(&at) || nodes.len() >= 256 {
                continue;
            }
            nodes.push(at);
            let n = self.node(at);
            let next: Vec<At> = n.reference.iter().chain(&n.all_of).map(|&id| (at.0, id)).collect();
            stack.extend(next.into_iter().rev());
            if n.any_of.is_some() {
                unions.push((at, false));
            }
            if n.one_of.is_some() {
                unions.push((at, true));
            }
        }
        (nodes, unions)
    }

    /// The sets of nodes a value judged by `set` meets once every union
    /// has picked a member, in member order, at most `limit` of them.
    fn alternatives(&self, set: &[At], limit: usize) -> Vec<Vec<At>> {
        self.alternatives_pinned(set, &[], limit)
    }

    /// The same, with the unions of `pinned` left as `set` chose them.
    fn alternatives_pinned(&self, set: &[At], pinned: &[(At, bool)], limit: usize) -> Vec<Vec<At>> {
        let mut out = Vec::new();
        self.choose(set.to_vec(), &mut pinned.to_vec(), &mut out, limit);
        out
    }

    fn choose(&self, set: Vec<At>, chosen: &mut Vec<(At, bool)>, out: &mut Vec<Vec<At>>, limit: usize) {
        if out.len() >= limit {
            return;
        }
        let (nodes, unions) = self.expand(&set);
        let Some(&(owner, one)) = unions.iter().find(|u| !chosen.contains(u)) else {
            out.push(nodes);
            return;
        };
        let Some(union) = self.union(owner, one) else { return };
        chosen.push((owner, one));
        for &m in &union.members {
            if out.len() >= limit {
                break;
            }
            let mut next = set.clone();
            next.push((owner.0, m));
            self.choose(next, chosen, out, limit);
        }
        chosen.pop();
    }

    /// Whether every node of `set` accepts `v`.
    /// Whether every node of `set` accepts `v` (false once the search has
    /// made [`MAX_CHECKS`] checks).
    fn accepts(&self, set: &[At], v: &J) -> bool {
        let text = v.text();
        set.iter().all(|&(side, id)| {
            let n = self.checks.get();
            self.checks.set(n + 1);
            n < MAX_CHECKS && passes_node(self.schema(side), id, text.as_bytes())
        })
    }

    /// A small value every node of `set` accepts.
    fn gen(&self, set: &[At], depth: usize) -> Option<J> {
        self.gen_many(set, depth, 1).into_iter().next()
    }

    /// Up to `limit` distinct values every node of `set` accepts, smallest
    /// first.
    fn gen_many(&self, set: &[At], depth: usize, limit: usize) -> Vec<J> {
        self.gen_pinned(set, &[], depth, limit)
    }

    /// The same, the unions of `pinned` taking no other member than the
    /// one `set` holds (an instance of that member, not of an earlier one).
    fn gen_pinned(&self, set: &[At], pinned: &[(At, bool)], depth: usize, limit: usize) -> Vec<J> {
        let mut nodes = set.to_vec();
        nodes.sort_unstable();
        nodes.dedup();
        let mut chosen = pinned.to_vec();
        chosen.sort_unstable();
        chosen.dedup();
        let key = (nodes, chosen);
        if limit == 1 {
            if let Some(v) = self.found.borrow().get(&key) {
                return vec![v.clone()];
            }
            if self.failed.borrow().get(&key).is_some_and(|&d| depth >= d) {
                return Vec::new();
            }
        }
        if depth > MAX_GEN_DEPTH || self.steps.get() >= MAX_STEPS {
            return Vec::new();
        }
        self.steps.set(self.steps.get() + 1);
        let mut out: Vec<J> = Vec::new();
        'alternatives: for nodes in self.alternatives_pinned(&key.0, &key.1, MAX_ALTERNATIVES) {
            if nodes.iter().any(|&at| self.node(at).never) {
                continue;
            }
            for t in self.type_order(&nodes) {
                for v in self.proposals(&nodes, t, depth) {
                    if !out.contains(&v) && self.accepts(&key.0, &v) {
                        out.push(v);
                        if out.len() >= limit {
                            break 'alternatives;
                        }
                    }
                }
            }
        }
        if limit == 1 && self.steps.get() < MAX_STEPS {
            match out.first() {
                Some(v) => {
                    self.found.borrow_mut().insert(key, v.clone());
                }
                None => {
                    let mut failed = self.failed.borrow_mut();
                    let d = failed.entry(key).or_insert(depth);
                    *d = (*d).min(depth);
                }
            }
        }
        out
    }

    /// The types a value for `nodes` may take, the ones their keywords
    /// suggest first; `const`/`enum` values come as the first "type".
    fn type_order(&self, nodes: &[At]) -> Vec<Option<JsonType>> {
        let mut types = TypeSet::ANY;
        for &at in nodes {
            if let Some(t) = self.node(at).types {
                types = types.intersect(t);
            }
        }
        let any = |f: fn(&Node) -> bool| nodes.iter().any(|&at| f(self.node(at)));
        let mut order: Vec<Option<JsonType>> = Vec::new();
        if any(|n| n.constant.is_some() || n.enum_values.is_some()) {
            // Only the named values can pass.
            return vec![None];
        }
        if any(|n| {
            !n.properties.is_empty()
                || !n.required.is_empty()
                || !n.pattern_properties.is_empty()
                || n.additional.is_some()
                || n.min_properties.is_some()
        }) {
            order.push(Some(JsonType::Object));
        }
        if any(|n| {
            !n.prefix_items.is_empty()
                || n.items.is_some()
                || n.contains.is_some()
                || n.constraints.min_items.is_some()
                || n.constraints.unique_items
        }) {
            order.push(Some(JsonType::Array));
        }
        if any(|n| {
            n.format.is_some()
                || n.constraints.pattern.is_some()
                || n.constraints.min_length.is_some()
                || n.constraints.max_length.is_some()
        }) {
            order.push(Some(JsonType::String));
        }
        for t in [
            JsonType::String,
            JsonType::Integer,
            JsonType::Number,
            JsonType::Boolean,
            JsonType::Null,
            JsonType::Object,
            JsonType::Array,
        ] {
            if !order.contains(&Some(t)) {
                order.push(Some(t));
            }
        }
        order.retain(|t| t.is_some_and(|t| types.accepts(t)));
        order
    }

    /// Values of type `t` (`None`: the `const`/`enum` values) shaped by the
    /// keywords of `nodes`, to be judged by the caller.
    fn proposals(&self, nodes: &[At], t: Option<JsonType>, depth: usize) -> Vec<J> {
        let Some(t) = t else {
            let named = nodes.iter().find_map(|&at| {
                let n = self.node(at);
                n.constant
                    .as_ref()
                    .map(|c| vec![literal(c)])
                    .or_else(|| n.enum_values.as_ref().map(|e| e.iter().map(literal).collect()))
            });
            return named.unwrap_or_default();
        };
        match t {
            JsonType::Null => vec![J::Null],
            JsonType::Boolean => vec![J::Bool(false), J::Bool(true)],
            JsonType::Integer | JsonType::Number => {
                let mut raw = vec!["0".to_string(), "1".to_string()];
                for &at in nodes {
                    raw.extend(sample::numbers(&self.node(at).constraints));
                }
                let integer = |n: &String| Decimal::parse(n).is_some_and(|d| d.dec().is_integer());
                let wanted = t == JsonType::Integer;
                dedup(raw.into_iter().filter(|n| integer(n) == wanted).map(J::Num).collect())
            }
            JsonType::String => {
                let mut out: Vec<J> = Vec::new();
                for &at in nodes {
                    if let Some(f) = self.node(at).format {
                        out.extend(sample::format_samples(f).0.iter().map(|s| J::Str(s.to_string())));
                    }
                }
                let all: Vec<&Constraints> = nodes.iter().map(|&at| &*self.node(at).constraints).collect();
                out.extend(sample::strings(&all).into_iter().map(J::Str));
                dedup(out)
            }
            JsonType::Object => self.object(nodes, depth, None).map(J::Obj).into_iter().collect(),
            JsonType::Array => self.array(nodes, depth).map(J::Arr).into_iter().collect(),
        }
    }

    /// The schemas of `nodes` that judge the value of `key`; `None` when
    /// one of them forbids the key (a closed object that does not declare it).
    fn key_schemas(&self, nodes: &[At], key: &str) -> Option<Vec<At>> {
        let mut out = Vec::new();
        for &(side, id) in nodes {
            let n = self.node((side, id));
            let declared = n.properties.iter().find(|(k, _)| **k == *key).map(|(_, id)| (side, *id));
            let patterns: Vec<At> =
                n.pattern_properties.iter().filter(|(p, _)| p.is_match(key)).map(|(_, id)| (side, *id)).collect();
            if declared.is_none() && patterns.is_empty() {
                if let Some(extra) = n.additional {
                    if n.closed || self.node((side, extra)).never {
                        return None;
                    }
                    out.push((side, extra));
                }
            }
            out.extend(declared);
            out.extend(patterns);
        }
        Some(out)
    }

    /// Whether `key` is a declared property of one of `nodes`.
    fn declares(&self, nodes: &[At], key: &str) -> bool {
        nodes.iter().any(|&at| self.node(at).properties.iter().any(|(k, _)| **k == *key))
    }

    /// Whether every node of `nodes` lets a value of type `t` through.
    fn allows(&self, nodes: &[At], t: JsonType) -> bool {
        nodes.iter().all(|&at| self.node(at).accepts(t))
    }

    /// The members of a small object for `nodes`: every required key (and
    /// those `dependentRequired` then asks for) but `skip`, each with a
    /// generated value, padded to `minProperties`.
    fn object(&self, nodes: &[At], depth: usize, skip: Option<&str>) -> Option<Members> {
        let mut keys: Vec<String> = Vec::new();
        for &at in nodes {
            for r in &self.node(at).required {
                if !keys.iter().any(|k| **k == **r) {
                    keys.push(r.to_string());
                }
            }
        }
        for _ in 0..8 {
            let before = keys.len();
            for &at in nodes {
                for (key, needs) in &self.node(at).dependent_required {
                    if keys.iter().any(|k| **k == **key) {
                        for need in needs {
                            if !keys.iter().any(|k| **k == **need) {
                                keys.push(need.to_string());
                            }
                        }
                    }
                }
            }
            if keys.len() == before {
                break;
            }
        }
        let mut members = Vec::new();
        for k in keys {
            if skip == Some(k.as_str()) {
                continue;
            }
            let schemas = self.key_schemas(nodes, &k)?;
            let v = self.gen(&schemas, depth + 1)?;
            members.push((k, v));
        }
        let min = nodes.iter().filter_map(|&at| self.node(at).min_properties).max().unwrap_or(0).min(MAX_ARRAY);
        if (members.len() as u64) < min {
            let declared: Vec<String> =
                nodes.iter().flat_map(|&at| self.node(at).properties.iter().map(|(k, _)| k.to_string())).collect();
            let others = (0..min).map(|i| format!("k{i}"));
            for k in declared.into_iter().chain(others) {
                if members.len() as u64 >= min {
                    break;
                }
                if skip == Some(k.as_str()) || members.iter().any(|(m, _)| *m == k) {
                    continue;
                }
                let Some(schemas) = self.key_schemas(nodes, &k) else { continue };
                if let Some(v) = self.gen(&schemas, depth + 1) {
                    members.push((k, v));
                }
            }
        }
        Some(members)
    }

    /// The schemas of `nodes` that judge element `i` of an array.
    fn element_schemas(&self, nodes: &[At], i: usize) -> Vec<At> {
        let mut out = Vec::new();
        for &(side, id) in nodes {
            let n = self.node((side, id));
            if let Some(&p) = n.prefix_items.get(i) {
                out.push((side, p));
            } else if let Some(items) = n.items {
                out.push((side, items));
            }
        }
        out
    }

    /// The elements of a small array for `nodes`: as many as `minItems`
    /// and `contains`/`minContains` ask, distinct under `uniqueItems`.
    fn array(&self, nodes: &[At], depth: usize) -> Option<Vec<J>> {
        let min = nodes.iter().filter_map(|&at| self.node(at).constraints.min_items).max().unwrap_or(0);
        let contains: Vec<At> =
            nodes.iter().filter_map(|&(side, id)| Some((side, self.node((side, id)).contains?))).collect();
        let need = if contains.is_empty() {
            0
        } else {
            nodes.iter().filter_map(|&at| self.node(at).min_contains).max().unwrap_or(1)
        };
        let len = min.max(need).min(MAX_ARRAY) as usize;
        let unique = nodes.iter().any(|&at| self.node(at).constraints.unique_items);
        let mut items: Vec<J> = Vec::with_capacity(len);
        for i in 0..len {
            let mut schemas = self.element_schemas(nodes, i);
            if (i as u64) < need {
                schemas.extend(&contains);
            }
            let v = if unique {
                self.gen_many(&schemas, depth + 1, len).into_iter().find(|v| !items.contains(v))?
            } else {
                self.gen(&schemas, depth + 1)?
            };
            items.push(v);
        }
        Some(items)
    }

    /// Bodies with a hole at the place `segs` names, below a value judged
    /// by `a` (and, where it can, `r`), most telling first.
    fn reach(&self, a: &[At], r: &[At], segs: &[Seg], depth: usize) -> Vec<Template> {
        let Some((seg, rest)) = segs.split_first() else {
            return vec![Template { body: J::Null, hole: Vec::new(), leaf_a: a.to_vec(), leaf_r: r.to_vec(), depth }];
        };
        if depth > MAX_GEN_DEPTH {
            return Vec::new();
        }
        let mut alts_a = self.alternatives(a, MAX_ALTERNATIVES);
        if let Seg::Key(k) = seg {
            // Members that declare the key on the path first.
            alts_a.sort_by_key(|na| !self.declares(na, k));
        }
        let alts_r = self.alternatives(r, MAX_ALTERNATIVES);
        let mut out = Vec::new();
        for na in alts_a.iter().filter(|na| na.iter().all(|&at| !self.node(at).never)) {
            if out.len() >= MAX_TEMPLATES {
                break;
            }
            match seg {
                Seg::Key(_) | Seg::Map => {
                    if !self.allows(na, JsonType::Object) {
                        continue;
                    }
                    let key = match seg {
                        Seg::Key(k) => Some(k.clone()),
                        _ => self.map_key(na, &alts_r),
                    };
                    let Some(key) = key else { continue };
                    for (nr, members) in self.siblings(na, &alts_r, &key, depth) {
                        let Some((na, nr, members)) = self.triggered(na, nr, members, &key, depth) else { continue };
                        let Some(sub_a) = self.key_schemas(&na, &key) else { continue };
                        let sub_r = self.key_schemas(&nr, &key).unwrap_or_default();
                        for child in self.reach(&sub_a, &sub_r, rest, depth + 1) {
                            let mut m = members.clone();
                            m.push((key.clone(), child.body));
                            let mut hole = vec![Hop::Key(key.clone())];
                            hole.extend(child.hole);
                            out.push(Template { body: J::Obj(m), hole, ..child });
                        }
                    }
                }
                Seg::Items | Seg::Index(_) => {
                    if !self.allows(na, JsonType::Array) {
                        continue;
                    }
                    let nr = alts_r.iter().find(|nr| self.allows(nr, JsonType::Array)).cloned().unwrap_or_default();
                    let both: Vec<At> = na.iter().chain(&nr).copied().collect();
                    let index = match seg {
                        Seg::Index(i) => *i,
                        _ => both.iter().map(|&at| self.node(at).prefix_items.len()).max().unwrap_or(0),
                    };
                    if index as u64 > MAX_ARRAY {
                        continue;
                    }
                    let element = |j: usize| {
                        self.gen(&self.element_schemas(&both, j), depth + 1)
                            .or_else(|| self.gen(&self.element_schemas(na, j), depth + 1))
                    };
                    let Some(before) = (0..index).map(element).collect::<Option<Vec<J>>>() else { continue };
                    let min = both.iter().filter_map(|&at| self.node(at).constraints.min_items).max().unwrap_or(0);
                    let max_a = na.iter().filter_map(|&at| self.node(at).constraints.max_items).min();
                    let min = min.min(max_a.unwrap_or(u64::MAX)).min(MAX_ARRAY) as usize;
                    let unique = na.iter().any(|&at| self.node(at).constraints.unique_items);
                    let sub_a = self.element_schemas(na, index);
                    let sub_r = self.element_schemas(&nr, index);
                    for child in self.reach(&sub_a, &sub_r, rest, depth + 1) {
                        let mut items = before.clone();
                        items.push(child.body);
                        while items.len() < min {
                            let j = items.len();
                            let v = if unique {
                                self.gen_many(&self.element_schemas(na, j), depth + 1, min + 1)
                                    .into_iter()
                                    .find(|v| !items.contains(v))
                            } else {
                                element(j)
                            };
                            match v {
                                Some(v) => items.push(v),
                                None => break,
                            }
                        }
                        // An element for `contains`, should the changed one not match it.
                        let contains: Vec<At> =
                            na.iter().filter_map(|&(side, id)| Some((side, self.node((side, id)).contains?))).collect();
                        if !contains.is_empty() {
                            let mut schemas = self.element_schemas(na, items.len());
                            schemas.extend(contains);
                            if let Some(v) = self.gen(&schemas, depth + 1) {
                                items.push(v);
                            }
                        }
                        let mut hole = vec![Hop::Index(index)];
                        hole.extend(child.hole);
                        out.push(Template { body: J::Arr(items), hole, ..child });
                    }
                }
            }
        }
        out.truncate(MAX_TEMPLATES);
        out
    }

    /// The other members of an object on the path, as [`Search::siblings`]
    /// finds them, with the keys whose dependent schemas (of either
    /// revision) judge `key` present too, and those schemas added to each
    /// revision's nodes: a constraint a dependent schema puts on `key` is
    /// met only when its key is there.
    fn triggered(
        &self,
        na: &[At],
        mut nr: Vec<At>,
        mut members: Members,
        key: &str,
        depth: usize,
    ) -> Option<(Vec<At>, Vec<At>, Members)> {
        let mut na = na.to_vec();
        let mut triggers: Vec<&str> = Vec::new();
        for set in [&na, &nr] {
            for &(side, id) in set.iter() {
                for (t, d) in &self.node((side, id)).dependent_schemas {
                    let (nodes, _) = self.expand(&[(side, *d)]);
                    if **t != *key && self.declares(&nodes, key) && !triggers.contains(&&**t) {
                        triggers.push(t);
                    }
                }
            }
        }
        if triggers.is_empty() {
            return Some((na, nr, members));
        }
        for t in triggers {
            let add = |set: &mut Vec<At>| {
                let more: Vec<At> = set
                    .iter()
                    .flat_map(|&(side, id)| {
                        self.node((side, id))
                            .dependent_schemas
                            .iter()
                            .filter(|(k, _)| **k == *t)
                            .map(move |(_, d)| (side, *d))
                    })
                    .collect();
                set.extend(more);
            };
            add(&mut na);
            add(&mut nr);
            if !members.iter().any(|(k, _)| k == t) {
                let both: Vec<At> = na.iter().chain(&nr).copied().collect();
                let v = self.key_schemas(&both, t).and_then(|s| self.gen(&s, depth + 1));
                let v = v.or_else(|| self.key_schemas(&na, t).and_then(|s| self.gen(&s, depth + 1)))?;
                members.push((t.to_string(), v));
            }
        }
        Some((na, nr, members))
    }

    /// The other members of an object on the path (all but `key`), and the
    /// rejecting revision's nodes there: first with the required keys of
    /// both revisions (its first union choice whose required keys take
    /// values both accept), so that the rejecting one flags the change
    /// alone; then with the accepting revision's members only, for when a
    /// key the rejecting one requires is one the accepting one flags (an
    /// undeclared key of a strict contract).
    fn siblings(&self, na: &[At], alts_r: &[Vec<At>], key: &str, depth: usize) -> Vec<(Vec<At>, Members)> {
        let mut out = Vec::new();
        for nr in alts_r {
            let both: Vec<At> = na.iter().chain(nr).copied().collect();
            if !self.allows(nr, JsonType::Object) {
                continue;
            }
            if let Some(members) = self.object(&both, depth, Some(key)) {
                out.push((nr.clone(), members));
                break;
            }
        }
        if let Some(members) = self.object(na, depth, Some(key)) {
            if out.iter().all(|(_, m)| *m != members) {
                out.push((alts_r.first().cloned().unwrap_or_default(), members));
            }
        }
        out
    }

    /// A key for a map's value (`{}`): declared by no node, taken by a
    /// `patternProperties` or `additionalProperties` schema of `na`.
    fn map_key(&self, na: &[At], alts_r: &[Vec<At>]) -> Option<String> {
        let mut names: Vec<String> = Vec::new();
        for &at in na {
            for (p, _) in &self.node(at).pattern_properties {
                names.extend(sample::pattern_samples(p.source()));
            }
        }
        names.extend(["k", "key", "x", "a"].map(String::from));
        let nr: Vec<At> = alts_r.iter().flatten().copied().collect();
        names.into_iter().find(|k| {
            !self.declares(na, k)
                && !self.declares(&nr, k)
                && self.key_schemas(na, k).is_some()
                && na.iter().any(|&at| {
                    let n = self.node(at);
                    // An open object takes the key whether or not it says
                    // what its values are.
                    !n.closed || n.pattern_properties.iter().any(|(p, _)| p.is_match(k))
                })
        })
    }

    /// Candidate values for the changed place judged by `la` (accepting)
    /// and `lr` (rejecting), most telling first.
    fn leaf_values(&self, la: &[At], lr: &[At], depth: usize, at: ProofAt) -> Vec<J> {
        let mut out: Vec<J> = Vec::new();
        let both: Vec<At> = la.iter().chain(lr).copied().collect();
        let (xa, ua) = self.expand(la);
        let (xr, ur) = self.expand(lr);
        let all: Vec<At> = xa.iter().chain(&xr).copied().collect();
        out.extend(self.gen(&both, depth));
        out.extend(self.gen(la, depth));
        // The smallest instance of every union member of either side.
        for &(owner, one) in ua.iter().chain(&ur) {
            for &m in self.union(owner, one).map_or(&[][..], |u| &u.members) {
                let mut set = la.to_vec();
                set.push((owner.0, m));
                out.extend(self.gen_pinned(&set, &[(owner, one)], depth, 1));
            }
        }
        // An object with a key no revision declares (an object closed).
        let objects: Vec<J> = out.iter().filter(|v| matches!(v, J::Obj(_))).take(4).cloned().collect();
        for o in &objects {
            out.extend(self.with_undeclared(o, &xa, &xr, depth));
        }
        if at == ProofAt::ChildKey || at == ProofAt::TopLevelKey {
            // Closing an object proves best on an object of its own.
            out.extend(self.with_undeclared(&J::Obj(Vec::new()), &xa, &xr, depth));
        }
        // A value the rejecting side's `not` forbids, and values that pass
        // either side's `if` (so that its `then` judges them).
        for &at in xr.iter().chain(&xa) {
            let n = self.node(at);
            let forbidden = n.not.filter(|_| at.0 == Side::R);
            for extra in forbidden.into_iter().chain(n.condition.as_ref().map(|c| c.test)) {
                let mut set = la.to_vec();
                set.push((at.0, extra));
                out.extend(self.gen(&set, depth));
            }
        }
        // An object with a key the rejecting side's `propertyNames` refuses.
        if let Some(J::Obj(base)) = objects.first() {
            for &at in &xr {
                let Some(names) = self.node(at).property_names else { continue };
                let c = &self.node((at.0, names)).constraints;
                let refused = |k: &String| {
                    !base.iter().any(|(m, _)| m == k) && !self.accepts(&[(at.0, names)], &J::Str(k.clone()))
                };
                for key in sample::strings(&[c]).into_iter().filter(refused).take(4) {
                    let Some(schemas) = self.key_schemas(&xa, &key) else { continue };
                    if let Some(v) = self.gen(&schemas, depth + 1) {
                        let mut members = base.clone();
                        members.push((key, v));
                        out.push(J::Obj(members));
                    }
                }
            }
        }
        // An object with a key whose `dependentRequired` companions are missing.
        if let Some(J::Obj(base)) = objects.first() {
            for &at in &xr {
                for (key, _) in &self.node(at).dependent_required {
                    if base.iter().any(|(k, _)| **k == **key) {
                        continue;
                    }
                    let Some(schemas) = self.key_schemas(&xa, key) else { continue };
                    if let Some(v) = self.gen(&schemas, depth + 1) {
                        let mut members = base.clone();
                        members.push((key.to_string(), v));
                        out.push(J::Obj(members));
                    }
                }
            }
        }
        // Objects at the property counts either side names.
        if let Some(J::Obj(base)) = objects.first() {
            let counts = all
                .iter()
                .flat_map(|&at| {
                    let n = self.node(at);
                    [n.min_properties.map(|m| m.saturating_sub(1)), n.max_properties.map(|m| m + 1)]
                })
                .flatten();
            for count in counts.filter(|&c| c <= MAX_ARRAY) {
                out.extend(self.padded(base, count as usize, &xa, depth));
            }
        }
        // The values either side names.
        for &at in &all {
            let n = self.node(at);
            out.extend(n.constant.iter().map(literal));
            out.extend(n.enum_values.iter().flatten().map(literal));
        }
        // Strings: formats met and missed, bounds, patterns and near misses.
        for &at in &all {
            if let Some(f) = self.node(at).format {
                let (good, bad) = sample::format_samples(f);
                out.extend(good.iter().chain(bad).map(|s| J::Str(s.to_string())));
            }
        }
        let constraints: Vec<&Constraints> = all.iter().map(|&at| &*self.node(at).constraints).collect();
        out.extend(sample::strings(&constraints).into_iter().map(J::Str));
        for c in &constraints {
            out.extend(sample::numbers(c).into_iter().map(J::Num));
        }
        out.extend([J::Bool(false), J::Bool(true), J::Null]);
        out.extend(self.arrays(la, &xa, &xr, depth));
        out.extend(sample::every_type());
        let mut out = dedup(out);
        out.truncate(MAX_LEAF_VALUES);
        out
    }

    /// `o` with one key neither revision declares (nor a rejecting pattern
    /// takes), valued as the accepting revision allows.
    fn with_undeclared(&self, o: &J, xa: &[At], xr: &[At], depth: usize) -> Option<J> {
        let J::Obj(members) = o else { return None };
        let taken = |k: &str| {
            members.iter().any(|(m, _)| m == k)
                || self.declares(xa, k)
                || self.declares(xr, k)
                || xr.iter().any(|&at| self.node(at).pattern_properties.iter().any(|(p, _)| p.is_match(k)))
        };
        let key = ["undeclared", "undeclared_", "x-undeclared", "_undeclared"].into_iter().find(|k| !taken(k))?;
        let schemas = self.key_schemas(xa, key)?;
        let value = self.gen(&schemas, depth + 1).unwrap_or(J::Num("0".into()));
        let mut members = members.clone();
        members.push((key.to_string(), value));
        Some(J::Obj(members))
    }

    /// `base` with members added (declared optional ones first) or removed
    /// to `count`.
    fn padded(&self, base: &[(String, J)], count: usize, xa: &[At], depth: usize) -> Option<J> {
        let mut members = base.to_vec();
        if members.len() >= count {
            members.truncate(count);
            return Some(J::Obj(members));
        }
        let declared: Vec<String> =
            xa.iter().flat_map(|&at| self.node(at).properties.iter().map(|(k, _)| k.to_string())).collect();
        for k in declared.into_iter().chain((0..count).map(|i| format!("k{i}"))) {
            if members.len() >= count {
                break;
            }
            if members.iter().any(|(m, _)| *m == k) {
                continue;
            }
            let Some(schemas) = self.key_schemas(xa, &k) else { continue };
            if let Some(v) = self.gen(&schemas, depth + 1) {
                members.push((k, v));
            }
        }
        (members.len() == count).then_some(J::Obj(members))
    }

    /// Arrays of telling lengths (0, 1, 2 and around every count either
    /// side names) of elements the accepting revision takes, equal and
    /// distinct.
    fn arrays(&self, la: &[At], xa: &[At], xr: &[At], depth: usize) -> Vec<J> {
        if !self.allows(xa, JsonType::Array) {
            return Vec::new();
        }
        let mut lengths: Vec<u64> = vec![0, 1, 2];
        for &at in xa.iter().chain(xr) {
            let c = &self.node(at).constraints;
            let near = [c.min_items, c.min_items.map(|n| n.saturating_sub(1)), c.max_items, c.max_items.map(|n| n + 1)];
            lengths.extend(near.into_iter().flatten());
            if let Some(m) = self.node(at).max_contains {
                lengths.push(m + 1);
            }
            let prefix = self.node(at).prefix_items.len() as u64;
            lengths.extend([prefix, prefix + 1]);
        }
        lengths.sort_unstable();
        lengths.dedup();
        let both: Vec<At> = xa.iter().chain(xr).copied().collect();
        let element = |j: usize| {
            self.gen(&self.element_schemas(&both, j), depth + 1)
                .or_else(|| self.gen(&self.element_schemas(xa, j), depth + 1))
        };
        let mut out = Vec::new();
        for n in lengths.into_iter().filter(|&n| n <= MAX_ARRAY).map(|n| n as usize) {
            if let Some(same) = (0..n).map(element).collect::<Option<Vec<J>>>() {
                out.push(J::Arr(same));
            }
            let distinct = self.gen_many(&self.element_schemas(xa, 0), depth + 1, n);
            if n > 1 && distinct.len() == n {
                out.push(J::Arr(distinct));
            }
        }
        // An array the accepting revision builds itself (prefixItems, contains).
        out.extend(self.gen(la, depth).filter(|v| matches!(v, J::Arr(_))));
        out
    }

    /// Whether a finding of the rejecting revision proves the change.
    fn proves(&self, f: &Finding, body: &J, target: &[Seg], proof: &[&'static Rule], at: ProofAt) -> bool {
        if !proof.iter().any(|r| r.id == f.rule()) {
            return false;
        }
        let Some(concrete) = finding_path(f.field()) else { return false };
        let found = self.pattern_of(body, &concrete);
        let child = || {
            found.len() == target.len() + 1 && found.starts_with(target) && matches!(found.last(), Some(Seg::Key(_)))
        };
        match at {
            ProofAt::Field => found == target,
            ProofAt::FieldOrParent => found.len() <= target.len() && target.starts_with(&found),
            ProofAt::ChildKey => child(),
            ProofAt::TopLevelKey => found.len() == 1 && matches!(found[0], Seg::Key(_)),
            ProofAt::FieldOrChild => found == target || child(),
        }
    }

    /// A finding's concrete path as the rejecting revision's pattern: an
    /// index is `[]` unless a `prefixItems` position, a key a map's value
    /// (`{}`) when no `properties` entry declares it but a pattern or
    /// `additionalProperties` takes it; unions are followed into the member
    /// the body's value picks (by its tag, else the members it passes).
    fn pattern_of(&self, body: &J, concrete: &[Seg]) -> Vec<Seg> {
        let mut out = Vec::with_capacity(concrete.len());
        let mut set: Vec<At> = vec![(Side::R, Schema::ROOT)];
        let mut value = Some(body);
        for seg in concrete {
            let nodes = self.picked(&set, value);
            match seg {
                Seg::Index(i) => {
                    if nodes.iter().any(|&at| self.node(at).prefix_items.len() > *i) {
                        out.push(Seg::Index(*i));
                    } else {
                        out.push(Seg::Items);
                    }
                    set = self.element_schemas(&nodes, *i);
                    value = match value {
                        Some(J::Arr(items)) => items.get(*i),
                        _ => None,
                    };
                }
                Seg::Key(k) => {
                    let mut next: Vec<At> = Vec::new();
                    let mut declared = false;
                    let mut mapped = false;
                    for &(side, id) in &nodes {
                        let n = self.node((side, id));
                        if let Some((_, p)) = n.properties.iter().find(|(name, _)| **name == **k) {
                            declared = true;
                            next.push((side, *p));
                        }
                        for (p, id) in &n.pattern_properties {
                            if p.is_match(k) {
                                mapped = true;
                                next.push((side, *id));
                            }
                        }
                    }
                    if !declared {
                        for &at in &nodes {
                            let n = self.node(at);
                            if let Some(extra) = n.additional.filter(|_| !n.closed) {
                                mapped = true;
                                next.push((at.0, extra));
                            }
                        }
                    }
                    out.push(if !declared && mapped { Seg::Map } else { Seg::Key(k.clone()) });
                    set = next;
                    value = match value {
                        Some(J::Obj(members)) => members.iter().find(|(m, _)| m == k).map(|(_, v)| v),
                        _ => None,
                    };
                }
                Seg::Items | Seg::Map => out.push(seg.clone()),
            }
        }
        out
    }

    /// The nodes judging `value` under `set`, each union followed into the
    /// member the value picks: by its tag, else every member it passes
    /// (every member when it passes none).
    fn picked(&self, set: &[At], value: Option<&J>) -> Vec<At> {
        let mut set = set.to_vec();
        let mut chosen: Vec<(At, bool)> = Vec::new();
        for _ in 0..64 {
            let (nodes, unions) = self.expand(&set);
            let Some(&(owner, one)) = unions.iter().find(|u| !chosen.contains(u)) else { return nodes };
            chosen.push((owner, one));
            let Some(union) = self.union(owner, one) else { continue };
            let members: Vec<Id> = match (&union.tag, value) {
                (Some(tag), Some(J::Obj(members))) => {
                    let v = members.iter().find(|(k, _)| **k == *tag.key).map(|(_, v)| v);
                    let i = v.and_then(|v| tag.values.iter().position(|l| literal(l) == *v));
                    i.map(|i| union.members[i]).into_iter().collect()
                }
                (_, Some(v)) => {
                    let passing: Vec<Id> =
                        union.members.iter().copied().filter(|&m| self.accepts(&[(owner.0, m)], v)).collect();
                    if passing.is_empty() {
                        union.members.clone()
                    } else {
                        passing
                    }
                }
                (_, None) => union.members.clone(),
            };
            set.extend(members.into_iter().map(|m| (owner.0, m)));
        }
        self.expand(&set).0
    }
}

/// A named value (`const`, `enum` member, tag) as a value to build with.
fn literal(l: &Literal) -> J {
    match &l.string {
        Some(s) => J::Str(s.to_string()),
        None => serde_json::from_str::<serde_json::Value>(&l.shown).map_or(J::Null, |v| from_value(&v)),
    }
}

fn from_value(v: &serde_json::Value) -> J {
    use serde_json::Value;
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Number(n) => J::Num(n.to_string()),
        Value::String(s) => J::Str(s.clone()),
        Value::Array(items) => J::Arr(items.iter().map(from_value).collect()),
        Value::Object(members) => J::Obj(members.iter().map(|(k, v)| (k.clone(), from_value(v))).collect()),
    }
}

fn dedup(values: Vec<J>) -> Vec<J> {
    let mut seen: HashSet<String> = HashSet::new();
    values.into_iter().filter(|v| seen.insert(v.text())).collect()
}

/// `body` with `v` at `hole` (left out when `v` is `None`, which only a
/// key can be); `None` when the hole is not there.
fn put(body: &J, hole: &[Hop], v: Option<&J>) -> Option<J> {
    fn set(at: &mut J, hole: &[Hop], v: Option<&J>) -> bool {
        let Some((hop, rest)) = hole.split_first() else {
            return match v {
                Some(v) => {
                    *at = v.clone();
                    true
                }
                None => false,
            };
        };
        match (hop, at) {
            (Hop::Key(k), J::Obj(members)) => {
                let Some(pos) = members.iter().position(|(m, _)| m == k) else { return false };
                if rest.is_empty() && v.is_none() {
                    members.remove(pos);
                    return true;
                }
                set(&mut members[pos].1, rest, v)
            }
            (Hop::Index(i), J::Arr(items)) if *i < items.len() => set(&mut items[*i], rest, v),
            _ => false,
        }
    }
    let mut out = body.clone();
    set(&mut out, hole, v).then_some(out)
}

/// A finding's field as concrete steps (`<data>`: the root).
fn finding_path(field: &str) -> Option<Vec<Seg>> {
    if field == crate::validate::DATA_FIELD {
        return Some(Vec::new());
    }
    parse_path(field, true)
}

/// `a.b["c.d"][2][]{}` as steps: `[n]` is an index (`concrete`) or a
/// `prefixItems` position; `[]` and `{}` only in a pattern.
fn parse_path(text: &str, concrete: bool) -> Option<Vec<Seg>> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut first = true;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("[\"") {
            // A bracketed key: a JSON string up to its closing quote.
            let mut escaped = false;
            let end = after.char_indices().find_map(|(i, c)| match c {
                _ if escaped => {
                    escaped = false;
                    None
                }
                '\\' => {
                    escaped = true;
                    None
                }
                '"' => Some(i),
                _ => None,
            })?;
            let key: String = serde_json::from_str(&rest[1..end + 3]).ok()?;
            out.push(Seg::Key(key));
            rest = after[end + 1..].strip_prefix(']')?;
        } else if let Some(after) = rest.strip_prefix("[]").filter(|_| !concrete) {
            out.push(Seg::Items);
            rest = after;
        } else if let Some(after) = rest.strip_prefix("{}").filter(|_| !concrete) {
            out.push(Seg::Map);
            rest = after;
        } else if let Some(after) = rest.strip_prefix('[') {
            let close = after.find(']')?;
            out.push(Seg::Index(after[..close].parse().ok()?));
            rest = &after[close + 1..];
        } else {
            let body = if first { rest } else { rest.strip_prefix('.')? };
            let end = body.find(['.', '[', '{']).unwrap_or(body.len());
            if end == 0 {
                return None;
            }
            out.push(Seg::Key(body[..end].to_string()));
            rest = &body[end..];
        }
        first = false;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{
        FIELD_ADDITIONAL_PROPERTIES, FIELD_ANY_OF, FIELD_CONST, FIELD_ENUM, FIELD_FORMAT, FIELD_MAX_LENGTH,
        FIELD_ONE_OF, FIELD_REQUIRED, FIELD_TYPE,
    };

    /// The search without hints.
    fn find(a: &ContractSpec, r: &ContractSpec, field: &str, proof: &[&'static Rule], at: ProofAt) -> Option<String> {
        super::find(a, r, field, proof, at, &[])
    }

    fn contract(schema: &str) -> ContractSpec {
        let text = format!(r#"{{"name": "t.x", "revision": "1.0.0", "schema": {schema}}}"#);
        ContractSpec::from_slice(text.as_bytes(), "t.json").unwrap()
    }

    /// The witness, checked again here: the accepting revision has no
    /// finding, and the rejecting one's findings are `expected` (rule, field).
    fn witness(
        accepting: &ContractSpec,
        rejecting: &ContractSpec,
        field: &str,
        proof: &[&'static Rule],
        at: ProofAt,
        expected: &[(&str, &str)],
    ) -> String {
        let body = find(accepting, rejecting, field, proof, at).expect("a witness");
        assert!(accepting.validate_json(body.as_bytes()).findings().is_empty(), "{body}");
        let report = rejecting.validate_json(body.as_bytes());
        let found: Vec<(&str, &str)> = report.findings().iter().map(|f| (f.rule(), f.field())).collect();
        assert_eq!(found, expected, "{body}");
        body
    }

    const BLOCKS: &str = r##"{
        "$defs": {
            "Text": {"type": "object", "properties": {"type": {"const": "text"}, "text": {"type": "string"}},
                     "required": ["type", "text"]},
            "Image": {"type": "object", "properties": {"type": {"const": "image"},
                      "data": {"type": "string", "format": "byte"}, "mimeType": {"type": "string"}},
                      "required": ["type", "data", "mimeType"]},
            "Block": {"anyOf": [{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Image"}]}
        },
        "type": "object",
        "properties": {"content": {"type": "array", "items": {"$ref": "#/$defs/Block"}}, "isError": {"type": "boolean"}},
        "required": ["content"]
    }"##;

    #[test]
    fn tagged_union_member_removed() {
        let old = contract(BLOCKS);
        let both = r##"{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Image"}"##;
        let new = contract(&BLOCKS.replace(both, r##"{"$ref": "#/$defs/Text"}"##));
        let body = witness(
            &old,
            &new,
            "content[]",
            &[FIELD_ENUM],
            ProofAt::FieldOrChild,
            &[("field.enum", "content[0].type")],
        );
        assert_eq!(body, r#"{"content":[{"type":"image","data":"AAAA","mimeType":""}]}"#);
        // Nothing the smaller union accepts is rejected by the larger one.
        assert_eq!(find(&new, &old, "content[]", &[FIELD_ENUM], ProofAt::FieldOrChild), None);
    }

    #[test]
    fn untagged_union_member_removed() {
        let old = contract(
            r#"{"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 1}]}}}"#,
        );
        let new = contract(r#"{"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}]}}}"#);
        let body = witness(&old, &new, "v", &[FIELD_ANY_OF], ProofAt::Field, &[("field.anyOf", "v")]);
        assert_eq!(body, r#"{"v":1}"#);
        assert_eq!(find(&new, &old, "v", &[FIELD_ANY_OF], ProofAt::Field), None);
    }

    #[test]
    fn union_member_added_in_the_response_direction() {
        // A response break: the new revision (accepting) sends what the old
        // one (rejecting) cannot read.
        let old = contract(r#"{"oneOf": [{"type": "string"}, {"type": "null"}]}"#);
        let new = contract(
            r#"{"oneOf": [{"type": "string"}, {"type": "null"},
                {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}]}"#,
        );
        let body = witness(&new, &old, CONTRACT_FIELD, &[FIELD_ONE_OF], ProofAt::Field, &[("field.oneOf", "<data>")]);
        assert_eq!(body, r#"{"id":0}"#);
    }

    #[test]
    fn closed_object_at_depth() {
        let inner = r#"{"type": "object", "properties": {"x": {"type": "integer"}}}"#;
        let closed = r#"{"type": "object", "properties": {"x": {"type": "integer"}}, "additionalProperties": false}"#;
        let shape = |b: &str| format!(r#"{{"type": "object", "properties": {{"a": {{"properties": {{"b": {b}}}}}}}}}"#);
        let (old, new) = (contract(&shape(inner)), contract(&shape(closed)));
        let body = witness(
            &old,
            &new,
            "a.b",
            &[FIELD_ADDITIONAL_PROPERTIES],
            ProofAt::ChildKey,
            &[("field.additionalProperties", "a.b.undeclared")],
        );
        assert_eq!(body, r#"{"a":{"b":{"undeclared":""}}}"#);
    }

    #[test]
    fn required_property_added() {
        let shape = |required: &str| {
            contract(&format!(
                r#"{{"type": "object", "required": ["p"], "properties": {{"p": {{"type": "object",
                    "properties": {{"id": {{"type": "string", "minLength": 2}}, "n": {{"type": "integer"}}}},
                    "required": {required}}}}}}}"#
            ))
        };
        let (old, new) = (shape(r#"["id"]"#), shape(r#"["id", "n"]"#));
        let body = witness(
            &old,
            &new,
            "p.n",
            &[FIELD_REQUIRED, FIELD_TYPE],
            ProofAt::FieldOrParent,
            &[("field.required", "p.n")],
        );
        assert_eq!(body, r#"{"p":{"id":"xx"}}"#);
    }

    #[test]
    fn map_value_type_narrowed() {
        let shape = |types: &str| {
            contract(&format!(
                r#"{{"type": "object", "properties": {{"caps": {{"type": "object",
                    "properties": {{"fixed": {{"type": "boolean"}}}}, "additionalProperties": {{"type": {types}}}}}}}}}"#
            ))
        };
        let (old, new) = (shape(r#"["string", "integer"]"#), shape(r#""string""#));
        let body = witness(&old, &new, "caps{}", &[FIELD_TYPE], ProofAt::Field, &[("field.type", "caps.k")]);
        assert_eq!(body, r#"{"caps":{"k":0}}"#);
        // A declared key is not the map's value: no witness at `caps{}` from it.
        let fixed = witness(&old, &new, "caps{}", &[FIELD_TYPE], ProofAt::Field, &[("field.type", "caps.k")]);
        assert!(!fixed.contains("fixed"));
    }

    #[test]
    fn const_changed() {
        let shape = |v: &str| {
            contract(&format!(
                r#"{{"type": "object", "properties": {{"jsonrpc": {{"const": "{v}"}}, "id": {{"type": "integer"}}}},
                    "required": ["jsonrpc", "id"]}}"#
            ))
        };
        let (old, new) = (shape("2.0"), shape("3.0"));
        let body = witness(&old, &new, "jsonrpc", &[FIELD_CONST], ProofAt::Field, &[("field.const", "jsonrpc")]);
        assert_eq!(body, r#"{"id":0,"jsonrpc":"2.0"}"#);
    }

    #[test]
    fn format_added() {
        let old = contract(r#"{"type": "object", "properties": {"at": {"type": "string"}}, "required": ["at"]}"#);
        let new = contract(
            r#"{"type": "object", "properties": {"at": {"type": "string", "format": "date-time"}}, "required": ["at"]}"#,
        );
        let body = witness(&old, &new, "at", &[FIELD_FORMAT], ProofAt::Field, &[("field.format", "at")]);
        assert_eq!(body, r#"{"at":""}"#);
        // The other way round nothing is rejected.
        assert_eq!(find(&new, &old, "at", &[FIELD_FORMAT], ProofAt::Field), None);
    }

    #[test]
    fn enum_restricted_in_a_definition_used_twice() {
        let shape = |roles: &str| {
            contract(&format!(
                r##"{{"$defs": {{"Role": {{"enum": {roles}}}}}, "type": "object",
                    "properties": {{"from": {{"$ref": "#/$defs/Role"}}, "to": {{"$ref": "#/$defs/Role"}}}},
                    "required": ["from", "to"]}}"##
            ))
        };
        let (old, new) = (shape(r#"["user", "assistant", "system"]"#), shape(r#"["user", "assistant"]"#));
        let body = witness(&old, &new, "from", &[FIELD_ENUM], ProofAt::Field, &[("field.enum", "from")]);
        assert_eq!(body, r#"{"to":"user","from":"system"}"#);
        let body = witness(&old, &new, "to", &[FIELD_ENUM], ProofAt::Field, &[("field.enum", "to")]);
        assert_eq!(body, r#"{"from":"user","to":"system"}"#);
    }

    #[test]
    fn max_length_tightened_in_a_prefix_position() {
        let shape = |max: u32| {
            contract(&format!(
                r#"{{"type": "object", "properties": {{"t": {{"type": "array", "minItems": 2,
                    "prefixItems": [{{"type": "integer"}}, {{"type": "string", "maxLength": {max}}}]}}}}}}"#
            ))
        };
        let (old, new) = (shape(8), shape(3));
        let body = witness(&old, &new, "t[1]", &[FIELD_MAX_LENGTH], ProofAt::Field, &[("field.maxLength", "t[1]")]);
        assert_eq!(body, r#"{"t":[0,"xxxx"]}"#);
        // `t[]` is another place: the element after the prefix.
        assert_eq!(find(&old, &new, "t[]", &[FIELD_MAX_LENGTH], ProofAt::Field), None);
    }

    #[test]
    fn recursive_schemas_end() {
        let shape = |max: u32| {
            contract(&format!(
                r##"{{"$defs": {{"Node": {{"type": "object", "required": ["name"], "properties": {{
                    "name": {{"type": "string", "maxLength": {max}}},
                    "next": {{"anyOf": [{{"$ref": "#/$defs/Node"}}, {{"type": "null"}}]}},
                    "kids": {{"type": "array", "items": {{"$ref": "#/$defs/Node"}}}}}}}}}},
                    "$ref": "#/$defs/Node"}}"##
            ))
        };
        let (old, new) = (shape(8), shape(3));
        let body = witness(
            &old,
            &new,
            "kids[].name",
            &[FIELD_MAX_LENGTH],
            ProofAt::Field,
            &[("field.maxLength", "kids[0].name")],
        );
        assert_eq!(body, r#"{"name":"","kids":[{"name":"xxxx"}]}"#);
        // A value that must hold itself has no finite instance: no witness, and an end.
        let endless = contract(r##"{"type": "object", "properties": {"self": {"$ref": "#"}}, "required": ["self"]}"##);
        let other = contract(
            r##"{"type": "object", "properties": {"self": {"$ref": "#"}, "n": {"type": "integer"}}, "required": ["self", "n"]}"##,
        );
        assert_eq!(find(&endless, &other, "n", &[FIELD_REQUIRED], ProofAt::FieldOrParent), None);
    }

    #[test]
    fn identical_schemas_have_no_witness() {
        let c = contract(BLOCKS);
        for (field, at) in
            [("content[]", ProofAt::FieldOrChild), ("isError", ProofAt::Field), (CONTRACT_FIELD, ProofAt::ChildKey)]
        {
            assert_eq!(find(&c, &c, field, &[FIELD_ENUM, FIELD_TYPE, FIELD_ADDITIONAL_PROPERTIES], at), None);
        }
    }

    /// The real MCP `CallToolResult` with `resource_link` dropped from the
    /// content union.
    fn mcp_pair() -> (ContractSpec, ContractSpec) {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/contracts/mcp/call_tool_result_2025.6.18.json");
        let text = std::fs::read_to_string(path).unwrap();
        let with_link = ContractSpec::from_slice(text.as_bytes(), "with.json").unwrap();
        let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let members = doc["schema"]["$defs"]["ContentBlock"]["anyOf"].as_array_mut().unwrap();
        let before = members.len();
        members.retain(|m| m["$ref"] != "#/$defs/ResourceLink");
        assert_eq!(members.len(), before - 1);
        let without = ContractSpec::from_slice(doc.to_string().as_bytes(), "without.json").unwrap();
        (with_link, without)
    }

    #[test]
    fn mcp_content_union_member_removed() {
        let (with_link, without) = mcp_pair();
        let body = witness(
            &with_link,
            &without,
            "content[]",
            &[FIELD_ENUM],
            ProofAt::FieldOrChild,
            &[("field.enum", "content[0].type")],
        );
        assert_eq!(body, r#"{"content":[{"name":"","type":"resource_link","uri":"https://example.com"}]}"#);
        assert_eq!(find(&without, &with_link, "content[]", &[FIELD_ENUM], ProofAt::FieldOrChild), None);
    }

    /// Prints the time per call (run with `--release --nocapture` to
    /// measure): a witness found, none to find, and searches that exhaust
    /// every candidate on identical revisions.
    #[test]
    fn mcp_search_time() {
        let (with_link, without) = mcp_pair();
        let proof = [FIELD_ENUM, FIELD_TYPE, FIELD_MAX_LENGTH, FIELD_ADDITIONAL_PROPERTIES, FIELD_REQUIRED];
        let time = |a: &ContractSpec, r: &ContractSpec, field: &str, at: ProofAt| {
            let runs = 20;
            let start = std::time::Instant::now();
            let mut found = None;
            for _ in 0..runs {
                found = find(a, r, field, &proof, at);
            }
            (start.elapsed() / runs, found.is_some())
        };
        let cases = [
            (&with_link, &without, "content[]", ProofAt::FieldOrChild, true),
            (&without, &with_link, "content[]", ProofAt::FieldOrChild, false),
            (&with_link, &with_link, "content[].text", ProofAt::Field, false),
            (&with_link, &with_link, "content[].annotations.priority", ProofAt::Field, false),
            (&with_link, &with_link, CONTRACT_FIELD, ProofAt::ChildKey, false),
            (&with_link, &with_link, "structuredContent{}", ProofAt::Field, false),
        ];
        for (a, r, field, at, expected) in cases {
            let (took, found) = time(a, r, field, at);
            assert_eq!(found, expected, "{field}");
            eprintln!("mcp witness search at {field} (witness: {found}): {took:?} per call");
        }
    }

    #[test]
    fn finding_paths_become_patterns_of_the_rejecting_schema() {
        let old = contract(BLOCKS);
        let s = Search::new(old.schema().unwrap(), old.schema().unwrap());
        let body = J::Obj(vec![(
            "content".into(),
            J::Arr(vec![J::Obj(vec![("type".into(), J::Str("text".into())), ("text".into(), J::Num("1".into()))])]),
        )]);
        let at = |field: &str| s.pattern_of(&body, &finding_path(field).unwrap());
        assert_eq!(at("content[0].text"), parse_path("content[].text", false).unwrap());
        assert_eq!(at("<data>"), Vec::new());
        assert_eq!(parse_path(r#"a["x.y"][2]{}[]"#, false).unwrap().len(), 5);
        assert_eq!(parse_path(r#"a["x.y"][2]"#, true).unwrap()[1], Seg::Key("x.y".into()));
        assert_eq!(parse_path("a..b", false), None);
    }

    /// A real MCP contract, edited.
    fn mcp(file: &str, edit: impl FnOnce(&mut serde_json::Value)) -> ContractSpec {
        let path = format!("{}/../tests/data/contracts/mcp/{file}", env!("CARGO_MANIFEST_DIR"));
        let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        edit(&mut doc["schema"]);
        ContractSpec::from_slice(doc.to_string().as_bytes(), "mcp.json").unwrap()
    }

    #[test]
    fn changes_to_real_mcp_contracts_have_witnesses() {
        use crate::rules::{FIELD_MAXIMUM, FIELD_MIN_ITEMS, FIELD_MIN_LENGTH, FIELD_PATTERN, FIELD_UNIQUE_ITEMS};
        use serde_json::json;
        const R: &str = "call_tool_result_2025.6.18.json";
        const I: &str = "initialize_request_2025.6.18.json";
        let (result, init) = (mcp(R, |_| {}), mcp(I, |_| {}));
        type Case =
            (ContractSpec, &'static str, &'static [&'static Rule], ProofAt, &'static str, (&'static str, &'static str));
        let cases: Vec<Case> = vec![
            (
                mcp(R, |s| s["$defs"]["TextContent"]["properties"]["text"]["maxLength"] = json!(5)),
                "content[].text",
                &[FIELD_MAX_LENGTH],
                ProofAt::Field,
                r#"{"content":[{"type":"text","text":"xxxxxx"}]}"#,
                ("field.maxLength", "content[0].text"),
            ),
            (
                mcp(R, |s| s["$defs"]["Annotations"]["properties"]["priority"]["maximum"] = json!(0.5)),
                "content[].annotations.priority",
                &[FIELD_MAXIMUM],
                ProofAt::Field,
                r#"{"content":[{"text":"","type":"text","annotations":{"priority":1}}]}"#,
                ("field.maximum", "content[0].annotations.priority"),
            ),
            (
                mcp(R, |s| s["additionalProperties"] = json!(false)),
                CONTRACT_FIELD,
                &[FIELD_ADDITIONAL_PROPERTIES],
                ProofAt::ChildKey,
                r#"{"content":[],"undeclared":""}"#,
                ("field.additionalProperties", "undeclared"),
            ),
            (
                mcp(R, |s| s["properties"]["structuredContent"]["additionalProperties"] = json!({"type": "string"})),
                "structuredContent{}",
                &[FIELD_TYPE],
                ProofAt::Field,
                r#"{"content":[],"structuredContent":{"k":0}}"#,
                ("field.type", "structuredContent.k"),
            ),
            (
                mcp(R, |s| {
                    s["$defs"]["EmbeddedResource"]["properties"]["resource"]["anyOf"].as_array_mut().unwrap().pop();
                }),
                "content[].resource",
                &[FIELD_ANY_OF],
                ProofAt::Field,
                r#"{"content":[{"type":"resource","resource":{"blob":"AAAA","uri":"https://example.com"}}]}"#,
                ("field.anyOf", "content[0].resource"),
            ),
            (
                mcp(R, |s| s["properties"]["content"]["minItems"] = json!(1)),
                "content",
                &[FIELD_MIN_ITEMS],
                ProofAt::Field,
                r#"{"content":[]}"#,
                ("field.minItems", "content"),
            ),
            (
                mcp(R, |s| s["properties"]["content"]["uniqueItems"] = json!(true)),
                "content",
                &[FIELD_UNIQUE_ITEMS],
                ProofAt::Field,
                r#"{"content":[{"text":"","type":"text"},{"text":"","type":"text"}]}"#,
                ("field.uniqueItems", "content"),
            ),
            (
                mcp(R, |s| s["$defs"]["ResourceLink"]["properties"]["name"]["pattern"] = json!("^[a-z]+$")),
                "content[].name",
                &[FIELD_PATTERN],
                ProofAt::Field,
                r#"{"content":[{"type":"resource_link","uri":"https://example.com","name":""}]}"#,
                ("field.pattern", "content[0].name"),
            ),
            (
                mcp(R, |s| s["$defs"]["ResourceLink"]["required"] = json!(["name", "type", "uri", "size"])),
                "content[].size",
                &[FIELD_REQUIRED, FIELD_TYPE],
                ProofAt::FieldOrParent,
                r#"{"content":[{"name":"","type":"resource_link","uri":"https://example.com"}]}"#,
                ("field.required", "content[0].size"),
            ),
            (
                mcp(R, |s| s["$defs"]["TextContent"]["additionalProperties"] = json!(false)),
                "content[]",
                &[FIELD_ADDITIONAL_PROPERTIES],
                ProofAt::ChildKey,
                r#"{"content":[{"text":"","type":"text","undeclared":""}]}"#,
                ("field.additionalProperties", "content[0].undeclared"),
            ),
            (
                mcp(R, |s| s["type"] = json!("array")),
                CONTRACT_FIELD,
                &[FIELD_TYPE],
                ProofAt::Field,
                r#"{"content":[]}"#,
                ("field.type", "<data>"),
            ),
        ];
        for (new, field, proof, at, body, finding) in &cases {
            assert_eq!(witness(&result, new, field, proof, *at, &[*finding]), *body);
        }
        // Response direction: a role added is read by old clients as unknown.
        let roles = mcp(R, |s| s["$defs"]["Role"]["enum"] = json!(["assistant", "user", "system"]));
        let body = witness(
            &roles,
            &result,
            "content[].annotations.audience[]",
            &[FIELD_ENUM],
            ProofAt::Field,
            &[("field.enum", "content[0].annotations.audience[0]")],
        );
        assert_eq!(body, r#"{"content":[{"text":"","type":"text","annotations":{"audience":["system"]}}]}"#);
        let cases: Vec<Case> = vec![
            (
                mcp(I, |s| {
                    s["$defs"]["ClientCapabilities"]["properties"]["experimental"]["additionalProperties"]
                        ["additionalProperties"] = json!(false)
                }),
                "params.capabilities.experimental{}",
                &[FIELD_ADDITIONAL_PROPERTIES],
                ProofAt::ChildKey,
                r#"{"method":"initialize","params":{"clientInfo":{"name":"","version":""},"protocolVersion":"","capabilities":{"experimental":{"k":{"undeclared":""}}}}}"#,
                ("field.additionalProperties", "params.capabilities.experimental.k.undeclared"),
            ),
            (
                mcp(I, |s| s["properties"]["method"]["const"] = json!("init")),
                "method",
                &[FIELD_CONST],
                ProofAt::Field,
                r#"{"params":{"capabilities":{},"clientInfo":{"name":"","version":""},"protocolVersion":""},"method":"initialize"}"#,
                ("field.const", "method"),
            ),
            (
                mcp(I, |s| s["$defs"]["Implementation"]["properties"]["version"]["minLength"] = json!(3)),
                "params.clientInfo.version",
                &[FIELD_MIN_LENGTH],
                ProofAt::Field,
                r#"{"method":"initialize","params":{"capabilities":{},"protocolVersion":"","clientInfo":{"name":"","version":""}}}"#,
                ("field.minLength", "params.clientInfo.version"),
            ),
        ];
        for (new, field, proof, at, body, finding) in &cases {
            assert_eq!(witness(&init, new, field, proof, *at, &[*finding]), *body);
        }
    }

    #[test]
    fn not_and_dependent_required_added() {
        let old = contract(r#"{"type": "object", "properties": {"v": {"type": ["string", "integer"]}}}"#);
        let new = contract(
            r#"{"type": "object", "properties": {"v": {"type": ["string", "integer"], "not": {"type": "integer"}}}}"#,
        );
        let body = witness(&old, &new, "v", &[crate::rules::FIELD_NOT], ProofAt::Field, &[("field.not", "v")]);
        assert_eq!(body, r#"{"v":0}"#);
        let shape = |extra: &str| {
            contract(&format!(
                r#"{{"type": "object", "properties": {{"o": {{"type": "object", "properties": {{"card": {{"type": "string"}},
                    "billing": {{"type": "string"}}}}{extra}}}}}, "required": ["o"]}}"#
            ))
        };
        let (old, new) = (shape(""), shape(r#", "dependentRequired": {"card": ["billing"]}"#));
        let body = witness(
            &old,
            &new,
            "o",
            &[crate::rules::FIELD_DEPENDENT_REQUIRED],
            ProofAt::FieldOrChild,
            &[("field.dependentRequired", "o.billing")],
        );
        assert_eq!(body, r#"{"o":{"card":""}}"#);
    }

    #[test]
    fn unions_without_a_finite_instance_end_quickly() {
        // Every member needs more of itself: nothing is finite, and the
        // search must give up within its caps.
        let schema = r##"{"$defs": {"N": {"anyOf": [
            {"type": "object", "required": ["a", "b"], "properties": {"a": {"$ref": "#/$defs/N"}, "b": {"$ref": "#/$defs/N"}}},
            {"type": "object", "required": ["c"], "properties": {"c": {"$ref": "#/$defs/N"}}},
            {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/N"}}]}},
            "type": "object", "properties": {"n": {"$ref": "#/$defs/N"}, "s": {"type": "string"}}}"##;
        let old = contract(schema);
        let new = contract(&schema.replace(r#""s": {"type": "string"}"#, r#""s": {"type": "string", "maxLength": 1}"#));
        let start = std::time::Instant::now();
        assert_eq!(find(&old, &old, "n", &[FIELD_ANY_OF], ProofAt::Field), None);
        assert_eq!(find(&old, &new, "n.c", &[FIELD_MAX_LENGTH], ProofAt::Field), None);
        let body = witness(&old, &new, "s", &[FIELD_MAX_LENGTH], ProofAt::Field, &[("field.maxLength", "s")]);
        assert_eq!(body, r#"{"s":"xx"}"#);
        assert!(start.elapsed() < std::time::Duration::from_secs(2), "{:?}", start.elapsed());
    }

    #[test]
    fn property_names_conditions_and_closed_tuples() {
        let old = contract(r#"{"type": "object", "properties": {"m": {"type": "object"}}, "required": ["m"]}"#);
        let new = contract(
            r#"{"type": "object", "properties": {"m": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}},
                "required": ["m"]}"#,
        );
        let body = witness(
            &old,
            &new,
            "m",
            &[crate::rules::FIELD_PROPERTY_NAMES],
            ProofAt::FieldOrChild,
            &[("field.propertyNames", "m[\"\"]")],
        );
        assert_eq!(body, r#"{"m":{"":""}}"#);
        let old =
            contract(r#"{"type": "object", "properties": {"kind": {"enum": ["a", "b"]}, "n": {"type": "integer"}}}"#);
        let new = contract(
            r#"{"type": "object", "properties": {"kind": {"enum": ["a", "b"]}, "n": {"type": "integer"}},
                "if": {"properties": {"kind": {"const": "b"}}, "required": ["kind"]}, "then": {"required": ["n"]}}"#,
        );
        let body =
            witness(&old, &new, CONTRACT_FIELD, &[FIELD_REQUIRED], ProofAt::FieldOrChild, &[("field.required", "n")]);
        assert_eq!(body, r#"{"kind":"b"}"#);
        let shape = |closed: &str| {
            contract(&format!(
                r#"{{"type": "object", "properties": {{"t": {{"type": "array",
                    "prefixItems": [{{"type": "integer"}}, {{"type": "string"}}]{closed}}}}}}}"#
            ))
        };
        let (old, new) = (shape(""), shape(r#", "items": false"#));
        let body = witness(&old, &new, "t[]", &[crate::rules::FIELD_ITEMS], ProofAt::Field, &[("field.items", "t[2]")]);
        assert_eq!(body, r#"{"t":[0,"",""]}"#);
    }

    #[test]
    fn changes_to_the_real_mcp_tool_contract() {
        use crate::rules::FIELD_MIN_LENGTH;
        use serde_json::json;
        const T: &str = "tool_2025.6.18.json";
        let tool = mcp(T, |_| {});
        let closed = mcp(T, |s| {
            s["properties"]["inputSchema"]["properties"]["properties"]["additionalProperties"]["additionalProperties"] =
                json!(false)
        });
        let body = witness(
            &tool,
            &closed,
            "inputSchema.properties{}",
            &[FIELD_ADDITIONAL_PROPERTIES],
            ProofAt::ChildKey,
            &[("field.additionalProperties", "inputSchema.properties.k.undeclared")],
        );
        assert_eq!(body, r#"{"name":"","inputSchema":{"type":"object","properties":{"k":{"undeclared":""}}}}"#);
        let named =
            mcp(T, |s| s["properties"]["inputSchema"]["properties"]["required"]["items"]["minLength"] = json!(1));
        let body = witness(
            &tool,
            &named,
            "inputSchema.required[]",
            &[FIELD_MIN_LENGTH],
            ProofAt::Field,
            &[("field.minLength", "inputSchema.required[0]")],
        );
        assert_eq!(body, r#"{"name":"","inputSchema":{"type":"object","required":[""]}}"#);
        let read_only = mcp(T, |s| s["$defs"]["ToolAnnotations"]["properties"]["readOnlyHint"]["const"] = json!(true));
        let body = witness(
            &tool,
            &read_only,
            "annotations.readOnlyHint",
            &[FIELD_CONST],
            ProofAt::Field,
            &[("field.const", "annotations.readOnlyHint")],
        );
        assert_eq!(body, r#"{"inputSchema":{"type":"object"},"name":"","annotations":{"readOnlyHint":false}}"#);
    }
}
