//! A fixed loop over one validator call, for `valgrind --tool=callgrind`
//! (instruction counts, repeatable on a noisy machine):
//! `cargo build --release -p protocolarc-bench --example profile &&
//!  valgrind --tool=callgrind target/release/examples/profile {tool_call|task_send|large} {floor|runtime|generated|setup}`
//!
//! `setup` runs no round: subtract its count to get the rounds alone.

use protocolarc::Contract;
use protocolarc_bench::typed::{SamplingCreateMessage, TaskSend, ToolCall};

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "tool_call".into());
    let mode = std::env::args().nth(2).unwrap_or_else(|| "runtime".into());
    let (stem, body, generated): (_, _, fn(&[u8]) -> protocolarc::Report) = match which.as_str() {
        "large" => (
            "mcp_sampling_create_message_1.0.0",
            protocolarc_bench::large_sampling(),
            SamplingCreateMessage::validate_json,
        ),
        "task_send" => ("a2a_task_send_1.0.0", protocolarc_bench::small_task_send(), TaskSend::validate_json),
        _ => ("mcp_tool_call_1.1.0", protocolarc_bench::small_tool_call(), ToolCall::validate_json),
    };
    let spec = protocolarc_bench::contract(stem);
    let rounds = match (mode.as_str(), which.as_str()) {
        ("setup", _) => 0,
        (_, "large") => 200,
        _ => std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(20_000),
    };
    // The generated validator loads its contract on first use: load it here
    // so that `setup` counts it too.
    let mut findings = generated(&body).findings().len();
    for _ in 0..rounds {
        let body = std::hint::black_box(&body);
        findings += match mode.as_str() {
            "floor" => usize::from(serde_json::from_slice::<serde::de::IgnoredAny>(body).is_err()),
            "generated" => generated(body).findings().len(),
            _ => spec.validate_json(body).findings().len(),
        };
    }
    println!("{which} {mode}: {rounds} rounds, {findings} findings");
}
