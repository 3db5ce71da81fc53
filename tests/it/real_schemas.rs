//! Real messages against contracts imported from the official schemas: MCP
//! 2025-06-18 (`CallToolResult`, `Tool`, `InitializeRequest`,
//! `InitializeResult`) and A2A v0.3.0 (`Message`, `AgentCard`), in
//! `tests/data/contracts/`; the messages are the specifications' own
//! examples (`tests/data/import/envelopes/`, provenance in `tests/data/import/PROVENANCE.md`).
//!
//! For every real body and for mutants of it (each key dropped, each value
//! replaced by one of another type, each union tag replaced), three judges
//! must agree: the runtime validator, a reference JSON Schema 2020-12
//! validator (the `jsonschema` crate, format assertion on) on the same
//! schema, and the generated type (`from_json` is `Ok` exactly when the body
//! is valid, and `to_json` gives back the same JSON value). The generated
//! check (`Contract::fast_path`) must give the runtime's verdict, and
//! `Contract::validate_json` the runtime's findings.

use protocolarc::{Contract, ContractSpec};
use protocolarc_tests::typed::real;
use serde_json::Value;

fn lines(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(protocolarc_tests::data("import/envelopes").join(file)).expect("envelopes");
    text.lines().map(|l| serde_json::from_str(l).expect("record")).collect()
}

/// The bodies each contract judges, drawn from the real messages.
fn bodies(kind: &str) -> Vec<Value> {
    let mcp = lines("mcp-spec-docs-2025-06-18.jsonl");
    let messages = mcp.iter().map(|r| &r["message"]).filter(|m| m.is_object());
    let results = messages.clone().filter_map(|m| m.get("result"));
    let out: Vec<Value> = match kind {
        "call_tool_result" => results.filter(|r| r.get("content").is_some_and(Value::is_array)).cloned().collect(),
        "tool" => results.filter_map(|r| r.get("tools")?.as_array()).flatten().cloned().collect(),
        "initialize_request" => messages.filter(|m| m["method"] == "initialize").cloned().collect(),
        "initialize_result" => results.filter(|r| r.get("serverInfo").is_some()).cloned().collect(),
        // Sent messages, and the messages results carry (a result that is a
        // message, a task's history and status message).
        "message" => {
            let a2a = lines("a2a-spec-docs-v0.3.0.jsonl");
            let mut out = Vec::new();
            for m in a2a.iter().map(|r| &r["message"]) {
                out.extend(m["params"].get("message").cloned());
                let result = &m["result"];
                if result["kind"] == "message" {
                    out.push(result.clone());
                }
                out.extend(result["history"].as_array().into_iter().flatten().cloned());
                out.extend(result["status"].get("message").cloned());
            }
            // The v0.3.0 documentation's messages predate the schema's
            // required `kind` (and some its `messageId`): each also repaired
            // by adding exactly those, so that valid messages are judged too.
            let repaired: Vec<Value> = out
                .iter()
                .filter(|m| m.get("kind").is_none())
                .map(|m| {
                    let mut m = m.clone();
                    m["kind"] = Value::from("message");
                    if m.get("messageId").is_none() {
                        m["messageId"] = Value::from("msg-repaired");
                    }
                    m
                })
                .collect();
            out.extend(repaired);
            out
        }
        "agent_card" => lines("a2a-agent-cards-spec-docs.jsonl")
            .iter()
            .filter(|r| r["tag"] == "v0.3.0")
            .map(|r| r["message"].clone())
            .collect(),
        _ => unreachable!(),
    };
    assert!(!out.is_empty(), "{kind}: no real body");
    out
}

/// Each key dropped, each value replaced by one of another type, each
/// string `type`/`kind` (the unions' tags) replaced by an unknown one.
fn mutants(body: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    mutate(body, &mut |f| out.push(f), &mut Vec::new(), body);
    out
}

