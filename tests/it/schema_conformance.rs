//! The schema form (SPEC §10) against the official JSON-Schema-Test-Suite,
//! draft 2020-12, format assertion on: every group becomes a contract
//! `{"schema": <the group's schema>}` and every test's `data` must pass
//! exactly when the suite says `valid`.
//!
//! Schemas and data are carried as raw JSON text, never through a
//! `serde_json::Value`, so big and precise numbers reach the validator as
//! the suite writes them.
//!
//! References by URI resolve within the document (embedded `$id`
//! resources, relative URIs, URNs); a group whose schema references another
//! document (`http://localhost:1234/...`, the suite's `remotes/` folder as
//! its runner serves it, or the JSON Schema 2020-12 meta-schema, from
//! `tests/data/json-schema-metaschema-2020-12/`) is bundled with those
//! documents first, as `import schema --resolve` bundles local files.
//!
//! Not applicable: `format.json`, whose expectations assume `format` is
//! only an annotation (SPEC §10 asserts it; `optional/format/*` holds the
//! assertion cases, all run); and the one case of `vocabulary.json` that
//! expects a custom meta-schema's vocabularies to switch keywords off (a
//! contract's `$schema` names the dialect only).
//!
//! Every case the schema form runs is also judged by the first-fault walk
//! alone (`ContractSpec::passes`, what generated code hands over to), which
//! must agree with the report.

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

fn contract(schema: &str) -> Result<ContractSpec, String> {
    let doc = format!(r#"{{"name": "conformance", "revision": "1.0.0", "schema": {schema}}}"#);
    ContractSpec::from_slice(doc.as_bytes(), "conformance").map_err(|e| e.to_string())
}

/// Where the suite's runner serves `remotes/`.
const REMOTES: &str = "http://localhost:1234/";

/// Where the JSON Schema 2020-12 meta-schemas live
/// (`tests/data/json-schema-metaschema-2020-12/`).
const META: &str = "https://json-schema.org/draft/2020-12/";

/// The schema with the documents it references under [`REMOTES`] bundled
/// into it, read from the suite's `remotes/` folder.
fn bundled(schema: &RawValue) -> Result<String, String> {
    let remotes = protocolarc_tests::data("json-schema-test-suite/remotes");
    let doc: serde_json::Value = serde_json::from_str(schema.get()).map_err(|e| e.to_string())?;
    let meta = protocolarc_tests::data("json-schema-metaschema-2020-12");
    let mut fetch = |uri: &str| -> Result<(serde_json::Value, String), String> {
        let file = match (uri.strip_prefix(REMOTES), uri.strip_prefix(META)) {
            (Some(rest), _) => remotes.join(rest),
            (_, Some(rest)) => meta.join(format!("{rest}.json")),
            _ => return Err(format!("{uri} is not under {REMOTES} or {META}")),
        };
        let rest = file.display().to_string();
        let bytes = std::fs::read(&file).map_err(|e| format!("{rest}: {e}"))?;
        let value = serde_json::from_slice(&bytes).map_err(|e| format!("remotes/{rest}: {e}"))?;
        Ok((value, uri.to_string()))
    };
    let base = protocolarc_interop::import::DEFAULT_BASE;
    let out = protocolarc_interop::import::bundle(&doc, base, base, &mut fetch).map_err(|e| e.to_string())?;
    Ok(out.to_string())
}

#[test]
fn json_schema_test_suite_through_the_schema_form() {
    let root = protocolarc_tests::data("json-schema-test-suite");
    let (mut ran, mut refused_cases) = (0, 0);
    let mut refused: Vec<String> = Vec::new();
    // The groups run with the remote documents bundled in.
    let mut bundled_groups: Vec<String> = Vec::new();
    let mut failures = Vec::new();
    for file in suite_files() {
        let name = file.strip_prefix(&root).unwrap().display().to_string();
        if name == "format.json" {
            continue;
        }
        let groups: Vec<Group> = serde_json::from_slice(&std::fs::read(&file).expect("read")).expect("suite JSON");
        for group in &groups {
            let compiled = match contract(group.schema.get()) {
                Err(e) if e.contains("is not local") || e.contains("is the JSON Schema meta-schema") => {
                    bundled_groups.push(format!("{name}: {}", group.description));
                    bundled(&group.schema).and_then(|s| contract(&s))
                }
                other => other,
            };
            let contract = match compiled {
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
                if contract.passes(t.data.get().as_bytes()) != report.is_valid() {
                    failures.push(format!(
                        "{name}: {} / {}: passes() differs from the report",
                        group.description, t.description
                    ));
                }
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
    // The one case that reads a custom meta-schema's vocabularies: a
    // contract's `$schema` names the dialect only (SPEC §10), so `minimum`
    // keeps its meaning under a meta-schema that leaves out the validation
    // vocabulary.
    let vocabulary = "vocabulary.json: schema that uses custom metaschema with with no validation vocabulary / \
                      no validation: invalid number, but it still validates: data ";
    let (known, failures): (Vec<String>, Vec<String>) = failures.into_iter().partition(|f| f.starts_with(vocabulary));
    assert_eq!(known.len(), 1, "{known:?}");
    assert!(
        known[0].ends_with(
            "expected valid=true, findings [\"ERROR field.minimum numberProperty: value 1 is less than minimum 10\"]"
        ),
        "{known:?}"
    );
    assert!(failures.is_empty(), "{} of {ran} cases disagree with the suite:\n{}", failures.len(), failures.join("\n"));
    // Every group loads: none is refused.
    assert_eq!(refused, Vec::<String>::new());
    // Every group of refRemote.json needed the remotes, and these of
    // dynamicRef.json; the two of defs.json and ref.json, the meta-schema.
    let dynamic: Vec<&String> = bundled_groups.iter().filter(|g| !g.starts_with("refRemote.json: ")).collect();
    assert_eq!(
        dynamic,
        [
            "defs.json: validate definition against metaschema",
            "dynamicRef.json: strict-tree schema, guards against misspelled properties",
            "dynamicRef.json: tests for implementation dynamic anchor and reference link",
            "dynamicRef.json: $ref and $dynamicAnchor are independent of order - $defs first",
            "dynamicRef.json: $ref and $dynamicAnchor are independent of order - $ref first",
            "dynamicRef.json: $ref to $dynamicRef finds detached $dynamicAnchor",
            "ref.json: remote ref, containing refs itself",
        ]
    );
    assert_eq!(bundled_groups.len(), 22, "{bundled_groups:?}");
    assert_eq!(
        (ran, refused.len(), refused_cases),
        (1754, 0, 0),
        "cases run / refused changed:\n{}",
        refused.join("\n")
    );
}
