//! The one-pass check in front of the validator: its building blocks, which
//! the validators `#[protocolarc::contract]` generates call
//! (`codegen/validator.rs` writes that code), and the same check
//! interpreted from a contract loaded at run time ([`ContractSpec::passes`]),
//! which `ContractSpec::validate_json` runs first.
//!
//! The check is a fast path in front of the finding engine (`validate.rs`): it
//! walks the bytes once, checking keys, types, enums and constraints (in
//! generated code: a compiled key `match` and constants), and it answers only
//! "certainly no finding". Whatever it cannot be sure of (any violation or
//! syntax fault, an escaped key or enum string, a `uniqueItems` array it
//! cannot compare cheaply, more than 32 undeclared keys in one object,
//! nesting at the depth limit) makes it give up, and the body goes to the
//! finding engine, which writes the findings. The findings are therefore
//! the engine's by construction, and a valid body costs one pass and no
//! allocation.
//!
//! The [`Cursor`] methods return `Option`: `None` means "give up", never
//! "invalid". The rule functions ([`string`], [`number`], [`pattern`])
//! return whether a value passes every rule of its field.

use std::cell::Cell;

use crate::contract::tree::Node;
use crate::contract::{ContractSpec, FieldSpec, JsonType, Scalar};
pub use crate::json::scan::Kind;
use crate::json::scan::Scanner;
pub use crate::json::text::Str;
use crate::json::MAX_DEPTH;
use crate::validate::{in_number_enum, number_faults, Seen};

pub use crate::json::number::Num;

/// Undeclared keys of one object compared pairwise up to this many; more
/// goes to the runtime engine (which switches to a hash set).
const MAX_OTHER_KEYS: usize = 32;

/// Elements of a `uniqueItems` array compared pairwise up to this many.
const MAX_UNIQUE: usize = 32;

/// Byte ranges in the input: (offset, length) of keys, (start, end) of elements.
type Ranges = Vec<(usize, usize)>;

thread_local! {
    /// The key and span stacks, reused from call to call.
    static POOL: Cell<(Ranges, Ranges)> = const { Cell::new((Vec::new(), Vec::new())) };
}

/// Where a generated validator is in the bytes, plus the stacks it shares
/// between nesting levels.
pub struct Cursor<'a> {
    s: Scanner<'a>,
    /// The undeclared keys of every object being read: (offset, length).
    keys: Ranges,
    /// Element spans of the `uniqueItems` arrays being read: (start, end).
    spans: Ranges,
}

