//! The schema form (SPEC §10) against the official JSON-Schema-Test-Suite,
//! draft 2020-12, format assertion on: every group becomes a contract
//! `{"schema": <the group's schema>}` and every test's `data` must pass
//! exactly when the suite says `valid`.
//!
//! Schemas and data are carried as raw JSON text, never through a
//! `serde_json::Value`, so big and precise numbers reach the validator as
//! the suite writes them.
//!
//! Not applicable, and counted: groups whose schema the loader refuses
//! because it needs a document other than itself (a remote or `$id`-based
//! `$ref`, the meta-schema) or a keyword outside SPEC §10; and `format.json`,
//! whose expectations assume `format` is only an annotation (SPEC §10
//! asserts it; `optional/format/*` holds the assertion cases, all run).

use protocolarc::ContractSpec;
use serde::Deserialize;
use serde_json::value::RawValue;

#[derive(Deserialize)]
struct Group {
    description: String,
    schema: Box<RawValue>,
    tests: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    description: String,
    data: Box<RawValue>,
    valid: bool,
}

fn suite_files() -> Vec<std::path::PathBuf> {
    let dir = protocolarc_tests::data("json-schema-test-suite");
    let mut files = Vec::new();
    for sub in ["", "optional", "optional/format"] {
        let here = dir.join(sub);
        for entry in std::fs::read_dir(&here).expect("suite dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn contract(schema: &RawValue) -> Result<ContractSpec, String> {
    let doc = format!(r#"{{"name": "conformance", "revision": "1.0.0", "schema": {}}}"#, schema.get());
    ContractSpec::from_slice(doc.as_bytes(), "conformance").map_err(|e| e.to_string())
}

#[test]
fn json_schema_test_suite_through_the_schema_form() {
    let root = protocolarc_tests::data("json-schema-test-suite");
    let (mut ran, mut refused_cases) = (0, 0);
    let mut refused: Vec<String> = Vec::new();
    let mut failures = Vec::new();
    for file in suite_files() {
        let name = file.strip_prefix(&root).unwrap().display().to_string();
        if name == "format.json" {
            continue;
        }
        let groups: Vec<Group> = serde_json::from_slice(&std::fs::read(&file).expect("read")).expect("suite JSON");
        for group in &groups {
            let contract = match contract(&group.schema) {
                Ok(c) => c,
                Err(e) => {
                    refused_cases += group.tests.len();
                    refused.push(format!("{name}: {}: {}", group.description, e.replace('\n', " | ")));
                    continue;
                }
            };
            for t in &group.tests {
                ran += 1;
                let report = contract.validate_json(t.data.get().as_bytes());
                if report.is_valid() != t.valid {
                    failures.push(format!(
                        "{name}: {} / {}: data {}: expected valid={}, findings {:?}",
                        group.description,
                        t.description,
                        t.data.get(),
                        t.valid,
                        report.findings().iter().map(|f| f.to_string()).collect::<Vec<_>>()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {ran} cases disagree with the suite:\n{}", failures.len(), failures.join("\n"));
    // Every refusal is one SPEC §10 makes on purpose: a `$ref` that needs
    // another document (remote, or resolved against an `$id`), or
    // `unevaluatedProperties`, which the form does not carry.
    for r in &refused {
        assert!(
            r.contains("is not local") || r.contains("unsupported keyword 'unevaluatedProperties'"),
            "refused for another reason: {r}"
        );
    }
    assert_eq!(
        (ran, refused.len(), refused_cases),
        (1413, 21, 43),
        "cases run / refused changed:\n{}",
        refused.join("\n")
    );
}
