//! The walk for schema-form contracts: the compiled schema graph
//! (`contract/schema`) read alongside the JSON bytes, on the same scanner,
//! path frames, modes and keyword checks (`keywords/`) as `walk/mod.rs`,
//! whose duplicate-key, skip and `uniqueItems` machinery it drives. A
//! fields-form contract is read as its lowered graph (`contract/schema/lower.rs`).
//!
//! A value is read once for its own keywords (`type`, `enum`, bounds,
//! `properties`, `items`, ...). A node that applies other schemas to the
//! same value (`$ref` beside other keywords, `allOf`, `anyOf`, `oneOf`,
//! `not`, `if`, `dependentSchemas`) reads the value's bytes again from its
//! start, once per schema applied; a bare `$ref` reads it once, as its
//! target. Re-reading is bounded:
//! - a tagged union reads its tag, then the picked member only;
//! - an untagged member, `not`, `if` and `contains` are judged by a
//!   first-fault walk ([`First`]) whose verdict is memoised per (schema
//!   node, value offset), so nested unions cost at most one walk per
//!   node and value, never a product over the nesting;
//! - applicators chain at most [`MAX_CHAIN`] deep on one value (a cycle
//!   that never descends is refused when the contract loads).
//!
//! Modes: [`Lean`] writes every finding, in one pass over the body (its
//! stop is one byte wide; [`Collect`], whose stop says why, reads again
//! only a body that stops early: not JSON, too deep); [`First`] stops at
//! the first fault and allocates nothing but the memo (every membership
//! test, `passes`, and the pass [`check`] runs in front of [`Lean`]).
//!
//! The files, by job: `mode.rs` (the modes), `memo.rs` (what re-reading
//! has found), `top.rs` (where a body's top-level members are, for
//! routing), this file (the walk of one value: `$ref`s, re-reads, verdicts
//! and findings of a subschema), `union.rs` (applicators and unions),
//! `scalar.rs` (a value's own keywords), `object.rs`, `array.rs`,
//! `unevaluated.rs` (`unevaluatedProperties`, `unevaluatedItems`), and
//! `entry.rs` (a whole body judged in the right mode).
//!
//! A schema with a `$dynamicRef` whose target is dynamic keeps the dynamic
//! scope (the resources entered on the way to a value) as it walks, and
//! memoises verdicts by scope too; every other schema keeps none.

mod array;
mod entry;
mod memo;
mod mode;
mod object;
#[cfg(test)]
mod same_reports;
mod scalar;
#[cfg(test)]
mod tests;
mod top;
mod unevaluated;
mod union;

use std::cell::RefCell;
use std::collections::HashMap;

use crate::contract::schema::compile::MAX_CHAIN;
use crate::contract::schema::{Id, Literal, Node, Schema, Tag};
use crate::contract::{JsonType, TypeSet};
use crate::json::bytes::first_plain_key_tag;
use crate::json::canonical::canonical_within;
use crate::json::number::Num;
use crate::json::scan::{Kind, Scanner};
use crate::json::text::{quote, same_bytes, Str};
use crate::json::MAX_DEPTH;
use crate::keywords::enums::{self, Shown};
use crate::keywords::{
    closed, cut, duplicate, format, items, lengths, members_label, numbers, pattern, required, types, unknown,
    QUOTE_MAX,
};
use crate::report::Finding;
use crate::rules;
use crate::rules::Rule;
use crate::walk::{Collect, Fail, Message, Mode, Others, Path, Seen, Walk};

use entry::distinct;
pub(crate) use entry::{check, collect, collect_top, counted, passes, passes_node};
pub(crate) use memo::Memo;
pub(crate) use mode::{First, Lean};
pub use top::TopMembers;

pub(crate) struct SchemaWalk<'c, 'a, 'm, M> {
    pub(crate) schema: &'c Schema,
    pub(crate) w: Walk<'a, M>,
    pub(crate) memo: &'m Memo,
    /// The walk judges a whole body for "no finding at all": a warning
    /// fails it too (a strict contract's undeclared top-level key), as no
    /// membership test's may.
    pub(crate) whole: bool,
    /// Whether the schema has a dynamic `$dynamicRef` (the root's
    /// `dynamic_scope`): only then is [`Self::scope`] kept.
    pub(crate) dynamic: bool,
}

impl<'c, 'a, 'm, M: Mode> SchemaWalk<'c, 'a, 'm, M> {
    #[inline(always)]
    pub(crate) fn new(schema: &'c Schema, bytes: &'a [u8], mode: M, memo: &'m Memo) -> Self {
        let dynamic = schema.node(Schema::ROOT).dynamic_scope;
        SchemaWalk { schema, w: Walk::new(bytes, mode), memo, whole: false, dynamic }
    }

    #[inline(always)]
    pub(crate) fn finish(self) -> M {
        self.w.finish()
    }

