//! The `format` keyword as an assertion (JSON Schema 2020-12 with the
//! format-assertion vocabulary on): one hand-written parser per format name,
//! judging a string. Non-string values are never judged (the caller skips
//! them); a format not in [`ASSERTED`] is only an annotation ([`check`] gives
//! `None`).
//!
//! What each format checks:
//!
//! - `date-time`, `date`, `time`: RFC 3339 §5.6 `date-time`, `full-date`,
//!   `full-time`. Four-digit year; month `01`..`12`; day within the month,
//!   February 29 only in Gregorian leap years; hour `00`..`23`, minute
//!   `00`..`59`; second `00`..`60`, where `60` (a leap second) is accepted
//!   only when the time, moved to UTC by its offset, is `23:59`; optional
//!   fraction `.` and one or more digits; the offset (`Z` or `±hh:mm`, hours
//!   `00`..`23`, minutes `00`..`59`) is required. `T` and `Z` may be lower
//!   case (RFC 3339 §5.6, note); a space in place of `T` is not accepted.
//! - `duration`: RFC 3339 Appendix A (ISO 8601): `P` then a date part
//!   (consecutive units among `Y`, `M`, `D`, in that order) and/or `T` and a
//!   time part (consecutive units among `H`, `M`, `S`), or weeks (`W`) alone.
//!   Integer components only, no sign. Letters are matched case-insensitively,
//!   as ABNF string literals are (RFC 5234 §2.3).
//! - `email`: RFC 5321 §4.1.2 `Mailbox`: a dot-string or quoted-string local
//!   part (at most 64 octets, §4.5.3.1.1), `@`, and a domain (as `hostname`)
//!   or an address literal: `[` IPv4 `]` or `[IPv6:` IPv6 `]`. The
//!   general address literal (`[tag:content]`) is not accepted.
//! - `hostname`: RFC 1123 §2.1: dot-separated labels of letters, digits and
//!   hyphens, 1 to 63 octets each, not starting or ending with a hyphen, 253
//!   octets in all, no trailing dot. A label starting `xn--` (any case) is an
//!   IDNA A-label (RFC 5891 §4.4): its Punycode (RFC 3492) must decode to a
//!   valid U-label, see [`idna`]. Other labels with `--` in the third and
//!   fourth positions are accepted, as RFC 1123 allows.
//! - `ipv4`: RFC 2673 §3.2 dotted quad: four decimal octets `0`..`255`, no
//!   leading zeros, nothing else.
//! - `ipv6`: RFC 4291 §2.2: eight groups of one to four hex digits, at most one
//!   `::` standing for one or more zero groups, and an optional dotted-quad
//!   tail counting as two groups. No zone id, prefix length or brackets.
//! - `uri`: RFC 3986 §3 `URI`: a scheme, then the hierarchical part (with
//!   authority: userinfo, host as IP literal or reg-name, numeric port),
//!   query and fragment, every character from the allowed set or
//!   percent-encoded (`%` and two hex digits). ASCII only.
//! - `uri-reference`: RFC 3986 §4.1 `URI-reference`: a `uri`, or a relative
//!   reference, whose first path segment may not hold `:`.
//! - `uri-template`: RFC 6570 §2 syntax at level 4: literals and `{...}`
//!   expressions with an optional operator and a comma-separated list of
//!   variable names with an optional `:prefix` (1..9999) or `*`. One
//!   departure, with the JSON-Schema-Test-Suite: `'` is a valid literal
//!   (RFC 6570's `literals` leaves it out; RFC 3986 allows it).
//! - `uuid`: RFC 4122 §3 string form: 8-4-4-4-12 hex digits (any case) with
//!   hyphens; version and variant nibbles are not restricted.
//! - `json-pointer`: RFC 6901 §3: empty, or `/`-prefixed reference tokens in
//!   which `~` is always followed by `0` or `1`.
//! - `regex`: an ECMA-262 regular expression, approximated by the
//!   `regex-syntax` parser, see [`is_regex`] for where the two dialects differ.
//! - `byte`: RFC 4648 §4 standard base64 with padding, as MCP carries binary
//!   data: the alphabet `A-Z a-z 0-9 + /`, a length that is a multiple of
//!   four, `=` only as one or two final padding characters; no line breaks or
//!   spaces. The empty string is valid.
//!
//! The parsers work on the bytes of the string and allocate nothing, except
//! for `regex` (the parser builds a syntax tree) and, once per process, the
//! Unicode tables of the A-label check.

/// The formats asserted, sorted.
pub(crate) const ASSERTED: &[&str] = &[
    "byte",
    "date",
    "date-time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "json-pointer",
    "regex",
    "time",
    "uri",
    "uri-reference",
    "uri-template",
    "uuid",
];

/// Whether `text` is a valid `format`; `None` when the format is not asserted (an annotation).
pub(crate) fn check(format: &str, text: &str) -> Option<bool> {
    match format {
        "regex" => Some(is_regex(text)),
        "uri-template" => Some(is_uri_template(text)),
        _ => check_bytes(format, text.as_bytes()),
    }
}

/// [`check`] on the bytes of valid UTF-8 text, for every format whose parser
/// reads bytes (all but `regex` and `uri-template`, which answer `None`
/// here): the walker calls it on an unescaped string's raw bytes, without
/// decoding them a second time.
#[inline]
pub(crate) fn check_bytes(format: &str, b: &[u8]) -> Option<bool> {
    Some(match format {
        "byte" => is_byte(b),
        "date" => is_date(b),
        "date-time" => is_date_time(b),
        "duration" => is_duration(b),
        "email" => is_email(b),
        "hostname" => is_hostname(b),
        "ipv4" => is_ipv4(b),
        "ipv6" => is_ipv6(b),
        "json-pointer" => is_json_pointer(b),
        "time" => is_time(b),
        "uri" => is_uri(b, true),
        "uri-reference" => is_uri(b, false),
        "uuid" => is_uuid(b),
        _ => return None,
    })
}

// ---------------------------------------------------------------- dates

/// The value of the two ASCII digits at `b[i..i + 2]`.
fn two_digits(b: &[u8], i: usize) -> Option<u32> {
    match b.get(i..i + 2)? {
        [x @ b'0'..=b'9', y @ b'0'..=b'9'] => Some(u32::from(x - b'0') * 10 + u32::from(y - b'0')),
        _ => None,
    }
}

/// RFC 3339 `full-date`: `YYYY-MM-DD` with the day within its month.
pub(crate) fn is_date(b: &[u8]) -> bool {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(century), Some(yy), Some(month), Some(day)) =
        (two_digits(b, 0), two_digits(b, 2), two_digits(b, 5), two_digits(b, 8))
    else {
        return false;
    };
    let year = century * 100 + yy;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339 `full-time`: `hh:mm:ss[.frac]` and a required offset; second 60
