//! Raw JSON-RPC 2.0 traffic judged by a protocol's catalog (SPEC §12): lines
//! in, one verdict per message out. No files, no output: the CLI reads the
//! capture within its caps and renders the verdicts.
//!
//! Routing, for a protocol `P` (`mcp`, `a2a`) whose catalog names its
//! contracts `P.<method>.request`, `P.<method>.response` and `P.error.response`:
//!
//! - a line holding a JSON array is a batch: each element is one message,
//!   labelled `LABEL[i]` (0-based);
//! - a request or notification (it has `method`) is judged whole by
//!   `P.<method>.request`; a request (it has `id`) is remembered as pending;
//! - a success response (`result`) is paired with the latest earlier request
//!   of its `id` still unanswered (in the lines given since
//!   [`Traffic::start_file`]) and its `result` value judged by that method's
//!   `P.<method>.response` (findings under `result.`); an error response is
//!   judged whole by `P.error.response`;
//! - a response answering no pending request gets a `route.id` warning; a
//!   success response then passes when any `P.*.response` contract accepts its
//!   result (the first such, by name, is named), else `route.response`;
//! - with tool contracts (`import tools-list`: `S.TOOL`, `S.TOOL.output`), a
//!   `tools/call` request's `params.arguments` is also judged by the contract
//!   named `*.` + `params.name`, and its response's `result.structuredContent`
//!   by that tool's `.output` contract (missing from a result that is not
//!   `isError`: `field.required`).
//!
//! What is not a JSON-RPC 2.0 message (not JSON, not an object, `jsonrpc`
//! other than `"2.0"`, neither `method` nor `result`/`error`, an `id` that is
//! not a string or a number) is a `jsonrpc.shape` error and is not routed.
//! Nothing here panics on any bytes.
//!
//! ```
//! use protocolarc::traffic::Traffic;
//! use protocolarc::{Catalog, ContractSpec};
//!
//! let ping = ContractSpec::from_slice(br#"{"name": "mcp.ping.request", "revision": "2025.6.18",
//!     "schema": {"required": ["method"]}}"#, "ping.json").unwrap();
//! let result = ContractSpec::from_slice(br#"{"name": "mcp.ping.response", "revision": "2025.6.18",
//!     "schema": {"type": "object", "additionalProperties": false}}"#, "result.json").unwrap();
//! let catalog = Catalog::from_entries(vec![("ping.json".into(), ping), ("result.json".into(), result)]).unwrap();
//! let mut traffic = Traffic::new("mcp", "mcp@2025-06-18", &catalog, None);
//! assert!(traffic.line("cap.jsonl:1", br#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#)[0].report.is_valid());
//! let answer = traffic.line("cap.jsonl:2", br#"{"jsonrpc": "2.0", "id": 1, "result": {"x": 1}}"#);
//! assert_eq!(answer[0].contracts, ["mcp.ping.response@2025.6.18"]);
//! assert_eq!(answer[0].report.findings()[0].field(), "result.x");
//! ```

use std::collections::HashMap;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::catalog::Catalog;
use crate::report::{Finding, Report};
use crate::rules::{self, Rule};
use crate::{ContractDirection, ContractSpec};

/// The field of findings about a message as a whole.
pub const MESSAGE_FIELD: &str = "<message>";

/// One message's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    /// `LABEL` for a line's message, `LABEL[i]` for a batch element.
    pub source: String,
    /// The contracts that judged the message, as `name@revision`, in the
    /// order applied (none when it could not be routed).
    pub contracts: Vec<String>,
    /// Every finding; the message passes when none is an error.
    pub report: Report,
}

/// A request waiting for its response.
#[derive(Debug, Clone)]
struct Pending {
    method: String,
    tool: Option<String>,
    source: String,
}

/// The routing state of one protocol revision over a capture.
pub struct Traffic<'c> {
    protocol: String,
    label: String,
    contracts: HashMap<&'c str, &'c ContractSpec>,
    responses: Vec<&'c ContractSpec>,
    tools: Option<&'c Catalog>,
    pending: HashMap<String, Vec<Pending>>,
}

impl<'c> Traffic<'c> {
    /// Routes messages of `protocol` (`mcp`) to `catalog`'s contracts (the
    /// highest revision of each name); `label` names the protocol revision in
    /// messages (`mcp@2025-06-18`). `tools`: the tool contracts of
    /// `import tools-list`, if any.
    pub fn new(protocol: &str, label: &str, catalog: &'c Catalog, tools: Option<&'c Catalog>) -> Self {
        let mut contracts = HashMap::new();
        for c in catalog.contracts() {
            // Sorted by name then revision: the last one of a name is its highest.
            contracts.insert(c.name(), c);
        }
        let prefix = format!("{protocol}.");
        let error = format!("{protocol}.error.response");
        let mut responses: Vec<&ContractSpec> = contracts
            .values()
            .copied()
            .filter(|c| c.name().starts_with(&prefix) && c.name().ends_with(".response") && c.name() != error)
            .collect();
        responses.sort_by(|a, b| a.name().cmp(b.name()));
        Traffic {
            protocol: protocol.to_string(),
            label: label.to_string(),
            contracts,
            responses,
            tools,
            pending: HashMap::new(),
        }
    }

