//! `traffic` (SPEC §12): raw JSON-RPC 2.0 captures routed to a protocol
//! catalog, exact outputs. The catalogs are small ones written here (and one
//! imported from the official MCP 2025-06-18 schema), so the tests do not
//! depend on the bundled `protocols/`.

use std::path::PathBuf;

use proptest::prelude::*;
use protocolarc::traffic::Traffic;
use protocolarc::Catalog;
use protocolarc_tests::{bin, data, run_in, scratch, write_files, Output};

/// A schema-form contract file.
fn contract(name: &str, revision: &str, direction: &str, schema: &str) -> String {
    format!(r#"{{"name": "{name}", "revision": "{revision}", "direction": "{direction}", "schema": {schema}}}"#)
}

const ERROR_SCHEMA: &str = r#"{"type": "object", "required": ["error"], "properties": {"error": {"type": "object", "required": ["code", "message"], "properties": {"code": {"type": "integer"}, "message": {"type": "string"}}}}}"#;

/// `protocols/mcp/2025-06-18` (ping, tools/call, initialize, a notification,
/// the error) and `protocols/mcp/2025-03-26` (ping and initialize only) under
/// a fresh scratch directory.
fn catalog(name: &str) -> PathBuf {
    let dir = scratch(name);
    let new = "2025.6.18";
    let old = "2025.3.26";
    let files: Vec<(String, String)> = vec![
        (
            "protocols/mcp/2025-06-18/ping.request.json".into(),
            contract(
                "mcp.ping.request",
                new,
                "request",
                r#"{"type": "object", "required": ["method"], "properties": {"method": {"const": "ping"}}}"#,
            ),
        ),
        (
            "protocols/mcp/2025-06-18/ping.response.json".into(),
            contract("mcp.ping.response", new, "response", r#"{"type": "object", "additionalProperties": false}"#),
        ),
        (
            "protocols/mcp/2025-06-18/tools_call.request.json".into(),
            contract(
                "mcp.tools/call.request",
                new,
                "request",
                r#"{"type": "object", "required": ["params"], "properties": {"params": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "arguments": {"type": "object"}}}}}"#,
            ),
        ),
        (
            "protocols/mcp/2025-06-18/tools_call.response.json".into(),
            contract(
                "mcp.tools/call.response",
                new,
                "response",
                r#"{"type": "object", "required": ["content"], "properties": {"content": {"type": "array"}, "isError": {"type": "boolean"}, "structuredContent": {"type": "object"}}}"#,
            ),
        ),
        (
            "protocols/mcp/2025-06-18/initialize.request.json".into(),
            contract("mcp.initialize.request", new, "request", r#"{"type": "object"}"#),
        ),
        (
            "protocols/mcp/2025-06-18/initialized.json".into(),
            contract(
                "mcp.notifications/initialized.request",
                new,
                "request",
                r#"{"type": "object", "not": {"required": ["id"]}}"#,
            ),
        ),
        ("protocols/mcp/2025-06-18/error.json".into(), contract("mcp.error.response", new, "response", ERROR_SCHEMA)),
        (
            "protocols/mcp/2025-03-26/ping.request.json".into(),
            contract("mcp.ping.request", old, "request", r#"{"type": "object"}"#),
        ),
        (
            "protocols/mcp/2025-03-26/initialize.request.json".into(),
            contract("mcp.initialize.request", old, "request", r#"{"type": "object"}"#),
        ),
        (
            "tools/get_weather.json".into(),
            contract(
                "weather.get_weather",
                "1.0.0",
                "request",
                r#"{"type": "object", "required": ["location"], "properties": {"location": {"type": "string"}}}"#,
            ),
        ),
        (
            "tools/get_weather.output.json".into(),
            contract(
                "weather.get_weather.output",
                "1.0.0",
                "response",
                r#"{"type": "object", "required": ["temperature"], "properties": {"temperature": {"type": "number"}}}"#,
            ),
        ),
    ];
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, c)| (p.as_str(), c.as_bytes())).collect();
    write_files(&dir, &files);
    dir
}

/// Runs `traffic` on `capture` (written as `cap.jsonl`) in a fresh catalog.
fn traffic(name: &str, capture: &str, args: &[&str]) -> Output {
    let dir = catalog(name);
    write_files(&dir, &[("cap.jsonl", capture.as_bytes())]);
    let mut all = vec!["traffic", "cap.jsonl"];
    all.extend_from_slice(args);
    run_in(bin!(), &dir, &all)
}

fn expect(out: &Output, code: i32, stdout: &str) {
    assert_eq!(out.stdout, stdout, "stderr: {}", out.stderr);
    assert_eq!(out.code, code, "stderr: {}", out.stderr);
}

const P: &[&str] = &["--protocol", "mcp@2025-06-18"];

#[test]
fn requests_and_notifications_are_routed_by_method() {
    let capture = r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}
{"jsonrpc": "2.0", "method": "notifications/initialized"}

{"jsonrpc": "2.0", "method": "notifications/initialized", "id": 4}
{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": 5}}
"#;
    let out = traffic("routing", capture, P);
    expect(
        &out,
        1,
        "[PASS] mcp.ping.request@2025.6.18 <- cap.jsonl:1
[PASS] mcp.notifications/initialized.request@2025.6.18 <- cap.jsonl:2
[FAIL] mcp.notifications/initialized.request@2025.6.18 <- cap.jsonl:4
  ERROR field.not <message>: value matches the schema under 'not'
[FAIL] mcp.tools/call.request@2025.6.18 <- cap.jsonl:5
  ERROR field.type params.name: expected string, found integer
traffic mcp@2025-06-18: 4 messages, 2 passed, 2 failed; field.not 1, field.type 1
",
    );
    assert_eq!(out.stderr, "");
}

/// Requests as most serializers write them (no space: the routing scan
/// reads the method at once) and spaced (member by member) get the same
/// verdicts, and an open map (`arguments`: an object nothing else
/// constrains, read as a skipped value) still has its repeated keys, its
/// type and its syntax judged, at every depth; two jobs print the same bytes.
#[test]
fn compact_and_spaced_requests_judge_their_open_maps_alike() {
    let compact = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":1,"b":{"c":[{"d":2,"d":3}]},"a":4}}}
{"jsonrpc":"2.0","id":"r-2","method":"tools/call","params":{"name":"x","arguments":[1]}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":{"a":tru}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x","arguments":{"ok":true,"\u006fk":false}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x","arguments":{"ok":true}}}
"#;
    let spaced = compact.replace(r#""id":"#, r#""id" : "#).replace(r#",""#, r#", ""#);
    assert_ne!(spaced, compact);
    // serde_json's column of the bad literal: the byte after `tru`.
    let column = |capture: &str| capture.lines().nth(2).and_then(|l| l.find("tru}")).expect("line 3") + 4;
    let want = |file: &str, column: usize| {
        format!(
            "[FAIL] mcp.tools/call.request@2025.6.18 <- {file}:1
  ERROR json.duplicate_key params.arguments.a: key appears more than once in its object
  ERROR json.duplicate_key params.arguments.b.c[0].d: key appears more than once in its object
[FAIL] mcp.tools/call.request@2025.6.18 <- {file}:2
  ERROR field.type params.arguments: expected object, found array
[FAIL] (unrouted) <- {file}:3
  ERROR jsonrpc.shape <message>: not JSON: expected ident at line 1 column {column}
[FAIL] mcp.tools/call.request@2025.6.18 <- {file}:4
  ERROR json.duplicate_key params.arguments.ok: key appears more than once in its object
[PASS] mcp.tools/call.request@2025.6.18 <- {file}:5
traffic mcp@2025-06-18: 5 messages, 1 passed, 4 failed; field.type 1, json.duplicate_key 3, jsonrpc.shape 1
"
        )
    };
    assert_eq!(column(compact), 88);
    let out = traffic("open-maps", compact, P);
    expect(&out, 1, &want("cap.jsonl", 88));
    let two = traffic("open-maps-2", compact, &["--protocol", "mcp@2025-06-18", "--jobs", "2"]);
    expect(&two, 1, &want("cap.jsonl", 88));
    // Spaced, only the bad literal's column moves.
    let spaced_out = traffic("open-maps-spaced", &spaced, P);
    expect(&spaced_out, 1, &want("cap.jsonl", column(&spaced)));
}

#[test]
fn a_batch_is_checked_element_by_element() {
    let capture = r#"[{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 2, "method": "ping", "extra": 1}, 7]
[]
[{"jsonrpc": "2.0", "id": 1, "result": {}}, {"jsonrpc": "2.0", "id": 2, "result": {"x": 1}}]
"#;
    // 2025-03-26 is the one MCP revision whose JSONRPCMessage has batches.
    let dir = catalog("batch");
    let old =
        contract("mcp.ping.response", "2025.3.26", "response", r#"{"type": "object", "additionalProperties": false}"#);
    write_files(
        &dir,
        &[("cap.jsonl", capture.as_bytes()), ("protocols/mcp/2025-03-26/ping.response.json", old.as_bytes())],
    );
    let out = run_in(bin!(), &dir, &["traffic", "cap.jsonl", "--protocol", "mcp@2025-03-26"]);
    expect(
        &out,
        1,
        "[PASS] mcp.ping.request@2025.3.26 <- cap.jsonl:1[0]
[PASS] mcp.ping.request@2025.3.26 <- cap.jsonl:1[1]
[FAIL] (unrouted) <- cap.jsonl:1[2]
  ERROR jsonrpc.shape <message>: a JSON-RPC message is an object, found a number
[FAIL] (unrouted) <- cap.jsonl:2
  ERROR jsonrpc.shape <message>: an empty batch holds no message
[PASS] mcp.ping.response@2025.3.26 <- cap.jsonl:3[0]
[FAIL] mcp.ping.response@2025.3.26 <- cap.jsonl:3[1]
  ERROR field.additionalProperties result.x: key is not allowed: the object is closed (additionalProperties: false)
traffic mcp@2025-03-26: 6 messages, 3 passed, 3 failed; field.additionalProperties 1, jsonrpc.shape 2
",
    );
    // 2025-06-18 removed batches: each batch line is refused whole.
    let out = run_in(bin!(), &dir, &["traffic", "cap.jsonl", "--protocol", "mcp@2025-06-18"]);
    expect(
        &out,
        1,
        "[FAIL] (unrouted) <- cap.jsonl:1
  ERROR jsonrpc.batch <message>: a batch of 3 messages: mcp@2025-06-18 has no batches (each message is sent on its own)
[FAIL] (unrouted) <- cap.jsonl:2
  ERROR jsonrpc.shape <message>: an empty batch holds no message
[FAIL] (unrouted) <- cap.jsonl:3
  ERROR jsonrpc.batch <message>: a batch of 2 messages: mcp@2025-06-18 has no batches (each message is sent on its own)
traffic mcp@2025-06-18: 3 messages, 0 passed, 3 failed; jsonrpc.batch 2, jsonrpc.shape 1
",
    );
}

#[test]
fn responses_pair_with_the_latest_unanswered_request_of_their_id() {
    // Two requests with id 1 in flight: the first response answers the later
    // one (tools/call, whose contract accepts it; a raw line does not say
    // who sent it, so both were candidates: route.ambiguous), the second
    // the earlier one (ping).
    let capture = r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}
{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_weather"}}
{"jsonrpc": "2.0", "id": 1, "result": {"content": []}}
{"jsonrpc": "2.0", "id": 1, "result": {"content": []}}
{"jsonrpc": "2.0", "id": "1", "method": "ping"}
{"jsonrpc": "2.0", "id": "1", "result": {}}
"#;
    let out = traffic("pairing", capture, P);
    expect(
        &out,
        1,
        "[PASS] mcp.ping.request@2025.6.18 <- cap.jsonl:1
[PASS] mcp.tools/call.request@2025.6.18 <- cap.jsonl:2
[PASS] mcp.tools/call.response@2025.6.18 <- cap.jsonl:3
  WARNING route.ambiguous id: id 1 is pending for two requests, tools/call and ping (a raw line does not say who sent which): paired with tools/call
[FAIL] mcp.ping.response@2025.6.18 <- cap.jsonl:4
  ERROR field.additionalProperties result.content: key is not allowed: the object is closed (additionalProperties: false)
[PASS] mcp.ping.request@2025.6.18 <- cap.jsonl:5
[PASS] mcp.ping.response@2025.6.18 <- cap.jsonl:6
traffic mcp@2025-06-18: 6 messages, 5 passed, 1 failed; field.additionalProperties 1, route.ambiguous 1
",
    );
}

/// A string id pairs by its decoded text, whichever side spells it with an
/// escape (the exact reader's decoded id and the quick way's borrowed bytes
/// meet in one key); a number id by its spelling (and `7.0` is no MCP id: `RequestId` is an integer), and a
/// number never pairs a string. One job and two give the same bytes.
#[test]
fn ids_pair_by_decoded_text_and_numbers_as_written() {
    let capture = r#"{"jsonrpc":"2.0","id":"\u0061b","method":"ping"}
{"jsonrpc":"2.0","id":"ab","result":{}}
{"jsonrpc":"2.0","id":"cd","method":"ping"}
{"jsonrpc":"2.0","id":"\u0063d","result":{}}
{"jsonrpc":"2.0","id":7,"method":"ping"}
{"jsonrpc":"2.0","id":"7","result":{}}
{"jsonrpc":"2.0","id":7.0,"result":{}}
{"jsonrpc":"2.0","id":7,"result":{}}
"#;
    // The capture really spells the ids with escapes.
    assert!(capture.contains(r#""id":"\u0061b""#) && capture.contains(r#""id":"\u0063d""#));
    let out = traffic("id-spelling", capture, P);
    expect(
        &out,
        1,
        r#"[PASS] mcp.ping.request@2025.6.18 <- cap.jsonl:1
[PASS] mcp.ping.response@2025.6.18 <- cap.jsonl:2
[PASS] mcp.ping.request@2025.6.18 <- cap.jsonl:3
[PASS] mcp.ping.response@2025.6.18 <- cap.jsonl:4
[PASS] mcp.ping.request@2025.6.18 <- cap.jsonl:5
[UNPAIRED] (unrouted) <- cap.jsonl:6
  WARNING route.id id: no request with id "7" is waiting for a response in this file
[FAIL] (unrouted) <- cap.jsonl:7
  ERROR jsonrpc.shape id: a response id is a string or an integer in mcp@2025-06-18, found 7.0
[PASS] mcp.ping.response@2025.6.18 <- cap.jsonl:8
traffic mcp@2025-06-18: 8 messages, 6 passed, 1 unpaired, 1 failed; jsonrpc.shape 1, route.id 1
"#,
    );
    let mut two = P.to_vec();
    two.extend_from_slice(&["--jobs", "2"]);
    let jobs = traffic("id-spelling-2", capture, &two);
    assert_eq!((jobs.stdout, jobs.code), (out.stdout, out.code));
}

#[test]
fn a_response_without_its_request_is_unpaired_never_passed() {
    let dir = catalog("orphan");
    // Pairing is per file: the request in a.jsonl leaves b.jsonl's response an orphan.
    write_files(
        &dir,
        &[
            ("a.jsonl", b"{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"ping\"}\n"),
            ("b.jsonl", b"{\"jsonrpc\": \"2.0\", \"id\": 7, \"result\": {\"content\": [1]}}\n{\"jsonrpc\": \"2.0\", \"id\": 8, \"result\": 42}\n"),
        ],
    );
    let out = run_in(bin!(), &dir, &["traffic", "a.jsonl", "b.jsonl", "--protocol", "mcp@2025-06-18"]);
    expect(
        &out,
        1,
        "[PASS] mcp.ping.request@2025.6.18 <- a.jsonl:1
[UNPAIRED] (unrouted) <- b.jsonl:1
  WARNING route.id id: no request with id 7 is waiting for a response in this file
[FAIL] (unrouted) <- b.jsonl:2
  ERROR route.response result: none of the 2 response contracts of mcp@2025-06-18 accepts this result
  WARNING route.id id: no request with id 8 is waiting for a response in this file
traffic mcp@2025-06-18: 3 messages, 1 passed, 1 unpaired, 1 failed; route.id 2, route.response 1
",
    );
    // Unpaired is not a failure: exit 0.
    write_files(&dir, &[("c.jsonl", b"{\"jsonrpc\": \"2.0\", \"id\": 7, \"result\": {}}\n")]);
    let out = run_in(bin!(), &dir, &["traffic", "c.jsonl", "--protocol", "mcp@2025-06-18", "--quiet"]);
    expect(&out, 0, "traffic mcp@2025-06-18: 1 message, 0 passed, 1 unpaired, 0 failed; route.id 1\n");
}

#[test]
fn error_responses_are_judged_whole_by_the_error_contract() {
    let capture = r#"{"jsonrpc": "2.0", "id": 3, "method": "ping"}
{"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "Method not found"}}
{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}
{"jsonrpc": "2.0", "id": 4, "error": {"code": "E1"}}
"#;
    let out = traffic("error", capture, P);
    expect(
        &out,
        1,
        "[PASS] mcp.ping.request@2025.6.18 <- cap.jsonl:1
[PASS] mcp.error.response@2025.6.18 <- cap.jsonl:2
[PASS] mcp.error.response@2025.6.18 <- cap.jsonl:3
[FAIL] mcp.error.response@2025.6.18 <- cap.jsonl:4
  ERROR field.type error.code: expected integer, found string
  ERROR field.required error.message: required field is missing
  WARNING route.id id: no request with id 4 is waiting for a response in this file
traffic mcp@2025-06-18: 4 messages, 3 passed, 1 failed; field.required 1, field.type 1, route.id 1
",
    );
}

#[test]
fn an_unknown_method_is_route_method_and_its_response_too() {
    let capture = r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/cal", "params": {}}
{"jsonrpc": "2.0", "id": 1, "result": {}}
"#;
    let out = traffic("unknown-method", capture, P);
    expect(
        &out,
        1,
        "[FAIL] (unrouted) <- cap.jsonl:1
  ERROR route.method method: no contract mcp.tools/cal.request in the catalog of mcp@2025-06-18: the method is unknown to this protocol revision
[FAIL] (unrouted) <- cap.jsonl:2
  ERROR route.method result: no contract mcp.tools/cal.response in the catalog of mcp@2025-06-18 judges the response to cap.jsonl:1
traffic mcp@2025-06-18: 2 messages, 0 passed, 2 failed; route.method 2
",
    );
}

#[test]
fn what_is_not_json_rpc_2_0_is_jsonrpc_shape() {
    let capture = "{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"ping\"}
{\"id\": 1, \"method\": \"ping\"}
{\"jsonrpc\": \"2.0\", \"id\": 1}
{\"jsonrpc\": \"2.0\", \"id\": [1], \"method\": \"ping\"}
{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {}, \"error\": {}}
{\"jsonrpc\": \"2.0\", \"method\": 5}
{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"method\": \"x\"}
{\"jsonrpc\": \"2.0\", \"result\": {}}
{\"jsonrpc\": \"2.0\", \"id\": null, \"result\": {}}
{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"result\": {}}
\"hello\"
not json at all
{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"
";
    let out = traffic("shape", capture, P);
    expect(
        &out,
        1,
        "[FAIL] (unrouted) <- cap.jsonl:1
  ERROR jsonrpc.shape jsonrpc: expected \"2.0\", found \"1.0\"
[FAIL] (unrouted) <- cap.jsonl:2
  ERROR jsonrpc.shape jsonrpc: required member is missing (JSON-RPC 2.0 messages carry \"jsonrpc\": \"2.0\")
[FAIL] (unrouted) <- cap.jsonl:3
  ERROR jsonrpc.shape <message>: neither 'method' (a request or notification) nor 'result' or 'error' (a response)
[FAIL] (unrouted) <- cap.jsonl:4
  ERROR jsonrpc.shape id: a request id is a string or a number, found an array
[FAIL] (unrouted) <- cap.jsonl:5
  ERROR jsonrpc.shape <message>: a response has 'result' or 'error', not both
[FAIL] (unrouted) <- cap.jsonl:6
  ERROR jsonrpc.shape method: expected a string, found 5
[FAIL] (unrouted) <- cap.jsonl:7
  ERROR json.duplicate_key method: key 'method' appears more than once: readers disagree on which wins
[FAIL] (unrouted) <- cap.jsonl:8
  ERROR jsonrpc.shape id: required member is missing (a response names the request it answers)
[FAIL] (unrouted) <- cap.jsonl:9
  ERROR jsonrpc.shape id: a success response answers a request: its id is not null
[FAIL] (unrouted) <- cap.jsonl:10
  ERROR jsonrpc.shape <message>: a message has either 'method' (a request) or 'result'/'error' (a response), not both
[FAIL] (unrouted) <- cap.jsonl:11
  ERROR jsonrpc.shape <message>: a JSON-RPC message is an object, found a string
[FAIL] (unrouted) <- cap.jsonl:12
  ERROR jsonrpc.shape <message>: not JSON: expected ident at line 1 column 2
[FAIL] (unrouted) <- cap.jsonl:13
  ERROR jsonrpc.shape <message>: not JSON: EOF while parsing an object at line 1 column 44
traffic mcp@2025-06-18: 13 messages, 0 passed, 13 failed; json.duplicate_key 1, jsonrpc.shape 12
",
    );
}

#[test]
fn tools_call_arguments_and_structured_content_follow_the_tool_contracts() {
    let capture = r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"location": "Paris"}}}
{"jsonrpc": "2.0", "id": 1, "result": {"content": [], "structuredContent": {"temperature": 21.5}}}
{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"location": 75}}}
{"jsonrpc": "2.0", "id": 2, "result": {"content": [], "structuredContent": {"temperature": "warm"}}}
{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather"}}
{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "launch"}}
{"jsonrpc": "2.0", "id": 3, "result": {"content": []}}
{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"location": "Oslo"}}}
{"jsonrpc": "2.0", "id": 5, "result": {"content": [], "isError": true}}
"#;
    let mut args = P.to_vec();
    args.extend(["--tools", "tools"]);
    let out = traffic("tools", capture, &args);
    expect(
        &out,
        1,
        "[PASS] mcp.tools/call.request@2025.6.18 + weather.get_weather@1.0.0 <- cap.jsonl:1
[PASS] mcp.tools/call.response@2025.6.18 + weather.get_weather.output@1.0.0 <- cap.jsonl:2
[FAIL] mcp.tools/call.request@2025.6.18 + weather.get_weather@1.0.0 <- cap.jsonl:3
  ERROR field.type params.arguments.location: expected string, found integer
[FAIL] mcp.tools/call.response@2025.6.18 + weather.get_weather.output@1.0.0 <- cap.jsonl:4
  ERROR field.type result.structuredContent.temperature: expected number, found string
[FAIL] mcp.tools/call.request@2025.6.18 + weather.get_weather@1.0.0 <- cap.jsonl:5
  ERROR field.required params.arguments.location: required field is missing
[PASS] mcp.tools/call.request@2025.6.18 <- cap.jsonl:6
  WARNING route.tool params.name: no tool contract is named *.launch
[FAIL] mcp.tools/call.response@2025.6.18 + weather.get_weather.output@1.0.0 <- cap.jsonl:7
  ERROR field.required result.structuredContent: required field is missing (the tool declares an output schema)
[PASS] mcp.tools/call.request@2025.6.18 + weather.get_weather@1.0.0 <- cap.jsonl:8
[PASS] mcp.tools/call.response@2025.6.18 <- cap.jsonl:9
traffic mcp@2025-06-18: 9 messages, 5 passed, 4 failed; field.required 2, field.type 2, route.tool 1
",
    );
    // Without --tools, only the protocol's contracts judge.
    let out = traffic("tools-off", capture, P);
    assert_eq!(out.code, 0, "{}", out.stdout);
}

#[test]
fn the_initialize_request_picks_the_protocol_revision() {
    // 2025-03-26 has no tools/call: routed there, the call is unknown.
    let capture = r#"{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-03-26"}}
{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}}
"#;
    let out = traffic("detect", capture, &[]);
    expect(
        &out,
        1,
        "[PASS] mcp.initialize.request@2025.3.26 <- cap.jsonl:1
[FAIL] (unrouted) <- cap.jsonl:2
  ERROR route.method method: no contract mcp.tools/call.request in the catalog of mcp@2025-03-26: the method is unknown to this protocol revision
traffic mcp@2025-03-26: 2 messages, 1 passed, 1 failed; route.method 1
",
    );
    assert_eq!(out.stderr, "note: protocol mcp@2025-03-26, from the initialize request at cap.jsonl:1\n");
    // No initialize: the newest MCP revision.
    let out = traffic(
        "detect-newest",
        "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"x\"}}\n",
        &[],
    );
    expect(
        &out,
        0,
        "[PASS] mcp.tools/call.request@2025.6.18 <- cap.jsonl:1\ntraffic mcp@2025-06-18: 1 message, 1 passed, 0 failed\n",
    );
    assert_eq!(out.stderr, "note: protocol mcp@2025-06-18 (no initialize request: the newest MCP revision)\n");
    // An initialize in a batch counts; a revision the catalog lacks is an input error.
    let out = traffic(
        "detect-missing",
        "[{\"jsonrpc\": \"2.0\", \"id\": 0, \"method\": \"initialize\", \"params\": {\"protocolVersion\": \"2024-11-05\"}}]\n",
        &[],
    );
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            3,
            "",
            "error: cap.jsonl:1: the initialize request asks for protocolVersion '2024-11-05', which the catalog protocols has no revision of (it has mcp@2025-03-26, mcp@2025-06-18); pick one with --protocol\n"
        )
    );
}

#[test]
fn usage_and_input_errors_exit_3() {
    let dir = catalog("usage");
    write_files(&dir, &[("cap.jsonl", b"{\"jsonrpc\": \"2.0\", \"method\": \"ping\"}\n")]);
    let out = run_in(bin!(), &dir, &["traffic", "cap.jsonl", "--protocol", "mcp@1999-01-01"]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (3, "error: unknown protocol 'mcp@1999-01-01': the catalog protocols has mcp@2025-03-26, mcp@2025-06-18\n")
    );
    let out = run_in(bin!(), &dir, &["traffic", "missing.jsonl"]);
    assert_eq!((out.code, out.stderr.as_str()), (3, "error: missing.jsonl: no such file or directory\n"));
    let out = run_in(bin!(), &dir, &["traffic", "cap.jsonl", "--catalog", "nowhere"]);
    assert_eq!(out.code, 3);
    assert!(
        out.stderr.starts_with("error: nowhere: cannot read the protocol catalog: no such file or directory"),
        "{}",
        out.stderr
    );
    let out = run_in(bin!(), &dir, &["traffic"]);
    assert_eq!(out.code, 3);
    let help = run_in(bin!(), &dir, &["traffic", "--help"]);
    assert_eq!(help.code, 0);
    for taught in [
        "FILE:LINE[i]",
        "the first MCP initialize request or A2A agent card",
        "--jobs N",
        "--tools DIR",
        "Examples:",
        "Exit codes:",
    ] {
        assert!(help.stdout.contains(taught), "--help lacks {taught:?}");
    }
    // A line over the cap stops the run; JSON output stays one document.
    write_files(&dir, &[("long.jsonl", b"{\"jsonrpc\": \"2.0\", \"method\": \"ping\"}\n{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"params\": {\"pad\": \"................................................\"}}\n")]);
    let out = std::process::Command::new(bin!())
        .args(["protocolarc", "traffic", "long.jsonl", "--protocol", "mcp@2025-06-18", "--format", "json"])
        .current_dir(&dir)
        .env("PROTOCOLARC_MAX_LINE_BYTES", "64")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    assert_eq!(
        doc["error"],
        "long.jsonl:2: line is longer than the limit of 64 bytes (PROTOCOLARC_MAX_LINE_BYTES raises it)"
    );
    assert_eq!(doc["summary"]["messages"], 1);
}

#[test]
fn json_output_is_one_object_and_quiet_keeps_failures() {
    let capture = r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}
{"jsonrpc": "2.0", "id": 1, "result": {"x": 1}}
"#;
    let out = traffic("json", capture, &["--protocol", "mcp@2025-06-18", "--format", "json"]);
    expect(
        &out,
        1,
        r#"{"format_version":1,"protocol":"mcp@2025-06-18","results":[
{"source":"cap.jsonl:1","contracts":["mcp.ping.request@2025.6.18"],"status":"pass","findings":[]},
{"source":"cap.jsonl:2","contracts":["mcp.ping.response@2025.6.18"],"status":"fail","findings":[{"severity":"error","rule":"field.additionalProperties","field":"result.x","message":"key is not allowed: the object is closed (additionalProperties: false)"}]}
],
"summary":{"messages":2,"passed":1,"unpaired":0,"failed":1,"rules":{"field.additionalProperties":1}}}
"#,
    );
    let out = traffic("quiet", capture, &["--protocol", "mcp@2025-06-18", "--quiet"]);
    expect(
        &out,
        1,
        "[FAIL] mcp.ping.response@2025.6.18 <- cap.jsonl:2
  ERROR field.additionalProperties result.x: key is not allowed: the object is closed (additionalProperties: false)
traffic mcp@2025-06-18: 2 messages, 1 passed, 1 failed; field.additionalProperties 1
",
    );
}

/// The real MCP 2025-06-18 schema, imported definition by definition into a
/// scratch catalog as the bundled catalog names its contracts, judges real
/// messages from the specification and two derived by one change each
/// (`tests/data/traffic/README.md`).
#[test]
fn real_mcp_messages_against_contracts_imported_from_the_official_schema() {
    let dir = scratch("real");
    let schema = data("mcp-history/2025-06-18/schema.json");
    let schema = schema.to_str().expect("utf-8 path");
    let defs = [
        ("InitializeRequest", "mcp.initialize.request", "request"),
        ("InitializeResult", "mcp.initialize.response", "response"),
        ("InitializedNotification", "mcp.notifications/initialized.request", "request"),
        ("CallToolRequest", "mcp.tools/call.request", "request"),
        ("CallToolResult", "mcp.tools/call.response", "response"),
        ("JSONRPCError", "mcp.error.response", "response"),
    ];
    for (def, name, direction) in defs {
        let out_file = format!("protocols/mcp/2025-06-18/{def}.json");
        std::fs::create_dir_all(dir.join("protocols/mcp/2025-06-18")).expect("mkdir");
        let out = run_in(
            bin!(),
            &dir,
            &[
                "import",
                "schema",
                schema,
                "--def",
                def,
                "--name",
                name,
                "--revision",
                "2025.6.18",
                "--direction",
                direction,
                "--out",
                &out_file,
            ],
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        // The committed copy (the README's transcript uses it) is what the import writes.
        let committed = data(&format!("traffic/{out_file}"));
        let committed = std::fs::read_to_string(&committed).expect("committed contract");
        assert_eq!(std::fs::read_to_string(dir.join(&out_file)).expect("imported"), committed, "{out_file}");
    }
    let capture = data("traffic/mcp-2025-06-18.jsonl");
    let out = run_in(bin!(), &dir, &["traffic", capture.to_str().expect("utf-8 path")]);
    expect(
        &out,
        1,
        "[PASS] mcp.initialize.request@2025.6.18 <- mcp-2025-06-18.jsonl:1
[PASS] mcp.initialize.response@2025.6.18 <- mcp-2025-06-18.jsonl:2
[PASS] mcp.notifications/initialized.request@2025.6.18 <- mcp-2025-06-18.jsonl:3
[PASS] mcp.tools/call.request@2025.6.18 <- mcp-2025-06-18.jsonl:4
[PASS] mcp.tools/call.response@2025.6.18 <- mcp-2025-06-18.jsonl:5
[FAIL] mcp.tools/call.request@2025.6.18 <- mcp-2025-06-18.jsonl:6
  ERROR field.type params.name: expected string, found integer
[FAIL] mcp.tools/call.response@2025.6.18 <- mcp-2025-06-18.jsonl:7
  ERROR field.type result.isError: expected boolean, found string
traffic mcp@2025-06-18: 7 messages, 5 passed, 2 failed; field.type 2
",
    );
    assert_eq!(out.stderr, "note: protocol mcp@2025-06-18, from the initialize request at mcp-2025-06-18.jsonl:1\n");
}

/// The bundled catalog, once it is there: the same capture passes and fails
/// on the same lines (skipped while `protocols/mcp/2025-06-18` is absent).
#[test]
fn real_mcp_messages_against_the_bundled_catalog() {
    let root = protocolarc_tests::root();
    if !root.join("protocols/mcp/2025-06-18").is_dir() {
        return;
    }
    let capture = data("traffic/mcp-2025-06-18.jsonl");
    let out = run_in(bin!(), &root, &["traffic", capture.to_str().expect("utf-8 path"), "--quiet"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let failed: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("[FAIL]")).collect();
    assert_eq!(failed.len(), 2, "{}", out.stdout);
    assert!(
        failed[0].ends_with("mcp-2025-06-18.jsonl:6") && failed[1].ends_with("mcp-2025-06-18.jsonl:7"),
        "{}",
        out.stdout
    );
}

/// The protocol and tool catalogs of [`catalog`], loaded once.
fn catalogs() -> &'static (Catalog, Catalog) {
    static ONCE: std::sync::OnceLock<(Catalog, Catalog)> = std::sync::OnceLock::new();
    ONCE.get_or_init(|| {
        let dir = catalog("property");
        let protocol = Catalog::load(&[dir.join("protocols/mcp/2025-06-18")]).expect("catalog");
        let tools = Catalog::load(&[dir.join("tools")]).expect("tools");
        (protocol, tools)
    })
}

const SEEDS: &[&[u8]] = &[
    br#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"location": "x"}}}"#,
    br#"{"jsonrpc": "2.0", "id": 1, "result": {"content": [], "structuredContent": {"temperature": 1}}}"#,
    br#"[{"jsonrpc": "2.0", "id": "a", "method": "ping"}, {"jsonrpc": "2.0", "id": "a", "error": {"code": 1, "message": "m"}}]"#,
    br#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}}"#,
];

proptest! {
    #![proptest_config(crate::strategies::config(400))]

    /// Damaged lines and random bytes: a verdict per message, never a panic.
    #[test]
    fn no_line_panics(seed in 0..SEEDS.len(), how in 0usize..7, at in 0usize..200, noise in proptest::collection::vec(any::<u8>(), 0..40)) {
        let (catalog, tools) = catalogs();
        let mut t = Traffic::new("mcp", "mcp@2025-06-18", catalog, Some(tools));
        for line in [crate::strategies::damaged(SEEDS[seed], how, at), noise.clone()] {
            let verdicts = t.line("cap.jsonl:1", &line);
            for j in &verdicts {
                prop_assert!(j.source.to_string().starts_with("cap.jsonl:1"));
            }
            let _ = protocolarc::traffic::initialize_version(&line);
        }
    }
}

#[test]
fn damaged_captures_exit_0_or_1() {
    let dir = catalog("damaged");
    let mut capture = Vec::new();
    for (i, seed) in SEEDS.iter().enumerate() {
        for at in 0..seed.len() {
            capture.extend(crate::strategies::damaged(seed, i + at, at * 7 + i));
            capture.push(b'\n');
        }
    }
    capture.extend(b"\xff\xfe\x00garbage\n[[[[[[[[[[\n{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"params\": ");
    capture.extend(std::iter::repeat_n(b'[', 5000));
    capture.push(b'\n');
    write_files(&dir, &[("cap.jsonl", &capture)]);
    for format in ["text", "json"] {
        let out = run_in(bin!(), &dir, &["traffic", "cap.jsonl", "--tools", "tools", "--format", format]);
        assert!([0, 1].contains(&out.code), "exit {}: {}", out.code, out.stderr);
    }
    // The library agrees, with tool contracts too.
    let (catalog, tools) = catalogs();
    let mut t = Traffic::new("mcp", "mcp@2025-06-18", catalog, Some(tools));
    let verdicts: usize = capture
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(n, line)| t.line(&format!("cap.jsonl:{}", n + 1), line).len())
        .sum();
    assert!(verdicts > 0);
}

/// A capture mixing every kind of line, long enough to cross the CLI's
/// batches (4096 lines), with responses answering requests of earlier
/// batches and ids reused.
fn mixed_capture(lines: usize) -> String {
    let mut out = String::new();
    for n in 0..lines {
        let id = n % 97;
        let line = match n % 11 {
            0 => format!(r#"{{"jsonrpc": "2.0", "id": {id}, "method": "ping"}}"#),
            1 => format!(r#"{{"jsonrpc": "2.0", "id": {}, "result": {{}}}}"#, (n + 50) % 97),
            2 => format!(
                r#"{{"jsonrpc": "2.0", "id": "t{id}", "method": "tools/call", "params": {{"name": "get_weather", "arguments": {{"location": {}}}}}}}"#,
                if n % 3 == 0 { "1" } else { "\"Paris\"" }
            ),
            3 => format!(
                r#"{{"jsonrpc": "2.0", "id": "t{}", "result": {{"content": [], "structuredContent": {{"temperature": {}}}}}}}"#,
                (n + 7) % 97,
                if n % 5 == 0 { "\"hot\"" } else { "21.5" }
            ),
            4 => format!(
                r#"[{{"jsonrpc": "2.0", "id": "b{id}", "method": "ping"}}, {{"jsonrpc": "2.0", "id": "b{id}", "error": {{"code": -1, "message": "no"}}}}]"#
            ),
            5 => r#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#.to_string(),
            6 => format!(r#"{{"jsonrpc": "1.0", "id": {id}, "method": "ping"}}"#),
            7 => String::new(),
            8 => format!(r#"{{"jsonrpc": "2.0", "id": {id}, "method": "unknown/{id}"}}"#),
            9 => format!(r#"{{"jsonrpc": "2.0", "id": {id}, "error": {{"code": "x", "message": "m"}}}}"#),
            _ => "not json at all {".to_string(),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// `--jobs N` prints byte for byte what one job prints, in text, JSON and
/// quiet, and exits alike.
#[test]
fn traffic_jobs_are_byte_identical_to_one_job() {
    let dir = catalog("traffic-jobs");
    write_files(&dir, &[("cap.jsonl", mixed_capture(10_000).as_bytes())]);
    for extra in [&[][..], &["--format", "json"][..], &["--quiet"][..], &["--quiet", "--format", "json"][..]] {
        let run = |jobs: &str| {
            let mut args = vec!["traffic", "cap.jsonl", "--tools", "tools", "--jobs", jobs];
            args.extend_from_slice(P);
            args.extend_from_slice(extra);
            run_in(bin!(), &dir, &args)
        };
        let one = run("1");
        assert_eq!(one.code, 1, "{}", one.stderr);
        assert!(one.stdout.len() > 10_000, "{extra:?}");
        for jobs in ["2", "3", "8"] {
            let many = run(jobs);
            assert_eq!((many.code, &many.stdout, &many.stderr), (one.code, &one.stdout, &one.stderr), "--jobs {jobs}");
        }
    }
    let zero = run_in(bin!(), &dir, &["traffic", "cap.jsonl", "--jobs", "0"]);
    assert_eq!(zero.code, 3);
}

/// Across the CLI's batches (4 MiB each: this capture spans three), with
/// the next batch read ahead while one is judged and responses paired with
/// requests of an earlier batch, `--jobs N` still prints what one job does.
#[test]
fn traffic_jobs_agree_across_batches() {
    let dir = catalog("traffic-jobs-batches");
    let capture = mixed_capture(150_000);
    assert!(capture.len() > 2 * (4 << 20) + 1000, "{} bytes: three batches", capture.len());
    write_files(&dir, &[("cap.jsonl", capture.as_bytes())]);
    let run = |jobs: &str| {
        let mut args = vec!["traffic", "cap.jsonl", "--tools", "tools", "--jobs", jobs];
        args.extend_from_slice(P);
        run_in(bin!(), &dir, &args)
    };
    let one = run("1");
    assert_eq!(one.code, 1, "{}", one.stderr);
    // Every line has its verdict, the last one included, and responses of
    // the second and third batches found their requests.
    assert!(one.stdout.contains(" <- cap.jsonl:150000\n"), "{}", &one.stdout[one.stdout.len() - 300..]);
    let paired = |from: usize| {
        one.stdout
            .lines()
            .filter(|l| {
                l.starts_with("[PASS] mcp.tools/call.response@2025.6.18 + weather.get_weather.output@1.0.0 <- ")
            })
            .filter_map(|l| l.rsplit(':').next()?.parse::<usize>().ok())
            .filter(|&n| n > from)
            .count()
    };
    assert!(paired(100_000) > 1_000, "{}", paired(100_000));
    for jobs in ["2", "3"] {
        let many = run(jobs);
        assert_eq!((many.code, &many.stdout, &many.stderr), (one.code, &one.stdout, &one.stderr), "--jobs {jobs}");
    }
}

/// The library: `Traffic::lines` on any jobs and any split into batches
/// gives what `Traffic::line` gives line by line.
#[test]
fn lines_on_threads_agree_with_line_by_line() {
    let (catalog, tools) = catalogs();
    let capture = mixed_capture(3_000);
    let lines: Vec<(usize, &[u8])> = capture.lines().enumerate().map(|(i, l)| (i + 1, l.as_bytes())).collect();
    // What a verdict shows: its label, its contracts, its findings.
    let shown = |j: protocolarc::traffic::Judged<'_>| (j.source.to_string(), j.contracts.ids(), j.report);
    let mut t = Traffic::new("mcp", "mcp@2025-06-18", catalog, Some(tools));
    let labels: Vec<String> = lines.iter().map(|(n, _)| format!("cap.jsonl:{n}")).collect();
    let expected: Vec<_> = lines.iter().zip(&labels).flat_map(|((_, l), label)| t.line(label, l)).map(shown).collect();
    for (jobs, batch) in [(1, 3_000), (2, 1_000), (3, 257), (4, 1)] {
        let mut t = Traffic::new("mcp", "mcp@2025-06-18", catalog, Some(tools));
        let mut got = Vec::new();
        for part in lines.chunks(batch) {
            let each = |j| {
                got.push(shown(j));
                Ok::<_, ()>(())
            };
            let mut meanwhile = 0;
            t.lines("cap.jsonl", part, jobs, || meanwhile += 1, each).expect("nothing fails");
            assert_eq!(meanwhile, 1, "meanwhile runs once");
        }
        assert_eq!(got, expected, "{jobs} jobs, batches of {batch}");
        // The first error of `each` stops the verdicts there.
        let mut t = Traffic::new("mcp", "mcp@2025-06-18", catalog, Some(tools));
        let mut given = 0;
        let stopped = t.lines(
            "cap.jsonl",
            &lines[..batch.max(100)],
            jobs,
            || {},
            |_| {
                given += 1;
                if given == 40 {
                    Err(given)
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!((stopped, given), (Err(40), 40), "{jobs} jobs");
    }
}

/// A request stays pending for the next PENDING_WINDOW requests of its
/// file: memory stays bounded on captures that never answer.
#[test]
fn a_request_waits_for_a_bounded_number_of_later_requests() {
    use protocolarc::traffic::PENDING_WINDOW;
    let (catalog, _) = catalogs();
    for (later, paired) in [(PENDING_WINDOW - 1, true), (PENDING_WINDOW, false)] {
        let mut t = Traffic::new("mcp", "mcp@2025-06-18", catalog, None);
        t.line("cap.jsonl:1", br#"{"jsonrpc": "2.0", "id": "first", "method": "ping"}"#);
        for n in 0..later {
            t.line("cap.jsonl:2", format!(r#"{{"jsonrpc": "2.0", "id": {n}, "method": "ping"}}"#).as_bytes());
        }
        let answer = t.line("cap.jsonl:3", br#"{"jsonrpc": "2.0", "id": "first", "result": {}}"#);
        let warned = answer[0].report.findings().iter().any(|f| f.rule() == "route.id");
        assert_eq!(warned, !paired, "{later} later requests");
    }
}

/// Requests with ids too long to keep inline (their keys own heap memory)
/// wrap the ring of pending requests: the slot a window back is overwritten
/// in place, and pairing stays exact: the oldest request still in the window
/// and the newest pair with their responses (a `tools/list` result is judged
/// by the request's method), one past the window does not.
#[test]
fn long_ids_across_the_pending_window_pair_exactly() {
    use protocolarc::traffic::PENDING_WINDOW;
    let catalog = Catalog::load(&[protocolarc_tests::root().join("protocols/mcp/2025-06-18")])
        .expect("the bundled MCP catalog loads");
    let catalog = &catalog;
    let id = |n: usize| format!("a-request-id-longer-than-thirty-bytes-{n:06}");
    let requests = PENDING_WINDOW + 10;
    let mut t = Traffic::new("mcp", "mcp@2025-06-18", catalog, None);
    for n in 0..requests {
        let line = format!(r#"{{"jsonrpc": "2.0", "id": "{}", "method": "tools/list"}}"#, id(n));
        let judged = t.line("cap.jsonl:1", line.as_bytes());
        assert!(judged.iter().all(|j| j.report.findings().is_empty()), "request {n}");
    }
    let mut answer = |n: usize| {
        let line = format!(r#"{{"jsonrpc": "2.0", "id": "{}", "result": {{}}}}"#, id(n));
        let judged = t.line("cap.jsonl:2", line.as_bytes());
        assert_eq!(judged.len(), 1);
        judged[0].report.findings().iter().map(ToString::to_string).collect::<Vec<_>>()
    };
    let paired = ["ERROR field.required result.tools: required field is missing"];
    assert_eq!(answer(requests - 1), paired, "the newest request");
    assert_eq!(answer(requests - PENDING_WINDOW), paired, "the oldest request in the window");
    // The id is shown cut to its first 40 characters.
    assert_eq!(
        answer(requests - PENDING_WINDOW - 1),
        ["WARNING route.id id: no request with id \"a-request-id-longer-than-thirty-bytes-0... is waiting for a response in this file"],
        "one past the window"
    );
}

/// The pending requests stay within their memory budget: requests whose
/// ids own 64 KiB each fill the budget's heap share (a third of
/// `PENDING_BUDGET`, a long id counting its bytes plus one) long before the
/// window of requests; the oldest are forgotten, and their late responses
/// are unpaired, counted in the summary, the newest still pair.
#[test]
fn pending_requests_stay_within_the_memory_budget() {
    use protocolarc::traffic::{PENDING_BUDGET, PENDING_WINDOW};
    let (requests, long) = (40, 64 << 10);
    let kept = (PENDING_BUDGET / 3) / (long + 1);
    assert!(kept > 0 && kept < requests && requests < PENDING_WINDOW, "{kept} of {requests}");
    let id = |n: usize| format!("{}{n:06}", "x".repeat(long - 6));
    let mut lines: Vec<String> =
        (0..requests).map(|n| format!(r#"{{"jsonrpc": "2.0", "id": "{}", "method": "ping"}}"#, id(n))).collect();
    lines.extend((0..requests).map(|n| format!(r#"{{"jsonrpc": "2.0", "id": "{}", "result": {{}}}}"#, id(n))));
    assert_eq!(lines[0].len(), long + 46);
    let out = traffic("traffic-budget", &(lines.join("\n") + "\n"), &["--protocol", "mcp@2025-06-18"]);
    let summary = format!(
        "traffic mcp@2025-06-18: {} messages, {} passed, {} unpaired, 0 failed; route.id {}\n",
        2 * requests,
        requests + kept,
        requests - kept,
        requests - kept
    );
    assert!(out.stdout.ends_with(&summary), "{}", out.stdout.lines().last().unwrap_or_default());
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The first response past the forgotten ones pairs: exactly the oldest `kept` were kept.
    let unpaired: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("[UNPAIRED]")).collect();
    assert_eq!(unpaired.len(), requests - kept);
    assert!(unpaired.last().is_some_and(|l| l.ends_with(&format!("cap.jsonl:{}", requests + requests - kept))));
}

/// Without --protocol, A2A captures tell their revision: real A2A
/// specification messages (`tests/data/traffic/README.md`) by their methods
/// (`agent/getAuthenticatedExtendedCard` is only in 0.3.0; `message/send`
/// alone: the newest revision that knows it), an agent card by its
/// `protocolVersion` (0.2.9: the newest 0.2.x of the catalog), a v1.0 card
/// by its JSON-RPC interface's.
#[test]
fn a2a_captures_tell_their_revision() {
    let root = protocolarc_tests::root();
    if !root.join("protocols/a2a/0.3.0").is_dir() {
        return;
    }
    let cases = [
        (
            "a2a-spec-docs-v0.3.0.jsonl",
            "note: protocol a2a@0.3.0, from the A2A methods in the capture (agent/getAuthenticatedExtendedCard, message/send, message/stream)\n",
            "traffic a2a@0.3.0: 19 messages, 4 passed, 1 unpaired, 14 failed",
        ),
        (
            "a2a-spec-docs-v0.2.5.jsonl",
            "note: protocol a2a@0.3.0, from the A2A methods in the capture (message/send)\n",
            "traffic a2a@0.3.0: 17 messages, 3 passed, 1 unpaired, 13 failed",
        ),
        (
            "a2a-card-v0.3.0-then-messages.jsonl",
            "note: protocol a2a@0.2.6, from the agent card at a2a-card-v0.3.0-then-messages.jsonl:1 (protocolVersion 0.2.9)\n",
            "traffic a2a@0.2.6: 7 messages, 1 passed, 6 failed",
        ),
        (
            // A v1.0 card has no `protocolVersion` of its own: its JSON-RPC
            // interface's (`supportedInterfaces[]`) tells the revision.
            "a2a-card-v1.0.0-then-messages.jsonl",
            "note: protocol a2a@1.0.1, from the agent card at a2a-card-v1.0.0-then-messages.jsonl:1 (protocolVersion 1.0)\n",
            "traffic a2a@1.0.1: 8 messages, 7 passed, 1 unpaired, 0 failed",
        ),
    ];
    for (file, note, summary) in cases {
        let capture = data(&format!("traffic/{file}"));
        let out = run_in(bin!(), &root, &["traffic", capture.to_str().expect("utf-8 path"), "--quiet"]);
        assert_eq!(out.stderr, note, "{file}");
        // The card line is judged by `a2a.agent_card`: the v1.0 capture fails nothing.
        let code = if summary.ends_with(" 0 failed") { 0 } else { 1 };
        assert_eq!(out.code, code, "{file}: {}", out.stdout);
        assert!(out.stdout.lines().last().is_some_and(|l| l.starts_with(summary)), "{file}: {}", out.stdout);
    }
    // An MCP capture is still told by its initialize request.
    let capture = data("traffic/mcp-2025-06-18.jsonl");
    let out = run_in(bin!(), &root, &["traffic", capture.to_str().expect("utf-8 path"), "--quiet"]);
    assert!(out.stderr.starts_with("note: protocol mcp@2025-06-18, from the initialize request"), "{}", out.stderr);
}

/// A2A v1.0 (catalog 1.0.1, from `a2a.proto`): the JSON-RPC messages of the
/// v1.0.0 specification docs (`tests/data/traffic/README.md`) tell the
/// revision by their method names (`SendMessage`, `GetTask`, ... are only in
/// 1.0.1) and route to it. The docs' own `SendMessage` requests send
/// `"role": "user"` (v0.3.0's spelling; ProtoJSON writes `ROLE_USER`), the
/// derived line 12 with `ROLE_USER` passes, and line 13, a part with both
/// `text` and `url` (one `oneof content`), is caught.
#[test]
fn a2a_v1_capture_routes_to_the_proto_catalog() {
    let root = protocolarc_tests::root();
    let capture = data("traffic/a2a-spec-docs-v1.0.0.jsonl");
    let out = run_in(bin!(), &root, &["traffic", capture.to_str().expect("utf-8 path")]);
    assert_eq!(
        out.stderr,
        "note: protocol a2a@1.0.1, from the A2A methods in the capture (GetTask, ListTasks, CancelTask, \
         SubscribeToTask, GetExtendedAgentCard, SendMessage)\n"
    );
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert_eq!(
        out.stdout,
        "[PASS] a2a.GetTask.request@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:1\n\
         [PASS] a2a.ListTasks.request@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:2\n\
         [PASS] a2a.CancelTask.request@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:3\n\
         [PASS] a2a.SubscribeToTask.request@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:4\n\
         [PASS] a2a.GetExtendedAgentCard.request@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:5\n\
         [UNPAIRED] a2a.error.response@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:6\n  \
         WARNING route.id id: no request with id 1 is waiting for a response in this file\n\
         [PASS] a2a.error.response@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:7\n\
         [FAIL] a2a.SendMessage.request@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:8\n  \
         ERROR field.enum params.message.role: value 'user' not in {'ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'}\n\
         [PASS] a2a.SendMessage.response@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:9\n\
         [FAIL] a2a.SendMessage.request@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:10\n  \
         ERROR field.enum params.message.role: value 'user' not in {'ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'}\n\
         [PASS] a2a.SendMessage.response@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:11\n\
         [PASS] a2a.SendMessage.request@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:12\n\
         [FAIL] a2a.SendMessage.request@1.0.1 <- a2a-spec-docs-v1.0.0.jsonl:13\n  \
         ERROR field.oneOf params.message.parts[0]: matches member 1 and member 3, but 'oneOf' allows exactly one\n\
         traffic a2a@1.0.1: 13 messages, 9 passed, 1 unpaired, 3 failed; field.enum 2, field.oneOf 1, route.id 1\n"
    );
    // Named explicitly, the same revision judges the same way.
    let named = run_in(bin!(), &root, &["traffic", capture.to_str().expect("utf-8 path"), "--protocol", "a2a@1.0.1"]);
    assert_eq!((named.code, named.stdout.as_str(), named.stderr.as_str()), (1, out.stdout.as_str(), ""));
}
