//! Byte-level reads that need no scanner: a tagged union's tag when it is
//! the object's first key, and the end of a string's plain run. The
//! walker, the generated checks (through `fast`) and traffic's routing
//! scan share them.

use super::text::{plain_key, same_bytes};

/// The tag when it is the object's first key, read straight from the bytes
/// (no scanner, no stacks): `{`, the key spelt as `key` (no escapes), `:`, and
/// a string without `\\`, JSON whitespace between. `None` for anything else
/// (then the scanner looks for the tag). When this answers, it is the tag
/// the scanner would find first, or the object's bytes are not JSON: the
/// member the tag picks reads the object again from its start with the
/// scanner and fails on them, as the walker would; a value no member has is
/// a fault both ways. A tag equal to a member's value (a string without
/// control characters) is that JSON string: the member may read on from
/// just after it (a schema node's `Resume`).
/// With the tag, the offset just after its closing quote. Inlined: the
/// generated code's key is a constant, whose check then folds away.
#[inline(always)]
pub(crate) fn first_key_tag<'a>(bytes: &'a [u8], start: usize, key: &[u8]) -> Option<(&'a [u8], usize)> {
    // A key that needs escapes (or holds `\\`) is never matched raw.
    if !plain_key(key) {
        return None;
    }
    first_plain_key_tag(bytes, start, key)
}

#[inline]
pub(crate) fn first_plain_key_tag<'a>(bytes: &'a [u8], start: usize, key: &[u8]) -> Option<(&'a [u8], usize)> {
    debug_assert!(plain_key(key));
    let ws = |i: &mut usize| {
        while matches!(bytes.get(*i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            *i += 1;
        }
    };
    let mut i = start;
    ws(&mut i);
    if bytes.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    ws(&mut i);
    let quoted = bytes.get(i..i + key.len() + 2)?;
    if quoted[0] != b'"' || !same_bytes(&quoted[1..=key.len()], key) || quoted[key.len() + 1] != b'"' {
        return None;
    }
    i += key.len() + 2;
    ws(&mut i);
    if bytes.get(i) != Some(&b':') {
        return None;
    }
    i += 1;
    ws(&mut i);
    if bytes.get(i) != Some(&b'"') {
        return None;
    }
    let value = &bytes[i + 1..];
    let end = quote_or_backslash(value)?;
    (value[end] == b'"').then(|| (&value[..end], i + 1 + end + 1))
}

/// The offset of the first `"` or backslash of `b`. Most strings of a message (a
/// union's tag, a routed `method`) are short: they are read eight bytes a
/// word, without a branch per byte (whose exit, at a different byte for
/// each tag, the predictor misses); past 64 bytes by `memchr2`.
/// (A building block of the hot paths, as the rest of this module: traffic's
/// routing scan uses it too.)
#[inline]
pub fn quote_or_backslash(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Bytes equal to `c` get their high bit set; the lowest set bit is
    // always a true match (a false one only follows a true one).
    let matches = |w: u64, c: u8| {
        let x = w ^ (ONES * u64::from(c));
        x.wrapping_sub(ONES) & !x & HIGH
    };
    let mut i = 0;
    // One load a word (`first_chunk`: no bounds check per byte).
    while let Some(word) = b.get(i..).and_then(<[u8]>::first_chunk::<8>).filter(|_| i < 64) {
        let w = u64::from_le_bytes(*word);
        let m = matches(w, b'"') | matches(w, b'\\');
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    memchr::memchr2(b'"', b'\\', &b[i..]).map(|at| i + at)
}
