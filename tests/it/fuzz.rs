//! Property tests over untrusted bytes: the validator, the contract loader and
//! the envelope reader never panic, and the validator's syntax verdict agrees
//! with serde_json's on documents of every shape, well-formed or mutated.
//! (`fuzz/` holds coverage-guided cargo-fuzz targets for the same entry points.)

use std::io::Cursor;

use proptest::prelude::*;
use protocolarc::envelope::read_jsonl;
use protocolarc::{ContractSpec, InputError};
use protocolarc_tests::root;

use crate::strategies;

fn contracts() -> &'static [ContractSpec] {
    static ALL: std::sync::OnceLock<Vec<ContractSpec>> = std::sync::OnceLock::new();
    ALL.get_or_init(load_contracts)
}

fn load_contracts() -> Vec<ContractSpec> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root().join("contracts")).expect("contracts dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            out.push(ContractSpec::from_path(&path).expect("bundled contract"));
        }
    }
    out.sort_by_key(|c| c.id());
    out
}

/// A JSON value of bounded depth, with the awkward corners weighted in.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(serde_json::Value::from),
        "[a-z\u{e9}\u{1F600}\"\\\\/\n\t ]{0,12}".prop_map(serde_json::Value::String),
        prop::sample::select(vec!["2.0", "tools/call", "user", "agent", "text", "req-1"])
            .prop_map(|s| serde_json::Value::String(s.to_string())),
    ];
    strategies::json_tree(leaf.boxed(), strategies::CONTRACT_KEYS, 6, 64, 6)
}

/// An edit to a document's bytes.
#[derive(Debug, Clone)]
enum Edit {
    Insert(usize, u8),
    Delete(usize),
    Replace(usize, u8),
    Truncate(usize),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let byte =
        prop_oneof![prop::sample::select(b"{}[],:\"\\u0123456789.eE+-tfn \n\xff\xc3\x80\x00".to_vec()), any::<u8>(),];
    let edit = prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Replace(i, b)),
        any::<usize>().prop_map(Edit::Truncate),
    ];
    prop::collection::vec(edit, 0..4)
}

fn apply(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        let n = bytes.len();
        match *e {
            Edit::Insert(i, b) => bytes.insert(i % (n + 1), b),
            Edit::Delete(i) if n > 0 => {
                bytes.remove(i % n);
            }
            Edit::Replace(i, b) if n > 0 => bytes[i % n] = b,
            Edit::Truncate(i) => bytes.truncate(i % (n + 1)),
            _ => {}
        }
    }
    bytes
}

proptest! {
    #![proptest_config(crate::strategies::config(3000))]

    #[test]
    fn syntax_verdict_agrees_with_serde_json(value in json_value(), edits in edits()) {
        let bytes = apply(serde_json::to_vec(&value).expect("serialise"), &edits);
        // serde_json stops at numbers beyond f64 (`1e400`), which RFC 8259's
        // grammar allows and exact decimals handle: no verdict to compare.
        let parsed = serde_json::from_slice::<serde_json::Value>(&bytes);
        prop_assume!(!matches!(&parsed, Err(e) if e.to_string().starts_with("number out of range")));
        let serde_ok = parsed.is_ok();
        for c in contracts().iter().take(2) {
            let report = c.validate_json(&bytes);
            let ours_ok = !report.findings().iter().any(|f| f.rule() == "json.syntax");
            prop_assert_eq!(ours_ok, serde_ok, "{:?}", String::from_utf8_lossy(&bytes));
            if !ours_ok {
                prop_assert_eq!(report.findings().len(), 1);
            }
        }
    }

    #[test]
    fn every_bundled_contract_survives_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        for c in contracts() {
            let report = c.validate_json(&bytes);
            prop_assert_eq!(report.is_valid(), report.findings().iter().all(|f| f.severity() != protocolarc::Severity::Error));
        }
    }

    #[test]
    fn contract_loader_survives_mutated_contracts(which in 0usize..6, edits in edits()) {
        let mut paths: Vec<_> = std::fs::read_dir(root().join("contracts")).expect("dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        paths.sort();
        let original = std::fs::read(&paths[which % paths.len()]).expect("read");
        let bytes = apply(original, &edits);
        match ContractSpec::from_slice(&bytes, "fuzz.json") {
            Ok(c) => {
                prop_assert!(!c.fields().is_empty());
                // Its findings come from its schema twin, compiled here.
                prop_assert!(!c.validate_json_full(b"[]").is_valid());
            }
            Err(e) => {
                prop_assert!(!e.diagnostics().is_empty());
                for d in e.diagnostics() {
                    prop_assert!(d.line >= 1 && d.column >= 1, "{}", e);
                }
            }
        }
    }

    #[test]
    fn envelope_reader_survives_any_lines(value in json_value(), edits in edits()) {
        let envelope = serde_json::json!({"contract": "mcp.tool_call", "data": value});
        let mut bytes = apply(serde_json::to_vec(&envelope).expect("serialise"), &edits);
        bytes.push(b'\n');
        let result = read_jsonl(Cursor::new(bytes.clone()), "f.jsonl", "f.jsonl", |_| Ok::<(), InputError>(()));
        if let Err(e) = result {
            let lines = bytes.iter().filter(|&&b| b == b'\n').count();
            prop_assert!(e.line() >= 1 && e.line() <= lines, "{}", e);
            prop_assert!(e.column() >= 1);
        }
    }
}
