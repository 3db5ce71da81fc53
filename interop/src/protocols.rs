//! `protocols`: the catalog of a real protocol (SPEC §12), one contract per
//! message, generated from one official schema document as a pure transform
//! on [`serde_json::Value`]: no files, no output. Every contract is made by
//! [`import::schema_contract`] with one definition of the document.
//!
//! - [`mcp_catalog`] reads an MCP `schema.json` (draft-07 or 2020-12). The
//!   methods are the `method` consts of the members of the
//!   `ClientRequest`, `ServerRequest`, `ClientNotification` and
//!   `ServerNotification` unions (a union that is one message itself, as
//!   `ClientNotification` of 2026-07-28, counts as that message). Each gives
//!   `mcp.<method>.request`, the request or notification definition, judging
//!   the whole JSON-RPC message; each request gives `mcp.<method>.response`,
//!   the result definition, judging the `result` value of the response
//!   (`FooRequest` -> `FooResult`, with [`MCP_RESULT_EXCEPTIONS`]); and
//!   `mcp.error.response` is the JSON-RPC error message.
//! - [`a2a_catalog`] reads an A2A `a2a.json`: the members of `A2ARequest`
//!   give `a2a.<method>.request`; `a2a.<method>.response` is the `result` of
//!   the success response (`FooRequest` -> `FooSuccessResponse`, with
//!   [`A2A_RESPONSE_EXCEPTIONS`]); `a2a.error.response` the JSON-RPC error
//!   response; `a2a.agent_card` the `AgentCard`.
//!
//! Directions say who sends the message, seen from the server (the agent),
//! the owner of the catalog: a message only the client sends is `request`
//! (what the server accepts), one only the server sends is `response`
//! (what old clients must still read), one both sides send is `both`. A
//! server-to-client request (`sampling/createMessage`, `roots/list`,
//! `elicitation/create`) is therefore `response`, and its result, which the
//! client sends, `request`.
//!
//! The output is sorted by file stem ([`import::file_stem`] of the name), so
//! it is a function of the document alone.

use protocolarc_core::schema_keywords::name;
use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::import::{self, ImportError};
use crate::proto;
pub use crate::proto::ProtoError;

/// MCP requests whose result is not named `FooResult` for `FooRequest`.
/// When the schema has no `EmptyResult`, `Result` is used.
pub const MCP_RESULT_EXCEPTIONS: &[(&str, &str)] = &[
    ("PingRequest", "EmptyResult"),
    ("SetLevelRequest", "EmptyResult"),
    ("SubscribeRequest", "EmptyResult"),
    ("UnsubscribeRequest", "EmptyResult"),
];

/// A2A requests whose success response is not named `FooSuccessResponse`
/// for `FooRequest`: a resubscription streams the events of `message/stream`.
pub const A2A_RESPONSE_EXCEPTIONS: &[(&str, &str)] =
    &[("TaskResubscriptionRequest", "SendStreamingMessageSuccessResponse")];

/// The MCP unions whose members are the protocol's messages, and who sends them.
const MCP_UNIONS: &[(&str, Side)] = &[
    ("ClientRequest", Side::Client),
    ("ServerRequest", Side::Server),
    ("ClientNotification", Side::Client),
    ("ServerNotification", Side::Server),
];

/// One generated contract.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    /// The file stem: [`import::file_stem`] of the contract name.
    pub stem: String,
    /// The contract, ready for [`import::render`].
    pub contract: Value,
    /// The importer's notes (keywords dropped beside a draft-07 `$ref`).
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Client,
    Server,
}

/// The semver revision of a protocol date: its digits, without leading
/// zeros (`2025-06-18` -> `2025.6.18`). `None` when the text is not
/// `YYYY-MM-DD`.
///
/// ```
/// assert_eq!(protocolarc_interop::protocols::date_revision("2025-06-18").as_deref(), Some("2025.6.18"));
/// assert_eq!(protocolarc_interop::protocols::date_revision("draft"), None);
/// ```
pub fn date_revision(date: &str) -> Option<String> {
    let parts: Vec<&str> = date.split('-').collect();
    let ok = parts.len() == 3
        && parts.iter().zip([4, 2, 2]).all(|(p, n)| p.len() == n && p.bytes().all(|b| b.is_ascii_digit()));
    if !ok {
        return None;
    }
    let nums: Vec<u64> = parts.iter().map(|p| p.parse().unwrap_or(0)).collect();
    Some(format!("{}.{}.{}", nums[0], nums[1], nums[2]))
}

