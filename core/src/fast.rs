//! The one-pass check in front of the finding engine, and the building
//! blocks of the validators `#[protocolarc::contract]` generates.
//!
//! [`ContractSpec::passes`] is the schema walker (`walk/schema/`) in its
//! first-fault mode over the contract's schema graph (a fields-form
//! contract's lowered one): `true` exactly when the body has no finding at
//! all. Then the finding walk, the same walker collecting, writes the
//! findings, so every report comes from one place.
//!
//! Generated code compiles the object levels of one contract (a key
//! `match`, seen-bits, constants) and calls the [`SchemaCursor`] methods,
//! which are that same walker stopping at the first fault over the graph the
//! code was written from, for every schema it does not compile itself. Its
//! methods return `Option`: `None` means "fault or give up" (an escaped key,
//! more than `walk::LINEAR_KEYS` (32) undeclared keys in one object), never a finding.

use crate::contract::ContractSpec;
pub use crate::json::number::Num;
pub use crate::json::scan::Kind;
pub use crate::json::text::Str;
use crate::json::MAX_DEPTH;
use crate::walk::schema::{First, Memo, SchemaWalk};
use crate::walk::{Mode, Others, Path, Walk, LINEAR_KEYS};

/// Where a generated validator is in the bytes: the schema walker in
/// first-fault mode (an exact verdict, but for an object with more than
/// `walk::LINEAR_KEYS` (32) undeclared keys, which the generated code hands to the
/// finding walk), with the schema graph the generated code was written from
/// (a fields form's lowered one). The generated code reads objects, arrays
/// and unions itself and calls the walker for scalars and for every schema
/// it does not compile ([`SchemaCursor::node`]), so its verdict is the
/// runtime's by construction.
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

/// Runs a generated root check over `bytes` with the schema graph of `spec`
/// (a fields form's lowered one): `true` when the body is valid, `false`
/// when it is not (or gives up as [`SchemaCursor`] says).
pub fn run_schema(
    spec: &'static ContractSpec,
    bytes: &[u8],
    root: impl FnOnce(&mut SchemaCursor<'_, '_>) -> Option<()>,
) -> bool {
    let schema = spec.walked();
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
        self.sw.w.s.skip_string().ok()
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
    #[inline(always)]
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
        self.sw.w.skip(&Path::Root, depth).ok()
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
        fresh_key(&mut self.sw.w, base, key)
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

/// Records the undeclared plain key `key` of the object whose keys start at
/// `base` on `w`'s stack: `None` when another undeclared key of the object
/// repeats it, and past `walk::LINEAR_KEYS` (32) of them (where the walker keeps a
/// hash set from key to key, which generated code does not hold: the body
/// goes to the finding walk).
#[inline]
fn fresh_key<'a, M: Mode>(w: &mut Walk<'a, M>, base: usize, key: &'a [u8]) -> Option<()> {
    if w.keys_base() - base >= LINEAR_KEYS {
        return None;
    }
    // `key` is a slice of the input (from `key()`): its offset is the distance.
    let at = key.as_ptr() as usize - w.s.bytes().as_ptr() as usize;
    match w.other_repeats(base, key, at, false, &mut Others::unfiltered()) {
        Ok(false) => Some(()),
        _ => None,
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

impl ContractSpec {
    /// The one-pass check: the schema walker stopping at the first fault,
    /// over the contract's schema graph (the fields form's lowered one).
    /// `true` exactly when the body has no finding at all (a strict
    /// contract's warning included).
    pub fn passes(&self, data: &[u8]) -> bool {
        crate::walk::schema::passes(self.walked(), data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::scan::Scanner;

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

    /// A contract whose schema accepts anything: the cursor's own reading.
    fn anything() -> &'static ContractSpec {
        let doc = br#"{"name": "t", "revision": "1.0.0", "schema": {}}"#;
        Box::leak(Box::new(ContractSpec::from_slice(doc, "t.json").unwrap()))
    }

    #[test]
    fn skip_fails_on_repeated_keys_and_depth() {
        let spec = anything();
        let check = |doc: &str| run_schema(spec, doc.as_bytes(), |c| c.skip(0));
        assert!(check(r#"{"a": [1, {"b": 2, "c": 3}], "d": "x"}"#));
        assert!(!check(r#"{"a": 1, "a": 2}"#));
        assert!(!check(r#"{"a": {"b": 1, "b": 1}}"#));
        assert!(check(r#"{"a": {"b": 1}, "c": {"b": 1}}"#), "the same key in two objects is no repeat");
        assert!(check(r#"{"\u0061": 1}"#), "an escaped key is decoded");
        assert!(!check(r#"{"\u0061": 1, "a": 2}"#), "and compared as decoded");
        assert!(check(&("[".repeat(128) + &"]".repeat(128))), "128 levels are allowed");
        assert!(!check(&("[".repeat(129) + &"]".repeat(129))), "129 are json.depth");
        assert!(!check("[1,]"));
    }

    /// Undeclared keys are compared with the object's others up to
    /// `walk::LINEAR_KEYS` (32) of them; past that the generated code keeps no hash
    /// set, so it gives up rather than miss a repeat among the later keys.
    #[test]
    fn undeclared_keys_past_the_linear_bound_give_up() {
        let object = |keys: &[String]| {
            let members: Vec<String> = keys.iter().map(|k| format!("\"{k}\": 0")).collect();
            format!("{{{}}}", members.join(", "))
        };
        let spec = anything();
        let check = |doc: &str| {
            run_schema(spec, doc.as_bytes(), |c| {
                c.kind()?;
                let base = c.object(0)?;
                let mut first = true;
                loop {
                    match c.key(&mut first) {
                        NextKey::Plain(key) => {
                            c.entry(base, key)?;
                            c.skip(1)?;
                        }
                        NextKey::End => break,
                        NextKey::Escaped | NextKey::Syntax => return None,
                    }
                }
                c.end_object(base);
                Some(())
            })
        };
        let keys: Vec<String> = (0..LINEAR_KEYS + 2).map(|i| format!("k{i}")).collect();
        assert!(check(&object(&keys[..LINEAR_KEYS])));
        assert!(!check(&object(&[&keys[..LINEAR_KEYS - 1], &keys[..1]].concat())), "a repeat");
        let mut past = keys[..LINEAR_KEYS + 1].to_vec();
        past.push(past[LINEAR_KEYS].clone());
        assert!(!check(&object(&past)), "a repeat past the bound");
        assert!(!check(&object(&keys)), "past the bound: given up");
    }

    #[test]
    fn distinct_compares_elements_as_json() {
        let spec = anything();
        let check = |doc: &str| {
            run_schema(spec, doc.as_bytes(), |c| {
                c.array(0)?;
                let base = c.spans();
                let mut count = 0;
                while c.next(count)? {
                    c.kind()?;
                    let at = c.offset();
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
        assert!(check(r#"[{}, {"a": 1}]"#), "objects are compared as canonical text");
        assert!(!check(r#"[{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}]"#), "whatever their key order");
        assert!(check(r#"[{"a": 1}]"#), "one element is always distinct");
        assert!(check(r#"["1", 1]"#), "a string is never a number");
    }
}
