//! The routing scan: a message's top-level members as byte ranges, found
//! without validating or decoding anything (no UTF-8 check, no number or
//! escape grammar). It serves the common message only: a request whose
//! method has a contract, which the schema walker then reads whole and
//! validates. Anything the scan is unsure of (an escaped key, more members
//! than it keeps, bytes it cannot skip) answers `None`, and the exact
//! reader (`members.rs`) takes the message instead.

use memchr::memchr2;

/// At most this many top-level members; a message with more takes the exact reader.
const MAX_MEMBERS: usize = 12;

/// A top-level object's members in order: raw key bytes (between the
/// quotes) and raw value bytes.
pub(super) struct Top<'a> {
    members: [(&'a [u8], &'a [u8]); MAX_MEMBERS],
    len: usize,
}

impl<'a> Top<'a> {
    /// The value of `key`, when it appears exactly once; `Err` when it is repeated.
    pub(super) fn once(&self, key: &[u8]) -> Result<Option<&'a [u8]>, ()> {
        let mut found = None;
        for &(k, v) in &self.members[..self.len] {
            if k == key {
                if found.is_some() {
                    return Err(());
                }
                found = Some(v);
            }
        }
        Ok(found)
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
        i += 1;
    }
    i
}

/// Past the closing quote of a string whose content starts at `i`.
fn skip_string(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        let at = i + quote_or_backslash(b.get(i..)?)?;
        if b[at] == b'"' {
            return Some(at + 1);
        }
        i = at + 2;
    }
}

/// The first `"` or `\` of `b`. Most strings of a message are short: they
/// are read eight bytes a word (no call), a long one by `memchr2`.
fn quote_or_backslash(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Bytes equal to `c` get their high bit set; the lowest set bit is
    // always a true match (a false one only follows a true one).
    let matches = |w: u64, c: u8| {
        let x = w ^ (ONES * u64::from(c));
        x.wrapping_sub(ONES) & !x & HIGH
    };
    let mut i = 0;
    while i + 8 <= b.len() && i < 64 {
        let w = u64::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4], b[i + 5], b[i + 6], b[i + 7]]);
        let m = matches(w, b'"') | matches(w, b'\\');
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    memchr2(b'"', b'\\', &b[i..]).map(|at| i + at)
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

/// The top-level members of `b` (a trimmed message starting with `{`), or
/// `None` when the exact reader must decide.
pub(super) fn top(b: &[u8]) -> Option<Top<'_>> {
    let mut top = Top { members: [(&[][..], &[][..]); MAX_MEMBERS], len: 0 };
    if b.first() != Some(&b'{') {
        return None;
    }
    let mut i = skip_ws(b, 1);
    if b.get(i) == Some(&b'}') {
        return (skip_ws(b, i + 1) == b.len()).then_some(top);
    }
    loop {
        if b.get(i) != Some(&b'"') || top.len == MAX_MEMBERS {
            return None;
        }
        let end = skip_string(b, i + 1)?;
        let key = &b[i + 1..end - 1];
        if key.contains(&b'\\') {
            return None;
        }
        i = skip_ws(b, end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(b, i + 1);
        let stop = skip_value(b, start)?;
        if stop == start {
            return None;
        }
        top.members[top.len] = (key, &b[start..stop]);
        top.len += 1;
        i = skip_ws(b, stop);
        match b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            b'}' => return (skip_ws(b, i + 1) == b.len()).then_some(top),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(b: &str) -> Option<Vec<(String, String)>> {
        let t = top(b.as_bytes())?;
        Some(
            t.members[..t.len]
                .iter()
                .map(|(k, v)| (String::from_utf8_lossy(k).into_owned(), String::from_utf8_lossy(v).into_owned()))
                .collect(),
        )
    }

    #[test]
    fn members_of_a_request() {
        let got = members(r#"{"jsonrpc":"2.0", "id" : -1.5e3,"method":"a\"b","params":{"x":["}",{"y":"\\"}]}}"#);
        let want = [
            ("jsonrpc", r#""2.0""#),
            ("id", "-1.5e3"),
            ("method", r#""a\"b""#),
            ("params", r#"{"x":["}",{"y":"\\"}]}"#),
        ];
        assert_eq!(got, Some(want.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()));
        assert_eq!(members("{ }"), Some(vec![]));
    }

    #[test]
    fn unsure_is_none() {
        for b in [
            r#"{"a":1"#,
            r#"{"a":1,}"#,
            r#"{"a" 1}"#,
            r#"{"a":}"#,
            r#"{"a":"x}"#,
            r#"{"a":{"b":1}"#,
            r#"{"\u0061":1}"#,
            r#"{"a":1} x"#,
            r#"{a:1}"#,
            r#"["a"]"#,
            r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13}"#,
        ] {
            assert!(members(b).is_none(), "{b}");
        }
    }

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

    #[test]
    fn repeated_keys_are_seen() {
        let t = top(br#"{"id":1,"id":2,"method":"m"}"#).unwrap();
        assert_eq!(t.once(b"id"), Err(()));
        assert_eq!(t.once(b"method"), Ok(Some(&br#""m""#[..])));
        assert_eq!(t.once(b"result"), Ok(None));
    }
}