/// The catalog of one MCP revision (`date`: `2025-06-18`) from its
/// `schema.json`: see the module documentation for names and directions.
pub fn mcp_catalog(doc: &Value, date: &str) -> Result<Vec<Generated>, ImportError> {
    let Some(revision) = date_revision(date) else {
        return Err(ImportError::argument(format!("MCP revision '{date}' is not a date YYYY-MM-DD")));
    };
    let (defs, container) = definitions(doc)?;
    // method -> (definition, senders, is a request)
    let mut methods: BTreeMap<String, (String, Vec<Side>, bool)> = BTreeMap::new();
    for (union, side) in MCP_UNIONS {
        let Some(body) = defs.get(*union) else { continue };
        let is_request = union.ends_with("Request");
        for member in union_members(defs, union, body, container)? {
            let at = format!("/{container}/{member}");
            let Some(method) = method_const(&defs[&member]) else {
                return Err(ImportError::new(&at, format!("definition {member} (in {union}) has no 'method' const")));
            };
            let entry = methods.entry(method.clone()).or_insert_with(|| (member.clone(), Vec::new(), is_request));
            if entry.0 != member {
                return Err(ImportError::new(&at, format!("method '{method}' is both {} and {member}", entry.0)));
            }
            if !entry.1.contains(side) {
                entry.1.push(*side);
            }
        }
    }
    if methods.is_empty() {
        return Err(ImportError::new("", "no ClientRequest/ServerRequest/... union lists a message".into()));
    }
    let mut out = Vec::new();
    for (method, (def, senders, is_request)) in &methods {
        let direction = sender_direction(senders);
        out.push(generate(doc, &format!("mcp.{method}.request"), &revision, "mcp", direction, def)?);
        if *is_request {
            let result = mcp_result(defs, def, container)?;
            let back = match direction {
                "request" => "response",
                "response" => "request",
                other => other,
            };
            out.push(generate(doc, &format!("mcp.{method}.response"), &revision, "mcp", back, &result)?);
        }
    }
    let error = ["JSONRPCError", "JSONRPCErrorResponse"].into_iter().find(|n| defs.contains_key(*n));
    let Some(error) = error else {
        return Err(ImportError::new(
            &format!("/{container}"),
            "no JSONRPCError (or JSONRPCErrorResponse) definition".into(),
        ));
    };
    out.push(generate(doc, "mcp.error.response", &revision, "mcp", "both", error)?);
    out.sort_by(|a, b| a.stem.cmp(&b.stem));
    Ok(out)
}

/// The catalog of one A2A version (`0.3.0`) from its `a2a.json`: see the
/// module documentation for names and directions.
pub fn a2a_catalog(doc: &Value, version: &str) -> Result<Vec<Generated>, ImportError> {
    let (defs, container) = definitions(doc)?;
    let Some(union) = defs.get("A2ARequest") else {
        return Err(ImportError::new(&format!("/{container}"), "no A2ARequest definition".into()));
    };
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for member in union_members(defs, "A2ARequest", union, container)? {
        let at = format!("/{container}/{member}");
        let Some(method) = method_const(&defs[&member]) else {
            return Err(ImportError::new(&at, format!("definition {member} (in A2ARequest) has no 'method' const")));
        };
        if let Some(first) = seen.insert(method.clone(), member.clone()) {
            return Err(ImportError::new(&at, format!("method '{method}' is both {first} and {member}")));
        }
        out.push(generate(doc, &format!("a2a.{method}.request"), version, "a2a", "request", &member)?);
        let success = match A2A_RESPONSE_EXCEPTIONS.iter().find(|(r, _)| *r == member) {
            Some((_, s)) => s.to_string(),
            None => format!("{}SuccessResponse", member.strip_suffix("Request").unwrap_or(&member)),
        };
        if !defs.contains_key(&success) {
            return Err(ImportError::new(&at, format!("no success response {success} for {member}")));
        }
        let mut g = generate(doc, &format!("a2a.{method}.response"), version, "a2a", "response", &success)?;
        let schema = g.contract["schema"].take();
        let Some(result) = schema.get(name::PROPERTIES).and_then(|p| p.get("result")) else {
            let at = format!("/{container}/{success}");
            return Err(ImportError::new(&at, format!("{success} has no 'result' property")));
        };
        g.contract["schema"] = with_reachable_defs(result.clone(), schema.get(name::DEFS));
        out.push(g);
    }
    out.push(generate(doc, "a2a.error.response", version, "a2a", "response", "JSONRPCErrorResponse")?);
    out.push(generate(doc, "a2a.agent_card", version, "a2a", "response", "AgentCard")?);
    out.sort_by(|a, b| a.stem.cmp(&b.stem));
    Ok(out)
}

