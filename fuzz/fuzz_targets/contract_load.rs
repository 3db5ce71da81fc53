//! Any bytes as a contract file: a contract or positioned diagnostics, never
//! a panic; a loaded contract's findings written (a fields-form contract's
//! schema twin compiled: `ContractSpec::walked`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocolarc::ContractSpec;

fuzz_target!(|data: &[u8]| {
    match ContractSpec::from_slice(data, "fuzz.json") {
        Ok(c) => {
            c.validate_json_full(b"[]");
        }
        Err(e) => {
            assert!(!e.diagnostics().is_empty());
            assert!(e.diagnostics().iter().all(|d| d.line >= 1 && d.column >= 1));
        }
    }
});
