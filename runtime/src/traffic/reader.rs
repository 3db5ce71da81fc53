//! The bytes of a line read as far as routing needs: an object's members
//! in order (raw values, repeated keys kept), a value's kind and text.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::verdict::NOT_JSON;

/// Whether an object is a recorded line: no `jsonrpc`, a `message`.
pub(super) fn recorded(members: &Members<'_>) -> bool {
    members.get("jsonrpc").is_none() && members.get("message").is_some()
}

/// Whether an object is an agent card: no JSON-RPC member, `skills` (as
/// [`hints`](super::hints) reads a card).
pub(super) fn is_card(members: &Members<'_>) -> bool {
    ["method", "id", "result", "error"].iter().all(|k| members.get(k).is_none()) && members.get("skills").is_some()
}

pub(super) fn trim(mut b: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = b {
        if !matches!(first, b' ' | b'\t' | b'\r' | b'\n') {
            break;
        }
        b = rest;
    }
    while let [rest @ .., last] = b {
        if !matches!(last, b' ' | b'\t' | b'\r' | b'\n') {
            break;
        }
        b = rest;
    }
    b
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Object,
    Array,
    String,
    Number,
    Bool,
    Null,
}

impl Kind {
    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::Object => "an object",
            Kind::Array => "an array",
            Kind::String => "a string",
            Kind::Number => "a number",
            Kind::Bool => "a boolean",
            Kind::Null => "null",
        }
    }
}

pub(super) fn kind(v: &RawValue) -> Kind {
    match v.get().as_bytes().first() {
        Some(b'{') => Kind::Object,
        Some(b'[') => Kind::Array,
        Some(b'"') => Kind::String,
        Some(b't' | b'f') => Kind::Bool,
        Some(b'n') => Kind::Null,
        _ => Kind::Number,
    }
}

/// A value as shown in a message: a scalar's JSON text (shortened), else its kind.
pub(super) fn excerpt(v: &RawValue) -> String {
    let k = kind(v);
    if matches!(k, Kind::Object | Kind::Array) {
        return k.name().to_string();
    }
    let text = v.get();
    let short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        format!("{short}...")
    } else {
        short
    }
}

/// A JSON string's text: borrowed when it has no escape.
pub(super) fn text(v: &RawValue) -> Option<Cow<'_, str>> {
    let raw = v.get();
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(Cow::Borrowed(inner));
    }
    serde_json::from_str::<String>(raw).ok().map(Cow::Owned)
}

/// An object's members in order, values as raw JSON text, repeated keys kept.
pub(super) struct Members<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'a> Members<'a> {
    /// The last value of `key` (as most readers keep).
    pub(super) fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// The first of `keys` that appears more than once.
    pub(super) fn repeated(&self, keys: &[&str]) -> Option<String> {
        keys.iter().find(|k| self.0.iter().filter(|(key, _)| key == *k).count() > 1).map(|k| k.to_string())
    }
}

/// An object key, borrowed from the bytes when it has no escape.
pub(super) struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// A JSON value: an object's members, or the kind of anything else.
pub(super) enum Top<'a> {
    Object(Members<'a>),
    Other(Kind),
}

pub(super) struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top<'de>, A::Error> {
        let mut out = Vec::with_capacity(6);
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            out.push((k, map.next_value::<&'de RawValue>()?));
        }
        Ok(Top::Object(Members(out)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top<'de>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Top::Other(Kind::Array))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::Bool))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::Number))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::Number))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::Number))
    }
    fn visit_str<E>(self, _: &str) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::String))
    }
    fn visit_unit<E>(self) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::Null))
    }
}

impl<'de> DeserializeSeed<'de> for TopVisitor {
    type Value = Top<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Top<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

/// The members of a JSON object, or why the bytes are not one: one pass over
/// the bytes, keys borrowed.
pub(super) fn parse_object(bytes: &[u8]) -> Result<Members<'_>, String> {
    // The UTF-8 of the line checked once, fast, so that the reader need not
    // check each borrowed member again (a `RawValue` read from bytes is).
    let Ok(text) = std::str::from_utf8(bytes) else { return parse_object_slowly(bytes) };
    let mut de = serde_json::Deserializer::from_str(text);
    let top = TopVisitor.deserialize(&mut de).and_then(|t| de.end().map(|()| t));
    match top {
        Ok(Top::Object(m)) => Ok(m),
        Ok(Top::Other(k)) => Err(format!("a JSON-RPC message is an object, found {}", k.name())),
        // The reason as the two-step reading words it.
        Err(_) => parse_object_slowly(bytes),
    }
}

/// [`parse_object`] in two steps (a raw value, then its members): the words
/// of its errors.
pub(super) fn parse_object_slowly(bytes: &[u8]) -> Result<Members<'_>, String> {
    let raw: &RawValue = serde_json::from_slice(bytes).map_err(|e| format!("{NOT_JSON}: {e}"))?;
    let k = kind(raw);
    if k != Kind::Object {
        return Err(format!("a JSON-RPC message is an object, found {}", k.name()));
    }
    let mut de = serde_json::Deserializer::from_str(raw.get());
    match TopVisitor.deserialize(&mut de).and_then(|t| de.end().map(|()| t)) {
        Ok(Top::Object(m)) => Ok(m),
        Ok(Top::Other(k)) => Err(format!("a JSON-RPC message is an object, found {}", k.name())),
        Err(e) => Err(format!("{NOT_JSON}: {e}")),
    }
}
