//! The routing scan: a message's `method`, found without validating or
//! decoding anything (no UTF-8 check, no number or escape grammar), by
//! reading the top-level members before it as byte ranges and stopping
//! there. It serves the common message only: a request whose method has a
//! contract, which the schema walker then reads whole and validates,
//! noting where the other routing members sit (`TopMembers`). Anything the
//! scan is unsure of (an escaped key, bytes it cannot skip) answers `None`,
//! and the exact reader takes the message instead.

use protocolarc_core::fast::quote_or_backslash;

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
        i += 1;
    }
    i
}

/// Past the closing quote of a string whose content starts at `i`.
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    skip_string_escaped(b, i).map(|(end, _)| end)
}

/// [`skip_string`], and whether the string has a backslash (an escape).
fn skip_string_escaped(b: &[u8], mut i: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    loop {
        let at = i + quote_or_backslash(b.get(i..)?)?;
        if b[at] == b'"' {
            return Some((at + 1, escaped));
        }
        escaped = true;
        i = at + 2;
    }
}

/// The bytes that matter inside a container: quotes and brackets.
const STRUCTURAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'{' as usize] = true;
    t[b'}' as usize] = true;
    t[b'[' as usize] = true;
    t[b']' as usize] = true;
    t
};

/// Past the value starting at `i` (a string, a container with everything
/// in it, or a scalar up to the next delimiter).
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i + 1),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = i;
            while i < b.len() {
                if !STRUCTURAL[usize::from(b[i])] {
                    i += 1;
                    continue;
                }
                match b[i] {
                    b'"' => {
                        i = skip_string(b, i + 1)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let mut i = i;
            while i < b.len() && !matches!(b[i], b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n') {
                i += 1;
            }
            Some(i)
        }
    }
}

/// The bytes most messages start with: the member they read as is skipped
/// whole (compared as one fixed-size array: no call).
const COMMON: &[u8; 17] = br#"{"jsonrpc":"2.0","#;