/// only at 23:59 UTC.
pub(crate) fn is_time(b: &[u8]) -> bool {
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (two_digits(b, 0), two_digits(b, 3), two_digits(b, 6)) else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut i = 8;
    if b[i] == b'.' {
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        i += 1 + digits;
    }
    // Minutes east of UTC.
    let offset: i32 = match &b[i..] {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), rest @ ..] if rest.len() == 5 && rest[2] == b':' => {
            let (Some(oh), Some(om)) = (two_digits(rest, 0), two_digits(rest, 3)) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let minutes = (oh * 60 + om) as i32;
            if *sign == b'-' {
                -minutes
            } else {
                minutes
            }
        }
        _ => return false,
    };
    if second == 60 {
        let utc = ((hour * 60 + minute) as i32 - offset).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// RFC 3339 `date-time`: `full-date`, `T` (any case), `full-time`.
pub(crate) fn is_date_time(b: &[u8]) -> bool {
    b.len() > 11 && is_date(&b[..10]) && matches!(b[10], b'T' | b't') && is_time(&b[11..])
}

/// RFC 3339 Appendix A `duration`.
pub(crate) fn is_duration(b: &[u8]) -> bool {
    let Some((first, rest)) = b.split_first() else {
        return false;
    };
    if !first.eq_ignore_ascii_case(&b'P') {
        return false;
    }
    let (date, time) = match rest.iter().position(|c| c.eq_ignore_ascii_case(&b'T')) {
        Some(t) => (&rest[..t], Some(&rest[t + 1..])),
        None => (rest, None),
    };
    if date.is_empty() && time.is_none() {
        return false;
    }
    if let [digits @ .., w] = date {
        if w.eq_ignore_ascii_case(&b'W') {
            // `dur-week` stands alone.
            return time.is_none() && !digits.is_empty() && digits.iter().all(u8::is_ascii_digit);
        }
    }
    duration_units(date, b"YMD") && time.is_none_or(|t| !t.is_empty() && duration_units(t, b"HMS"))
}

/// Components `1*DIGIT unit` whose units are consecutive in `order`.
fn duration_units(mut b: &[u8], order: &[u8]) -> bool {
    // Index in `order` of the unit the previous component used.
    let mut last: Option<usize> = None;
    while !b.is_empty() {
        let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let Some(unit) = b.get(digits) else {
            return false;
        };
        let Some(at) = order.iter().position(|u| u.eq_ignore_ascii_case(unit)) else {
            return false;
        };
        if digits == 0 || last.is_some_and(|l| at != l + 1) {
            return false;
        }
        last = Some(at);
        b = &b[digits + 1..];
    }
    true
}

// ---------------------------------------------------------------- addresses

/// RFC 2673 dotted quad without leading zeros.
pub(crate) fn is_ipv4(b: &[u8]) -> bool {
    let mut parts = 0;
    for part in b.split(|&c| c == b'.') {
        parts += 1;
        let ok = match part {
            [b'0'] => true,
            [b'1'..=b'9'] | [b'1'..=b'9', b'0'..=b'9'] => true,
            [b'1'..=b'9', b'0'..=b'9', b'0'..=b'9'] => part <= b"255".as_slice(),
            _ => false,
        };
        if !ok || parts > 4 {
            return false;
        }
    }
    parts == 4
}

/// RFC 4291 §2.2 text form.
pub(crate) fn is_ipv6(b: &[u8]) -> bool {
    /// Groups of `part` (`h16 *(":" h16)`, possibly ending in a dotted quad
    /// when `tail`), counting the quad as two; `None` if malformed.
    fn groups(part: &[u8], tail: bool) -> Option<usize> {
        if part.is_empty() {
            return Some(0);
        }
        let mut count = 0;
        let mut pieces = part.split(|&c| c == b':').peekable();
        while let Some(piece) = pieces.next() {
            let last = pieces.peek().is_none();
            if last && tail && piece.contains(&b'.') {
                if !is_ipv4(piece) {
                    return None;
                }
                count += 2;
            } else if (1..=4).contains(&piece.len()) && piece.iter().all(u8::is_ascii_hexdigit) {
                count += 1;
            } else {
                return None;
            }
        }
        Some(count)
    }
    match b.windows(2).position(|w| w == b"::") {
        None => groups(b, true) == Some(8),
        Some(at) => {
            let (left, right) = (&b[..at], &b[at + 2..]);
            match (groups(left, false), groups(right, true)) {
                (Some(l), Some(r)) => l + r <= 7,
                _ => false,
            }
        }
    }
}

/// RFC 4122 `8-4-4-4-12` hex digits.
pub(crate) fn is_uuid(b: &[u8]) -> bool {
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// RFC 4648 §4 base64 with padding.
pub(crate) fn is_byte(b: &[u8]) -> bool {
    let alphabet = |c: &u8| CLASS[*c as usize] & BASE64 != 0;
    if !b.len().is_multiple_of(4) {
        return false;
    }
    let body = match b {
        [body @ .., x, b'=', b'='] if alphabet(x) => body,
        [body @ .., x, y, b'='] if alphabet(x) && alphabet(y) => body,
        _ => b,
    };
    all_bytes(body, base64_byte)
}

/// The base64 alphabet (`A-Z a-z 0-9 + /`) as range comparisons, which LLVM
/// vectorises over a chunk (a table lookup per byte does not); the same set
/// as `CLASS[c] & BASE64` (a unit test compares all 256 bytes).
#[inline(always)]
fn base64_byte(c: u8) -> bool {
    (c.wrapping_sub(b'A') < 26) | (c.wrapping_sub(b'a') < 26) | (c.wrapping_sub(b'0') < 10) | (c == b'+') | (c == b'/')
}

/// RFC 3986 `pchar` and `/` as range comparisons (vectorised as
/// [`base64_byte`]): letters, digits, `!`, `$` to `;` but `%`, `=`, `@`, `_`,
/// `~`; the same set as [`path_char`] (a unit test compares all 256 bytes).
#[inline(always)]
fn path_byte(c: u8) -> bool {
    (c.wrapping_sub(b'a') < 26)
        | (c.wrapping_sub(b'@') < 27)
        | ((c.wrapping_sub(b'$') < 24) & (c != b'%'))
        | (c == b'!')
        | (c == b'=')
        | (c == b'_')
        | (c == b'~')
}

/// Whether every byte is in the set `class` tells: branch-free over 16-byte
/// chunks (no early exit inside a chunk, so LLVM vectorises the
/// comparisons), the tail as the last 16 bytes (overlapping the chunk
/// before: checking a byte twice changes nothing); shorter strings byte by
/// byte.
#[inline(always)]
fn all_bytes(b: &[u8], class: impl Fn(u8) -> bool + Copy) -> bool {
    const CHUNK: usize = 16;
    #[inline(always)]
    fn chunk_ok(chunk: &[u8], class: impl Fn(u8) -> bool) -> bool {
        let chunk: &[u8; CHUNK] = chunk.try_into().expect("a whole chunk");
        chunk.iter().fold(true, |all, &c| all & class(c))
    }
    if b.len() < CHUNK {
        return b.iter().fold(true, |all, &c| all & class(c));
    }
    let mut chunks = b.chunks_exact(CHUNK);
    for chunk in &mut chunks {
        if !chunk_ok(chunk, class) {
            return false;
        }
    }
    chunks.remainder().is_empty() || chunk_ok(&b[b.len() - CHUNK..], class)
}

/// RFC 6901 JSON pointer.
pub(crate) fn is_json_pointer(b: &[u8]) -> bool {
    if b.first().is_some_and(|&c| c != b'/') {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'~' {
            if !matches!(b.get(i + 1), Some(b'0' | b'1')) {
                return false;
            }
            i += 1;
        }
        i += 1;
    }
    true
}

// ---------------------------------------------------------------- hostnames and email

/// RFC 1123 host name, with IDNA A-labels checked ([`idna`]).
pub(crate) fn is_hostname(b: &[u8]) -> bool {
    if b.is_empty() || b.len() > 253 {
        return false;
    }
    b.split(|&c| c == b'.').all(|label| {
        let ldh = (1..=63).contains(&label.len())
            && label.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
            && label[0] != b'-'
            && label[label.len() - 1] != b'-';
        ldh && (label.len() < 4 || !label[..4].eq_ignore_ascii_case(b"xn--") || idna::is_a_label(&label[4..]))
    })
}

/// RFC 5321 §4.1.2 `Mailbox`.
pub(crate) fn is_email(b: &[u8]) -> bool {
    let atext = |c: u8| c.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&c);
    // The local part's length: a quoted string or a dot-string.
    let local = if b.first() == Some(&b'"') {
        let mut i = 1;
        loop {
            match b.get(i) {
                Some(b'"') => break i + 1,
                Some(b'\\') if b.get(i + 1).is_some_and(|c| (32..=126).contains(c)) => i += 2,
                Some(32..=126) => i += 1,
                _ => return false,
            }
        }
    } else {
        let len = b.iter().position(|&c| c == b'@').unwrap_or(b.len());
        if !b[..len].split(|&c| c == b'.').all(|atom| !atom.is_empty() && atom.iter().all(|&c| atext(c))) {
            return false;
        }
        len
    };
    if local > 64 || b.get(local) != Some(&b'@') {
        return false;
    }
    match &b[local + 1..] {
        [b'[', literal @ .., b']'] => match literal {
            [i, p, v, b'6', b':', v6 @ ..] if [*i, *p, *v].eq_ignore_ascii_case(b"IPv") => is_ipv6(v6),
            v4 => is_ipv4(v4),
        },
        domain => is_hostname(domain),
    }
}

/// IDNA2008 A-labels: the Punycode is decoded (RFC 3492) and the U-label
/// checked against RFC 5891 §4.2.3 and RFC 5892:
///
/// - no hyphen first or last, no `--` in the third and fourth positions, no
///   combining mark (general category M) first;
/// - every code point PVALID, or CONTEXTJ/CONTEXTO with its rule (RFC 5892
///   Appendix A) met. ASCII letters are taken case-insensitively, as A-labels
///   are compared (RFC 5891 §5.4).
///
/// PVALID is derived as RFC 5892 §2 does, from the Unicode 16 tables of
/// `regex-syntax`: the exceptions of §2.6 first; then LetterDigits (general
/// categories Ll Lo Lm Mn Mc Nd) less Unstable (the code points that
/// NFKC-casefolding changes: Changes_When_Casefolded and `UNSTABLE`),
/// Default_Ignorable, White_Space, Noncharacter, the three ignorable blocks
/// and the old Hangul jamo. Known approximations, none exercised by the
/// JSON-Schema-Test-Suite: the Bidi rule (RFC 5893) and the NFC requirement
/// are not checked.
mod idna {
    use std::sync::OnceLock;

    use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};

    /// The LetterDigits code points (general category Ll Lo Lm Mn Mc Nd) for
    /// which `toNFKC(toCaseFold(toNFKC(cp))) != cp` (RFC 5892 §2.2, Unstable),
    /// as ranges that may also span code points outside LetterDigits.
    /// Generated with Python 3.13's `unicodedata` (Unicode 15.1):
    /// `[cp for cp in range(0x80, 0x110000) if category(chr(cp)) in LD and
    /// normalize("NFKC", normalize("NFKC", chr(cp)).casefold()) != chr(cp)]`,
    /// runs merged across non-LetterDigits code points, plus Unicode 16's
    /// outlined digits `1CCF0..1CCF9`. With it, PVALID here equals the IDNA
    /// derived property of Python's `idna` 3.13 (Unicode 17) on every code
    /// point Unicode 16 assigns, except the Cherokee capitals `13A0..13F5`
    /// (Lu, so DISALLOWED by RFC 5892 §2, PVALID in `idna`).
    #[rustfmt::skip]
    const UNSTABLE: &[(u32, u32)] = &[
        (0xAA, 0xDF), (0x133, 0x133), (0x140, 0x140), (0x149, 0x149), (0x17F, 0x17F), (0x1C6, 0x1CC), (0x1F3, 0x1F3),
        (0x2B0, 0x2B8), (0x2E0, 0x2E4), (0x340, 0x341), (0x343, 0x345), (0x374, 0x374), (0x37A, 0x37A), (0x3C2, 0x3C2),
        (0x3D0, 0x3D6), (0x3F0, 0x3F2), (0x3F5, 0x3F5), (0x587, 0x587), (0x675, 0x678), (0x958, 0x95F), (0x9DC, 0x9DF),
        (0xA33, 0xA33), (0xA36, 0xA36), (0xA59, 0xA5B), (0xA5E, 0xA5E), (0xB5C, 0xB5D), (0xE33, 0xE33), (0xEB3, 0xEB3),
        (0xEDC, 0xEDD), (0xF43, 0xF43), (0xF4D, 0xF4D), (0xF52, 0xF52), (0xF57, 0xF57), (0xF5C, 0xF5C), (0xF69, 0xF69),
        (0xF73, 0xF73), (0xF75, 0xF79), (0xF81, 0xF81), (0xF93, 0xF93), (0xF9D, 0xF9D), (0xFA2, 0xFA2), (0xFA7, 0xFA7),
        (0xFAC, 0xFAC), (0xFB9, 0xFB9), (0x10FC, 0x10FC), (0x13F8, 0x13FD), (0x1C80, 0x1C88), (0x1D2C, 0x1D2E),
        (0x1D30, 0x1D3A), (0x1D3C, 0x1D4D), (0x1D4F, 0x1D6A), (0x1D78, 0x1D78), (0x1D9B, 0x1DBF), (0x1E9A, 0x1E9B),
        (0x1F71, 0x1F71), (0x1F73, 0x1F73), (0x1F75, 0x1F75), (0x1F77, 0x1F77), (0x1F79, 0x1F79), (0x1F7B, 0x1F7B),
        (0x1F7D, 0x1FA7), (0x1FB2, 0x1FB4), (0x1FB7, 0x1FC4), (0x1FC7, 0x1FC7), (0x1FD3, 0x1FD3), (0x1FE3, 0x1FE3),
        (0x1FF2, 0x1FF4), (0x1FF7, 0x209C), (0x210A, 0x2149), (0x2C7C, 0x2C7D), (0x2D6F, 0x2D6F), (0x309F, 0x309F),
        (0x30FF, 0x30FF), (0x3131, 0x318E), (0xA69C, 0xA69D), (0xA770, 0xA770), (0xA7F2, 0xA7F4), (0xA7F8, 0xA7F9),
        (0xAB5C, 0xAB5F), (0xAB69, 0xABBF), (0xF900, 0xFA0D), (0xFA10, 0xFA10), (0xFA12, 0xFA12), (0xFA15, 0xFA1E),
        (0xFA20, 0xFA20), (0xFA22, 0xFA22), (0xFA25, 0xFA26), (0xFA2A, 0xFB1D), (0xFB1F, 0xFDFB), (0xFE70, 0xFE72),
        (0xFE74, 0xFFDC), (0x10781, 0x107BA), (0x1CCF0, 0x1CCF9), (0x1D41A, 0x1D7FF), (0x1E030, 0x1E06D),
        (0x1EE00, 0x1FBF9), (0x2F800, 0x2FA1D),
    ];

    /// Joining_Type L, D and R (Unicode's `DerivedJoiningType.txt`), for the
    /// ZERO WIDTH NON-JOINER rule; generated from the `joining_types()` table
    /// of Python's `idna` 3.13 (Unicode 17), runs of one type merged.
    #[rustfmt::skip]
    const JOINING: &[(u32, u32, u8)] = &[
        (0x620, 0x620, b'D'), (0x622, 0x625, b'R'), (0x626, 0x626, b'D'), (0x627, 0x627, b'R'), (0x628, 0x628, b'D'),
        (0x629, 0x629, b'R'), (0x62A, 0x62E, b'D'), (0x62F, 0x632, b'R'), (0x633, 0x63F, b'D'), (0x641, 0x647, b'D'),
        (0x648, 0x648, b'R'), (0x649, 0x64A, b'D'), (0x66E, 0x66F, b'D'), (0x671, 0x673, b'R'), (0x675, 0x677, b'R'),
        (0x678, 0x687, b'D'), (0x688, 0x699, b'R'), (0x69A, 0x6BF, b'D'), (0x6C0, 0x6C0, b'R'), (0x6C1, 0x6C2, b'D'),
        (0x6C3, 0x6CB, b'R'), (0x6CC, 0x6CC, b'D'), (0x6CD, 0x6CD, b'R'), (0x6CE, 0x6CE, b'D'), (0x6CF, 0x6CF, b'R'),
        (0x6D0, 0x6D1, b'D'), (0x6D2, 0x6D3, b'R'), (0x6D5, 0x6D5, b'R'), (0x6EE, 0x6EF, b'R'), (0x6FA, 0x6FC, b'D'),
        (0x6FF, 0x6FF, b'D'), (0x710, 0x710, b'R'), (0x712, 0x714, b'D'), (0x715, 0x719, b'R'), (0x71A, 0x71D, b'D'),
        (0x71E, 0x71E, b'R'), (0x71F, 0x727, b'D'), (0x728, 0x728, b'R'), (0x729, 0x729, b'D'), (0x72A, 0x72A, b'R'),
        (0x72B, 0x72B, b'D'), (0x72C, 0x72C, b'R'), (0x72D, 0x72E, b'D'), (0x72F, 0x72F, b'R'), (0x74D, 0x74D, b'R'),
        (0x74E, 0x758, b'D'), (0x759, 0x75B, b'R'), (0x75C, 0x76A, b'D'), (0x76B, 0x76C, b'R'), (0x76D, 0x770, b'D'),
        (0x771, 0x771, b'R'), (0x772, 0x772, b'D'), (0x773, 0x774, b'R'), (0x775, 0x777, b'D'), (0x778, 0x779, b'R'),
        (0x77A, 0x77F, b'D'), (0x7CA, 0x7EA, b'D'), (0x840, 0x840, b'R'), (0x841, 0x845, b'D'), (0x846, 0x847, b'R'),
        (0x848, 0x848, b'D'), (0x849, 0x849, b'R'), (0x84A, 0x853, b'D'), (0x854, 0x854, b'R'), (0x855, 0x855, b'D'),
        (0x856, 0x858, b'R'), (0x860, 0x860, b'D'), (0x862, 0x865, b'D'), (0x867, 0x867, b'R'), (0x868, 0x868, b'D'),
        (0x869, 0x86A, b'R'), (0x870, 0x882, b'R'), (0x886, 0x886, b'D'), (0x889, 0x88D, b'D'), (0x88E, 0x88E, b'R'),
        (0x88F, 0x88F, b'D'), (0x8A0, 0x8A9, b'D'), (0x8AA, 0x8AC, b'R'), (0x8AE, 0x8AE, b'R'), (0x8AF, 0x8B0, b'D'),
        (0x8B1, 0x8B2, b'R'), (0x8B3, 0x8B8, b'D'), (0x8B9, 0x8B9, b'R'), (0x8BA, 0x8C8, b'D'), (0x1807, 0x1807, b'D'),
        (0x1820, 0x1878, b'D'), (0x1887, 0x18A8, b'D'), (0x18AA, 0x18AA, b'D'), (0xA840, 0xA871, b'D'),
        (0xA872, 0xA872, b'L'), (0x10AC0, 0x10AC4, b'D'), (0x10AC5, 0x10AC5, b'R'), (0x10AC7, 0x10AC7, b'R'),
        (0x10AC9, 0x10ACA, b'R'), (0x10ACD, 0x10ACD, b'L'), (0x10ACE, 0x10AD2, b'R'), (0x10AD3, 0x10AD6, b'D'),
        (0x10AD7, 0x10AD7, b'L'), (0x10AD8, 0x10ADC, b'D'), (0x10ADD, 0x10ADD, b'R'), (0x10ADE, 0x10AE0, b'D'),
        (0x10AE1, 0x10AE1, b'R'), (0x10AE4, 0x10AE4, b'R'), (0x10AEB, 0x10AEE, b'D'), (0x10AEF, 0x10AEF, b'R'),
        (0x10B80, 0x10B80, b'D'), (0x10B81, 0x10B81, b'R'), (0x10B82, 0x10B82, b'D'), (0x10B83, 0x10B85, b'R'),
        (0x10B86, 0x10B88, b'D'), (0x10B89, 0x10B89, b'R'), (0x10B8A, 0x10B8B, b'D'), (0x10B8C, 0x10B8C, b'R'),
        (0x10B8D, 0x10B8D, b'D'), (0x10B8E, 0x10B8F, b'R'), (0x10B90, 0x10B90, b'D'), (0x10B91, 0x10B91, b'R'),
        (0x10BA9, 0x10BAC, b'R'), (0x10BAD, 0x10BAE, b'D'), (0x10D00, 0x10D00, b'L'), (0x10D01, 0x10D21, b'D'),
        (0x10D22, 0x10D22, b'R'), (0x10D23, 0x10D23, b'D'), (0x10EC2, 0x10EC2, b'R'), (0x10EC3, 0x10EC4, b'D'),
        (0x10EC6, 0x10EC7, b'D'), (0x10F30, 0x10F32, b'D'), (0x10F33, 0x10F33, b'R'), (0x10F34, 0x10F44, b'D'),
        (0x10F51, 0x10F53, b'D'), (0x10F54, 0x10F54, b'R'), (0x10F70, 0x10F73, b'D'), (0x10F74, 0x10F75, b'R'),
        (0x10F76, 0x10F81, b'D'), (0x10FB0, 0x10FB0, b'D'), (0x10FB2, 0x10FB3, b'D'), (0x10FB4, 0x10FB6, b'R'),
        (0x10FB8, 0x10FB8, b'D'), (0x10FB9, 0x10FBA, b'R'), (0x10FBB, 0x10FBC, b'D'), (0x10FBD, 0x10FBD, b'R'),
        (0x10FBE, 0x10FBF, b'D'), (0x10FC1, 0x10FC1, b'D'), (0x10FC2, 0x10FC3, b'R'), (0x10FC4, 0x10FC4, b'D'),
        (0x10FC9, 0x10FC9, b'R'), (0x10FCA, 0x10FCA, b'D'), (0x10FCB, 0x10FCB, b'L'), (0x1E900, 0x1E943, b'D'),
    ];

    /// Longest U-label from a 63-octet label: every code point costs at
    /// least one octet of the 59 after `xn--`.
    const MAX: usize = 59;

    /// Whether `puny` (the label after `xn--`) is a valid A-label.
    pub(super) fn is_a_label(puny: &[u8]) -> bool {
        let mut buf = ['\0'; MAX];
        match decode(puny, &mut buf) {
            Some(len) => is_u_label(&buf[..len]),
            None => false,
        }
    }

    /// RFC 3492 §6.2 decoding into `out`, ASCII lower-cased; the length,
    /// or `None` on malformed input, overflow, no non-ASCII code point, or
    /// more than [`MAX`] code points.
    fn decode(input: &[u8], out: &mut [char; MAX]) -> Option<usize> {
        const BASE: u32 = 36;
        const T_MIN: u32 = 1;
        const T_MAX: u32 = 26;
        let (basic, mut rest) = match input.iter().rposition(|&c| c == b'-') {
            Some(d) if d > 0 => (&input[..d], &input[d + 1..]),
            _ => (&[][..], input),
        };
        if rest.is_empty() || basic.len() > MAX {
            return None;
        }
        let mut len = 0;
        for &c in basic {
            out[len] = char::from(c.to_ascii_lowercase());
            len += 1;
        }
        let (mut n, mut i, mut bias) = (128u32, 0u32, 72u32);
        while !rest.is_empty() {
            let old_i = i;
            let mut w = 1u32;
            let mut k = BASE;
            loop {
                let (&c, tail) = rest.split_first()?;
                rest = tail;
                let digit = match c {
                    b'a'..=b'z' => c - b'a',
                    b'A'..=b'Z' => c - b'A',
                    b'0'..=b'9' => c - b'0' + 26,
                    _ => return None,
                } as u32;
                i = i.checked_add(digit.checked_mul(w)?)?;
                let t = if k <= bias {
                    T_MIN
                } else if k >= bias + T_MAX {
                    T_MAX
                } else {
                    k - bias
                };
                if digit < t {
                    break;
                }
                w = w.checked_mul(BASE - t)?;
                k += BASE;
            }
            let count = len as u32 + 1;
            bias = adapt(i - old_i, count, old_i == 0);
            n = n.checked_add(i / count)?;
            i %= count;
            let cp = char::from_u32(n).filter(|c| !c.is_ascii())?;
            if len == MAX {
                return None;
            }
            out.copy_within(i as usize..len, i as usize + 1);
            out[i as usize] = cp;
            len += 1;
            i += 1;
        }
        Some(len)
    }

    /// RFC 3492 §6.1 bias adaptation.
    fn adapt(delta: u32, count: u32, first: bool) -> u32 {
        let mut delta = if first { delta / 700 } else { delta / 2 };
        delta += delta / count;
        let mut k = 0;
        while delta > ((36 - 1) * 26) / 2 {
            delta /= 36 - 1;
            k += 36;
        }
        k + (36 * delta) / (delta + 38)
    }

    /// The Unicode sets the checks need, built once.
    struct Tables {
        pvalid: Vec<(char, char)>,
        mark: Vec<(char, char)>,
        virama: Vec<(char, char)>,
        transparent: Vec<(char, char)>,
        greek: Vec<(char, char)>,
        hebrew: Vec<(char, char)>,
        kana_han: Vec<(char, char)>,
    }

    /// The class of a `regex-syntax` class expression.
    fn unicode_class(pattern: &str) -> ClassUnicode {
        match regex_syntax::parse(pattern).map(|hir| hir.into_kind()) {
            Ok(HirKind::Class(Class::Unicode(class))) => class,
            // The patterns are fixed; an empty set fails closed.
            _ => ClassUnicode::empty(),
        }
    }

    /// The ranges of a class.
    fn ranges(class: &ClassUnicode) -> Vec<(char, char)> {
        class.ranges().iter().map(|r| (r.start(), r.end())).collect()
    }

    /// The ranges of a `regex-syntax` class expression.
    fn class(pattern: &str) -> Vec<(char, char)> {
        ranges(&unicode_class(pattern))
    }

    /// RFC 5892 §2 PVALID (past the exceptions and the ASCII).
    fn pvalid() -> Vec<(char, char)> {
        let mut class = unicode_class(concat!(
            r"[[\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}\p{Nd}]--[",
            r"\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Noncharacter_Code_Point}",
            r"\p{Changes_When_Casefolded}[[\p{gcb=L}\p{gcb=V}\p{gcb=T}]&&\p{sc=Hangul}]",
            r"\x{20D0}-\x{20FF}\x{1D100}-\x{1D24F}\x00-\x7F]]",
        ));
        let unstable = ClassUnicode::new(
            UNSTABLE
                .iter()
                .filter_map(|&(lo, hi)| Some(ClassUnicodeRange::new(char::from_u32(lo)?, char::from_u32(hi)?))),
        );
        class.difference(&unstable);
        ranges(&class)
    }

    fn tables() -> &'static Tables {
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(|| Tables {
            pvalid: pvalid(),
            mark: class(r"\p{M}"),
            // Canonical_Combining_Class=Virama is Grapheme_Link.
            virama: class(r"\p{Grapheme_Link}"),
            // Joining_Type T: Mn, Me and Cf less those DerivedJoiningType.txt gives another type.
            transparent: class(concat!(
                r"[\p{Mn}\p{Me}\p{Cf}--[\p{Prepended_Concatenation_Mark}",
                r"\x{180E}\x{200C}\x{200D}\x{2066}-\x{2069}\x{1171E}]]",
            )),
            greek: class(r"\p{sc=Greek}"),
            hebrew: class(r"\p{sc=Hebrew}"),
            kana_han: class(r"[\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Han}]"),
        })
    }

    /// Joining_Type L, D or R of `c`, if it has one of them.
    fn joining_type(c: char) -> Option<u8> {
        let c = u32::from(c);
        let at = JOINING.partition_point(|&(_, hi, _)| hi < c);
        JOINING.get(at).filter(|&&(lo, _, _)| lo <= c).map(|&(_, _, t)| t)
    }

    /// Whether `c` is in the sorted, disjoint ranges `set`.
    fn has(set: &[(char, char)], c: char) -> bool {
        let at = set.partition_point(|&(_, hi)| hi < c);
        set.get(at).is_some_and(|&(lo, _)| lo <= c)
    }

    fn is_u_label(label: &[char]) -> bool {
        let t = tables();
        let (Some(&first), Some(&last)) = (label.first(), label.last()) else {
            return false;
        };
        if first == '-'
            || last == '-'
            || (label.len() >= 4 && label[2] == '-' && label[3] == '-')
            || has(&t.mark, first)
        {
            return false;
        }
        let before = |i: usize| i.checked_sub(1).map(|j| label[j]);
        let after = |i: usize| label.get(i + 1).copied();
        label.iter().enumerate().all(|(i, &c)| match c {
            'a'..='z' | '0'..='9' | '-' => true,
            // RFC 5892 §2.6 exceptions.
            '\u{DF}' | '\u{3C2}' | '\u{6FD}' | '\u{6FE}' | '\u{F0B}' | '\u{3007}' => true,
            '\u{640}' | '\u{7FA}' | '\u{302E}' | '\u{302F}' | '\u{3031}'..='\u{3035}' | '\u{303B}' => false,
            // CONTEXTO, RFC 5892 Appendix A.3 to A.9.
            '\u{B7}' => before(i) == Some('l') && after(i) == Some('l'),
            '\u{375}' => after(i).is_some_and(|a| has(&t.greek, a)),
            '\u{5F3}' | '\u{5F4}' => before(i).is_some_and(|b| has(&t.hebrew, b)),
            '\u{30FB}' => label.iter().any(|&x| has(&t.kana_han, x)),
            '\u{660}'..='\u{669}' => !label.iter().any(|x| ('\u{6F0}'..='\u{6F9}').contains(x)),
            '\u{6F0}'..='\u{6F9}' => !label.iter().any(|x| ('\u{660}'..='\u{669}').contains(x)),
            // CONTEXTJ, RFC 5892 Appendix A.1 and A.2.
            '\u{200D}' => before(i).is_some_and(|b| has(&t.virama, b)),
            '\u{200C}' => {
                before(i).is_some_and(|b| has(&t.virama, b)) || {
                    let joins = |x: &&char| !has(&t.transparent, **x);
                    let left = label[..i].iter().rev().find(joins).and_then(|&x| joining_type(x));
                    let right = label[i + 1..].iter().find(joins).and_then(|&x| joining_type(x));
                    matches!(left, Some(b'L' | b'D')) && matches!(right, Some(b'R' | b'D'))
                }
            }
            _ => has(&t.pvalid, c),
        })
    }

    #[cfg(test)]
    mod tests {
        /// Every property expression parsed (a failed one would be empty and fail closed).
        #[test]
        fn format_idna_tables_are_built() {
            let t = super::tables();
            for set in [&t.pvalid, &t.mark, &t.virama, &t.transparent, &t.greek, &t.hebrew, &t.kana_han] {
                assert!(!set.is_empty());
            }
            assert!(super::has(&t.pvalid, 'ü') && !super::has(&t.pvalid, 'Ü') && !super::has(&t.pvalid, '\u{FF41}'));
            assert!(super::has(&t.virama, '\u{94D}') && super::has(&t.transparent, '\u{64E}'));
            assert_eq!((super::joining_type('\u{628}'), super::joining_type('\u{627}')), (Some(b'D'), Some(b'R')));
            assert_eq!(super::joining_type('a'), None);
        }
    }
}

