//! A pull scanner over raw JSON bytes (RFC 8259, strict).
//!
//! The scanner reads one token at a time and never builds a tree: strings and
//! numbers come back as borrowed slices of the input, so a caller that only
//! needs to look at a value pays no allocation for it. It checks everything a
//! strict parser checks (grammar, escapes, surrogate pairs, UTF-8, control
//! characters, trailing bytes) and reports the byte offset of the first fault.
//!
//! It deliberately knows nothing of contracts, nesting limits or duplicate keys:
//! the validator and the tree builder layer those on top.

use super::number::Num;
use super::text::Str;

/// Why a document is not JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    UnexpectedEnd,
    ExpectedValue,
    ExpectedKey,
    ExpectedColon,
    ExpectedCommaOrObjectEnd,
    ExpectedCommaOrArrayEnd,
    InvalidLiteral,
    InvalidNumber,
    InvalidEscape,
    InvalidUnicodeEscape,
    UnpairedSurrogate,
    ControlCharacter,
    InvalidUtf8,
    TrailingCharacters,
}

impl SyntaxErrorKind {
    pub fn message(self) -> &'static str {
        match self {
            SyntaxErrorKind::UnexpectedEnd => "unexpected end of input",
            SyntaxErrorKind::ExpectedValue => "expected a JSON value",
            SyntaxErrorKind::ExpectedKey => "expected a string key",
            SyntaxErrorKind::ExpectedColon => "expected ':' after an object key",
            SyntaxErrorKind::ExpectedCommaOrObjectEnd => "expected ',' or '}' after an object member",
            SyntaxErrorKind::ExpectedCommaOrArrayEnd => "expected ',' or ']' after an array element",
            SyntaxErrorKind::InvalidLiteral => "invalid literal (expected true, false or null)",
            SyntaxErrorKind::InvalidNumber => "invalid number",
            SyntaxErrorKind::InvalidEscape => "invalid escape sequence in string",
            SyntaxErrorKind::InvalidUnicodeEscape => "invalid \\u escape in string",
            SyntaxErrorKind::UnpairedSurrogate => "unpaired surrogate in \\u escape",
            SyntaxErrorKind::ControlCharacter => "unescaped control character in string",
            SyntaxErrorKind::InvalidUtf8 => "invalid UTF-8",
            SyntaxErrorKind::TrailingCharacters => "trailing characters after the JSON value",
        }
    }
}

/// A syntax fault and the byte offset where it was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: usize,
    pub kind: SyntaxErrorKind,
}

/// The kind of the next value, decided by its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number (`-`, or a digit).
    Number,
    /// A string (`"`).
    String,
    /// An object (`{`).
    Object,
    /// An array (`[`).
    Array,
}

impl Kind {
    /// The JSON type name (`number` for every number).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "boolean",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Object => "object",
            Kind::Array => "array",
        }
    }
}

/// Byte classes inside a string: 0 plain ASCII, 1 quote, 2 backslash,
/// 3 control character, 4 non-ASCII.
static STRING_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = if i < 0x20 {
            3
        } else if i == b'"' as usize {
            1
        } else if i == b'\\' as usize {
            2
        } else if i >= 0x80 {
            4
        } else {
            0
        };
        i += 1;
    }
    t
};

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Non-zero when some byte of `v` is zero (exact as to existence).
#[inline]
fn has_zero(v: u64) -> u64 {
    v.wrapping_sub(LOW) & !v & HIGH
}

/// Non-zero when some byte of `v` is below `n` (`n` <= 128; exact as to existence).
#[inline]
fn has_less(v: u64, n: u8) -> u64 {
    v.wrapping_sub(LOW * u64::from(n)) & !v & HIGH
}

/// Skips plain string bytes from `i`, in blocks: the offset of the first
/// byte that may be special (a quote, a backslash, a control character, or
/// non-ASCII when `flag_high`), or of the last bytes too few for a block.
#[inline]
fn skip_plain(bytes: &[u8], i: usize, flag_high: bool) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline: every x86_64 CPU has it.
        let (i, found) = unsafe { skip_plain_sse2(bytes, i, flag_high) };
        if found {
            return i;
        }
        skip_plain_words(bytes, i, flag_high)
    }
    #[cfg(not(target_arch = "x86_64"))]
    skip_plain_words(bytes, i, flag_high)
}

