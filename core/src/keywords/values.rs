//! What the keywords judge and with what: the JSON types a value may have
//! (`JsonType`, `TypeSet`), the scalar members of an `enum` (`Scalar`), a
//! compiled `pattern`, and the constraint keywords of one value
//! (`Constraints`). The contract model holds them (and re-exports them);
//! the checks beside this file read them.

use std::fmt;

use super::registry::name;
use crate::json::number::Decimal;
use crate::json::text::{quote, Str};

/// The JSON types a field accepts, as a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TypeSet(u8);

/// One JSON type name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JsonType {
    /// A JSON string.
    String,
    /// A number with no fractional part (`1`, `1.0`, `1e2`).
    Integer,
    /// Any JSON number, integers included.
    Number,
    /// `true` or `false`.
    Boolean,
    /// A JSON object.
    Object,
    /// A JSON array.
    Array,
    /// `null`.
    Null,
}

impl JsonType {
    /// In the order types are always listed.
    pub const ALL: [JsonType; 7] = [
        JsonType::String,
        JsonType::Integer,
        JsonType::Number,
        JsonType::Boolean,
        JsonType::Object,
        JsonType::Array,
        JsonType::Null,
    ];

    /// The type's name as contracts and messages write it: `string`,
    /// `integer`, `number`, `boolean`, `object`, `array` or `null`.
    pub fn name(self) -> &'static str {
        match self {
            JsonType::String => "string",
            JsonType::Integer => "integer",
            JsonType::Number => "number",
            JsonType::Boolean => "boolean",
            JsonType::Object => "object",
            JsonType::Array => "array",
            JsonType::Null => "null",
        }
    }

    /// The type named `name` (as [`JsonType::name`] writes it); `None` for
    /// any other text, `any` included.
    pub fn from_name(name: &str) -> Option<JsonType> {
        JsonType::ALL.into_iter().find(|t| t.name() == name)
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl TypeSet {
    /// No type at all: accepts nothing.
    pub const EMPTY: TypeSet = TypeSet(0);
    /// `any`: every JSON value.
    pub const ANY: TypeSet = TypeSet(0x7f);

    /// The set of one type.
    pub const fn of(t: JsonType) -> TypeSet {
        TypeSet(t.bit())
    }

    /// This set with `t` added.
    pub const fn with(self, t: JsonType) -> TypeSet {
        TypeSet(self.0 | t.bit())
    }

    /// The types either set holds.
    pub const fn union(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 | other.0)
    }

    /// The types both accept, `integer` counting as a number: `integer` and
    /// `number` share `integer`.
    pub fn intersect(self, other: TypeSet) -> TypeSet {
        let mut t = TypeSet(self.0 & other.0);
        let int = |s: TypeSet| s.contains(JsonType::Integer) || s.contains(JsonType::Number);
        if int(self) && int(other) {
            t = t.with(JsonType::Integer);
        }
        t
    }

    /// Whether `t` is in the set, literally: unlike [`TypeSet::accepts`],
    /// `number` does not contain `integer`.
    pub const fn contains(self, t: JsonType) -> bool {
        self.0 & t.bit() != 0
    }

    /// Whether the two sets share a type.
    pub const fn intersects(self, other: TypeSet) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether the set holds every type (`any`).
    pub fn is_any(self) -> bool {
        self == TypeSet::ANY
    }

    /// Whether the set holds no type.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether a value whose own type is `actual` is accepted (`integer`
    /// values are numbers too).
    #[inline]
    pub fn accepts(self, actual: JsonType) -> bool {
        self.contains(actual) || (actual == JsonType::Integer && self.contains(JsonType::Number))
    }

    /// Whether string, number or array constraint keywords can apply.
    pub fn has_strings(self) -> bool {
        self.contains(JsonType::String)
    }

    /// Whether `integer` or `number` is in the set, so that `minimum`,
    /// `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf` can
    /// apply.
    pub fn has_numbers(self) -> bool {
        self.contains(JsonType::Integer) || self.contains(JsonType::Number)
    }

    /// Whether `array` is in the set, so that `minItems`, `maxItems` and
    /// `uniqueItems` can apply.
    pub fn has_arrays(self) -> bool {
        self.contains(JsonType::Array)
    }

    /// Whether `object` is in the set, so that `closed` can apply.
    pub fn has_objects(self) -> bool {
        self.contains(JsonType::Object)
    }

    /// The types in the set, in [`JsonType::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = JsonType> {
        JsonType::ALL.into_iter().filter(move |t| self.contains(*t))
    }

    /// `string|integer`, or `any`.
    pub fn label(self) -> String {
        if self.is_any() {
            return "any".to_string();
        }
        self.iter().map(JsonType::name).collect::<Vec<_>>().join("|")
    }
}

