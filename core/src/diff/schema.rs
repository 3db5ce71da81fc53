//! Schema-form revisions: where two schemas differ, each place reported as
//! `schema.undecided` (breaking) until the engine compares JSON Schema
//! keywords. Documentation keywords are not part of the shape.

use serde_json::Value;

use super::detect::Detected;
use super::rules;
use super::CONTRACT_FIELD;
use crate::contract::ContractSpec;

/// Keywords that document a schema without changing what it accepts.
const DOCUMENTATION: &[&str] = &["title", "description", "examples", "$comment", "deprecated"];

/// At most this many places are named; the rest are counted.
const MAX_PLACES: usize = 8;

pub(super) fn changes(old: &ContractSpec, new: &ContractSpec) -> Vec<Detected> {
    let (a, b) = match (old.schema(), new.schema()) {
        (Some(a), Some(b)) => (a, b),
        _ => {
            let form = |c: &ContractSpec| if c.schema().is_some() { "schema" } else { "fields" };
            return vec![Detected {
                rule: rules::SCHEMA_UNDECIDED,
                field: CONTRACT_FIELD.to_string(),
                message: format!(
                    "the contract moved from the {} form to the {} form, which cannot be compared yet",
                    form(old),
                    form(new)
                ),
            }];
        }
    };
    if a.canonical_json() == b.canonical_json() {
        return Vec::new();
    }
    let parse = |text: &str| serde_json::from_str::<Value>(text).ok();
    let mut places = Vec::new();
    match (parse(a.canonical_json()), parse(b.canonical_json())) {
        (Some(a), Some(b)) => differences(&a, &b, &mut String::new(), &mut places),
        // A number beyond what serde_json reads: differing, somewhere.
        _ => places.push("/".to_string()),
    }
    if places.is_empty() {
        return Vec::new();
    }
    let shown: Vec<&str> = places.iter().take(MAX_PLACES).map(String::as_str).collect();
    let more = places.len().saturating_sub(MAX_PLACES);
    let tail = if more > 0 { format!(" and {more} more") } else { String::new() };
    vec![Detected {
        rule: rules::SCHEMA_UNDECIDED,
        field: CONTRACT_FIELD.to_string(),
        message: format!(
            "the schema differs at {}{tail}; schema-form changes are not classified yet (no witness searched)",
            shown.join(", ")
        ),
    }]
}

/// What a JSON value in a schema document is.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// A schema: its keys are keywords (documentation ones not compared).
    Schema,
    /// A map from names to schemas (`properties`, `$defs`, ...).
    Names,
    /// A list of schemas (`allOf`, `prefixItems`, ...).
    Schemas,
    /// Data (`const`, `enum`, `required`, ...): compared whole.
    Data,
}

/// The role of the value under `key` in a schema.
fn role_of(key: &str) -> Role {
    match key {
        "properties" | "$defs" | "patternProperties" | "dependentSchemas" => Role::Names,
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => Role::Schemas,
        "items" | "contains" | "not" | "if" | "then" | "else" | "additionalProperties" | "propertyNames" => {
            Role::Schema
        }
        _ => Role::Data,
    }
}

/// JSON Pointers (`/properties/a/type`; `/` for the root) where `a` and `b`
/// differ, documentation keywords of schemas aside, in key order.
fn differences(a: &Value, b: &Value, at: &mut String, out: &mut Vec<String>) {
    walk(a, b, Role::Schema, at, out);
}

fn walk(a: &Value, b: &Value, role: Role, at: &mut String, out: &mut Vec<String>) {
    let here = |at: &String| if at.is_empty() { "/".to_string() } else { at.clone() };
    match (a, b, role) {
        (Value::Object(x), Value::Object(y), Role::Schema | Role::Names) => {
            let skip = |k: &&String| role == Role::Schema && DOCUMENTATION.contains(&k.as_str());
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).filter(|k| !skip(k)).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let len = at.len();
                at.push('/');
                at.push_str(&k.replace('~', "~0").replace('/', "~1"));
                let child = if role == Role::Names { Role::Schema } else { role_of(k) };
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => walk(p, q, child, at, out),
                    _ => out.push(at.clone()),
                }
                at.truncate(len);
            }
        }
        (Value::Array(x), Value::Array(y), Role::Schemas) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                let len = at.len();
                at.push('/');
                at.push_str(&i.to_string());
                walk(p, q, Role::Schema, at, out);
                at.truncate(len);
            }
        }
        (p, q, _) if p == q => {}
        _ => out.push(here(at)),
    }
}
