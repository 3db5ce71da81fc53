//! `describe`: a contract's field table, as aligned text or JSON.
//!
//! A schema-form contract (SPEC §10) is shown as rows of paths instead of
//! fields (`describe_schema.rs`): one per position a finding can name, with
//! unions as their members and maps as `name{}`.

use serde::Serialize;

use std::collections::BTreeMap;

use serde_json::value::RawValue;

use super::describe_schema;
use protocolarc::contract::schema::Schema;
use protocolarc::contract::{enum_label, Constraints, ContractSpec, Scalar};

/// `Err` when the description of `c` would pass its row budget (100,000
/// rows, or eight per subschema when that is more: a schema whose
/// definitions are used many times over), naming where it stops.
pub fn within_budget(c: &ContractSpec) -> Result<(), String> {
    let Some(schema) = c.schema() else { return Ok(()) };
    match describe_schema::past_budget(schema) {
        None => Ok(()),
        Some(at) => Err(format!(
            "{}: the description expands past {} rows (at {}): each use of a definition is written out where it is used",
            c.shown_id(),
            describe_schema::max_rows(schema),
            crate::render::one_line(&at)
        )),
    }
}

/// The field table as aligned text (for a schema-form contract, its path
/// table).
pub fn text(c: &ContractSpec) -> String {
    if let Some(schema) = c.schema() {
        return schema_text(c, schema);
    }
    let mut out = String::new();
    header(c, &mut out);
    let count = c.fields().len();
    let plural = if count == 1 { "" } else { "s" };
    let closed = if c.is_closed() { ", closed: true" } else { "" };
    out.push_str(&format!(
        "kind: {}, strict: {}{closed}, {count} field{plural}\n",
        super::one_line(c.kind().unwrap_or("-")),
        c.is_strict()
    ));
    if let Some(doc) = c.doc() {
        out.push_str(&format!("{}\n", super::one_line(doc)));
    }
    let rows: Vec<[String; 4]> = c
        .fields()
        .iter()
        .map(|f| {
            let mut rules = Vec::new();
            match (f.constant(), f.enum_values()) {
                (Some(c), _) => rules.push(format!("const={}", c.display())),
                (None, Some(values)) => rules.push(format!("enum={}", enum_label(values))),
                (None, None) => {}
            }
            if let Some(format) = f.format() {
                rules.push(format!("format={}", super::one_line(format)));
            }
            if f.is_closed() {
                rules.push("closed".into());
            }
            rules.extend(f.constraints().describe());
            let required = if f.is_required() { "required" } else { "optional" };
            [f.path().to_string(), f.types().label(), required.to_string(), rules.join(" ")]
        })
        .collect();
    out.push('\n');
    table(&rows, ["FIELD", "TYPE", "REQUIRED", "CONSTRAINTS"], &mut out, |i, out| {
        if let Some(doc) = c.fields()[i].doc() {
            out.push_str(&format!("      {}\n", super::one_line(doc)));
        }
    });
    out
}

/// The first line both forms share: `id: title`.
fn header(c: &ContractSpec, out: &mut String) {
    match c.title() {
        Some(title) => out.push_str(&format!("{}: {}\n", c.id(), super::one_line(title))),
        None => out.push_str(&format!("{}\n", c.id())),
    }
}

/// Rows as an aligned table: `header` then each row (followed by what
/// `after` adds for it), the last column unpadded.
fn table(rows: &[[String; 4]], header: [&str; 4], out: &mut String, mut after: impl FnMut(usize, &mut String)) {
    let header = header.map(String::from);
    let mut width = [0usize; 3];
    for row in std::iter::once(&header).chain(rows) {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |row: &[String; 4]| {
        let mut s = String::from("  ");
        for (i, w) in width.iter().enumerate() {
            s.push_str(&row[i]);
            s.push_str(&" ".repeat(w - row[i].chars().count() + 2));
        }
        s.push_str(&row[3]);
        s.trim_end().to_string() + "\n"
    };
    out.push_str(&line(&header));
    for (i, row) in rows.iter().enumerate() {
        out.push_str(&line(row));
        after(i, out);
    }
}

/// A schema-form contract's path table.
fn schema_text(c: &ContractSpec, schema: &Schema) -> String {
    let mut out = String::new();
    header(c, &mut out);
    let rows = describe_schema::rows(schema);
    let plural = if rows.len() == 1 { "" } else { "s" };
    out.push_str(&format!(
        "kind: {}, strict: {}, direction: {}, schema: {} row{plural}\n",
        super::one_line(c.kind().unwrap_or("-")),
        c.is_strict(),
        c.direction(),
        rows.len()
    ));
    if let Some(doc) = c.doc() {
        out.push_str(&format!("{}\n", super::one_line(doc)));
    }
    let cells: Vec<[String; 4]> = rows
        .iter()
        .map(|r| [r.path_cell(), r.type_label(), r.required_label().to_string(), r.keywords.join("; ")])
        .collect();
    out.push('\n');
    table(&cells, ["PATH", "TYPE", "REQUIRED", "KEYWORDS"], &mut out, |_, _| {});
    out
}

#[derive(Serialize)]
struct JsonContract<'a> {
    name: &'a str,
    revision: String,
    kind: Option<&'a str>,
    title: Option<&'a str>,
    doc: Option<&'a str>,
    strict: bool,
    /// Contract-level `closed` (written only when true).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    closed: bool,
    /// Schema form only (kept out of the fields form's document).
    #[serde(skip_serializing_if = "Option::is_none")]
    direction: Option<&'static str>,
    fields: Vec<JsonField<'a>>,
    /// Schema form only: the path table's rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    paths: Option<Vec<JsonPath<'a>>>,
}

