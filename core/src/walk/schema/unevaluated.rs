//! `unevaluatedProperties` and `unevaluatedItems`: the keys and elements of
//! a value that no keyword evaluated, judged after every other keyword of
//! the node.
//!
//! A key (an element) is evaluated when `properties`, `patternProperties`
//! or `additionalProperties` (`prefixItems`, `items`, `contains`) of the
//! node reached it, or of a subschema applied in place to the same value
//! that passes: `$ref`, `$dynamicRef`, `allOf`, the passing members of
//! `anyOf`/`oneOf`, `if` when it passes and the branch taken, the
//! `dependentSchemas` of present keys; never `not`. A passing in-place
//! subschema with an `unevaluated*` of its own evaluated every key.
//!
//! Only a node that carries one of the two keywords pays for this (it is an
//! applicator: never a plain node of the fast loops). The evaluated set is
//! one flag per key (element) of the value, each in-place subschema visited
//! once per value (and dynamic scope), its verdict from the memo.

use std::collections::HashSet;

use super::*;

/// The finding of a key `unevaluatedProperties: false` refuses.
const UNEVALUATED_PROPERTY: &str = "key is not allowed: no keyword evaluates it (unevaluatedProperties: false)";

/// What is evaluated: object keys or array elements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Keys,
    Elements,
}

/// The members of the value being judged: each key with its value's offset,
/// or each element's offset.
struct Members<'a> {
    keys: Vec<(Str<'a>, usize)>,
    elements: Vec<usize>,
}

/// What one `unevaluated*` check has found evaluated so far, and the
/// (subschema, value) pairs it has visited (each is visited once).
struct Marking<'x, 'a> {
    part: Part,
    start: usize,
    members: &'x Members<'a>,
    seen: Vec<bool>,
    visited: HashSet<(Id, usize)>,
}

