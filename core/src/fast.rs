//! The quick check in front of the finding engine, and the building blocks
//! of the validators `#[protocolarc::contract]` generates.
//!
//! [`ContractSpec::passes`] is the walker of `walk.rs` in quick mode over the
//! contract's path tree: `true` only when the body certainly has no finding;
//! `false` on the first fault, and in the few cases the quick mode gives up
//! on (an escaped key, an escaped string under an enum, more than 32
//! undeclared keys in one object, a `uniqueItems` array with objects or
//! arrays among several elements or with more than 32 elements; see
//! `walk.rs`). Then the finding
//! engine (the same walker in collect mode) writes the findings, so every
//! report comes from one place.
//!
//! Generated code (`codegen/validator.rs` writes it) compiles the object
//! levels of one contract (a key `match`, seen-bits, constants) and calls
//! the [`Cursor`] methods, which are that same walker in quick mode (an
//! undeclared value is the walker's own skip, `uniqueItems` its own check),
//! and the keyword checks below, which are `keywords/`. The [`Cursor`]
//! methods return `Option`: `None` means "fault or give up", never a finding.

use crate::contract::{ContractSpec, FieldSpec};
pub use crate::json::number::Num;
pub use crate::json::scan::Kind;
pub use crate::json::text::Str;
use crate::json::MAX_DEPTH;
use crate::keywords::{enums, lengths, numbers, pattern as patterns};
use crate::walk::schema::{First, Memo, SchemaWalk};
use crate::walk::{Others, Path, Quick, Walk};

/// Where a generated validator is in the bytes: the walker in quick mode,
/// without a contract (the generated code holds it).
pub struct Cursor<'a> {
    w: Walk<'static, 'a, Quick>,
}

/// Runs a generated root check over `bytes`: `true` only when the whole
/// document was read and the check found nothing to report.
pub fn run(bytes: &[u8], root: impl FnOnce(&mut Cursor<'_>) -> Option<()>) -> bool {
    let mut c = Cursor { w: Walk::new(&[], bytes, Quick) };
    let ok = root(&mut c).is_some() && c.w.s.finish().is_ok();
    c.w.finish();
    ok
}

impl<'a> Cursor<'a> {
    /// The kind of the next value.
    #[inline]
    pub fn kind(&mut self) -> Option<Kind> {
        self.w.s.peek_kind().ok()
    }

    #[inline]
    pub fn string(&mut self) -> Option<Str<'a>> {
        self.w.s.string().ok()
    }

    #[inline]
    pub fn number(&mut self) -> Option<Num<'a>> {
        self.w.s.number().ok()
    }

    /// Reads a number and tells whether it is an integer (`1.0` and `1e2`
    /// are), making its value only when it is not written as one.
    #[inline]
    pub fn integer(&mut self) -> Option<bool> {
        self.w.integer().ok().map(|t| t == crate::contract::JsonType::Integer)
    }

    /// Reads a number nothing constrains.
    #[inline]
    pub fn any_number(&mut self) -> Option<()> {
        self.w.s.skip_number().ok().map(drop)
    }

    /// `true`, `false` (`Some`) or `null` (`None`).
    #[inline]
    pub fn literal(&mut self) -> Option<Option<bool>> {
        self.w.s.literal().ok()
    }

    /// Enters the object that starts here (its kind already read) at
    /// `depth`; returns the base of its undeclared keys.
    #[inline]
    pub fn object(&mut self, depth: usize) -> Option<usize> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.w.s.object_start();
        Some(self.w.keys_base())
    }

    /// The next key of the current object, unescaped; `None` inside at `}`.
    /// An escaped key gives up.
    #[inline(always)]
    pub fn key(&mut self, first: &mut bool) -> Option<Option<&'a [u8]>> {
        let key = self.w.s.object_key(*first).ok()?;
        *first = false;
        match key {
            Some(k) if k.is_escaped() => None,
            Some(k) => Some(Some(k.raw())),
            None => Some(None),
        }
    }

    /// A key the object's node does not declare, and its value: a repeat
    /// of another undeclared key of the same object fails.
    #[inline]
    pub fn other(&mut self, base: usize, key: &'a [u8], depth: usize) -> Option<()> {
        // `key` is a slice of the input (from `key()`): its offset is the distance.
        let at = key.as_ptr() as usize - self.w.s.bytes().as_ptr() as usize;
        match self.w.other_repeats(base, key, at, false, &mut Others::unfiltered()) {
            Ok(false) => self.skip(depth),
            _ => None,
        }
    }

    /// A key of a map (`name{}`) the object's node does not declare, before
    /// its value is checked: a repeat of another such key fails.
    #[inline]
    pub fn entry(&mut self, base: usize, key: &'a [u8]) -> Option<()> {
        let at = key.as_ptr() as usize - self.w.s.bytes().as_ptr() as usize;
        match self.w.other_repeats(base, key, at, false, &mut Others::unfiltered()) {
            Ok(false) => Some(()),
            _ => None,
        }
    }

    /// Leaves the object whose undeclared keys start at `base`.
    #[inline]
    pub fn end_object(&mut self, base: usize) {
        self.w.end_object(base);
    }

    /// Enters the array that starts here at `depth`.
    #[inline]
    pub fn array(&mut self, depth: usize) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.w.s.array_start();
        Some(())
    }

    /// Moves to the next element; `false` at `]`. `count` is the number of
    /// elements read so far.
    #[inline]
    pub fn next(&mut self, count: usize) -> Option<bool> {
        self.w.s.array_next(count == 0).ok()
    }

    /// A value nothing constrains: syntax, depth and duplicate keys only
    /// (the walker's own skip).
    pub fn skip(&mut self, depth: usize) -> Option<()> {
        self.w.skip(&Path::Root, depth).ok().map(drop)
    }

    /// The base of the element spans of a `uniqueItems` array.
    #[inline]
    pub fn spans(&self) -> usize {
        self.w.spans_base()
    }

    /// The offset where the next value starts.
    #[inline]
    pub fn at(&mut self) -> Option<usize> {
        self.kind()?;
        Some(self.w.s.offset())
    }

    /// Records the element that started at `start` and has just been read.
    #[inline]
    pub fn span(&mut self, start: usize) {
        self.w.span(start);
    }

    /// `uniqueItems` over the elements recorded since `base` (the walker's
    /// own check): fails on a repeat, and gives up on an object or array
    /// among two or more elements, or on many elements.
    pub fn distinct(&mut self, base: usize) -> Option<()> {
        self.w.unique(base, &Path::Root).ok()
    }
}