impl fmt::Display for TypeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// A scalar enum member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scalar {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, kept as written (`1.50` stays `1.50`) and compared by value.
    Number(Decimal),
    /// A string, decoded.
    String(String),
}

impl Scalar {
    /// The JSON type of the value: `integer` for a number with no fractional
    /// part, `number` for any other number.
    pub fn json_type(&self) -> JsonType {
        match self {
            Scalar::Null => JsonType::Null,
            Scalar::Bool(_) => JsonType::Boolean,
            Scalar::Number(d) if d.dec().is_integer() => JsonType::Integer,
            Scalar::Number(_) => JsonType::Number,
            Scalar::String(_) => JsonType::String,
        }
    }

    /// How the value reads in a message: strings quoted, numbers as written.
    pub fn display(&self) -> String {
        match self {
            Scalar::Null => "null".into(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::Number(d) => d.raw().to_string(),
            Scalar::String(s) => quote(s, 80),
        }
    }

    /// The value as JSON text.
    pub fn json(&self) -> String {
        match self {
            Scalar::Null => "null".into(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::Number(d) => d.raw().to_string(),
            Scalar::String(s) => serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()),
        }
    }

    /// JSON equality (numbers by value).
    pub fn same_value(&self, other: &Scalar) -> bool {
        match (self, other) {
            (Scalar::Number(a), Scalar::Number(b)) => a.dec().compare(&b.dec()).is_eq(),
            (a, b) => a == b,
        }
    }
}

/// `{'a', 'b'}`: an enum as messages show it, in contract order.
pub fn enum_label(values: &[Scalar]) -> String {
    let inner: Vec<String> = values.iter().map(Scalar::display).collect();
    format!("{{{}}}", inner.join(", "))
}

/// A compiled `pattern`.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub(crate) source: String,
    pub(crate) regex: regex::Regex,
}

impl Pattern {
    /// The regular expression as the contract writes it.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether every string matches (`""`, `a*`, `.*?`): the pattern can match
    /// the empty string and asserts nothing about where, so the unanchored
    /// search finds an empty match at the start of any string.
    pub fn matches_everything(&self) -> bool {
        let Ok(hir) = regex_syntax::Parser::new().parse(&self.source) else { return false };
        hir.properties().look_set().is_empty() && self.regex.is_match("")
    }