/// Sixteen bytes at a time with SSE2: the offset of the first special byte
/// (and `true`), or of the last bytes too few for a block (and `false`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn skip_plain_sse2(bytes: &[u8], mut i: usize, flag_high: bool) -> (usize, bool) {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    // Within an SSE2 function the intrinsics are safe to call; only the load
    // from memory needs `unsafe`.
    let quote = _mm_set1_epi8(b'"' as i8);
    let backslash = _mm_set1_epi8(b'\\' as i8);
    let space = _mm_set1_epi8(0x20);
    let below_space = _mm_set1_epi8(0x1f);
    while let Some(chunk) = bytes.get(i..i + 16) {
        // SAFETY: `chunk` is 16 readable bytes; `loadu` has no alignment need.
        let v = unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) };
        let low = if flag_high {
            // Signed: bytes from 0x80 are negative, so below 0x20 too.
            _mm_cmplt_epi8(v, space)
        } else {
            // Unsigned `v <= 0x1f`: the maximum with 0x1f is 0x1f itself.
            _mm_cmpeq_epi8(_mm_max_epu8(v, below_space), below_space)
        };
        let special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), low);
        let mask = _mm_movemask_epi8(special) as u32;
        if mask != 0 {
            return (i + mask.trailing_zeros() as usize, true);
        }
        i += 16;
    }
    (i, false)
}

/// One bit per byte of `block` that may end a plain run: a quote, a
/// backslash, a control character or a non-ASCII byte.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn special_bytes(block: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    // SAFETY: `block` is 16 readable bytes; `loadu` has no alignment need.
    let v = unsafe { _mm_loadu_si128(block.as_ptr().cast()) };
    // Signed: bytes from 0x80 are negative, so below 0x20 too.
    let low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
    let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
    _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), low)) as u32
}

