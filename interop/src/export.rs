//! `export`: a contract as a JSON Schema 2020-12 document that accepts
//! exactly the `data` bodies the contract accepts (SPEC §10).
//!
//! - The schema form exports its `schema`, key order and number spelling as
//!   the file writes them, with `"$schema"` first.
//! - The fields form (SPEC §2) is written from the schema graph its fields
//!   lower to when it loads, the graph every engine reads: each dotted path
//!   is nested `properties` (an `[]` step `items`, a `{}` step
//!   `additionalProperties`), an implied parent an object (or array) that is
//!   required when any child is, `type` lists the field's types (none for
//!   `any`), `required` the keys whose field is required, and `const`,
//!   `enum`, `format` and the constraint keywords are written with their
//!   values as the contract spells them. The contract's `title` and `doc`
//!   become `title` and `description`, a field's `doc` its `description`.
//!
//! What has no JSON Schema equal is said in a note, never hidden: the
//! top-level `strict` flag only warns, so undeclared keys stay allowed.
//! Findings that are not about the value (`json.duplicate_key`, data nested
//! deeper than the validator reads) are outside any schema.
//!
//! The contract is loaded with [`ContractSpec::from_slice`] first: a contract
//! that does not load does not export, with the loader's error.

use protocolarc_core::schema_keywords::{self, name};
use std::fmt;

use serde_json::Value;

use crate::contract::schema::{SchemaLiteral, SchemaNode};
use crate::contract::{ContractError, ContractSpec};
use crate::json::text::quote;
use crate::json::tree::{parse, Node as TreeNode, Value as TreeValue};

/// The `$schema` of JSON Schema 2020-12, as export writes it.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// A contract exported as JSON Schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    /// The schema as text: two-space indentation, `$schema` first, a final
    /// line break.
    pub text: String,
    /// What the schema cannot say, one sentence each (for stderr).
    pub notes: Vec<String>,
}

impl Exported {
    /// The schema as a value (numbers as `serde_json` reads them).
    pub fn schema(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }
}

