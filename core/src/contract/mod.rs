//! The contract model: what a contract file says, checked and compiled.
//!
//! [`ContractSpec`] is the loaded form of a contract document: its
//! identity, its ordered [`FieldSpec`]s, and the path tree the validator walks.
//! Loading (`load.rs`) turns bytes into this model or into [`ContractError`]s
//! that name the file, line and column; `tree.rs` compiles the dotted paths.
//!
//! The model knows nothing of envelopes, findings, diffs, git or cargo.

mod load;
mod path;
pub mod schema;
pub(crate) mod tree;

use std::fmt;
use std::path::Path;

pub use load::{ContractError, Diagnostic};
pub use path::{FieldPath, Segment, Step};

use crate::json::number::Decimal;
use crate::json::text::{quote, Str};

/// A loaded, checked contract.
#[derive(Debug, Clone)]
pub struct ContractSpec {
    pub(crate) name: String,
    pub(crate) revision: semver::Version,
    pub(crate) kind: Option<String>,
    pub(crate) title: Option<String>,
    pub(crate) doc: Option<String>,
    pub(crate) strict: bool,
    /// Contract-level `closed`: an undeclared top-level key is an error.
    pub(crate) closed: bool,
    pub(crate) direction: ContractDirection,
    /// The fields form's fields, in contract order (empty in the schema form).
    pub(crate) fields: Vec<FieldSpec>,
    pub(crate) tree: tree::Node,
    /// The schema form's compiled schema (`None` in the fields form).
    pub(crate) schema: Option<Box<schema::Schema>>,
    /// The fields form lowered into the same schema graph (`strict` kept):
    /// what the finding walk reads, so that one walker writes the findings
    /// of both forms. Built at the first body with a finding (a valid body passes the quick check of
    /// `fast.rs` alone), so that loading stays small (`tests/alloc.rs`);
    /// never in the schema form.
    pub(crate) twin: std::sync::OnceLock<Box<schema::Schema>>,
    /// The line of the `revision` value in the contract file (0 if unknown).
    pub(crate) revision_line: usize,
    /// [`ContractSpec::shown_id`], written at its first use.
    pub(crate) shown_id: std::sync::OnceLock<String>,
}

impl ContractSpec {
    /// Loads and checks a contract file.
    pub fn from_path(path: impl AsRef<Path>) -> Result<ContractSpec, ContractError> {
        load::from_path(path.as_ref())
    }

    /// Loads and checks a contract from bytes; `origin` names it in errors.
    ///
    /// ```
    /// use protocolarc_core::ContractSpec;
    ///
    /// let contract = ContractSpec::from_slice(br#"{
    ///     "name": "demo.call", "revision": "1.2.0",
    ///     "fields": [ { "name": "method", "type": "string", "enum": ["ping"] } ] }"#, "demo.json").unwrap();
    /// assert_eq!(contract.id(), "demo.call@1.2.0");
    /// assert!(contract.validate_json(br#"{"method": "ping"}"#).is_valid());
    ///
    /// let report = contract.validate_json(br#"{"method": "pong"}"#);
    /// assert_eq!(report.findings()[0].rule(), "field.enum");
    /// assert_eq!(report.findings()[0].to_string(), "ERROR field.enum method: value 'pong' not in {'ping'}");
    ///
    /// // A contract that breaks the format is an error naming file, line and column.
    /// let err = ContractSpec::from_slice(br#"{"name": "demo.call", "fields": []}"#, "bad.json").unwrap_err();
    /// assert_eq!(err.to_string(), "bad.json:1:1: missing required key 'revision'");
    /// ```
    pub fn from_slice(bytes: &[u8], origin: &str) -> Result<ContractSpec, ContractError> {
        load::from_slice(bytes, origin)
    }

    /// The contract `name`, such as `mcp.tool_call`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The contract `revision` (a semver version).
    pub fn revision(&self) -> &semver::Version {
        &self.revision
    }

    /// The optional `kind` label (such as `mcp`); `None` when the contract
    /// does not declare one. It is informational and changes no validation.
    pub fn kind(&self) -> Option<&str> {
        self.kind.as_deref()
    }

