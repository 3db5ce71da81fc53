//! The machinery the schema walk (`walk/schema/`, which judges the bodies
//! of both forms: a fields-form contract is lowered into the same schema
//! graph) drives, generic over its [`Mode`]: the scanner, path frames,
//! `skip`, the duplicate-key stacks and `uniqueItems` spans.
//!
//! - [`Collect`] (a collecting mode of the schema walk): every finding, with
//!   its path; paths are stack frames rendered to text only when a finding is
//!   made.
//! - The schema walk's own modes (`walk/schema/mode.rs`): first-fault and
//!   lean collecting.
//!
//! A walk never recurses past [`MAX_DEPTH`]: deeper data is a `json.depth`
//! finding (collect) or a fault (first-fault). The keys of the objects being
//! read (undeclared ones: declared keys have seen-bits) and the element spans
//! of the `uniqueItems` arrays being read share two stacks, reused from call
//! to call through a thread-local pool.

pub(crate) mod schema;

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashSet;
use std::fmt::Write as _;

use crate::contract::JsonType;
use crate::json::scan::{line_col, Kind, Scanner, SyntaxError};
use crate::json::text::Str;
use crate::json::MAX_DEPTH;
use crate::keywords::{depth, duplicate, unique};
use crate::report::{Finding, Report, DATA_FIELD};
use crate::rules;
use crate::rules::Rule;

/// Undeclared keys of one object compared pairwise up to this many; past it
/// a walk switches to a hash set (a generated validator, which keeps no
/// set, gives up).
pub(crate) const LINEAR_KEYS: usize = 32;

/// What one object remembers of its undeclared keys besides the walk's key
/// stack: a 64-bit filter (a bit per key, picked from its length and its
/// first and last bytes), so that a key whose bit is still clear is new
/// without comparing it with the others (the comparisons' loop, whose
/// length changes with every key, cost branch mispredictions); past
/// [`LINEAR_KEYS`] keys, a hash set.
#[derive(Debug, Default)]
pub(crate) struct Others {
    filter: u64,
    many: Option<HashSet<String>>,
}

impl Others {
    /// For a caller that does not keep the object's state between keys:
    /// every key compared with the others.
    pub(crate) fn unfiltered() -> Self {
        Others { filter: u64::MAX, many: None }
    }

    /// The filter's bit of an unescaped key.
    #[inline(always)]
    fn bit(raw: &[u8]) -> u64 {
        let (first, last) = match raw {
            [] => (0, 0),
            [f, .., l] => (*f, *l),
            [f] => (*f, *f),
        };
        let h = raw.len() ^ usize::from(first).wrapping_mul(5) ^ usize::from(last).wrapping_mul(11);
        1 << (h & 63)
    }
}

/// A key of an object being read: where its raw text sits in the input.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeyRef {
    offset: usize,
    len: usize,
    escaped: bool,
}

type Spans = Vec<(usize, usize)>;

thread_local! {
    /// The key and span stacks, reused from call to call: a valid document
    /// costs no allocation once a thread has read one of its size.
    static POOL: Cell<(Vec<KeyRef>, Spans)> = const { Cell::new((Vec::new(), Vec::new())) };
}

/// Why a walk in collect mode stopped early.
#[derive(Debug)]
pub(crate) enum Stop {
    Syntax(SyntaxError),
    /// Nesting past [`MAX_DEPTH`] (the mode keeps the path).
    Depth,
}

impl From<SyntaxError> for Stop {
    #[inline]
    fn from(e: SyntaxError) -> Self {
        Stop::Syntax(e)
    }
}

/// Why a first-fault walk stopped: a fault or a syntax fault; it carries
/// nothing, so results stay one byte wide.
#[derive(Debug)]
pub(crate) struct Fail;

impl From<SyntaxError> for Fail {
    #[inline(always)]
    fn from(_: SyntaxError) -> Self {
        Fail
    }
}

/// What a walk does with a fault.
pub(crate) trait Mode {
    /// Why a walk stops early.
    type Stop: From<SyntaxError>;

    /// Whether faults become findings with messages (collect mode).
    const COLLECTS: bool;

    /// The stop of a walk that ends without a fault of its own (a memoised
    /// verdict that failed; never reached in collect mode).
    fn give_up() -> Self::Stop;

    /// A rule failed at `path`; `message` is called only if a finding is
    /// made (a fixed sentence is not copied: `Into<Cow<'static, str>>`).
    fn fault<T: Message>(
        &mut self,
        rule: &'static Rule,
        path: &Path<'_, '_>,
        message: impl FnOnce() -> T,
    ) -> Result<(), Self::Stop>;

