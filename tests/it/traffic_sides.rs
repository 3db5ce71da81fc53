//! `traffic` on captures that say who sent each message (SPEC §12): recorded
//! lines, ids that collide across the two sides of a session, responses
//! that answer nothing, agent card lines. The bundled catalogs judge them.

use protocolarc_tests::{bin, root, run_in, scratch, write_files, Output};

/// The MCP 2025-11-25 session of the real SDKs, cut to its collision, in the
/// order the wire saw it: line 1 from the client, 2 from the server, 3 from
/// the client answering 2, 4 from the server answering 1 (the SDK server
/// numbers its own requests, so its `sampling/createMessage` takes id 4 too).
const COLLIDING: [&str; 4] = [
    r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"ask","arguments":{}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}}"#,
    r#"{"jsonrpc":"2.0","id":4,"result":{"role":"assistant","content":{"type":"text","text":"ok"},"model":"m"}}"#,
    r#"{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"done"}]}}"#,
];
const SIDES: [&str; 4] = ["client", "server", "client", "server"];

/// `lines` written as `cap.jsonl` in a fresh directory, judged by the
/// bundled catalog of `protocol`.
fn traffic(name: &str, lines: &[String], protocol: &str, more: &[&str]) -> Output {
    let dir = scratch(name);
    write_files(&dir, &[("cap.jsonl", (lines.join("\n") + "\n").as_bytes())]);
    let catalog = root().join("protocols");
    let mut args = vec!["traffic", "cap.jsonl", "--protocol", protocol, "--catalog", catalog.to_str().expect("utf-8")];
    args.extend_from_slice(more);
    run_in(bin!(), &dir, &args)
}

fn expect(out: &Output, code: i32, stdout: &str) {
    assert_eq!(out.stdout, stdout, "stderr: {}", out.stderr);
    assert_eq!(out.code, code, "stderr: {}", out.stderr);
}