/// Where a generated schema-form validator is in the bytes: the schema
/// walker in first-fault mode (an exact verdict: it never gives up), with
/// the compiled schema the generated code was written from. The generated
/// code reads objects, arrays and unions itself and calls the walker for
/// scalars and for every schema it does not compile ([`SchemaCursor::node`]),
/// so its verdict is the runtime's by construction.
pub struct SchemaCursor<'m, 'a> {
    sw: SchemaWalk<'static, 'a, 'm, First>,
}

/// What [`SchemaCursor::key`] read.
pub enum NextKey<'a> {
    /// A key without escapes: its raw bytes.
    Plain(&'a [u8]),
    /// A key with an escape (the generated code matches raw bytes, so the
    /// walker reads the object again).
    Escaped,
    /// The object's `}`.
    End,
    /// A syntax fault.
    Syntax,
}

/// Runs a generated schema-form root check over `bytes` with the schema of
/// `spec`: `true` exactly when the body is valid.
pub fn run_schema(
    spec: &'static ContractSpec,
    bytes: &[u8],
    root: impl FnOnce(&mut SchemaCursor<'_, '_>) -> Option<()>,
) -> bool {
    let Some(schema) = spec.schema() else { return spec.passes(bytes) };
    let memo = Memo::default();
    let mut c = SchemaCursor { sw: SchemaWalk::new(schema, bytes, First, &memo) };
    let ok = root(&mut c).is_some() && c.sw.w.s.finish().is_ok();
    c.sw.finish();
    ok
}