    /// The walk is about to nest past [`MAX_DEPTH`] at `path`.
    fn too_deep(&mut self, path: &Path<'_, '_>) -> Self::Stop;

    /// The path frame the walk goes on with: a first-fault mode keeps none
    /// (its frames are never read), so none is built.
    fn frame<'f, 'p, 'a>(frame: &'f Path<'p, 'a>) -> &'f Path<'p, 'a>;

    /// Findings worked out once for a (schema node, value) pair and met
    /// again by another route: a collecting mode keeps them, the others
    /// have stopped at the first fault already.
    fn replay(&mut self, _found: Vec<Finding>) {}
}

/// A finding's message: a fixed sentence (`&'static str`, not copied) or a
/// built one (`String`).
pub(crate) trait Message: Into<Cow<'static, str>> {}

impl<T: Into<Cow<'static, str>>> Message for T {}

/// Every finding, with its path.
#[derive(Default)]
pub(crate) struct Collect {
    pub findings: Vec<Finding>,
    /// Where the walk went too deep.
    pub depth_at: Option<String>,
}

impl Mode for Collect {
    type Stop = Stop;
    const COLLECTS: bool = true;

    /// Never called: a collecting mode replays memoised findings instead.
    /// Were it reached, the report would be a `json.depth` finding, never a
    /// pass.
    fn give_up() -> Stop {
        Stop::Depth
    }

    #[inline]
    fn fault<T: Message>(
        &mut self,
        rule: &'static Rule,
        path: &Path<'_, '_>,
        message: impl FnOnce() -> T,
    ) -> Result<(), Stop> {
        record(&mut self.findings, rule, path, message);
        Ok(())
    }

    fn too_deep(&mut self, path: &Path<'_, '_>) -> Stop {
        self.depth_at = Some(path.render());
        Stop::Depth
    }

    #[inline(always)]
    fn frame<'f, 'p, 'a>(frame: &'f Path<'p, 'a>) -> &'f Path<'p, 'a> {
        frame
    }

    fn replay(&mut self, found: Vec<Finding>) {
        self.findings.extend(found);
    }
}

/// Where the walk is, as a chain of stack frames.
#[derive(Clone, Copy)]
pub(crate) enum Path<'p, 'a> {
    Root,
    Key(&'p Path<'p, 'a>, Str<'a>),
    Name(&'p Path<'p, 'a>, &'p str),
    Index(&'p Path<'p, 'a>, usize),
}

impl Path<'_, '_> {
    pub(crate) fn render(&self) -> String {
        if let Path::Root = self {
            return DATA_FIELD.to_string();
        }
        // Room for most paths: one allocation, not one per key.
        let mut out = String::with_capacity(32);
        self.write(&mut out);
        out
    }

    /// Appends `key` below this path: `.key` for a plain key, `["key"]`
    /// (JSON string escaping) for any other, so that a key holding a dot
    /// reads as one key and a control character cannot forge output lines.
    fn write_key(&self, out: &mut String, key: &str) {
        if is_plain(key.as_bytes()) {
            self.write_plain(out, key.as_bytes());
        } else {
            self.write(out);
            crate::contract::push_key(out, matches!(self, Path::Root), key);
        }
    }

    /// Appends `.key` (`key` at the root) for a plain key ([`is_plain`]).
    fn write_plain(&self, out: &mut String, key: &[u8]) {
        debug_assert!(is_plain(key));
        self.write(out);
        if !matches!(self, Path::Root) {
            out.push('.');
        }
        // SAFETY: every byte is printable ASCII (`is_plain`), so the string
        // stays valid UTF-8.
        unsafe { out.as_mut_vec() }.extend_from_slice(key);
    }

    fn write(&self, out: &mut String) {
        match self {
            Path::Root => {}
            // A plain key read as it is, without decoding or a UTF-8 check.
            Path::Key(parent, key) if !key.is_escaped() && is_plain(key.raw()) => parent.write_plain(out, key.raw()),
            Path::Key(parent, key) => parent.write_key(out, &key.decode()),
            Path::Name(parent, key) => parent.write_key(out, key),
            Path::Index(parent, i) => {
                parent.write(out);
                // Into the path itself: no string per index.
                let _ = write!(out, "[{i}]");
            }
        }
    }
}

/// Whether `key` is written as it is in a path: not empty, printable ASCII
/// without a path character (most keys; `contract::is_plain_key` agrees).
fn is_plain(key: &[u8]) -> bool {
    // A table and no early exit: a rendered path reads each of its keys'
    // bytes here, on every finding of an invalid body.
    !key.is_empty() && key.iter().fold(true, |plain, &b| plain & PLAIN[usize::from(b)])
}

/// [`is_plain`]'s bytes: printable ASCII but the path characters.
static PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0x20;
    while b <= 0x7e {
        t[b] = !matches!(b as u8, b'.' | b'[' | b']' | b'{' | b'}' | b'"' | b'\\');
        b += 1;
    }
    t
};