/// The definitions the A2A v1.0 catalog adds to the proto's: JSON-RPC
/// frames, named with a `-` no proto name has.
const FRAME: &str = "jsonrpc-";

/// The catalog of one A2A version whose normative source is a proto3 file
/// (v1.0: `a2a.proto`, package `lf.a2a.v1`, which publishes no JSON
/// Schema), through the ProtoJSON mapping of [`proto::json_schema`] and the
/// JSON-RPC binding (the method is the rpc name, `params` the request
/// message, `result` the response message):
///
/// - `a2a.<Rpc>.request` (`request`): the whole JSON-RPC request, `jsonrpc`
///   `"2.0"`, `id` a string or an integer, `method` the rpc name, `params`
///   the request message (required when the message has a required field;
///   omitted, it is the empty message);
/// - `a2a.<Rpc>.response` (`response`): the `result` value, the response
///   message; for a server-streaming rpc (`stream StreamResponse`) the
///   message each event carries;
/// - `a2a.error.response` (`response`): the JSON-RPC 2.0 error response
///   (`code` integer, `message` string, `data` any value; the proto does not
///   define it);
/// - `a2a.agent_card` (`response`): the `AgentCard` message.
///
/// Every message but the agent card's is closed (`additionalProperties:
/// false`): ProtoJSON refuses a field the message does not define. The
/// card, and every message only it reaches, stays open: a card is read as
/// JSON (the a2a-sdk resolves it ignoring unknown fields, and its server
/// with 0.3 compatibility serves the 0.3 card's fields beside 1.0's).
///
/// Every contract is made by [`import::schema_contract`] with one
/// definition, as the JSON Schema catalogs are. A client-streaming rpc has
/// no JSON-RPC binding and is an error.
pub fn a2a_proto_catalog(text: &str, version: &str) -> Result<Vec<Generated>, ProtoError> {
    let file = proto::parse(text)?;
    let mut doc = proto::json_schema(&file)?;
    close_messages(&mut doc, &file, "AgentCard");
    let start = proto::Pos { line: 1, column: 1 };
    let Some(first) = file.rpcs.first() else {
        return Err(ProtoError { line: 1, column: 1, message: "the file declares no service rpc".into() });
    };
    let card = file.messages.iter().find(|m| m.name == "AgentCard").map(|m| m.pos);
    let Some(card) = card else {
        return Err(ProtoError {
            line: first.pos.line,
            column: first.pos.column,
            message: "no AgentCard message".into(),
        });
    };
    // (rpc, request definition, response definition)
    let mut plan: Vec<(&proto::Rpc, String, String)> = Vec::new();
    {
        let Some(defs) = doc.get_mut(name::DEFS).and_then(Value::as_object_mut) else {
            return Err(ProtoError { line: start.line, column: start.column, message: "no $defs".into() });
        };
        for rpc in &file.rpcs {
            let at = |message: String| ProtoError { line: rpc.pos.line, column: rpc.pos.column, message };
            if rpc.client_streaming {
                return Err(at(format!("rpc {} streams its requests, which JSON-RPC cannot carry", rpc.name)));
            }
            if plan.iter().any(|(r, _, _)| r.name == rpc.name) {
                return Err(at(format!("rpc {} is declared by two services", rpc.name)));
            }
            let params = file.reference("", &rpc.input, rpc.pos)?;
            let mut required = vec!["jsonrpc", "id", "method"];
            if file.has_required("", &rpc.input) {
                required.push("params");
            }
            let request = format!("{FRAME}{}-request", rpc.name);
            defs.insert(
                request.clone(),
                json!({
                    (name::TYPE): "object",
                    (name::PROPERTIES): {
                        "jsonrpc": { (name::TYPE): "string", (name::CONST): "2.0" },
                        "id": { (name::TYPE): ["string", "integer"] },
                        "method": { (name::TYPE): "string", (name::CONST): rpc.name },
                        "params": params
                    },
                    (name::REQUIRED): required
                }),
            );
            let response = match file.resolve("", &rpc.output) {
                Some(proto::Resolved::Local(name)) => name,
                Some(proto::Resolved::Inline(schema)) => {
                    let name = format!("{FRAME}{}-result", rpc.name);
                    defs.insert(name.clone(), schema);
                    name
                }
                None => return Err(at(format!("unknown type '{}'", rpc.output))),
            };
            plan.push((rpc, request, response));
        }
        defs.insert(
            format!("{FRAME}error-response"),
            json!({
                (name::TYPE): "object",
                (name::PROPERTIES): {
                    "jsonrpc": { (name::TYPE): "string", (name::CONST): "2.0" },
                    "id": { (name::TYPE): ["string", "integer", "null"] },
                    "error": {
                        (name::TYPE): "object",
                        (name::PROPERTIES): {
                            "code": { (name::TYPE): "integer" },
                            "message": { (name::TYPE): "string" },
                            "data": {}
                        },
                        (name::REQUIRED): ["code", "message"]
                    }
                },
                (name::REQUIRED): ["jsonrpc", "id", "error"]
            }),
        );
    }
    let made = |name: String, direction: &str, def: &str, pos: proto::Pos| {
        generate(&doc, &name, version, "a2a", direction, def).map_err(|e| ProtoError {
            line: pos.line,
            column: pos.column,
            message: format!("{name}: {}", e.message()),
        })
    };
    let mut out = Vec::new();
    for (rpc, request, response) in &plan {
        out.push(made(format!("a2a.{}.request", rpc.name), "request", request, rpc.pos)?);
        out.push(made(format!("a2a.{}.response", rpc.name), "response", response, rpc.pos)?);
    }
    out.push(made("a2a.error.response".into(), "response", &format!("{FRAME}error-response"), start)?);
    out.push(made("a2a.agent_card".into(), "response", "AgentCard", card)?);
    out.sort_by(|a, b| a.stem.cmp(&b.stem));
    Ok(out)
}