// ---------------------------------------------------------------- URIs

/// RFC 3986 `unreserved`.
fn unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986 `sub-delims`.
fn sub_delim(c: u8) -> bool {
    matches!(c, b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=')
}

/// RFC 3986 `pchar` and `/`, `?` (query and fragment characters).
fn query_char(c: u8) -> bool {
    CLASS[c as usize] & QUERY != 0
}

/// Byte classes, one table lookup per byte on the long strings (`data`,
/// `blob`, URIs): base64's alphabet, RFC 3986 `query` and `pchar` / `/`.
const BASE64: u8 = 1;
const QUERY: u8 = 2;
const PATH: u8 = 4;
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        let alnum = c.is_ascii_alphanumeric();
        let unreserved = alnum || matches!(c, b'-' | b'.' | b'_' | b'~');
        let sub_delim = matches!(c, b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=');
        let query = unreserved || sub_delim || matches!(c, b':' | b'@' | b'/' | b'?');
        let mut class = 0;
        if alnum || c == b'+' || c == b'/' {
            class |= BASE64;
        }
        if query {
            class |= QUERY;
        }
        if query && c != b'?' {
            class |= PATH;
        }
        t[i] = class;
        i += 1;
    }
    t
};

/// RFC 3986 `pchar` and `/` (path characters).
fn path_char(c: u8) -> bool {
    CLASS[c as usize] & PATH != 0
}

