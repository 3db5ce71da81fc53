//! The HTTP proxy (`proxy --listen ADDR --upstream URL`) between the
//! official SDKs (`tests/sdk/proxy_http_*.py`), on loopback: an MCP client
//! and server complete a Streamable HTTP session through it (the server
//! asks the client back on the POST's event stream; the GET stream and
//! DELETE pass too), `traffic` on its record gives its live verdicts, a raw
//! client receives the very bytes with and without it, the A2A client and
//! agent stream a task through it (the agent card judged), and enforcing,
//! an invalid tool result reaches the client as the -32603 error. The
//! upstream-down and shutdown behaviour needs no Python and always runs.
//!
//! The Python environment is `PROTOCOLARC_SDK_VENV`, or `target/sdk-venv`
//! made with the pinned `mcp` and `a2a-sdk` when it is unset (`sdk.rs`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use protocolarc_tests::{bin, root, scratch};
use serde_json::Value;

/// Every wait in these tests ends by then.
const PATIENCE: Duration = Duration::from_secs(60);

/// A process killed when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The Python of the real-SDK environment (`sdk::sdk_python`: made once if
/// missing; a failure to make it fails the test, never skips it).
fn python() -> Option<PathBuf> {
    Some(crate::sdk::sdk_python())
}

fn script(name: &str) -> PathBuf {
    root().join("tests/sdk").join(name)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free loopback port").port()
}