/// The result definition of an MCP request definition.
fn mcp_result(defs: &Map<String, Value>, request: &str, container: &str) -> Result<String, ImportError> {
    let named = match MCP_RESULT_EXCEPTIONS.iter().find(|(r, _)| *r == request) {
        Some((_, "EmptyResult")) if !defs.contains_key("EmptyResult") => "Result".to_string(),
        Some((_, r)) => r.to_string(),
        None => format!("{}Result", request.strip_suffix("Request").unwrap_or(request)),
    };
    if defs.contains_key(&named) {
        Ok(named)
    } else {
        let at = format!("/{container}/{request}");
        Err(ImportError::new(&at, format!("no result definition {named} for {request}")))
    }
}

fn sender_direction(senders: &[Side]) -> &'static str {
    match senders {
        [Side::Client] => "request",
        [Side::Server] => "response",
        _ => "both",
    }
}

fn generate(
    doc: &Value,
    name: &str,
    revision: &str,
    kind: &str,
    direction: &str,
    def: &str,
) -> Result<Generated, ImportError> {
    let (mut contract, notes) = import::schema_contract(doc, name, revision, Some(direction), Some(def))?;
    if let Some(c) = contract.as_object_mut() {
        c.insert("kind".into(), kind.into());
    }
    Ok(Generated { stem: import::file_stem(name), contract, notes })
}

/// The definitions object and its key (`$defs`, or draft-07 `definitions`).
fn definitions(doc: &Value) -> Result<(&Map<String, Value>, &'static str), ImportError> {
    for key in [name::DEFS, name::DEFINITIONS] {
        if let Some(m) = doc.get(key).and_then(Value::as_object) {
            return Ok((m, key));
        }
    }
    Err(ImportError::new("", "the document has no $defs (or definitions)".into()))
}

