//! A small MCP-style stdio service: one JSON-RPC `tools/call` message per line
//! on stdin, one response per line on stdout. Invalid messages are rejected
//! with the contract's findings (JSON-RPC error -32602, or -32700 for a line
//! that is not JSON); valid ones are handled through the typed struct the
//! contract generates.
//!
//! `printf '%s\n' '{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}' | cargo run -q -p protocolarc-tests --example stdio_service`

use std::io::{BufRead, Write};

use protocolarc::Contract;
use serde_json::json;

/// `tools/call` as this service accepts it (the bundled 2.0.0 revision).
#[protocolarc::contract("../contracts/mcp_tool_call_2.0.0.json")]
pub struct ToolCall;

fn handle(line: &str) -> serde_json::Value {
    match ToolCall::from_json(line.as_bytes()) {
        Ok(call) => {
            let text = match (call.params.name.as_str(), call.params.arguments.get("text")) {
                ("echo", Some(serde_json::Value::String(t))) => t.clone(),
                (name, _) => format!("no such tool: {name}"),
            };
            json!({"jsonrpc": "2.0", "id": call.id, "result": {"content": [{"type": "text", "text": text}]}})
        }
        Err(report) => {
            // The id, if the message has a usable one, else null (JSON-RPC 2.0 §5).
            let id = serde_json::from_str::<serde_json::Value>(line).ok().and_then(|v| v.get("id").cloned());
            let findings: Vec<String> = report.findings().iter().map(|f| f.to_string()).collect();
            let (code, message) = if report.findings().iter().any(|f| f.rule() == "json.syntax") {
                (-32700, "parse error")
            } else {
                (-32602, "invalid params")
            };
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message, "data": {"findings": findings}}})
        }
    }
}

/// Serves every line of `input`, answering on `out`, until either ends.
pub fn serve(input: impl BufRead, mut out: impl Write) {
    for line in input.lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        if writeln!(out, "{}", handle(&line)).is_err() {
            break;
        }
    }
}

#[allow(dead_code)]
fn main() {
    serve(std::io::stdin().lock(), std::io::stdout().lock());
}
