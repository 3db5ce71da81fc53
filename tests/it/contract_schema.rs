//! The contract format's JSON Schema (`docs/contract.schema.json`, for editors
//! through `"$schema"`) agrees with the loader: every bundled contract
//! validates against it and loads, with `$schema` accepted; the structural
//! mistakes an editor can catch are refused by both.

use std::path::{Path, PathBuf};

use protocolarc::ContractSpec;
use protocolarc_tests::root;
use serde_json::Value;

fn schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/contract.schema.json")).expect("the schema file");
    let doc: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&doc).expect("the schema compiles")
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

#[test]
fn every_bundled_contract_validates_against_the_format_schema() {
    let validator = schema();
    let mut files = Vec::new();
    for dir in ["contracts", "docs/examples", "tests/data/contracts"] {
        let mut found = Vec::new();
        json_files(&root().join(dir), &mut found);
        // Envelope fixtures live under contracts/fixtures: not contracts.
        files.extend(found.into_iter().filter(|p| !p.components().any(|c| c.as_os_str() == "fixtures")));
    }
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    for path in &files {
        let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        ContractSpec::from_path(path).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn the_loader_accepts_a_schema_reference() {
    let doc = r#"{"$schema": "../docs/contract.schema.json", "name": "t.x", "revision": "1.0.0",
        "fields": [{"name": "a", "type": "string"}]}"#;
    let value: Value = serde_json::from_str(doc).unwrap();
    assert!(schema().is_valid(&value));
    let c = ContractSpec::from_slice(doc.as_bytes(), "t.json").unwrap();
    assert_eq!(c.name(), "t.x");
    // `$schema` must be a string, as any annotation of the format.
    let bad = r#"{"$schema": 1, "name": "t.x", "revision": "1.0.0", "fields": []}"#;
    assert!(!schema().is_valid(&serde_json::from_str(bad).unwrap()));
    assert_eq!(
        ContractSpec::from_slice(bad.as_bytes(), "t.json").unwrap_err().to_string(),
        "t.json:1:13: '$schema' must be a string, found integer"
    );
}

#[test]
fn mistakes_an_editor_can_see_are_refused_by_both() {
    let validator = schema();
    let cases = [
        r#"{"name": "t", "revision": "1.0.0"}"#,
        r#"{"name": "t", "revison": "1.0.0", "fields": []}"#,
        r#"{"name": "t", "revision": "1.0", "fields": []}"#,
        r#"{"name": "t x", "revision": "1.0.0", "fields": []}"#,
        r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "a", "type": "strng"}]}"#,
        r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "a", "type": []}]}"#,
        r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "a", "type": "string", "requird": false}]}"#,
        r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "a", "type": "string", "enum": []}]}"#,
        r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "a", "type": "string", "minLength": -1}]}"#,
        r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "a", "type": "number", "multipleOf": 0}]}"#,
        r#"{"name": "t", "revision": "1.0.0", "fields": [{"type": "string"}]}"#,
        r#"{"name": "t", "revision": "1.0.0", "strict": "yes", "fields": []}"#,
    ];
    for doc in cases {
        let value: Value = serde_json::from_str(doc).unwrap();
        assert!(!validator.is_valid(&value), "the schema accepts {doc}");
        assert!(ContractSpec::from_slice(doc.as_bytes(), "t.json").is_err(), "the loader accepts {doc}");
    }
}
