//! `cargo protocolarc proxy` over stdio (SPEC §14), against a replaying
//! server (`support/replay_server.rs`): observe mode is byte-transparent,
//! `traffic` on the record gives the live verdicts, `--enforce` refuses,
//! replaces and drops as specified, pinned tools catch a changed or unpinned
//! tool, the proxy exits with the server's status.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use protocolarc_tests::{bin, root, scratch};
use serde_json::Value;

const REPLAY: &str = env!("CARGO_BIN_EXE_protocolarc-replay-server");

/// The replayed server's results: an MCP 2025-06-18 server whose
/// tools/call result is invalid (`content` is no array) and that says a
/// line that is not JSON after initializing.
const RESULTS: &str = r#"{
  "initialize": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "replay", "version": "1.0.0"}},
  "tools/list": {"tools": [
    {"name": "add", "description": "Add two integers.", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}},
    {"name": "wipe", "description": "Delete everything.", "inputSchema": {"type": "object"}}
  ]},
  "tools/call": {"content": "five"},
  "then": {"initialize": ["hello from the server"]}
}"#;

/// The client's side of the session: valid, then invalid messages.
const CLIENT: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    "\r\n",
    r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":5}}"#,
    "\n",
    "not json\n",
    r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":"half"}}"#,
    "\n",
);

struct Run {
    code: i32,
    /// What the client received.
    client: String,
    /// What the server received.
    server: String,
    stderr: String,
}

fn results(dir: &Path, json: &str) -> PathBuf {
    let path = dir.join("results.json");
    std::fs::write(&path, json).expect("results written");
    path
}

/// Runs `command` with `input` on its stdin, in the repository root.
fn run(mut command: Command, input: &str, log: &Path) -> Run {
    let mut child = command
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("input written");
    let out = child.wait_with_output().expect("runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        client: String::from_utf8_lossy(&out.stdout).into_owned(),
        server: std::fs::read_to_string(log).unwrap_or_default(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The replaying server alone.
fn direct(dir: &Path, results: &Path, input: &str) -> Run {
    let log = dir.join("direct.log");
    let mut c = Command::new(REPLAY);
    c.arg(results).arg("--log").arg(&log);
    run(c, input, &log)
}

/// The replaying server behind the proxy, with `flags`.
fn proxied(dir: &Path, results: &Path, flags: &[&str], server: &[&str], input: &str) -> Run {
    let log = dir.join("proxied.log");
    let _ = std::fs::remove_file(&log);
    let mut c = Command::new(bin!());
    c.args(["protocolarc", "proxy", "--catalog", "protocols"]).args(flags).arg("--").arg(REPLAY).arg(results);
    c.arg("--log").arg(&log).args(server);
    run(c, input, &log)
}

fn lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("written");
    text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

/// `(status, contract, findings as "rule field")` of each report line about a message.
fn verdicts(report: &[Value]) -> Vec<(String, String, Vec<String>)> {
    report
        .iter()
        .filter(|l| l.get("event").is_none() && l["contract"] != "pinned tools")
        .map(|l| (l["status"].as_str().unwrap().to_string(), l["contract"].as_str().unwrap_or("").to_string(), found(&l["findings"])))
        .collect()
}

fn found(findings: &Value) -> Vec<String> {
    findings
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| format!("{} {}", f["rule"].as_str().unwrap(), f["field"].as_str().unwrap()))
        .collect()
}

#[test]
fn observe_mode_is_byte_transparent_both_ways() {
    let dir = scratch("proxy-transparent");
    let results = results(&dir, RESULTS);
    let alone = direct(&dir, &results, CLIENT);
    assert_eq!(alone.code, 0, "{}", alone.stderr);
    // The session is what the test says: the server answers four requests,
    // says a line that is not JSON, and received every client line.
    assert_eq!(alone.client.lines().count(), 5, "{}", alone.client);
    assert!(alone.client.contains("hello from the server\n"));
    assert_eq!(alone.server, CLIENT);
    let report = dir.join("report.jsonl");
    let through = proxied(&dir, &results, &["--report", report.to_str().unwrap()], &[], CLIENT);
    assert_eq!(through.code, 0, "{}", through.stderr);
    assert_eq!(through.client, alone.client, "the client receives the same bytes");
    assert_eq!(through.server, alone.server, "the server receives the same bytes (CRLF kept)");
    assert_eq!(through.stderr, "");
}
