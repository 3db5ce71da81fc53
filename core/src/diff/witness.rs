//! Witnesses: for a breaking change, a data body the old revision accepts with
//! no finding and the new one flags at the changed field.
//!
//! Bodies are built from the old revision's shape (its required fields, with
//! values both revisions accept where there are such), with the changed path
//! left out or set to a candidate value; fields only the new revision requires
//! are then added where the old one allows them, so that the new revision
//! objects to the change and, ideally, to nothing else. A body is kept only
//! after both real validators have judged it. Nothing unchecked is returned.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use super::detect::{sites, Detected, Site};
use super::rules::ProofAt;
use super::sample::{candidates, every_type, J};
use super::Impact;
use crate::contract::tree::Node;
use crate::contract::ContractDirection;
use crate::contract::{ContractSpec, FieldSpec, JsonType};
use crate::report::{Finding, Report};

/// The witness of a change breaking in `direction` (or `None`), its sense,
/// and the change's message, which says why when there is no witness.
///
/// A request-direction break is shown by a body the old revision accepts
/// and the new one flags; a response-direction break by a body the new
/// revision accepts and the old one flags (what a new sender may send and an
/// old reader rejects). In `both`, the request sense is tried first.
pub(super) fn prove_in(
    old: &ContractSpec,
    new: &ContractSpec,
    d: &Detected,
    direction: ContractDirection,
) -> (Option<String>, Option<ContractDirection>, String) {
    let mut searched = false;
    for sense in senses(d, direction) {
        searched = true;
        let found = match sense {
            ContractDirection::Request => search(old, new, d),
            _ => search(new, old, d),
        };
        if let Some(body) = found {
            return (Some(body), Some(sense), d.message.clone());
        }
    }
    let message = plain_message(d, direction);
    if searched {
        (None, None, format!("{message} (no witness found)"))
    } else {
        (None, None, message)
    }
}

/// The senses in which a change breaking in `direction` is shown by a
/// message: request first.
fn senses(d: &Detected, direction: ContractDirection) -> Vec<ContractDirection> {
    let mut out = Vec::new();
    if d.rule.proof.is_empty() {
        return out;
    }
    let request = matches!(direction, ContractDirection::Request | ContractDirection::Both);
    let response = matches!(direction, ContractDirection::Response | ContractDirection::Both);
    if request && d.rule.impact == Impact::Breaking && !d.rule.readers_only {
        out.push(ContractDirection::Request);
    }
    if response && d.rule.response == Impact::Breaking {
        out.push(ContractDirection::Response);
    }
    out
}

/// The detector's message, with the reason there is no witness when a
/// request-direction break rejects no message (readers break).
pub(super) fn plain_message(d: &Detected, direction: ContractDirection) -> String {
    if d.rule.readers_only && direction == ContractDirection::Request {
        format!("{} (no envelope is rejected; readers of the field break)", d.message)
    } else {
        d.message.clone()
    }
}

/// A body `accepting` accepts with no finding and `rejecting` flags for the
/// change, checked with both validators.
fn search(accepting: &ContractSpec, rejecting: &ContractSpec, d: &Detected) -> Option<String> {
    if accepting.schema().is_some() && rejecting.schema().is_some() {
        // The schema search names the value itself `<contract>`; changes
        // name it as findings do, `<data>`.
        let field = if d.field == crate::validate::DATA_FIELD { super::CONTRACT_FIELD } else { d.field.as_str() };
        return super::schema_witness::find(accepting, rejecting, field, d.rule.proof, d.rule.proof_at, &d.hints);
    }
    let (old, new) = (accepting, rejecting);
    let cx = Ctx { old, new, old_sites: sites(old), new_sites: sites(new), minimal: RefCell::default() };
    let mut fallback = None;
    for body in cx.bodies(d) {
        let body = cx.repair(body, &d.field);
        let text = body.text();
        if !accepted(old, &text) {
            continue;
        }
        let report = new.validate_json(text.as_bytes());
        match judge(&report, d, &new.tree) {
            Verdict::Clean => return Some(text),
            Verdict::Related if fallback.is_none() => fallback = Some(text),
            _ => {}
        }
    }
    fallback
}