    /// Forgets every pending request: responses pair only within one file.
    pub fn start_file(&mut self) {
        self.pending.clear();
    }

    /// Judges one line (without its line break) labelled `label`
    /// (`FILE:LINE`): no verdict for a blank line, one for a message, one per
    /// element for a batch.
    pub fn line(&mut self, label: &str, bytes: &[u8]) -> Vec<Judged> {
        let text = trim(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes));
        if text.is_empty() {
            return Vec::new();
        }
        if text[0] != b'[' {
            return vec![self.message(label.to_string(), text)];
        }
        match serde_json::from_slice::<Vec<&RawValue>>(text) {
            Err(e) => vec![shape(label.to_string(), MESSAGE_FIELD, format!("not JSON: {e}"))],
            Ok(items) if items.is_empty() => {
                vec![shape(label.to_string(), MESSAGE_FIELD, "an empty batch holds no message".to_string())]
            }
            Ok(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| self.message(format!("{label}[{i}]"), item.get().as_bytes()))
                .collect(),
        }
    }

    fn contract(&self, name: &str) -> Option<&'c ContractSpec> {
        self.contracts.get(name).copied()
    }

    /// Judges one message (not a batch).
    fn message(&mut self, source: String, bytes: &[u8]) -> Judged {
        let members = match parse_object(bytes) {
            Ok(m) => m,
            Err(why) => return shape(source, MESSAGE_FIELD, why),
        };
        let mut j = Judged { source, contracts: Vec::new(), report: Report::default() };
        let mut findings = Vec::new();
        if let Some(key) = members.repeated(&["jsonrpc", "method", "id", "result", "error"]) {
            return shape(
                j.source,
                &key,
                format!("key '{key}' appears more than once: readers disagree on which wins"),
            );
        }
        match members.get("jsonrpc") {
            None => {
                return shape(
                    j.source,
                    "jsonrpc",
                    "required member is missing (JSON-RPC 2.0 messages carry \"jsonrpc\": \"2.0\")".into(),
                )
            }
            Some(v) if string(v).as_deref() != Some("2.0") => {
                return shape(j.source, "jsonrpc", format!("expected \"2.0\", found {}", excerpt(v)))
            }
            Some(_) => {}
        }
        let id = members.get("id");
        let (result, error) = (members.get("result"), members.get("error"));
        if let Some(method) = members.get("method") {
            let Some(method) = string(method) else {
                return shape(j.source, "method", format!("expected a string, found {}", excerpt(method)));
            };
            if result.is_some() || error.is_some() {
                let msg = "a message has either 'method' (a request) or 'result'/'error' (a response), not both";
                return shape(j.source, MESSAGE_FIELD, msg.into());
            }
            if let Some(id) = id {
                if !matches!(kind(id), Kind::String | Kind::Number) {
                    return shape(
                        j.source,
                        "id",
                        format!("a request id is a string or a number, found {}", excerpt(id)),
                    );
                }
            }
            self.request(&mut j, &mut findings, &method, bytes, &members);
            if let Some(id) = id {
                let tool = self.tool_name(&method, &members);
                let pending = Pending { method, tool, source: j.source.clone() };
                self.pending.entry(id_key(id)).or_default().push(pending);
            }
        } else if result.is_some() || error.is_some() {
            if result.is_some() && error.is_some() {
                return shape(j.source, MESSAGE_FIELD, "a response has 'result' or 'error', not both".into());
            }
            let Some(id) = id else {
                return shape(
                    j.source,
                    "id",
                    "required member is missing (a response names the request it answers)".into(),
                );
            };
            match (kind(id), error.is_some()) {
                (Kind::String | Kind::Number, _) | (Kind::Null, true) => {}
                (Kind::Null, false) => {
                    return shape(j.source, "id", "a success response answers a request: its id is not null".into())
                }
                _ => {
                    return shape(
                        j.source,
                        "id",
                        format!("a response id is a string or a number, found {}", excerpt(id)),
                    )
                }
            }
            let paired = if kind(id) == Kind::Null { None } else { self.answer(id) };
            if paired.is_none() && kind(id) != Kind::Null {
                findings.push(Finding::new(
                    rules::ROUTE_ID,
                    "id",
                    format!("no request with id {} is waiting for a response in this file", excerpt(id)),
                ));
            }
            match (result, paired) {
                (Some(result), Some(p)) => self.result(&mut j, &mut findings, result, &p),
                (Some(result), None) => self.orphan(&mut j, &mut findings, result),
                (None, _) => {
                    let name = format!("{}.error.response", self.protocol);
                    match self.contract(&name) {
                        Some(c) => judge(&mut j, &mut findings, c, bytes, ""),
                        None => findings.push(Finding::new(
                            rules::ROUTE_METHOD,
                            "error",
                            format!("no contract {} in the catalog of {}", crate::render::one_line(&name), self.label),
                        )),
                    }
                }
            }
        } else {
            let msg = "neither 'method' (a request or notification) nor 'result' or 'error' (a response)";
            return shape(j.source, MESSAGE_FIELD, msg.into());
        }
        j.report = Report::new(findings);
        j
    }

    /// A request or notification: its own contract, and its tool's.
    fn request(&self, j: &mut Judged, findings: &mut Vec<Finding>, method: &str, bytes: &[u8], members: &Members<'_>) {
        let name = format!("{}.{method}.request", self.protocol);
        match self.contract(&name) {
            Some(c) => judge(j, findings, c, bytes, ""),
            None => {
                let msg = format!(
                    "no contract {} in the catalog of {}: the method is unknown to this protocol revision",
                    crate::render::one_line(&name),
                    self.label
                );
                findings.push(Finding::new(rules::ROUTE_METHOD, "method", msg));
            }
        }
        let Some(tool) = self.tool_name(method, members) else { return };
        match self.tool_contract(&tool, false) {
            Some(c) => {
                let params = members.get("params").and_then(|p| parse_object(p.get().as_bytes()).ok());
                let arguments = params.as_ref().and_then(|p| p.get("arguments"));
                // No arguments are no arguments: the tool's contract judges `{}`.
                let body = arguments.map_or(&b"{}"[..], |a| a.get().as_bytes());
                judge(j, findings, c, body, "params.arguments");
            }
            None => findings.push(Finding::new(
                rules::ROUTE_TOOL,
                "params.name",
                format!("no tool contract is named *.{}", crate::render::one_line(&tool)),
            )),
        }
    }

    /// The tool a `tools/call` request names, when tool contracts are given.
    fn tool_name(&self, method: &str, members: &Members<'_>) -> Option<String> {
        if self.tools.is_none() || method != "tools/call" {
            return None;
        }
        let params = parse_object(members.get("params")?.get().as_bytes()).ok()?;
        string(params.get("name")?)
    }

    /// The contract of a tool's input (`S.TOOL`) or output (`S.TOOL.output`).
    fn tool_contract(&self, tool: &str, output: bool) -> Option<&'c ContractSpec> {
        let tools = self.tools?;
        let suffix = if output { format!(".{tool}.output") } else { format!(".{tool}") };
        tools.contracts().filter(|c| c.name().ends_with(&suffix)).find(|c| {
            // An input contract is never a response's (`S.x.output` also ends with `.output`).
            output || c.direction() != ContractDirection::Response
        })
    }

    /// The latest still-unanswered request of this id, now answered.
    fn answer(&mut self, id: &RawValue) -> Option<Pending> {
        let key = id_key(id);
        let stack = self.pending.get_mut(&key)?;
        let p = stack.pop();
        if stack.is_empty() {
            self.pending.remove(&key);
        }
        p
    }

    /// A success response to a known request.
    fn result(&self, j: &mut Judged, findings: &mut Vec<Finding>, result: &RawValue, p: &Pending) {
        let name = format!("{}.{}.response", self.protocol, p.method);
        match self.contract(&name) {
            Some(c) => judge(j, findings, c, result.get().as_bytes(), "result"),
            None => findings.push(Finding::new(
                rules::ROUTE_METHOD,
                "result",
                format!(
                    "no contract {} in the catalog of {} judges the response to {}",
                    crate::render::one_line(&name),
                    self.label,
                    crate::render::one_line(&p.source)
                ),
            )),
        }
        let Some(tool) = &p.tool else { return };
        let Some(output) = self.tool_contract(tool, true) else { return };
        let Ok(members) = parse_object(result.get().as_bytes()) else { return };
        match members.get("structuredContent") {
            Some(s) => judge(j, findings, output, s.get().as_bytes(), "result.structuredContent"),
            // A tool with an output schema returns structured content, unless the call failed.
            None if members.get("isError").map(|e| e.get()) != Some("true") => {
                j.contracts.push(output.id());
                findings.push(Finding::new(
                    rules::FIELD_REQUIRED,
                    "result.structuredContent",
                    "required field is missing (the tool declares an output schema)",
                ));
            }
            None => {}
        }
    }

    /// A success response answering no pending request: any response
    /// contract of the protocol may accept it.
    fn orphan(&self, j: &mut Judged, findings: &mut Vec<Finding>, result: &RawValue) {
        let body = result.get().as_bytes();
        match self.responses.iter().find(|c| c.validate_json(body).is_valid()) {
            Some(c) => j.contracts.push(c.id()),
            None => findings.push(Finding::new(
                rules::ROUTE_RESPONSE,
                "result",
                format!(
                    "none of the {} response contracts of {} accepts this result",
                    self.responses.len(),
                    self.label
                ),
            )),
        }
    }
}

