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

/// `mcp.call_tool_result` 2025.6.18, imported from the official MCP schema
/// (under `tests/data/contracts/`).
pub const MCP_CALL_TOOL_RESULT: &str = "mcp/call_tool_result_2025.6.18.json";

/// `a2a.message` 0.3.0, imported from the official A2A schema (under
/// `tests/data/contracts/`).
pub const A2A_MESSAGE: &str = "a2a/message_0.3.0.json";

/// A schema-form contract imported from an official schema, by its path under
/// `tests/data/contracts/` ([`MCP_CALL_TOOL_RESULT`], [`A2A_MESSAGE`]).
pub fn real_contract(rel: &str) -> ContractSpec {
    ContractSpec::from_path(root().join("tests/data/contracts").join(rel)).expect("imported contract")
}

/// The JSON Schema 2020-12 a schema-form contract carries (its `schema`
/// member), for the side-by-side with the `jsonschema` crate.
pub fn real_schema(rel: &str) -> serde_json::Value {
    let text = std::fs::read(root().join("tests/data/contracts").join(rel)).expect("imported contract");
    let mut contract: serde_json::Value = serde_json::from_slice(&text).expect("contract is JSON");
    contract["schema"].take()
}

/// A 1x1 PNG, base64.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
/// An empty 16-bit mono WAV file (its 44-byte header), base64.
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";
/// The first bytes of a PDF file, base64.
const PDF: &str = "JVBERi0xLjcKJeLjz9MKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyA+PgplbmRvYmoK";