/// The method of a request as one serializer writes most of them, after
/// [`COMMON`]: `"id":` with a plain string or an integer, then
/// `"method":"…"` unescaped, with no space anywhere: the method's raw value
/// (quotes included); `None` for anything else (the member by member scan
/// then reads it). The first top-level `method` member when it answers: the
/// members before it are `jsonrpc` and `id`.
fn common_request(b: &[u8]) -> Option<&[u8]> {
    let mut i = COMMON.len();
    if b.get(i..i + 5) == Some(br#""id":"#) {
        i += 5;
        match *b.get(i)? {
            b'"' => {
                let end = i + 1 + quote_or_backslash(b.get(i + 1..)?)?;
                if b[end] != b'"' {
                    return None;
                }
                i = end + 1;
            }
            b'-' | b'0'..=b'9' => {
                i += 1;
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            _ => return None,
        }
        if b.get(i) != Some(&b',') {
            return None;
        }
        i += 1;
    }
    const METHOD: &[u8; 10] = br#""method":""#;
    if b.get(i..i + METHOD.len()) != Some(METHOD) {
        return None;
    }
    let start = i + METHOD.len() - 1;
    let end = start + 1 + quote_or_backslash(b.get(start + 1..)?)?;
    (b[end] == b'"').then(|| &b[start..=end])
}

/// The raw value of the first top-level `method` member of `b` (a trimmed
/// message starting with `{`), read no further, and whether it may hold an
/// escape (it does, or it is not a string); `None` when there is none
/// before the end or the scan is unsure (an escaped key before it, bytes it
/// cannot skip). Nothing after it is looked at: the walk that validates the
/// message tells the caller where its other members are, and whether the
/// message goes on as JSON.
pub(super) fn method(b: &[u8]) -> Option<(&[u8], bool)> {
    if b.first() != Some(&b'{') {
        return None;
    }
    let common = b.first_chunk::<17>() == Some(COMMON);
    if common {
        if let Some(found) = common_request(b) {
            return Some((found, false));
        }
    }
    let mut i = skip_ws(b, if common { COMMON.len() } else { 1 });
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let (end, escaped) = skip_string_escaped(b, i + 1)?;
        if escaped {
            return None;
        }
        let key = &b[i + 1..end - 1];
        i = skip_ws(b, end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(b, i + 1);
        let (stop, escaped) = match b.get(start) {
            Some(b'"') => skip_string_escaped(b, start + 1)?,
            _ => (skip_value(b, start)?, true),
        };
        if stop == start {
            return None;
        }
        // Compared as a fixed-size array: inline, no call.
        if <&[u8; 6]>::try_from(key).is_ok_and(|k| k == b"method") {
            return Some((&b[start..stop], escaped));
        }
        i = skip_ws(b, stop);
        match b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method_of(b: &str) -> Option<String> {
        method(b.as_bytes()).map(|(v, _)| String::from_utf8_lossy(v).into_owned())
    }

    #[test]
    fn the_method_of_a_request() {
        let request = r#"{"jsonrpc":"2.0", "id" : -1.5e3,"params":{"x":["}",{"y":"\\"}]}, "method" : "a\"b","id":2}"#;
        assert_eq!(method_of(request).as_deref(), Some(r#""a\"b""#));
        // The first `method` member; nothing after it is read.
        assert_eq!(method_of(r#"{"method":7,"method":"m"}"#).as_deref(), Some("7"));
        assert_eq!(method_of(r#"{"method":"m"  ,  oops"#).as_deref(), Some(r#""m""#));
        // The common start skipped whole reads as any other.
        assert_eq!(method_of(r#"{"jsonrpc":"2.0","id":1,"method":"m"}"#).as_deref(), Some(r#""m""#));
        assert_eq!(method_of(r#"{"jsonrpc":"2.0","method":"m"}"#).as_deref(), Some(r#""m""#));
        assert_eq!(method_of(r#"{"jsonrpc":"2.0", "method" :"m"}"#).as_deref(), Some(r#""m""#));
        assert_eq!(method_of(r#"{"jsonrpc":"2.0","#), None);
        assert_eq!(method_of(r#"{"jsonrpc":"2.0",}"#), None);
        // The common shape read at once, and its near misses member by member.
        for (line, want) in [
            (r#"{"jsonrpc":"2.0","id":"req-3","method":"tools/call","params":{}}"#, Some(r#""tools/call""#)),
            (r#"{"jsonrpc":"2.0","id":-12,"method":"m"}"#, Some(r#""m""#)),
            (r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#, Some(r#""m""#)),
            (r#"{"jsonrpc":"2.0","id":"a\"b","method":"m"}"#, Some(r#""m""#)),
            (r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#, Some(r#""m""#)),
            (r#"{"jsonrpc":"2.0","id":1 ,"method":"m"}"#, Some(r#""m""#)),
            (r#"{"jsonrpc":"2.0","id":1,"method":"a\/b"}"#, Some(r#""a\/b""#)),
            (r#"{"jsonrpc":"2.0","id":1,"methods":"x","method":"m"}"#, Some(r#""m""#)),
            (r#"{"jsonrpc":"2.0","id":"x"#, None),
            (r#"{"jsonrpc":"2.0","id":1,"method":"m"#, None),
        ] {
            assert_eq!(method_of(line).as_deref(), want, "{line}");
        }
        assert_eq!(common_request(br#"{"jsonrpc":"2.0","id":7,"method":"m","x":1}"#), Some(&br#""m""#[..]));
        assert_eq!(common_request(br#"{"jsonrpc":"2.0","method":"m"}"#), Some(&br#""m""#[..]));
        assert_eq!(common_request(br#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#), None);
        assert_eq!(common_request(br#"{"jsonrpc":"2.0","id":1,"method":"a\/b"}"#), None);
        // Whether the value may hold an escape.
        let escaped = |b: &str| method(b.as_bytes()).map(|(_, e)| e);
        assert_eq!(escaped(r#"{"method":"tools/call"}"#), Some(false));
        assert_eq!(escaped(r#"{"method":"tools\/call"}"#), Some(true));
        assert_eq!(escaped(r#"{"method":"a\"b"}"#), Some(true));
        assert_eq!(escaped(r#"{"method":7}"#), Some(true));
    }

    #[test]
    fn unsure_is_none() {
        for b in [
            r#"{"a":1"#,
            r#"{"a":1,}"#,
            r#"{"a" 1,"method":"m"}"#,
            r#"{"a":,"method":"m"}"#,
            r#"{"a":"x,"method":"m"}"#,
            r#"{"a":{"b":1},"method"}"#,
            r#"{"\u0061":1,"method":"m"}"#,
            r#"{"me\u0074hod":"m"}"#,
            r#"{"a":1} x"#,
            r#"{a:1,"method":"m"}"#,
            r#"["method"]"#,
            r#"{"a":1,"b":2}"#,
            r#"{ }"#,
        ] {
            assert!(method(b.as_bytes()).is_none(), "{b}");
        }
    }
}