fn mutate(v: &Value, push: &mut dyn FnMut(Value), at: &mut Vec<Step>, root: &Value) {
    let other = |v: &Value| match v {
        Value::String(_) => Value::from(1),
        Value::Number(_) | Value::Bool(_) | Value::Null => Value::from("x"),
        Value::Object(_) => Value::from("x"),
        Value::Array(_) => Value::Object(Default::default()),
    };
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                at.push(Step::Key(k.clone()));
                push(edit(root, at, None));
                push(edit(root, at, Some(other(child))));
                if (k == "type" || k == "kind") && child.is_string() {
                    push(edit(root, at, Some(Value::from("bogus"))));
                }
                mutate(child, push, at, root);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                at.push(Step::Index(i));
                push(edit(root, at, Some(other(child))));
                mutate(child, push, at, root);
                at.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

/// `root` with the value at `at` replaced (`Some`) or removed (`None`).
fn edit(root: &Value, at: &[Step], with: Option<Value>) -> Value {
    let mut out = root.clone();
    let mut cur = &mut out;
    for step in &at[..at.len() - 1] {
        cur = match step {
            Step::Key(k) => &mut cur[k.as_str()],
            Step::Index(i) => &mut cur[*i],
        };
    }
    match (at.last(), with) {
        (Some(Step::Key(k)), None) => {
            cur.as_object_mut().map(|m| m.remove(k));
        }
        (Some(Step::Key(k)), Some(v)) => cur[k.as_str()] = v,
        (Some(Step::Index(i)), Some(v)) => cur[*i] = v,
        _ => {}
    }
    out
}

/// Runs every body and mutant of `kind` through the three judges; returns
/// (bodies, of which valid, mutants, of which valid).
fn agree<T: Contract + PartialEq + std::fmt::Debug>(kind: &str) -> (usize, usize, usize, usize) {
    let spec = T::spec();
    let file = protocolarc_tests::data("contracts").join(match kind {
        "message" | "agent_card" => format!("a2a/{kind}_0.3.0.json"),
        _ => format!("mcp/{kind}_2025.6.18.json"),
    });
    assert_eq!(spec.id(), ContractSpec::from_path(&file).unwrap().id());
    let doc: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let reference =
        jsonschema::options().should_validate_formats(true).build(&doc["schema"]).expect("the reference compiles");
    let mut counts = (0, 0, 0, 0);
    let mut disagreements = Vec::new();
    for body in bodies(kind) {
        for (i, candidate) in std::iter::once(body.clone()).chain(mutants(&body)).enumerate() {
            let bytes = serde_json::to_vec(&candidate).unwrap();
            let ours = spec.validate_json(&bytes);
            let theirs = reference.is_valid(&candidate);
            // The generated check (`fast_path`, the schema compiled into
            // code) is an exact verdict, and `validate_json` through it
            // gives the runtime's findings.
            assert_eq!(T::fast_path(&bytes), ours.is_valid(), "{kind}: the generated check disagrees on {candidate}");
            assert_eq!(T::validate_json(&bytes), ours, "{kind}: generated findings differ on {candidate}");
            if ours.is_valid() != theirs {
                disagreements.push(format!("{candidate}: ours {:?}, reference valid={theirs}", ours.findings()));
            }
            match T::from_json(&bytes) {
                Ok(typed) => {
                    assert!(ours.is_valid(), "{kind}: from_json Ok on an invalid body {candidate}");
                    let back: Value = serde_json::from_slice(&typed.to_json()).unwrap();
                    assert_eq!(back, candidate, "{kind}: the round trip changed the body");
                }
                Err(report) => {
                    assert!(!ours.is_valid(), "{kind}: from_json failed on a valid body {candidate}: {report}")
                }
            }
            let valid = usize::from(ours.is_valid());
            if i == 0 {
                counts.0 += 1;
                counts.1 += valid;
            } else {
                counts.2 += 1;
                counts.3 += valid;
            }
        }
    }
    assert!(disagreements.is_empty(), "{kind}: {} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
    counts
}

#[test]
fn mcp_call_tool_result() {
    assert_eq!(agree::<real::call_tool_result::CallToolResult>("call_tool_result"), (3, 3, 36, 9));
}

#[test]
fn mcp_tool() {
    assert_eq!(agree::<real::tool::Tool>("tool"), (1, 1, 23, 10));
}

#[test]
fn mcp_initialize_request() {
    assert_eq!(agree::<real::initialize_request::InitializeRequest>("initialize_request"), (1, 1, 28, 9));
}

#[test]
fn mcp_initialize_result() {
    assert_eq!(agree::<real::initialize_result::InitializeResult>("initialize_result"), (1, 1, 30, 10));
}

#[test]
fn a2a_message() {
    assert_eq!(agree::<real::message::Message>("message"), (33, 15, 597, 41));
}

#[test]
fn a2a_agent_card() {
    assert_eq!(agree::<real::agent_card::AgentCard>("agent_card"), (2, 1, 182, 20));
}

#[test]
fn the_typed_call_tool_result_has_a_tagged_enum_for_its_content_blocks() {
    use real::call_tool_result::{CallToolResult, ContentBlock};
    let body = br#"{"content": [{"type": "text", "text": "hi"}, {"type": "resource_link", "uri": "file:///a.rs", "name": "a.rs"}], "isError": false}"#;
    let r = CallToolResult::from_json(body).unwrap();
    match &r.content[0] {
        ContentBlock::Text(t) => assert_eq!(t.text, "hi"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(&r.content[1], ContentBlock::ResourceLink(l) if l.uri == "file:///a.rs" && l.name == "a.rs"));
    assert_eq!(r.is_error, Some(false));
    let back: Value = serde_json::from_slice(&r.to_json()).unwrap();
    assert_eq!(back, serde_json::from_slice::<Value>(body).unwrap());
    // An unknown tag is refused by the validator before any typed parse.
    let report = CallToolResult::from_json(br#"{"content": [{"type": "video"}]}"#).unwrap_err();
    assert_eq!(
        report.to_string(),
        "ERROR field.enum content[0].type: value 'video' not in {'text', 'image', 'audio', 'resource_link', 'resource'}"
    );
}

#[test]
fn the_typed_a2a_message_has_a_tagged_enum_for_its_parts() {
    use real::message::{Message, Part};
    let body = br#"{"kind": "message", "messageId": "m1", "role": "user", "parts": [{"kind": "text", "text": "hi"}, {"kind": "data", "data": {"a": 1}}]}"#;
    let m = Message::from_json(body).unwrap();
    assert!(matches!(&m.parts[0], Part::Text(t) if t.text == "hi"));
    assert!(matches!(&m.parts[1], Part::Data(_)));
}

/// The contracts above are exactly what `import schema` writes today from
/// the official schemas in `tests/data/import/` (their PROVENANCE.md).
#[test]
fn the_committed_contracts_are_the_import_of_the_official_schemas() {
    let mcp: Value =
        serde_json::from_slice(&std::fs::read(protocolarc_tests::data("import/mcp-2025-06-18/schema.json")).unwrap())
            .unwrap();
    let a2a: Value =
        serde_json::from_slice(&std::fs::read(protocolarc_tests::data("import/a2a-v0.3.0/a2a.json")).unwrap()).unwrap();
    let cases = [
        (
            &mcp,
            "mcp/call_tool_result_2025.6.18.json",
            "mcp.call_tool_result",
            "2025.6.18",
            "response",
            "CallToolResult",
        ),
        (&mcp, "mcp/tool_2025.6.18.json", "mcp.tool", "2025.6.18", "response", "Tool"),
        (
            &mcp,
            "mcp/initialize_request_2025.6.18.json",
            "mcp.initialize_request",
            "2025.6.18",
            "request",
            "InitializeRequest",
        ),
        (
            &mcp,
            "mcp/initialize_result_2025.6.18.json",
            "mcp.initialize_result",
            "2025.6.18",
            "response",
            "InitializeResult",
        ),
        (&a2a, "a2a/message_0.3.0.json", "a2a.message", "0.3.0", "both", "Message"),
        (&a2a, "a2a/agent_card_0.3.0.json", "a2a.agent_card", "0.3.0", "response", "AgentCard"),
    ];
    for (doc, file, name, revision, direction, def) in cases {
        let (contract, _) =
            protocolarc_interop::import::schema_contract(doc, name, revision, Some(direction), Some(def)).unwrap();
        let committed = std::fs::read_to_string(protocolarc_tests::data("contracts").join(file)).unwrap();
        assert_eq!(protocolarc_interop::import::render(&contract), committed, "{file}");
    }
}