/// Whether a contract accepts a body with no finding at all.
pub(super) fn accepted(c: &ContractSpec, body: &str) -> bool {
    c.validate_json(body.as_bytes()).findings().is_empty()
}

/// How the new revision's report bears on a change.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// Flagged for the change, and for nothing else.
    Clean,
    /// Flagged for the change, and for something else too.
    Related,
    /// Not flagged for the change.
    Unrelated,
}

/// Whether a finding proves the change: one of the rule's proving
/// validation rules, where the rule says it may point. A finding's severity is
/// its rule's, so the proving rules decide it too (`field.unknown`, the proof
/// of `contract.strict.enabled`, is a warning; every other proof an error).
fn proves(f: &Finding, d: &Detected, tree: &Node) -> bool {
    if !d.rule.proof.iter().any(|r| r.id == f.rule()) {
        return false;
    }
    let at = pattern_in(tree, f.field());
    match d.rule.proof_at {
        ProofAt::TopLevelKey => true,
        ProofAt::ChildKey => child_key(&at, &d.field),
        ProofAt::Field => at == d.field,
        ProofAt::FieldOrChild => at == d.field || child_key(&at, &d.field),
        ProofAt::FieldOrParent => at == d.field || below(&d.field, &at),
    }
}

/// Whether `at` is one key directly below `field` (`.key` or `["key"]`).
fn child_key(at: &str, field: &str) -> bool {
    let rest = at.strip_prefix(field).unwrap_or("");
    (rest.starts_with('.') && !rest[1..].contains(['.', '['])) || (rest.starts_with("[\"") && rest.ends_with("\"]"))
}

fn judge(report: &Report, d: &Detected, tree: &Node) -> Verdict {
    if !report.findings().iter().any(|f| proves(f, d, tree)) {
        Verdict::Unrelated
    } else if report.findings().iter().all(|f| proves(f, d, tree)) {
        Verdict::Clean
    } else {
        Verdict::Related
    }
}

/// A finding's concrete path as the contract's pattern (`[2]` -> `[]`),
/// read along the contract's tree so that a map's key becomes `{}`
/// (`caps.experimental.foo` -> `caps.experimental{}` where `experimental`
/// is a map).
fn pattern_in(tree: &Node, concrete: &str) -> String {
    let mut out = String::with_capacity(concrete.len());
    let mut node = Some(tree);
    let mut rest = concrete;
    let mut first = true;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[').filter(|a| !a.starts_with('"')) {
            // An index.
            let end = after.find(']').map_or(after.len(), |i| i + 1);
            out.push_str("[]");
            node = node.and_then(|n| n.items.as_deref());
            rest = &after[end..];
            first = false;
            continue;
        }
        // A key: `.key`, `key` first, or `["key"]`.
        let body = if first { rest } else { rest.strip_prefix('.').unwrap_or(rest) };
        let (key, after) = if body.starts_with("[\"") {
            let mut escaped = false;
            let mut end = body.len();
            for (i, c) in body.char_indices().skip(2) {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => {
                        end = i + 1;
                        break;
                    }
                    _ => {}
                }
            }
            let key: String = serde_json::from_str(&body[1..end]).unwrap_or_default();
            (key, body.get(end + 1..).unwrap_or(""))
        } else {
            let end = body.find(['.', '[']).unwrap_or(body.len());
            (body[..end].to_string(), &body[end..])
        };
        match node {
            Some(n) if n.keys.iter().all(|c| *c.key != *key) && n.values.is_some() => {
                out.push_str("{}");
                node = n.values.as_deref();
            }
            Some(n) => {
                crate::contract::push_key(&mut out, first, &key);
                node = n.keys.iter().find(|c| *c.key == *key).map(|c| &c.node);
            }
            None => crate::contract::push_key(&mut out, first, &key),
        }
        rest = after;
        first = false;
    }
    out
}

/// What follows `path` in `target` (empty if `target` is not longer).
fn after<'t>(target: &'t str, path: &str) -> &'t str {
    target.get(path.len()..).unwrap_or("")
}

