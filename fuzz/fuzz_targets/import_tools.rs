//! Any bytes as an MCP tools/list result: imported in memory as `import
//! tools-list` would, never a panic; every contract it writes is rendered
//! with its numbers as written.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocolarc_interop::import;
use protocolarc::{ContractSpec};

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = import::parse_document(data) else { return };
    let Ok((contracts, _notes)) = import::tools_list_contracts(&doc, "s", "1.0.0") else { return };
    for (_, c) in contracts {
        let text = import::render(&c);
        assert!(!text.contains("protocolarc-number:"), "{text}");
        let _ = ContractSpec::from_slice(text.as_bytes(), "imported.json");
    }
});