/// Eight bytes at a time in a `u64`; stops at the first special byte.
#[inline]
fn skip_plain_words(bytes: &[u8], mut i: usize, flag_high: bool) -> usize {
    let high = if flag_high { HIGH } else { 0 };
    while let Some(chunk) = bytes.get(i..i + 8) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else { break };
        let w = u64::from_le_bytes(word);
        let special = has_zero(w ^ (LOW * u64::from(b'"')))
            | has_zero(w ^ (LOW * u64::from(b'\\')))
            | has_less(w, 0x20)
            | (w & high);
        if special != 0 {
            // The lowest flagged byte is the first special one (the tricks
            // are exact for the first; only later bytes may be flagged
            // falsely): skip the plain bytes before it.
            return i + (special.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// The second byte a lead byte admits (Unicode Table 3-7), as the lowest
/// value and the width of the range, and the sequence's length; 0 as the
/// length for a byte that cannot start one (ASCII, a continuation byte,
/// C0, C1, F5..FF).
static UTF8_LEAD: [(u8, u8, u8); 256] = {
    let mut t = [(0u8, 0u8, 0u8); 256];
    let mut i = 0;
    while i < 256 {
        t[i] = match i {
            0xC2..=0xDF => (0x80, 0x3F, 2),
            0xE0 => (0xA0, 0x1F, 3),
            0xE1..=0xEC | 0xEE..=0xEF => (0x80, 0x3F, 3),
            0xED => (0x80, 0x1F, 3),
            0xF0 => (0x90, 0x2F, 4),
            0xF1..=0xF3 => (0x80, 0x3F, 4),
            0xF4 => (0x80, 0x0F, 4),
            _ => (0, 0, 0),
        };
        i += 1;
    }
    t
};

/// Whether `b` is a UTF-8 continuation byte (80..BF).
#[inline(always)]
fn is_continuation(b: u8) -> bool {
    (b as i8) < -0x40
}

/// The length of the well-formed UTF-8 character starting at `i` (a byte
/// from 0x80), or 0 when the sequence there is ill-formed (including one cut
/// short by the end of `bytes` or by any byte that is not its continuation).
#[inline(always)]
fn utf8_char_width(bytes: &[u8], i: usize) -> usize {
    let (lo, span, width) = UTF8_LEAD[bytes[i] as usize];
    let at = |k: usize| bytes.get(i + k).copied().unwrap_or(0);
    if width == 0 || at(1).wrapping_sub(lo) > span {
        return 0;
    }
    if width >= 3 && !is_continuation(at(2)) {
        return 0;
    }
    if width == 4 && !is_continuation(at(3)) {
        return 0;
    }
    width as usize
}

/// A cursor over JSON bytes.
#[derive(Debug, Clone)]
pub struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Scanner<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Scanner { bytes, pos: 0 }
    }

    /// The input this scanner reads.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The current byte offset.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Moves to `pos` (the start of a value read before), so that a value
    /// can be read again with offsets that stay those of the whole input.
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos;
    }

    fn err<T>(&self, offset: usize, kind: SyntaxErrorKind) -> Result<T, SyntaxError> {
        Err(SyntaxError { offset, kind })
    }

    /// Skips white space; the byte it stops at, `None` at the end. Every
    /// byte that starts a token is above the space: one compare for the
    /// common case, no white space; the caller matches the byte returned
    /// rather than reading it again.
    #[inline(always)]
    fn skip_ws(&mut self) -> Option<u8> {
        let c = *self.bytes.get(self.pos)?;
        if c > b' ' {
            return Some(c);
        }
        self.skip_ws_from(c)
    }

    /// [`Self::skip_ws`] from a byte at or below the space (`c`, at `pos`).
    #[inline]
    fn skip_ws_from(&mut self, mut c: u8) -> Option<u8> {
        while matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
            self.pos += 1;
            c = *self.bytes.get(self.pos)?;
        }
        Some(c)
    }

    /// Skips white space and tells the kind of the value that starts there.
    #[inline(always)]
    pub fn peek_kind(&mut self) -> Result<Kind, SyntaxError> {
        match self.skip_ws() {
            Some(b'{') => Ok(Kind::Object),
            Some(b'[') => Ok(Kind::Array),
            Some(b'"') => Ok(Kind::String),
            Some(b'-' | b'0'..=b'9') => Ok(Kind::Number),
            Some(b't' | b'f') => Ok(Kind::Bool),
            Some(b'n') => Ok(Kind::Null),
            Some(_) => self.err(self.pos, SyntaxErrorKind::ExpectedValue),
            None => self.err(self.pos, SyntaxErrorKind::UnexpectedEnd),
        }
    }

    /// Reads `true`, `false` or `null` (after `peek_kind`); `None` is null.
    pub fn literal(&mut self) -> Result<Option<bool>, SyntaxError> {
        let rest = &self.bytes[self.pos..];
        let (word, value): (&[u8], Option<bool>) = match rest.first() {
            Some(b't') => (b"true", Some(true)),
            Some(b'f') => (b"false", Some(false)),
            _ => (b"null", None),
        };
        if rest.starts_with(word) {
            self.pos += word.len();
            Ok(value)
        } else {
            self.err(self.pos, SyntaxErrorKind::InvalidLiteral)
        }
    }

    /// Reads a string (after `peek_kind` returned `String`, or at a key).
    /// Always inlined: the token then stays in registers, where returning
    /// it through memory stalled on store forwarding.
    #[inline(always)]
    pub fn string(&mut self) -> Result<Str<'a>, SyntaxError> {
        // The common case inline: plain ASCII up to the closing quote.
        let start = self.pos + 1;
        let end = skip_plain(self.bytes, start, true);
        if let (Some(b'"'), Some(raw)) = (self.bytes.get(end), self.bytes.get(start..end)) {
            self.pos = end + 1;
            return Ok(Str::new(raw, false, start));
        }
        // The rest returns its end in registers (an `Option` of two words),
        // so the token is built here on both ways, not merged through
        // memory (whose copies stalled store forwarding at every key with
        // non-ASCII text or an escape); a fault is worked out again, cold.
        match self.string_end(end) {
            Some((end, escaped)) => {
                self.pos = end + 1;
                Ok(Str::new(&self.bytes[start..end], escaped, start))
            }
            None => Err(self.string_fault(start, end)),
        }
    }

    /// Reads a string only to know it is one (its value is not looked at):
    /// a plain string whose closing quote is among the 16 bytes after the
    /// opening one is read here, inline; any other goes to
    /// [`Scanner::string_apart`], out of line, so that a long text's block
    /// loop runs in a small function with its constants in registers rather
    /// than reloading them wherever a large caller inlined it.
    #[inline(always)]
    pub fn skip_string(&mut self) -> Result<(), SyntaxError> {
        #[cfg(target_arch = "x86_64")]
        {
            let start = self.pos + 1;
            if let Some(block) = self.bytes.get(start..).and_then(|rest| rest.first_chunk::<16>()) {
                // SAFETY: SSE2 is part of the x86_64 baseline: every x86_64 CPU has it.
                let mask = unsafe { special_bytes(block) };
                let end = start + mask.trailing_zeros() as usize;
                if mask != 0 && self.bytes.get(end) == Some(&b'"') {
                    self.pos = end + 1;
                    return Ok(());
                }
            }
        }
        self.string_apart().map(drop)
    }

    /// [`Scanner::string`], never inlined (see [`Scanner::skip_string`]).
    #[inline(never)]
    fn string_apart(&mut self) -> Result<Str<'a>, SyntaxError> {
        self.string()
    }

    /// [`Scanner::string_rest`] without its fault: the offset of the
    /// closing quote and whether an escape came before it.
    #[inline(never)]
    fn string_end(&self, i: usize) -> Option<(usize, bool)> {
        self.string_rest(i).ok()
    }

    /// [`Scanner::string_rest`]'s fault, after [`Scanner::string_end`] found
    /// one on the same bytes (the scan is deterministic, so the `Ok` arm is
    /// never taken; it keeps this function total without a panic).
    #[cold]
    #[inline(never)]
    fn string_fault(&self, start: usize, i: usize) -> SyntaxError {
        match self.string_rest(i) {
            Err(e) => e,
            Ok(_) => SyntaxError { offset: start, kind: SyntaxErrorKind::UnexpectedEnd },
        }
    }

    /// The rest of a string whose plain ASCII prefix ends at `i`: escapes,
    /// non-ASCII text, faults. Gives the offset of the closing quote and
    /// whether an escape came before it.
    ///
    /// UTF-8 is checked in the same pass, one character where it meets it.
    /// A fault of the string's own (a control character, a bad escape, the
    /// end of the input before the closing quote) wins over ill-formed
    /// UTF-8 before it: the first ill-formed sequence is remembered and
    /// reported only once the closing quote is found.
    #[inline(always)]
    fn string_rest(&self, mut i: usize) -> Result<(usize, bool), SyntaxError> {
        let mut escaped = false;
        // The offset of the first ill-formed UTF-8 sequence, once one is seen.
        let mut bad_utf8: Option<usize> = None;
        let bytes = self.bytes;
        loop {
            // Plain bytes in blocks, up to the first one that may be special
            // (a quote, a backslash, a control character, or non-ASCII while
            // the text is well-formed so far), then that byte on its own.
            i = skip_plain(bytes, i, bad_utf8.is_none());
            let Some(&c) = bytes.get(i) else {
                return self.err(bytes.len(), SyntaxErrorKind::UnexpectedEnd);
            };
            match STRING_CLASS[c as usize] {
                0 => i += 1,
                1 => break,
                2 => {
                    escaped = true;
                    i = self.escape(i)?;
                }
                3 => return self.err(i, SyntaxErrorKind::ControlCharacter),
                _ if bad_utf8.is_some() => i += 1,
                _ => {
                    // A run of non-ASCII characters, each checked as it
                    // comes, without going back to the blocks between them.
                    loop {
                        let width = utf8_char_width(bytes, i);
                        if width == 0 {
                            bad_utf8 = Some(i);
                            i += 1;
                            break;
                        }
                        i += width;
                        match bytes.get(i) {
                            Some(&b) if b >= 0x80 => {}
                            _ => break,
                        }
                    }
                }
            }
        }
        if let Some(at) = bad_utf8 {
            return self.err(at, SyntaxErrorKind::InvalidUtf8);
        }
        Ok((i, escaped))
    }

    /// Checks one escape sequence starting at the backslash at `i`, returning
    /// the offset just past it.
    fn escape(&self, i: usize) -> Result<usize, SyntaxError> {
        match self.bytes.get(i + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 2),
            Some(b'u') => {
                let unit = self.hex4(i + 2)?;
                if (0xDC00..0xE000).contains(&unit) {
                    return self.err(i, SyntaxErrorKind::UnpairedSurrogate);
                }
                if (0xD800..0xDC00).contains(&unit) {
                    let next = i + 6;
                    if self.bytes.get(next) == Some(&b'\\') && self.bytes.get(next + 1) == Some(&b'u') {
                        let low = self.hex4(next + 2)?;
                        if (0xDC00..0xE000).contains(&low) {
                            return Ok(next + 6);
                        }
                    }
                    return self.err(i, SyntaxErrorKind::UnpairedSurrogate);
                }
                Ok(i + 6)
            }
            Some(_) => self.err(i, SyntaxErrorKind::InvalidEscape),
            None => self.err(self.bytes.len(), SyntaxErrorKind::UnexpectedEnd),
        }
    }

    fn hex4(&self, at: usize) -> Result<u32, SyntaxError> {
        let Some(digits) = self.bytes.get(at..at + 4) else {
            return self.err(at.min(self.bytes.len()), SyntaxErrorKind::InvalidUnicodeEscape);
        };
        let mut v = 0u32;
        for &d in digits {
            let n = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return self.err(at, SyntaxErrorKind::InvalidUnicodeEscape),
            };
            v = v * 16 + u32::from(n);
        }
        Ok(v)
    }

    /// Reads a number (after `peek_kind` returned `Number`).
    #[inline]
    pub fn number(&mut self) -> Result<Num<'a>, SyntaxError> {
        let start = self.pos;
        let (int_start, int_end, frac_end) = self.number_parts()?;
        // The grammar admits ASCII only.
        let raw = std::str::from_utf8(&self.bytes[start..self.pos]).unwrap_or("0");
        Ok(Num::from_parts(raw, int_start - start, int_end - start, frac_end - start))
    }

    /// Reads a number without making its value; `true` when it is written
    /// as a plain integer (no fraction, no exponent).
    #[inline]
    pub fn skip_number(&mut self) -> Result<bool, SyntaxError> {
        let (_, int_end, frac_end) = self.number_parts()?;
        Ok(int_end == self.pos && frac_end == int_end)
    }

    /// Checks the number grammar and moves past the number: the offsets
    /// where its integer part starts and ends and where its fraction ends.
    #[inline]
    fn number_parts(&mut self) -> Result<(usize, usize, usize), SyntaxError> {
        let b = self.bytes;
        let mut i = self.pos;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let int_start = i;
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                i += 1;
                while matches!(b.get(i), Some(b'0'..=b'9')) {
                    i += 1;
                }
            }
            _ => return self.err(i, SyntaxErrorKind::InvalidNumber),
        }
        let int_end = i;
        let mut frac_end = i;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let fs = i;
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
            if i == fs {
                return self.err(i, SyntaxErrorKind::InvalidNumber);
            }
            frac_end = i;
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let es = i;
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
            if i == es {
                return self.err(i, SyntaxErrorKind::InvalidNumber);
            }
        }
        self.pos = i;
        Ok((int_start, int_end, frac_end))
    }

    /// Consumes the `{` of an object.
    #[inline]
    pub fn object_start(&mut self) {
        self.pos += 1;
    }

    /// Reads the next key of an object and the `:` after it; `None` at `}`.
    /// `first` tells whether no member has been read yet.
    #[inline(always)]
    pub fn object_key(&mut self, first: bool) -> Result<Option<Str<'a>>, SyntaxError> {
        let next = match self.skip_ws() {
            Some(b'}') => {
                self.pos += 1;
                return Ok(None);
            }
            Some(b',') if !first => {
                self.pos += 1;
                self.skip_ws()
            }
            Some(_) if !first => return self.err(self.pos, SyntaxErrorKind::ExpectedCommaOrObjectEnd),
            next => next,
        };
        match next {
            Some(b'"') => {}
            Some(_) => return self.err(self.pos, SyntaxErrorKind::ExpectedKey),
            None => return self.err(self.pos, SyntaxErrorKind::UnexpectedEnd),
        }
        let key = self.string()?;
        match self.skip_ws() {
            Some(b':') => {
                self.pos += 1;
                Ok(Some(key))
            }
            Some(_) => self.err(self.pos, SyntaxErrorKind::ExpectedColon),
            None => self.err(self.pos, SyntaxErrorKind::UnexpectedEnd),
        }
    }

    /// Consumes the `[` of an array.
    #[inline]
    pub fn array_start(&mut self) {
        self.pos += 1;
    }

    /// Moves to the next element of an array; `false` at `]`.
    #[inline]
    pub fn array_next(&mut self, first: bool) -> Result<bool, SyntaxError> {
        match self.skip_ws() {
            Some(b']') => {
                self.pos += 1;
                Ok(false)
            }
            Some(b',') if !first => {
                self.pos += 1;
                Ok(true)
            }
            Some(_) if first => Ok(true),
            Some(_) => self.err(self.pos, SyntaxErrorKind::ExpectedCommaOrArrayEnd),
            None => self.err(self.pos, SyntaxErrorKind::UnexpectedEnd),
        }
    }

    /// Skips one whole value without recursion (any depth), checking syntax.
    pub fn skip_value(&mut self) -> Result<(), SyntaxError> {
        // Each entry: true for an object, false for an array.
        let mut stack: Vec<bool> = Vec::new();
        loop {
            match self.peek_kind()? {
                Kind::Object => {
                    self.object_start();
                    if self.object_key(true)?.is_some() {
                        stack.push(true);
                        continue;
                    }
                }
                Kind::Array => {
                    self.array_start();
                    if self.array_next(true)? {
                        stack.push(false);
                        continue;
                    }
                }
                Kind::String => {
                    self.string()?;
                }
                Kind::Number => {
                    self.number()?;
                }
                Kind::Bool | Kind::Null => {
                    self.literal()?;
                }
            }
            // A value ended: close every container that ends here.
            loop {
                match stack.last() {
                    None => return Ok(()),
                    Some(true) => {
                        if self.object_key(false)?.is_some() {
                            break;
                        }
                        stack.pop();
                    }
                    Some(false) => {
                        if self.array_next(false)? {
                            break;
                        }
                        stack.pop();
                    }
                }
            }
        }
    }

    /// Checks that only white space follows the value.
    pub fn finish(&mut self) -> Result<(), SyntaxError> {
        if self.skip_ws().is_some() {
            self.err(self.pos, SyntaxErrorKind::TrailingCharacters)
        } else {
            Ok(())
        }
    }
}

