//! Numbers carried as written (SPEC §15) through `serde_json` values (`loss`,
//! `import`). A schema is read from its source text, never from the
//! canonical equality key (whose spelling, digits and exponent, is not a
//! JSON number a target would read the same).
//! `serde_json` holds a number as a 64-bit integer or a double: a number it
//! writes back with the same text is held there; any other (`1e400`,
//! `1e-400`, more digits than a double keeps, `1.5e308`) travels as a marked
//! string, and [`as_written`] turns the mark back into the number's own
//! text wherever a schema or artifact is written out. A string of the tool's
//! own that holds the mark is refused, so no text can pass for a number.

use serde_json::{Map, Number, Value};

use crate::json::number::Decimal;
use crate::json::tree::{Node, Value as TreeValue};

/// The mark of a number `serde_json` cannot hold exactly: a NUL (which JSON
/// writes `\u0000`) and a name, then the number's source text.
const MARK: &str = "\u{0}protocolarc-number:";
/// The mark as `serde_json` writes it inside a string.
const WRITTEN: &str = "\"\\u0000protocolarc-number:";

/// A tree value as a `serde_json` value, numbers exact; `Err` names the
/// offset of a string that holds the mark.
pub fn from_tree(n: &Node<'_>) -> Result<Value, usize> {
    Ok(match &n.value {
        TreeValue::Null => Value::Null,
        TreeValue::Bool(b) => Value::Bool(*b),
        TreeValue::Number(d) => number(d),
        TreeValue::String(s) => Value::String(text(s, n.offset)?),
        TreeValue::Array(items) => Value::Array(items.iter().map(from_tree).collect::<Result<_, _>>()?),
        TreeValue::Object(members) => {
            let mut m = Map::new();
            for (k, v) in members {
                m.insert(text(&k.name, k.offset)?, from_tree(v)?);
            }
            Value::Object(m)
        }
    })
}

fn text(s: &str, offset: usize) -> Result<String, usize> {
    if s.contains(MARK) {
        return Err(offset);
    }
    Ok(s.to_string())
}

/// The number as `serde_json` holds it when that writes it back as the
/// contract wrote it, else its source text behind the mark (`1.5e308`,
/// which a double holds but `serde_json` writes `1.5e+308`; `1e400`).
fn number(d: &Decimal) -> Value {
    let raw = d.raw();
    let exact = serde_json::from_str::<Number>(raw).ok().filter(|n| n.to_string() == raw);
    match exact {
        Some(n) => Value::Number(n),
        None => Value::String(format!("{MARK}{raw}")),
    }
}

/// The source text of a marked number.
pub fn marked(s: &str) -> Option<&str> {
    s.strip_prefix(MARK)
}

/// Whether a value is a string of the tool's (not a number behind the mark).
pub fn is_text(v: &Value) -> bool {
    v.as_str().is_some_and(|s| !s.starts_with(MARK))
}

/// JSON text written by `serde_json` with every marked number turned back
/// into its source text.
pub fn as_written(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(WRITTEN) {
        let after = &rest[at + WRITTEN.len()..];
        let Some(end) = after.find('"') else { break };
        out.push_str(&rest[..at]);
        out.push_str(&after[..end]);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// A schema value as compact JSON text, numbers as written.
pub fn schema_text(v: &Value) -> String {
    as_written(&v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Value {
        from_tree(&crate::json::tree::parse(text.as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn numbers_keep_their_value_and_unheld_ones_their_text() {
        let v = read(r#"{"a": 256, "b": 25, "c": 1.5, "d": 1.5e308, "e": 1e400, "f": 1e-400, "g": -7}"#);
        assert_eq!(v["a"], 256);
        assert_eq!(v["c"], 1.5);
        assert!(!is_text(&v["d"]) && !is_text(&v["e"]) && !is_text(&v["f"]));
        assert_eq!(schema_text(&v), r#"{"a":256,"b":25,"c":1.5,"d":1.5e308,"e":1e400,"f":1e-400,"g":-7}"#);
        // 0.1 plus 10^-22 is not a double: its text is kept.
        assert_eq!(schema_text(&read("[0.1000000000000000000001]")), "[0.1000000000000000000001]");
    }

    #[test]
    fn a_string_holding_the_mark_is_refused() {
        let doc = "{\"x\": \"a\\u0000protocolarc-number:1\"}";
        assert_eq!(from_tree(&crate::json::tree::parse(doc.as_bytes()).unwrap()), Err(6));
        // Text that only looks like the mark once escaped passes through untouched.
        let v = read(r#"["\\u0000protocolarc-number:1"]"#);
        assert_eq!(schema_text(&v), r#"["\\u0000protocolarc-number:1"]"#);
    }
}