/// Which of a node's properties (or required keys) an object has shown
/// (bits in a word up to 64, allocated flags past that: a shift of a `u128`
/// costs several instructions more, and the object walk sets and tests a
/// few bits per key).
pub(crate) enum Seen {
    Bits(u64),
    Many(Vec<bool>),
}

impl Seen {
    #[inline]
    pub(crate) fn new(n: usize) -> Self {
        if n <= 64 {
            Seen::Bits(0)
        } else {
            Seen::Many(vec![false; n])
        }
    }

    #[inline]
    pub(crate) fn set(&mut self, i: usize) {
        match self {
            Seen::Bits(b) => *b |= 1 << i,
            Seen::Many(v) => v[i] = true,
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> bool {
        match self {
            Seen::Bits(b) => b & (1 << i) != 0,
            Seen::Many(v) => v[i],
        }
    }
}

/// The walker: the scanner, the shared stacks and the mode.
pub(crate) struct Walk<'a, M> {
    pub(crate) s: Scanner<'a>,
    /// Undeclared keys of every object being read, innermost last.
    keys: Vec<KeyRef>,
    /// Element spans of the `uniqueItems` arrays being read.
    spans: Spans,
    pub(crate) mode: M,
}

impl<'a, M: Mode> Walk<'a, M> {
    /// A walk over `bytes`.
    #[inline(always)]
    pub(crate) fn new(bytes: &'a [u8], mode: M) -> Self {
        let (keys, spans) = POOL.with(|p| p.take());
        Walk { s: Scanner::new(bytes), keys, spans, mode }
    }

    /// A walk in another mode over the same bytes, from `start`, on this
    /// walk's stacks (no allocation, no pool round trip): a membership test
    /// of the schema walk. Hand it back with [`Walk::give_back`].
    #[inline]
    pub(crate) fn lend<N: Mode>(&mut self, start: usize, mode: N) -> Walk<'a, N> {
        let mut s = Scanner::new(self.s.bytes());
        s.seek(start);
        let keys = std::mem::take(&mut self.keys);
        let spans = std::mem::take(&mut self.spans);
        Walk { s, keys, spans, mode }
    }

    /// Takes back the stacks lent to `sub` (as they were when lent: a walk
    /// that stopped early may have left entries) and returns its mode.
    #[inline]
    pub(crate) fn give_back<N: Mode>(&mut self, sub: Walk<'a, N>, keys: usize, spans: usize) -> N {
        let Walk { keys: mut k, spans: mut sp, mode, .. } = sub;
        k.truncate(keys);
        sp.truncate(spans);
        self.keys = k;
        self.spans = sp;
        mode
    }

    /// Drops the keys and spans recorded past `keys` and `spans` (a walk
    /// that stopped early, read again from an earlier point).
    #[inline]
    pub(crate) fn truncate(&mut self, keys: usize, spans: usize) {
        self.keys.truncate(keys);
        self.spans.truncate(spans);
    }

    /// Ends the walk: the stacks go back to the pool.
    #[inline(always)]
    pub(crate) fn finish(self) -> M {
        let Walk { mut keys, mut spans, mode, .. } = self;
        keys.clear();
        spans.clear();
        POOL.with(|p| p.set((keys, spans)));
        mode
    }

    /// Reads a number and tells its type (`1.0` and `1e2` are integers),
    /// making its value only when it is not written as a plain integer.
    #[inline]
    pub(crate) fn integer(&mut self) -> Result<JsonType, M::Stop> {
        let start = self.s.offset();
        if self.s.skip_number()? {
            return Ok(JsonType::Integer);
        }
        let mut again = Scanner::new(&self.s.bytes()[start..self.s.offset()]);
        Ok(if again.number()?.is_integer() { JsonType::Integer } else { JsonType::Number })
    }

