//! The walk for schema-form contracts: the compiled schema graph
//! (`contract/schema`) read alongside the JSON bytes, on the same scanner,
//! path frames, modes and keyword checks (`keywords/`) as the fields walk
//! (`walk.rs`), whose duplicate-key, skip and `uniqueItems` machinery it
//! drives.
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

/// Stops at the first fault, never gives up: an exact verdict.
pub(crate) struct First;

impl Mode for First {
    type Stop = Fail;
    const QUICK: bool = false;
    const COLLECTS: bool = false;

    fn give_up() -> Fail {
        Fail
    }

    #[inline(always)]
    fn fault<T: Message>(&mut self, _: &'static Rule, _: &Path<'_, '_>, _: impl FnOnce() -> T) -> Result<(), Fail> {
        Err(Fail)
    }

    fn too_deep(&mut self, _: &Path<'_, '_>) -> Fail {
        Fail
    }

    #[inline(always)]
    fn frame<'f, 'p, 'a>(_: &'f Path<'p, 'a>) -> &'f Path<'p, 'a> {
        &Path::Root
    }
}

/// Every finding, like [`Collect`], but with [`First`]'s one-byte stop: a
/// wide stop carried through every return of the walk costs about a fifth
/// of a collect walk's time. A walk that stops early (a syntax fault, too
/// deep: rare) is read again by [`Collect`], whose stop says why.
#[derive(Default)]
pub(crate) struct Lean {
    findings: Vec<Finding>,
}

impl Mode for Lean {
    type Stop = Fail;
    const QUICK: bool = false;
    const COLLECTS: bool = true;

    fn give_up() -> Fail {
        Fail
    }

    #[inline]
    fn fault<T: Message>(
        &mut self,
        rule: &'static Rule,
        path: &Path<'_, '_>,
        message: impl FnOnce() -> T,
    ) -> Result<(), Fail> {
        crate::walk::record(&mut self.findings, rule, path, message);
        Ok(())
    }

    #[cold]
    fn too_deep(&mut self, _: &Path<'_, '_>) -> Fail {
        Fail
    }

    #[inline(always)]
    fn frame<'f, 'p, 'a>(frame: &'f Path<'p, 'a>) -> &'f Path<'p, 'a> {
        frame
    }

    fn replay(&mut self, found: Vec<Finding>) {
        self.findings.extend(found);
    }
}

/// The findings of the value at an offset under a node.
type FindingsAt = HashMap<(Id, usize), Vec<Finding>>;

/// What re-reading a value has found, by (node, value offset): a value's
/// path is fixed by its offset, so neither depends on how it was reached.
#[derive(Default)]
pub(crate) struct Memo {
    /// Verdicts of first-fault walks.
    valid: RefCell<Verdicts>,
    /// Findings of collect walks (for the messages of failed unions),
    /// the map made at the first (a map's random keys are read from a
    /// thread-local: no cost to the walk that never re-reads a value).
    findings: RefCell<Option<FindingsAt>>,
    /// The top-level members a caller asked about ([`collect_top`]).
    top: Option<RefCell<TopMembers>>,
    /// (node, value) visits of every walk on this memo: what tests hold
    /// linear in the schema's size times the data's ([`counted`]).
    steps: std::cell::Cell<usize>,
}

/// Where the values of some top-level members of a document sit, as the
/// walk read them: a router that picked the contract by one member learns
/// the others from the walk, without reading the document a second time
/// (`protocolarc::traffic`). Every read of the document's root object (a
/// union member, an `allOf` schema) notes the same places.
#[derive(Debug, Clone)]
pub struct TopMembers {
    keys: &'static [&'static str],
    /// Per key, the value's bytes as `start..end` (`start` may precede
    /// white space); `end` 0 when absent (a value never ends at 0). Four
    /// bytes each: the members are moved with every message a router reads;
    /// a span past 4 GiB makes the walk unsure.
    spans: [(u32, u32); TopMembers::MAX],
    /// Per bucket of a key's length and first byte ([`TopMembers::bucket`]),
    /// the watched keys in it as bits: a key is compared only with those
    /// (most keys of a message, with none), with no loop whose exit
    /// depends on the key (it mispredicted about six times a message).
    buckets: [u8; TopMembers::BUCKETS],
    /// A key appeared twice, or the root object has an escaped key (which
    /// may spell one of them).
    unsure: bool,
    /// The root object was read.
    read: bool,
}

impl TopMembers {
    /// At most this many keys.
    pub const MAX: usize = 8;

    const BUCKETS: usize = 32;

    /// Watches `keys` (at most [`TopMembers::MAX`]).
    pub const fn new(keys: &'static [&'static str]) -> Self {
        assert!(keys.len() <= TopMembers::MAX, "at most TopMembers::MAX keys");
        let mut buckets = [0u8; TopMembers::BUCKETS];
        let mut i = 0;
        while i < keys.len() {
            buckets[Self::bucket(keys[i].as_bytes())] |= 1 << i;
            i += 1;
        }
        TopMembers { keys, spans: [(0, 0); TopMembers::MAX], buckets, unsure: false, read: false }
    }

    /// A key's bucket: its length plus its first byte, modulo the buckets.
    #[inline(always)]
    const fn bucket(key: &[u8]) -> usize {
        let first = if key.is_empty() { 0 } else { key[0] as usize };
        (key.len() + first) % TopMembers::BUCKETS
    }

    /// The raw value of `keys[i]` in `data` (white space trimmed), `Some(None)`
    /// when it is absent. `None` when the walk cannot tell: the root object
    /// was not read (the document is not an object, or the schema did not
    /// look inside it), a watched key appeared twice, or a key was escaped.
    #[inline]
    pub fn get<'d>(&self, data: &'d [u8], i: usize) -> Option<Option<&'d [u8]>> {
        if self.unsure || !self.read {
            return None;
        }
        let (start, end) = self.spans[i];
        let Some(mut v) = data.get(start as usize..end as usize).filter(|_| end > 0) else {
            return Some(None);
        };
        while let [b' ' | b'\t' | b'\r' | b'\n', rest @ ..] = v {
            v = rest;
        }
        Some(Some(v))
    }

    /// Inline: a call per member of the root object (pushing and popping
    /// six registers each time) cost more than the lookup.
    #[inline(always)]
    fn note(&mut self, raw: &[u8], escaped: bool, span: (usize, usize)) {
        if escaped {
            self.unsure = true;
            return;
        }
        // Compared inline (lengths first, then words), not by `memcmp`,
        // with the keys of its bucket only.
        let mut candidates = self.buckets[Self::bucket(raw)];
        let mut found = None;
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if same_bytes(self.keys[i].as_bytes(), raw) {
                found = Some(i);
                break;
            }
        }
        if let Some(i) = found {
            let (Ok(start), Ok(end)) = (u32::try_from(span.0), u32::try_from(span.1)) else {
                self.unsure = true;
                return;
            };
            match self.spans[i] {
                (_, 0) => self.spans[i] = (start, end),
                s if s != (start, end) => self.unsure = true,
                _ => {}
            }
        }
    }
}

/// Verdicts by (node, value offset): the first [`Verdicts::INLINE`] in a
/// short list searched linearly (a body has few membership tests: no
/// hashing), the rest in a hash map. The list is allocated at its first
/// verdict, once: most bodies (a `tools/call` request) record none, and a
/// fixed array zeroed per walk cost them a `memset` of 384 bytes each.
/// A verdict is the offset where the value ends when it is valid (a value
/// never ends at 0), 0 when it is not.
#[derive(Default)]
pub(crate) struct Verdicts {
    inline: Vec<(Id, usize, usize)>,
    /// Made at the first verdict past the list (as `Memo::findings`).
    more: Option<HashMap<(Id, usize), usize>>,
}

impl Verdicts {
    const INLINE: usize = 16;

    #[inline]
    fn get(&self, id: Id, start: usize) -> Option<usize> {
        if let Some(&(_, _, v)) = self.inline.iter().find(|(i, s, _)| *i == id && *s == start) {
            return Some(v);
        }
        self.more.as_ref()?.get(&(id, start)).copied()
    }

    #[inline]
    fn insert(&mut self, id: Id, start: usize, v: usize) {
        if self.inline.len() < Verdicts::INLINE {
            if self.inline.capacity() == 0 {
                self.inline.reserve_exact(Verdicts::INLINE);
            }
            self.inline.push((id, start, v));
        } else {
            self.more.get_or_insert_with(HashMap::new).insert((id, start), v);
        }
    }
}

pub(crate) struct SchemaWalk<'c, 'a, 'm, M> {
    pub(crate) schema: &'c Schema,
    pub(crate) w: Walk<'c, 'a, M>,
    pub(crate) memo: &'m Memo,
}

impl<'c, 'a, 'm, M: Mode> SchemaWalk<'c, 'a, 'm, M> {
    pub(crate) fn new(schema: &'c Schema, bytes: &'a [u8], mode: M, memo: &'m Memo) -> Self {
        SchemaWalk { schema, w: Walk::new(&[], bytes, mode), memo }
    }

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
    fn document_at(&mut self, id: Id) -> Result<(), M::Stop> {
        self.value(id, &Path::Root, 0, 0)?;
        self.w.s.finish()?;
        Ok(())
    }

