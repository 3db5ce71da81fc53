//! Any bytes as a data body, through the validators generated for the
//! bundled contracts and for the every-rule test contract: the same report
//! as the finding engine alone; the runtime's first-fault check passes
//! exactly the bodies it finds nothing in, and the generated one passes
//! only such bodies (it may hand a body it cannot vouch for to the walk).
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocolarc::Contract;

#[protocolarc::contract("../contracts/mcp_tool_call_1.1.0.json")]
struct ToolCall;

#[protocolarc::contract("../contracts/a2a_task_send_1.0.0.json")]
struct TaskSend;

#[protocolarc::contract("../contracts/mcp_sampling_create_message_1.0.0.json")]
struct CreateMessage;

#[protocolarc::contract("../contracts/a2a_message_send_1.0.0.json")]
struct SendMessage;

#[protocolarc::contract("../tests/data/contracts/every_rule_1.0.0.json")]
struct EveryRule;

fn same<T: Contract>(data: &[u8]) {
    let spec = T::spec();
    let full = spec.validate_json_full(data);
    let fast = T::fast_path(data);
    let passes = spec.passes(data);
    assert_eq!(passes, full.findings().is_empty(), "the runtime's check is not exact");
    if fast {
        assert!(passes, "the generated check passed a body with findings");
    }
    assert_eq!(T::validate_json(data), full);
    assert_eq!(spec.validate_json(data), full);
}

fuzz_target!(|data: &[u8]| {
    same::<ToolCall>(data);
    same::<TaskSend>(data);
    same::<CreateMessage>(data);
    same::<SendMessage>(data);
    same::<EveryRule>(data);
});