impl<'a> SchemaCursor<'_, 'a> {
    /// The kind of the next value.
    #[inline]
    pub fn kind(&mut self) -> Option<Kind> {
        self.sw.w.s.peek_kind().ok()
    }

    /// The offset where the next value starts (its kind already read).
    #[inline]
    pub fn offset(&self) -> usize {
        self.sw.w.s.offset()
    }

    /// Moves back to `at` (the start of a value read before).
    #[inline]
    pub fn seek(&mut self, at: usize) {
        self.sw.w.s.seek(at);
    }

    /// The value here judged by node `id` of the schema: the walker itself
    /// (a schema the generator does not compile).
    #[inline(never)]
    pub fn node(&mut self, id: u32, depth: usize, chain: usize) -> Option<()> {
        self.sw.value(id, &Path::Root, depth, chain).ok()
    }

    /// The scalar here (string, number, boolean or null) judged by the own
    /// keywords of node `id` (the walker's own code).
    #[inline]
    pub fn scalar(&mut self, id: u32, depth: usize) -> Option<()> {
        let node = self.sw.schema.node(id);
        self.sw.own(node, &Path::Root, depth).ok()
    }

    /// A string nothing but its type constrains.
    #[inline]
    pub fn any_string(&mut self) -> Option<()> {
        self.sw.w.s.string().ok().map(drop)
    }

    /// A number nothing but its type constrains, where `number` is allowed.
    #[inline]
    pub fn any_number(&mut self) -> Option<()> {
        self.sw.w.s.skip_number().ok().map(drop)
    }

    /// A string judged by `ok` (the generated code's string keywords of a
    /// node: string `enum`/`const` members by [`Str::eq_str`], a format by
    /// [`formats`]: what the walker's `own` checks for such a node, without
    /// its dispatch).
    #[inline]
    pub fn string_where(&mut self, ok: impl FnOnce(&Str<'a>) -> bool) -> Option<()> {
        let s = self.sw.w.s.string().ok()?;
        ok(&s).then_some(())
    }

    /// Reads a number and tells whether it is an integer (`1.0` is).
    #[inline]
    pub fn integer(&mut self) -> Option<bool> {
        self.sw.w.integer().ok().map(|t| t == crate::contract::JsonType::Integer)
    }

    /// `true`, `false` (`Some`) or `null` (`None`).
    #[inline]
    pub fn literal(&mut self) -> Option<Option<bool>> {
        self.sw.w.s.literal().ok()
    }

    /// The object that started at `start` judged by the object keywords of
    /// node `id`, read again by the walker (after an escaped key: the
    /// generated code matches raw bytes). `base` is the object's key base.
    #[inline(never)]
    pub fn object_again(&mut self, id: u32, start: usize, base: usize, depth: usize) -> Option<()> {
        self.sw.w.end_object(base);
        self.sw.w.s.seek(start);
        let node = self.sw.schema.node(id);
        self.sw.object(node, &Path::Root, depth).ok()
    }

    /// A value nothing constrains: syntax, depth and duplicate keys only.
    #[inline]
    pub fn skip(&mut self, depth: usize) -> Option<()> {
        self.sw.w.skip(&Path::Root, depth).ok().map(drop)
    }

    /// Enters the object that starts here at `depth`; returns the base of
    /// its undeclared keys.
    #[inline]
    pub fn object(&mut self, depth: usize) -> Option<usize> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.sw.w.s.object_start();
        Some(self.sw.w.keys_base())
    }

    /// The next key of the object being read.
    #[inline(always)]
    pub fn key(&mut self, first: &mut bool) -> NextKey<'a> {
        let key = self.sw.w.s.object_key(*first);
        *first = false;
        match key {
            Ok(Some(k)) if k.is_escaped() => NextKey::Escaped,
            Ok(Some(k)) => NextKey::Plain(k.raw()),
            Ok(None) => NextKey::End,
            Err(_) => NextKey::Syntax,
        }
    }

    /// An undeclared plain key: fails when another undeclared key of the
    /// same object repeats it.
    #[inline]
    pub fn entry(&mut self, base: usize, key: &'a [u8]) -> Option<()> {
        let at = key.as_ptr() as usize - self.sw.w.s.bytes().as_ptr() as usize;
        match self.sw.w.other_repeats(base, key, at, false, &mut Others::unfiltered()) {
            Ok(false) => Some(()),
            _ => None,
        }
    }

    /// Leaves the object whose undeclared keys start at `base`.
    #[inline]
    pub fn end_object(&mut self, base: usize) {
        self.sw.w.end_object(base);
    }

    /// Enters the array that starts here at `depth`.
    #[inline]
    pub fn array(&mut self, depth: usize) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.sw.w.s.array_start();
        Some(())
    }

    /// Moves to the next element; `false` at `]`.
    #[inline]
    pub fn next(&mut self, count: usize) -> Option<bool> {
        self.sw.w.s.array_next(count == 0).ok()
    }

    /// The base of the element spans of a `uniqueItems` array.
    #[inline]
    pub fn spans(&self) -> usize {
        self.sw.w.spans_base()
    }

    /// Records the element that started at `start` and has just been read.
    #[inline]
    pub fn span(&mut self, start: usize) {
        self.sw.w.span(start);
    }

    /// `uniqueItems` over the elements recorded since `base` (exact).
    pub fn distinct(&mut self, base: usize) -> Option<()> {
        self.sw.w.unique(base, &Path::Root).ok()
    }

    /// The raw text of the plain string value of `key` in the object that
    /// starts at `start` at `depth` (a union's tag); `None` when the key is
    /// missing, its value is not a plain string, or the object is not well
    /// formed before it (the caller then asks the walker). Leaves the
    /// position unspecified: the caller seeks back to `start`.
    #[inline]
    pub fn tag(&mut self, start: usize, key: &[u8], depth: usize) -> Option<&'a [u8]> {
        if let Some((found, _)) = first_key_tag(self.sw.w.s.bytes(), start, key) {
            return Some(found);
        }
        let (keys, spans) = (self.sw.w.keys_base(), self.sw.w.spans_base());
        self.sw.w.s.seek(start);
        let found = self.find_tag(key, depth);
        self.sw.w.truncate(keys, spans);
        found
    }

    /// The tag when it is the first key of the object at `start`, read
    /// straight from the bytes, and the offset just after its value (see
    /// [`first_key_tag`]); `None` otherwise (then [`Self::tag`] looks for it).
    #[inline]
    pub fn first_tag(&self, start: usize, key: &[u8]) -> Option<(&'a [u8], usize)> {
        first_key_tag(self.sw.w.s.bytes(), start, key)
    }

    fn find_tag(&mut self, key: &[u8], depth: usize) -> Option<&'a [u8]> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.sw.w.s.object_start();
        let mut first = true;
        while let Some(k) = self.sw.w.s.object_key(first).ok()? {
            first = false;
            if k.is_escaped() {
                return None;
            }
            if k.raw() == key {
                let s = &mut self.sw.w.s;
                if s.peek_kind().ok()? != Kind::String {
                    return None;
                }
                let v = s.string().ok()?;
                return (!v.is_escaped()).then(|| v.raw());
            }
            // A member before the tag: skipped by the walker (no allocation).
            self.sw.w.skip(&Path::Root, depth + 1).ok()?;
        }
        None
    }

    /// Runs `f` on the value at `start`, as a union member: on failure the
    /// stacks and the position go back to where they were.
    #[inline]
    pub fn attempt(&mut self, start: usize, f: impl FnOnce(&mut Self) -> Option<()>) -> bool {
        let (keys, spans) = (self.sw.w.keys_base(), self.sw.w.spans_base());
        self.sw.w.s.seek(start);
        if f(self).is_some() {
            return true;
        }
        self.sw.w.truncate(keys, spans);
        self.sw.w.s.seek(start);
        false
    }
}