    fn bytes(&self) -> &'a [u8] {
        self.w.s.bytes()
    }

    /// One value at `path`, judged by node `id`. `depth` counts the value's
    /// nesting, `chain` the applicators applied to this same value.
    pub(crate) fn value(&mut self, id: Id, path: &Path<'_, 'a>, depth: usize, chain: usize) -> Result<(), M::Stop> {
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

    /// A declared property's value: [`Self::value`], with a plain node (its
    /// own keywords only) read here, a string inline (most values).
    #[inline(always)]
    fn property(&mut self, id: Id, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        let node = self.schema.node(id);
        if !node.plain {
            return self.value(id, path, depth, 0);
        }
        match self.w.s.peek_kind()? {
            Kind::String => {
                let s = self.read_string()?;
                if self.type_ok(node, JsonType::String, path)? && node.string_checks {
                    self.string(node, &s, path)?;
                }
                Ok(())
            }
            kind => self.own_of(node, kind, path, depth),
        }
    }

    /// Reads the value at `start` again with node `id`, in this mode. A
    /// (node, value) pair is worked out once per walk and mode (SPEC §15):
    /// schemas whose definitions each apply the next twice (`allOf`, `$ref`
    /// beside keywords) would otherwise cost twice as much per level. The
    /// verdict is memoised; a collecting mode also memoises the findings of
    /// a value that fails and replays them when the pair comes again.
    fn again(&mut self, id: Id, start: usize, path: &Path<'_, 'a>, depth: usize, chain: usize) -> Result<(), M::Stop> {
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
    fn through_bare(&self, mut id: Id, mut chain: usize) -> (Id, usize) {
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
    fn valid(&mut self, id: Id, start: usize, depth: usize, chain: usize) -> bool {
        self.valid_end(id, start, depth, chain) != 0
    }

    /// Where the value at `start` ends when it is valid under `id`, 0 when
    /// it is not (memoised). A valid value was read whole, its syntax and
    /// keys checked: the caller may go on from its end.
    fn valid_end(&mut self, id: Id, start: usize, depth: usize, chain: usize) -> usize {
        let (id, chain) = self.through_bare(id, chain);
        if let Some(v) = self.memo.valid.borrow().get(id, start) {
            return v;
        }
        // On this walk's own stacks: no fresh walk, no allocation.
        let (keys, spans) = (self.w.keys_base(), self.w.spans_base());
        let w = self.w.lend(start, First);
        let mut sub = SchemaWalk { schema: self.schema, w, memo: self.memo };
        let end = if sub.value(id, &Path::Root, depth, chain + 1).is_ok() { sub.w.s.offset() } else { 0 };
        self.w.give_back(sub.w, keys, spans);
        self.memo.valid.borrow_mut().insert(id, start, end);
        end
    }

    /// Every finding of the value at `start` under `id`, with real paths.
    fn findings(&self, id: Id, start: usize, path: &Path<'_, 'a>, depth: usize, chain: usize) -> Vec<Finding> {
        let (id, chain) = self.through_bare(id, chain);
        if let Some(found) = self.memo.findings.borrow().as_ref().and_then(|m| m.get(&(id, start))) {
            return found.clone();
        }
        let mut sub = SchemaWalk::new(self.schema, self.bytes(), Lean::default(), self.memo);
        sub.w.s.seek(start);
        let outcome = sub.value(id, path, depth, chain + 1);
        let mut lean = sub.finish();
        if outcome.is_ok() {
            distinct(&mut lean.findings);
            self.memo.findings.borrow_mut().get_or_insert_with(HashMap::new).insert((id, start), lean.findings.clone());
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
        self.memo.findings.borrow_mut().get_or_insert_with(HashMap::new).insert((id, start), mode.findings.clone());
        mode.findings
    }

    fn applicators(
        &mut self,
        node: &'c Node,
        start: usize,
        path: &Path<'_, 'a>,
        depth: usize,
        chain: usize,
    ) -> Result<(), M::Stop> {
        if let Some(to) = node.reference {
            self.again(to, start, path, depth, chain)?;
        }
        for &member in &node.all_of {
            self.again(member, start, path, depth, chain)?;
        }
        for (union, one) in [(&node.any_of, false), (&node.one_of, true)] {
            if let Some(u) = union {
                self.union(&u.members, u.tag.as_ref(), one, start, path, depth, chain)?;
            }
        }
        if let Some(not) = node.not {
            if self.valid(not, start, depth, chain) {
                self.w.mode.fault(rules::FIELD_NOT, path, || "value matches the schema under 'not'")?;
            }
        }
        if let Some(c) = &node.condition {
            let branch = if self.valid(c.test, start, depth, chain) { c.then } else { c.otherwise };
            if let Some(b) = branch {
                self.again(b, start, path, depth, chain)?;
            }
        }
        if !node.dependent_schemas.is_empty() && self.kind_at(start) == Some(Kind::Object) {
            for (key, id) in &node.dependent_schemas {
                if self.has_key(start, key) {
                    self.again(*id, start, path, depth, chain)?;
                }
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn union(
        &mut self,
        members: &'c [Id],
        tag: Option<&'c Tag>,
        one: bool,
        start: usize,
        path: &Path<'_, 'a>,
        depth: usize,
        chain: usize,
    ) -> Result<(), M::Stop> {
        let rule = if one { rules::FIELD_ONE_OF } else { rules::FIELD_ANY_OF };
        // The tag as the object's first key, read straight from the bytes:
        // the member it picks reads on after it when it can, else from the start.
        // (A tag whose key needs escapes has no resumes: the scanner finds it.)
        let plain = tag.filter(|t| !t.resume.is_empty());
        let first = plain.and_then(|t| Some((t, first_plain_key_tag(self.bytes(), start, t.key.as_bytes())?)));
        if let Some((tag, (raw, after))) = first {
            if let Some(i) =
                tag.values.iter().position(|v| v.string.as_deref().is_some_and(|t| same_bytes(t.as_bytes(), raw)))
            {
                let resume = tag.resume[i];
                // Within the chain's bound, and not where the root object's
                // members are noted (the tag would not be).
                let resume = resume
                    .filter(|r| chain + 1 + r.hops as usize <= MAX_CHAIN)
                    .filter(|_| depth > 0 || self.memo.top.is_none());
                if let Some(r) = resume {
                    self.w.s.seek(after);
                    return self.object_from(self.schema.node(r.node), path, depth, start, Some(r.property as usize));
                }
                return self.again(members[i], start, path, depth, chain);
            }
        }
        if let Some(tag) = tag.filter(|_| self.kind_at(start) == Some(Kind::Object)) {
            let tag_path = Path::Name(path, &tag.key);
            return match self.tag_of(start, tag) {
                TagValue::Member(i) => self.again(members[i], start, path, depth, chain),
                TagValue::Missing => self.w.mode.fault(rules::FIELD_REQUIRED, &tag_path, || {
                    format!(
                        "{} (it picks the member: one of {})",
                        required::MESSAGE,
                        members_label(&tag.values, Literal::display)
                    )
                }),
                TagValue::Unknown(shown) => self.w.mode.fault(rules::FIELD_ENUM, &tag_path, || {
                    enums::not_in(Shown::Value(&shown), &members_label(&tag.values, Literal::display))
                }),
            };
        }
        let mut passed: Vec<usize> = Vec::new();
        let mut end = 0;
        for (i, &m) in members.iter().enumerate() {
            let at = self.valid_end(m, start, depth, chain);
            if at != 0 {
                // The member read the whole value: go on from its end.
                self.w.s.seek(at);
                if !one {
                    return Ok(());
                }
                passed.push(i);
                end = at;
            }
        }
        match passed.len() {
            1 => {
                self.w.s.seek(end);
                Ok(())
            }
            0 => self.fault_with(rule, path, |this| {
                let keyword = if one { "oneOf" } else { "anyOf" };
                format!("no member of '{keyword}' matches; {}", this.closest(members, start, path, depth, chain))
            }),
            _ => self.fault_with(rule, path, |this| {
                let names: Vec<String> = passed.iter().map(|&i| this.member_name(members, i)).collect();
                format!("matches {}, but 'oneOf' allows exactly one", names.join(" and "))
            }),
        }
    }

    /// A fault whose message needs the walker itself (to read the value
    /// again): built only in a mode that keeps messages.
    fn fault_with(
        &mut self,
        rule: &'static Rule,
        path: &Path<'_, '_>,
        message: impl FnOnce(&Self) -> String,
    ) -> Result<(), M::Stop> {
        if M::COLLECTS {
            let text = message(self);
            self.w.mode.fault(rule, path, || text)
        } else {
            self.w.mode.fault(rule, path, String::new)
        }
    }

    /// `closest is TextContent (member 1): field.required text: ...`: the
    /// member whose type accepts the value and that has the fewest findings.
    fn closest(&self, members: &[Id], start: usize, path: &Path<'_, 'a>, depth: usize, chain: usize) -> String {
        let actual = self.type_at(start);
        let mut best: Option<(bool, usize, usize, Finding)> = None;
        for (i, &m) in members.iter().enumerate() {
            let found = self.findings(m, start, path, depth, chain);
            let Some(first) = found.first().cloned() else { continue };
            let mismatch = actual.is_some_and(|t| !self.member_accepts(m, t));
            let rank = (mismatch, found.len());
            if best.as_ref().is_none_or(|(bm, bn, _, _)| rank < (*bm, *bn)) {
                best = Some((mismatch, found.len(), i, first));
            }
        }
        match best {
            Some((_, _, i, f)) => {
                format!("closest is {}: {} {}: {}", self.member_name(members, i), f.rule(), f.field(), f.message())
            }
            None => "every member failed".into(),
        }
    }

    /// Whether member `id` (through bare references) accepts values of `t`.
    fn member_accepts(&self, mut id: Id, t: JsonType) -> bool {
        for _ in 0..MAX_CHAIN {
            let n = self.schema.node(id);
            match n.bare {
                Some(to) => id = to,
                None => return n.accepts(t),
            }
        }
        true
    }

    /// `TextContent (member 1)`, or `member 2`.
    fn member_name(&self, members: &[Id], i: usize) -> String {
        let mut id = members[i];
        for _ in 0..MAX_CHAIN {
            let n = self.schema.node(id);
            if let Some(label) = &n.label {
                return format!("{} (member {})", quote(label, QUOTE_MAX), i + 1);
            }
            match n.reference {
                Some(to) => id = to,
                None => break,
            }
        }
        format!("member {}", i + 1)
    }

    fn kind_at(&self, start: usize) -> Option<Kind> {
        let mut s = Scanner::new(self.bytes());
        s.seek(start);
        s.peek_kind().ok()
    }

    /// The JSON type of the value at `start`.
    fn type_at(&self, start: usize) -> Option<JsonType> {
        let mut s = Scanner::new(self.bytes());
        s.seek(start);
        Some(match s.peek_kind().ok()? {
            Kind::String => JsonType::String,
            Kind::Number if s.number().ok()?.is_integer() => JsonType::Integer,
            Kind::Number => JsonType::Number,
            Kind::Bool => JsonType::Boolean,
            Kind::Null => JsonType::Null,
            Kind::Object => JsonType::Object,
            Kind::Array => JsonType::Array,
        })
    }

    /// A scanner at the value of `key` in the object at `start` (already
    /// read once, so well formed); `None` when the object has no such key.
    fn value_of(&self, start: usize, key: &str) -> Option<Scanner<'a>> {
        let mut s = Scanner::new(self.bytes());
        s.seek(start);
        s.object_start();
        let mut first = true;
        while let Ok(Some(k)) = s.object_key(first) {
            first = false;
            if k.eq_str(key) {
                return Some(s);
            }
            s.skip_value().ok()?;
        }
        None
    }

    /// Whether the object at `start` has `key`.
    fn has_key(&self, start: usize, key: &str) -> bool {
        self.value_of(start, key).is_some()
    }

    /// The tag value of the object at `start`: which member it picks.
    fn tag_of(&self, start: usize, tag: &Tag) -> TagValue {
        let Some(mut s) = self.value_of(start, &tag.key) else { return TagValue::Missing };
        let at = s.offset();
        if let Ok(Kind::String) = s.peek_kind() {
            if let Ok(text) = s.string() {
                let i = tag.values.iter().position(|v| v.string.as_deref().is_some_and(|t| text.eq_str(t)));
                return match i {
                    Some(i) => TagValue::Member(i),
                    None => TagValue::Unknown(quote(&text.decode(), QUOTE_MAX)),
                };
            }
        }
        let mut canon = String::new();
        s.seek(at);
        // Bounded: a tag nested past the walk's limit is the walk's `json.depth`.
        if canonical_within(&mut s, &mut canon, MAX_DEPTH).is_none() {
            return TagValue::Missing;
        }
        match tag.values.iter().position(|v| *v.canonical == *canon) {
            Some(i) => TagValue::Member(i),
            None => TagValue::Unknown(crate::json::text::one_line(&canon).into_owned()),
        }
    }

    /// The keywords of `node` that judge the value itself, reading it once.
    #[inline]
    pub(crate) fn own(&mut self, node: &'c Node, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        let kind = self.w.s.peek_kind()?;
        self.own_of(node, kind, path, depth)
    }

    /// [`Self::own`] on a value of `kind` (just peeked: the scanner is at it).
    fn own_of(&mut self, node: &'c Node, kind: Kind, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        match kind {
            Kind::String => {
                let s = self.read_string()?;
                if self.type_ok(node, JsonType::String, path)? && node.string_checks {
                    self.string(node, &s, path)?;
                }
            }
            Kind::Number => {
                let n = self.w.s.number()?;
                let actual = if n.is_integer() { JsonType::Integer } else { JsonType::Number };
                if self.type_ok(node, actual, path)? {
                    self.number(node, &n, path)?;
                }
            }
            Kind::Bool | Kind::Null => {
                let v = self.w.s.literal()?;
                let actual = if v.is_some() { JsonType::Boolean } else { JsonType::Null };
                if self.type_ok(node, actual, path)? {
                    let text = match v {
                        Some(true) => "true",
                        Some(false) => "false",
                        None => "null",
                    };
                    self.literal(node, text, Shown::Value(text), path)?;
                }
            }
            Kind::Object | Kind::Array => {
                let is_object = kind == Kind::Object;
                let actual = if is_object { JsonType::Object } else { JsonType::Array };
                if !self.type_ok(node, actual, path)? {
                    self.w.skip(path, depth)?;
                    return Ok(());
                }
                if node.enum_values.is_some() || node.constant.is_some() {
                    let start = self.w.s.offset();
                    let mut canon = String::new();
                    // Bounded as the walk below bounds it (`json.depth`).
                    if canonical_within(&mut self.w.s, &mut canon, MAX_DEPTH - depth).is_some() {
                        let shown = Shown::Whole(if is_object { "an object" } else { "an array" });
                        self.literal(node, &canon, shown, path)?;
                    }
                    self.w.s.seek(start);
                }
                if is_object && node.any_object && depth > 0 {
                    // Below the root: neither the root's routing members
                    // nor a strict contract's unknown-key warnings apply.
                    self.w.skip_object(path, depth)?;
                } else if is_object {
                    self.object(node, path, depth)?;
                } else {
                    self.array(node, path, depth)?;
                }
            }
        }
        Ok(())
    }

    /// A string value. First-fault mode reads it through `Option`: a
    /// `Result<Str, SyntaxError>` copied through the stack overlaps at odd
    /// offsets and stalls store forwarding.
    #[inline(always)]
    fn read_string(&mut self) -> Result<Str<'a>, M::Stop> {
        let at = self.w.s.offset();
        match self.w.s.string().ok() {
            Some(s) => Ok(s),
            None if M::COLLECTS => Err(self.string_fault(at)),
            None => Err(M::give_up()),
        }
    }

    /// The syntax fault of the string at `at`, read again (off the hot path).
    #[cold]
    #[inline(never)]
    fn string_fault(&mut self, at: usize) -> M::Stop {
        self.w.s.seek(at);
        match self.w.s.string() {
            Err(e) => e.into(),
            Ok(_) => M::give_up(),
        }
    }

    /// The next key of an object, through `Option` as [`Self::read_string`].
    #[inline(always)]
    fn read_key(&mut self, first: bool) -> Result<Option<Str<'a>>, M::Stop> {
        let at = self.w.s.offset();
        match self.w.s.object_key(first).ok() {
            Some(k) => Ok(k),
            None if M::COLLECTS => Err(self.key_fault(at, first)),
            None => Err(M::give_up()),
        }
    }

    #[cold]
    #[inline(never)]
    fn key_fault(&mut self, at: usize, first: bool) -> M::Stop {
        self.w.s.seek(at);
        match self.w.s.object_key(first) {
            Err(e) => e.into(),
            Ok(_) => M::give_up(),
        }
    }

    #[inline(always)]
    fn type_ok(&mut self, node: &Node, actual: JsonType, path: &Path<'_, '_>) -> Result<bool, M::Stop> {
        match node.types {
            Some(t) if !types::is_valid(t, actual) => {
                self.type_fault(t, actual, path)?;
                Ok(false)
            }
            _ => Ok(true),
        }
    }

    #[cold]
    #[inline(never)]
    fn type_fault(&mut self, t: TypeSet, actual: JsonType, path: &Path<'_, '_>) -> Result<(), M::Stop> {
        self.w.mode.fault(rules::FIELD_TYPE, path, || types::message(t, actual))
    }

    /// `enum` and `const` on a value whose canonical JSON is `canon`.
    fn literal(&mut self, node: &Node, canon: &str, shown: Shown<'_>, path: &Path<'_, '_>) -> Result<(), M::Stop> {
        if let Some(values) = node.enum_values.as_deref().filter(|e| !e.iter().any(|v| *v.canonical == *canon)) {
            self.w
                .mode
                .fault(rules::FIELD_ENUM, path, || enums::not_in(shown, &members_label(values, Literal::display)))?;
        }
        if let Some(c) = node.constant.as_ref().filter(|c| *c.canonical != *canon) {
            self.w.mode.fault(rules::FIELD_CONST, path, || enums::is_not(shown, &cut(c.display(), QUOTE_MAX)))?;
        }
        Ok(())
    }

    fn string(&mut self, node: &Node, s: &Str<'a>, path: &Path<'_, '_>) -> Result<(), M::Stop> {
        let member = |v: &Literal| v.string.as_deref().is_some_and(|t| s.eq_str(t));
        if let Some(values) = node.enum_values.as_deref().filter(|e| !e.iter().any(member)) {
            self.w.mode.fault(rules::FIELD_ENUM, path, || {
                enums::not_in(Shown::Value(&quote(&s.decode(), QUOTE_MAX)), &members_label(values, Literal::display))
            })?;
        }
        if let Some(c) = node.constant.as_ref().filter(|c| !member(c)) {
            self.w.mode.fault(rules::FIELD_CONST, path, || {
                enums::is_not(Shown::Value(&quote(&s.decode(), QUOTE_MAX)), &cut(c.display(), QUOTE_MAX))
            })?;
        }
        let c = &node.constraints;
        if lengths::any(c) {
            let len = s.char_count() as u64;
            for (rule, bound, wording) in lengths::faults(c, len).into_iter().flatten() {
                self.w.mode.fault(rule, path, || lengths::message(len, bound, wording))?;
            }
        }
        if let Some(p) = c.pattern.as_ref().filter(|p| !pattern::is_valid(p, s)) {
            self.w.mode.fault(rules::FIELD_PATTERN, path, || pattern::message(p, s))?;
        }
        if let Some(name) = node.format.filter(|name| !format::is_valid(name, s)) {
            self.w.mode.fault(rules::FIELD_FORMAT, path, || format::message(name, s))?;
        }
        Ok(())
    }

    fn number(&mut self, node: &Node, n: &Num<'a>, path: &Path<'_, '_>) -> Result<(), M::Stop> {
        let v = n.dec();
        if node.enum_values.is_some() || node.constant.is_some() {
            let mut canon = String::new();
            v.canonical(&mut canon);
            self.literal(node, &canon, Shown::Value(n.raw()), path)?;
        }
        for (rule, bound, wording) in numbers::faults(&node.constraints, &v).into_iter().flatten() {
            self.w.mode.fault(rule, path, || numbers::message(n.raw(), bound, wording))?;
        }
        Ok(())
    }

    #[inline(always)]
    pub(crate) fn object(&mut self, node: &'c Node, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        let start = self.w.s.offset();
        self.object_from(node, path, depth, start, None)
    }

    /// The object at `start`, from its `{`; or, with `tag`, on from the end
    /// of its first member, that declared property: a union's tag, read and
    /// judged by [`Self::union`] (a [`Resume`](crate::contract::schema::Resume)).
    fn object_from(
        &mut self,
        node: &'c Node,
        path: &Path<'_, 'a>,
        depth: usize,
        start: usize,
        tag: Option<usize>,
    ) -> Result<(), M::Stop> {
        if depth >= MAX_DEPTH {
            return Err(self.w.mode.too_deep(path));
        }
        let mut seen = Seen::new(node.required.len());
        // Declared properties find their repeats by seen-bits; only the
        // other keys go on the walk's key stack.
        let mut props = Seen::new(node.properties.len());
        let base = self.w.keys_base();
        let mut others = Others::default();
        let mut first = true;
        let mut count = 0u64;
        match tag {
            None => self.w.s.object_start(),
            Some(i) => {
                props.set(i);
                if let Some(r) = node.property_required[i] {
                    seen.set(r as usize);
                }
                first = false;
                count = 1;
            }
        }
        let top = self.memo.top.as_ref().filter(|_| depth == 0);
        if let Some(top) = top {
            top.borrow_mut().read = true;
        }
        while let Some(key) = self.read_key(first)? {
            first = false;
            count += 1;
            // The key as scalars (in registers), and its path frame only
            // in a mode that renders paths: a `Str` copied through the stack
            // at odd offsets stalls store forwarding.
            let (raw, at, escaped) = (key.raw(), key.offset(), key.is_escaped());
            let value_at = self.w.s.offset();
            let key_frame;
            let here = if M::COLLECTS {
                key_frame = Path::Key(path, Str::new(raw, escaped, at));
                &key_frame
            } else {
                &Path::Root
            };
            let declared = if escaped {
                node.properties.iter().position(|(name, _)| Str::new(raw, escaped, at).eq_str(name))
            } else {
                node.property_at(raw)
            };
            let repeat = match declared {
                Some(i) => {
                    let again = props.get(i);
                    props.set(i);
                    again
                }
                None => self.w.other_repeats(base, raw, at, escaped, &mut others)?,
            };
            if repeat {
                self.w.mode.fault(rules::JSON_DUPLICATE_KEY, here, || duplicate::MESSAGE)?;
                self.w.skip(here, depth + 1)?;
                if let Some(top) = top {
                    top.borrow_mut().note(raw, escaped, (value_at, self.w.s.offset()));
                }
                continue;
            }
            match declared {
                Some(i) => {
                    if let Some(r) = node.property_required[i] {
                        seen.set(r as usize);
                    }
                }
                None if node.required_elsewhere => {
                    if let Some(i) = node.required.iter().position(|r| Str::new(raw, escaped, at).eq_str(r)) {
                        seen.set(i);
                    }
                }
                None => {}
            }
            if let Some(names) = node.property_names {
                self.property_name(names, &Str::new(raw, escaped, at), here, depth)?;
            }
            if let Some(i) = declared.filter(|_| node.pattern_properties.is_empty()) {
                // The common case: a declared property and no pattern.
                self.property(node.properties[i].1, here, depth + 1)?;
            } else {
                self.member(node, declared, &Str::new(raw, escaped, at), here, depth)?;
            }
            if let Some(top) = top {
                top.borrow_mut().note(raw, escaped, (value_at, self.w.s.offset()));
            }
        }
        self.w.end_object(base);
        for (i, name) in node.required.iter().enumerate() {
            if !seen.get(i) {
                let missing = Path::Name(path, name);
                self.w.mode.fault(rules::FIELD_REQUIRED, &missing, || required::MESSAGE)?;
            }
        }
        if let Some(min) = node.min_properties.filter(|&m| count < m) {
            self.w.mode.fault(rules::FIELD_MIN_PROPERTIES, path, || {
                format!("{count} properties is less than minProperties {min}")
            })?;
        }
        if let Some(max) = node.max_properties.filter(|&m| count > m) {
            self.w.mode.fault(rules::FIELD_MAX_PROPERTIES, path, || {
                format!("{count} properties is greater than maxProperties {max}")
            })?;
        }
        if !node.dependent_required.is_empty() {
            let end = self.w.s.offset();
            for (key, needs) in &node.dependent_required {
                if !self.has_key(start, key) {
                    continue;
                }
                for need in needs {
                    if !self.has_key(start, need) {
                        let missing = Path::Name(path, need);
                        self.w.mode.fault(rules::FIELD_DEPENDENT_REQUIRED, &missing, || {
                            format!("required when {} is present (dependentRequired)", quote(key, QUOTE_MAX))
                        })?;
                    }
                }
            }
            self.w.s.seek(end);
        }
        Ok(())
    }

    /// One member's value: every schema that applies to its key.
    fn member(
        &mut self,
        node: &'c Node,
        declared: Option<usize>,
        key: &Str<'a>,
        here: &Path<'_, 'a>,
        depth: usize,
    ) -> Result<(), M::Stop> {
        let declared = declared.map(|i| node.properties[i].1);
        let mut patterns = node.pattern_properties.iter().filter(|(p, _)| p.matches(key)).map(|(_, id)| *id);
        let first = declared.or_else(|| patterns.next());
        let Some(first) = first else {
            return match node.additional {
                Some(_) if node.closed => {
                    self.w.skip(here, depth + 1)?;
                    self.w.mode.fault(rules::FIELD_ADDITIONAL_PROPERTIES, here, || closed::MESSAGE)
                }
                Some(extra) => self.value(extra, here, depth + 1, 0),
                None => {
                    // A warning: never a fault of a membership test.
                    if M::COLLECTS && depth == 0 && self.schema.strict {
                        self.w.mode.fault(rules::FIELD_UNKNOWN, here, || unknown::MESSAGE)?;
                    }
                    self.w.skip(here, depth + 1)?;
                    Ok(())
                }
            };
        };
        if node.pattern_properties.is_empty() {
            return self.value(first, here, depth + 1, 0);
        }
        self.w.s.peek_kind()?;
        let start = self.w.s.offset();
        self.value(first, here, depth + 1, 0)?;
        let rest: Vec<Id> = if declared.is_some() {
            node.pattern_properties.iter().filter(|(p, _)| p.matches(key)).map(|(_, id)| *id).collect()
        } else {
            patterns.collect()
        };
        if !rest.is_empty() {
            let end = self.w.s.offset();
            for id in rest {
                self.again(id, start, here, depth + 1, 0)?;
            }
            self.w.s.seek(end);
        }
        Ok(())
    }

    /// `propertyNames`: the key, read as a string value, against `names`.
    fn property_name(&mut self, names: Id, key: &Str<'a>, here: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        let at = key.offset() - 1;
        let resume = self.w.s.offset();
        if !self.valid(names, at, depth + 1, 0) {
            self.fault_with(rules::FIELD_PROPERTY_NAMES, here, |this| {
                let found = this.findings(names, at, here, depth + 1, 0);
                let why = found.first().map_or(String::new(), |f| format!(": {} {}", f.rule(), f.message()));
                format!("key {} is not allowed by propertyNames{why}", quote(&key.decode(), QUOTE_MAX))
            })?;
        }
        self.w.s.seek(resume);
        Ok(())
    }

    pub(crate) fn array(&mut self, node: &'c Node, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        if depth >= MAX_DEPTH {
            return Err(self.w.mode.too_deep(path));
        }
        self.w.s.array_start();
        let unique = node.constraints.unique_items;
        let base = self.w.spans_base();
        let mut count = 0usize;
        let mut matched = 0u64;
        while self.w.s.array_next(count == 0)? {
            let index_frame = Path::Index(path, count);
            let here = M::frame(&index_frame);
            self.w.s.peek_kind()?;
            let start = self.w.s.offset();
            let element = node.prefix_items.get(count).copied().or(node.items);
            match element {
                Some(id) if count >= node.prefix_items.len() && self.schema.node(id).never => {
                    self.w.skip(here, depth + 1)?;
                    let declared = node.prefix_items.len();
                    self.w.mode.fault(rules::FIELD_ITEMS, here, || {
                        format!("element {count} is not allowed: the array holds at most {declared} (items: false)")
                    })?;
                }
                Some(id) => self.value(id, here, depth + 1, 0)?,
                None => {
                    self.w.skip(here, depth + 1)?;
                }
            }
            if let Some(contains) = node.contains {
                let end = self.w.s.offset();
                if self.valid(contains, start, depth + 1, 0) {
                    matched += 1;
                }
                self.w.s.seek(end);
            }
            if unique {
                self.w.span(start);
            }
            count += 1;
        }
        let n = count as u64;
        for (rule, bound, wording) in items::faults(&node.constraints, n).into_iter().flatten() {
            self.w.mode.fault(rule, path, || items::message(n, bound, wording))?;
        }
        if unique {
            self.w.unique(base, path)?;
        }
        if node.contains.is_some() {
            let min = node.min_contains.unwrap_or(1);
            if matched < min {
                let rule = if node.min_contains.is_some() { rules::FIELD_MIN_CONTAINS } else { rules::FIELD_CONTAINS };
                self.w.mode.fault(rule, path, || match node.min_contains {
                    None => "no element matches the schema under 'contains'".into(),
                    Some(_) => format!("{matched} elements match 'contains', fewer than minContains {min}"),
                })?;
            }
            if let Some(max) = node.max_contains.filter(|&m| matched > m) {
                self.w.mode.fault(rules::FIELD_MAX_CONTAINS, path, || {
                    format!("{matched} elements match 'contains', more than maxContains {max}")
                })?;
            }
        }
        Ok(())
    }
}

enum TagValue {
    Member(usize),
    Missing,
    /// The tag's value as a message shows it.
    Unknown(String),
}

/// The report for `data` under a schema-form contract from the finding
/// walk alone ([`Lean`]): every finding with its path (none for a valid
/// body). [`check`] puts a first-fault pass in front of it.
/// Keeps each finding once, in first-seen order: a pair met by two routes
/// replays the same findings, and a list doubled per level would grow as
/// the routes do.
fn distinct(findings: &mut Vec<Finding>) {
    if findings.len() < 2 {
        return;
    }
    let mut seen = std::collections::HashSet::with_capacity(findings.len());
    findings.retain(|f| seen.insert(f.clone()));
}

pub(crate) fn collect(schema: &Schema, data: &[u8]) -> crate::report::Report {
    collect_in(schema, data, &Memo::default())
}

/// The report for `data` under a schema-form contract, as
/// `ContractSpec::validate_json` gives it: a first-fault walk ([`First`])
/// proves most bodies valid, and only a body it fails is read again by
/// the finding walk ([`collect`]), unless bodies with findings have been
/// common on this thread lately ([`Recent`]). The report is the same
/// either way; only the time differs.
pub(crate) fn check(schema: &Schema, data: &[u8]) -> crate::report::Report {
    check_in(schema, data, &Memo::default(), Recent::first())
}

/// [`check`], and the (node, value) visits it made.
pub(crate) fn counted(schema: &Schema, data: &[u8]) -> (crate::report::Report, usize) {
    let memo = Memo::default();
    let report = check_in(schema, data, &memo, Recent::first());
    (report, memo.steps.get())
}

/// [`check`], and where the root object's `top` members sit.
pub(crate) fn collect_top(schema: &Schema, data: &[u8], top: TopMembers) -> (crate::report::Report, TopMembers) {
    let memo = Memo { top: Some(RefCell::new(top)), ..Memo::default() };
    let report = check_in(schema, data, &memo, Recent::first());
    let top = memo.top.map(RefCell::into_inner).expect("set above");
    (report, top)
}

/// [`check`] on `memo`, with the first-fault pass in front or not.
/// Inlined: an empty report returned through memory, its words stored one by
/// one, was read back sixteen bytes at a time by the caller's move, a
/// stalled load per body.
#[inline(always)]
fn check_in(schema: &Schema, data: &[u8], memo: &Memo, first: bool) -> crate::report::Report {
    // Only a strict lowered fields form has a warning, which the first-fault
    // walk does not see: its bodies go to the finding walk directly.
    if first && !schema.strict {
        #[cfg(test)]
        FIRST_PASSES.with(|n| n.set(n.get() + 1));
        let mut walk = SchemaWalk::new(schema, data, First, memo);
        let ok = walk.document().is_ok();
        walk.finish();
        if ok {
            Recent::note(false);
            return crate::report::Report::default();
        }
        // The verdicts of membership tests hold for the walk below, which
        // reuses them (no sub-walk runs for a memo hit). The top members
        // stay as noted: the walk below reads the same way up to this
        // walk's fault, noting the same spans again, then goes on.
    }
    let report = collect_in(schema, data, memo);
    Recent::note(!report.findings().is_empty());
    report
}

/// Whether the bodies [`check`] judged lately on this thread had findings,
/// the last 32, newest in the low bit (every schema-form validation on the
/// thread counts: a `traffic` response tried against several response
/// contracts counts once per contract). A first-fault pass in front of the
/// finding walk saves a valid body part of its time and costs a body with
/// findings what it reads before its first fault (up to its whole length):
/// past [`Recent::MOSTLY_FAILING`] bodies with findings in 32, it costs
/// more than it saves, and is skipped until valid bodies are common again
/// (docs/performance.md). Only the time depends on it.
struct Recent;

thread_local! {
    static RECENT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
thread_local! {
    /// How many first-fault passes [`check_in`] ran on this thread (tests only).
    static FIRST_PASSES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

impl Recent {
    /// More bodies with findings than this among the last 32: no first-fault pass.
    const MOSTLY_FAILING: u32 = 6;

    /// Whether the next body gets the first-fault pass.
    #[inline]
    fn first() -> bool {
        RECENT.with(|r| r.get().count_ones() <= Recent::MOSTLY_FAILING)
    }

    #[inline]
    fn note(failed: bool) {
        RECENT.with(|r| r.set(r.get() << 1 | u32::from(failed)));
    }
}

fn collect_in(schema: &Schema, data: &[u8], memo: &Memo) -> crate::report::Report {
    let mut walk = SchemaWalk::new(schema, data, Lean::default(), memo);
    let outcome = walk.document();
    let lean = walk.finish();
    let (outcome, mode) = match outcome {
        Ok(()) => (Ok(()), Collect { findings: lean.findings, depth_at: None }),
        // Stopped early (bytes that are not JSON, too deep): read again by
        // the mode that says why, with a fresh memo.
        Err(Fail) => {
            if let Some(top) = &memo.top {
                top.borrow_mut().unsure = true;
            }
            let memo = Memo::default();
            let mut walk = SchemaWalk::new(schema, data, Collect::default(), &memo);
            let outcome = walk.document();
            (outcome, walk.finish())
        }
    };
    // A value read by several schemas (`allOf`, a `$ref` beside other
    // keywords) shows a fault of the data itself, such as a repeated key, to
    // each of them: the report keeps one (`Report::new`).
    crate::walk::report(data, outcome, mode)
}

/// Whether `data` is valid under `schema` (no finding at all: a schema-form
/// contract has no warning-only rule).
pub(crate) fn passes(schema: &Schema, data: &[u8]) -> bool {
    let memo = Memo::default();
    let mut walk = SchemaWalk::new(schema, data, First, &memo);
    let ok = walk.document().is_ok();
    walk.finish();
    ok
}

/// Whether `data` (one JSON value) is valid under node `id` of `schema`, as
/// if that node were the root: the schema-form witness search
/// (`diff/schema_witness.rs`) checks the values it builds node by node.
pub(crate) fn passes_node(schema: &Schema, id: Id, data: &[u8]) -> bool {
    let memo = Memo::default();
    let mut walk = SchemaWalk::new(schema, data, First, &memo);
    let ok = walk.document_at(id).is_ok();
    walk.finish();
    ok
}

#[cfg(test)]
mod tests {
    use crate::{ContractSpec, TopMembers};

    const KEYS: &[&str] = &["jsonrpc", "method", "id"];

    fn spec(schema: &str) -> ContractSpec {
        let text = format!(r#"{{"name": "t.top", "revision": "1.0.0", "schema": {schema}}}"#);
        ContractSpec::from_slice(text.as_bytes(), "t.json").expect("the contract loads")
    }

    /// The watched members as text, or `None` when the walk cannot tell.
    fn top(spec: &ContractSpec, data: &str) -> Option<Vec<Option<String>>> {
        let (report, top) = spec.validate_json_top(data.as_bytes(), TopMembers::new(KEYS)).expect("schema form");
        // The report is `validate_json`'s.
        assert_eq!(report, spec.validate_json(data.as_bytes()), "{data}");
        (0..KEYS.len())
            .map(|i| top.get(data.as_bytes(), i).map(|v| v.map(|v| String::from_utf8_lossy(v).into_owned())))
            .collect()
    }

    fn some(v: &[Option<&str>]) -> Option<Vec<Option<String>>> {
        Some(v.iter().map(|v| v.map(str::to_string)).collect())
    }

    /// Keys that share a bucket of the lookup (length plus first byte, modulo
    /// 32) are told apart by their bytes, and a key in a watched key's bucket
    /// that is none of them is not noted.
    #[test]
    fn watched_keys_in_one_bucket_are_told_apart() {
        // "a" and "A" (1 + 97 and 1 + 65, both 2 modulo 32) and "ab" (2 +
        // 97 = 3): "A" shares the bucket of "a", "!B" (2 + 33 = 3) of "ab".
        const SHARED: &[&str] = &["a", "A", "ab"];
        let bucket = |k: &str| (k.len() + usize::from(k.as_bytes()[0])) % 32;
        assert_eq!(bucket("a"), bucket("A"));
        assert_eq!(bucket("ab"), bucket("!B"));
        let spec = spec(r#"{"type": "object"}"#);
        let data = r#"{"!B": 0, "A": 1, "ab": [2], "a": "3"}"#;
        let (report, top) = spec.validate_json_top(data.as_bytes(), TopMembers::new(SHARED)).expect("schema form");
        assert!(report.is_valid());
        let got: Vec<_> =
            (0..SHARED.len()).map(|i| top.get(data.as_bytes(), i).map(|v| v.map(|v| v.to_vec()))).collect();
        assert_eq!(got, [Some(Some(b"\"3\"".to_vec())), Some(Some(b"1".to_vec())), Some(Some(b"[2]".to_vec()))]);
    }

    /// Which nodes are read as open maps (`Node::any_object`): no object
    /// keyword but an `additionalProperties` that is absent or accepts
    /// anything, no applicator, no `enum`/`const` (keywords of other types
    /// may be there: they never apply to an object).
    #[test]
    fn open_maps_are_the_objects_that_constrain_no_member() {
        let any = |schema: &str| {
            let spec = spec(&format!(r#"{{"properties": {{"m": {schema}}}}}"#));
            let graph = spec.schema().expect("schema form");
            let root = graph.node(crate::contract::schema::Schema::ROOT);
            graph.node(root.properties[0].1).any_object
        };
        for open in [
            r#"{"type": "object"}"#,
            r#"{"type": "object", "additionalProperties": {}}"#,
            r#"{"type": "object", "additionalProperties": true}"#,
            r#"{"type": ["object", "null"], "maxLength": 3, "description": "d"}"#,
        ] {
            assert!(any(open), "{open}");
        }
        for constrained in [
            "{}",
            "true",
            r##"{"$ref": "#"}"##,
            r#"{"type": "object", "additionalProperties": {"type": "string"}}"#,
            r#"{"type": "object", "additionalProperties": false}"#,
            r#"{"type": "object", "patternProperties": {"": {}}}"#,
            r#"{"type": "object", "properties": {"a": {}}}"#,
            r#"{"type": "object", "required": ["a"]}"#,
            r#"{"type": "object", "minProperties": 1}"#,
            r#"{"type": "object", "maxProperties": 1}"#,
            r#"{"type": "object", "propertyNames": {"maxLength": 1}}"#,
            r#"{"type": "object", "dependentRequired": {"a": ["b"]}}"#,
            r#"{"type": "object", "const": {}}"#,
            r#"{"type": "object", "enum": [{}]}"#,
            r#"{"type": "object", "allOf": [{}]}"#,
            r#"{"type": "object", "dependentSchemas": {"a": {}}}"#,
            r##"{"type": "object", "additionalProperties": {"$ref": "#"}}"##,
        ] {
            assert!(!any(constrained), "{constrained}");
        }
    }

    #[test]
    fn the_walk_notes_where_top_level_members_are() {
        let plain = spec(r#"{"type": "object", "properties": {"method": {"const": "m"}}, "required": ["method"]}"#);
        let data = r#"{"method": "m", "params": {"id": 1, "jsonrpc": 2}, "jsonrpc" :  "2.0"}"#;
        assert_eq!(top(&plain, data), some(&[Some(r#""2.0""#), Some(r#""m""#), None]));
        // Noted on a body with findings too.
        assert_eq!(top(&plain, r#"{"method": "x", "id": [1, 2]}"#), some(&[None, Some(r#""x""#), Some("[1, 2]")]));
        // A watched key twice, or any escaped key: the walk cannot tell.
        assert_eq!(top(&plain, r#"{"method": "m", "id": 1, "id": 2}"#), None);
        assert_eq!(top(&plain, r#"{"method": "m", "\u0069d": 1}"#), None);
        // Not an object, not JSON, or an object the schema never looks into.
        assert_eq!(top(&plain, r#"[{"method": "m"}]"#), None);
        assert_eq!(top(&plain, r#"{"method": "m", "id": 1"#), None);
        assert_eq!(top(&spec("true"), r#"{"method": "m"}"#), None);
        // Read by every member of an `allOf` and by a union's member: the same places.
        let applied = spec(
            r#"{"allOf": [{"type": "object"}, {"required": ["id"]}],
                "anyOf": [{"properties": {"id": {"type": "string"}}}, {"properties": {"id": {"type": "integer"}}}]}"#,
        );
        assert_eq!(top(&applied, r#"{"id": 7, "method": "m"}"#), some(&[None, Some(r#""m""#), Some("7")]));
    }
}

/// Random documents under mixed contracts: every way of reading a body
/// (open maps skipped, a first-fault pass in front) against the plain walk.
#[cfg(test)]
mod same_reports {
    use super::*;
    use crate::ContractSpec;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    const KEYS: &[&str] =
        &["a", "\\u0061", "b", "\\u0062", "m", "x", "\\\"q", "method", "a\\/b", "a/b", "\\u00e9", "é"];

    fn value(r: &mut Rng, depth: usize, out: &mut String) {
        let pick = if depth > 4 { r.below(4) } else { r.below(9) };
        match pick {
            0 => out.push_str(["1", "\"s\"", "null", "true", "-2.5", "{}", "[]"][r.below(7) as usize]),
            1 => out.push_str("\"str\""),
            2 => out.push('3'),
            3 => out.push_str("\"ab\""),
            4..=6 => {
                out.push('{');
                let n = if depth <= 1 && r.below(4) == 0 { 30 + r.below(10) as usize } else { r.below(5) as usize };
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    if n > 8 && r.below(10) != 0 {
                        out.push_str(&format!("\"k{}\"", r.below(45)));
                    } else {
                        out.push('"');
                        out.push_str(KEYS[r.below(KEYS.len() as u64) as usize]);
                        out.push('"');
                    }
                    out.push(':');
                    value(r, depth + 1, out);
                }
                out.push('}');
            }
            _ => {
                out.push('[');
                let n = r.below(4);
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    value(r, depth + 1, out);
                }
                out.push(']');
            }
        }
    }

    fn doc(r: &mut Rng) -> String {
        let mut s = String::new();
        value(r, 0, &mut s);
        // Deep nesting sometimes.
        if r.below(10) == 0 {
            let n = 120 + r.below(15) as usize;
            let inner = format!("{}1{}", "{\"m\":".repeat(n), "}".repeat(n));
            s = format!("{{\"m\":{inner},\"p\":{{\"m\":{s}}}}}");
        } else if r.below(10) == 0 {
            let n = 120 + r.below(15) as usize;
            s = format!("{{\"p\":{{\"m\":{{\"x\":{}1{}}}}}}}", "[".repeat(n), "]".repeat(n));
        } else {
            s = format!("{{\"p\":{{\"m\":{s}, \"x\": {s}}}, \"m\": {s}, \"a\": [{s}]}}");
        }
        // Mutations: truncate or corrupt.
        match r.below(8) {
            0 => {
                let cut = r.below(s.len() as u64) as usize;
                if s.is_char_boundary(cut) {
                    s.truncate(cut);
                }
            }
            1 => {
                let at = r.below(s.len() as u64) as usize;
                if s.is_char_boundary(at) {
                    s.insert(at, [',', '}', ']', '"', 'x'][r.below(5) as usize]);
                }
            }
            _ => {}
        }
        s
    }

    fn off(schema: &Schema) -> Schema {
        let mut s = schema.clone();
        for n in &mut s.nodes {
            n.any_object = false;
        }
        s
    }

    fn lines(r: &crate::report::Report) -> Vec<String> {
        r.findings().iter().map(|f| format!("{f} {:?}", f.severity())).collect()
    }

    /// Schema-form contracts that put open maps in unions, `contains`,
    /// `if`, `not`, `dependentSchemas`, `$ref`s, `additionalProperties` and
    /// arrays, two that read the root only through membership tests, and
    /// fields-form contracts, strict or not.
    fn mixed_specs() -> Vec<ContractSpec> {
        let schemas = [
            r#"{"properties": {"p": {"properties": {"m": {"type": "object"}, "x": {"type": ["object", "array", "string"], "minLength": 3, "format": "email"}}}, "m": {"type": "object", "additionalProperties": {}}, "a": {"items": {"type": "object", "additionalProperties": true}}}}"#,
            r#"{"properties": {"p": {"anyOf": [{"type": "object"}, {"type": "string"}]}, "m": {"oneOf": [{"type": "object"}, {"type": "object", "additionalProperties": {}}]}, "a": {"contains": {"type": "object"}, "minContains": 1}}}"#,
            r##"{"$defs": {"o": {"type": "object"}}, "properties": {"p": {"additionalProperties": {"$ref": "#/$defs/o"}}, "m": {"$ref": "#/$defs/o"}, "a": {"items": {"$ref": "#/$defs/o", "title": "t"}}}, "additionalProperties": {"$ref": "#/$defs/o"}}"##,
            r#"{"properties": {"p": {"type": "object", "dependentSchemas": {"m": {"type": "object"}, "x": {"properties": {"x": {"type": "object"}}}}}, "m": {"if": {"type": "object"}, "then": {"type": "object"}, "else": {"type": "array"}}, "a": {"not": {"items": {"type": "object"}}}}}"#,
            r#"{"type": "object", "additionalProperties": {"type": "object"}}"#,
            r#"{"type": "object"}"#,
            r#"{"properties": {"p": {"propertyNames": {"type": "string"}, "additionalProperties": {"type": "object"}}, "m": {"allOf": [{"type": "object"}, {"type": ["object", "null"]}]}, "a": {"uniqueItems": true, "items": {"type": "object"}}}}"#,
            r#"{"properties": {"p": {"oneOf": [{"type": "object"}, {"properties": {"m": {"type": "object"}}, "required": ["m"]}]}, "m": {"anyOf": [{"type": "array"}, {"type": "object"}]}}}"#,
            // The root object read only through membership tests (memoised
            // verdicts: a walk that finds them in the memo reads nothing).
            r#"{"oneOf": [{"required": ["m"]}, {"required": ["p"]}]}"#,
            r#"{"anyOf": [{"type": "object"}], "not": {"required": ["m"]}}"#,
        ];
        let mut specs: Vec<ContractSpec> = schemas
            .iter()
            .map(|s| {
                ContractSpec::from_slice(
                    format!(r#"{{"name": "t.d", "revision": "1.0.0", "schema": {s}}}"#).as_bytes(),
                    "t.json",
                )
                .expect("loads")
            })
            .collect();
        for strict in ["true", "false"] {
            let doc = format!(
                r#"{{"name": "t.f", "revision": "1.0.0", "strict": {strict}, "fields": [{{"name": "p", "type": "object", "required": false}}, {{"name": "m", "type": "object", "required": false}}, {{"name": "a", "type": "array", "required": false}}, {{"name": "a[]", "type": "object"}}]}}"#
            );
            specs.push(ContractSpec::from_slice(doc.as_bytes(), "t.json").expect("fields loads"));
        }
        specs
    }

    /// Every walk mode gives the same answer with open maps read as skipped
    /// values (`Node::any_object`) as with every map read member by member:
    /// the report (findings, severities, order), `passes`, and the top
    /// members, on random documents (escaped and repeated keys, objects past
    /// the 32-key switch, nesting past the limit, truncated and corrupted
    /// bytes) under schemas that put open maps in unions, `contains`, `if`,
    /// `not`, `dependentSchemas`, `$ref`s, `additionalProperties` and arrays,
    /// and under fields-form contracts, strict or not.
    #[test]
    fn an_open_map_read_as_a_skip_gives_the_member_by_member_report() {
        let specs = mixed_specs();
        let mut count_any = 0;
        for spec in &specs {
            let on = spec.walked();
            count_any += on.nodes.iter().filter(|n| n.any_object).count();
        }
        assert!(count_any > 10, "{count_any}");
        let pairs: Vec<(&Schema, Schema)> = specs.iter().map(|spec| (spec.walked(), off(spec.walked()))).collect();
        let mut r = Rng(0x9E37_79B9_7F4A_7C15);
        let mut differ = 0;
        let mut sizes = 0;
        for i in 0..600 {
            let d = doc(&mut r);
            sizes += d.len();
            for (on, offs) in &pairs {
                let (on, offs) = (*on, offs);
                let a = collect(on, d.as_bytes());
                let b = collect(offs, d.as_bytes());
                if lines(&a) != lines(&b) {
                    differ += 1;
                    eprintln!("document {i} under {}\n{d}\n{:?}\n{:?}", on.canonical, lines(&a), lines(&b));
                }
                assert_eq!(passes(on, d.as_bytes()), passes(offs, d.as_bytes()), "passes {d}");
                assert_eq!(passes(on, d.as_bytes()), a.is_valid(), "passes vs collect {d}");
                let keys: &[&str] = &["m", "p", "a"];
                let (_, ta) = collect_top(on, d.as_bytes(), TopMembers::new(keys));
                let (_, tb) = collect_top(offs, d.as_bytes(), TopMembers::new(keys));
                for k in 0..3 {
                    assert_eq!(ta.get(d.as_bytes(), k), tb.get(d.as_bytes(), k), "top {d}");
                }
            }
        }
        assert_eq!(differ, 0);
        // Documents of a few kilobytes on average, not a handful of giants.
        assert!((600_000..6_000_000).contains(&sizes), "{sizes} bytes in all");
    }

    /// The first-fault pass in front of the finding walk ([`check`]) gives
    /// the finding walk's report and top members, whichever way the recent
    /// bodies send a body (`first` or not), on the random documents and
    /// contracts above (`first` false is the finding walk alone, the
    /// baseline); and a strict fields-form twin, whose warnings the
    /// first-fault walk does not see, never takes it.
    #[test]
    fn the_first_fault_pass_in_front_gives_the_finding_walks_report() {
        let specs = mixed_specs();
        let mut r = Rng(0x51DE_CA7E_D00D_F00D);
        let (mut valid, mut invalid, mut warned) = (0, 0, 0);
        let keys: &[&str] = &["m", "p", "a", "x"];
        // Random documents, and two with an undeclared top-level key only
        // (a strict twin's warning and nothing else).
        let mut docs: Vec<String> = (0..400).map(|_| doc(&mut r)).collect();
        docs.extend([r#"{"zz": 1}"#.to_string(), r#"{"p": {}, "zz": [2]}"#.to_string()]);
        for d in &docs {
            let d = d.as_bytes();
            for spec in &specs {
                let schema = spec.walked();
                let alone = collect(schema, d);
                for first in [true, false] {
                    let memo = Memo { top: Some(RefCell::new(TopMembers::new(keys))), ..Memo::default() };
                    let report = check_in(schema, d, &memo, first);
                    assert_eq!(lines(&report), lines(&alone), "first {first}: {}", String::from_utf8_lossy(d));
                    let top = memo.top.map(RefCell::into_inner).expect("set");
                    let (_, top_alone) = {
                        let memo = Memo { top: Some(RefCell::new(TopMembers::new(keys))), ..Memo::default() };
                        let report = collect_in(schema, d, &memo);
                        (report, memo.top.map(RefCell::into_inner).expect("set"))
                    };
                    for k in 0..keys.len() {
                        assert_eq!(top.get(d, k), top_alone.get(d, k), "top {}", String::from_utf8_lossy(d));
                    }
                }
                match (alone.findings().is_empty(), alone.is_valid()) {
                    (true, _) => valid += 1,
                    (false, true) => warned += 1,
                    (false, false) => invalid += 1,
                }
            }
        }
        // Both ways, and the strict twin's warnings, really were exercised.
        assert!(valid > 400 && invalid > 400 && warned == 2, "{valid} valid, {invalid} invalid, {warned} warned");
    }

    /// Members of tagged unions: `A` and `B` read on after a first-key tag
    /// (`A` closed, `B` counting its members and with `dependentRequired`),
    /// `C` and `D` not (`C`'s tag property has a `pattern`; `D`'s tag value
    /// holds a control character): their objects are read from the start.
    const TAGGED_DEFS: &str = r#""$defs": {
        "A": {"type": "object", "properties": {"type": {"const": "a"}, "x": {"type": "integer"}},
              "required": ["type", "x"], "additionalProperties": false},
        "B": {"properties": {"type": {"type": "string", "enum": ["b"]}, "y": {"type": "string", "minLength": 2}},
              "required": ["type"], "minProperties": 2, "maxProperties": 3, "dependentRequired": {"y": ["z"]}},
        "C": {"properties": {"type": {"const": "c", "pattern": "^c$"}}, "required": ["type"]},
        "D": {"properties": {"type": {"const": "d\n"}}, "required": ["type"]}"#;

    const MEMBERS: &str =
        r##"[{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}, {"$ref": "#/$defs/C"}, {"$ref": "#/$defs/D"}]"##;

    fn tagged_spec(schema: &str) -> ContractSpec {
        let text = format!(r#"{{"name": "t.u", "revision": "1.0.0", "schema": {schema}}}"#);
        ContractSpec::from_slice(text.as_bytes(), "t.json").expect("loads")
    }

    /// The union in an array, under `oneOf`, as an untagged union's member,
    /// under `not` and `if` (membership tests: first-fault sub-walks, and
    /// the finding walks behind a failed union's message), and as the root.
    fn tagged_specs() -> Vec<ContractSpec> {
        let schemas = [
            format!(
                r##"{{{TAGGED_DEFS}}}, "properties": {{"items": {{"type": "array", "items": {{"anyOf": {MEMBERS}}}}},
                    "one": {{"oneOf": [{{"$ref": "#/$defs/A"}}, {{"$ref": "#/$defs/B"}}]}},
                    "wrapped": {{"anyOf": [{{"type": "string"}}, {{"anyOf": {MEMBERS}}}]}},
                    "neg": {{"not": {{"anyOf": {MEMBERS}}}}},
                    "cond": {{"if": {{"anyOf": {MEMBERS}}}, "then": {{"required": ["x"]}}, "else": {{"type": "object"}}}}}}}}"##
            ),
            format!(r#"{{{TAGGED_DEFS}}}, "oneOf": {MEMBERS}}}"#),
        ];
        schemas.iter().map(|s| tagged_spec(s)).collect()
    }

    /// The tags' [`Resume`](crate::contract::schema::Resume)s, member by member.
    fn resumes(schema: &Schema) -> Vec<Vec<bool>> {
        let unions = schema.nodes.iter().flat_map(|n| [n.any_of.as_deref(), n.one_of.as_deref()]).flatten();
        unions.filter_map(|u| u.tag.as_ref()).map(|t| t.resume.iter().map(Option::is_some).collect()).collect()
    }

    /// The way before resumes: with none, the scanner finds every tag and
    /// the member reads the object from its start.
    fn without_resumes(schema: &Schema) -> Schema {
        let mut s = schema.clone();
        for n in &mut s.nodes {
            for u in [n.any_of.as_deref_mut(), n.one_of.as_deref_mut()].into_iter().flatten() {
                if let Some(t) = &mut u.tag {
                    t.resume = Vec::new();
                }
            }
        }
        s
    }

    /// A member object: a tag (first, or among the others), other keys.
    fn tagged(r: &mut Rng, out: &mut String) {
        const TAGS: &[&str] = &[
            r#""type": "a""#,
            r#""type":"b""#,
            "\"type\" \n: \t\"c\"",
            "\"type\" : \"a\"",
            "\"type\"\t:\"b\"",
            r#""type": "zz""#,
            r#""type": "\u0061""#,
            r#""type": 1"#,
            r#""typ\u0065": "a""#,
            r#""type": "b\""#,
            "\"type\": \"d\n\"",
            r#""type": "d\n""#,
        ];
        const OTHERS: &[&str] = &["x", "y", "z", "type", "\\u0078", "w"];
        const VALUES: &[&str] = &["1", "\"s\"", "\"ab\"", "{}", "[]", "null", "true", "\"a\"", "2.5"];
        let n = r.below(4) as usize;
        let at = if r.below(4) == 0 { r.below(n as u64 + 1) as usize } else { 0 };
        let mut parts: Vec<String> = (0..n)
            .map(|_| {
                let key = OTHERS[r.below(OTHERS.len() as u64) as usize];
                format!("\"{key}\": {}", VALUES[r.below(VALUES.len() as u64) as usize])
            })
            .collect();
        parts.insert(at, TAGS[r.below(TAGS.len() as u64) as usize].to_string());
        let (before, inside) = ([" ", "", "\n"][r.below(3) as usize], ["", "", " ", "\n\t"][r.below(4) as usize]);
        out.push_str(&format!("{before}{{{inside}{}}}", parts.join(", ")));
    }

    fn tagged_doc(r: &mut Rng) -> String {
        let mut s = String::new();
        if r.below(3) == 0 {
            tagged(r, &mut s);
        } else {
            s.push_str(r#"{"items": ["#);
            for i in 0..r.below(5) {
                if i > 0 {
                    s.push(',');
                }
                tagged(r, &mut s);
            }
            s.push(']');
            for key in ["one", "wrapped", "neg", "cond"] {
                if r.below(2) == 0 {
                    s.push_str(&format!(r#", "{key}": "#));
                    tagged(r, &mut s);
                }
            }
            s.push('}');
        }
        match r.below(8) {
            0 => s.truncate(r.below(s.len() as u64) as usize),
            1 => s.insert(r.below(s.len() as u64) as usize, [',', '}', '"', ':'][r.below(4) as usize]),
            _ => {}
        }
        s
    }

    /// `on` and `off` give the same answer on `d`: the report of every
    /// mode, `passes`, the first-fault pass in front (forced on and off),
    /// and the watched top-level members.
    fn same_answers(on: &Schema, off: &Schema, bytes: &[u8], keys: &'static [&'static str]) -> bool {
        let d = String::from_utf8_lossy(bytes);
        let a = collect(on, bytes);
        assert_eq!(lines(&a), lines(&collect(off, bytes)), "{d}");
        assert_eq!(passes(on, bytes), passes(off, bytes), "passes {d}");
        assert_eq!(passes(on, bytes), a.is_valid(), "passes vs collect {d}");
        for first in [true, false] {
            assert_eq!(lines(&check_in(on, bytes, &Memo::default(), first)), lines(&a), "first {first}: {d}");
        }
        let (ra, ta) = collect_top(on, bytes, TopMembers::new(keys));
        let (rb, tb) = collect_top(off, bytes, TopMembers::new(keys));
        assert_eq!(lines(&ra), lines(&rb), "collect_top {d}");
        for k in 0..keys.len() {
            assert_eq!(ta.get(bytes, k), tb.get(bytes, k), "top {d}");
        }
        a.is_valid()
    }

    /// A member that reads its object on from a first-key tag gives the
    /// report of a read from the object's start, the scanner finding the tag
    /// (the way before resumes), on random documents: tags first or not,
    /// spaced or not, repeated, escaped, unknown, not strings, with a raw
    /// control character; members closed, counted, with `dependentRequired`;
    /// unions in arrays, under `oneOf`, in membership tests, at the root;
    /// truncated and corrupted bytes.
    #[test]
    fn a_member_read_on_from_its_tag_gives_the_report_read_from_the_start() {
        let specs = tagged_specs();
        // `A` and `B` read on, `C` and `D` do not; five unions in the first
        // schema (`items`, `one`, and the three under membership tests).
        let all = vec![true, true, false, false];
        assert_eq!(resumes(specs[0].walked()), [all.clone(), vec![true, true], all.clone(), all.clone(), all.clone()]);
        assert_eq!(resumes(specs[1].walked()), [all]);
        let pairs: Vec<(&Schema, Schema)> =
            specs.iter().map(|spec| (spec.walked(), without_resumes(spec.walked()))).collect();
        assert!(resumes(&pairs[0].1).iter().all(Vec::is_empty));
        // A tag key that JSON spells with an escape has no resumes: the
        // scanner finds the tag, decoded.
        let escaped = tagged_spec(
            r#"{"anyOf": [
                {"properties": {"t\"": {"const": "a"}, "x": {"type": "integer"}}, "required": ["t\""]},
                {"properties": {"t\"": {"const": "b"}}, "required": ["t\""]}]}"#,
        );
        assert_eq!(resumes(escaped.walked()), [Vec::<bool>::new()]);
        assert!(passes(escaped.walked(), br#"{"t\"": "a", "x": 1}"#));
        assert_eq!(
            lines(&collect(escaped.walked(), br#"{"t\"": "a", "x": "1"}"#)),
            ["ERROR field.type x: expected integer, found string Error"]
        );
        let mut r = Rng(0x7A66_ED00_0B1E_C75D);
        let (mut valid, mut invalid, mut tag_first) = (0, 0, 0);
        for _ in 0..3000 {
            let d = tagged_doc(&mut r);
            // Objects whose first key is the tag (the read-on way's input).
            tag_first +=
                [r#"{"type""#, r#"{ "type""#, "{\n\t\"type\""].iter().map(|t| d.matches(t).count()).sum::<usize>();
            for (on, off) in &pairs {
                if same_answers(on, off, d.as_bytes(), &["type", "x", "items"]) {
                    valid += 1;
                } else {
                    invalid += 1;
                }
            }
        }
        assert!(valid > 300 && invalid > 3000 && tag_first > 5000, "{valid} valid, {invalid} invalid, {tag_first}");
    }

    /// At the limits: a member reached through a chain of `$ref`s around the
    /// 64 applicators one value may chain (past it, the member is not read on
    /// and the read from the start is too deep, as before), and unions nested
    /// around the depth limit of 128.
    #[test]
    fn a_member_read_on_from_its_tag_keeps_the_chain_and_depth_limits() {
        let mut verdicts = Vec::new();
        for hops in 58..=66 {
            let chain: Vec<String> = (0..hops)
                .map(|k| {
                    let to = if k + 1 == hops { "A".to_string() } else { format!("H{}", k + 1) };
                    format!(r##""H{k}": {{"$ref": "#/$defs/{to}"}}"##)
                })
                .collect();
            let defs = TAGGED_DEFS.replacen(r#""$defs": {"#, &format!(r#""$defs": {{{},"#, chain.join(", ")), 1);
            let spec = tagged_spec(&format!(
                r##"{{{defs}}}, "properties": {{"items": {{"type": "array", "items": {{"anyOf": [{{"$ref": "#/$defs/H0"}}, {{"$ref": "#/$defs/B"}}]}}}}}}}}"##
            ));
            let (on, off) = (spec.walked(), without_resumes(spec.walked()));
            let tagged = !resumes(on).is_empty();
            let resumed = resumes(on).first().is_some_and(|r| r[0]);
            let ok = same_answers(
                on,
                &off,
                br#"{"items": [{"type": "a", "x": 1}, {"type": "b", "y": "yy", "z": 0}]}"#,
                &["items"],
            );
            same_answers(
                on,
                &off,
                br#"{"items": [{"type": "a", "x": "1"}, {"type": "a", "type": "a", "x": 1}]}"#,
                &["items"],
            );
            verdicts.push((hops, tagged, resumed, ok));
        }
        // Read on while the chain allows, from the start past it (too deep
        // there, as before), and untagged once the `$ref`s outrun the
        // compiler's search for the tag.
        let expected: Vec<(usize, bool, bool, bool)> = vec![
            (58, true, true, true),
            (59, true, true, true),
            (60, true, true, true),
            (61, true, true, true),
            (62, true, true, true),
            (63, true, true, false),
            (64, false, false, false),
            (65, false, false, false),
            (66, false, false, false),
        ];
        assert_eq!(verdicts, expected);

        let spec = tagged_spec(
            r##"{"$defs": {"U": {"anyOf": [{"$ref": "#/$defs/N"}, {"$ref": "#/$defs/E"}]},
                "N": {"properties": {"type": {"const": "n"}, "next": {"$ref": "#/$defs/U"}}, "required": ["type"]},
                "E": {"properties": {"type": {"const": "e"}}, "required": ["type"], "additionalProperties": false}},
                "$ref": "#/$defs/U"}"##,
        );
        assert_eq!(resumes(spec.walked()), [vec![true, true]]);
        let (on, off) = (spec.walked(), without_resumes(spec.walked()));
        let mut at_limit = Vec::new();
        for n in 120..=132 {
            let d = format!(r#"{}{{"type": "e"}}{}"#, r#"{"type": "n", "next": "#.repeat(n), "}".repeat(n));
            at_limit.push(same_answers(on, &off, d.as_bytes(), &["type"]));
        }
        // Valid up to the depth limit, too deep past it.
        assert_eq!(at_limit.iter().filter(|&&ok| ok).count(), 8, "{at_limit:?}");
        assert!(at_limit[0] && !at_limit[12]);
    }

    /// A contract of `tests/data/contracts/` (imported from the official
    /// MCP and A2A schemas; provenance there).
    fn real_spec(rel: &str) -> ContractSpec {
        let path = format!("{}/../tests/data/contracts/{rel}", env!("CARGO_MANIFEST_DIR"));
        ContractSpec::from_slice(&std::fs::read(&path).expect("the contract file"), rel).expect("loads")
    }

    /// On the real MCP `CallToolResult` and A2A `Message` contracts every
    /// member of the content-block and part unions reads on from its tag,
    /// and bodies built from the specifications' examples (every kind of
    /// block and part) and every one-byte deletion or corruption of them
    /// get the answers of the way before.
    #[test]
    fn real_mcp_and_a2a_members_read_on_from_their_tags() {
        const MCP: &str = r#"{"content": [{"type": "text", "text": "Current weather in New York:\nTemperature: 72°F"}, {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png", "annotations": {"audience": ["user"], "priority": 0.9}}, {"type": "audio", "data": "UklGRiQAAABXQVZF", "mimeType": "audio/wav"}, {"type": "resource_link", "uri": "file:///project/src/main.rs", "name": "main.rs", "mimeType": "text/x-rust"}, {"type": "resource", "resource": {"uri": "file:///project/src/main.rs", "mimeType": "text/x-rust", "text": "fn main() {}"}}, {"type": "resource", "resource": {"uri": "file:///project/docs/report.pdf", "blob": "JVBERi0xLjcK"}}], "structuredContent": {"temperature": 22.5}, "isError": false}"#;
        const A2A: &str = r#"{"kind": "message", "messageId": "9229e770-767c-417b-a0b0-f0741243c589", "role": "user", "parts": [{"kind": "text", "text": "Analyze this image"}, {"kind": "file", "file": {"name": "input_image.png", "mimeType": "image/png", "bytes": "iVBORw0KGgo="}}, {"kind": "file", "file": {"uri": "https://storage.example.com/report.pdf", "mimeType": "application/pdf"}}, {"kind": "data", "data": {"flight": "AA123"}}]}"#;
        for (rel, body, expected) in [
            ("mcp/call_tool_result_2025.6.18.json", MCP, vec![vec![true; 5]]),
            ("a2a/message_0.3.0.json", A2A, vec![vec![true; 3]]),
        ] {
            let spec = real_spec(rel);
            let (on, off) = (spec.walked(), without_resumes(spec.walked()));
            assert_eq!(resumes(on), expected, "{rel}");
            assert!(same_answers(on, &off, body.as_bytes(), &["content", "parts"]), "{rel}: the body is valid");
            let (mut valid, mut invalid) = (0, 0);
            for at in 0..body.len() {
                for change in [None, Some('"'), Some('}'), Some('x')] {
                    let mut d = body.as_bytes().to_vec();
                    match change {
                        None => drop(d.remove(at)),
                        Some(c) => d[at] = c as u8,
                    }
                    if same_answers(on, &off, &d, &["content", "parts"]) {
                        valid += 1;
                    } else {
                        invalid += 1;
                    }
                }
            }
            assert!(valid > 500 && invalid > 900, "{rel}: {valid} valid, {invalid} invalid mutants");
        }
    }

    /// What a member read on from its tag reports: the tag's repeat, the
    /// members it counts (the tag among them), the keys it requires.
    #[test]
    fn a_member_read_on_from_its_tag_counts_and_finds_repeats_of_the_tag() {
        let specs = tagged_specs();
        let schema = specs[0].walked();
        let data = br#"{"items": [{"type": "a", "type": "b", "x": 1}, {"type": "b"}, {"type": "b", "y": "yy", "q": 1, "w": 2}, {"type": "a", "x": 1, "z": 0}], "one": {"type": "b", "y": "yy"}}"#;
        let report = collect(schema, data);
        assert_eq!(lines(&report), lines(&collect(&without_resumes(schema), data)));
        assert_eq!(
            lines(&report),
            [
                "ERROR json.duplicate_key items[0].type: key appears more than once in its object Error",
                "ERROR field.minProperties items[1]: 1 properties is less than minProperties 2 Error",
                "ERROR field.maxProperties items[2]: 4 properties is greater than maxProperties 3 Error",
                "ERROR field.dependentRequired items[2].z: required when 'y' is present (dependentRequired) Error",
                "ERROR field.additionalProperties items[3].z: key is not allowed: the object is closed (additionalProperties: false) Error",
                "ERROR field.dependentRequired one.z: required when 'y' is present (dependentRequired) Error",
            ]
        );
    }

    /// The recent bodies decide the first-fault pass: more than six with
    /// findings among the last 32 turn it off, and it comes back once they
    /// have moved out of the window.
    #[test]
    fn bodies_with_findings_lately_skip_the_first_fault_pass() {
        let spec = ContractSpec::from_slice(
            br#"{"name": "t.r", "revision": "1.0.0", "schema": {"type": "object", "required": ["a"]}}"#,
            "t.json",
        )
        .expect("loads");
        let schema = spec.walked();
        let (good, bad) = (br#"{"a": 1}"#.as_slice(), br#"{}"#.as_slice());
        let passes = || FIRST_PASSES.with(std::cell::Cell::get);
        // Whether `check` and `collect_top` each ran the first-fault pass.
        let ran = |body: &[u8]| {
            let before = passes();
            let report = check(schema, body);
            let by_check = passes() - before;
            let (top_report, _) = collect_top(schema, body, TopMembers::new(&["a"]));
            assert_eq!(lines(&report), lines(&top_report));
            (by_check, passes() - before - by_check)
        };
        assert_eq!(ran(good), (1, 1));
        assert_eq!(lines(&check(schema, bad)), ["ERROR field.required a: required field is missing Error"]);
        for _ in 0..40 {
            check(schema, good);
        }
        assert!(Recent::first());
        for _ in 0..6 {
            check(schema, bad);
        }
        assert!(Recent::first(), "six in 32 keep it");
        assert_eq!(ran(bad), (1, 0), "the seventh takes it; then the eighth (collect_top's) does not");
        assert!(!Recent::first(), "seven turn it off");
        for _ in 0..23 {
            check(schema, good);
        }
        assert_eq!(ran(good), (0, 0), "the eight are still among the last 32");
        assert_eq!(ran(good), (0, 1), "the oldest has left the window");
        assert!(Recent::first());
    }
}
