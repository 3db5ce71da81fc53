//! A positioned JSON tree for documents we interpret rather than stream
//! (contract files): every node and key keeps its byte offset, so a structural
//! error can name the line and column it is about. Duplicate keys and nesting
//! beyond [`MAX_DEPTH`] are refused here.

use std::borrow::Cow;

use super::number::Decimal;
use super::scan::{Kind, Scanner, SyntaxError};
use super::MAX_DEPTH;

/// A JSON value with the byte offset where it starts. Strings borrow from
/// the document unless they hold escapes: a contract of a million fields
/// would otherwise make millions of small allocations just to read it.
#[derive(Debug, Clone)]
pub struct Node<'a> {
    pub offset: usize,
    pub value: Value<'a>,
}

/// An object key with its offset.
#[derive(Debug, Clone)]
pub struct Key<'a> {
    pub offset: usize,
    pub name: Cow<'a, str>,
}

#[derive(Debug, Clone)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    /// Boxed: numbers are rare in contract files, and an inline `Decimal`
    /// would make every node of the tree as large as one.
    Number(Box<Decimal>),
    String(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    /// Members in document order.
    Object(Vec<(Key<'a>, Node<'a>)>),
}

impl Value<'_> {
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
pub fn parse(bytes: &[u8]) -> Result<Node<'_>, TreeError> {
    parse_within(bytes, MAX_DEPTH)
}

/// [`parse`] with containers nesting at most `levels` deep: for a document
/// this crate wrote itself (a fields-form contract's JSON Schema export
/// nests about twice as deep as the contract's paths).
pub(crate) fn parse_within(bytes: &[u8], levels: usize) -> Result<Node<'_>, TreeError> {
    let mut s = Scanner::new(bytes);
    let node = value(&mut s, 0, levels)?;
    s.finish()?;
    Ok(node)
}

fn value<'a>(s: &mut Scanner<'a>, depth: usize, levels: usize) -> Result<Node<'a>, TreeError> {
    let kind = s.peek_kind()?;
    let offset = s.offset();
    let value = match kind {
        Kind::Null | Kind::Bool => match s.literal()? {
            Some(b) => Value::Bool(b),
            None => Value::Null,
        },
        Kind::Number => {
            let n = s.number()?;
            Value::Number(Box::new(n.dec().to_decimal(n.raw())))
        }
        Kind::String => Value::String(s.string()?.decode()),
        Kind::Array | Kind::Object if depth >= levels => {
            return Err(TreeError { offset, message: format!("nesting deeper than {levels} levels") });
        }
        Kind::Array => {
            s.array_start();
            let mut items = Vec::new();
            while s.array_next(items.is_empty())? {
                items.push(value(s, depth + 1, levels)?);
            }
            items.shrink_to_fit();
            Value::Array(items)
        }
        Kind::Object => {
            s.object_start();
            let mut members: Vec<(Key<'a>, Node<'a>)> = Vec::new();
            let mut names: std::collections::HashSet<Cow<'a, str>> = std::collections::HashSet::new();
            while let Some(k) = s.object_key(members.is_empty())? {
                let name = k.decode();
                let key_offset = k.offset() - 1;
                if !names.insert(name.clone()) {
                    return Err(TreeError {
                        offset: key_offset,
                        message: format!("duplicate key {}", super::text::quote(&name, 80)),
                    });
                }
                let v = value(s, depth + 1, levels)?;
                members.push((Key { offset: key_offset, name }, v));
            }
            members.shrink_to_fit();
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