/// Judges `body` with `contract`, its findings under `prefix`.
fn judge(j: &mut Judged, findings: &mut Vec<Finding>, contract: &ContractSpec, body: &[u8], prefix: &str) {
    j.contracts.push(contract.id());
    let report = contract.validate_json(body);
    for f in report.into_findings() {
        let f =
            if prefix.is_empty() && f.field() == crate::DATA_FIELD { f.under(MESSAGE_FIELD) } else { f.under(prefix) };
        findings.push(f);
    }
}

/// The `params.protocolVersion` of an MCP `initialize` request on this line
/// (or in its batch), if it has one: how a capture tells its protocol revision.
pub fn initialize_version(bytes: &[u8]) -> Option<String> {
    let text = trim(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes));
    if text.first() == Some(&b'[') {
        let items = serde_json::from_slice::<Vec<&RawValue>>(text).ok()?;
        return items.iter().find_map(|item| initialize_version(item.get().as_bytes()));
    }
    let members = parse_object(text).ok()?;
    if string(members.get("method")?)? != "initialize" {
        return None;
    }
    let params = parse_object(members.get("params")?.get().as_bytes()).ok()?;
    string(params.get("protocolVersion")?)
}

fn shape(source: String, field: &str, message: String) -> Judged {
    let report = Report::new(vec![Finding::new(rules::JSONRPC_SHAPE, field, message)]);
    Judged { source, contracts: Vec::new(), report }
}

