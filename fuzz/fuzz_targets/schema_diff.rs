//! Any bytes as two schema-form revisions: the first line is the old
//! `schema`, the second the new one. Two contracts that load diff without a
//! panic in every direction, and every witness printed proves its change:
//! the accepting revision has no finding, the other one has one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocolarc::diff::diff_in;
use protocolarc::{ContractDirection, ContractSpec};

fn contract(revision: &str, schema: &[u8]) -> Option<ContractSpec> {
    let mut doc = format!(r#"{{"name": "f", "revision": "{revision}", "schema": "#).into_bytes();
    doc.extend_from_slice(schema);
    doc.push(b'}');
    ContractSpec::from_slice(&doc, "fuzz.json").ok()
}

fuzz_target!(|data: &[u8]| {
    let mut lines = data.splitn(3, |&b| b == b'\n');
    let (Some(a), Some(b)) = (lines.next(), lines.next()) else { return };
    let (Some(old), Some(new)) = (contract("1.0.0", a), contract("2.0.0", b)) else { return };
    for direction in ContractDirection::ALL {
        let Ok(d) = diff_in(&old, &new, direction) else { return };
        for c in d.changes() {
            let Some(w) = c.witness() else { continue };
            let (yes, no) = match c.witness_direction() {
                Some(ContractDirection::Response) => (&new, &old),
                _ => (&old, &new),
            };
            assert!(yes.validate_json(w.as_bytes()).findings().is_empty(), "{} {w}", c.rule());
            assert!(!no.validate_json(w.as_bytes()).findings().is_empty(), "{} {w}", c.rule());
        }
    }
});
