//! JSON Schema 2020-12 conformance of the constraint keywords (SPEC §2 gives
//! them JSON Schema meaning), on the official JSON-Schema-Test-Suite.
//!
//! Each test group whose schema uses only keywords a contract field can carry
//! becomes a contract with one field `v` (the schema's `type`, else `any`);
//! each test's `data` is validated as `{"v": data}` and must pass exactly when
//! the suite says `valid`. Groups a contract cannot express (an enum with
//! object or array members, `prefixItems`, `properties`) are skipped and
//! counted, so the number of cases run is pinned.

use protocolarc::ContractSpec;
use serde_json::{json, Value};

const FIELD_KEYWORDS: &[&str] = &[
    "type",
    "enum",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
];

/// The contract for a schema: `None` if a contract cannot express it,
/// `Some(Err)` if the loader refuses it on purpose.
fn contract_for(schema: &Value) -> Option<Result<ContractSpec, String>> {
    let obj = schema.as_object()?;
    let mut field = serde_json::Map::new();
    field.insert("name".into(), json!("v"));
    field.insert("type".into(), json!("any"));
    for (k, v) in obj {
        if k == "$schema" {
            continue;
        }
        if !FIELD_KEYWORDS.contains(&k.as_str()) {
            return None;
        }
        if k == "enum" && v.as_array()?.iter().any(|m| m.is_object() || m.is_array()) {
            return None;
        }
        field.insert(k.clone(), v.clone());
    }
    let doc = json!({"name": "conformance", "revision": "1.0.0", "fields": [Value::Object(field)]});
    Some(ContractSpec::from_slice(doc.to_string().as_bytes(), "conformance").map_err(|e| e.to_string()))
}

#[test]
fn json_schema_test_suite() {
    let dir = protocolarc_tests::data("json-schema-test-suite");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("suite dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        // The files of the keywords a field carries (the schema form runs
        // the whole suite: `schema_conformance.rs`).
        .filter(|p| {
            let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            FIELD_KEYWORDS.contains(&stem)
        })
        .collect();
    files.sort();
    let (mut ran, mut skipped) = (0, 0);
    let mut refused = Vec::new();
    let mut failures = Vec::new();
    for file in &files {
        let groups: Value = serde_json::from_slice(&std::fs::read(file).expect("read")).expect("suite JSON");
        for group in groups.as_array().expect("groups") {
            let tests = group["tests"].as_array().expect("tests");
            let contract = match contract_for(&group["schema"]) {
                None => {
                    skipped += tests.len();
                    continue;
                }
                Some(Err(e)) => {
                    skipped += tests.len();
                    refused.push(e);
                    continue;
                }
                Some(Ok(c)) => c,
            };
            for t in tests {
                let data = &t["data"];
                ran += 1;
                let report = contract.validate_json(json!({ "v": data }).to_string().as_bytes());
                if report.is_valid() != t["valid"].as_bool().expect("valid flag") {
                    failures.push(format!(
                        "{}: {} / {}: data {data}: expected valid={}, findings {:?}",
                        file.file_name().unwrap().to_string_lossy(),
                        group["description"],
                        t["description"],
                        t["valid"],
                        report.findings().iter().map(|f| f.to_string()).collect::<Vec<_>>()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {ran} cases disagree with the suite:\n{}", failures.len(), failures.join("\n"));
    // Refused on purpose: an enum nothing can satisfy is a contract mistake.
    assert_eq!(refused, ["conformance:1:20: field 'v': 'enum' must list at least one value"]);
    assert_eq!((files.len(), ran, skipped), (13, 221, 55), "cases run / skipped changed");
}