    /// A whole document: one value, then nothing but white space.
    pub(crate) fn document(&mut self) -> Result<(), M::Stop> {
        self.value(Schema::ROOT, &Path::Root, 0, 0)?;
        self.w.s.finish()?;
        Ok(())
    }

    /// One whole document judged by node `id` instead of the root.
    pub(super) fn document_at(&mut self, id: Id) -> Result<(), M::Stop> {
        self.value(id, &Path::Root, 0, 0)?;
        self.w.s.finish()?;
        Ok(())
    }

    pub(super) fn bytes(&self) -> &'a [u8] {
        self.w.s.bytes()
    }

    /// One value at `path`, judged by node `id`. `depth` counts the value's
    /// nesting, `chain` the applicators applied to this same value.
    pub(crate) fn value(&mut self, id: Id, path: &Path<'_, 'a>, depth: usize, chain: usize) -> Result<(), M::Stop> {
        if self.dynamic {
            return self.value_in_scope(id, path, depth, chain);
        }
        self.value_here(id, path, depth, chain)
    }

    /// [`Self::value`] with the node's resource entered into the dynamic scope.
    #[inline(never)]
    fn value_in_scope(&mut self, id: Id, path: &Path<'_, 'a>, depth: usize, chain: usize) -> Result<(), M::Stop> {
        let resource = self.schema.node(id).resource;
        let entered = self.memo.enter(resource);
        let out = self.value_here(id, path, depth, chain);
        if entered {
            self.memo.leave();
        }
        out
    }

    /// Where a `$dynamicRef` leads from here: the candidate of the outermost
    /// resource of the dynamic scope that declares its anchor, else its
    /// static target.
    pub(super) fn dynamic_target(&self, d: &(Id, Vec<(u32, Id)>)) -> Id {
        let dynamic = self.memo.dynamic.borrow();
        for r in dynamic.iter().flat_map(|state| state.scope.iter()) {
            if let Some(&(_, to)) = d.1.iter().find(|(c, _)| c == r) {
                return to;
            }
        }
        d.0
    }

    /// The memo key of the value at `start`: the offset itself, or, with a
    /// dynamic scope (a verdict may depend on it), the offset and the scope.
    #[inline(always)]
    pub(super) fn memo_at(&self, start: usize) -> usize {
        if !self.dynamic {
            return start;
        }
        let i = self.memo.scope_index();
        start + i * (self.bytes().len() + 1)
    }

    #[inline(always)]
    fn value_here(&mut self, id: Id, path: &Path<'_, 'a>, depth: usize, chain: usize) -> Result<(), M::Stop> {
        let schema = self.schema;
        let node = schema.node(id);
        self.memo.steps.set(self.memo.steps.get() + 1);
        if chain > MAX_CHAIN {
            return Err(self.w.mode.too_deep(path));
        }
        if let Some(to) = node.bare {
            return self.value(to, path, depth, chain + 1);
        }
        if node.never {
            self.w.skip(path, depth)?;
            return self.w.mode.fault(rules::FIELD_FALSE, path, || "no value is allowed here (the schema is false)");
        }
        if node.trivial {
            self.w.skip(path, depth)?;
            return Ok(());
        }
        let kind = self.w.s.peek_kind()?;
        let start = self.w.s.offset();
        if node.only_applies {
            // No keyword of its own: the schemas it applies read the value
            // (a tagged union, its member only); read it here only if none did.
            self.applicators(node, start, path, depth, chain)?;
            if self.w.s.offset() == start {
                self.w.skip(path, depth)?;
            }
            return Ok(());
        }
        self.own_of(node, kind, path, depth)?;
        if node.applies {
            let end = self.w.s.offset();
            self.applicators(node, start, path, depth, chain)?;
            self.w.s.seek(end);
        }
        Ok(())
    }

    /// A declared property's or an element's value: [`Self::value`], with a
    /// plain node (its own keywords only) read here, a string inline (most
    /// values), and an object without `enum` or `const` read directly (the
    /// objects of a message, without [`Self::own_of`]'s frame).
    #[inline(always)]
    pub(super) fn property(&mut self, id: Id, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        let node = self.schema.node(id);
        if !node.plain {
            return self.value(id, path, depth, 0);
        }
        match self.w.s.peek_kind()? {
            Kind::String if !M::COLLECTS && !node.string_checks => {
                // A verdict only, on a text no keyword looks at: a long one
                // is read out of line (`Scanner::skip_string`).
                self.skip_string()?;
                self.type_ok(node, JsonType::String, path)?;
                Ok(())
            }
            Kind::String => {
                let s = self.read_string()?;
                if self.type_ok(node, JsonType::String, path)? && node.string_checks {
                    self.string(node, &s, path)?;
                }
                Ok(())
            }
            // Below the root, an open map is skipped as `own_of` would.
            Kind::Object if node.object_direct && node.any_object && depth > 0 => self.w.skip_object(path, depth),
            Kind::Object if node.object_direct => self.object(node, path, depth),
            kind => self.own_of(node, kind, path, depth),
        }
    }

    /// Reads the value at `start` again with node `id`, in this mode. A
    /// (node, value) pair is worked out once per walk and mode (SPEC §15):
    /// schemas whose definitions each apply the next twice (`allOf`, `$ref`
    /// beside keywords) would otherwise cost twice as much per level. The
    /// verdict is memoised; a collecting mode also memoises the findings of
    /// a value that fails and replays them when the pair comes again.
    pub(super) fn again(
        &mut self,
        id: Id,
        start: usize,
        path: &Path<'_, 'a>,
        depth: usize,
        chain: usize,
    ) -> Result<(), M::Stop> {
        let end = self.valid_end(id, start, depth, chain);
        if end != 0 {
            self.w.s.seek(end);
            return Ok(());
        }
        if !M::COLLECTS {
            // The first-fault mode: the memoised verdict is its own.
            return Err(M::give_up());
        }
        let found = self.findings(id, start, path, depth, chain);
        self.w.mode.replay(found);
        self.w.s.seek(start);
        self.w.skip(path, depth).map(|_| ())
    }

    /// The node a bare `$ref` chain from `id` ends at, and the chain's length
    /// so far: two members that name one definition share its memo entry.
    /// Stops where the chain would pass its bound (the walk says so there).
    /// With a dynamic scope, no step is skipped: each may enter a resource.
    pub(super) fn through_bare(&self, mut id: Id, mut chain: usize) -> (Id, usize) {
        if self.dynamic {
            return (id, chain);
        }
        while let Some(to) = self.schema.node(id).bare {
            if chain + 1 > MAX_CHAIN {
                break;
            }
            id = to;
            chain += 1;
        }
        (id, chain)
    }

    /// Whether the value at `start` is valid under `id` (memoised).
    pub(super) fn valid(&mut self, id: Id, start: usize, depth: usize, chain: usize) -> bool {
        self.valid_end(id, start, depth, chain) != 0
    }

    /// Where the value at `start` ends when it is valid under `id`, 0 when
    /// it is not (memoised). A valid value was read whole, its syntax and
    /// keys checked: the caller may go on from its end.
    pub(super) fn valid_end(&mut self, id: Id, start: usize, depth: usize, chain: usize) -> usize {
        let (id, chain) = self.through_bare(id, chain);
        let key = self.memo_at(start);
        if let Some(v) = self.memo.valid.borrow().get(id, key) {
            return v;
        }
        // On this walk's own stacks: no fresh walk, no allocation.
        let (keys, spans) = (self.w.keys_base(), self.w.spans_base());
        let w = self.w.lend(start, First);
        let mut sub = SchemaWalk { schema: self.schema, w, memo: self.memo, whole: false, dynamic: self.dynamic };
        let end = if sub.value(id, &Path::Root, depth, chain + 1).is_ok() { sub.w.s.offset() } else { 0 };
        self.w.give_back(sub.w, keys, spans);
        self.memo.valid.borrow_mut().insert(id, key, end);
        end
    }

    /// Every finding of the value at `start` under `id`, with real paths.
    pub(super) fn findings(
        &self,
        id: Id,
        start: usize,
        path: &Path<'_, 'a>,
        depth: usize,
        chain: usize,
    ) -> Vec<Finding> {
        let (id, chain) = self.through_bare(id, chain);
        let key = self.memo_at(start);
        if let Some(found) = self.memo.findings.borrow().as_ref().and_then(|m| m.get(&(id, key))) {
            return found.clone();
        }
        let mut sub = SchemaWalk::new(self.schema, self.bytes(), Lean::default(), self.memo);
        sub.w.s.seek(start);
        let outcome = sub.value(id, path, depth, chain + 1);
        let mut lean = sub.finish();
        if outcome.is_ok() {
            distinct(&mut lean.findings);
            self.memo.findings.borrow_mut().get_or_insert_with(HashMap::new).insert((id, key), lean.findings.clone());
            return lean.findings;
        }
        // Stopped early: read again by the mode that says why.
        let mut sub = SchemaWalk::new(self.schema, self.bytes(), Collect::default(), self.memo);
        sub.w.s.seek(start);
        let outcome = sub.value(id, path, depth, chain + 1);
        let mut mode = sub.finish();
        if outcome.is_err() && mode.findings.is_empty() {
            let at = mode.depth_at.unwrap_or_else(|| path.render());
            mode.findings.push(Finding::new(rules::JSON_DEPTH, at, crate::keywords::depth::message()));
        }
        distinct(&mut mode.findings);
        self.memo.findings.borrow_mut().get_or_insert_with(HashMap::new).insert((id, key), mode.findings.clone());
        mode.findings
    }
}
