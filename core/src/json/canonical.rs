//! Canonical spellings of JSON values, for equality as JSON Schema defines it:
//! object key order does not matter, `1` equals `1.0`, strings compare after
//! decoding. Used by `uniqueItems`; not a serialisation format.

use std::fmt::Write as _;

use super::scan::{Kind, Scanner, SyntaxError};

/// Appends the canonical spelling of the value at the scanner's position.
/// The caller has already bounded the value's depth.
pub fn canonical(s: &mut Scanner<'_>, out: &mut String) -> Result<(), SyntaxError> {
    match spell(s, out, usize::MAX) {
        Ok(()) => Ok(()),
        Err(Stop::Syntax(e)) => Err(e),
        Err(Stop::Deep) => unreachable!("no value nests usize::MAX deep"),
    }
}

/// [`canonical`] of a value not yet read, whose containers may nest at most
/// `levels` deep: `None` when they nest deeper or the bytes are not JSON
/// (the walk reading the value then says which), never a recursion past
/// the bound.
pub fn canonical_within(s: &mut Scanner<'_>, out: &mut String, levels: usize) -> Option<()> {
    spell(s, out, levels).ok()
}

enum Stop {
    Syntax(SyntaxError),
    Deep,
}

impl From<SyntaxError> for Stop {
    fn from(e: SyntaxError) -> Self {
        Stop::Syntax(e)
    }
}

fn spell(s: &mut Scanner<'_>, out: &mut String, levels: usize) -> Result<(), Stop> {
    match s.peek_kind()? {
        Kind::Null | Kind::Bool => out.push_str(match s.literal()? {
            Some(true) => "true",
            Some(false) => "false",
            None => "null",
        }),
        Kind::Number => s.number()?.dec().canonical(out),
        Kind::String => string(&s.string()?.decode(), out),
        Kind::Array | Kind::Object if levels == 0 => return Err(Stop::Deep),
        Kind::Array => {
            s.array_start();
            out.push('[');
            let mut first = true;
            while s.array_next(first)? {
                if !first {
                    out.push(',');
                }
                first = false;
                spell(s, out, levels - 1)?;
            }
            out.push(']');
        }
        Kind::Object => {
            s.object_start();
            let mut members: Vec<(String, String)> = Vec::new();
            while let Some(k) = s.object_key(members.is_empty())? {
                let mut v = String::new();
                spell(s, &mut v, levels - 1)?;
                members.push((k.decode().into_owned(), v));
            }
            members.sort();
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(k, out);
                out.push(':');
                out.push_str(v);
            }
            out.push('}');
        }
    }
    Ok(())
}

/// RFC 8785 §3.2.2.2 string form: only `"`, `\` and control characters are
/// escaped, with the short forms where JSON has them.
pub(crate) fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(src: &str) -> String {
        let mut out = String::new();
        canonical(&mut Scanner::new(src.as_bytes()), &mut out).unwrap();
        out
    }

    #[test]
    fn equal_values_spell_the_same() {
        assert_eq!(canon(r#"{"b": 1.0, "a": [true, "\u0041"]}"#), canon(r#"{"a":[true,"A"],"b":1}"#));
        assert_ne!(canon("[1]"), canon("[true]"));
        assert_ne!(canon(r#"{"a":1}"#), canon(r#"{"a":1,"b":2}"#));
    }
}