/// Whether `target` lies below `path` (through an object key or array step).
fn below(target: &str, path: &str) -> bool {
    target.len() > path.len()
        && target.starts_with(path)
        && (after(target, path).starts_with('.') || after(target, path).starts_with(['[', '{']))
}

fn join(prefix: &str, key: &str) -> String {
    crate::contract::join_key(prefix, key)
}

/// What to do at the changed path.
#[derive(Clone, Copy)]
enum Action<'v> {
    Omit,
    Set(&'v J),
}

struct Ctx<'c> {
    old: &'c ContractSpec,
    new: &'c ContractSpec,
    old_sites: BTreeMap<String, Site<'c>>,
    new_sites: BTreeMap<String, Site<'c>>,
    /// `minimal` values already found, by (revision is old, path).
    minimal: RefCell<HashMap<(bool, String), Option<J>>>,
}

impl<'c> Ctx<'c> {
    /// Candidate bodies for a change, most telling first.
    fn bodies(&self, d: &Detected) -> Vec<J> {
        let mut out = Vec::new();
        let base = self.build(self.old, "", None);
        // A contract-level change is shown by an undeclared top-level key.
        if d.rule.proof_at == ProofAt::TopLevelKey {
            if let Some(J::Obj(mut members)) = base {
                let declared = |k: &str| self.new.tree.keys.iter().chain(&self.old.tree.keys).any(|c| *c.key == *k);
                let mut key = "undeclared".to_string();
                while declared(&key) {
                    key.push('_');
                }
                members.push((key, J::Num("0".into())));
                out.push(J::Obj(members));
            }
            return out;
        }
        let path = d.field.as_str();
        let of = self.old_sites.get(path).and_then(|s| s.field);
        let nf = self.new_sites.get(path).and_then(|s| s.field);
        out.extend(self.build(self.old, path, Some(Action::Omit)));
        let mut values: Vec<J> = d.hints.iter().map(|h| J::Str(h.clone())).collect();
        values.extend(match of.or(nf) {
            Some(f) => candidates(f, &[of, nf].into_iter().flatten().collect::<Vec<_>>()),
            None => every_type(),
        });
        values.extend(self.arrays(path, of, nf));
        // The old revision's own smallest value there (an object with its
        // required children, an array of valid elements).
        if let Some(site) = self.old_sites.get(path) {
            values.extend(self.minimal(self.old, site.node, path));
            // An object closed: its smallest value with a key it does not declare.
            if d.rule.proof_at == ProofAt::ChildKey {
                if let Some(J::Obj(mut members)) = self.minimal(self.old, site.node, path) {
                    let mut key = "undeclared".to_string();
                    while members.iter().any(|(k, _)| *k == key) || site.node.keys.iter().any(|c| *c.key == *key) {
                        key.push('_');
                    }
                    members.push((key, J::Num("0".into())));
                    values.push(J::Obj(members));
                }
            }
        }
        for v in &values {
            out.extend(self.build(self.old, path, Some(Action::Set(v))));
        }
        out.extend(base);
        out
    }

    /// Arrays of telling lengths, with equal and with distinct elements.
    fn arrays(&self, path: &str, of: Option<&FieldSpec>, nf: Option<&FieldSpec>) -> Vec<J> {
        if !of.or(nf).is_some_and(|f| f.types.contains(JsonType::Array)) {
            return Vec::new();
        }
        let element_path = format!("{path}[]");
        let element = self.old_sites.get(&element_path);
        let one = element.and_then(|s| self.minimal(self.old, s.node, &element_path)).unwrap_or(J::Num("0".into()));
        let pool: Vec<J> = match element.and_then(|s| s.field) {
            Some(f) => field_accepts(f, candidates(f, &[])),
            None => (0..1000).map(|i| J::Num(i.to_string())).collect(),
        };
        let mut lengths: Vec<u64> = vec![0, 1, 2];
        for f in [of, nf].into_iter().flatten() {
            let c = &f.constraints;
            let near = [c.min_items, c.min_items.map(|n| n.saturating_sub(1)), c.max_items, c.max_items.map(|n| n + 1)];
            lengths.extend(near.into_iter().flatten());
        }
        lengths.sort_unstable();
        lengths.dedup();
        let mut out = Vec::new();
        for n in lengths.into_iter().filter(|&n| n <= 1000) {
            let n = n as usize;
            out.push(J::Arr(vec![one.clone(); n]));
            if pool.len() >= n {
                out.push(J::Arr(pool[..n].to_vec()));
            }
        }
        out
    }