/// Waits until something listens on `port`.
fn listening(port: u16) {
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < PATIENCE, "nothing listens on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A Python upstream on `port`, once it listens.
fn upstream(python: &Path, name: &str, port: u16, args: &[&str]) -> Running {
    let child = Command::new(python)
        .arg(script(name))
        .arg(port.to_string())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python starts");
    let running = Running(child);
    listening(port);
    running
}

/// The proxy, listening on a port the system chose: its address (as
/// `127.0.0.1:PORT`) read from the line it prints once bound, and the rest
/// of its stderr.
fn proxy(args: &[&str]) -> (Running, String, Receiver<String>) {
    proxy_with(args, None)
}

/// The proxy with `PROTOCOLARC_MAX_LINE_BYTES` (its message cap) set.
fn proxy_with(args: &[&str], cap: Option<usize>) -> (Running, String, Receiver<String>) {
    let mut command = Command::new(bin!());
    if let Some(cap) = cap {
        command.env("PROTOCOLARC_MAX_LINE_BYTES", cap.to_string());
    }
    let mut child = command
        .args(["protocolarc", "proxy", "--listen", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the proxy starts");
    let stderr = child.stderr.take().expect("piped stderr");
    let running = Running(child);
    let (lines, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let first = rx.recv_timeout(PATIENCE).expect("the proxy says where it listens");
    let address = first
        .split("listening on http://")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("not the listening line: {first}"))
        .to_string();
    (running, address, rx)
}

/// Runs a command to its end, killed (and the test failed) past PATIENCE.
fn finish(mut command: Command) -> Output {
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("starts");
    let started = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("{command:?} took longer than {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
}

fn client(python: &Path, name: &str, args: &[&str]) -> Output {
    let mut command = Command::new(python);
    command.arg(script(name)).args(args);
    finish(command)
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json_lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"))).collect()
}

/// Sends SIGTERM and expects the proxy to stop, with status 0, promptly.
fn terminate(mut proxy: Running) {
    let pid = proxy.0.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs").success());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = proxy.0.try_wait().expect("waits") {
            break status;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the proxy did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
}

/// The live verdicts in the report, as `traffic --format json` says them:
/// (contracts, status, findings), message by message.
fn live_verdicts(report: &[Value]) -> Vec<(Value, Value, Value)> {
    report
        .iter()
        .filter(|line| line.get("status").is_some())
        .map(|line| {
            let contracts: Vec<Value> =
                line["contract"].as_str().map(|c| c.split(" + ").map(Value::from).collect()).unwrap_or_default();
            (Value::from(contracts), line["status"].clone(), line["findings"].clone())
        })
        .collect()
}

fn replayed_verdicts(record: &Path, args: &[&str]) -> Vec<(Value, Value, Value)> {
    let mut command = Command::new(bin!());
    command.args(["protocolarc", "traffic"]).arg(record).args(["--format", "json"]).args(args);
    let out = finish(command);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    doc["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| (r["contracts"].clone(), r["status"].clone(), r["findings"].clone()))
        .collect()
}

fn methods_from(record: &[Value], side: &str) -> Vec<String> {
    record
        .iter()
        .filter(|line| line["from"] == side)
        .filter_map(|line| line["message"]["method"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn the_mcp_sdk_session_passes_through_and_traffic_on_the_record_gives_the_live_verdicts() {
    let Some(python) = python() else { return };
    let work = scratch("proxy_http_mcp");
    let port = free_port();
    let _server = upstream(&python, "proxy_http_mcp_server.py", port, &[]);
    let (record, report) = (work.join("record.jsonl"), work.join("report.jsonl"));
    let upstream_url = format!("http://127.0.0.1:{port}");
    let (proxy, address, _stderr) = proxy(&[
        "--upstream",
        &upstream_url,
        "--record",
        record.to_str().expect("utf-8"),
        "--report",
        report.to_str().expect("utf-8"),
    ]);
    let url = format!("http://{address}/mcp");
    let out = client(
        &python,
        "proxy_http_mcp_client.py",
        &[&url, "ask", r#"{"question": "q1"}"#, "add", r#"{"a": 2, "b": 3}"#],
    );
    assert_eq!(
        stdout(&out),
        r#"{"initialized": "sdk-echo-http"}
{"tools": ["add", "ask"]}
{"content": ["ok / accept / 1 roots"], "tool": "ask"}
{"content": ["5"], "tool": "add"}
"#
    );
    terminate(proxy);
    let recorded = json_lines(&record);
    // The server's requests came on the tools/call's event stream, the
    // client's answers as POSTs of their own: all judged in one session.
    assert_eq!(methods_from(&recorded, "server"), ["sampling/createMessage", "elicitation/create", "roots/list"]);
    assert_eq!(
        methods_from(&recorded, "client"),
        ["initialize", "notifications/initialized", "tools/list", "tools/call", "tools/call"]
    );
    assert_eq!(recorded.len(), 15, "8 requests or notifications, 7 answers");
    let sessions: std::collections::BTreeSet<&str> = recorded.iter().filter_map(|l| l["session"].as_str()).collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let live = live_verdicts(&json_lines(&report));
    assert_eq!(live.len(), 15);
    assert!(
        live.iter()
            .all(|(contracts, status, _)| status == "pass" && contracts.as_array().is_some_and(|c| !c.is_empty())),
        "{live:?}"
    );
    assert_eq!(replayed_verdicts(&record, &[]), live);
}

#[test]
fn a_raw_client_receives_the_same_bytes_with_and_without_the_proxy() {
    let Some(python) = python() else { return };
    let port = free_port();
    let _server = upstream(&python, "proxy_http_mcp_server.py", port, &[]);
    let direct = stdout(&client(&python, "proxy_http_raw.py", &[&format!("http://127.0.0.1:{port}/mcp")]));
    let (proxy, address, _stderr) = proxy(&["--upstream", &format!("http://127.0.0.1:{port}")]);
    let proxied = stdout(&client(&python, "proxy_http_raw.py", &[&format!("http://{address}/mcp")]));
    terminate(proxy);
    // What is compared: five exchanges, the answers as event streams, the
    // session header present (its value the placeholder).
    assert_eq!(direct.lines().count(), 5, "{direct}");
    assert!(
        direct.contains(r#"data: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"text\":\"5\""#),
        "{direct}"
    );
    assert!(direct.contains(r#"["mcp-session-id", "SESSION"]"#), "{direct}");
    assert_eq!(proxied, direct);
}

#[test]
fn the_a2a_sdk_streams_a_task_through_the_proxy_and_the_card_is_judged() {
    let Some(python) = python() else { return };
    let work = scratch("proxy_http_a2a");
    let port = free_port();
    let (report, record) = (work.join("report.jsonl"), work.join("record.jsonl"));
    // The client reads the card on one connection and calls on another: no
    // session header ties them, so the revision is named (docs/scaling.md).
    let (proxy, address, _stderr) = proxy(&[
        "--protocol",
        "a2a@1.0.1",
        "--upstream",
        &format!("http://127.0.0.1:{port}"),
        "--report",
        report.to_str().expect("utf-8"),
        "--record",
        record.to_str().expect("utf-8"),
    ]);
    let public = format!("http://{address}/");
    let _agent = upstream(&python, "proxy_http_a2a_server.py", port, &[&public]);
    let out = client(&python, "proxy_http_a2a_client.py", &[&public]);
    assert_eq!(
        stdout(&out),
        r#"{"event": "task", "state": "TASK_STATE_SUBMITTED"}
{"event": "status_update", "state": "TASK_STATE_WORKING"}
{"event": "artifact_update", "state": null}
{"event": "artifact_update", "state": null}
{"event": "status_update", "state": "TASK_STATE_COMPLETED"}
{"artifact": "hello proxy", "task": "TASK_STATE_COMPLETED"}
"#
    );
    terminate(proxy);
    let verdicts: Vec<Value> = json_lines(&report).into_iter().filter(|l| l.get("status").is_some()).collect();
    assert_eq!(replayed_verdicts(&record, &["--protocol", "a2a@1.0.1"]), live_verdicts(&verdicts));
    let methods: Vec<(String, String)> = verdicts
        .iter()
        .map(|v| (v["from"].as_str().unwrap_or("").to_string(), v["method"].as_str().unwrap_or("-").to_string()))
        .collect();
    // The card, the streamed call and its five events, the task read back.
    assert_eq!(verdicts.len(), 9, "{methods:?}");
    assert_eq!(verdicts[0]["contract"], "a2a.agent_card@1.0.1");
    assert_eq!(methods[1], ("client".to_string(), "SendStreamingMessage".to_string()));
    assert!(methods[2..7].iter().all(|(from, _)| from == "server"), "{methods:?}");
    assert_eq!(methods[7], ("client".to_string(), "GetTask".to_string()));
    assert!(verdicts.iter().all(|v| v["status"] == "pass"), "{verdicts:?}");
}

#[test]
fn enforcing_an_invalid_tool_result_reaches_the_client_as_the_32603_error() {
    let Some(python) = python() else { return };
    let work = scratch("proxy_http_enforce");
    let port = free_port();
    let _server = upstream(&python, "proxy_http_bad_server.py", port, &[]);
    let add = ["add", r#"{"a": 2, "b": 3}"#];
    // Direct, the client meets the invalid result itself.
    let direct =
        client(&python, "proxy_http_mcp_client.py", &[&format!("http://127.0.0.1:{port}/mcp"), add[0], add[1]]);
    assert!(!direct.status.success());
    assert!(String::from_utf8_lossy(&direct.stderr).contains("Input should be a valid list"));
    let report = work.join("report.jsonl");
    let (proxy, address, _stderr) = proxy(&[
        "--enforce",
        "--upstream",
        &format!("http://127.0.0.1:{port}"),
        "--report",
        report.to_str().expect("utf-8"),
    ]);
    let out = client(&python, "proxy_http_mcp_client.py", &[&format!("http://{address}/mcp"), add[0], add[1]]);
    terminate(proxy);
    let lines = stdout(&out);
    let last: Value = serde_json::from_str(lines.lines().last().expect("a line")).expect("json");
    assert_eq!(last["tool"], "add");
    assert_eq!(last["error"], -32603, "{lines}");
    let failed: Vec<Value> = json_lines(&report).into_iter().filter(|l| l["status"] == "fail").collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0]["from"], "server");
    assert_eq!(failed[0]["method"], "tools/call");
    assert_eq!(failed[0]["findings"][0]["rule"], "field.type");
    assert_eq!(failed[0]["findings"][0]["field"], "result.content");
}

/// A raw HTTP/1.1 POST: the status line, the content type and the body.
fn post_accepting(address: &str, accept: &str, body: &str) -> (String, String, String) {
    let mut stream = TcpStream::connect(address).expect("connects");
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let request = format!(
        "POST /mcp HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\naccept: {accept}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("writes");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("reads");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let content_type = head.lines().find_map(|line| line.strip_prefix("content-type: ")).unwrap_or("").to_string();
    (head.lines().next().unwrap_or("").to_string(), content_type, body.to_string())
}

fn post(address: &str, body: &str) -> (String, String) {
    let (status, _, body) = post_accepting(address, "application/json, text/event-stream", body);
    (status, body)
}

#[test]
fn enforcing_the_proxy_answers_a_refused_request_itself_in_the_form_the_client_accepts() {
    // No upstream listens: what is refused never leaves the proxy.
    let port = free_port();
    let (proxy, address, _stderr) =
        proxy(&["--enforce", "--protocol", "mcp@2025-11-25", "--upstream", &format!("http://127.0.0.1:{port}")]);
    let call = r#"{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {}}"#;
    let (status, content_type, body) = post_accepting(&address, "application/json, text/event-stream", call);
    assert_eq!((status.as_str(), content_type.as_str()), ("HTTP/1.1 200 OK", "application/json"));
    let error: Value = serde_json::from_str(&body).expect("a JSON-RPC error");
    assert_eq!((error["id"].clone(), error["error"]["code"].clone()), (Value::from(7), Value::from(-32602)), "{body}");
    assert_eq!(error["error"]["data"]["findings"][0]["field"], "params.name", "{body}");
    let (status, content_type, stream) = post_accepting(&address, "text/event-stream", call);
    assert_eq!((status.as_str(), content_type.as_str()), ("HTTP/1.1 200 OK", "text/event-stream"));
    assert_eq!(stream, format!("event: message\ndata: {body}\n\n"));
    let note = r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {}}"#;
    let (status, body) = post(&address, note);
    assert_eq!((status.as_str(), body.as_str()), ("HTTP/1.1 202 Accepted", ""));
    terminate(proxy);
}

#[test]
fn an_unreachable_upstream_gets_502_with_its_cause_and_sigterm_stops_the_proxy() {
    let work = scratch("proxy_http_down");
    let port = free_port();
    let report = work.join("report.jsonl");
    let (proxy, address, _stderr) =
        proxy(&["--upstream", &format!("http://127.0.0.1:{port}"), "--report", report.to_str().expect("utf-8")]);
    let (status, body) = post(&address, r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#);
    assert_eq!(status, "HTTP/1.1 502 Bad Gateway");
    assert_eq!(
        body,
        format!("protocolarc proxy: upstream http://127.0.0.1:{port} unreachable: Connection refused (os error 111)\n")
    );
    terminate(proxy);
    let events: Vec<Value> = json_lines(&report).into_iter().filter(|l| l.get("event").is_some()).collect();
    assert!(
        events
            .iter()
            .any(|e| e["event"] == "upstream" && e["message"].as_str().is_some_and(|m| m.contains("unreachable"))),
        "{events:?}"
    );
}

#[test]
fn an_upstream_that_is_not_plain_http_is_a_usage_error() {
    let out =
        protocolarc_tests::run(bin!(), &["proxy", "--listen", "127.0.0.1:0", "--upstream", "https://127.0.0.1:1/"]);
    assert_eq!(out.code, 3);
    assert!(out.stderr.contains("https upstreams are not supported"), "{}", out.stderr);
}

#[test]
fn a_client_that_leaves_an_event_stream_takes_the_upstream_stream_with_it() {
    let Some(python) = python() else { return };
    let work = scratch("proxy_http_disconnect");
    let (port, dropped, report) = (free_port(), work.join("dropped"), work.join("report.jsonl"));
    let _server = upstream(&python, "proxy_http_bad_server.py", port, &[dropped.to_str().expect("utf-8")]);
    let (proxy, address, _stderr) =
        proxy(&["--upstream", &format!("http://127.0.0.1:{port}"), "--report", report.to_str().expect("utf-8")]);
    let mut stream = TcpStream::connect(&address).expect("connects");
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let request = format!("GET /mcp HTTP/1.1\r\nhost: {address}\r\naccept: text/event-stream\r\n\r\n");
    stream.write_all(request.as_bytes()).expect("writes");
    let mut seen = Vec::new();
    let mut buffer = [0u8; 1024];
    while !String::from_utf8_lossy(&seen).contains(": ping\n\n") {
        let n = stream.read(&mut buffer).expect("reads");
        assert!(n > 0, "the stream ended: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buffer[..n]);
    }
    assert!(String::from_utf8_lossy(&seen).starts_with("HTTP/1.1 200 OK\r\n"));
    drop(stream);
    let started = Instant::now();
    while !dropped.exists() {
        assert!(started.elapsed() < Duration::from_secs(20), "the upstream stream was not dropped");
        std::thread::sleep(Duration::from_millis(50));
    }
    terminate(proxy);
    let events: Vec<Value> = json_lines(&report).into_iter().filter(|l| l.get("event").is_some()).collect();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["event"], "disconnect");
}

#[test]
fn a_body_over_the_message_cap_is_streamed_on_observing_and_refused_enforcing() {
    let work = scratch("proxy_http_oversized");
    let (port, report) = (free_port(), work.join("report.jsonl"));
    let upstream_url = format!("http://127.0.0.1:{port}");
    let long =
        format!(r#"{{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {{"pad": "{}"}}}}"#, "x".repeat(200));
    assert!(long.len() > 128);
    // Observing, it goes on unjudged: to an upstream that is down here, so 502.
    let (proxy, address, _stderr) =
        proxy_with(&["--upstream", &upstream_url, "--report", report.to_str().expect("utf-8")], Some(128));
    assert_eq!(post(&address, &long).0, "HTTP/1.1 502 Bad Gateway");
    terminate(proxy);
    let events: Vec<String> =
        json_lines(&report).iter().filter_map(|l| l["event"].as_str().map(str::to_string)).collect();
    assert_eq!(events, ["oversized", "upstream"]);
    // Enforcing, the proxy refuses it under the id null (the id was not read).
    let (proxy, address, _stderr) = proxy_with(&["--enforce", "--upstream", &upstream_url], Some(128));
    let (status, body) = post(&address, &long);
    terminate(proxy);
    assert_eq!(status, "HTTP/1.1 200 OK");
    let error: Value = serde_json::from_str(&body).expect("a JSON-RPC error");
    assert_eq!((error["id"].clone(), error["error"]["code"].clone()), (Value::Null, Value::from(-32600)), "{body}");
}
