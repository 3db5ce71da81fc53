//! A positioned JSON tree for documents we interpret rather than stream
//! (contract files): every node and key keeps its byte offset, so a structural
//! error can name the line and column it is about. Duplicate keys and nesting
//! beyond [`MAX_DEPTH`] are refused here.

use super::number::Decimal;
use super::scan::{Kind, Scanner, SyntaxError};
use super::MAX_DEPTH;

/// A JSON value with the byte offset where it starts.
#[derive(Debug, Clone)]
pub struct Node {
    pub offset: usize,
    pub value: Value,
}

/// An object key with its offset.
#[derive(Debug, Clone)]
pub struct Key {
    pub offset: usize,
    pub name: String,
}

#[derive(Debug, Clone)]
pub enum Value {
    Null,
    Bool(bool),
    Number(Decimal),
    String(String),
    Array(Vec<Node>),
    /// Members in document order.
    Object(Vec<(Key, Node)>),
}

impl Value {
    /// The JSON type name (`integer` for numbers with no fractional part).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(d) if d.dec().is_integer() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }
}

/// Why a document could not be read as a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeError {
    pub offset: usize,
    pub message: String,
}

impl From<SyntaxError> for TreeError {
    fn from(e: SyntaxError) -> Self {
        TreeError { offset: e.offset, message: e.kind.message().to_string() }
    }
}

/// Parses a whole document.
pub fn parse(bytes: &[u8]) -> Result<Node, TreeError> {
    let mut s = Scanner::new(bytes);
    let node = value(&mut s, 0)?;
    s.finish()?;
    Ok(node)
}

fn value(s: &mut Scanner<'_>, depth: usize) -> Result<Node, TreeError> {
    let kind = s.peek_kind()?;
    let offset = s.offset();
    let value = match kind {
        Kind::Null | Kind::Bool => match s.literal()? {
            Some(b) => Value::Bool(b),
            None => Value::Null,
        },
        Kind::Number => {
            let n = s.number()?;
            Value::Number(n.dec().to_decimal(n.raw()))
        }
        Kind::String => Value::String(s.string()?.decode().into_owned()),
        Kind::Array | Kind::Object if depth >= MAX_DEPTH => {
            return Err(TreeError { offset, message: format!("nesting deeper than {MAX_DEPTH} levels") });
        }
        Kind::Array => {
            s.array_start();
            let mut items = Vec::new();
            while s.array_next(items.is_empty())? {
                items.push(value(s, depth + 1)?);
            }
            Value::Array(items)
        }
        Kind::Object => {
            s.object_start();
            let mut members: Vec<(Key, Node)> = Vec::new();
            let mut names: std::collections::HashSet<String> = std::collections::HashSet::new();
            while let Some(k) = s.object_key(members.is_empty())? {
                let name = k.decode().into_owned();
                let key_offset = k.offset() - 1;
                if !names.insert(name.clone()) {
                    return Err(TreeError {
                        offset: key_offset,
                        message: format!("duplicate key {}", super::text::quote(&name, 80)),
                    });
                }
                let v = value(s, depth + 1)?;
                members.push((Key { offset: key_offset, name }, v));
            }
            Value::Object(members)
        }
    };
    Ok(Node { offset, value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_offsets_and_order() {
        let doc = br#"{"b": [1, "x"], "a": null}"#;
        let node = parse(doc).unwrap();
        let Value::Object(members) = node.value else { panic!("object expected") };
        assert_eq!(members[0].0.name, "b");
        assert_eq!(members[0].0.offset, 1);
        assert_eq!(members[1].0.name, "a");
        assert_eq!(members[1].1.offset, 21);
    }

    #[test]
    fn refuses_duplicate_keys_and_deep_nesting() {
        let dup = parse(br#"{"a": 1, "a": 2}"#).unwrap_err();
        assert_eq!(dup, TreeError { offset: 9, message: "duplicate key 'a'".into() });
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        let err = parse(deep.as_bytes()).unwrap_err();
        assert_eq!(err.offset, MAX_DEPTH);
        assert_eq!(err.message, "nesting deeper than 128 levels");
    }
}