/// The record of every rule this module emits besides the validators'.
pub const TRAFFIC_RULES: &[&Rule] =
    &[rules::JSONRPC_SHAPE, rules::ROUTE_METHOD, rules::ROUTE_ID, rules::ROUTE_RESPONSE, rules::ROUTE_TOOL];

fn trim(mut b: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = b {
        if !matches!(first, b' ' | b'\t' | b'\r' | b'\n') {
            break;
        }
        b = rest;
    }
    while let [rest @ .., last] = b {
        if !matches!(last, b' ' | b'\t' | b'\r' | b'\n') {
            break;
        }
        b = rest;
    }
    b
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
    String,
    Number,
    Bool,
    Null,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Object => "an object",
            Kind::Array => "an array",
            Kind::String => "a string",
            Kind::Number => "a number",
            Kind::Bool => "a boolean",
            Kind::Null => "null",
        }
    }
}

fn kind(v: &RawValue) -> Kind {
    match v.get().as_bytes().first() {
        Some(b'{') => Kind::Object,
        Some(b'[') => Kind::Array,
        Some(b'"') => Kind::String,
        Some(b't' | b'f') => Kind::Bool,
        Some(b'n') => Kind::Null,
        _ => Kind::Number,
    }
}

/// A value as shown in a message: a scalar's JSON text (shortened), else its kind.
fn excerpt(v: &RawValue) -> String {
    let k = kind(v);
    if matches!(k, Kind::Object | Kind::Array) {
        return k.name().to_string();
    }
    let text = v.get();
    let short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        format!("{short}...")
    } else {
        short
    }
}

fn string(v: &RawValue) -> Option<String> {
    serde_json::from_str::<String>(v.get()).ok()
}

/// Equal ids pair: strings by their decoded text, numbers as written.
fn id_key(id: &RawValue) -> String {
    match string(id) {
        Some(s) => format!("s{s}"),
        None => format!("n{}", id.get()),
    }
}

/// An object's members in order, values as raw JSON text, repeated keys kept.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'a> Members<'a> {
    /// The last value of `key` (as most readers keep).
    fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// The first of `keys` that appears more than once.
    fn repeated(&self, keys: &[&str]) -> Option<String> {
        keys.iter().find(|k| self.0.iter().filter(|(key, _)| key == *k).count() > 1).map(|k| k.to_string())
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Members<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Members<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'a>, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, &'de RawValue>()? {
                    out.push((k, v));
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// The members of a JSON object, or why the bytes are not one.
fn parse_object(bytes: &[u8]) -> Result<Members<'_>, String> {
    let raw: &RawValue = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    let k = kind(raw);
    if k != Kind::Object {
        return Err(format!("a JSON-RPC message is an object, found {}", k.name()));
    }
    serde_json::from_str::<Members<'_>>(raw.get()).map_err(|e| format!("not JSON: {e}"))
}