pub(crate) use crate::json::bytes::first_key_tag;
pub use crate::json::bytes::quote_or_backslash;

/// The byte-level `format` checks by name, for generated code: each exactly
/// the walker's (`keywords::format::is_valid`), called directly: an
/// unescaped string's raw bytes go to the format's parser, an escaped one
/// to the walker's check, which decodes it.
pub mod formats {
    use crate::json::text::Str;

    macro_rules! byte_formats {
        ($($f:ident: $name:literal => $check:expr;)*) => {
            $(
                #[doc = concat!("`format: ", $name, "`")]
                #[inline]
                pub fn $f(s: &Str<'_>) -> bool {
                    if s.is_escaped() {
                        crate::keywords::format::is_valid($name, s)
                    } else {
                        $check(s.raw())
                    }
                }
            )*
            /// The format names with a function here, and its name.
            #[cfg(any(test, feature = "codegen"))]
            pub(crate) const NAMES: &[(&str, &str)] = &[$(($name, stringify!($f))),*];
        };
    }

    byte_formats! {
        byte: "byte" => crate::format::is_byte;
        date: "date" => crate::format::is_date;
        date_time: "date-time" => crate::format::is_date_time;
        duration: "duration" => crate::format::is_duration;
        email: "email" => crate::format::is_email;
        hostname: "hostname" => crate::format::is_hostname;
        ipv4: "ipv4" => crate::format::is_ipv4;
        ipv6: "ipv6" => crate::format::is_ipv6;
        json_pointer: "json-pointer" => crate::format::is_json_pointer;
        time: "time" => crate::format::is_time;
        uri: "uri" => |b| crate::format::is_uri(b, true);
        uri_reference: "uri-reference" => |b| crate::format::is_uri(b, false);
        uuid: "uuid" => crate::format::is_uuid;
    }
}

