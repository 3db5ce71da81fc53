//! A fixed loop over one validator call, for `valgrind --tool=callgrind`
//! (instruction counts, repeatable on a noisy machine):
//! `cargo build --release -p protocolarc-bench --example profile &&
//!  valgrind --tool=callgrind target/release/examples/profile {tool_call|task_send|large|call_tool_result|a2a_message}[_bad] {floor|runtime|generated|first|full|setup}`
//!
//! `call_tool_result` and `a2a_message` are checked against the imported
//! schema-form contracts, whose `generated` is their generated check; with
//! `_bad`, a one-change invalid mutant of the body (the full report).
//!
//! `tool_call_bad`, `task_send_bad` and `large_bad` are the fields-form
//! bodies with one change each (`params.name` a number; `role` outside its
//! enum; `jsonrpc` "1.0"): the quick check fails, and the schema walker
//! writes the findings over the contract's schema twin.
//!
//! `first` is `ContractSpec::passes` (the schema walk's first-fault walk,
//! over a fields form's lowered graph for the fields-form bodies),
//! `full` the finding walk alone (`validate_json_full`): on a schema-form
//! body with findings, `runtime` costs `full` in a stream of such bodies,
//! `first` plus `full` for one among valid bodies (`walk::schema::Recent`).
//!
//! `setup` runs no round: subtract its count to get the rounds alone.

use protocolarc::Contract;
use protocolarc_bench::typed::real::call_tool_result::CallToolResult;
use protocolarc_bench::typed::real::message::Message;
use protocolarc_bench::typed::{SamplingCreateMessage, TaskSend, ToolCall};
use protocolarc_bench::{real_contract, A2A_MESSAGE, MCP_CALL_TOOL_RESULT};

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "tool_call".into());
    let mode = std::env::args().nth(2).unwrap_or_else(|| "runtime".into());
    let bundled = |stem: &str| protocolarc_bench::contract(stem);
    let (spec, body, generated): (_, _, fn(&[u8]) -> protocolarc::Report) = match which.as_str() {
        "large" => (
            bundled("mcp_sampling_create_message_1.0.0"),
            protocolarc_bench::large_sampling(),
            SamplingCreateMessage::validate_json,
        ),
        "task_send" => (bundled("a2a_task_send_1.0.0"), protocolarc_bench::small_task_send(), TaskSend::validate_json),
        "call_tool_result" => (
            real_contract(MCP_CALL_TOOL_RESULT),
            protocolarc_bench::mcp_call_tool_result(),
            CallToolResult::validate_json,
        ),
        "a2a_message" => (real_contract(A2A_MESSAGE), protocolarc_bench::a2a_message(), Message::validate_json),
        "call_tool_result_bad" => (
            real_contract(MCP_CALL_TOOL_RESULT),
            protocolarc_bench::invalid_mcp_call_tool_result(),
            CallToolResult::validate_json,
        ),
        "a2a_message_bad" => {
            (real_contract(A2A_MESSAGE), protocolarc_bench::invalid_a2a_message(), Message::validate_json)
        }
        "tool_call_bad" => (
            bundled("mcp_tool_call_1.1.0"),
            changed(protocolarc_bench::small_tool_call(), r#""name": "search_docs""#, r#""name": 7"#),
            ToolCall::validate_json,
        ),
        "task_send_bad" => (
            bundled("a2a_task_send_1.0.0"),
            changed(protocolarc_bench::small_task_send(), r#""role": "user""#, r#""role": "bot""#),
            TaskSend::validate_json,
        ),
        "large_bad" => (
            bundled("mcp_sampling_create_message_1.0.0"),
            changed(protocolarc_bench::large_sampling(), r#""jsonrpc":"2.0""#, r#""jsonrpc":"1.0""#),
            SamplingCreateMessage::validate_json,
        ),
        _ => (bundled("mcp_tool_call_1.1.0"), protocolarc_bench::small_tool_call(), ToolCall::validate_json),
    };
    let rounds = match (mode.as_str(), which.as_str()) {
        ("setup", _) => 0,
        (_, "large" | "large_bad") => 200,
        _ => std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(20_000),
    };
    // The generated validator loads its contract on first use, and a
    // fields-form contract compiles its schema twin at its first finding:
    // both here, so that `setup` counts them too.
    let mut findings = generated(&body).findings().len() + spec.validate_json(&body).findings().len();
    for _ in 0..rounds {
        let body = std::hint::black_box(&body);
        findings += match mode.as_str() {
            "floor" => usize::from(serde_json::from_slice::<serde::de::IgnoredAny>(body).is_err()),
            "generated" => generated(body).findings().len(),
            "first" => usize::from(!spec.passes(body)),
            "full" => spec.validate_json_full(body).findings().len(),
            _ => spec.validate_json(body).findings().len(),
        };
    }
    println!("{which} {mode}: {rounds} rounds, {findings} findings");
}

/// `body` with its one occurrence of `from` replaced by `to`.
fn changed(body: Vec<u8>, from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8(body).expect("utf-8");
    assert_eq!(text.matches(from).count(), 1, "{from}");
    text.replacen(from, to, 1).into_bytes()
}
