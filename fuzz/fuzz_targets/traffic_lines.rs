//! Any bytes as a raw JSON-RPC capture, line by line, routed to the bundled
//! MCP 2025-06-18 catalog: `traffic` never panics, every message it judges
//! has a source label, a judged message's contracts are the catalog's, and
//! the quick way of routing agrees with the exact reader.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use protocolarc::traffic::{initialize_version, Traffic};
use protocolarc::Catalog;

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../protocols/mcp/2025-06-18");
        Catalog::load(&[dir]).expect("the bundled catalog loads")
    })
}

fuzz_target!(|data: &[u8]| {
    let catalog = catalog();
    let mut traffic = Traffic::new("mcp", "mcp@2025-06-18", catalog, None);
    for (i, line) in data.split(|&b| b == b'\n').enumerate() {
        let _ = initialize_version(line);
        assert!(traffic.__quick_agrees(line), "{}", String::from_utf8_lossy(line));
        let label = format!("f:{}", i + 1);
        for judged in traffic.line(&label, line) {
            assert!(judged.source.to_string().starts_with(&label));
            for c in judged.contracts.iter() {
                assert!(c.name().starts_with("mcp."), "{}", c.name());
            }
        }
    }
});