impl<'c, 'a, 'm, M: Mode> SchemaWalk<'c, 'a, 'm, M> {
    /// `unevaluatedProperties` / `unevaluatedItems` of `node` on the value at
    /// `start`; leaves the scanner anywhere (the caller seeks back).
    pub(super) fn unevaluated(
        &mut self,
        node: &'c Node,
        start: usize,
        path: &Path<'_, 'a>,
        depth: usize,
        chain: usize,
    ) -> Result<(), M::Stop> {
        let (part, u) = match self.kind_at(start) {
            Some(Kind::Object) => match node.unevaluated_properties {
                Some(u) => (Part::Keys, u),
                None => return Ok(()),
            },
            Some(Kind::Array) => match node.unevaluated_items {
                Some(u) => (Part::Elements, u),
                None => return Ok(()),
            },
            _ => return Ok(()),
        };
        // Not well formed: the walk reports it where it reads the value.
        let Some(members) = self.members_at(start, part) else { return Ok(()) };
        let len = if part == Part::Keys { members.keys.len() } else { members.elements.len() };
        if len == 0 {
            return Ok(());
        }
        let mut m = Marking { part, start, members: &members, seen: vec![false; len], visited: HashSet::new() };
        self.mark_node(node, false, &mut m, depth, chain);
        let seen = m.seen;
        let never = self.schema.node(u).never;
        for (i, done) in seen.iter().enumerate() {
            if *done {
                continue;
            }
            match part {
                Part::Keys => {
                    let (key, at) = members.keys[i];
                    let frame = Path::Key(path, key);
                    let here = M::frame(&frame);
                    if never {
                        self.w.mode.fault(rules::FIELD_ADDITIONAL_PROPERTIES, here, || UNEVALUATED_PROPERTY)?;
                    } else {
                        self.again(u, at, here, depth + 1, 0)?;
                    }
                }
                Part::Elements => {
                    let at = members.elements[i];
                    let frame = Path::Index(path, i);
                    let here = M::frame(&frame);
                    if never {
                        self.w.mode.fault(rules::FIELD_ITEMS, here, || {
                            format!("element {i} is not allowed: no keyword evaluates it (unevaluatedItems: false)")
                        })?;
                    } else {
                        self.again(u, at, here, depth + 1, 0)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The keys (with their values' offsets) or the elements' offsets of
    /// the value at `start`; `None` when it is not well formed.
    fn members_at(&self, start: usize, part: Part) -> Option<Members<'a>> {
        let mut s = Scanner::new(self.bytes());
        s.seek(start);
        let mut out = Members { keys: Vec::new(), elements: Vec::new() };
        s.peek_kind().ok()?;
        let mut first = true;
        match part {
            Part::Keys => {
                s.object_start();
                while let Some(key) = s.object_key(first).ok()? {
                    first = false;
                    s.peek_kind().ok()?;
                    out.keys.push((key, s.offset()));
                    s.skip_value().ok()?;
                }
            }
            Part::Elements => {
                s.array_start();
                while s.array_next(first).ok()? {
                    first = false;
                    s.peek_kind().ok()?;
                    out.elements.push(s.offset());
                    s.skip_value().ok()?;
                }
            }
        }
        Some(out)
    }

    /// Marks what subschema `id`, applied in place to the value at
    /// `m.start`, evaluates, when it passes.
    fn mark_at(&mut self, id: Id, m: &mut Marking<'_, 'a>, depth: usize, chain: usize) {
        if chain > MAX_CHAIN || m.seen.iter().all(|s| *s) {
            return;
        }
        let key = (id, self.memo_at(0));
        if !m.visited.insert(key) {
            return;
        }
        if !self.valid(id, m.start, depth, chain) {
            return;
        }
        let node = self.schema.node(id);
        let resource = node.resource;
        let entered = self.dynamic && self.memo.enter(resource);
        self.mark_node(node, true, m, depth, chain);
        if entered {
            self.memo.leave();
        }
    }

    /// Marks what `node`'s own keywords and its passing in-place subschemas
    /// evaluate; `nested`: the node is such a subschema (its own
    /// `unevaluated*` then evaluated everything).
    fn mark_node(&mut self, node: &'c Node, nested: bool, m: &mut Marking<'_, 'a>, depth: usize, chain: usize) {
        let (part, start, members) = (m.part, m.start, m.members);
        let seen = &mut m.seen;
        let everything = match part {
            Part::Keys => (nested && node.unevaluated_properties.is_some()) || node.additional.is_some(),
            Part::Elements => (nested && node.unevaluated_items.is_some()) || node.items.is_some(),
        };
        if everything {
            seen.iter_mut().for_each(|s| *s = true);
            return;
        }
        match part {
            Part::Keys => {
                for (i, (key, _)) in members.keys.iter().enumerate() {
                    if seen[i] {
                        continue;
                    }
                    let declared = if key.is_escaped() {
                        node.properties.iter().any(|(name, _)| key.eq_str(name))
                    } else {
                        node.property_at(key.raw()).is_some()
                    };
                    if declared || node.pattern_properties.iter().any(|(p, _)| p.matches(key)) {
                        seen[i] = true;
                    }
                }
            }
            Part::Elements => {
                for s in seen.iter_mut().take(node.prefix_items.len()) {
                    *s = true;
                }
                if let Some(contains) = node.contains {
                    for (i, &at) in members.elements.iter().enumerate() {
                        if !seen[i] && self.valid(contains, at, depth + 1, 0) {
                            seen[i] = true;
                        }
                    }
                }
            }
        }
        let mut applied: Vec<Id> = node.reference.into_iter().collect();
        if let Some(d) = &node.dynamic_ref {
            applied.push(self.dynamic_target(d));
        }
        applied.extend(&node.all_of);
        for u in [&node.any_of, &node.one_of].into_iter().flatten() {
            applied.extend(&u.members);
        }
        if let Some(c) = &node.condition {
            applied.push(c.test);
            let branch = if self.valid(c.test, start, depth, chain + 1) { c.then } else { c.otherwise };
            applied.extend(branch);
        }
        if part == Part::Keys {
            for (key, id) in &node.dependent_schemas {
                if members.keys.iter().any(|(k, _)| k.eq_str(key)) {
                    applied.push(*id);
                }
            }
        }
        for id in applied {
            self.mark_at(id, m, depth, chain + 1);
        }
    }
}
