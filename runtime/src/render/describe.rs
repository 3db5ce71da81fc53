//! `describe`: a contract's field table, as aligned text or JSON.

use serde::Serialize;

use std::collections::BTreeMap;

use serde_json::value::RawValue;

use crate::contract::{enum_label, Constraints, ContractSpec, Scalar};

/// The field table as aligned text.
pub fn text(c: &ContractSpec) -> String {
    let mut out = String::new();
    match c.title() {
        Some(title) => out.push_str(&format!("{}: {}\n", c.id(), super::one_line(title))),
        None => out.push_str(&format!("{}\n", c.id())),
    }
    let count = c.fields().len();
    let plural = if count == 1 { "" } else { "s" };
    out.push_str(&format!(
        "kind: {}, strict: {}, {count} field{plural}\n",
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
            if let Some(values) = f.enum_values() {
                rules.push(format!("enum={}", enum_label(values)));
            }
            rules.extend(f.constraints().describe());
            let required = if f.is_required() { "required" } else { "optional" };
            [f.path().to_string(), f.types().label(), required.to_string(), rules.join(" ")]
        })
        .collect();
    let header = ["FIELD", "TYPE", "REQUIRED", "CONSTRAINTS"].map(String::from);
    let mut width = [0usize; 3];
    for row in std::iter::once(&header).chain(&rows) {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    out.push('\n');
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
    for (row, f) in rows.iter().zip(c.fields()) {
        out.push_str(&line(row));
        if let Some(doc) = f.doc() {
            out.push_str(&format!("      {}\n", super::one_line(doc)));
        }
    }
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
    fields: Vec<JsonField<'a>>,
}

#[derive(Serialize)]
struct JsonField<'a> {
    name: &'a str,
    types: Vec<&'static str>,
    required: bool,
    #[serde(rename = "enum")]
    enum_values: Option<Vec<Box<RawValue>>>,
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
        fields: c
            .fields()
            .iter()
            .map(|f| JsonField {
                name: f.path().as_str(),
                types: if f.types().is_any() { vec!["any"] } else { f.types().iter().map(|t| t.name()).collect() },
                required: f.is_required(),
                enum_values: f.enum_values().map(|v| v.iter().map(scalar_json).collect()),
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

fn constraints_json(c: &Constraints) -> BTreeMap<&'static str, Box<RawValue>> {
    let mut m = BTreeMap::new();
    let numbers = [
        ("minimum", &c.minimum),
        ("exclusiveMinimum", &c.exclusive_minimum),
        ("maximum", &c.maximum),
        ("exclusiveMaximum", &c.exclusive_maximum),
        ("multipleOf", &c.multiple_of),
    ];
    for (k, v) in numbers {
        if let Some(v) = v {
            m.insert(k, raw(v.raw().to_string()));
        }
    }
    let counts = [
        ("minLength", c.min_length),
        ("maxLength", c.max_length),
        ("minItems", c.min_items),
        ("maxItems", c.max_items),
    ];
    for (k, v) in counts {
        if let Some(v) = v {
            m.insert(k, raw(v.to_string()));
        }
    }
    if let Some(p) = &c.pattern {
        m.insert("pattern", raw(serde_json::to_string(p.source()).unwrap_or_default()));
    }
    if c.unique_items {
        m.insert("uniqueItems", raw("true".into()));
    }
    m
}