/// Runs a generated root check over `bytes`: `true` only when the whole
/// document was read and the check found nothing to report.
pub fn run(bytes: &[u8], root: impl FnOnce(&mut Cursor<'_>) -> Option<()>) -> bool {
    let (keys, spans) = POOL.with(|p| p.take());
    let mut c = Cursor { s: Scanner::new(bytes), keys, spans };
    let ok = root(&mut c).is_some() && c.s.finish().is_ok();
    let Cursor { mut keys, mut spans, .. } = c;
    keys.clear();
    spans.clear();
    POOL.with(|p| p.set((keys, spans)));
    ok
}

impl<'a> Cursor<'a> {
    /// The kind of the next value.
    #[inline]
    pub fn kind(&mut self) -> Option<Kind> {
        self.s.peek_kind().ok()
    }

    #[inline]
    pub fn string(&mut self) -> Option<Str<'a>> {
        self.s.string().ok()
    }

    #[inline]
    pub fn number(&mut self) -> Option<Num<'a>> {
        self.s.number().ok()
    }

    /// Reads a number and tells whether it is an integer (`1.0` and `1e2`
    /// are), making its value only when it is not written as one.
    #[inline]
    pub fn integer(&mut self) -> Option<bool> {
        let start = self.s.offset();
        if self.s.skip_number().ok()? {
            return Some(true);
        }
        let mut again = Scanner::new(&self.s.bytes()[start..self.s.offset()]);
        Some(again.number().ok()?.is_integer())
    }

    /// Reads a number nothing constrains.
    #[inline]
    pub fn any_number(&mut self) -> Option<()> {
        self.s.skip_number().ok().map(drop)
    }

    /// `true`, `false` (`Some`) or `null` (`None`).
    #[inline]
    pub fn literal(&mut self) -> Option<Option<bool>> {
        self.s.literal().ok()
    }

    /// Enters the object that starts here (its kind already read) at
    /// `depth`; returns the base of its undeclared keys.
    #[inline]
    pub fn object(&mut self, depth: usize) -> Option<usize> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.s.object_start();
        Some(self.keys.len())
    }

    /// The next key of the current object, unescaped; `None` inside at `}`.
    /// An escaped key gives up.
    #[inline(always)]
    pub fn key(&mut self, first: &mut bool) -> Option<Option<&'a [u8]>> {
        let key = self.s.object_key(*first).ok()?;
        *first = false;
        match key {
            Some(k) if k.is_escaped() => None,
            Some(k) => Some(Some(k.raw())),
            None => Some(None),
        }
    }

    /// A key the object's node does not declare, and its value: gives up
    /// on a repeat of another undeclared key of the same object.
    #[inline]
    pub fn other(&mut self, base: usize, key: &'a [u8], depth: usize) -> Option<()> {
        let bytes = self.s.bytes();
        let others = &self.keys[base..];
        if others.len() >= MAX_OTHER_KEYS || others.iter().any(|&(at, len)| &bytes[at..at + len] == key) {
            return None;
        }
        // `key` is a slice of `bytes` (from `key()`): its offset is the distance.
        let at = key.as_ptr() as usize - bytes.as_ptr() as usize;
        self.keys.push((at, key.len()));
        self.skip(depth)
    }

    /// Leaves the object whose undeclared keys start at `base`.
    #[inline]
    pub fn end_object(&mut self, base: usize) {
        self.keys.truncate(base);
    }

    /// Enters the array that starts here at `depth`.
    #[inline]
    pub fn array(&mut self, depth: usize) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.s.array_start();
        Some(())
    }

    /// Moves to the next element; `false` at `]`. `count` is the number of
    /// elements read so far.
    #[inline]
    pub fn next(&mut self, count: usize) -> Option<bool> {
        self.s.array_next(count == 0).ok()
    }

    /// A value nothing constrains: syntax, depth and duplicate keys only.
    pub fn skip(&mut self, depth: usize) -> Option<()> {
        match self.kind()? {
            Kind::String => {
                self.string()?;
            }
            Kind::Number => self.any_number()?,
            Kind::Bool | Kind::Null => {
                self.literal()?;
            }
            Kind::Object => {
                let base = self.object(depth)?;
                let mut first = true;
                while let Some(key) = self.key(&mut first)? {
                    self.other(base, key, depth + 1)?;
                }
                self.end_object(base);
            }
            Kind::Array => {
                self.array(depth)?;
                let mut count = 0;
                while self.next(count)? {
                    self.skip(depth + 1)?;
                    count += 1;
                }
            }
        }
        Some(())
    }

    /// The base of the element spans of a `uniqueItems` array.
    #[inline]
    pub fn spans(&self) -> usize {
        self.spans.len()
    }

    /// The offset where the next value starts.
    #[inline]
    pub fn at(&mut self) -> Option<usize> {
        self.kind()?;
        Some(self.s.offset())
    }

    /// Records the element that started at `start` and has just been read.
    #[inline]
    pub fn span(&mut self, start: usize) {
        let end = self.s.offset();
        self.spans.push((start, end));
    }

    /// Whether the elements recorded since `base` are pairwise distinct by
    /// JSON equality; gives up on an object or array among two or more
    /// elements, or on many elements.
    pub fn distinct(&mut self, base: usize) -> Option<()> {
        let bytes = self.s.bytes();
        let items = &self.spans[base..];
        if items.len() > MAX_UNIQUE {
            return None;
        }
        for (i, &span) in items.iter().enumerate().skip(1) {
            let item = scalar(bytes, span)?;
            for &earlier in &items[..i] {
                if same(&scalar(bytes, earlier)?, &item) {
                    return None;
                }
            }
        }
        self.spans.truncate(base);
        Some(())
    }
}