    /// Unanchored search, as JSON Schema's `pattern`.
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }

    /// Whether a JSON string token matches, decoded only when it has escapes.
    pub fn matches(&self, s: &Str<'_>) -> bool {
        match std::str::from_utf8(s.raw()) {
            Ok(text) if !s.is_escaped() => self.is_match(text),
            _ => self.is_match(&s.decode()),
        }
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

/// A field's constraints, stored out of line only when it has any: most
/// fields have none, and a contract of a million fields should not carry a
/// million empty keyword tables (a `Constraints` is several hundred bytes).
#[derive(Debug, Clone, Default)]
pub(crate) struct Sparse(Option<Box<Constraints>>);

/// What [`Sparse`] reads as when no keyword is set.
static NO_CONSTRAINTS: Constraints = Constraints {
    minimum: None,
    maximum: None,
    exclusive_minimum: None,
    exclusive_maximum: None,
    multiple_of: None,
    min_length: None,
    max_length: None,
    pattern: None,
    min_items: None,
    max_items: None,
    unique_items: false,
};

impl Sparse {
    pub(crate) fn new(c: Constraints) -> Sparse {
        Sparse((!c.is_empty()).then(|| Box::new(c)))
    }
}

impl std::ops::Deref for Sparse {
    type Target = Constraints;

    fn deref(&self) -> &Constraints {
        self.0.as_deref().unwrap_or(&NO_CONSTRAINTS)
    }
}

/// The constraint keywords of a field (JSON Schema 2020-12 meaning).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constraints {
    /// `minimum`: numbers must be at least this value; `None` when not set.
    pub minimum: Option<Decimal>,
    /// `maximum`: numbers must be at most this value; `None` when not set.
    pub maximum: Option<Decimal>,
    /// `exclusiveMinimum`: numbers must be greater than this value; `None`
    /// when not set.
    pub exclusive_minimum: Option<Decimal>,
    /// `exclusiveMaximum`: numbers must be less than this value; `None` when
    /// not set.
    pub exclusive_maximum: Option<Decimal>,
    /// `multipleOf`: numbers must be an exact multiple of this positive value,
    /// decided on the decimal digits as written; `None` when not set.
    pub multiple_of: Option<Decimal>,
    /// `minLength`: strings must have at least this many characters (Unicode
    /// scalar values, not bytes); `None` when not set.
    pub min_length: Option<u64>,
    /// `maxLength`: strings must have at most this many characters (Unicode
    /// scalar values, not bytes); `None` when not set.
    pub max_length: Option<u64>,
    /// `pattern`: strings must contain a match of this regular expression
    /// (unanchored search); `None` when not set.
    pub pattern: Option<Pattern>,
    /// `minItems`: arrays must have at least this many elements; `None` when
    /// not set.
    pub min_items: Option<u64>,
    /// `maxItems`: arrays must have at most this many elements; `None` when
    /// not set.
    pub max_items: Option<u64>,
    /// `uniqueItems`: when `true`, no two elements of an array may be equal
    /// (JSON equality); `false` when not set.
    pub unique_items: bool,
}

impl Constraints {
    /// Whether no constraint keyword is set.
    pub fn is_empty(&self) -> bool {
        *self == Constraints::default()
    }

    /// `keyword=value` pairs in keyword order, for tables and messages (the
    /// pattern quoted as messages quote strings).
    pub fn describe(&self) -> Vec<String> {
        self.keywords()
            .into_iter()
            .map(|(k, v)| match (&self.pattern, k) {
                (Some(p), name::PATTERN) => format!("pattern={}", quote(&p.source, 200)),
                _ => format!("{k}={v}"),
            })
            .collect()
    }

    /// Every keyword set, in the order contracts and JSON Schema exports
    /// write them (`minimum`, `exclusiveMinimum`, `maximum`,
    /// `exclusiveMaximum`, `multipleOf`, `minLength`, `maxLength`, `pattern`,
    /// `minItems`, `maxItems`, `uniqueItems`), each with its value as JSON
    /// text: numbers as the contract spells them, the pattern as a JSON
    /// string. Export, `describe` (the command) and [`Constraints::describe`]
    /// read this one list.
    pub fn keywords(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        let numbers = [
            (name::MINIMUM, &self.minimum),
            (name::EXCLUSIVE_MINIMUM, &self.exclusive_minimum),
            (name::MAXIMUM, &self.maximum),
            (name::EXCLUSIVE_MAXIMUM, &self.exclusive_maximum),
            (name::MULTIPLE_OF, &self.multiple_of),
        ];
        for (k, v) in numbers {
            if let Some(v) = v {
                out.push((k, v.raw().to_string()));
            }
        }
        let count = |out: &mut Vec<(&'static str, String)>, k: &'static str, v: Option<u64>| {
            if let Some(v) = v {
                out.push((k, v.to_string()));
            }
        };
        count(&mut out, name::MIN_LENGTH, self.min_length);
        count(&mut out, name::MAX_LENGTH, self.max_length);
        if let Some(p) = &self.pattern {
            out.push((name::PATTERN, serde_json::to_string(p.source()).unwrap_or_else(|_| "\"\"".into())));
        }
        count(&mut out, name::MIN_ITEMS, self.min_items);
        count(&mut out, name::MAX_ITEMS, self.max_items);
        if self.unique_items {
            out.push((name::UNIQUE_ITEMS, "true".into()));
        }
        out
    }
}
