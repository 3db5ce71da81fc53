//! The protocol catalogs (SPEC §12): `protocols/` is exactly what
//! `cargo protocolarc protocols` generates from the vendored official
//! schemas (`protocols/vendor/`), file for file and byte for byte, and so is
//! `docs/protocol-history.md` (A2A v1.0 from the vendored `a2a.proto`);
//! every contract loads; the counts, names and
//! directions are pinned; and the real messages of the MCP 2025-06-18
//! specification (`tests/data/import/envelopes/mcp-spec-docs-2025-06-18.jsonl`,
//! provenance in `tests/data/import/PROVENANCE.md`) pass the contracts they
//! route to.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use protocolarc::ContractSpec;
use protocolarc_interop::import;
use protocolarc_interop::protocols::{a2a_catalog, a2a_proto_catalog, mcp_catalog, Generated};
use protocolarc_tests::{bin, root, run, run_in, scratch};
use serde_json::Value;

/// Every vendored revision: (protocol, directory, generated catalog).
fn generated() -> Vec<(&'static str, String, Vec<Generated>)> {
    let vendor = root().join("protocols/vendor");
    let mut out = Vec::new();
    for (protocol, file) in [("mcp", "schema.json"), ("a2a", "a2a.json")] {
        let mut dirs: Vec<String> = std::fs::read_dir(vendor.join(protocol))
            .expect("vendor dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        dirs.sort();
        for dir in dirs {
            let path = vendor.join(protocol).join(&dir).join(file);
            // A2A v1.0 has no JSON Schema: its catalog is made from a2a.proto.
            let proto = path.with_extension("proto");
            if protocol == "a2a" && !path.exists() && proto.exists() {
                let text = std::fs::read_to_string(&proto).expect("proto");
                let catalog = a2a_proto_catalog(&text, &dir).unwrap_or_else(|e| panic!("{protocol}/{dir}: {e}"));
                out.push((protocol, dir, catalog));
                continue;
            }
            let bytes = std::fs::read(&path).expect("schema");
            let doc = import::parse_document(&bytes).expect("parses");
            let catalog = match protocol {
                "mcp" => mcp_catalog(&doc, &dir),
                _ => a2a_catalog(&doc, &dir),
            }
            .unwrap_or_else(|e| panic!("{protocol}/{dir}: {}", e.message()));
            out.push((protocol, dir, catalog));
        }
    }
    out
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(json_files(&path));
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn the_committed_catalog_is_what_the_generator_produces() {
    let mut want: BTreeMap<PathBuf, String> = BTreeMap::new();
    for (protocol, dir, catalog) in generated() {
        for g in catalog {
            let path = root().join("protocols").join(protocol).join(&dir).join(format!("{}.json", g.stem));
            want.insert(path, import::render(&g.contract));
        }
    }
    let mut have = json_files(&root().join("protocols/mcp"));
    have.extend(json_files(&root().join("protocols/a2a")));
    have.sort();
    let extra: Vec<&PathBuf> = have.iter().filter(|p| !want.contains_key(*p)).collect();
    let missing: Vec<&PathBuf> = want.keys().filter(|p| !have.contains(p)).collect();
    assert!(extra.is_empty() && missing.is_empty(), "not generated: {extra:?}; not committed: {missing:?}");
    for (path, text) in &want {
        let committed = std::fs::read_to_string(path).expect("committed file");
        assert!(committed == *text, "{} differs from what the generator writes", path.display());
        ContractSpec::from_path(path).unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()));
    }
    // And the command agrees, history included.
    let out = run(bin!(), &["protocols", "--check", "--history", "docs/protocol-history.md"]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{}", out.stdout);
    assert_eq!(out.stdout, format!("{} file(s) up to date\n", want.len() + 1));
}

#[test]
fn counts_per_revision_are_pinned() {
    let counts: Vec<(String, usize)> = generated().into_iter().map(|(p, d, c)| (format!("{p}/{d}"), c.len())).collect();
    let want = [
        ("mcp/2024-11-05", 40),
        ("mcp/2025-03-26", 40),
        ("mcp/2025-06-18", 42),
        ("mcp/2025-11-25", 52),
        ("mcp/2026-07-28", 29),
        ("a2a/0.2.6", 20),
        ("a2a/0.3.0", 22),
        ("a2a/1.0.1", 24),
    ];
    assert_eq!(counts, want.map(|(d, n)| (d.to_string(), n)));
}

fn load(rel: &str) -> ContractSpec {
    ContractSpec::from_path(root().join("protocols").join(rel)).expect("loads")
}

#[test]
fn names_revisions_and_directions() {
    let call = load("mcp/2025-06-18/mcp_tools_call_request.json");
    assert_eq!((call.name(), call.revision().to_string().as_str()), ("mcp.tools/call.request", "2025.6.18"));
    assert_eq!(call.direction().as_str(), "request");
    let result = load("mcp/2025-06-18/mcp_tools_call_response.json");
    assert_eq!((result.name(), result.direction().as_str()), ("mcp.tools/call.response", "response"));
    // The result contract judges the `result` value, the request contract the whole message.
    assert!(result.validate_json(br#"{"content": [{"type": "text", "text": "ok"}]}"#).is_valid());
    let message = br#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}}"#;
    assert!(call.validate_json(message).is_valid());
    assert!(!call.validate_json(br#"{"method": "tools/list"}"#).is_valid());
    // Server-to-client requests are sent by the server: `response`; their results `request`.
    let sampling = load("mcp/2025-06-18/mcp_sampling_createMessage_request.json");
    assert_eq!(sampling.direction().as_str(), "response");
    assert_eq!(load("mcp/2025-06-18/mcp_sampling_createMessage_response.json").direction().as_str(), "request");
    // Sent by either side: `both`.
    assert_eq!(load("mcp/2025-06-18/mcp_ping_request.json").direction().as_str(), "both");
    assert_eq!(load("mcp/2025-06-18/mcp_error_response.json").direction().as_str(), "both");
    assert_eq!(load("mcp/2024-11-05/mcp_ping_response.json").revision().to_string(), "2024.11.5");
    let send = load("a2a/0.3.0/a2a_message_send_request.json");
    assert_eq!((send.name(), send.revision().to_string().as_str()), ("a2a.message/send.request", "0.3.0"));
    assert_eq!(send.direction().as_str(), "request");
    let card = load("a2a/0.3.0/a2a_agent_card.json");
    assert_eq!((card.name(), card.direction().as_str()), ("a2a.agent_card", "response"));
    assert_eq!(load("a2a/0.2.6/a2a_tasks_resubscribe_response.json").name(), "a2a.tasks/resubscribe.response");
    // 2026-07-28 removed ping and the server-to-client requests (MRTR).
    assert!(!root().join("protocols/mcp/2026-07-28/mcp_ping_request.json").exists());
    assert!(!root().join("protocols/mcp/2026-07-28/mcp_sampling_createMessage_request.json").exists());
}

/// The MCP 2025-06-18 specification's own messages, routed as traffic is:
/// a request or notification by `method`, a result by `id` to the latest
/// earlier unanswered request of that id, an error to `mcp.error.response`.
#[test]
fn the_specification_messages_pass_the_contracts_they_route_to() {
    let dir = root().join("protocols/mcp/2025-06-18");
    let contracts: BTreeMap<String, ContractSpec> = json_files(&dir)
        .iter()
        .map(|p| ContractSpec::from_path(p).expect("loads"))
        .map(|c| (c.name().to_string(), c))
        .collect();
    let text = std::fs::read_to_string(protocolarc_tests::data("import/envelopes/mcp-spec-docs-2025-06-18.jsonl"))
        .expect("envelopes");
    let mut pending: Vec<(Value, String)> = Vec::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let record: Value = serde_json::from_str(line).expect("record");
        let m = &record["message"];
        let at = format!("line {} ({}:{})", i + 1, record["path"].as_str().unwrap(), record["line"]);
        // The anchors' expectation: every record is a valid JSON-RPC message.
        assert_eq!(record["valid_jsonrpc_message"], true, "{at}");
        let (contract, body) = if let Some(method) = m["method"].as_str() {
            let expected = record["method_types"].as_object().expect("method_types");
            let name = format!("mcp.{method}.request");
            if expected.contains_key("<unknown-method>") {
                assert!(!contracts.contains_key(&name), "{at}: {method} is not an MCP method");
                *counts.entry("unknown method").or_default() += 1;
                continue;
            }
            assert!(expected.values().all(|v| v == "ok"), "{at}: the anchors expect {expected:?}");
            if m.get("id").is_some() {
                pending.push((m["id"].clone(), method.to_string()));
            }
            *counts.entry("request or notification").or_default() += 1;
            (name, m.clone())
        } else if m.get("error").is_some() {
            if let Some(k) = pending.iter().rposition(|(id, _)| *id == m["id"]) {
                pending.remove(k);
            }
            *counts.entry("error").or_default() += 1;
            ("mcp.error.response".to_string(), m.clone())
        } else {
            let Some(k) = pending.iter().rposition(|(id, _)| *id == m["id"]) else {
                // No request to pair with: some result contract accepts it.
                let body = serde_json::to_vec(&m["result"]).unwrap();
                assert!(
                    contracts.iter().any(|(n, c)| n.ends_with(".response") && c.validate_json(&body).is_valid()),
                    "{at}: no result contract accepts the unpaired result"
                );
                *counts.entry("unpaired result").or_default() += 1;
                continue;
            };
            let (_, method) = pending.remove(k);
            *counts.entry("result").or_default() += 1;
            (format!("mcp.{method}.response"), m["result"].clone())
        };
        let c = contracts.get(&contract).unwrap_or_else(|| panic!("{at}: no contract {contract}"));
        let report = c.validate_json(&serde_json::to_vec(&body).unwrap());
        assert!(report.is_valid(), "{at} against {contract}: {:?}", report.findings());
    }
    let want =
        [("error", 5), ("request or notification", 27), ("result", 16), ("unknown method", 1), ("unpaired result", 4)];
    assert_eq!(counts, want.into_iter().collect::<BTreeMap<_, _>>());
}

/// A vendored `a2a.proto` that does not parse: exit 3, the file and the
/// position named, nothing written.
#[test]
fn a_broken_proto_is_an_input_error_with_its_position() {
    let dir = scratch("protocols-bad-proto");
    std::fs::create_dir_all(dir.join("vendor/a2a/1.0.1")).unwrap();
    std::fs::write(dir.join("vendor/a2a/1.0.1/a2a.proto"), "syntax = \"proto3\";\nmessage A {\n  string x = 1\n}\n")
        .unwrap();
    let out = run_in(bin!(), &dir, &["protocols", "--vendor", "vendor", "--out", "cat"]);
    assert_eq!(out.code, 3, "{}", out.stdout);
    assert_eq!(out.stderr, "error: vendor/a2a/1.0.1/a2a.proto:4:1: expected ';', found '}'\n");
    assert!(!dir.join("cat").exists());
}

#[test]
fn check_fails_on_a_changed_missing_or_stale_file() {
    let dir = scratch("protocols-check");
    let vendor = root().join("protocols/vendor");
    let vendor = vendor.to_str().unwrap();
    let out = run_in(bin!(), &dir, &["protocols", "--vendor", vendor, "--out", "cat", "--history", "h.md"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("wrote 42 contracts to cat/mcp/2025-06-18\n"), "{}", out.stdout);
    let check = ["protocols", "--vendor", vendor, "--out", "cat", "--history", "h.md", "--check"];
    assert_eq!(run_in(bin!(), &dir, &check).code, 0);
    assert_eq!(
        std::fs::read(dir.join("h.md")).unwrap(),
        std::fs::read(root().join("docs/protocol-history.md")).unwrap()
    );

    std::fs::write(dir.join("cat/mcp/2025-06-18/mcp_ping_request.json"), "{}").unwrap();
    std::fs::remove_file(dir.join("cat/a2a/0.3.0/a2a_agent_card.json")).unwrap();
    std::fs::write(dir.join("cat/a2a/0.3.0/a2a_extra.json"), "{}").unwrap();
    let out = run_in(bin!(), &dir, &check);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stdout,
        "missing: cat/a2a/0.3.0/a2a_agent_card.json\n\
         differs: cat/mcp/2025-06-18/mcp_ping_request.json\n\
         stale: cat/a2a/0.3.0/a2a_extra.json\n\
         3 file(s) differ from what `cargo protocolarc protocols` writes; run it to regenerate\n"
    );
    // Regenerating repairs all three.
    let out = run_in(bin!(), &dir, &["protocols", "--vendor", vendor, "--out", "cat"]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.starts_with("removed cat/a2a/0.3.0/a2a_extra.json\n"), "{}", out.stdout);
    assert_eq!(run_in(bin!(), &dir, &check).code, 0);
}

#[test]
fn tools_call_history_names_the_breaks() {
    let history = std::fs::read_to_string(root().join("docs/protocol-history.md")).unwrap();
    let row = history.lines().find(|l| l.starts_with("| `mcp.tools/call.response` |")).expect("row");
    assert_eq!(row, "| `mcp.tools/call.response` | response | added | breaking | breaking | forward | breaking |");
    assert!(history.contains("  - breaking `union.member.added` `content[]`: anyOf member type='audio' added\n"));
}

/// A2A v1.0 comes from `a2a.proto` by the ProtoJSON mapping: the methods
/// are the rpc names, `params` the request message, the response the
/// `result` (a stream's, each event's `StreamResponse`).
#[test]
fn a2a_v1_names_and_shapes() {
    let names: Vec<String> = json_files(&root().join("protocols/a2a/1.0.1"))
        .iter()
        .map(|p| ContractSpec::from_path(p).expect("loads"))
        .filter(|c| c.revision().to_string() == "1.0.1" && c.direction().as_str() == "request")
        .map(|c| c.name().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "a2a.CancelTask.request",
            "a2a.CreateTaskPushNotificationConfig.request",
            "a2a.DeleteTaskPushNotificationConfig.request",
            "a2a.GetExtendedAgentCard.request",
            "a2a.GetTaskPushNotificationConfig.request",
            "a2a.GetTask.request",
            "a2a.ListTaskPushNotificationConfigs.request",
            "a2a.ListTasks.request",
            "a2a.SendMessage.request",
            "a2a.SendStreamingMessage.request",
            "a2a.SubscribeToTask.request"
        ]
    );
    let get = load("a2a/1.0.1/a2a_GetTask_request.json");
    assert!(get
        .validate_json(br#"{"jsonrpc": "2.0", "id": 2, "method": "GetTask", "params": {"id": "t"}}"#)
        .is_valid());
    let report = get.validate_json(br#"{"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {}}"#);
    let found: Vec<(&str, &str)> = report.findings().iter().map(|f| (f.rule(), f.field())).collect();
    assert_eq!(found, [("field.const", "method"), ("field.required", "params.id")]);
    // No required field in GetExtendedAgentCardRequest: params may be omitted.
    let card = load("a2a/1.0.1/a2a_GetExtendedAgentCard_request.json");
    assert!(card.validate_json(br#"{"jsonrpc": "2.0", "id": 6, "method": "GetExtendedAgentCard"}"#).is_valid());
    // The streaming response is each event's StreamResponse: at most one payload member.
    let stream = load("a2a/1.0.1/a2a_SendStreamingMessage_response.json");
    let event = br#"{"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}"#;
    assert!(stream.validate_json(event).is_valid());
    let two = br#"{"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}}, "message": {"messageId": "m", "role": "ROLE_AGENT", "parts": []}}"#;
    let found: Vec<String> = stream
        .validate_json(two)
        .findings()
        .iter()
        .map(|f| format!("{} {}: {}", f.rule(), f.field(), f.message()))
        .collect();
    assert_eq!(found, ["field.oneOf <data>: matches member 1 and member 2, but 'oneOf' allows exactly one"]);
    // Timestamps are date-time strings, enums their value names.
    let task = load("a2a/1.0.1/a2a_GetTask_response.json");
    let bad = br#"{"id": "t", "status": {"state": "completed", "timestamp": "yesterday"}}"#;
    let report = task.validate_json(bad);
    let found: Vec<(&str, &str)> = report.findings().iter().map(|f| (f.rule(), f.field())).collect();
    assert_eq!(found, [("field.enum", "status.state"), ("field.format", "status.timestamp")]);
    assert_eq!(load("a2a/1.0.1/a2a_DeleteTaskPushNotificationConfig_response.json").direction().as_str(), "response");
}

/// The agent cards of the A2A v1.0.0 specification docs
/// (`tests/data/import/envelopes/a2a-agent-cards-spec-docs.jsonl`, tag
/// v1.0.0) against `a2a.agent_card` 1.0.1: only the full example passes;
/// the others are fragments, or written before `supportedInterfaces`.
#[test]
fn a2a_v1_spec_agent_cards() {
    let card = load("a2a/1.0.1/a2a_agent_card.json");
    let text = std::fs::read_to_string(protocolarc_tests::data("import/envelopes/a2a-agent-cards-spec-docs.jsonl"))
        .expect("cards");
    let mut got = Vec::new();
    for line in text.lines() {
        let record: Value = serde_json::from_str(line).expect("record");
        if record["tag"] != "v1.0.0" {
            continue;
        }
        let report = card.validate_json(&serde_json::to_vec(&record["message"]).unwrap());
        let missing: Vec<String> = report.findings().iter().map(|f| format!("{} {}", f.rule(), f.field())).collect();
        got.push((format!("{}:{}", record["path"].as_str().unwrap(), record["line"]), missing));
    }
    let required = |fields: &[&str]| fields.iter().map(|f| format!("field.required {f}")).collect::<Vec<_>>();
    assert_eq!(
        got,
        [
            ("docs/specification.md:1010".to_string(), required(&["version"])),
            (
                "docs/specification.md:2004".to_string(),
                required(&["defaultInputModes", "defaultOutputModes", "supportedInterfaces", "version"])
            ),
            (
                "docs/specification.md:2029".to_string(),
                required(&["defaultInputModes", "defaultOutputModes", "supportedInterfaces", "version"])
            ),
            ("docs/specification.md:2113".to_string(), Vec::new()),
            ("docs/topics/extensions.md:256".to_string(), required(&["supportedInterfaces"])),
        ]
    );
}
