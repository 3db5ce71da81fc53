//! Any bytes as a data body, against every bundled contract: a report, never a
//! panic, and `json.syntax` / `json.depth` findings stand alone.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use protocolarc::ContractSpec;

fn contracts() -> &'static [ContractSpec] {
    static ALL: OnceLock<Vec<ContractSpec>> = OnceLock::new();
    ALL.get_or_init(|| {
        let sources: [&[u8]; 4] = [
            include_bytes!("../../contracts/mcp_tool_call_1.1.0.json"),
            include_bytes!("../../contracts/a2a_task_send_1.0.0.json"),
            include_bytes!("../../contracts/mcp_sampling_create_message_1.0.0.json"),
            include_bytes!("../../contracts/a2a_message_send_1.0.0.json"),
        ];
        sources.iter().map(|b| ContractSpec::from_slice(b, "bundled").expect("bundled contract")).collect()
    })
}

fuzz_target!(|data: &[u8]| {
    for c in contracts() {
        let report = c.validate_json(data);
        let stop = report.findings().iter().any(|f| matches!(f.rule(), "json.syntax" | "json.depth"));
        if stop {
            assert_eq!(report.findings().len(), 1);
        }
    }
});