/// A real MCP `tools/call` result (a `CallToolResult`, the JSON-RPC
/// `result`) of about 3.6 KB with every kind of content block, built from the
/// examples of the MCP 2025-06-18 specification, in their key order (`type`
/// first; `server/tools.mdx`: the weather result, the image, audio, resource
/// link and embedded resource blocks, the structured content;
/// `server/resources.mdx`: a blob resource), with real base64 payloads in
/// place of the placeholders. The seven blocks are repeated three times (21
/// blocks).
pub fn mcp_call_tool_result() -> Vec<u8> {
    let round = [
        r#"{"type": "text", "text": "Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy"}"#.to_string(),
        format!(
            r#"{{"type": "image", "data": "{PNG}", "mimeType": "image/png", "annotations": {{"audience": ["user"], "priority": 0.9}}}}"#
        ),
        format!(r#"{{"type": "audio", "data": "{WAV}", "mimeType": "audio/wav"}}"#),
        r#"{"type": "resource_link", "uri": "file:///project/src/main.rs", "name": "main.rs", "description": "Primary application entry point", "mimeType": "text/x-rust", "annotations": {"audience": ["assistant"], "priority": 0.9}}"#.to_string(),
        r#"{"type": "resource", "resource": {"uri": "file:///project/src/main.rs", "title": "Project Rust Main File", "mimeType": "text/x-rust", "text": "fn main() {\n    println!(\"Hello world!\");\n}", "annotations": {"audience": ["user", "assistant"], "priority": 0.7, "lastModified": "2025-05-03T14:30:00Z"}}}"#.to_string(),
        format!(
            r#"{{"type": "resource", "resource": {{"uri": "file:///project/docs/report.pdf", "mimeType": "application/pdf", "blob": "{PDF}"}}}}"#
        ),
        r#"{"type": "text", "text": "{\"temperature\": 22.5, \"conditions\": \"Partly cloudy\", \"humidity\": 65}"}"#.to_string(),
    ];
    let content = vec![round.join(", "); 3].join(", ");
    let body = format!(
        r#"{{"content": [{content}], "structuredContent": {{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}}, "isError": false}}"#
    );
    serde_json::from_str::<serde::de::IgnoredAny>(&body).expect("the body is JSON");
    body.into_bytes()
}

/// A real A2A v0.3.0 `message/send` message (the request's `params.message`)
/// with 20 parts, built from the examples of the A2A v0.3.0 documentation, in
/// their key order (`kind` first; `docs/specification.md` §9.4, 9.6, 9.7:
/// text parts, one with a metadata schema, a file part with `bytes`, one with
/// a `uri`, the flight itinerary's data part), with the `kind: "message"` the
/// examples lack and a real base64 payload. Five parts repeated four times.
pub fn a2a_message() -> Vec<u8> {
    let round = [
        r#"{"kind": "text", "text": "Analyze this image and highlight any faces."}"#.to_string(),
        format!(r#"{{"kind": "file", "file": {{"name": "input_image.png", "mimeType": "image/png", "bytes": "{PNG}"}}}}"#),
        r#"{"kind": "file", "file": {"name": "output.png", "mimeType": "image/png", "uri": "https://storage.example.com/processed/task-bbb/output.png?token=xyz"}}"#.to_string(),
        r#"{"kind": "data", "data": {"confirmationId": "XYZ123", "from": "JFK", "to": "LHR", "departure": "2024-10-10T18:00:00Z", "arrival": "2024-10-11T06:00:00Z", "returnDeparture": "..."}}"#.to_string(),
        r#"{"kind": "text", "text": "Show me a list of my open IT tickets", "metadata": {"mimeType": "application/json", "schema": {"type": "array", "items": {"type": "object", "properties": {"ticketNumber": {"type": "string"}, "description": {"type": "string"}}}}}}"#.to_string(),
    ];
    let parts = vec![round.join(", "); 4].join(", ");
    let body = format!(
        r#"{{"role": "user", "parts": [{parts}], "messageId": "6dbc13b5-bd57-4c2b-b503-24e381b6c8d6", "contextId": "c295ea44-7543-4f78-b524-7a38915ad6e4", "taskId": "3f36680c-7f37-4a5f-945e-d78981fafd36", "kind": "message"}}"#
    );
    serde_json::from_str::<serde::de::IgnoredAny>(&body).expect("the body is JSON");
    body.into_bytes()
}

/// The MCP 2025-06-18 catalog contract of a `tools/call` request
/// (`protocols/mcp/2025-06-18/`).
pub const MCP_TOOLS_CALL_REQUEST: &str = "protocols/mcp/2025-06-18/mcp_tools_call_request.json";

/// A contract of the bundled protocol catalogs, by its path under the root.
pub fn catalog_contract(rel: &str) -> ContractSpec {
    ContractSpec::from_path(root().join(rel)).expect("catalog contract")
}

/// The `schema` member of a catalog contract.
pub fn catalog_schema(rel: &str) -> serde_json::Value {
    let text = std::fs::read(root().join(rel)).expect("catalog contract");
    let mut contract: serde_json::Value = serde_json::from_slice(&text).expect("contract is JSON");
    contract["schema"].take()
}

/// Invalid bodies with one change each, for the cost of a body with
/// findings: the change sits near the end, so a first-fault pass reads
/// almost all of it before the findings are written.
/// - [`mcp_call_tool_result`] with `"isError": "no"` (a string, not a boolean);
/// - [`a2a_message`] with `"kind": "msg"` (not the constant `message`);
/// - a small `tools/call` request whose `params.name` is a number.
pub fn invalid_mcp_call_tool_result() -> Vec<u8> {
    let body = String::from_utf8(mcp_call_tool_result()).expect("utf-8");
    let out = body.replace(r#""isError": false"#, r#""isError": "no""#);
    assert_ne!(out, body);
    out.into_bytes()
}

/// See [`invalid_mcp_call_tool_result`].
pub fn invalid_a2a_message() -> Vec<u8> {
    let body = String::from_utf8(a2a_message()).expect("utf-8");
    let out = body.replace(r#""kind": "message""#, r#""kind": "msg""#);
    assert_ne!(out, body);
    out.into_bytes()
}

/// See [`invalid_mcp_call_tool_result`].
pub fn invalid_tools_call_request() -> Vec<u8> {
    br#"{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": 42, "arguments": {"location": "New York"}}}"#
        .to_vec()
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

    /// Schema-form contracts imported from the official schemas, each in its
    /// own module (their `$defs` types share names). Their `validate_json`
    /// is the generated check (`fast_path`), then, for a body it fails, the
    /// schema walker's findings.
    pub mod real {
        /// MCP `CallToolResult`.
        pub mod call_tool_result {
            /// `mcp.call_tool_result` 2025.6.18.
            #[protocolarc::contract("../tests/data/contracts/mcp/call_tool_result_2025.6.18.json")]
            pub struct CallToolResult;
        }
        /// MCP 2025-06-18 catalog: the `tools/call` request.
        pub mod tools_call_request {
            /// `mcp.tools/call.request` 2025.6.18.
            #[protocolarc::contract("../protocols/mcp/2025-06-18/mcp_tools_call_request.json")]
            pub struct ToolsCallRequest;
        }
        /// A2A `Message`.
        pub mod message {
            /// `a2a.message` 0.3.0.
            #[protocolarc::contract("../tests/data/contracts/a2a/message_0.3.0.json")]
            pub struct Message;
        }
    }
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

    /// `mcp.call_tool_result` 2025.6.18: the contract's `schema`, extracted
    /// unchanged (the benchmarks check it against [`crate::real_schema`]).
    #[jsonschema::validator(
        path = "schemas/mcp_call_tool_result_2025.6.18.schema.json",
        draft = Draft202012,
        validate_formats = true
    )]
    pub struct CallToolResult;

    /// `a2a.message` 0.3.0: the contract's `schema`, extracted unchanged.
    #[jsonschema::validator(path = "schemas/a2a_message_0.3.0.schema.json", draft = Draft202012, validate_formats = true)]
    pub struct Message;
}