    /// The minimal body of `c` that reaches `target` (every object and array
    /// on the way present, arrays with at least one element) and applies
    /// `action` there; `None` when the shape cannot reach it.
    fn build(&self, c: &'c ContractSpec, target: &str, action: Option<Action<'_>>) -> Option<J> {
        Some(J::Obj(self.members(c, &c.tree, "", target, action)?))
    }

    fn members(
        &self,
        c: &'c ContractSpec,
        node: &'c Node,
        prefix: &str,
        target: &str,
        action: Option<Action<'_>>,
    ) -> Option<Vec<(String, J)>> {
        let mut out = Vec::new();
        let mut reached = false;
        for child in &node.keys {
            let p = join(prefix, &child.key);
            if p == target {
                reached = true;
                if let Some(Action::Set(v)) = action {
                    out.push((child.key.to_string(), v.clone()));
                }
                continue;
            }
            if below(target, &p) {
                reached = true;
                out.push((child.key.to_string(), self.reach(c, &child.node, &p, target, action)?));
            } else if child.node.required {
                out.push((child.key.to_string(), self.minimal(c, &child.node, &p)?));
            }
        }
        // A target this revision does not declare enters an undeclared key here.
        let enters_here = prefix.is_empty() || after(target, prefix).starts_with('.');
        if !reached && !target.is_empty() && enters_here && (prefix.is_empty() || below(target, prefix)) {
            let rest = if prefix.is_empty() { target } else { after(target, prefix).get(1..).unwrap_or("") };
            let key_len = rest.find(['.', '[']).unwrap_or(rest.len());
            let key = &rest[..key_len];
            if key_len == rest.len() {
                if let Some(Action::Set(v)) = action {
                    out.push((key.to_string(), v.clone()));
                }
            } else {
                out.push((key.to_string(), undeclared(&join(prefix, key), target, action)?));
            }
        }
        Some(out)
    }

    /// The value at `path` on the way to `target`.
    fn reach(
        &self,
        c: &'c ContractSpec,
        node: &'c Node,
        path: &str,
        target: &str,
        action: Option<Action<'_>>,
    ) -> Option<J> {
        if after(target, path).starts_with("{}") {
            // Through a map: one entry, under a key the map does not declare.
            let values_path = format!("{path}{{}}");
            let mut key = "k".to_string();
            while node.keys.iter().any(|c| *c.key == *key) {
                key.push('_');
            }
            let mut members = self.members(c, node, path, "", None)?;
            let value = if values_path == target {
                match action {
                    Some(Action::Set(v)) => v.clone(),
                    Some(Action::Omit) | None => return Some(J::Obj(members)),
                }
            } else {
                match node.values.as_deref() {
                    Some(values) => self.reach(c, values, &values_path, target, action)?,
                    None => return Some(J::Obj(members)),
                }
            };
            members.push((key, value));
            return Some(J::Obj(members));
        }
        if !after(target, path).starts_with("[]") {
            return Some(J::Obj(self.members(c, node, path, target, action)?));
        }
        let element_path = format!("{path}[]");
        let element = if element_path == target {
            match action {
                Some(Action::Set(v)) => v.clone(),
                Some(Action::Omit) | None => return Some(J::Arr(Vec::new())),
            }
        } else {
            match node.items.as_deref() {
                Some(items) => self.reach(c, items, &element_path, target, action)?,
                None => undeclared(&element_path, target, action)?,
            }
        };
        let field = node.field.map(|i| &c.fields[i]);
        let n = field.and_then(|f| f.constraints.min_items).unwrap_or(1).clamp(1, 1000) as usize;
        let mut items = vec![element];
        if n > 1 {
            // The other elements differ from it and from each other where
            // the element field offers enough values (for uniqueItems).
            let element_field = node.items.as_deref().and_then(|i| i.field).map(|i| &c.fields[i]);
            let pool: Vec<J> = match element_field {
                Some(f) => field_accepts(f, candidates(f, &[]).into_iter().filter(|v| *v != items[0])),
                None => (0..n).map(|i| J::Num(i.to_string())).filter(|v| *v != items[0]).collect(),
            };
            let filler = pool.first().cloned().unwrap_or_else(|| items[0].clone());
            items.extend((0..n - 1).map(|i| pool.get(i).cloned().unwrap_or_else(|| filler.clone())));
        }
        Some(J::Arr(items))
    }