    /// Reads a value nothing constrains, still checking syntax, depth and
    /// duplicate keys (its type is the peeked kind: no number is made).
    pub(crate) fn skip(&mut self, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        match self.s.peek_kind()? {
            Kind::Object => self.skip_object(path, depth),
            Kind::Array => self.skip_array(path, depth),
            kind => self.skip_scalar(kind),
        }
    }

    /// A member's or an element's value in a skipped container: a scalar
    /// read here, in the container's loop, a container by [`Self::skip`].
    #[inline(always)]
    fn skip_inner(&mut self, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        match self.s.peek_kind()? {
            Kind::Object | Kind::Array => self.skip(path, depth),
            kind => self.skip_scalar(kind),
        }
    }

    /// The scalar of `kind` here (just peeked), read and not kept.
    #[inline(always)]
    fn skip_scalar(&mut self, kind: Kind) -> Result<(), M::Stop> {
        match kind {
            Kind::String => {
                self.s.string()?;
            }
            Kind::Number => {
                self.s.skip_number()?;
            }
            // A container never comes here; read as a literal, it would be
            // refused as one.
            Kind::Bool | Kind::Null | Kind::Object | Kind::Array => {
                self.s.literal()?;
            }
        }
        Ok(())
    }

    /// An object nothing constrains: every key is undeclared.
    pub(crate) fn skip_object(&mut self, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        if depth >= MAX_DEPTH {
            return Err(self.mode.too_deep(path));
        }
        self.s.object_start();
        let base = self.keys.len();
        let mut others = Others::default();
        let mut first = true;
        while let Some(key) = self.s.object_key(first)? {
            first = false;
            let key_frame = Path::Key(path, key);
            let here = M::frame(&key_frame);
            if self.other_repeats(base, key.raw(), key.offset(), key.is_escaped(), &mut others)? {
                self.repeated(here, depth)?;
            } else {
                self.skip_inner(here, depth + 1)?;
            }
        }
        self.keys.truncate(base);
        Ok(())
    }

    /// An array nothing constrains.
    fn skip_array(&mut self, path: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        if depth >= MAX_DEPTH {
            return Err(self.mode.too_deep(path));
        }
        self.s.array_start();
        let mut count = 0usize;
        while self.s.array_next(count == 0)? {
            let index_frame = Path::Index(path, count);
            self.skip_inner(M::frame(&index_frame), depth + 1)?;
            count += 1;
        }
        Ok(())
    }

    /// `json.duplicate_key` at `here`; the repeated value is read unchecked.
    fn repeated(&mut self, here: &Path<'_, 'a>, depth: usize) -> Result<(), M::Stop> {
        self.mode.fault(rules::JSON_DUPLICATE_KEY, here, || duplicate::MESSAGE)?;
        self.skip(here, depth + 1)?;
        Ok(())
    }

    /// Records an undeclared `key` of the object whose keys start at `base`,
    /// telling whether it was there already.
    #[inline]
    pub(crate) fn other_repeats(
        &mut self,
        base: usize,
        // The key's raw text, offset and escape flag, rather than the `Str`
        // itself: scalars travel in registers (a `Str` argument went through
        // the stack at odd offsets and stalled store forwarding).
        raw: &'a [u8],
        offset: usize,
        escaped: bool,
        others: &mut Others,
    ) -> Result<bool, M::Stop> {
        let key = || Str::new(raw, escaped, offset);
        if let Some(set) = &mut others.many {
            return Ok(!set.insert(key().decode().into_owned()));
        }
        let bytes = self.s.bytes();
        let stored = |k: &KeyRef| Str::new(&bytes[k.offset..k.offset + k.len], k.escaped, k.offset);
        // An escaped key is compared with every other, and every later key
        // with it (the filter knows raw bytes, not decoded text).
        let bit = if escaped { u64::MAX } else { Others::bit(raw) };
        let fresh = others.filter & bit == 0;
        others.filter |= bit;
        let repeat = !fresh
            && self.keys[base..].iter().any(|k| {
                if !escaped && !k.escaped {
                    k.len == raw.len() && &bytes[k.offset..k.offset + k.len] == raw
                } else {
                    same_key(&stored(k), &key())
                }
            });
        if repeat {
            return Ok(true);
        }
        if self.keys.len() - base >= LINEAR_KEYS {
            let mut set: HashSet<String> = self.keys[base..].iter().map(|k| stored(k).decode().into_owned()).collect();
            set.insert(key().decode().into_owned());
            others.many = Some(set);
            return Ok(false);
        }
        self.keys.push(KeyRef { offset, len: raw.len(), escaped });
        Ok(false)
    }

