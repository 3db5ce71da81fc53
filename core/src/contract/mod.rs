//! The contract model: what a contract file says, checked and compiled.
//!
//! [`ContractSpec`] is the loaded form of a contract document: its
//! identity, its ordered [`FieldSpec`]s and their path tree (the fields
//! form), or its compiled schema; every engine reads the schema graph, a
//! fields form's lowered from its path tree.
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

pub(crate) use crate::keywords::Sparse;
pub use crate::keywords::{enum_label, Constraints, JsonType, Pattern, Scalar, TypeSet};

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
    /// of both forms. Built at the first use (the first body judged, the
    /// first diff or generated type), so that loading stays small
    /// (`tests/alloc.rs`); never in the schema form.
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
