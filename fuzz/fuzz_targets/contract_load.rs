//! Any bytes as a contract file: a contract or positioned diagnostics, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocolarc::ContractSpec;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = ContractSpec::from_slice(data, "fuzz.json") {
        assert!(!e.diagnostics().is_empty());
        assert!(e.diagnostics().iter().all(|d| d.line >= 1 && d.column >= 1));
    }
});
