//! Any bytes as a tool's input `schema`: a contract that loads is described
//! (text and JSON, or refused past the row budget) and exported without a
//! panic, and the export of a schema-form contract loads again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use cargo_protocolarc::render::describe;
use protocolarc::ContractSpec;

fuzz_target!(|data: &[u8]| {
    let mut doc = br#"{"name": "f.tool", "revision": "1.0.0", "schema": "#.to_vec();
    doc.extend_from_slice(data);
    doc.push(b'}');
    let Ok(spec) = ContractSpec::from_slice(&doc, "fuzz.json") else { return };
    if describe::within_budget(&spec).is_ok() {
        describe::text(&spec);
        describe::json(&spec);
    }
    let exported = protocolarc_interop::export::json_schema(&doc, "fuzz.json").expect("a contract that loads exports");
    assert!(exported.text.starts_with("{\n  \"$schema\""));
});