/// The definition names a union lists (`anyOf`/`oneOf` of `$ref`s), or,
/// when the union is one message itself, the other definition with the
/// same `method` const.
fn union_members(
    defs: &Map<String, Value>,
    union: &str,
    body: &Value,
    container: &str,
) -> Result<Vec<String>, ImportError> {
    let at = format!("/{container}/{union}");
    let list = body.get(name::ANY_OF).or_else(|| body.get(name::ONE_OF)).and_then(Value::as_array);
    let Some(list) = list else {
        if let Some(method) = method_const(body) {
            let same = defs.iter().find(|(n, v)| {
                n.as_str() != union
                    && (n.ends_with("Request") || n.ends_with("Notification"))
                    && method_const(v).as_deref() == Some(method.as_str())
            });
            if let Some((n, _)) = same {
                return Ok(vec![n.clone()]);
            }
        }
        return Err(ImportError::new(&at, format!("{union} is neither a union of $refs nor a named message")));
    };
    let mut out = Vec::new();
    for (i, m) in list.iter().enumerate() {
        let target = m.get(name::REF).and_then(Value::as_str).and_then(|r| r.rsplit_once('/')).map(|(_, n)| n);
        match target {
            Some(n) if defs.contains_key(n) => out.push(n.to_string()),
            _ => {
                return Err(ImportError::new(
                    &format!("{at}/anyOf/{i}"),
                    format!("member {i} of {union} is not a $ref to a definition"),
                ))
            }
        }
    }
    Ok(out)
}

fn method_const(def: &Value) -> Option<String> {
    def.get(name::PROPERTIES)?.get("method")?.get(name::CONST)?.as_str().map(str::to_string)
}

/// Closes every message definition of `file` in `doc`'s `$defs` but those
/// `open` reaches (itself included) and no other message reaches.
fn close_messages(doc: &mut Value, file: &proto::ProtoFile, open: &str) {
    let Some(defs) = doc.get_mut(name::DEFS).and_then(Value::as_object_mut) else { return };
    let reach = |from: &str| -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        let mut queue = vec![from.to_string()];
        while let Some(name) = queue.pop() {
            if seen.contains(&name) {
                continue;
            }
            if let Some(body) = defs.get(&name) {
                refs(body, &mut queue);
            }
            seen.push(name);
        }
        seen
    };
    let card = reach(open);
    // What a closed message reaches is closed: a type the card shares
    // with a message keeps the message's strictness.
    let shared: Vec<String> =
        file.messages.iter().filter(|m| !card.contains(&m.name)).flat_map(|m| reach(&m.name)).collect();
    for m in &file.messages {
        if card.contains(&m.name) && !shared.contains(&m.name) {
            continue;
        }
        if let Some(Value::Object(def)) = defs.get_mut(&m.name) {
            def.insert(name::ADDITIONAL_PROPERTIES.into(), Value::Bool(false));
        }
    }
}

/// `schema` as a root with the `$defs` it reaches (directly or not).
fn with_reachable_defs(schema: Value, defs: Option<&Value>) -> Value {
    let defs = defs.and_then(Value::as_object);
    let mut reached: BTreeMap<String, Value> = BTreeMap::new();
    let mut queue = Vec::new();
    refs(&schema, &mut queue);
    while let Some(name) = queue.pop() {
        if reached.contains_key(&name) {
            continue;
        }
        if let Some(body) = defs.and_then(|d| d.get(&name)) {
            refs(body, &mut queue);
            reached.insert(name, body.clone());
        }
    }
    let mut out = match schema {
        Value::Object(m) => m,
        other => return other,
    };
    if !reached.is_empty() {
        out.insert(name::DEFS.into(), Value::Object(reached.into_iter().collect()));
    }
    Value::Object(out)
}