/// Whether a string passes every string rule of the field: enum, lengths,
/// pattern.
pub fn string(field: &FieldSpec, s: &Str<'_>) -> bool {
    let c = &field.constraints;
    field.enum_values.as_deref().is_none_or(|values| enums::has_string(values, s))
        && (!lengths::any(c) || lengths::is_valid(c, chars(s)))
        && pattern(field, s)
        && format(field, s)
}

/// Whether a string is valid for the field's `format` (always when it has
/// none, or one that is only an annotation).
#[inline]
pub fn format(field: &FieldSpec, s: &Str<'_>) -> bool {
    field.format.as_deref().is_none_or(|name| crate::keywords::format::is_valid(name, s))
}

/// The number of characters in a string, as `minLength`/`maxLength` count.
#[inline]
pub fn chars(s: &Str<'_>) -> u64 {
    s.char_count() as u64
}

/// Whether a string matches the field's `pattern` (as the runtime tests it).
pub fn pattern(field: &FieldSpec, s: &Str<'_>) -> bool {
    field.constraints.pattern.as_ref().is_none_or(|p| patterns::is_valid(p, s))
}

/// Whether a number passes every number rule of the field: enum, bounds,
/// `multipleOf` (exact decimal arithmetic, the finding engine's own tests).
pub fn number(field: &FieldSpec, n: &Num<'_>) -> bool {
    let v = n.dec();
    field.enum_values.as_deref().is_none_or(|values| enums::has_number(values, &v))
        && numbers::is_valid(&field.constraints, &v)
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
    /// The quick check: the walker in quick mode over the contract's path
    /// tree. `true` only when the body has no finding at all, `false` when
    /// it has one or the quick mode gave up (then the finding engine decides).
    pub fn passes(&self, data: &[u8]) -> bool {
        if let Some(schema) = &self.schema {
            return crate::walk::schema::passes(schema, data);
        }
        let mut w = Walk::new(&self.fields, data, Quick);
        let ok = w.document(&self.tree, self.strict).is_ok();
        w.finish();
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::scan::Scanner;

    fn num(text: &str) -> Option<i64> {
        let mut s = Scanner::new(text.as_bytes());
        small_int(&s.number().unwrap())
    }

    /// `fast::formats` holds every byte-level asserted format, and each
    /// answers as the walker's check, on plain and escaped strings.
    #[test]
    fn formats_are_the_walkers() {
        let names: Vec<&str> = super::formats::NAMES.iter().map(|(n, _)| *n).collect();
        let byte_level: Vec<&str> =
            crate::format::ASSERTED.iter().copied().filter(|n| !matches!(*n, "regex" | "uri-template")).collect();
        assert_eq!(names, byte_level);
        let samples = [
            "\"\"",
            "\"file:///a/b\"",
            "\"file:\\/\\/\\/a\"",
            "\"http://h/%zz\"",
            "\"QUJD\"",
            "\"QU\\u004aD\"",
            "\"QUJ=\"",
            "\"2025-05-03T14:30:00Z\"",
            "\"2025-05-03\"",
            "\"14:30:00Z\"",
            "\"P1D\"",
            "\"a@b.c\"",
            "\"example.com\"",
            "\"127.0.0.1\"",
            "\"::1\"",
            "\"/a~0b\"",
            "\"6dbc13b5-bd57-4c2b-b503-24e381b6c8d6\"",
            "\"\\u00e9\"",
            "\"\u{e9}t\u{e9}\"",
        ];
        for text in samples {
            let mut scanner = Scanner::new(text.as_bytes());
            let s = scanner.string().expect("a string");
            for (name, _) in super::formats::NAMES {
                let by_name = match *name {
                    "byte" => super::formats::byte(&s),
                    "date" => super::formats::date(&s),
                    "date-time" => super::formats::date_time(&s),
                    "duration" => super::formats::duration(&s),
                    "email" => super::formats::email(&s),
                    "hostname" => super::formats::hostname(&s),
                    "ipv4" => super::formats::ipv4(&s),
                    "ipv6" => super::formats::ipv6(&s),
                    "json-pointer" => super::formats::json_pointer(&s),
                    "time" => super::formats::time(&s),
                    "uri" => super::formats::uri(&s),
                    "uri-reference" => super::formats::uri_reference(&s),
                    "uuid" => super::formats::uuid(&s),
                    other => panic!("{other}"),
                };
                assert_eq!(by_name, crate::keywords::format::is_valid(name, &s), "{name} {text}");
                assert_eq!(by_name, crate::format::check(name, &s.decode()) != Some(false), "{name} {text}");
            }
        }
    }

    /// Every `"` and backslash is found where it is, before and past the
    /// word-at-a-time part, beside bytes that share bits with them.
    #[test]
    fn quotes_and_backslashes_are_found_where_they_are() {
        for len in 0..100 {
            for at in 0..=len {
                for c in [b'"', b'\\'] {
                    let mut b = vec![b'a'; len];
                    b.extend(std::iter::repeat_n(0xC3, 3));
                    if at < len {
                        b[at] = c;
                        b.push(b'"');
                        assert_eq!(quote_or_backslash(&b), Some(at), "{len} {at}");
                    } else {
                        assert_eq!(quote_or_backslash(&b), None, "{len}");
                    }
                }
            }
        }
        // A byte just above or below a match is not one.
        assert_eq!(quote_or_backslash(b"!#[]\x01\xa2\xdc!#[]!#[]\""), Some(15));
    }

    /// The tag read from the bytes is the scanner's first key's plain string
    /// value whenever it answers, and it answers on the usual spellings.
    #[test]
    fn first_key_tag_is_the_scanners() {
        let scanned = |text: &str| -> Option<Vec<u8>> {
            let mut s = Scanner::new(text.as_bytes());
            if s.peek_kind().ok()? != Kind::Object {
                return None;
            }
            s.object_start();
            let k = s.object_key(true).ok()??;
            if k.is_escaped() || k.raw() != b"type" || s.peek_kind().ok()? != Kind::String {
                return None;
            }
            let v = s.string().ok()?;
            (!v.is_escaped()).then(|| v.raw().to_vec())
        };
        let cases = [
            (r#"{"type": "text", "text": "x"}"#, true),
            (r#"{"type":"text"}"#, true),
            ("{ \t\r\n\"type\" \n: \t\"text\" }", true),
            (r#"  {"type": "", "a": 1}"#, true),
            (r#"{"type": "t\u0065xt"}"#, false),
            (r#"{"typ\u0065": "text"}"#, false),
            (r#"{"a": 1, "type": "text"}"#, false),
            (r#"{"type": 1}"#, false),
            (r#"{"type": null}"#, false),
            (r#"{"types": "text"}"#, false),
            (r#"{"typ": "text"}"#, false),
            (r#"{}"#, false),
            (r#"{"type""#, false),
            (r#"{"type": "text"#, false),
            (r#"{"type" "text"}"#, false),
            (r#"["type", "text"]"#, false),
            ("{\"type\": \"caf\u{e9}\"}", true),
        ];
        for (text, answers) in cases {
            let fast = first_key_tag(text.as_bytes(), 0, b"type");
            assert_eq!(fast.is_some(), answers, "{text}");
            if let Some((tag, after)) = fast {
                assert_eq!(Some(tag.to_vec()), scanned(text), "{text}");
                assert_eq!(text.as_bytes()[after - 1], b'"', "{text}");
                assert_eq!(&text.as_bytes()[after - 1 - tag.len()..after - 1], tag, "{text}");
            }
        }
        // Keys that need escapes are never matched raw.
        assert_eq!(first_key_tag(br#"{"a\b": "x"}"#, 0, b"a\\b"), None);
        assert_eq!(first_key_tag(br#"{"a"b": "x"}"#, 0, b"a\"b"), None);
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