/// Whether every byte is `allowed` or starts a `%XX` triplet.
fn all_or_pct(b: &[u8], allowed: impl Fn(u8) -> bool) -> bool {
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)) {
                return false;
            }
            i += 3;
        } else if allowed(b[i]) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// RFC 3986 `URI` (`absolute`) or `URI-reference`.
pub(crate) fn is_uri(b: &[u8], absolute: bool) -> bool {
    let scheme_len = b.iter().position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')));
    let scheme = scheme_len.filter(|&n| n > 0 && b[0].is_ascii_alphabetic() && b[n] == b':');
    if absolute && scheme.is_none() {
        return false;
    }
    let rest = match scheme {
        Some(n) => &b[n + 1..],
        None => b,
    };
    // The common case in one vectorised pass: every byte a path character
    // (no `#`, `?`, `%`, `[`, non-ASCII...). Then there is no fragment or
    // query, and every part of the path passes `all_or_pct(.., path_char)`:
    // only the authority and the first segment's `:` remain to be judged.
    let plain = all_bytes(rest, path_byte);
    let hier = if plain {
        rest
    } else {
        let (rest, fragment) = match rest.iter().position(|&c| c == b'#') {
            Some(h) => (&rest[..h], &rest[h + 1..]),
            None => (rest, &[][..]),
        };
        let (hier, query) = match rest.iter().position(|&c| c == b'?') {
            Some(q) => (&rest[..q], &rest[q + 1..]),
            None => (rest, &[][..]),
        };
        if !all_or_pct(fragment, query_char) || !all_or_pct(query, query_char) {
            return false;
        }
        hier
    };
    if let Some(after) = hier.strip_prefix(b"//") {
        let end = after.iter().position(|&c| c == b'/').unwrap_or(after.len());
        is_authority(&after[..end]) && (plain || all_or_pct(&after[end..], path_char))
    } else {
        // A relative path's first segment holds no `:` (`path-noscheme`).
        let first = hier.iter().position(|&c| c == b'/').unwrap_or(hier.len());
        (scheme.is_some() || !hier[..first].contains(&b':')) && (plain || all_or_pct(hier, path_char))
    }
}