/// Turns nondecreasing byte offsets into lines and columns in one forward
/// pass, so positioning many places costs one scan of the document.
#[derive(Debug)]
pub struct Positions<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
    col: usize,
}

impl<'a> Positions<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Positions { bytes, at: 0, line: 1, col: 1 }
    }

    /// The 1-based line and column of `offset`; offsets before the last one
    /// asked for restart the scan.
    pub fn of(&mut self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.bytes.len());
        if offset < self.at {
            *self = Positions::new(self.bytes);
        }
        for &b in &self.bytes[self.at..offset] {
            if b == b'\n' {
                self.line += 1;
                self.col = 1;
            } else if (b & 0xC0) != 0x80 {
                self.col += 1;
            }
        }
        self.at = offset;
        (self.line, self.col)
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(bytes.len());
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    // Count characters: every byte that is not a UTF-8 continuation byte.
    let col = before[line_start..].iter().filter(|&&b| (b & 0xC0) != 0x80).count() + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str) -> Result<(), SyntaxError> {
        let mut s = Scanner::new(input.as_bytes());
        s.skip_value()?;
        s.finish()
    }

    #[test]
    fn accepts_valid_documents() {
        for doc in [
            "null",
            " true ",
            "[1, -0.5e+3, \"a\\u00e9\\ud83d\\ude00\", {\"k\": []}]",
            "{\"a\":{\"b\":{\"c\":[[],[{}]]}}}",
            "\"\u{e9}\"",
        ] {
            assert_eq!(check(doc), Ok(()), "{doc}");
        }
    }

    #[test]
    fn rejects_with_offset_and_kind() {
        use SyntaxErrorKind::*;
        let cases: &[(&str, usize, SyntaxErrorKind)] = &[
            ("", 0, UnexpectedEnd),
            ("[1,]", 3, ExpectedValue),
            ("{\"a\" 1}", 5, ExpectedColon),
            ("{\"a\":1,}", 7, ExpectedKey),
            ("{\"a\":1 \"b\":2}", 7, ExpectedCommaOrObjectEnd),
            ("[1 2]", 3, ExpectedCommaOrArrayEnd),
            ("01", 1, TrailingCharacters),
            ("1.", 2, InvalidNumber),
            ("-", 1, InvalidNumber),
            ("1e+", 3, InvalidNumber),
            ("tru", 0, InvalidLiteral),
            ("\"\\x\"", 1, InvalidEscape),
            ("\"\\u12g4\"", 3, InvalidUnicodeEscape),
            ("\"\\ud800\"", 1, UnpairedSurrogate),
            ("\"\\udc00\"", 1, UnpairedSurrogate),
            ("\"a\nb\"", 2, ControlCharacter),
            ("\"abc", 4, UnexpectedEnd),
            ("{\"a\":1} x", 8, TrailingCharacters),
        ];
        for &(doc, offset, kind) in cases {
            assert_eq!(check(doc), Err(SyntaxError { offset, kind }), "{doc:?}");
        }
    }

    #[test]
    fn rejects_invalid_utf8_at_its_offset() {
        let doc = b"[\"ok\", \"a\xff\"]";
        let mut s = Scanner::new(doc);
        assert_eq!(s.skip_value(), Err(SyntaxError { offset: 9, kind: SyntaxErrorKind::InvalidUtf8 }));
    }

    /// The reader as it was before UTF-8 was checked inline, kept as the oracle:
    /// the whole string to its closing quote, then `from_utf8` over it. The
    /// scanner stands at the opening quote; the value's raw bytes, escaped
    /// flag and offset, and the scanner's position after it.
    fn oracle_string(s: &mut Scanner) -> Result<(Vec<u8>, bool, usize), SyntaxError> {
        let bytes = s.bytes;
        let start = s.pos + 1;
        let mut i = start;
        let mut escaped = false;
        let mut non_ascii = false;
        loop {
            i = skip_plain(bytes, i, !non_ascii);
            let Some(&c) = bytes.get(i) else {
                return s.err(bytes.len(), SyntaxErrorKind::UnexpectedEnd);
            };
            match STRING_CLASS[c as usize] {
                0 => i += 1,
                1 => break,
                2 => {
                    escaped = true;
                    i = s.escape(i)?;
                }
                3 => return s.err(i, SyntaxErrorKind::ControlCharacter),
                _ => {
                    non_ascii = true;
                    i += 1;
                }
            }
        }
        let raw = &bytes[start..i];
        if non_ascii {
            if let Err(e) = std::str::from_utf8(raw) {
                return s.err(start + e.valid_up_to(), SyntaxErrorKind::InvalidUtf8);
            }
        }
        s.pos = i + 1;
        Ok((raw.to_vec(), escaped, start))
    }

    /// Reads the string at `at` in `doc` with `Scanner::string` and with the
    /// oracle: the same value (bytes, escaped flag, offset) or the same
    /// fault (kind and offset), and the same position after; and with
    /// `Scanner::skip_string`: a string exactly where the oracle reads one,
    /// and the same position after it.
    fn same_as_oracle(doc: &[u8], at: usize) {
        let mut new = Scanner::new(doc);
        new.seek(at);
        let mut old = new.clone();
        let mut skip = new.clone();
        let got = new.string().map(|v| (v.raw().to_vec(), v.is_escaped(), v.offset()));
        let want = oracle_string(&mut old);
        assert_eq!(got, want, "{doc:02x?} at {at}");
        assert_eq!(new.offset(), old.offset(), "position after {doc:02x?} at {at}");
        let skipped = skip.skip_string();
        assert_eq!(skipped.is_ok(), want.is_ok(), "skip_string on {doc:02x?} at {at}");
        if skipped.is_ok() {
            assert_eq!(skip.offset(), old.offset(), "position after skip_string on {doc:02x?} at {at}");
        }
    }

    /// Every body in `'"' + prefix + body`, with and without a closing quote
    /// (and something after it).
    fn same_for_body(doc: &mut Vec<u8>, prefix: &[u8], body: &[u8]) {
        doc.clear();
        doc.push(b'"');
        doc.extend_from_slice(prefix);
        doc.extend_from_slice(body);
        same_as_oracle(doc, 0);
        doc.extend_from_slice(b"\",");
        same_as_oracle(doc, 0);
    }

    /// Bytes around the edges of the classes and of Table 3-7.
    const INTERESTING: [u8; 30] = [
        0x00, 0x1F, 0x20, b'"', b'\\', b'A', b'u', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
        0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ];

    #[test]
    fn string_matches_oracle_on_every_short_body() {
        let mut doc = Vec::new();
        // Prefixes that put the body at the start, across the end of a
        // 16-byte block, and in the short tail after the blocks.
        let pads: Vec<Vec<u8>> = [0, 1, 13, 14, 15, 16, 17, 30].iter().map(|&n| vec![b'a'; n]).collect();
        for a in 0..=255u8 {
            for pad in &pads {
                same_for_body(&mut doc, pad, &[a]);
                same_for_body(&mut doc, pad, &[a, b'z']);
                same_for_body(&mut doc, pad, &[a, 0xC3, 0xA9]);
            }
            for b in 0..=255u8 {
                for pad in &pads[..4] {
                    same_for_body(&mut doc, pad, &[a, b]);
                }
                // Non-ASCII before, so the body is read after a character.
                same_for_body(&mut doc, "\u{e9}".as_bytes(), &[a, b]);
                same_for_body(&mut doc, b"", &[a, b, b'x', b'y']);
            }
        }
    }

    #[test]
    fn string_matches_oracle_on_every_three_byte_body_from_a_high_byte() {
        let mut doc = Vec::new();
        for a in 0x80..=0xFFu8 {
            for b in 0..=255u8 {
                for c in 0..=255u8 {
                    same_for_body(&mut doc, b"", &[a, b, c]);
                }
            }
        }
    }

    #[test]
    fn string_matches_oracle_on_interesting_three_and_four_byte_bodies() {
        let mut doc = Vec::new();
        for &a in &INTERESTING {
            for &b in &INTERESTING {
                for &c in &INTERESTING {
                    same_for_body(&mut doc, b"", &[a, b, c]);
                    same_for_body(&mut doc, b"0123456789abcd", &[a, b, c]);
                    for &d in &INTERESTING {
                        same_for_body(&mut doc, b"", &[a, b, c, d]);
                    }
                }
            }
        }
    }

    #[test]
    fn string_matches_oracle_on_random_strings() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pieces: [&[u8]; 16] = [
            b"\\n",
            b"\\\"",
            b"\\\\",
            b"\\u00e9",
            b"\\ud83d\\ude00",
            b"\\ud83d",
            b"\\ude00",
            b"\\x",
            b"\\u12",
            "\u{e9}".as_bytes(),
            "\u{7ff}".as_bytes(),
            "\u{65e5}\u{672c}".as_bytes(),
            "\u{fffd}".as_bytes(),
            "\u{1f600}".as_bytes(),
            "\u{10ffff}".as_bytes(),
            "na\u{ef}ve".as_bytes(),
        ];
        let mut doc = Vec::new();
        let mut invalid = 0;
        let mut ok = 0;
        for _ in 0..200_000 {
            doc.clear();
            doc.extend_from_slice(b" \"");
            let parts = next() % 12;
            for _ in 0..parts {
                let r = next();
                match r % 16 {
                    0..=4 => {
                        let n = (r >> 8) % 40;
                        doc.extend((0..n).map(|k| b'a' + (k as u8 % 26)));
                    }
                    5..=9 => doc.extend_from_slice(pieces[(r >> 8) as usize % pieces.len()]),
                    10 | 11 => doc.push(0x80 | (r >> 8) as u8),
                    12 => doc.push((r >> 8) as u8 % 0x20),
                    13 => doc.push(b'"'),
                    14 => {
                        // A character cut short.
                        let c = pieces[9 + (r >> 8) as usize % 7];
                        doc.extend_from_slice(&c[..c.len() - 1]);
                    }
                    _ => doc.push((r >> 8) as u8),
                }
            }
            if next() % 8 != 0 {
                doc.push(b'"');
            }
            let mut s = Scanner::new(&doc);
            s.seek(1);
            match s.string() {
                Ok(_) => ok += 1,
                Err(e) if e.kind == SyntaxErrorKind::InvalidUtf8 => invalid += 1,
                Err(_) => {}
            }
            same_as_oracle(&doc, 1);
        }
        // The mix reaches both outcomes often.
        assert!(ok > 20_000 && invalid > 20_000, "{ok} valid, {invalid} invalid UTF-8");
    }

    #[test]
    fn invalid_utf8_yields_to_later_string_faults() {
        use SyntaxErrorKind::*;
        let cases: &[(&[u8], usize, SyntaxErrorKind)] = &[
            (b"\"a\xffb\"", 2, InvalidUtf8),
            (b"\"a\xffb", 4, UnexpectedEnd),
            (b"\"a\xffb\x01\"", 4, ControlCharacter),
            (b"\"a\xffb\\q\"", 4, InvalidEscape),
            (b"\"\xe6\x97\"", 1, InvalidUtf8),
            (b"\"\xc3\xa9\xed\xa0\x80\"", 3, InvalidUtf8),
            (b"\"\xf4\x90\x80\x80\"", 1, InvalidUtf8),
        ];
        for &(doc, offset, kind) in cases {
            let mut s = Scanner::new(doc);
            assert_eq!(s.string().map(|_| ()), Err(SyntaxError { offset, kind }), "{doc:02x?}");
            assert_eq!(s.offset(), 0);
        }
    }

    #[test]
    fn skip_value_survives_deep_nesting() {
        let doc = "[".repeat(100_000) + &"]".repeat(100_000);
        assert_eq!(check(&doc), Ok(()));
    }

    #[test]
    fn line_and_column_count_characters() {
        let doc = "{\n  \"é\": x\n}".as_bytes();
        let at = doc.iter().position(|&b| b == b'x').unwrap();
        assert_eq!(line_col(doc, at), (2, 8));
        assert_eq!(line_col(doc, 0), (1, 1));
    }
}
