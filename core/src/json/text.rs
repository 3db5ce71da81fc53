//! JSON strings as the scanner found them: the raw bytes between the quotes,
//! already checked, decoded only when a caller needs the text.

use std::borrow::Cow;

/// A string token: raw (still escaped) bytes, valid UTF-8 and valid escapes.
#[derive(Debug, Clone, Copy)]
pub struct Str<'a> {
    raw: &'a [u8],
    /// 1 when escaped. A `u8`, not a `bool`: a `bool` lends its spare values
    /// to `Result<Option<Str>, _>`, whose copies then overlap at odd offsets
    /// and stall store forwarding on the hottest path of the validator.
    escaped: u8,
    offset: usize,
}

impl<'a> Str<'a> {
    pub(crate) fn new(raw: &'a [u8], escaped: bool, offset: usize) -> Self {
        Str { raw, escaped: u8::from(escaped), offset }
    }

    /// The bytes between the quotes, escapes not decoded.
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// Whether the raw bytes contain an escape sequence.
    pub fn is_escaped(&self) -> bool {
        self.escaped != 0
    }

    /// Byte offset of the first byte after the opening quote.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The decoded text; borrowed when the string has no escape.
    pub fn decode(&self) -> Cow<'a, str> {
        if !self.is_escaped() {
            // Valid UTF-8 (every text the walk has read) borrowed without
            // `from_utf8_lossy`'s chunking.
            return match std::str::from_utf8(self.raw) {
                Ok(text) => Cow::Borrowed(text),
                Err(_) => String::from_utf8_lossy(self.raw),
            };
        }
        Cow::Owned(self.chars().collect())
    }

    /// Whether the decoded text equals `s`, without decoding when possible.
    #[inline(always)]
    pub fn eq_str(&self, s: &str) -> bool {
        if self.is_escaped() {
            self.eq_str_escaped(s)
        } else {
            same_bytes(self.raw, s.as_bytes())
        }
    }

    /// [`Str::eq_str`] on a string with escapes (rare: off the hot path).
    #[cold]
    #[inline(never)]
    fn eq_str_escaped(&self, s: &str) -> bool {
        self.decode() == s
    }

    /// The decoded characters, one at a time, without building the text.
    pub fn chars(&self) -> impl Iterator<Item = char> + 'a {
        let raw = self.raw;
        let mut i = 0;
        std::iter::from_fn(move || {
            let rest = raw.get(i..).filter(|r| !r.is_empty())?;
            if rest[0] == b'\\' {
                let (c, len) = decode_escape(rest);
                i += len;
                return Some(c);
            }
            // Checked UTF-8: the first character of `rest`.
            let width = match rest[0] {
                0x00..=0x7F => 1,
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            let c = std::str::from_utf8(&rest[..width.min(rest.len())]).ok().and_then(|s| s.chars().next());
            i += width;
            Some(c.unwrap_or('\u{FFFD}'))
        })
    }

    /// Number of Unicode code points in the decoded text.
    pub fn char_count(&self) -> usize {
        if !self.is_escaped() {
            return count_chars(self.raw);
        }
        self.chars().count()
    }
}

/// Code points in valid UTF-8: every byte that is not a continuation byte.
#[inline]
pub fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

/// Decodes one checked escape at the start of `s`: the character and the
/// number of bytes it took.
fn decode_escape(s: &[u8]) -> (char, usize) {
    let simple = |c| (c, 2);
    match s.get(1) {
        Some(b'n') => simple('\n'),
        Some(b't') => simple('\t'),
        Some(b'r') => simple('\r'),
        Some(b'b') => simple('\u{8}'),
        Some(b'f') => simple('\u{c}'),
        Some(b'u') => {
            let hi = hex4(&s[2..]);
            if (0xD800..0xDC00).contains(&hi) && s.len() >= 12 {
                let lo = hex4(&s[8..]);
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF);
                (char::from_u32(c).unwrap_or('\u{FFFD}'), 12)
            } else {
                (char::from_u32(hi).unwrap_or('\u{FFFD}'), 6)
            }
        }
        Some(&c) => simple(char::from(c)),
        None => simple('\\'),
    }
}

fn hex4(s: &[u8]) -> u32 {
    s.iter().take(4).fold(0, |v, &d| {
        let n = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => 0,
        };
        v * 16 + u32::from(n)
    })
}

/// Control characters and the Unicode line and paragraph separators: text
/// that would break an output line, or forge a new one.
pub(crate) fn is_unprintable(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') || is_bidi(c)
}

/// The bidirectional formatting characters: shown raw, they reorder the
/// text around them on screen (a finding or a doc comment that reads other
/// than it is).
fn is_bidi(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Writes `c`, escaped (`\n`, `\u{1b}`) when it is unprintable.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if is_unprintable(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        c => out.push(c),
    }
}

/// Renders text for a message: single-quoted, escapes for quotes, backslashes
/// and control characters, cut after `max` characters.
pub fn quote(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max) + 2);
    out.push('\'');
    for (n, c) in s.chars().enumerate() {
        if n == max {
            out.push_str("...");
            break;
        }
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            c => push_escaped(&mut out, c),
        }
    }
    out.push('\'');
    out
}