/// RFC 3986 §3.2 `authority`.
fn is_authority(a: &[u8]) -> bool {
    let host_port = match a.iter().position(|&c| c == b'@') {
        Some(at) => {
            if !all_or_pct(&a[..at], |c| unreserved(c) || sub_delim(c) || c == b':') {
                return false;
            }
            &a[at + 1..]
        }
        None => a,
    };
    let (host_ok, port) = if let Some(inner) = host_port.strip_prefix(b"[") {
        let Some(close) = inner.iter().position(|&c| c == b']') else {
            return false;
        };
        let port = match &inner[close + 1..] {
            [] => &[][..],
            [b':', port @ ..] => port,
            _ => return false,
        };
        (is_ip_literal(&inner[..close]), port)
    } else {
        let (host, port) = match host_port.iter().position(|&c| c == b':') {
            Some(colon) => (&host_port[..colon], &host_port[colon + 1..]),
            None => (host_port, &[][..]),
        };
        (all_or_pct(host, |c| unreserved(c) || sub_delim(c)), port)
    };
    host_ok && port.iter().all(u8::is_ascii_digit)
}

/// RFC 3986 `IP-literal` contents: `IPv6address` or `IPvFuture`.
fn is_ip_literal(b: &[u8]) -> bool {
    match b {
        [b'v' | b'V', rest @ ..] => match rest.iter().position(|&c| c == b'.') {
            Some(dot) => {
                let (version, tail) = (&rest[..dot], &rest[dot + 1..]);
                !version.is_empty()
                    && version.iter().all(u8::is_ascii_hexdigit)
                    && !tail.is_empty()
                    && tail.iter().all(|&c| unreserved(c) || sub_delim(c) || c == b':')
            }
            None => false,
        },
        _ => is_ipv6(b),
    }
}