    /// A value at `path` that `c` accepts, as small as can be found, and
    /// accepted by the other revision's field at the same path when possible.
    fn minimal(&self, c: &'c ContractSpec, node: &'c Node, path: &str) -> Option<J> {
        let key = (std::ptr::eq(c, self.old), path.to_string());
        if let Some(found) = self.minimal.borrow().get(&key) {
            return found.clone();
        }
        let found = self.find_minimal(c, node, path);
        self.minimal.borrow_mut().insert(key, found.clone());
        found
    }

    fn find_minimal(&self, c: &'c ContractSpec, node: &'c Node, path: &str) -> Option<J> {
        let field = node.field.map(|i| &c.fields[i]);
        let types = field.map_or_else(|| node.implied_types(), |f| f.types);
        let other = if std::ptr::eq(c, self.old) { &self.new_sites } else { &self.old_sites };
        let twin = other.get(path).and_then(|s| s.field);
        let pick = |f: &FieldSpec| {
            let values = field_accepts(f, candidates(f, &[]));
            let probe = twin.map(|t| ContractSpec::probe(t, true));
            let both = values
                .iter()
                .find(|v| match &probe {
                    None => true,
                    Some(p) => p.as_ref().is_some_and(|p| probe_accepts(p, v)),
                })
                .cloned();
            both.or_else(|| values.into_iter().next())
        };
        if let Some(f) = field {
            if node.keys.is_empty() && node.items.is_none() {
                return pick(f);
            }
        }
        if !node.keys.is_empty() && types.contains(JsonType::Object) {
            return Some(J::Obj(self.members(c, node, path, "", None)?));
        }
        if let Some(items) = node.items.as_deref().filter(|_| types.contains(JsonType::Array)) {
            let n = field.and_then(|f| f.constraints.min_items).unwrap_or(0) as usize;
            if n == 0 {
                return Some(J::Arr(Vec::new()));
            }
            let one = self.minimal(c, items, &format!("{path}[]"))?;
            return Some(J::Arr(vec![one; n.min(1000)]));
        }
        field.and_then(pick)
    }