    /// Leaves an object whose undeclared keys start at `base` (for callers
    /// that read the object themselves: generated code).
    #[inline]
    pub(crate) fn end_object(&mut self, base: usize) {
        self.keys.truncate(base);
    }

    #[inline]
    pub(crate) fn keys_base(&self) -> usize {
        self.keys.len()
    }

    /// The start of the element spans of the array being read.
    #[inline]
    pub(crate) fn spans_base(&self) -> usize {
        self.spans.len()
    }

    /// Records the element that started at `start` and has just been read.
    #[inline]
    pub(crate) fn span(&mut self, start: usize) {
        let end = self.s.offset();
        self.spans.push((start, end));
    }

    /// `uniqueItems` over the elements recorded since `base`.
    pub(crate) fn unique(&mut self, base: usize, path: &Path<'_, '_>) -> Result<(), M::Stop> {
        let bytes = self.s.bytes();
        let spans = &self.spans[base..];
        // Few scalars are compared pairwise without allocating; a repeat
        // (whose first pair is looked for in element order), an object or
        // array among them, or many elements go through canonical text.
        let repeat = match unique::is_valid(bytes, spans) {
            Some(true) => None,
            _ => unique::first_repeat(bytes, spans)?,
        };
        self.spans.truncate(base);
        if let Some((i, j)) = repeat {
            self.mode.fault(rules::FIELD_UNIQUE_ITEMS, path, || unique::message(i, j))?;
        }
        Ok(())
    }
}

#[inline]
fn same_key(a: &Str<'_>, b: &Str<'_>) -> bool {
    if !a.is_escaped() && !b.is_escaped() {
        a.raw() == b.raw()
    } else {
        a.chars().eq(b.chars())
    }
}

/// A finding at `path` written into `findings`: what every collecting mode does.
#[inline]
pub(crate) fn record<T: Message>(
    findings: &mut Vec<Finding>,
    rule: &'static Rule,
    path: &Path<'_, '_>,
    message: impl FnOnce() -> T,
) {
    findings.push(Finding::new(rule, path.render(), message()));
}

/// The report of a collect walk that ended with `outcome`.
pub(crate) fn report(data: &[u8], outcome: Result<(), Stop>, mode: Collect) -> Report {
    match outcome {
        Ok(()) => Report::new(mode.findings),
        Err(Stop::Syntax(e)) => {
            let (line, column) = line_col(data, e.offset);
            let msg = format!("line {line}, column {column}: {}", e.kind.message());
            Report::new(vec![Finding::new(rules::JSON_SYNTAX, DATA_FIELD, msg)])
        }
        Err(Stop::Depth) => {
            let field = mode.depth_at.unwrap_or_else(|| DATA_FIELD.to_string());
            Report::new(vec![Finding::new(rules::JSON_DEPTH, field, depth::message())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of plain key bytes is the set its doc names, byte for byte.
    #[test]
    fn plain_key_bytes_are_printable_ascii_but_path_characters() {
        for b in 0..=255u8 {
            let expected = (0x20..=0x7e).contains(&b) && !b".[]{}\"\\".contains(&b);
            assert_eq!(PLAIN[usize::from(b)], expected, "byte {b:#04x}");
            assert_eq!(is_plain(&[b'a', b, b'z']), expected, "byte {b:#04x} inside a key");
        }
        assert!(!is_plain(b""));
        assert!(is_plain(b"params"));
    }

    /// A raw key read as it is (plain ASCII), decoded (escaped, not ASCII)
    /// or bracketed (a path character, a control character): each reads as
    /// the decoded key would.
    #[test]
    fn path_keys_render_as_their_decoded_text() {
        let key = |raw: &'static str, escaped| Str::new(raw.as_bytes(), escaped, 0);
        let params = Path::Key(&Path::Root, key("params", false));
        let cases = [
            (key("name", false), "params.name"),
            (key("na\\u006de", true), "params.name"),
            (key("é", false), "params.é"),
            (key("a.b", false), "params[\"a.b\"]"),
            (key("a\\nb", true), "params[\"a\\nb\"]"),
        ];
        for (k, shown) in cases {
            assert_eq!(Path::Key(&params, k).render(), shown);
        }
        assert_eq!(params.render(), "params");
        assert_eq!(Path::Index(&Path::Key(&params, key("xs", false)), 2).render(), "params.xs[2]");
        assert_eq!(Path::Root.render(), DATA_FIELD);
    }
}