    /// The optional human-readable `title`; `None` when not declared.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The optional `doc` description of the whole contract; `None` when not
    /// declared.
    pub fn doc(&self) -> Option<&str> {
        self.doc.as_deref()
    }

    /// Whether the contract is `closed`: an undeclared top-level key of a
    /// document is a `field.additionalProperties` error. `false` when not
    /// declared.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Whether the contract is `strict`: undeclared top-level keys of a
    /// document get a `field.unknown` warning. `false` when not declared.
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// Which way the contract's messages flow (`direction`, `request` when
    /// not declared).
    pub fn direction(&self) -> ContractDirection {
        self.direction
    }

    /// The compiled JSON Schema of a schema-form contract; `None` for the
    /// fields form.
    pub fn schema(&self) -> Option<&schema::Schema> {
        self.schema.as_deref()
    }

    /// The fields in contract order (none in the schema form).
    pub fn fields(&self) -> &[FieldSpec] {
        &self.fields
    }

    /// The line of the contract file that holds its `revision`, for messages
    /// and CI annotations about the revision as a whole.
    pub fn revision_line(&self) -> usize {
        self.revision_line
    }

    /// The line of the contract file that declares the field at `path` (as a
    /// change or finding names it, `params.messages[].role`), or, for an
    /// implied parent, its first declared descendant; `None` when no field of
    /// this revision is at or below it (a removed field).
    pub fn field_line(&self, path: &str) -> Option<usize> {
        let below = |p: &str| p.strip_prefix(path).is_some_and(|rest| rest.starts_with(['.', '[']));
        let exact = self.fields.iter().find(|f| f.path.as_str() == path);
        exact.or_else(|| self.fields.iter().find(|f| below(f.path.as_str()))).map(FieldSpec::line)
    }

    /// The schema graph the finding walk reads: the schema form's own, or
    /// the fields form lowered into one (built at first use).
    pub(crate) fn walked(&self) -> &schema::Schema {
        if let Some(schema) = &self.schema {
            return schema;
        }
        self.twin.get_or_init(|| Box::new(schema::lower::lower(self)))
    }

    /// `name@revision`.
    pub fn id(&self) -> String {
        format!("{}@{}", self.name, self.revision)
    }

    /// [`ContractSpec::id`] made safe for one output line (as
    /// [`crate::json::text::one_line`] makes any text), kept once written:
    /// a verdict line names its contract without building the text again.
    pub fn shown_id(&self) -> &str {
        self.shown_id.get_or_init(|| crate::json::text::one_line(&self.id()).into_owned())
    }
}

/// Whether a key is written as is in a path (`params.name`): not empty, and
/// none of `.`, `[`, `]`, `{`, `}`, `"`, `\` or a control character.
pub fn is_plain_key(key: &str) -> bool {
    !key.is_empty()
        && !key
            .chars()
            .any(|c| matches!(c, '.' | '[' | ']' | '{' | '}' | '"' | '\\') || crate::json::text::is_unprintable(c))
}

/// Appends `key` to a path: `.key` (no dot when `first`) for a plain key,
/// `["key"]` for any other, as findings and field names write it.
pub(crate) fn push_key(out: &mut String, first: bool, key: &str) {
    if is_plain_key(key) {
        if !first {
            out.push('.');
        }
        out.push_str(key);
    } else {
        push_bracketed(out, key);
    }
}

/// `prefix` and `key` joined as a path (`prefix.key`, `prefix["k.y"]`).
pub(crate) fn join_key(prefix: &str, key: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + key.len() + 1);
    out.push_str(prefix);
    push_key(&mut out, prefix.is_empty(), key);
    out
}

/// Appends `["key"]`: the key as a JSON string, with every unprintable
/// character (controls, DEL, C1, the Unicode line separators) as a `\uXXXX`
/// escape, so the path stays one line and its key reads back exactly.
pub(crate) fn push_bracketed(out: &mut String, key: &str) {
    use std::fmt::Write as _;
    out.push_str("[\"");
    for c in key.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if crate::json::text::is_unprintable(c) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push_str("\"]");
}

