//! Any bytes as a schema-form contract and a body: the first line is the
//! `schema`, the rest the data. A contract that loads judges any body
//! without a panic, and its quick answer agrees with its findings.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocolarc::ContractSpec;

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    let (schema, body) = (&data[..split], data.get(split + 1..).unwrap_or_default());
    let mut doc = br#"{"name": "f", "revision": "1.0.0", "schema": "#.to_vec();
    doc.extend_from_slice(schema);
    doc.push(b'}');
    let Ok(contract) = ContractSpec::from_slice(&doc, "fuzz.json") else { return };
    let report = contract.validate_json(body);
    assert_eq!(report, contract.validate_json_full(body));
    assert_eq!(contract.passes(body), report.findings().is_empty());
});
