//! `describe`: a contract's field table, as aligned text or JSON.

use serde::Serialize;

use serde_json::Value;

use crate::contract::{enum_label, Constraints, ContractSpec, Scalar};
use crate::json::number::Decimal;

/// The field table as aligned text.
pub fn text(c: &ContractSpec) -> String {
    let mut out = String::new();
    match c.title() {
        Some(title) => out.push_str(&format!("{}: {title}\n", c.id())),
        None => out.push_str(&format!("{}\n", c.id())),
    }
    let count = c.fields().len();
    let plural = if count == 1 { "" } else { "s" };
    out.push_str(&format!("kind: {}, strict: {}, {count} field{plural}\n", c.kind().unwrap_or("-"), c.is_strict()));
    if let Some(doc) = c.doc() {
        out.push_str(&format!("{doc}\n"));
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
            out.push_str(&format!("      {doc}\n"));
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
    enum_values: Option<Vec<serde_json::Value>>,
    constraints: serde_json::Map<String, serde_json::Value>,
    doc: Option<&'a str>,
    line: usize,
}

/// The field table as pretty JSON (one document, trailing newline).
pub fn json(c: &ContractSpec) -> String {
    let doc = JsonContract {
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
    };
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// A number as JSON, as written; a string where `serde_json` cannot hold it.
fn number_json(d: &Decimal) -> Value {
    serde_json::from_str(d.raw()).unwrap_or_else(|_| Value::String(d.raw().to_string()))
}

fn scalar_json(s: &Scalar) -> Value {
    match s {
        Scalar::Null => Value::Null,
        Scalar::Bool(b) => Value::Bool(*b),
        Scalar::Number(d) => number_json(d),
        Scalar::String(s) => Value::String(s.clone()),
    }
}

fn constraints_json(c: &Constraints) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    let numbers = [
        ("minimum", &c.minimum),
        ("exclusiveMinimum", &c.exclusive_minimum),
        ("maximum", &c.maximum),
        ("exclusiveMaximum", &c.exclusive_maximum),
        ("multipleOf", &c.multiple_of),
    ];
    for (k, v) in numbers {
        if let Some(v) = v {
            m.insert(k.into(), number_json(v));
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
            m.insert(k.into(), Value::from(v));
        }
    }
    if let Some(p) = &c.pattern {
        m.insert("pattern".into(), Value::String(p.source().to_string()));
    }
    if c.unique_items {
        m.insert("uniqueItems".into(), Value::Bool(true));
    }
    m
}