/// Free text (a contract's title, doc or kind, a file label) made safe for
/// one output line: control characters and the Unicode line separators are
/// written as escapes (`\n`, `\u{1b}`), so no text can start a line of its
/// own (a CI workflow command, a forged `[PASS]`).
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    // Printable ASCII (the common text) is checked without a branch per
    // byte (the loop vectorizes).
    let outside = text.bytes().fold(false, |outside, b| outside | (b.wrapping_sub(b' ') > b'~' - b' '));
    if !outside || !text.chars().any(is_unprintable) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    text.chars().for_each(|c| push_escaped(&mut out, c));
    std::borrow::Cow::Owned(out)
}

/// The first (up to) eight bytes of `raw` as a little-endian word, zero
/// padded: with the length, a key of up to eight bytes is this one word
/// (the schema walk finds a declared property by it, `Node::property_at`).
#[inline(always)]
pub(crate) fn key_head(raw: &[u8]) -> u64 {
    let n = raw.len();
    let word8 = |at: usize| u64::from_le_bytes(raw[at..at + 8].try_into().expect("8 bytes"));
    let word4 = |at: usize| u64::from(u32::from_le_bytes(raw[at..at + 4].try_into().expect("4 bytes")));
    let byte = |at: usize| u64::from(raw[at]) << (8 * at);
    match n {
        0 => 0,
        // Overlapping reads: a byte read twice is ORed with itself.
        1..=3 => byte(0) | byte(n / 2) | byte(n - 1),
        4..=7 => word4(0) | word4(n - 4) << (8 * (n - 4)),
        _ => word8(0),
    }
}

/// Whether two byte strings are equal; keys, tags and enum members are
/// short, and `==` on slices calls `memcmp`, a call per comparison on the
/// walker's hottest path: up to 16 bytes are compared here as two
/// overlapping words.
#[inline(always)]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word8 = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"));
    let word4 = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().expect("4 bytes"));
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        8..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

/// Whether a key is spelt in JSON as its own bytes: no `"`, no `\\`, no
/// control character (a union's tag key, checked once when the schema
/// compiles).
#[inline(always)]
pub(crate) fn plain_key(key: &[u8]) -> bool {
    !key.iter().any(|&c| c == b'"' || c == b'\\' || c < 0x20)
}

#[cfg(test)]
mod tests {
    #[test]
    fn key_head_is_the_zero_padded_prefix() {
        let base: Vec<u8> = (b'a'..=b'z').collect();
        for n in 0..=base.len() {
            let mut padded = [0u8; 8];
            let m = n.min(8);
            padded[..m].copy_from_slice(&base[..m]);
            assert_eq!(key_head(&base[..n]), u64::from_le_bytes(padded), "length {n}");
        }
    }

    #[test]
    fn same_bytes_is_slice_equality() {
        let base: Vec<u8> = (b'a'..=b'z').collect();
        for n in 0..=base.len() {
            let a = &base[..n];
            assert!(same_bytes(a, a));
            if n > 0 {
                assert!(!same_bytes(a, &base[..n - 1]));
            }
            for at in 0..n {
                let mut b = a.to_vec();
                b[at] = b'_';
                assert!(!same_bytes(a, &b), "length {n}, differing at {at}");
            }
        }
    }
    use super::*;
    use crate::json::scan::Scanner;

    #[test]
    fn free_text_stays_on_one_line() {
        assert_eq!(one_line("plain text"), "plain text");
        assert_eq!(one_line("a\n::error::x\r\t\u{1b}[31m\u{2028}"), "a\\n::error::x\\r\\t\\u{1b}[31m\\u{2028}");
        assert_eq!(quote("it's\n\u{85}", 80), "'it\\'s\\n\\u{85}'");
    }

    fn token(src: &str) -> Str<'_> {
        let mut s = Scanner::new(src.as_bytes());
        s.peek_kind().unwrap();
        s.string().unwrap()
    }

    #[test]
    fn decodes_escapes_and_counts_code_points() {
        let t = token(r#""a\n\u00e9\ud83d\ude00\"z""#);
        assert!(t.is_escaped());
        assert_eq!(t.decode(), "a\n\u{e9}\u{1F600}\"z");
        assert_eq!(t.char_count(), 6);
        assert_eq!(t.chars().collect::<String>(), t.decode());
        assert!(t.eq_str("a\n\u{e9}\u{1F600}\"z"));
        let plain = token("\"h\u{e9}llo\"");
        assert_eq!(plain.char_count(), 5);
        assert_eq!(plain.chars().collect::<String>(), "h\u{e9}llo");
        assert!(matches!(plain.decode(), Cow::Borrowed("h\u{e9}llo")));
    }

    #[test]
    fn quote_escapes_and_truncates() {
        assert_eq!(quote("it's", 80), "'it\\'s'");
        assert_eq!(quote("a\nb", 80), "'a\\nb'");
        assert_eq!(quote("abcdef", 3), "'abc...'");
    }
}