/// One row of a schema-form contract's path table.
#[derive(Serialize)]
struct JsonPath<'a> {
    path: String,
    /// What applies this row's schema to the value (`type 'text'`,
    /// `any of #2`); `null` for the value's own schema.
    member: Option<String>,
    /// Union-member nesting (the text's indentation).
    depth: usize,
    types: Vec<&'static str>,
    /// `true`/`false` for an object property, `null` elsewhere.
    required: Option<bool>,
    /// The first `$ref` followed, by name.
    #[serde(rename = "ref")]
    reference: Option<String>,
    recursive: bool,
    /// Sorted by keyword.
    keywords: BTreeMap<&'static str, Box<RawValue>>,
    applies: Vec<describe_schema::Applies>,
    description: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonField<'a> {
    name: &'a str,
    types: Vec<&'static str>,
    required: bool,
    #[serde(rename = "enum")]
    enum_values: Option<Vec<Box<RawValue>>>,
    /// The `const` (its value is also the one `enum` member).
    #[serde(rename = "const", skip_serializing_if = "Option::is_none")]
    constant: Option<Box<RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    closed: bool,
    /// Sorted by keyword, whatever serde_json's features.
    constraints: BTreeMap<&'static str, Box<RawValue>>,
    doc: Option<&'a str>,
    line: usize,
}

/// The field table as pretty JSON (one document, trailing newline).
pub fn json(c: &ContractSpec) -> String {
    serde_json::to_string_pretty(&super::versioned(json_doc(c))).unwrap_or_default() + "\n"
}

#[derive(Serialize)]
struct JsonContracts<'a> {
    contracts: Vec<JsonContract<'a>>,
}

/// Several contracts' field tables as one pretty JSON object,
/// `{"format_version": 1, "contracts": [...]}`, whatever their number.
pub fn json_many<'a>(contracts: impl IntoIterator<Item = &'a ContractSpec>) -> String {
    let doc = JsonContracts { contracts: contracts.into_iter().map(json_doc).collect() };
    serde_json::to_string_pretty(&super::versioned(doc)).unwrap_or_default() + "\n"
}

fn json_doc(c: &ContractSpec) -> JsonContract<'_> {
    JsonContract {
        name: c.name(),
        revision: c.revision().to_string(),
        kind: c.kind(),
        title: c.title(),
        doc: c.doc(),
        strict: c.is_strict(),
        closed: c.is_closed(),
        direction: c.schema().map(|_| c.direction().as_str()),
        paths: c.schema().map(|s| {
            describe_schema::rows(s)
                .into_iter()
                .map(|r| JsonPath {
                    types: r.type_names(),
                    path: r.path,
                    member: r.member,
                    depth: r.depth,
                    required: r.required,
                    reference: r.refs.into_iter().next(),
                    recursive: r.recursive,
                    keywords: r.json,
                    applies: r.applies,
                    description: r.description,
                })
                .collect()
        }),
        fields: c
            .fields()
            .iter()
            .map(|f| JsonField {
                name: f.path().as_str(),
                types: if f.types().is_any() { vec!["any"] } else { f.types().iter().map(|t| t.name()).collect() },
                required: f.is_required(),
                enum_values: f.enum_values().map(|v| v.iter().map(scalar_json).collect()),
                constant: f.constant().map(scalar_json),
                format: f.format(),
                closed: f.is_closed(),
                constraints: constraints_json(f.constraints()),
                doc: f.doc(),
                line: f.line(),
            })
            .collect(),
    }
}

/// JSON text kept exactly: numbers as written in the contract (`1e-400`
/// stays `1e-400`), strings and literals as serde_json writes them.
fn raw(text: String) -> Box<RawValue> {
    RawValue::from_string(text).unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON"))
}

fn scalar_json(s: &Scalar) -> Box<RawValue> {
    raw(match s {
        Scalar::Null => "null".into(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Number(d) => d.raw().to_string(),
        Scalar::String(s) => serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()),
    })
}

pub(super) fn constraints_json(c: &Constraints) -> BTreeMap<&'static str, Box<RawValue>> {
    c.keywords().into_iter().map(|(k, v)| (k, raw(v))).collect()
}