/// Why a contract could not be exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportError {
    /// The contract does not load.
    Contract(ContractError),
    /// A schema-form contract whose schema is not one a contract may hold
    /// (checked here while the loader does not read the schema form).
    Schema {
        /// The file (or label).
        origin: String,
        /// 1-based line and column of the value at fault (0 when unknown).
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Contract(e) => e.fmt(f),
            ExportError::Schema { origin, line: 0, message, .. } => write!(f, "{origin}: {message}"),
            ExportError::Schema { origin, line, column, message } => write!(f, "{origin}:{line}:{column}: {message}"),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<ContractError> for ExportError {
    fn from(e: ContractError) -> Self {
        ExportError::Contract(e)
    }
}

/// Exports the contract file `bytes` (`origin` names it in errors) as JSON
/// Schema 2020-12.
///
/// ```
/// use protocolarc_interop::export::json_schema;
///
/// let contract = br#"{"name": "demo.call", "revision": "1.0.0", "strict": true,
///     "fields": [{"name": "params.tags[]", "type": "string", "maxLength": 8, "doc": "A tag."}]}"#;
/// let out = json_schema(contract, "demo.json").unwrap();
/// assert_eq!(out.schema(), serde_json::json!({
///     "$schema": "https://json-schema.org/draft/2020-12/schema",
///     "type": "object",
///     "properties": { "params": {
///         "type": "object",
///         "properties": { "tags": {
///             "type": "array",
///             "items": { "description": "A tag.", "type": "string", "maxLength": 8 } } },
///         "required": ["tags"] } },
///     "required": ["params"]
/// }));
/// assert_eq!(out.notes, ["strict has no JSON Schema equal: undeclared keys stay allowed"]);
/// ```
pub fn json_schema(bytes: &[u8], origin: &str) -> Result<Exported, ExportError> {
    let loaded = ContractSpec::from_slice(bytes, origin);
    let tree = match parse(bytes) {
        Ok(tree) => tree,
        // The loader has said what is wrong with the JSON.
        Err(_) => return Err(loaded.err().map(ExportError::from).unwrap_or_else(|| unreadable(origin))),
    };
    let schema = match &tree.value {
        TreeValue::Object(members) => members.iter().find(|(k, _)| k.name == "schema").map(|(_, v)| v),
        _ => None,
    };
    match (schema, loaded) {
        (None, Ok(spec)) => {
            fields_form_known(bytes, origin, &tree)?;
            Ok(from_spec(&spec))
        }
        (None, Err(e)) => Err(e.into()),
        (Some(schema), Ok(_)) => Ok(from_schema(schema)),
        (Some(_), Err(e)) => Err(e.into()),
    }
}

fn unreadable(origin: &str) -> ExportError {
    ExportError::Schema { origin: origin.into(), line: 0, column: 0, message: "not a JSON document".into() }
}

/// The contract keys [`from_spec`] carries into JSON Schema.
const CONTRACT_KEYS: &[&str] =
    &[name::SCHEMA, "name", "revision", "kind", name::TITLE, "doc", "strict", "closed", "direction", "fields"];
/// The field keys [`from_spec`] carries into JSON Schema besides the
/// keywords the registry marks as spelled by the fields form.
const FIELD_KEYS: &[&str] = &["name", "closed", "doc"];

/// Whether [`from_spec`] carries the field key `k`.
fn field_key_known(k: &str) -> bool {
    FIELD_KEYS.contains(&k) || schema_keywords::find(k).is_some_and(|kw| kw.fields_form)
}

/// Refuses a fields-form contract that uses what this exporter does not
/// write (a key the loader learns later): a schema without it would accept
/// more than the contract, so it is an error, never a silent loss.
fn fields_form_known(bytes: &[u8], origin: &str, tree: &TreeNode<'_>) -> Result<(), ExportError> {
    let refuse = |offset: usize, what: String| {
        let (line, column) = crate::json::scan::line_col(bytes, offset);
        let message = format!("export cannot carry {what} into JSON Schema yet");
        Err(ExportError::Schema { origin: origin.into(), line, column, message })
    };
    let TreeValue::Object(members) = &tree.value else { return Ok(()) };
    for (k, v) in members {
        if !CONTRACT_KEYS.contains(&k.name.as_ref()) {
            return refuse(k.offset, format!("the contract key {}", quote(&k.name, 80)));
        }
        let (true, TreeValue::Array(fields)) = (k.name == "fields", &v.value) else { continue };
        for f in fields {
            let TreeValue::Object(keys) = &f.value else { continue };
            for (fk, _) in keys {
                if !field_key_known(&fk.name) {
                    return refuse(fk.offset, format!("the field key {}", quote(&fk.name, 80)));
                }
            }
        }
    }
    Ok(())
}

/// The schema of a schema-form contract, `$schema` first.
fn from_schema(schema: &TreeNode<'_>) -> Exported {
    let body = match Json::from_tree(schema) {
        Json::Object(members) => members.into_iter().filter(|(k, _)| k != name::SCHEMA).collect(),
        Json::Raw(r) if r == "false" => vec![(name::NOT.to_string(), Json::Object(Vec::new()))],
        _ => Vec::new(),
    };
    let mut members = vec![(name::SCHEMA.to_string(), Json::string(DRAFT_2020_12))];
    members.extend(body);
    Exported { text: Json::Object(members).render(), notes: Vec::new() }
}

/// The JSON Schema of a fields-form contract, written from the schema graph
/// its fields lower to ([`ContractSpec::graph`]): the contract's `title` and
/// `doc` at the root, then the root node.
pub fn from_spec(spec: &ContractSpec) -> Exported {
    let mut members = vec![(name::SCHEMA.to_string(), Json::string(DRAFT_2020_12))];
    if let Some(t) = spec.title() {
        members.push((name::TITLE.into(), Json::string(t)));
    }
    if let Some(d) = spec.doc() {
        members.push((name::DESCRIPTION.into(), Json::string(d)));
    }
    members.extend(node_members(spec.graph().root()));
    let mut notes = Vec::new();
    if spec.is_strict() {
        notes.push("strict has no JSON Schema equal: undeclared keys stay allowed".to_string());
    }
    Exported { text: Json::Object(members).render(), notes }
}

/// A node of a lowered fields form: its `doc`, `type` (none for `any`),
/// `const` or `enum`, `format` as the field writes it, the constraint
/// keywords as the contract spells them, then what lies below it.
fn node_members(n: SchemaNode<'_>) -> Vec<(String, Json)> {
    let mut m = Vec::new();
    if let Some(d) = n.description() {
        m.push((name::DESCRIPTION.into(), Json::string(d)));
    }
    if let Some(t) = n.types().filter(|t| !t.is_any()) {
        let names: Vec<Json> = t.iter().map(|t| Json::string(t.name())).collect();
        let t = if let [one] = names.as_slice() { one.clone() } else { Json::Array(names) };
        m.push((name::TYPE.into(), t));
    }
    match (n.const_value(), n.enum_values()) {
        (Some(c), _) => m.push((name::CONST.into(), literal(c))),
        (None, Some(values)) => m.push((name::ENUM.into(), Json::Array(values.into_iter().map(literal).collect()))),
        (None, None) => {}
    }
    if let Some(format) = n.field_format() {
        m.push((name::FORMAT.into(), Json::string(format)));
    }
    for (k, v) in n.constraints().keywords() {
        m.push((k.into(), Json::Raw(v)));
    }
    if n.properties().next().is_some() {
        let props = n.properties().map(|(k, c)| (k.to_string(), Json::Object(node_members(c)))).collect();
        m.push((name::PROPERTIES.into(), Json::Object(props)));
        let required: Vec<Json> = n.required().map(Json::string).collect();
        if !required.is_empty() {
            m.push((name::REQUIRED.into(), Json::Array(required)));
        }
    }
    if let Some(items) = n.items() {
        m.push((name::ITEMS.into(), Json::Object(node_members(items))));
    }
    // A closed object's `additionalProperties` is the `false` schema.
    match n.additional_properties() {
        Some(_) if n.is_closed() => m.push((name::ADDITIONAL_PROPERTIES.into(), Json::Raw("false".into()))),
        Some(values) => m.push((name::ADDITIONAL_PROPERTIES.into(), Json::Object(node_members(values)))),
        None => {}
    }
    m
}

/// A `const` or `enum` member as JSON, numbers as the contract writes them.
fn literal(l: SchemaLiteral<'_>) -> Json {
    match l.as_str() {
        Some(s) => Json::string(s),
        None => Json::Raw(l.display()),
    }
}

/// JSON to write: members in a chosen order, scalars as their text.
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Raw(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn string(s: &str) -> Json {
        Json::Raw(string_text(s))
    }

    fn from_value(v: &Value) -> Json {
        match v {
            Value::Array(a) => Json::Array(a.iter().map(Json::from_value).collect()),
            Value::Object(o) => Json::Object(o.iter().map(|(k, v)| (k.clone(), Json::from_value(v))).collect()),
            Value::String(s) => match crate::written::marked(s) {
                Some(raw) => Json::Raw(raw.to_string()),
                None => Json::string(s),
            },
            other => Json::Raw(other.to_string()),
        }
    }

    fn from_tree(n: &TreeNode<'_>) -> Json {
        match &n.value {
            TreeValue::Null => Json::Raw("null".into()),
            TreeValue::Bool(b) => Json::Raw(b.to_string()),
            TreeValue::Number(d) => Json::Raw(d.raw().to_string()),
            TreeValue::String(s) => Json::string(s),
            TreeValue::Array(a) => Json::Array(a.iter().map(Json::from_tree).collect()),
            TreeValue::Object(o) => {
                Json::Object(o.iter().map(|(k, v)| (k.name.to_string(), Json::from_tree(v))).collect())
            }
        }
    }

    fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String, indent: usize) {
        let pad = |out: &mut String, n: usize| out.extend(std::iter::repeat_n(' ', n * 2));
        match self {
            Json::Raw(r) => out.push_str(r),
            Json::Array(a) if a.is_empty() => out.push_str("[]"),
            Json::Object(o) if o.is_empty() => out.push_str("{}"),
            Json::Array(a) => {
                out.push('[');
                for (i, v) in a.iter().enumerate() {
                    out.push_str(if i == 0 { "\n" } else { ",\n" });
                    pad(out, indent + 1);
                    v.write(out, indent + 1);
                }
                out.push('\n');
                pad(out, indent);
                out.push(']');
            }
            Json::Object(o) => {
                out.push('{');
                for (i, (k, v)) in o.iter().enumerate() {
                    out.push_str(if i == 0 { "\n" } else { ",\n" });
                    pad(out, indent + 1);
                    out.push_str(&string_text(k));
                    out.push_str(": ");
                    v.write(out, indent + 1);
                }
                out.push('\n');
                pad(out, indent);
                out.push('}');
            }
        }
    }
}