fn recorded(from: &str, message: &str) -> String {
    format!(r#"{{"from":"{from}","message":{message}}}"#)
}

#[test]
fn recorded_lines_pair_each_response_with_the_other_sides_request() {
    let lines: Vec<String> = SIDES.iter().zip(COLLIDING).map(|(from, m)| recorded(from, m)).collect();
    assert!(lines[1].starts_with(r#"{"from":"server","message":{"jsonrpc":"2.0","id":4,"method":"sampling/"#));
    let out = traffic("sides-recorded", &lines, "mcp@2025-11-25", &[]);
    expect(
        &out,
        0,
        "[PASS] mcp.tools/call.request@2025.11.25 <- cap.jsonl:1
[PASS] mcp.sampling/createMessage.request@2025.11.25 <- cap.jsonl:2
[PASS] mcp.sampling/createMessage.response@2025.11.25 <- cap.jsonl:3
[PASS] mcp.tools/call.response@2025.11.25 <- cap.jsonl:4
traffic mcp@2025-11-25: 4 messages, 4 passed, 0 failed
",
    );
    // The answers in the other order (the server's first): still exact.
    let swapped = [lines[0].clone(), lines[1].clone(), lines[3].clone(), lines[2].clone()];
    let out = traffic("sides-recorded-swapped", &swapped, "mcp@2025-11-25", &[]);
    expect(
        &out,
        0,
        "[PASS] mcp.tools/call.request@2025.11.25 <- cap.jsonl:1
[PASS] mcp.sampling/createMessage.request@2025.11.25 <- cap.jsonl:2
[PASS] mcp.tools/call.response@2025.11.25 <- cap.jsonl:3
[PASS] mcp.sampling/createMessage.response@2025.11.25 <- cap.jsonl:4
traffic mcp@2025-11-25: 4 messages, 4 passed, 0 failed
",
    );
    // With directions the pairing is exact: the client's answer sent as the
    // server's is judged as the tools/call result, and fails.
    let wrong = [lines[0].clone(), lines[1].clone(), recorded("server", COLLIDING[2])];
    let out = traffic("sides-recorded-wrong", &wrong, "mcp@2025-11-25", &["--quiet"]);
    expect(
        &out,
        1,
        "[FAIL] mcp.tools/call.response@2025.11.25 <- cap.jsonl:3
  ERROR field.type result.content: expected array, found object
traffic mcp@2025-11-25: 3 messages, 2 passed, 1 failed; field.type 1
",
    );
}

#[test]
fn a_raw_response_whose_id_is_pending_on_both_sides_is_judged_against_both() {
    let lines: Vec<String> = COLLIDING.iter().map(|l| l.to_string()).collect();
    let out = traffic("sides-raw", &lines, "mcp@2025-11-25", &[]);
    expect(
        &out,
        0,
        "[PASS] mcp.tools/call.request@2025.11.25 <- cap.jsonl:1
[PASS] mcp.sampling/createMessage.request@2025.11.25 <- cap.jsonl:2
[PASS] mcp.sampling/createMessage.response@2025.11.25 <- cap.jsonl:3
  WARNING route.ambiguous id: id 4 is pending for two requests, sampling/createMessage and tools/call (a raw line does not say who sent which): paired with sampling/createMessage
[PASS] mcp.tools/call.response@2025.11.25 <- cap.jsonl:4
traffic mcp@2025-11-25: 4 messages, 4 passed, 0 failed; route.ambiguous 1
",
    );
    // The server answers first: the latest request (sampling) does not
    // accept a CallToolResult, the one before it does; no false failure.
    let swapped = [&lines[0], &lines[1], &lines[3], &lines[2]].map(String::clone);
    let out = traffic("sides-raw-swapped", &swapped, "mcp@2025-11-25", &[]);
    expect(
        &out,
        0,
        "[PASS] mcp.tools/call.request@2025.11.25 <- cap.jsonl:1
[PASS] mcp.sampling/createMessage.request@2025.11.25 <- cap.jsonl:2
[PASS] mcp.tools/call.response@2025.11.25 <- cap.jsonl:3
  WARNING route.ambiguous id: id 4 is pending for two requests, sampling/createMessage and tools/call (a raw line does not say who sent which): paired with tools/call
[PASS] mcp.sampling/createMessage.response@2025.11.25 <- cap.jsonl:4
traffic mcp@2025-11-25: 4 messages, 4 passed, 0 failed; route.ambiguous 1
",
    );
    // A result neither accepts fails against the latest request's contract.
    let bad = [lines[0].clone(), lines[1].clone(), r#"{"jsonrpc":"2.0","id":4,"result":{"model":7}}"#.to_string()];
    let out = traffic("sides-raw-bad", &bad, "mcp@2025-11-25", &["--quiet"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.starts_with("[FAIL] mcp.sampling/createMessage.response@2025.11.25 <- cap.jsonl:3\n"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("  WARNING route.ambiguous id: id 4 is pending for two requests, sampling/createMessage and tools/call (a raw line does not say who sent which): paired with sampling/createMessage\n"), "{}", out.stdout);
}

#[test]
fn sessions_keep_their_ids_apart() {
    let line =
        |session: &str, from: &str, m: &str| format!(r#"{{"from":"{from}","session":"{session}","message":{m}}}"#);
    let lines = [
        line("a", "client", COLLIDING[0]),
        line("b", "client", r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#),
        // Session a's answer: a CallToolResult, not b's ping result.
        line("a", "server", COLLIDING[3]),
        line("b", "server", r#"{"jsonrpc":"2.0","id":4,"result":{}}"#),
    ];
    let out = traffic("sides-sessions", &lines, "mcp@2025-11-25", &[]);
    expect(
        &out,
        0,
        "[PASS] mcp.tools/call.request@2025.11.25 <- cap.jsonl:1
[PASS] mcp.ping.request@2025.11.25 <- cap.jsonl:2
[PASS] mcp.tools/call.response@2025.11.25 <- cap.jsonl:3
[PASS] mcp.ping.response@2025.11.25 <- cap.jsonl:4
traffic mcp@2025-11-25: 4 messages, 4 passed, 0 failed
",
    );
}

#[test]
fn a_recorded_line_names_its_side_and_holds_a_message_or_a_batch() {
    let lines = [
        r#"{"from":"browser","message":{"jsonrpc":"2.0","method":"ping","id":1}}"#.to_string(),
        r#"{"message":{"jsonrpc":"2.0","method":"ping","id":1}}"#.to_string(),
        r#"{"from":"client","session":7,"message":{"jsonrpc":"2.0","method":"ping","id":1}}"#.to_string(),
        r#"{"from":"client","time":1733,"message":{"jsonrpc":"2.0","method":"ping","id":1}}"#.to_string(),
        r#"{"from":"client","time":"2026-12-04T21:00:00Z","message":[{"jsonrpc":"2.0","method":"ping","id":1},{"jsonrpc":"2.0","method":"nope"}]}"#.to_string(),
        r#"{"from":"server","message":{"jsonrpc":"2.0","id":1,"result":{}}}"#.to_string(),
    ];
    let out = traffic("sides-shape", &lines, "mcp@2025-03-26", &[]);
    expect(
        &out,
        1,
        r#"[FAIL] (unrouted) <- cap.jsonl:1
  ERROR jsonrpc.shape from: expected "client" or "server", found "browser"
[FAIL] (unrouted) <- cap.jsonl:2
  ERROR jsonrpc.shape from: required member is missing (a recorded line says who sent its message: "client" or "server")
[FAIL] (unrouted) <- cap.jsonl:3
  ERROR jsonrpc.shape session: expected a string, found 7
[FAIL] (unrouted) <- cap.jsonl:4
  ERROR jsonrpc.shape time: expected an RFC 3339 time string, found 1733
[PASS] mcp.ping.request@2025.3.26 <- cap.jsonl:5[0]
[FAIL] (unrouted) <- cap.jsonl:5[1]
  ERROR route.method method: no contract mcp.nope.request in the catalog of mcp@2025-03-26: the method is unknown to this protocol revision
[PASS] mcp.ping.response@2025.3.26 <- cap.jsonl:6
traffic mcp@2025-03-26: 7 messages, 2 passed, 5 failed; jsonrpc.shape 4, route.method 1
"#,
    );
}

/// A response nobody checked never reads as passed: its own status, counted.
#[test]
fn an_unpaired_response_is_never_pass() {
    let lines = [
        r#"{"jsonrpc":"2.0","id":9,"result":{"content":[]}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"Method not found"}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":7,"result":42}"#.to_string(),
    ];
    let out = traffic("unpaired", &lines, "mcp@2025-11-25", &[]);
    expect(
        &out,
        1,
        "[UNPAIRED] (unrouted) <- cap.jsonl:1
  WARNING route.id id: no request with id 9 is waiting for a response in this file
[UNPAIRED] mcp.error.response@2025.11.25 <- cap.jsonl:2
  WARNING route.id id: no request with id 8 is waiting for a response in this file
[FAIL] (unrouted) <- cap.jsonl:3
  ERROR route.response result: none of the 20 response contracts of mcp@2025-11-25 accepts this result
  WARNING route.id id: no request with id 7 is waiting for a response in this file
traffic mcp@2025-11-25: 3 messages, 0 passed, 2 unpaired, 1 failed; route.id 3, route.response 1
",
    );
    let out = traffic("unpaired-json", &lines[..1], "mcp@2025-11-25", &["--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    assert_eq!(doc["results"][0]["status"], "unpaired");
    assert_eq!(doc["summary"]["unpaired"], 1);
    assert_eq!(doc["summary"]["passed"], 0);
}

/// An A2A capture that holds its agent card: the card line is judged by
/// `a2a.agent_card` (it was `jsonrpc.shape`, and every such capture exited 1).
#[test]
fn an_agent_card_line_is_judged_by_the_card_contract() {
    let card = r#"{"name":"Echo","description":"echoes","url":"http://127.0.0.1:9999/","version":"1.0.0","protocolVersion":"0.3.0","capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"echo","name":"echo","description":"echo","tags":["echo"]}]}"#;
    let lines = [card.to_string(), card.replace(r#""skills":["#, r#""skills":7,"x":["#)];
    let out = traffic("card", &lines, "a2a@0.3.0", &[]);
    expect(
        &out,
        1,
        "[PASS] a2a.agent_card@0.3.0 <- cap.jsonl:1
[FAIL] a2a.agent_card@0.3.0 <- cap.jsonl:2
  ERROR field.type skills: expected array, found integer
traffic a2a@0.3.0: 2 messages, 1 passed, 1 failed; field.type 1
",
    );
    // MCP has no card: a card line there is not a message.
    let out = traffic("card-mcp", &lines[..1], "mcp@2025-11-25", &[]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.starts_with("[FAIL] (unrouted) <- cap.jsonl:1\n  ERROR jsonrpc.shape jsonrpc:"),
        "{}",
        out.stdout
    );
}

/// The JSON-RPC frame as each revision's official schema defines it: an
/// integer id and progress token (`5.5` and `true` passed up to 2025-06-18),
/// an error response's optional id (2025-11-25 on), batches (2025-03-26
/// only), a repeated routing key, and a method the revision removed.
#[test]
fn the_frame_is_judged_per_revision() {
    let lines: Vec<String> = [
        r#"{"jsonrpc":"2.0","id":5.5,"method":"tools/call","params":{"name":"a","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"a","arguments":{},"_meta":{"progressToken":true}}}"#,
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a","arguments":{},"_meta":{"progressToken":"t"}}}"#,
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#,
        r#"[{"jsonrpc":"2.0","id":8,"method":"ping"}]"#,
        r#"{"jsonrpc":"2.0","id":9,"method":"ping","id":10}"#,
        r#"{"jsonrpc":"2.0","id":11,"method":"logging/setLevel","params":{"level":"info"}}"#,
    ]
    .map(String::from)
    .to_vec();
    let out = traffic("frame-2025-06-18", &lines, "mcp@2025-06-18", &[]);
    expect(
        &out,
        1,
        "[FAIL] (unrouted) <- cap.jsonl:1
  ERROR jsonrpc.shape id: a request id is a string or an integer in mcp@2025-06-18, found 5.5
[FAIL] (unrouted) <- cap.jsonl:2
  ERROR jsonrpc.shape params._meta.progressToken: a progress token is a string or an integer in mcp@2025-06-18, found true
[PASS] mcp.tools/call.request@2025.6.18 <- cap.jsonl:3
[FAIL] (unrouted) <- cap.jsonl:4
  ERROR jsonrpc.shape id: required member is missing (a response names the request it answers; mcp@2025-06-18 requires it of an error too)
[FAIL] (unrouted) <- cap.jsonl:5
  ERROR jsonrpc.batch <message>: a batch of 1 message: mcp@2025-06-18 has no batches (each message is sent on its own)
[FAIL] (unrouted) <- cap.jsonl:6
  ERROR json.duplicate_key id: key 'id' appears more than once: readers disagree on which wins
[PASS] mcp.logging/setLevel.request@2025.6.18 <- cap.jsonl:7
traffic mcp@2025-06-18: 7 messages, 2 passed, 5 failed; json.duplicate_key 1, jsonrpc.batch 1, jsonrpc.shape 3
",
    );
    let out = traffic("frame-2025-03-26", &lines[3..5], "mcp@2025-03-26", &[]);
    expect(
        &out,
        1,
        "[FAIL] (unrouted) <- cap.jsonl:1
  ERROR jsonrpc.shape id: required member is missing (a response names the request it answers; mcp@2025-03-26 requires it of an error too)
[PASS] mcp.ping.request@2025.3.26 <- cap.jsonl:2[0]
traffic mcp@2025-03-26: 2 messages, 1 passed, 1 failed; jsonrpc.shape 1
",
    );
    // 2025-11-25: an error response may leave out its id (and, answering
    // nothing, is unpaired only when it has one).
    let out = traffic("frame-2025-11-25", &lines[3..4], "mcp@2025-11-25", &[]);
    expect(
        &out,
        0,
        "[PASS] mcp.error.response@2025.11.25 <- cap.jsonl:1\ntraffic mcp@2025-11-25: 1 message, 1 passed, 0 failed\n",
    );
    // 2026-07-28 removed logging/setLevel (and ping): the finding says so.
    let out = traffic("frame-2026-07-28", &lines[6..7], "mcp@2026-07-28", &[]);
    expect(
        &out,
        1,
        "[FAIL] (unrouted) <- cap.jsonl:1
  ERROR route.method method: no contract mcp.logging/setLevel.request in the catalog of mcp@2026-07-28: the method is unknown to this protocol revision (mcp@2025-11-25 has it: this revision removed it)
traffic mcp@2026-07-28: 1 message, 0 passed, 1 failed; route.method 1
",
    );
}

/// `--jobs` far past the cores starts no more threads than help: the same
/// bytes as one job, no panic.
#[test]
fn many_jobs_print_what_one_job_prints() {
    let mut lines = Vec::new();
    for i in 0..3000 {
        lines.push(format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#));
        if i % 3 == 0 {
            lines.push(format!(r#"{{"jsonrpc":"2.0","id":{i},"result":{i}}}"#));
        }
    }
    let one = traffic("jobs-one", &lines, "mcp@2025-11-25", &["--quiet", "-j", "1"]);
    let many = traffic("jobs-many", &lines, "mcp@2025-11-25", &["--quiet", "-j", "30000"]);
    assert_eq!((many.code, many.stderr.as_str()), (1, ""));
    assert_eq!(many.stdout, one.stdout);
    assert!(
        one.stdout.ends_with("traffic mcp@2025-11-25: 4000 messages, 3000 passed, 1000 failed; field.type 1000\n"),
        "{}",
        one.stdout.lines().last().unwrap_or("")
    );
    // The library bounds its threads by the runs of a batch too.
    let catalog = protocolarc::Catalog::load(&[root().join("protocols/mcp/2025-11-25")]).expect("catalog");
    let bytes: Vec<(usize, &[u8])> = lines.iter().take(40).enumerate().map(|(i, l)| (i + 1, l.as_bytes())).collect();
    let shown = |jobs: usize| {
        let mut t = protocolarc::traffic::Traffic::new("mcp", "mcp@2025-11-25", &catalog, None);
        let mut out = Vec::new();
        t.lines(
            "cap",
            &bytes,
            jobs,
            || {},
            |j| {
                out.push(format!("{} {:?}", j.source, j.report.findings().len()));
                Ok::<_, ()>(())
            },
        )
        .expect("no error");
        out
    };
    assert_eq!(shown(30_000), shown(1));
}

/// A streaming request stays pending until its last event, and each event
/// is judged by the streaming response contract (before, every event after
/// the first answered nothing and passed if any response contract took it:
/// at v1.0 `DeleteTaskPushNotificationConfig`'s `{"type": "object"}` took all).
#[test]
fn every_stream_event_pairs_with_its_request_until_the_last() {
    let run = |file: &str, protocol: &str| {
        let capture = protocolarc_tests::data(&format!("traffic/{file}"));
        let catalog = root().join("protocols");
        let args = [
            "traffic",
            capture.to_str().expect("utf-8"),
            "--protocol",
            protocol,
            "--catalog",
            catalog.to_str().expect("utf-8"),
        ];
        run_in(bin!(), &root(), &args)
    };
    let out = run("a2a-stream-v0.3.0.jsonl", "a2a@0.3.0");
    expect(
        &out,
        1,
        r#"[PASS] a2a.message/stream.request@0.3.0 <- a2a-stream-v0.3.0.jsonl:1
[PASS] a2a.message/stream.response@0.3.0 <- a2a-stream-v0.3.0.jsonl:2
[PASS] a2a.message/stream.response@0.3.0 <- a2a-stream-v0.3.0.jsonl:3
[PASS] a2a.message/stream.response@0.3.0 <- a2a-stream-v0.3.0.jsonl:4
[FAIL] a2a.message/stream.response@0.3.0 <- a2a-stream-v0.3.0.jsonl:5
  ERROR field.type result.final: expected boolean, found string
[PASS] a2a.message/stream.response@0.3.0 <- a2a-stream-v0.3.0.jsonl:6
[UNPAIRED] (unrouted) <- a2a-stream-v0.3.0.jsonl:7
  WARNING route.id id: no request with id "s1" is waiting for a response in this file
traffic a2a@0.3.0: 7 messages, 5 passed, 1 unpaired, 1 failed; field.type 1, route.id 1
"#,
    );
    let out = run("a2a-stream-v1.0.jsonl", "a2a@1.0.1");
    expect(
        &out,
        1,
        "[PASS] a2a.SendStreamingMessage.request@1.0.1 <- a2a-stream-v1.0.jsonl:1
[PASS] a2a.SendStreamingMessage.response@1.0.1 <- a2a-stream-v1.0.jsonl:2
[PASS] a2a.SendStreamingMessage.response@1.0.1 <- a2a-stream-v1.0.jsonl:3
[PASS] a2a.SendStreamingMessage.response@1.0.1 <- a2a-stream-v1.0.jsonl:4
[FAIL] a2a.SendStreamingMessage.response@1.0.1 <- a2a-stream-v1.0.jsonl:5
  ERROR field.enum result.statusUpdate.status.state: value 'done' not in {'TASK_STATE_UNSPECIFIED', 'TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', ... (9 values)}
[PASS] a2a.SendStreamingMessage.response@1.0.1 <- a2a-stream-v1.0.jsonl:6
traffic a2a@1.0.1: 6 messages, 5 passed, 1 failed; field.enum 1
",
    );
}

/// A HAR file of an A2A HTTP session with a stream: the card GET, each
/// event of the event stream paired with its request, labelled by entry.
#[test]
fn a_har_capture_is_read_entry_by_entry_and_event_by_event() {
    let run = |file: &str| {
        let capture = protocolarc_tests::data(&format!("traffic/{file}"));
        let catalog = root().join("protocols");
        run_in(
            bin!(),
            &root(),
            &["traffic", capture.to_str().expect("utf-8"), "--catalog", catalog.to_str().expect("utf-8")],
        )
    };
    let out = run("a2a-0.3.0-stream.har");
    assert_eq!(
        out.stderr,
        "note: protocol a2a@0.3.0, from the agent card at a2a-0.3.0-stream.har#1 (protocolVersion 0.3.0)\n"
    );
    expect(
        &out,
        0,
        "[PASS] a2a.agent_card@0.3.0 <- a2a-0.3.0-stream.har#1
[PASS] a2a.message/stream.request@0.3.0 <- a2a-0.3.0-stream.har#2
[PASS] a2a.message/stream.response@0.3.0 <- a2a-0.3.0-stream.har#2[event 1]
[PASS] a2a.message/stream.response@0.3.0 <- a2a-0.3.0-stream.har#2[event 2]
[PASS] a2a.message/stream.response@0.3.0 <- a2a-0.3.0-stream.har#2[event 3]
[PASS] a2a.message/stream.response@0.3.0 <- a2a-0.3.0-stream.har#2[event 4]
[PASS] a2a.message/send.request@0.3.0 <- a2a-0.3.0-stream.har#3
[PASS] a2a.message/send.response@0.3.0 <- a2a-0.3.0-stream.har#3
traffic a2a@0.3.0: 8 messages, 8 passed, 0 failed
",
    );
    let out = run("a2a-0.3.0-stream-bad-event.har");
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout.contains("[FAIL] a2a.message/stream.response@0.3.0 <- a2a-0.3.0-stream-bad-event.har#2[event 2]\n  ERROR field.type result.final: expected boolean, found string\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with("traffic a2a@0.3.0: 8 messages, 7 passed, 1 failed; field.type 1\n"),
        "{}",
        out.stdout
    );
    // Not a HAR document: an input error naming the file.
    let dir = scratch("har-bad");
    write_files(&dir, &[("x.har", b"{\"log\": 7}")]);
    let out = run_in(
        bin!(),
        &dir,
        &[
            "traffic",
            "x.har",
            "--protocol",
            "a2a@0.3.0",
            "--catalog",
            root().join("protocols").to_str().expect("utf-8"),
        ],
    );
    assert_eq!(out.code, 3, "{}", out.stdout);
    assert!(
        out.stderr.starts_with("error: x.har: not a HAR 1.2 document: invalid type: integer `7`"),
        "{}",
        out.stderr
    );
}

/// A recorded capture tells its revision by the initialize request it holds
/// (it fell back to the newest MCP revision, where 21 of a real SDK
/// session's 31 messages have no contract).
#[test]
fn a_recorded_initialize_request_picks_the_revision() {
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    let dir = scratch("sides-hint");
    write_files(&dir, &[("cap.jsonl", format!("{}\n", recorded("client", init)).as_bytes())]);
    let catalog = root().join("protocols");
    let out = run_in(bin!(), &dir, &["traffic", "cap.jsonl", "--catalog", catalog.to_str().expect("utf-8")]);
    assert_eq!(out.stderr, "note: protocol mcp@2025-06-18, from the initialize request at cap.jsonl:1\n");
    expect(&out, 0, "[PASS] mcp.initialize.request@2025.6.18 <- cap.jsonl:1\ntraffic mcp@2025-06-18: 1 message, 1 passed, 0 failed\n");
}

/// An MCP 2026-07-28 session negotiates with `server/discover` (no
/// `initialize`): its `_meta` names the revision, and a `ping` the SDK
/// still sends gets the removed-method hint. Lines 1 and 2 are the
/// specification's own `server/discover` exchange (modelcontextprotocol
/// @ b0f60ba, `docs/specification/2026-07-28/server/discover.mdx` lines
/// 15 and 38), recorded with their directions.
#[test]
fn a_server_discover_session_tells_its_revision() {
    let discover = r#"{"jsonrpc":"2.0","id":"discover-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let result = r#"{"jsonrpc":"2.0","id":"discover-1","result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"resources":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"ExampleServer","version":"1.0.0"}},"instructions":"This server provides weather and resource utilities. Prefer `get_weather` for forecast lookups.","ttlMs":3600000,"cacheScope":"public"}}"#;
    let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let lines = [recorded("client", discover), recorded("server", result), recorded("client", ping)];
    let dir = scratch("sides-discover");
    write_files(&dir, &[("cap.jsonl", (lines.join("\n") + "\n").as_bytes())]);
    let catalog = root().join("protocols");
    let out = run_in(bin!(), &dir, &["traffic", "cap.jsonl", "--catalog", catalog.to_str().expect("utf-8")]);
    assert_eq!(out.stderr, "note: protocol mcp@2026-07-28, from the server/discover request's _meta at cap.jsonl:1\n");
    expect(
        &out,
        1,
        "[PASS] mcp.server/discover.request@2026.7.28 <- cap.jsonl:1
[PASS] mcp.server/discover.response@2026.7.28 <- cap.jsonl:2
[FAIL] (unrouted) <- cap.jsonl:3
  ERROR route.method method: no contract mcp.ping.request in the catalog of mcp@2026-07-28: the method is unknown to this protocol revision (mcp@2025-11-25 has it: this revision removed it)
traffic mcp@2026-07-28: 3 messages, 2 passed, 1 failed; route.method 1
",
    );
    // A version the catalog has no revision of is an input error naming it.
    let unknown = discover.replace("2026-07-28", "2027-01-01");
    write_files(&dir, &[("cap.jsonl", format!("{}\n", recorded("client", &unknown)).as_bytes())]);
    let out = run_in(bin!(), &dir, &["traffic", "cap.jsonl", "--catalog", catalog.to_str().expect("utf-8")]);
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert!(
        out.stderr.contains("cap.jsonl:1: the server/discover request names protocolVersion '2027-01-01' in its _meta"),
        "{}",
        out.stderr
    );
}

/// A2A 1.0 is ProtoJSON: a message refuses a field its proto message does
/// not define (`field.additionalProperties`), as protobuf's JSON parser does
/// by default. The agent card is read as JSON: the real a2a-sdk's card
/// (`tests/data/traffic/a2a-sdk-1.0.jsonl`, line 1) carries the 0.3 card's
/// fields beside 1.0's and passes, and the real session passes whole.
#[test]
fn a2a_1_0_messages_refuse_unknown_fields_and_the_card_is_json() {
    let session = std::fs::read_to_string(root().join("tests/data/traffic/a2a-sdk-1.0.jsonl")).expect("the capture");
    let lines: Vec<String> = session.lines().map(str::to_string).collect();
    assert!(lines[0].contains(r#""preferredTransport":"JSONRPC","protocolVersion":"0.3""#));
    assert!(lines[1].starts_with(r#"{"from":"client","message":{"method":"SendMessage","params":{"message":{"#));
    let out = traffic("sides-a2a-strict", &lines, "a2a@1.0.1", &["--quiet"]);
    expect(&out, 0, "traffic a2a@1.0.1: 8 messages, 8 passed, 0 failed\n");
    // One unknown field in the request's message, one in the result's task.
    let mut changed = lines.clone();
    changed[1] = lines[1].replacen(r#""messageId":"#, r#""messageID":"m","messageId":"#, 1);
    changed[2] = lines[2].replacen(r#"{"task":{"#, r#"{"task":{"state":"done","#, 1);
    let out = traffic("sides-a2a-strict", &changed, "a2a@1.0.1", &["--quiet"]);
    let fails: Vec<&str> = out.stdout.lines().filter(|l| !l.starts_with("traffic ")).collect();
    assert_eq!(
        fails,
        [
            "[FAIL] a2a.SendMessage.request@1.0.1 <- cap.jsonl:2",
            "  ERROR field.additionalProperties params.message.messageID: key is not allowed: the object is closed (additionalProperties: false)",
            "[FAIL] a2a.SendMessage.response@1.0.1 <- cap.jsonl:3",
            "  ERROR field.additionalProperties result.task.state: key is not allowed: the object is closed (additionalProperties: false)",
        ],
        "{}",
        out.stdout
    );
    assert_eq!(out.code, 1);
}

/// One HTTP exchange of a HAR capture: the request's method, URL and body,
/// the `Mcp-Session-Id` the request sends and the one the response sends,
/// the response's media type and body.
struct Exchange<'a> {
    method: &'a str,
    url: &'a str,
    body: Option<&'a str>,
    session_sent: Option<&'a str>,
    session_given: Option<&'a str>,
    mime: &'a str,
    response: &'a str,
}

/// A POST of `body` answered by `response` (JSON).
fn post<'a>(body: &'a str, response: &'a str) -> Exchange<'a> {
    Exchange {
        method: "POST",
        url: "http://127.0.0.1:9999/",
        body: Some(body),
        session_sent: None,
        session_given: None,
        mime: "application/json",
        response,
    }
}

/// The `data` lines of a `text/event-stream` holding `events`.
fn event_stream(events: &[&str]) -> String {
    events.iter().map(|e| format!("event: message\ndata: {e}\n\n")).collect()
}

/// A HAR 1.2 document of `exchanges`, in order, as browser devtools save it.
fn har(exchanges: &[Exchange]) -> String {
    let header = |session: Option<&str>| match session {
        Some(s) => serde_json::json!([{"name": "Mcp-Session-Id", "value": s}]),
        None => serde_json::json!([]),
    };
    let entries: Vec<serde_json::Value> = exchanges
        .iter()
        .map(|x| {
            let mut request = serde_json::json!({
                "method": x.method, "url": x.url, "httpVersion": "HTTP/1.1",
                "headers": header(x.session_sent), "queryString": [], "cookies": [],
                "headersSize": -1, "bodySize": -1,
            });
            if let Some(body) = x.body {
                request["postData"] = serde_json::json!({"mimeType": "application/json", "text": body});
            }
            serde_json::json!({
                "startedDateTime": "2026-12-04T21:00:00.000Z", "time": 1,
                "request": request,
                "response": {
                    "status": if x.response.is_empty() { 202 } else { 200 },
                    "statusText": if x.response.is_empty() { "Accepted" } else { "OK" }, "httpVersion": "HTTP/1.1",
                    "headers": header(x.session_given), "cookies": [],
                    "content": {"size": x.response.len(), "mimeType": x.mime, "text": x.response},
                    "redirectURL": "", "headersSize": -1, "bodySize": -1,
                },
                "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0},
            })
        })
        .collect();
    let doc =
        serde_json::json!({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": entries}});
    serde_json::to_string_pretty(&doc).expect("JSON")
}

/// `har` written as `NAME.har` in a fresh directory and judged by the
/// bundled catalogs (of `protocol`, when given).
fn traffic_har(name: &str, har: &str, protocol: Option<&str>) -> Output {
    let dir = scratch(name);
    let file = format!("{name}.har");
    write_files(&dir, &[(&file, har.as_bytes())]);
    let catalog = root().join("protocols");
    let mut args = vec!["traffic", &file, "--catalog", catalog.to_str().expect("utf-8")];
    if let Some(p) = protocol {
        args.extend_from_slice(&["--protocol", p]);
    }
    run_in(bin!(), &dir, &args)
}

/// Two MCP Streamable HTTP sessions over one HAR, told apart by their
/// `Mcp-Session-Id` (given by each `initialize` response, sent by every
/// request after it): each server sends a request of id 0 on its GET
/// stream, and each client's answer of id 0 pairs within its own session.
#[test]
fn an_mcp_http_har_keeps_its_sessions_apart() {
    let init = |n: u8| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{"sampling":{{}},"roots":{{}}}},"clientInfo":{{"name":"c{n}","version":"1"}}}}}}"#
        )
    };
    let init_result = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#;
    let sampling = event_stream(&[
        r#"{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}}"#,
    ]);
    let roots = event_stream(&[r#"{"jsonrpc":"2.0","id":0,"method":"roots/list"}"#]);
    let sampled =
        r#"{"jsonrpc":"2.0","id":0,"result":{"role":"assistant","content":{"type":"text","text":"ok"},"model":"m"}}"#;
    let listed = r#"{"jsonrpc":"2.0","id":0,"result":{"roots":[{"uri":"file:///tmp/project"}]}}"#;
    /// The server's stream of its own requests, the GET of `session`.
    fn get<'a>(session: &'a str, stream: &'a str) -> Exchange<'a> {
        Exchange {
            method: "GET",
            url: "http://127.0.0.1:9999/mcp",
            body: None,
            session_sent: Some(session),
            session_given: None,
            mime: "text/event-stream",
            response: stream,
        }
    }
    /// The client's answer POSTed in `session`, accepted with no body.
    fn answer<'a>(session: &'a str, body: &'a str) -> Exchange<'a> {
        Exchange { session_sent: Some(session), mime: "", ..post(body, "") }
    }
    let (a, b) = (init(1), init(2));
    let exchanges = [
        Exchange { session_given: Some("sess-a"), ..post(&a, init_result) },
        Exchange { session_given: Some("sess-b"), ..post(&b, init_result) },
        get("sess-a", &sampling),
        get("sess-b", &roots),
        answer("sess-a", sampled),
        answer("sess-b", listed),
    ];
    let doc = har(&exchanges);
    assert!(doc.contains(r#""name": "Mcp-Session-Id","#), "{doc}");
    let out = traffic_har("mcp-sessions", &doc, Some("mcp@2025-11-25"));
    expect(
        &out,
        0,
        "[PASS] mcp.initialize.request@2025.11.25 <- mcp-sessions.har#1
[PASS] mcp.initialize.response@2025.11.25 <- mcp-sessions.har#1
[PASS] mcp.initialize.request@2025.11.25 <- mcp-sessions.har#2
[PASS] mcp.initialize.response@2025.11.25 <- mcp-sessions.har#2
[PASS] mcp.sampling/createMessage.request@2025.11.25 <- mcp-sessions.har#3[event 1]
[PASS] mcp.roots/list.request@2025.11.25 <- mcp-sessions.har#4[event 1]
[PASS] mcp.sampling/createMessage.response@2025.11.25 <- mcp-sessions.har#5
[PASS] mcp.roots/list.response@2025.11.25 <- mcp-sessions.har#6
traffic mcp@2025-11-25: 8 messages, 8 passed, 0 failed
",
    );
    // The same capture without its session headers: the answers of id 0
    // pair with the latest server request of id 0, session b's roots/list.
    let plain: Vec<Exchange> =
        exchanges.into_iter().map(|x| Exchange { session_sent: None, session_given: None, ..x }).collect();
    let out = traffic_har("mcp-no-sessions", &har(&plain), Some("mcp@2025-11-25"));
    let fails: Vec<&str> = out.stdout.lines().skip(6).collect();
    assert_eq!(
        fails,
        [
            "[FAIL] mcp.roots/list.response@2025.11.25 <- mcp-no-sessions.har#5",
            "  ERROR field.required result.roots: required field is missing",
            "[FAIL] mcp.sampling/createMessage.response@2025.11.25 <- mcp-no-sessions.har#6",
            "  ERROR field.required result.content: required field is missing",
            "  ERROR field.required result.model: required field is missing",
            "  ERROR field.required result.role: required field is missing",
            "traffic mcp@2025-11-25: 8 messages, 6 passed, 2 failed; field.required 4",
        ],
        "{}",
        out.stdout
    );
    assert_eq!(out.code, 1);
}

/// An A2A 0.3 agent served at the older card path, `/.well-known/agent.json`:
/// the GET is its card (and tells the revision); a `tasks/resubscribe`
/// stream's events are each judged by its streaming response contract, an
/// invalid one failing alone.
#[test]
fn a_har_reads_the_older_card_path_and_a_resubscribe_stream() {
    let card = r#"{"name":"Echo","description":"echoes","url":"http://127.0.0.1:9999/","version":"1.0.0","protocolVersion":"0.3.0","capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"echo","name":"echo","description":"echo","tags":["echo"]}]}"#;
    let stream = event_stream(&[
        r#"{"jsonrpc":"2.0","id":"r1","result":{"kind":"status-update","taskId":"t1","contextId":"c1","status":{"state":"working"},"final":false}}"#,
        r#"{"jsonrpc":"2.0","id":"r1","result":{"kind":"artifact-update","taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","parts":[{"kind":"text","text":7}]}}}"#,
        r#"{"jsonrpc":"2.0","id":"r1","result":{"kind":"status-update","taskId":"t1","contextId":"c1","status":{"state":"completed"},"final":true}}"#,
    ]);
    let exchanges = [
        Exchange {
            method: "GET",
            url: "http://127.0.0.1:9999/.well-known/agent.json",
            body: None,
            session_sent: None,
            session_given: None,
            mime: "application/json",
            response: card,
        },
        Exchange {
            mime: "text/event-stream",
            ..post(r#"{"jsonrpc":"2.0","id":"r1","method":"tasks/resubscribe","params":{"id":"t1"}}"#, &stream)
        },
    ];
    let out = traffic_har("a2a-resubscribe", &har(&exchanges), None);
    assert_eq!(
        out.stderr,
        "note: protocol a2a@0.3.0, from the agent card at a2a-resubscribe.har#1 (protocolVersion 0.3.0)\n"
    );
    expect(
        &out,
        1,
        "[PASS] a2a.agent_card@0.3.0 <- a2a-resubscribe.har#1
[PASS] a2a.tasks/resubscribe.request@0.3.0 <- a2a-resubscribe.har#2
[PASS] a2a.tasks/resubscribe.response@0.3.0 <- a2a-resubscribe.har#2[event 1]
[FAIL] a2a.tasks/resubscribe.response@0.3.0 <- a2a-resubscribe.har#2[event 2]
  ERROR field.type result.artifact.parts[0].text: expected string, found integer
[PASS] a2a.tasks/resubscribe.response@0.3.0 <- a2a-resubscribe.har#2[event 3]
traffic a2a@0.3.0: 5 messages, 4 passed, 1 failed; field.type 1
",
    );
}

/// A2A 1.0's `SubscribeToTask`: every event judged by its streaming
/// response contract until the last, an invalid one failing alone.
#[test]
fn a_subscribe_to_task_stream_is_judged_event_by_event() {
    let lines: Vec<String> = [
        r#"{"jsonrpc":"2.0","id":7,"method":"SubscribeToTask","params":{"id":"t1"}}"#,
        r#"{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}}"#,
        r#"{"jsonrpc":"2.0","id":7,"result":{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","parts":[{"text":7}]}}}}"#,
        r#"{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}}"#,
        r#"{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}}"#,
    ]
    .map(String::from)
    .to_vec();
    let out = traffic("subscribe-1.0", &lines, "a2a@1.0.1", &[]);
    expect(
        &out,
        1,
        "[PASS] a2a.SubscribeToTask.request@1.0.1 <- cap.jsonl:1
[PASS] a2a.SubscribeToTask.response@1.0.1 <- cap.jsonl:2
[FAIL] a2a.SubscribeToTask.response@1.0.1 <- cap.jsonl:3
  ERROR field.type result.artifactUpdate.artifact.parts[0].text: expected string, found integer
[PASS] a2a.SubscribeToTask.response@1.0.1 <- cap.jsonl:4
[UNPAIRED] (unrouted) <- cap.jsonl:5
  WARNING route.id id: no request with id 7 is waiting for a response in this file
traffic a2a@1.0.1: 5 messages, 3 passed, 1 unpaired, 1 failed; field.type 1, route.id 1
",
    );
}

/// A stream cut off before its final event (no `final: true` in the
/// entry's event stream) ends with its HAR entry: a later response of its
/// id pairs with nothing (it paired with the stream, and passed, when the
/// stream waited on).
#[test]
fn a_har_stream_without_its_final_event_ends_with_its_entry() {
    let stream = event_stream(&[
        r#"{"jsonrpc":"2.0","id":"s1","result":{"kind":"task","id":"t1","contextId":"c1","status":{"state":"submitted"}}}"#,
        r#"{"jsonrpc":"2.0","id":"s1","result":{"kind":"status-update","taskId":"t1","contextId":"c1","status":{"state":"working"},"final":false}}"#,
    ]);
    let task = r#"{"jsonrpc":"2.0","id":"s1","result":{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}}"#;
    let exchanges = [
        Exchange {
            mime: "text/event-stream",
            ..post(
                r#"{"jsonrpc":"2.0","id":"s1","method":"message/stream","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"hi"}]}}}"#,
                &stream,
            )
        },
        // The server answers tasks/get "g1" under the stream's id.
        post(r#"{"jsonrpc":"2.0","id":"g1","method":"tasks/get","params":{"id":"t1"}}"#, task),
    ];
    let out = traffic_har("a2a-cut-stream", &har(&exchanges), Some("a2a@0.3.0"));
    expect(
        &out,
        0,
        r#"[PASS] a2a.message/stream.request@0.3.0 <- a2a-cut-stream.har#1
[PASS] a2a.message/stream.response@0.3.0 <- a2a-cut-stream.har#1[event 1]
[PASS] a2a.message/stream.response@0.3.0 <- a2a-cut-stream.har#1[event 2]
[PASS] a2a.tasks/get.request@0.3.0 <- a2a-cut-stream.har#2
[UNPAIRED] (unrouted) <- a2a-cut-stream.har#2
  WARNING route.id id: no request with id "s1" is waiting for a response in this file
traffic a2a@0.3.0: 5 messages, 4 passed, 1 unpaired, 0 failed; route.id 1
"#,
    );
}

/// The frame of every revision against its official schema
/// (`protocols/vendor/mcp/REV/schema.json`): `RequestId` is a string or an
/// integer in each (`5.5` refused); `JSONRPCError` requires `id` up to
/// 2025-06-18, `JSONRPCErrorResponse` does not from 2025-11-25; only
/// 2025-03-26's `JSONRPCMessage` holds a batch. A2A has no batches.
#[test]
fn the_frame_of_each_revision_is_its_schemas() {
    let mcp: Vec<String> = [
        r#"{"jsonrpc":"2.0","id":5.5,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#,
        r#"[{"jsonrpc":"2.0","id":8,"method":"tools/list"}]"#,
    ]
    .map(String::from)
    .to_vec();
    // Per revision: whether an error may leave out its id, whether a batch
    // is a message, and the summary line's tail.
    let table = [
        ("2024-11-05", "2024.11.5", false, false, "0 passed, 3 failed; jsonrpc.batch 1, jsonrpc.shape 2"),
        ("2025-03-26", "2025.3.26", false, true, "1 passed, 2 failed; jsonrpc.shape 2"),
        ("2025-06-18", "2025.6.18", false, false, "0 passed, 3 failed; jsonrpc.batch 1, jsonrpc.shape 2"),
        ("2025-11-25", "2025.11.25", true, false, "1 passed, 2 failed; jsonrpc.batch 1, jsonrpc.shape 1"),
        ("2026-07-28", "2026.7.28", true, false, "1 passed, 2 failed; jsonrpc.batch 1, jsonrpc.shape 1"),
    ];
    for (revision, semver, error_without_id, batches, summary) in table {
        let mut want = format!(
            "[FAIL] (unrouted) <- cap.jsonl:1\n  ERROR jsonrpc.shape id: a request id is a string or an integer in mcp@{revision}, found 5.5\n"
        );
        want += &if error_without_id {
            format!("[PASS] mcp.error.response@{semver} <- cap.jsonl:2\n")
        } else {
            format!("[FAIL] (unrouted) <- cap.jsonl:2\n  ERROR jsonrpc.shape id: required member is missing (a response names the request it answers; mcp@{revision} requires it of an error too)\n")
        };
        want += &if batches {
            format!("[PASS] mcp.tools/list.request@{semver} <- cap.jsonl:3[0]\n")
        } else {
            format!("[FAIL] (unrouted) <- cap.jsonl:3\n  ERROR jsonrpc.batch <message>: a batch of 1 message: mcp@{revision} has no batches (each message is sent on its own)\n")
        };
        want += &format!("traffic mcp@{revision}: 3 messages, {summary}\n");
        let out = traffic(&format!("schema-frame-{revision}"), &mcp, &format!("mcp@{revision}"), &[]);
        expect(&out, 1, &want);
    }
    for (revision, method) in [("0.3.0", "tasks/get"), ("1.0.1", "GetTask")] {
        let batch = format!(r#"[{{"jsonrpc":"2.0","id":8,"method":"{method}","params":{{"id":"t1"}}}}]"#);
        let out = traffic(&format!("schema-frame-a2a-{revision}"), &[batch], &format!("a2a@{revision}"), &[]);
        let want = format!(
            "[FAIL] (unrouted) <- cap.jsonl:1
  ERROR jsonrpc.batch <message>: a batch of 1 message: a2a@{revision} has no batches (each message is sent on its own)
traffic a2a@{revision}: 1 message, 0 passed, 1 failed; jsonrpc.batch 1
"
        );
        expect(&out, 1, &want);
    }
}
