//! Canonical spellings of JSON values, for equality as JSON Schema defines it:
//! object key order does not matter, `1` equals `1.0`, strings compare after
//! decoding. Used by `uniqueItems`; not a serialisation format.

use super::scan::{Kind, Scanner, SyntaxError};

/// Appends the canonical spelling of the value at the scanner's position.
/// The caller has already bounded the value's depth.
pub fn canonical(s: &mut Scanner<'_>, out: &mut String) -> Result<(), SyntaxError> {
    match s.peek_kind()? {
        Kind::Null | Kind::Bool => out.push_str(match s.literal()? {
            Some(true) => "true",
            Some(false) => "false",
            None => "null",
        }),
        Kind::Number => s.number()?.dec().canonical(out),
        Kind::String => crate::lock::string(&s.string()?.decode(), out),
        Kind::Array => {
            s.array_start();
            out.push('[');
            let mut first = true;
            while s.array_next(first)? {
                if !first {
                    out.push(',');
                }
                first = false;
                canonical(s, out)?;
            }
            out.push(']');
        }
        Kind::Object => {
            s.object_start();
            let mut members: Vec<(String, String)> = Vec::new();
            while let Some(k) = s.object_key(members.is_empty())? {
                let mut v = String::new();
                canonical(s, &mut v)?;
                members.push((k.decode().into_owned(), v));
            }
            members.sort();
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                crate::lock::string(k, out);
                out.push(':');
                out.push_str(v);
            }
            out.push('}');
        }
    }
    Ok(())
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