/// The `$defs` names `#/$defs/NAME` references in `v` name.
fn refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    (name::REF, Value::String(r)) => {
                        if let Some(rest) = r.strip_prefix("#/$defs/") {
                            out.push(rest.split('/').next().unwrap_or_default().to_string());
                        }
                    }
                    _ => refs(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dates_become_revisions() {
        assert_eq!(date_revision("2024-11-05").as_deref(), Some("2024.11.5"));
        assert_eq!(date_revision("2026-07-28").as_deref(), Some("2026.7.28"));
        assert_eq!(date_revision("2025-6-18"), None);
        assert_eq!(date_revision("v0.3.0"), None);
    }

    #[test]
    fn mcp_pairs_by_name_and_by_table() {
        let doc = json!({
            "definitions": {
                "ClientRequest": { "anyOf": [ { "$ref": "#/definitions/PingRequest" }, { "$ref": "#/definitions/CallToolRequest" } ] },
                "ServerRequest": { "anyOf": [ { "$ref": "#/definitions/PingRequest" }, { "$ref": "#/definitions/ListRootsRequest" } ] },
                "ServerNotification": { "anyOf": [ { "$ref": "#/definitions/LogNotification" } ] },
                "PingRequest": { "type": "object", "properties": { "method": { "const": "ping" } } },
                "CallToolRequest": { "type": "object", "properties": { "method": { "const": "tools/call" } } },
                "ListRootsRequest": { "type": "object", "properties": { "method": { "const": "roots/list" } } },
                "LogNotification": { "type": "object", "properties": { "method": { "const": "notifications/message" } } },
                "CallToolResult": { "type": "object" },
                "ListRootsResult": { "type": "object" },
                "Result": { "type": "object" },
                "JSONRPCError": { "type": "object" }
            }
        });
        let got = mcp_catalog(&doc, "2025-06-18").unwrap();
        let names: Vec<(String, String)> = got
            .iter()
            .map(|g| (g.contract["name"].as_str().unwrap().into(), g.contract["direction"].as_str().unwrap().into()))
            .collect();
        let want = [
            ("mcp.error.response", "both"),
            ("mcp.notifications/message.request", "response"),
            ("mcp.ping.request", "both"),
            ("mcp.ping.response", "both"),
            ("mcp.roots/list.request", "response"),
            ("mcp.roots/list.response", "request"),
            ("mcp.tools/call.request", "request"),
            ("mcp.tools/call.response", "response"),
        ];
        assert_eq!(names, want.map(|(a, b)| (a.to_string(), b.to_string())));
        assert!(got.iter().all(|g| g.contract["kind"] == "mcp" && g.contract["revision"] == "2025.6.18"));
        // PingRequest has no PingResult: the table says EmptyResult, absent here, so Result.
        assert_eq!(
            mcp_result(doc["definitions"].as_object().unwrap(), "PingRequest", "definitions").unwrap(),
            "Result"
        );
    }

    #[test]
    fn a_union_that_is_one_message_counts_as_that_message() {
        // 2026-07-28: `ClientNotification` is the cancelled notification itself.
        let cancelled = json!({ "properties": { "method": { "const": "notifications/cancelled" } } });
        let doc = json!({ "$defs": {
            "ClientNotification": cancelled.clone(),
            "ServerNotification": { "anyOf": [ { "$ref": "#/$defs/CancelledNotification" } ] },
            "CancelledNotification": cancelled,
            "JSONRPCErrorResponse": {}
        }});
        let got = mcp_catalog(&doc, "2026-07-28").unwrap();
        let names: Vec<&str> = got.iter().map(|g| g.contract["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["mcp.error.response", "mcp.notifications/cancelled.request"]);
        assert_eq!(got[1].contract["direction"], "both");
        assert_eq!(got[0].contract["revision"], "2026.7.28");
    }

    #[test]
    fn mcp_missing_result_is_an_error() {
        let doc = json!({ "definitions": {
            "ClientRequest": { "anyOf": [ { "$ref": "#/definitions/FooRequest" } ] },
            "FooRequest": { "properties": { "method": { "const": "foo" } } },
            "JSONRPCError": {}
        }});
        let e = mcp_catalog(&doc, "2025-06-18").unwrap_err();
        assert_eq!(e.message(), "no result definition FooResult for FooRequest");
        assert_eq!(e.pointer(), "/definitions/FooRequest");
    }

    #[test]
    fn a2a_response_is_the_success_result() {
        let doc = json!({ "definitions": {
            "A2ARequest": { "anyOf": [ { "$ref": "#/definitions/GetTaskRequest" }, { "$ref": "#/definitions/TaskResubscriptionRequest" } ] },
            "GetTaskRequest": { "properties": { "method": { "const": "tasks/get" } } },
            "TaskResubscriptionRequest": { "properties": { "method": { "const": "tasks/resubscribe" } } },
            "GetTaskSuccessResponse": { "properties": { "id": { "$ref": "#/definitions/Id" }, "result": { "$ref": "#/definitions/Task" } } },
            "SendStreamingMessageSuccessResponse": { "properties": { "result": { "anyOf": [ { "$ref": "#/definitions/Task" } ] } } },
            "Id": { "type": "string" },
            "Task": { "type": "object", "properties": { "id": { "$ref": "#/definitions/Id" } } },
            "JSONRPCErrorResponse": {},
            "AgentCard": { "type": "object" }
        }});
        let got = a2a_catalog(&doc, "0.3.0").unwrap();
        let stems: Vec<&str> = got.iter().map(|g| g.stem.as_str()).collect();
        assert_eq!(
            stems,
            [
                "a2a_agent_card",
                "a2a_error_response",
                "a2a_tasks_get_request",
                "a2a_tasks_get_response",
                "a2a_tasks_resubscribe_request",
                "a2a_tasks_resubscribe_response"
            ]
        );
        let get = &got[3].contract;
        assert_eq!(get["direction"], "response");
        assert_eq!(
            get["schema"],
            json!({ "$ref": "#/$defs/Task", "$defs": { "Task": { "type": "object", "properties": { "id": { "$ref": "#/$defs/Id" } } }, "Id": { "type": "string" } } })
        );
    }

    #[test]
    fn a2a_from_a_proto() {
        let text = "syntax = \"proto3\";\npackage p.v1;\nimport \"google/protobuf/empty.proto\";\n\
            service S {\n  rpc GetThing(GetThingRequest) returns (Thing);\n  rpc Watch(Empty2) returns (stream Thing);\n\
              rpc Drop(GetThingRequest) returns (google.protobuf.Empty);\n}\n\
            message GetThingRequest { string id = 1 [(google.api.field_behavior) = REQUIRED]; }\n\
            message Empty2 {}\nmessage Thing { string id = 1; }\nmessage AgentCard { string name = 1; }\n";
        let got = a2a_proto_catalog(text, "1.0.1").unwrap();
        let names: Vec<(&str, &str)> = got
            .iter()
            .map(|g| (g.contract["name"].as_str().unwrap(), g.contract["direction"].as_str().unwrap()))
            .collect();
        assert_eq!(
            names,
            [
                ("a2a.Drop.request", "request"),
                ("a2a.Drop.response", "response"),
                ("a2a.GetThing.request", "request"),
                ("a2a.GetThing.response", "response"),
                ("a2a.Watch.request", "request"),
                ("a2a.Watch.response", "response"),
                ("a2a.agent_card", "response"),
                ("a2a.error.response", "response")
            ]
        );
        // `params` is required when the request message has a required field.
        assert_eq!(got[2].contract["schema"]["required"], json!(["jsonrpc", "id", "method", "params"]));
        assert_eq!(got[4].contract["schema"]["required"], json!(["jsonrpc", "id", "method"]));
        assert_eq!(got[2].contract["schema"]["properties"]["method"], json!({ "type": "string", "const": "GetThing" }));
        // The result is the response message; a stream's, the message of each event; Empty an object.
        assert_eq!(
            got[3].contract["schema"],
            json!({ "type": "object", "properties": { "id": { "type": "string" } }, "additionalProperties": false })
        );
        assert_eq!(got[5].contract["schema"], got[3].contract["schema"]);
        assert_eq!(got[1].contract["schema"], json!({ "type": "object" }));
        assert_eq!(got[0].contract["revision"], "1.0.1");
        assert_eq!(got[0].contract["kind"], "a2a");

        let streaming = text.replace("rpc Watch(Empty2)", "rpc Watch(stream Empty2)");
        let e = a2a_proto_catalog(&streaming, "1.0.1").unwrap_err();
        assert_eq!(e.to_string(), "6:7: rpc Watch streams its requests, which JSON-RPC cannot carry");
        let no_card = text.replace("message AgentCard", "message Card");
        assert_eq!(a2a_proto_catalog(&no_card, "1.0.1").unwrap_err().to_string(), "5:7: no AgentCard message");
    }
}