/// RFC 6570 §2 URI Template (level 4 syntax).
fn is_uri_template(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => {
                let Some(close) = b[i + 1..].iter().position(|&c| c == b'}') else {
                    return false;
                };
                if !is_template_expression(&b[i + 1..i + 1 + close]) {
                    return false;
                }
                i += close + 2;
            }
            b'%' => {
                if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
                {
                    return false;
                }
                i += 3;
            }
            c if c.is_ascii() => {
                // Literals: any character but CTL, SP, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`
                // (`%` only as above). RFC 6570 §2.1 also excludes `'`; the JSON-Schema-Test-Suite
                // holds `a'b` valid (`'` is a sub-delim in RFC 3986), and so does this.
                if c <= b' ' || c == 0x7F || b"\"<>\\^`|}".contains(&c) {
                    return false;
                }
                i += 1;
            }
            _ => {
                // Non-ASCII: `ucschar` or `iprivate`. `i` is at a char boundary.
                let Some(c) = s.get(i..).and_then(|rest| rest.chars().next()) else {
                    return false;
                };
                if !is_ucschar_or_private(c) {
                    return false;
                }
                i += c.len_utf8();
            }
        }
    }
    true
}

/// RFC 3987 `ucschar` / `iprivate`.
fn is_ucschar_or_private(c: char) -> bool {
    let c = u32::from(c);
    match c {
        0xA0..=0xD7FF | 0xE000..=0xFDCF | 0xFDF0..=0xFFEF => true,
        0xE0000..=0xE0FFF => false,
        0x10000.. => c & 0xFFFF <= 0xFFFD,
        _ => false,
    }
}