    /// Adds the fields the new revision requires and the old one does not
    /// (where the old one still accepts the body), so that the new revision
    /// objects to the change rather than to a missing field elsewhere.
    fn repair(&self, mut body: J, change: &str) -> J {
        for _ in 0..8 {
            let report = self.new.validate_json(body.text().as_bytes());
            let mut changed = false;
            for f in report.findings() {
                let pattern = pattern_in(&self.new.tree, f.field());
                if f.rule() != crate::rules::FIELD_REQUIRED.id || pattern == change || below(change, &pattern) {
                    continue;
                }
                let Some(site) = self.new_sites.get(&pattern) else { continue };
                let Some(value) = self.minimal(self.new, site.node, &pattern) else { continue };
                let mut next = body.clone();
                if insert(&mut next, f.field(), value) && accepted(self.old, &next.text()) {
                    body = next;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        body
    }
}

/// A value at `path` that a revision leaves open, shaped to reach `target`.
fn undeclared(path: &str, target: &str, action: Option<Action<'_>>) -> Option<J> {
    let rest = after(target, path);
    if let Some(more) = rest.strip_prefix("[]") {
        let element = if more.is_empty() {
            match action {
                Some(Action::Set(v)) => v.clone(),
                _ => return Some(J::Arr(Vec::new())),
            }
        } else {
            undeclared(&format!("{path}[]"), target, action)?
        };
        return Some(J::Arr(vec![element]));
    }
    let rest = rest.strip_prefix('.')?;
    let key = &rest[..rest.find(['.', '[']).unwrap_or(rest.len())];
    let p = join(path, key);
    if p == target {
        return Some(J::Obj(match action {
            Some(Action::Set(v)) => vec![(key.to_string(), v.clone())],
            _ => Vec::new(),
        }));
    }
    Some(J::Obj(vec![(key.to_string(), undeclared(&p, target, action)?)]))
}

/// One step of a concrete path.
enum Step {
    Key(String),
    Index(usize),
}

/// `params.parts[0].x` as steps; `None` for anything else.
fn steps(concrete: &str) -> Option<Vec<Step>> {
    let mut out = Vec::new();
    for seg in concrete.split('.') {
        let (key, mut rest) = seg.split_at(seg.find('[').unwrap_or(seg.len()));
        out.push(Step::Key(key.to_string()));
        while let Some(r) = rest.strip_prefix('[') {
            let close = r.find(']')?;
            out.push(Step::Index(r[..close].parse().ok()?));
            rest = &r[close + 1..];
        }
    }
    Some(out)
}

/// Sets `value` at a concrete path, creating objects on the way; false when
/// the body's shape does not allow it.
fn insert(body: &mut J, concrete: &str, value: J) -> bool {
    let Some(steps) = steps(concrete) else { return false };
    let mut at = body;
    for (i, step) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        at = match (step, at) {
            (Step::Key(k), J::Obj(members)) => {
                let pos = match members.iter().position(|(m, _)| m == k) {
                    Some(pos) => pos,
                    None => {
                        members.push((k.clone(), J::Obj(Vec::new())));
                        members.len() - 1
                    }
                };
                if last {
                    members[pos].1 = value;
                    return true;
                }
                &mut members[pos].1
            }
            (Step::Index(n), J::Arr(items)) if *n < items.len() => {
                if last {
                    items[*n] = value;
                    return true;
                }
                &mut items[*n]
            }
            _ => return false,
        };
    }
    false
}

/// The values a field, on its own, accepts with no finding: one probe
/// contract judges them all (a probe's findings come from its schema twin,
/// compiled once per probe).
fn field_accepts(f: &FieldSpec, values: impl IntoIterator<Item = J>) -> Vec<J> {
    let Some(probe) = ContractSpec::probe(f, true) else { return Vec::new() };
    values.into_iter().filter(|v| probe_accepts(&probe, v)).collect()
}

/// Whether a field's probe contract ([`ContractSpec::probe`]) accepts `v`.
fn probe_accepts(probe: &ContractSpec, v: &J) -> bool {
    accepted(probe, &format!("{{\"v\":{}}}", v.text()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concrete_paths_become_patterns() {
        assert_eq!(pattern_in(&Node::default(), "params.parts[12].kind"), "params.parts[].kind");
        assert_eq!(pattern_in(&Node::default(), "grid[0][3]"), "grid[][]");
        assert_eq!(pattern_in(&Node::default(), r#"a["x.y"][2]"#), r#"a["x.y"][]"#);
        assert!(below("params.name", "params"));
        assert!(below("parts[].kind", "parts"));
        assert!(!below("params.names", "params.name"));
    }

    #[test]
    fn insert_creates_objects_and_respects_arrays() {
        let mut body = J::Obj(vec![("parts".into(), J::Arr(vec![J::Obj(Vec::new())]))]);
        assert!(insert(&mut body, "parts[0].kind", J::Str("text".into())));
        assert!(insert(&mut body, "meta.trace.id", J::Num("1".into())));
        assert!(!insert(&mut body, "parts[3].kind", J::Null));
        assert_eq!(body.text(), r#"{"parts":[{"kind":"text"}],"meta":{"trace":{"id":1}}}"#);
    }
}