fn string_text(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// `v` as text with `lead` keys first at the top level (in that order), the
/// rest in map order; two-space indentation and a final line break.
pub(crate) fn render_value(v: &Value, lead: &[&str]) -> String {
    let Value::Object(o) = v else { return Json::from_value(v).render() };
    let mut members: Vec<(String, Json)> = Vec::new();
    for k in lead {
        if let Some(x) = o.get(*k) {
            members.push((k.to_string(), Json::from_value(x)));
        }
    }
    for (k, x) in o {
        if !lead.contains(&k.as_str()) {
            members.push((k.clone(), Json::from_value(x)));
        }
    }
    Json::Object(members).render()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_export_does_not_write_are_refused() {
        let check = |text: &str| {
            let tree = parse(text.as_bytes()).unwrap();
            fields_form_known(text.as_bytes(), "c.json", &tree).map_err(|e| e.to_string())
        };
        assert_eq!(check(r#"{"name": "a", "fields": [{"name": "x", "maxLength": 2}]}"#), Ok(()));
        // `closed`, `const`, `format` and `["key"]` names are written now.
        assert_eq!(
            check(r#"{"closed": true, "fields": [{"name": "a[\"x.y\"]", "const": 1, "format": "uri"}]}"#),
            Ok(())
        );
        assert_eq!(
            check("{\"sealed\": true}"),
            Err("c.json:1:2: export cannot carry the contract key 'sealed' into JSON Schema yet".into())
        );
        assert_eq!(
            check(r#"{"fields": [{"name": "x", "default": 1}]}"#),
            Err("c.json:1:27: export cannot carry the field key 'default' into JSON Schema yet".into())
        );
        // A `{}` map step is written as `additionalProperties`.
        assert_eq!(check(r#"{"fields": [{"name": "m{}.x"}]}"#), Ok(()));
    }

    #[test]
    fn renders_like_serde_json_pretty() {
        let v = serde_json::json!({"a": [1, {"b": []}, {}], "c": "x\n\"y", "d": null, "e": 1.5});
        assert_eq!(render_value(&v, &[]), format!("{}\n", serde_json::to_string_pretty(&v).unwrap()));
        assert_eq!(render_value(&v, &["e", "c"]).lines().nth(1), Some("  \"e\": 1.5,"));
    }

    #[test]
    fn numbers_as_written_and_schema_form() {
        let c = br#"{"name": "n.n", "revision": "1.0.0", "fields": [{"name": "p", "type": "number", "multipleOf": 0.0100, "maximum": 1e2}]}"#;
        let out = json_schema(c, "c.json").unwrap();
        assert!(
            out.text.contains("\"maximum\": 1e2,\n") && out.text.contains("\"multipleOf\": 0.0100\n"),
            "{}",
            out.text
        );
        let s = br#"{"name": "s.s", "revision": "1.0.0", "schema": {"type": "object", "$schema": "https://json-schema.org/draft/2020-12/schema", "minProperties": 1.0}}"#;
        let out = json_schema(s, "s.json").unwrap();
        assert_eq!(
            out.text,
            "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"type\": \"object\",\n  \"minProperties\": 1.0\n}\n"
        );
    }
}

#[cfg(test)]
mod lowering {
    use crate::contract::schema::graph_shape;
    use crate::contract::ContractSpec;

    /// The graph the fields form's JSON Schema export compiles to, as a
    /// schema-form contract: what the lowering must equal (the export is
    /// written from the lowered graph, so this reads it back through JSON
    /// Schema and the compiler).
    fn through_export(spec: &ContractSpec) -> Vec<String> {
        let text = super::from_spec(spec).text;
        let doc = format!(r#"{{"name": "exported", "revision": "1.0.0", "schema": {text}}}"#);
        let loaded = ContractSpec::from_slice(doc.as_bytes(), "exported.json").expect("the export loads");
        assert!(loaded.schema().is_some(), "schema form");
        graph_shape(&loaded, spec.is_strict())
    }

    fn same(text: &str) {
        let spec = ContractSpec::from_slice(text.as_bytes(), "c.json").expect("loads");
        assert!(spec.schema().is_none(), "a fields-form contract");
        let (lowered, exported) = (graph_shape(&spec, spec.is_strict()), through_export(&spec));
        assert_eq!(lowered.len(), exported.len(), "{text}");
        for (i, (a, b)) in lowered.iter().zip(&exported).enumerate() {
            assert_eq!(a, b, "node {i} of {text}");
        }
    }

    #[test]
    fn the_fields_form_lowers_to_what_its_export_compiles_to() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut seen = 0;
        for dir in ["contracts", "docs/examples", "tests/data", "tests/ui/contracts", "contracts/fixtures"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
            let mut paths: Vec<_> = entries.map(|e| e.expect("entry").path()).collect();
            paths.sort();
            for p in paths.iter().filter(|p| p.extension().is_some_and(|x| x == "json")) {
                let text = std::fs::read_to_string(p).expect("read");
                if ContractSpec::from_slice(text.as_bytes(), "c.json").is_ok_and(|c| c.schema().is_none()) {
                    same(&text);
                    seen += 1;
                }
            }
        }
        assert!(seen >= 10, "{seen} fields-form contracts of the repository");
        for text in [
            r#"{"name": "a", "revision": "1.0.0", "title": "T", "doc": "D", "strict": true, "closed": true,
                "fields": [{"name": "x", "type": ["string", "null"], "enum": ["a", null, "b"], "doc": "x"},
                           {"name": "n", "type": "number", "minimum": 1.50, "exclusiveMaximum": 1e2, "multipleOf": 0.01},
                           {"name": "k", "const": 2.0, "type": "integer", "required": false},
                           {"name": "s", "type": "string", "format": "uri", "pattern": "^a", "minLength": 1},
                           {"name": "f", "type": "string", "format": "not-asserted"},
                           {"name": "o", "type": "object", "closed": true, "required": false},
                           {"name": "o.p[].q", "type": "any"},
                           {"name": "m{}.v", "type": "boolean"},
                           {"name": "t[]", "type": "array", "uniqueItems": true, "minItems": 1},
                           {"name": "t[][]", "type": "string", "required": false},
                           {"name": "w[\"a.b\"].c", "type": "null"}]}"#,
            r#"{"name": "b", "revision": "1.0.0", "fields": [{"name": "only.deep.down", "required": false, "type": "string"}]}"#,
        ] {
            same(text);
        }
    }
}
