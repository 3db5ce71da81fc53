//! Inputs shared by the benchmarks: the bundled contracts and envelopes of
//! realistic sizes, built deterministically.

use std::path::{Path, PathBuf};

use protocolarc::ContractSpec;

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("bench/ has a parent").to_path_buf()
}

/// A bundled contract by file stem.
pub fn contract(stem: &str) -> ContractSpec {
    ContractSpec::from_path(root().join(format!("contracts/{stem}.json"))).expect("bundled contract")
}

/// A small MCP `tools/call` body (the seed's first envelope).
pub fn small_tool_call() -> Vec<u8> {
    br#"{"jsonrpc": "2.0", "id": "req-1", "method": "tools/call", "params": {"name": "search_docs", "arguments": {"query": "arc", "limit": 10, "filters": {"lang": ["en", "de"], "since": "2026-01-01"}}}}"#.to_vec()
}

/// A small A2A task send with two parts (the seed fixture's shape).
pub fn small_task_send() -> Vec<u8> {
    br#"{"task_id": "t-001", "role": "user", "parts": [{"type": "text", "text": "summarize the report"}, {"type": "data", "data": {"pages": [1, 2, 3]}}], "session_id": "s-9"}"#.to_vec()
}

/// A `sampling/createMessage` body of about 100 KB: many messages, stop
/// sequences, hints and a nested metadata object.
pub fn large_sampling() -> Vec<u8> {
    let mut messages = Vec::new();
    for i in 0..60 {
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        let text = format!("Message {i}: {}", "lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(28));
        messages.push(serde_json::json!({"role": role, "content": {"type": "text", "text": text}}));
    }
    let hints: Vec<_> = (0..20).map(|i| serde_json::json!({"name": format!("model-family-{i}")})).collect();
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": 12345,
        "method": "sampling/createMessage",
        "params": {
            "messages": messages,
            "maxTokens": 4096,
            "temperature": 0.7,
            "stopSequences": ["\n\nHuman:", "\n\nAssistant:", "</end>"],
            "modelPreferences": {"costPriority": 0.3, "hints": hints},
            "includeContext": "thisServer",
            "systemPrompt": "You are a careful assistant.",
            "metadata": {"trace": {"spans": (0..50).map(|i| serde_json::json!({"id": i, "ok": true})).collect::<Vec<_>>()}}
        }
    });
    serde_json::to_vec(&body).expect("serialise")
}

/// A hand translation of a bundled contract to JSON Schema 2020-12
/// (`bench/schemas/`), for the side-by-side with the `jsonschema` crate.
pub fn json_schema(stem: &str) -> serde_json::Value {
    let path = root().join(format!("bench/schemas/{stem}.schema.json"));
    let text = std::fs::read(&path).expect("bundled schema");
    serde_json::from_slice(&text).expect("schema is JSON")
}

/// The typed forms of the benchmark contracts, generated at compile time.
pub mod typed {
    /// `mcp.tool_call` 1.1.0.
    #[protocolarc::contract("../contracts/mcp_tool_call_1.1.0.json")]
    pub struct ToolCall;

    /// `a2a.task_send` 1.0.0.
    #[protocolarc::contract("../contracts/a2a_task_send_1.0.0.json")]
    pub struct TaskSend;

    /// `mcp.sampling_create_message` 1.0.0.
    #[protocolarc::contract("../contracts/mcp_sampling_create_message_1.0.0.json")]
    pub struct SamplingCreateMessage;
}

/// `jsonschema`'s compile-time validators (`#[jsonschema::validator]`) for the
/// same hand translations (`bench/schemas/`).
pub mod schema {
    /// `mcp.tool_call` 1.1.0.
    #[jsonschema::validator(path = "schemas/mcp_tool_call_1.1.0.schema.json", draft = Draft202012)]
    pub struct ToolCall;

    /// `a2a.task_send` 1.0.0.
    #[jsonschema::validator(path = "schemas/a2a_task_send_1.0.0.schema.json", draft = Draft202012)]
    pub struct TaskSend;

    /// `mcp.sampling_create_message` 1.0.0.
    #[jsonschema::validator(path = "schemas/mcp_sampling_create_message_1.0.0.schema.json", draft = Draft202012)]
    pub struct SamplingCreateMessage;
}