/// A scalar array element, for `uniqueItems`.
enum Item<'a> {
    Text(Str<'a>),
    Number(Num<'a>),
    Literal(&'a [u8]),
}

/// The element at `span` (already read, so known to be well formed).
fn scalar(bytes: &[u8], (start, end): (usize, usize)) -> Option<Item<'_>> {
    let mut s = Scanner::new(&bytes[start..end]);
    Some(match s.peek_kind().ok()? {
        Kind::String => Item::Text(s.string().ok()?),
        Kind::Number => Item::Number(s.number().ok()?),
        Kind::Bool | Kind::Null => Item::Literal(&bytes[start..end]),
        Kind::Object | Kind::Array => return None,
    })
}

fn same(a: &Item<'_>, b: &Item<'_>) -> bool {
    match (a, b) {
        (Item::Text(a), Item::Text(b)) if !a.is_escaped() && !b.is_escaped() => a.raw() == b.raw(),
        (Item::Text(a), Item::Text(b)) => a.chars().eq(b.chars()),
        (Item::Number(a), Item::Number(b)) => a.dec().compare(&b.dec()).is_eq(),
        (Item::Literal(a), Item::Literal(b)) => a == b,
        _ => false,
    }
}

/// Whether a string passes every string rule of the field: enum (an escaped
/// string gives up), lengths, pattern.
pub fn string(field: &FieldSpec, s: &Str<'_>) -> bool {
    if let Some(values) = &field.enum_values {
        if s.is_escaped() || !values.iter().any(|v| matches!(v, Scalar::String(t) if t.as_bytes() == s.raw())) {
            return false;
        }
    }
    let c = &field.constraints;
    if c.min_length.is_some() || c.max_length.is_some() {
        let len = chars(s);
        if c.min_length.is_some_and(|m| len < m) || c.max_length.is_some_and(|m| len > m) {
            return false;
        }
    }
    pattern(field, s)
}

/// The number of characters in a string, as `minLength`/`maxLength` count.
#[inline]
pub fn chars(s: &Str<'_>) -> u64 {
    s.char_count() as u64
}

/// Whether a string matches the field's `pattern` (as the runtime tests it).
pub fn pattern(field: &FieldSpec, s: &Str<'_>) -> bool {
    field.constraints.pattern.as_ref().is_none_or(|p| p.matches(s))
}

/// Whether a number passes every number rule of the field: enum, bounds,
/// `multipleOf` (exact decimal arithmetic, the finding engine's own tests).
pub fn number(field: &FieldSpec, n: &Num<'_>) -> bool {
    let v = n.dec();
    field.enum_values.as_deref().is_none_or(|values| in_number_enum(values, &v))
        && number_faults(&field.constraints, &v).iter().all(Option::is_none)
}

/// The value of a plain integer literal (no fraction, no exponent, at most
/// 18 digits), for bounds compiled into the generated code.
#[inline]
pub fn small_int(n: &Num<'_>) -> Option<i64> {
    let raw = n.raw().as_bytes();
    let (neg, digits) = match raw.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, raw),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(d - b'0');
    }
    Some(if neg { -v } else { v })
}

impl ContractSpec {
    /// The one-pass check, interpreted from the contract's path tree: `true`
    /// only when the body has no finding at all, `false` when it could not
    /// be sure (then the finding engine decides).
    pub fn passes(&self, data: &[u8]) -> bool {
        let walk = Interpreted { spec: self };
        run(data, |c| match c.kind()? {
            Kind::Object => walk.object(c, &self.tree, 0, self.strict),
            _ => None,
        })
    }
}

/// What `codegen/validator.rs` compiles, read from the tree at run time.
struct Interpreted<'c> {
    spec: &'c ContractSpec,
}