/// Which way a contract's messages flow (SPEC §11, the `direction` key):
/// what its owner accepts (`request`), what it sends (`response`), or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ContractDirection {
    /// The contract describes messages its owner receives (the default).
    Request,
    /// The contract describes messages its owner sends.
    Response,
    /// The contract describes messages sent both ways: a change has the worse
    /// of its request and response impacts.
    Both,
}

impl ContractDirection {
    /// Every direction, in the order `rules` shows them.
    pub const ALL: [ContractDirection; 3] =
        [ContractDirection::Request, ContractDirection::Response, ContractDirection::Both];

    /// `request` / `response` / `both`.
    pub fn as_str(self) -> &'static str {
        match self {
            ContractDirection::Request => "request",
            ContractDirection::Response => "response",
            ContractDirection::Both => "both",
        }
    }

    /// The direction named `text` (as [`ContractDirection::as_str`] writes it).
    pub fn parse(text: &str) -> Option<ContractDirection> {
        ContractDirection::ALL.into_iter().find(|d| d.as_str() == text)
    }
}

impl fmt::Display for ContractDirection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One declared field.
#[derive(Debug, Clone)]
pub struct FieldSpec {
    pub(crate) path: FieldPath,
    pub(crate) types: TypeSet,
    pub(crate) required: bool,
    pub(crate) enum_values: Option<Vec<Scalar>>,
    /// The one member of `enum_values` came from `const` (its finding is
    /// `field.const`).
    pub(crate) is_const: bool,
    /// `format`, as written (asserted when [`FieldSpec::format`] names one of
    /// the asserted formats).
    pub(crate) format: Option<Box<str>>,
    /// `closed`: an undeclared key of this object is an error.
    pub(crate) closed: bool,
    pub(crate) doc: Option<String>,
    pub(crate) constraints: Sparse,
    pub(crate) line: usize,
    /// Byte offset of the field's object in the contract file.
    pub(crate) offset: usize,
}

impl FieldSpec {
    /// The dotted path the field is declared at (`params.messages[].role`).
    pub fn path(&self) -> &FieldPath {
        &self.path
    }

    /// The JSON types the field accepts (`any` is [`TypeSet::ANY`]).
    pub fn types(&self) -> TypeSet {
        self.types
    }

    /// Whether the field must be present (`required`, `true` when not
    /// declared).
    pub fn is_required(&self) -> bool {
        self.required
    }

    /// The allowed scalar values, in contract order; `None` when the field
    /// has no `enum`.
    pub fn enum_values(&self) -> Option<&[Scalar]> {
        self.enum_values.as_deref()
    }

    /// The field's `doc` description; `None` when not declared.
    pub fn doc(&self) -> Option<&str> {
        self.doc.as_deref()
    }

    /// The value `const` pins the field to; `None` when the field has no
    /// `const` (its [`FieldSpec::enum_values`] then hold that one value too).
    pub fn constant(&self) -> Option<&Scalar> {
        self.enum_values.as_deref().filter(|_| self.is_const).and_then(<[Scalar]>::first)
    }

    /// The field's `format` name, as written; `None` when not declared.
    pub fn format(&self) -> Option<&str> {
        self.format.as_deref()
    }

    /// Whether the field is a `closed` object: keys it does not declare are
    /// `field.additionalProperties` errors.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The constraint keywords declared on the field (empty when none).
    pub fn constraints(&self) -> &Constraints {
        &self.constraints
    }

    /// The line of the contract file where the field is declared.
    pub fn line(&self) -> usize {
        self.line
    }
}

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
                (Some(p), "pattern") => format!("pattern={}", quote(&p.source, 200)),
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
            ("minimum", &self.minimum),
            ("exclusiveMinimum", &self.exclusive_minimum),
            ("maximum", &self.maximum),
            ("exclusiveMaximum", &self.exclusive_maximum),
            ("multipleOf", &self.multiple_of),
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
        count(&mut out, "minLength", self.min_length);
        count(&mut out, "maxLength", self.max_length);
        if let Some(p) = &self.pattern {
            out.push(("pattern", serde_json::to_string(p.source()).unwrap_or_else(|_| "\"\"".into())));
        }
        count(&mut out, "minItems", self.min_items);
        count(&mut out, "maxItems", self.max_items);
        if self.unique_items {
            out.push(("uniqueItems", "true".into()));
        }
        out
    }
}