/// RFC 6570 `expression` between the braces.
fn is_template_expression(b: &[u8]) -> bool {
    let list = match b.first() {
        Some(b'+' | b'#' | b'.' | b'/' | b';' | b'?' | b'&' | b'=' | b',' | b'!' | b'@' | b'|') => &b[1..],
        _ => b,
    };
    list.split(|&c| c == b',').all(|varspec| {
        let (name, modifier) = match varspec.iter().position(|&c| c == b':' || c == b'*') {
            Some(m) => (&varspec[..m], &varspec[m..]),
            None => (varspec, &[][..]),
        };
        let modifier_ok = match modifier {
            [] | [b'*'] => true,
            [b':', b'1'..=b'9', rest @ ..] => rest.len() <= 3 && rest.iter().all(u8::is_ascii_digit),
            _ => false,
        };
        // varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded
        let name_ok = !name.is_empty()
            && name[0] != b'.'
            && name[name.len() - 1] != b'.'
            && !name.windows(2).any(|w| w == b"..")
            && all_or_pct(name, |c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.');
        modifier_ok && name_ok
    })
}

// ---------------------------------------------------------------- regex

/// The longest string `format: regex` parses.
pub(crate) const REGEX_MAX_BYTES: usize = 64 << 10;
/// The deepest group nesting `format: regex` parses.
pub(crate) const REGEX_MAX_NEST: u32 = 256;

/// An ECMA-262 regular expression, approximated by parsing with
/// `regex-syntax` (syntax only: the AST parser, no translation).
///
/// ECMA-262 constructs `regex-syntax` refuses are rewritten first, outside
/// character classes, to an equivalent-shaped group so the rest of the
/// pattern is still parsed: lookahead and lookbehind (`(?=`, `(?!`, `(?<=`,
/// `(?<!` become `(?:`), numbered backreferences (`\1`) and named ones
/// (`\k<name>`) become an empty group. Remaining differences, where the
/// verdict can disagree with ECMA-262: `regex-syntax` also accepts inline
/// flags (`(?i)`), `(?P<name>...)`, `\A`, `\z`, `\pL` without `u`
/// semantics, nested classes and POSIX classes (`[[:alpha:]]`), class set
/// operations (`&&`, `--`) and a few escapes ECMA refuses; it refuses ECMA's
/// Annex B leniencies (a lone `{` or `}` as a literal, `\c` control escapes,
/// octal escapes, backreferences inside a class) and a `[` inside a class
/// unescaped (a nested class to it, a literal to ECMA).
///
/// The data chooses the pattern, so the parse is bounded (SPEC §15): a
/// pattern longer than [`REGEX_MAX_BYTES`] or nesting groups deeper than
/// [`REGEX_MAX_NEST`] is not a valid `regex` here (the parser's syntax tree
/// costs a few hundred bytes per byte of a string of `(`).
fn is_regex(text: &str) -> bool {
    if text.len() > REGEX_MAX_BYTES {
        return false;
    }
    let parse = |pattern: &str| {
        regex_syntax::ast::parse::ParserBuilder::new().nest_limit(REGEX_MAX_NEST).build().parse(pattern).is_ok()
    };
    parse(text) || ecma_rewrite(text).is_some_and(|rewritten| parse(&rewritten))
}

/// `text` with ECMA-262 lookaround and backreferences (outside character
/// classes) replaced by groups `regex-syntax` parses; `None` when there were
/// none (the first verdict stands).
fn ecma_rewrite(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut copied, mut in_class, mut changed) = (0, 0, false, false);
    while i < b.len() {
        let replace = match (in_class, b[i]) {
            (_, b'\\') if in_class => Some((i + 2, None)),
            (true, b']') => {
                in_class = false;
                None
            }
            (true, _) => None,
            (false, b'[') => {
                in_class = true;
                None
            }
            (false, b'(') if b[i..].starts_with(b"(?=") || b[i..].starts_with(b"(?!") => Some((i + 3, Some("(?:"))),
            (false, b'(') if b[i..].starts_with(b"(?<=") || b[i..].starts_with(b"(?<!") => Some((i + 4, Some("(?:"))),
            (false, b'\\') => match b.get(i + 1) {
                Some(b'1'..=b'9') => {
                    let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
                    Some((i + 1 + digits, Some("(?:)")))
                }
                Some(b'k') if b.get(i + 2) == Some(&b'<') => match b[i..].iter().position(|&c| c == b'>') {
                    Some(close) => Some((i + close + 1, Some("(?:)"))),
                    None => Some((i + 2, None)),
                },
                _ => Some((i + 2, None)),
            },
            (false, _) => None,
        };
        match replace {
            Some((next, Some(with))) => {
                out.push_str(&text[copied..i]);
                out.push_str(with);
                changed = true;
                i = next;
                copied = next;
            }
            Some((next, None)) => i = next,
            None => i += 1,
        }
    }
    if !changed {
        return None;
    }
    // `copied` is at an ASCII construct's end, a char boundary.
    out.push_str(text.get(copied..)?);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/json-schema-test-suite/optional/format/");

    /// Every string case of every suite file agrees with [`check`].
    #[test]
    fn format_suite_agrees() {
        let mut files: Vec<_> = std::fs::read_dir(SUITE).expect("suite directory").map(|e| e.unwrap().path()).collect();
        files.sort();
        assert_eq!(files.len(), 14, "{files:?}");
        let mut disagreements = Vec::new();
        for path in &files {
            let text = std::fs::read_to_string(path).unwrap();
            let groups: serde_json::Value = serde_json::from_str(&text).unwrap();
            let (mut agreed, mut cases) = (0, 0);
            for group in groups.as_array().unwrap() {
                let format = group["schema"]["format"].as_str().unwrap();
                assert!(ASSERTED.contains(&format), "{format} not asserted");
                for test in group["tests"].as_array().unwrap() {
                    let Some(data) = test["data"].as_str() else { continue };
                    let valid = test["valid"].as_bool().unwrap();
                    cases += 1;
                    let got = check(format, data);
                    if got == Some(valid) {
                        agreed += 1;
                    } else {
                        disagreements.push(format!(
                            "{}: {format} {data:?}: expected {valid}, got {got:?} ({})",
                            path.file_name().unwrap().to_string_lossy(),
                            test["description"]
                        ));
                    }
                }
            }
            println!("{}: {agreed}/{cases}", path.file_name().unwrap().to_string_lossy());
        }
        assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
    }

    #[test]
    fn format_asserted_is_sorted_and_complete() {
        assert!(ASSERTED.windows(2).all(|w| w[0] < w[1]));
        for name in ASSERTED {
            assert!(check(name, "").is_some(), "{name}");
        }
        assert_eq!(check("idn-email", "x"), None);
        assert_eq!(check("iri", "x"), None);
        assert_eq!(check("", "x"), None);
    }

    fn cases(format: &str, valid: &[&str], invalid: &[&str]) {
        for v in valid {
            assert_eq!(check(format, v), Some(true), "{format} {v:?} should be valid");
        }
        for v in invalid {
            assert_eq!(check(format, v), Some(false), "{format} {v:?} should be invalid");
        }
    }

    #[test]
    fn format_dates_and_times() {
        cases(
            "date-time",
            &["2025-06-18T10:00:00Z", "2025-06-18T10:00:00.5+02:00", "2024-02-29t00:00:00z", "2016-12-31T23:59:60Z"],
            &[
                "2025-06-18 10:00:00Z",
                "2025-06-18T10:00:00",
                "2025-06-18T10:00:00.Z",
                "2023-02-29T00:00:00Z",
                "2025-06-18T",
            ],
        );
        cases("date", &["2025-06-18", "2000-02-29"], &["2025-6-18", "1900-02-29", "2025-06-18Z", "٢٠٢٥-06-18"]);
        cases(
            "time",
            &["10:00:00Z", "00:00:00.000-00:00", "00:59:60+01:00"],
            &["10:00:00", "10:00Z", "10:00:00+0100", "10:00:00+01:00:00", "00:59:60Z"],
        );
        cases(
            "duration",
            &["P1D", "PT1H", "P3W", "P1Y2M3DT4H5M6S", "p1d"],
            &["P", "PT", "P1W1D", "P1.5D", "P1DT", "PT1H1H", "P1M1Y", "P1D1D"],
        );
    }

    #[test]
    fn format_addresses() {
        cases("ipv4", &["127.0.0.1", "0.0.0.0", "249.250.255.100"], &["01.0.0.0", "1.2.3", "1.2.3.4.", "256.0.0.0"]);
        cases(
            "ipv6",
            &["::", "::1", "2001:db8::1", "fe80::1:2:3:4:5:6", "1:2:3:4:5:6:7::", "::1:2:3:4:5:6:7", "::ffff:1.2.3.4"],
            &["", ":", ":::", "1:2:3:4:5:6:7:8:9", "1::2::3", "1.2.3.4::", "::1.2.3.4:1", "1:2:3:4:5:6:7:8::"],
        );
        cases(
            "uuid",
            &["123e4567-e89b-12d3-a456-426614174000"],
            &["123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}"],
        );
        cases(
            "hostname",
            &[
                "example.com",
                "localhost",
                "a.b.c",
                "xn--bcher-kva.example",
                "XN--Bcher-KVA.example",
                "xn--mnchen-3ya.de",
                // BEH ZWNJ ALEF (D, R); BEH FATHA ZWNJ BEH (the fatha is transparent).
                "xn--mgbb899q",
                "xn--ngba7iz95i",
                &["a"; 127].join("."),
            ],
            &[
                "example.com.",
                "exa mple.com",
                "-a.com",
                "xn--.com",
                "xn--bcher-.com",
                "xn--abc-",
                "bücher.example",
                // An emoji; fullwidth `a` (NFKC-unstable); µ (case-folds to μ); ALEF ZWNJ BEH (R first).
                "xn--ls8h.la",
                "xn--b-yq0i",
                "xn--ab-vea",
                "xn--mgbc799q",
                &"a".repeat(64),
                &["a"; 128].join("."),
            ],
        );
        cases(
            "email",
            &["user@example.com", "a.b+c@sub.example.org", "\"a\\\"b\"@example.com", "x@[IPv6:2001:db8::1]"],
            &["user@", "user@example.com.", "user@@example.com", "a..b@example.com", "\"a@example.com", "x@[1.2.3]"],
        );
    }

    #[test]
    fn format_uris() {
        cases(
            "uri",
            &[
                "https://example.com/a?b#c",
                "file:///tmp/x",
                "urn:isbn:0451450523",
                "http://user:pw@[v1.fe]:8080/",
                "mailto:a@b",
                "data:text/plain;base64,SGk=",
            ],
            &["example.com/a", "https://exa mple.com", "https://example.com/%", "https://[::1/", "http://a:b:c/"],
        );
        cases(
            "uri-reference",
            &["", "a/b:c", "../x", "#", "?", "https://example.com/a?b#c", "file:///tmp/x"],
            &["a:b\\c", "a b", "#a#b", "//[::1"],
        );
        cases(
            "uri-template",
            &["https://example.com/{id}{?q,page}", "{/path*}", "{x:9999}", "%7B", "é{a_b.c}"],
            &["{", "}", "{a b}", "{x:}", "{x*:1}", "{.a}b}", "%4", "a\"b", "{a.}"],
        );
        cases("json-pointer", &["", "/", "/a~0b~1c", "/0/-"], &["a", "/~", "/~a", "#/a"]);
    }

    #[test]
    fn format_regex_and_byte() {
        cases(
            "regex",
            &["^a+$", "(?<n>x)\\k<n>", "a(?=b)", "(?<!a)b", "(a)\\1+", "[a-z]{2,3}", "", "[(?=]", "é\\d+"],
            &["(", "[z-a]", "a{2,1}", "*", "a(?=b", "(a)\\1(", "(?<=a)[z-a]"],
        );
        cases(
            "byte",
            &["", "AA==", "AAA=", "AAAA", "SGVsbG8sIHdvcmxkIQ==", "+/+/", "iVBORw0KGgo="],
            &["A", "AA=", "A===", "AA=A", "AAAA=", "SGVs bG8=", "SGVsbG8\n", "SGVsbG8_", "SGVsbG8-", "=AAA"],
        );
    }

    /// No input panics, however odd; results are deterministic.
    #[test]
    fn format_never_panics() {
        let pieces: &[&str] = &[
            "",
            "a",
            "Z",
            "0",
            "9",
            "-",
            ".",
            ":",
            "::",
            "/",
            "//",
            "?",
            "#",
            "%",
            "%4",
            "%41",
            "@",
            "[",
            "]",
            "{",
            "}",
            "~",
            "~0",
            "~2",
            "\\",
            "\"",
            " ",
            "\n",
            "\0",
            "T",
            "t",
            "Z",
            "P",
            "W",
            "+",
            "=",
            "==",
            "xn--",
            "XN--",
            "é",
            "৪",
            "\u{10FFFF}",
            "\u{FFFD}",
            "\u{200C}",
            "\u{200D}",
            "\u{B7}",
            "\u{30FB}",
            "(",
            ")",
            "(?",
            "*",
            "2025-06-18",
            "T23:59:60",
            "+23:59",
            "255.255",
            "ffff",
            "IPv6:",
            "\u{301}",
            "ǅ",
            "中",
        ];
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut inputs: Vec<String> = pieces.iter().map(|p| p.to_string()).collect();
        for _ in 0..4000 {
            let n = (next() % 12) as usize;
            inputs.push((0..n).map(|_| pieces[(next() % pieces.len() as u64) as usize]).collect());
        }
        for p in ["(", "{", "[", "a", "xn--a", "%41", "\u{10FFFF}", "1:", "9"] {
            inputs.push(p.repeat(70_000));
        }
        inputs.push(format!("xn--{}", "z".repeat(59)));
        inputs.push(format!("xn--{}", "9".repeat(59)));
        inputs.push(format!("xn--a-{}", "99999999".repeat(7)));
        for input in &inputs {
            for format in ASSERTED {
                let first = check(format, input);
                assert!(first.is_some());
                assert_eq!(first, check(format, input));
            }
        }
    }

    /// The byte-by-byte `uri` and `byte` checks the vectorised fast paths
    /// replaced, kept here as the reference they must agree with.
    fn slow_uri(b: &[u8], absolute: bool) -> bool {
        let scheme_len = b.iter().position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')));
        let scheme = scheme_len.filter(|&n| n > 0 && b[0].is_ascii_alphabetic() && b[n] == b':');
        if absolute && scheme.is_none() {
            return false;
        }
        let rest = match scheme {
            Some(n) => &b[n + 1..],
            None => b,
        };
        let (rest, fragment) = match rest.iter().position(|&c| c == b'#') {
            Some(h) => (&rest[..h], &rest[h + 1..]),
            None => (rest, &[][..]),
        };
        let (hier, query) = match rest.iter().position(|&c| c == b'?') {
            Some(q) => (&rest[..q], &rest[q + 1..]),
            None => (rest, &[][..]),
        };
        if !all_or_pct(fragment, query_char) || !all_or_pct(query, query_char) {
            return false;
        }
        if let Some(after) = hier.strip_prefix(b"//") {
            let end = after.iter().position(|&c| c == b'/').unwrap_or(after.len());
            is_authority(&after[..end]) && all_or_pct(&after[end..], path_char)
        } else {
            let first = hier.iter().position(|&c| c == b'/').unwrap_or(hier.len());
            (scheme.is_some() || !hier[..first].contains(&b':')) && all_or_pct(hier, path_char)
        }
    }

    fn slow_byte(b: &[u8]) -> bool {
        let alphabet = |c: &u8| CLASS[*c as usize] & BASE64 != 0;
        if !b.len().is_multiple_of(4) {
            return false;
        }
        let body = match b {
            [body @ .., x, b'=', b'='] if alphabet(x) => body,
            [body @ .., x, y, b'='] if alphabet(x) && alphabet(y) => body,
            _ => b,
        };
        body.iter().fold(BASE64, |all, &c| all & CLASS[c as usize]) != 0
    }

    /// The range comparisons are the class table's sets, on every byte.
    #[test]
    fn format_byte_classes_agree_with_the_table() {
        for c in 0..=255u8 {
            assert_eq!(base64_byte(c), CLASS[c as usize] & BASE64 != 0, "{c:#x}");
            assert_eq!(path_byte(c), path_char(c), "{c:#x}");
        }
    }

    /// The vectorised `uri`, `uri-reference` and `byte` checks agree with the
    /// byte-by-byte ones: every odd byte at every position of strings of
    /// lengths around the chunk size, `%` escapes, padding, non-ASCII, empty.
    #[test]
    fn format_fast_paths_agree_with_the_slow_ones() {
        let bases: &[&[u8]] = &[
            b"",
            b"file:///project/src/main.rs",
            b"https://storage.example.com/processed/task-bbb/output.png?token=xyz",
            b"https://user:pw@host.example:8080/a/b;c=d/e@f!$&'()*+,~_-.",
            b"http://[::1]:80/x",
            b"mailto:someone@example.com",
            b"urn:isbn:0451450523",
            b"a:b%20c/d%2Fe%zz",
            b"//host/only/path",
            b"relative/path:colon",
            b"./this:that",
            b"http://h/\xc3\xa9",
            b"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
            b"UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=",
            b"QUJD",
            b"QUI=",
            b"QQ==",
            b"Q===",
            b"====",
            b"QU=I",
            b"abcdefghijklmnopqrstuvwxyz0123456789+/ABCDEFGHIJKLMNOPQRSTUVWXYZ==",
        ];
        let odd: &[u8] = b"%?#[]@:/=+ \t\x00\x7f\x80\xc3\xff\"<>{}|^`\\A0zZ-._~!$&'()*,;";
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for base in bases {
            cases.push(base.to_vec());
            for len in 0..=base.len().min(70) {
                cases.push(base[..len].to_vec());
            }
            for at in 0..base.len() {
                for &c in odd {
                    let mut v = base.to_vec();
                    v[at] = c;
                    cases.push(v.clone());
                    v.insert(at, c);
                    cases.push(v);
                }
            }
        }
        for n in 0..80 {
            let long: Vec<u8> = b"file:///".iter().copied().chain(std::iter::repeat_n(b'a', n)).collect();
            cases.push(long.clone());
            for &c in odd {
                let mut v = long.clone();
                if let Some(last) = v.last_mut() {
                    *last = c;
                }
                cases.push(v);
            }
            cases.push(std::iter::repeat_n(b'A', n).collect());
            let mut padded: Vec<u8> = std::iter::repeat_n(b'z', n).collect();
            padded.extend_from_slice(b"==");
            cases.push(padded);
        }
        for case in &cases {
            assert_eq!(is_uri(case, true), slow_uri(case, true), "uri {:?}", String::from_utf8_lossy(case));
            assert_eq!(is_uri(case, false), slow_uri(case, false), "uri-reference {:?}", String::from_utf8_lossy(case));
            assert_eq!(is_byte(case), slow_byte(case), "byte {:?}", String::from_utf8_lossy(case));
        }
    }
}