impl Interpreted<'_> {
    fn object(&self, c: &mut Cursor<'_>, node: &Node, depth: usize, strict: bool) -> Option<()> {
        let base = c.object(depth)?;
        let mut seen = Seen::new(node.keys.len());
        let mut first = true;
        while let Some(key) = c.key(&mut first)? {
            match node.child_raw(key) {
                Some(i) => {
                    if seen.get(i) {
                        return None;
                    }
                    seen.set(i);
                    self.value(c, Some(&node.keys[i].node), depth + 1)?;
                }
                None if strict => return None,
                None => c.other(base, key, depth + 1)?,
            }
        }
        c.end_object(base);
        let missing = node.keys.iter().enumerate().any(|(i, k)| k.node.required && !seen.get(i));
        (!missing).then_some(())
    }

    fn value(&self, c: &mut Cursor<'_>, node: Option<&Node>, depth: usize) -> Option<()> {
        let Some(node) = node else { return c.skip(depth) };
        let Some(index) = node.field else { return self.implied(c, node, depth) };
        let f = &self.spec.fields[index];
        let (t, scalar_enum) = (f.types, f.enum_values.is_some());
        let ok = match c.kind()? {
            Kind::String if t.accepts(JsonType::String) => string(f, &c.string()?),
            Kind::Number if t.accepts(JsonType::Integer) => {
                let any = t.contains(JsonType::Number);
                let c2 = &f.constraints;
                let plain = !scalar_enum
                    && [&c2.minimum, &c2.exclusive_minimum, &c2.maximum, &c2.exclusive_maximum, &c2.multiple_of]
                        .iter()
                        .all(|b| b.is_none());
                match (plain, any) {
                    (true, true) => c.any_number().is_some(),
                    (true, false) => c.integer()?,
                    (false, _) => {
                        let n = c.number()?;
                        (any || n.is_integer()) && number(f, &n)
                    }
                }
            }
            Kind::Bool if t.accepts(JsonType::Boolean) => {
                let v = c.literal()?;
                f.enum_values.as_ref().is_none_or(|e| e.iter().any(|m| *m == Scalar::Bool(v == Some(true))))
            }
            Kind::Null if t.accepts(JsonType::Null) => {
                c.literal()?;
                f.enum_values.as_ref().is_none_or(|e| e.contains(&Scalar::Null))
            }
            Kind::Object if t.accepts(JsonType::Object) && !scalar_enum => {
                if node.keys.is_empty() {
                    c.skip(depth).is_some()
                } else {
                    self.object(c, node, depth, false).is_some()
                }
            }
            Kind::Array if t.accepts(JsonType::Array) && !scalar_enum => self.array(c, node, Some(f), depth).is_some(),
            _ => false,
        };
        ok.then_some(())
    }

    /// A parent no field declares: an object with its keys, or an array.
    fn implied(&self, c: &mut Cursor<'_>, node: &Node, depth: usize) -> Option<()> {
        match c.kind()? {
            Kind::Object if !node.keys.is_empty() => self.object(c, node, depth, false),
            Kind::Array if node.items.is_some() => self.array(c, node, None, depth),
            _ => None,
        }
    }

    fn array(&self, c: &mut Cursor<'_>, node: &Node, f: Option<&FieldSpec>, depth: usize) -> Option<()> {
        c.array(depth)?;
        let items = node.items.as_deref();
        let unique = f.is_some_and(|f| f.constraints.unique_items);
        let base = c.spans();
        let mut count = 0usize;
        while c.next(count)? {
            if unique {
                let at = c.at()?;
                self.value(c, items, depth + 1)?;
                c.span(at);
            } else {
                self.value(c, items, depth + 1)?;
            }
            count += 1;
        }
        if let Some(f) = f {
            let (n, k) = (count as u64, &f.constraints);
            if k.min_items.is_some_and(|m| n < m) || k.max_items.is_some_and(|m| n > m) {
                return None;
            }
        }
        if unique {
            c.distinct(base)?;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(text: &str) -> Option<i64> {
        let mut s = Scanner::new(text.as_bytes());
        small_int(&s.number().unwrap())
    }

    #[test]
    fn small_ints_are_plain_integer_literals() {
        assert_eq!(num("0"), Some(0));
        assert_eq!(num("-42"), Some(-42));
        assert_eq!(num("999999999999999999"), Some(999_999_999_999_999_999));
        assert_eq!(num("1000000000000000000"), None);
        assert_eq!(num("1.0"), None);
        assert_eq!(num("1e2"), None);
    }

    #[test]
    fn skip_gives_up_on_repeated_keys_and_depth() {
        let check = |doc: &str| run(doc.as_bytes(), |c| c.skip(0));
        assert!(check(r#"{"a": [1, {"b": 2, "c": 3}], "d": "x"}"#));
        assert!(!check(r#"{"a": 1, "a": 2}"#));
        assert!(!check(r#"{"a": {"b": 1, "b": 1}}"#));
        assert!(check(r#"{"a": {"b": 1}, "c": {"b": 1}}"#), "the same key in two objects is no repeat");
        assert!(!check(r#"{"\u0061": 1}"#), "escaped keys go to the runtime");
        assert!(check(&("[".repeat(128) + &"]".repeat(128))), "128 levels are allowed");
        assert!(!check(&("[".repeat(129) + &"]".repeat(129))), "129 are json.depth");
        assert!(!check("[1,]"));
    }

    #[test]
    fn distinct_compares_plain_strings_and_literals_only() {
        let check = |doc: &str| {
            run(doc.as_bytes(), |c| {
                c.array(0)?;
                let base = c.spans();
                let mut count = 0;
                while c.next(count)? {
                    let at = c.at()?;
                    c.skip(1)?;
                    c.span(at);
                    count += 1;
                }
                c.distinct(base)
            })
        };
        assert!(check(r#"["a", "b", true, false, null, 1, 2.5, "\n"]"#));
        assert!(!check(r#"["a", "b", "a"]"#));
        assert!(!check(r#"[1, 2, 1.0]"#), "1 equals 1.0");
        assert!(!check(r#"["\u0061", "b", "a"]"#), "escapes are decoded");
        assert!(!check(r#"[true, true]"#));
        assert!(!check(r#"[{}, {"a": 1}]"#), "objects go to the runtime");
        assert!(check(r#"[{"a": 1}]"#), "one element is always distinct");
        assert!(check(r#"["1", 1]"#), "a string is never a number");
    }
}
