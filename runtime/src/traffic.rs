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

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde::de::{Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
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
struct Pending<'c> {
    /// Borrowed from the catalog when it knows the method.
    method: Cow<'c, str>,
    tool: Option<String>,
    /// The request's label, kept only when no response contract of its
    /// method can judge the response (the finding then names it).
    source: Option<String>,
}

/// What judges messages: the catalog, read-only, shared by the threads of
/// [`Traffic::lines`].
struct Router<'c> {
    protocol: String,
    label: String,
    /// Per method, the highest revision of `P.<method>.request` and its
    /// `name@revision`.
    requests: HashMap<&'c str, (&'c ContractSpec, String)>,
    /// Per method, `P.<method>.response`.
    results: HashMap<&'c str, (&'c ContractSpec, String)>,
    /// `P.error.response`.
    error: Option<(&'c ContractSpec, String)>,
    responses: Vec<&'c ContractSpec>,
    tools: Option<&'c Catalog>,
}

/// How many requests a request stays pending for: one unanswered after
/// this many later requests of its file is forgotten (its response, if it
/// comes, answers nothing), so that memory stays bounded on any capture.
pub const PENDING_WINDOW: usize = 4096;

/// The requests waiting for their responses: the last [`PENDING_WINDOW`]
/// requests in order (`None` once answered), each linked to the previous
/// pending request of its id, and per id the latest one. No allocation per
/// request beyond its id.
/// A pending request: its id, the previous pending request of that id,
/// the request (`None` once answered).
type Slot<'c> = Option<(Arc<str>, Option<u64>, Pending<'c>)>;

#[derive(Default)]
struct Waiting<'c> {
    /// Request `base + i` at `slots[i]`: its id, the previous request of
    /// that id, the request.
    slots: std::collections::VecDeque<Slot<'c>>,
    base: u64,
    latest: HashMap<Arc<str>, u64>,
}

impl<'c> Waiting<'c> {
    fn clear(&mut self) {
        self.base += self.slots.len() as u64;
        self.slots.clear();
        self.latest.clear();
    }

    fn slot(&mut self, seq: u64) -> Option<&mut Slot<'c>> {
        let i = usize::try_from(seq.checked_sub(self.base)?).ok()?;
        self.slots.get_mut(i)
    }

    fn push(&mut self, key: Arc<str>, p: Pending<'c>) {
        let seq = self.base + self.slots.len() as u64;
        let prev = self.latest.insert(key.clone(), seq);
        self.slots.push_back(Some((key, prev, p)));
        if self.slots.len() > PENDING_WINDOW {
            let old = self.base;
            self.base += 1;
            if let Some(Some((key, _, _))) = self.slots.pop_front() {
                // Forgotten; only the latest of its id is named in `latest`
                // (older ones are reached through later ones, and skipped there).
                if let std::collections::hash_map::Entry::Occupied(e) = self.latest.entry(key) {
                    if *e.get() == old {
                        e.remove();
                    }
                }
            }
        }
    }

    /// The latest still-unanswered request of this id, now answered.
    fn answer(&mut self, key: &str) -> Option<Pending<'c>> {
        let seq = *self.latest.get(key)?;
        let (k, prev, p) = self.slot(seq).and_then(Option::take)?;
        // The previous request of the id, if it is still waiting, is now the latest.
        match prev.filter(|&s| self.slot(s).is_some_and(|slot| slot.is_some())) {
            Some(prev) => {
                self.latest.insert(k, prev);
            }
            None => {
                self.latest.remove(key);
            }
        }
        Some(p)
    }
}

/// The routing state of one protocol revision over a capture.
pub struct Traffic<'c> {
    router: Router<'c>,
    pending: Waiting<'c>,
}

/// A message as far as its own bytes judge it (on any thread); what is left
/// depends on the requests before it ([`Traffic::pair`]).
enum Parsed<'b, 'c> {
    /// Judged whole: not a message, a notification, a request without id.
    Done(Judged),
    /// A judged request with an id (its pairing key): it waits for its response.
    Request(Judged, Arc<str>, Pending<'c>),
    /// A response. `findings`: the error contract's, for an error response;
    /// `id`: its pairing key and excerpt (none for a null id); `result`: a
    /// success response's result, judged once paired.
    Response { j: Judged, findings: Vec<Finding>, id: Option<(String, String)>, result: Option<&'b RawValue> },
}

/// A message after pairing.
enum Step<'b, 'c> {
    Done(Judged),
    /// Moved out (never judged).
    Taken,
    /// A success response and the request it answers, if any.
    Result {
        j: Judged,
        findings: Vec<Finding>,
        result: &'b RawValue,
        paired: Option<Pending<'c>>,
    },
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
            contracts.insert(c.name(), (c, c.id()));
        }
        let prefix = format!("{protocol}.");
        let error = format!("{protocol}.error.response");
        let mut responses: Vec<&ContractSpec> = contracts
            .values()
            .map(|(c, _)| *c)
            .filter(|c| c.name().starts_with(&prefix) && c.name().ends_with(".response") && c.name() != error)
            .collect();
        responses.sort_by(|a, b| a.name().cmp(b.name()));
        let (mut requests, mut results) = (HashMap::new(), HashMap::new());
        for (name, (c, id)) in &contracts {
            let Some(rest) = name.strip_prefix(&prefix) else { continue };
            if let Some(method) = rest.strip_suffix(".request") {
                requests.insert(method, (*c, id.clone()));
            } else if let Some(method) = rest.strip_suffix(".response") {
                results.insert(method, (*c, id.clone()));
            }
        }
        let error = contracts.get(error.as_str()).cloned();
        Traffic {
            router: Router {
                protocol: protocol.to_string(),
                label: label.to_string(),
                requests,
                results,
                error,
                responses,
                tools,
            },
            pending: Waiting::default(),
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
        let mut parsed = Vec::new();
        self.router.parse_line(&mut parsed, label.to_string(), bytes);
        parsed.into_iter().map(|p| self.router.finish(pair(&mut self.pending, p))).collect()
    }

    /// Judges lines of one file in order, `(LINE, bytes)` labelled
    /// `FILE:LINE`, on up to `jobs` threads: the verdicts of
    /// [`Traffic::line`] on each line in turn, in the same order, whatever
    /// `jobs`.
    ///
    /// Each message is parsed and judged as far as its own bytes allow on
    /// the threads; responses are then paired with their requests in input
    /// order on this thread (cheap: a map of ids), and success responses
    /// judged by their request's method on the threads again.
    pub fn lines(&mut self, file: &str, lines: &[(usize, &[u8])], jobs: usize) -> Vec<Judged> {
        let router = &self.router;
        let mut lines: Vec<&(usize, &[u8])> = lines.iter().collect();
        let parsed = in_parts(&mut lines, jobs, |part| {
            let mut out = Vec::with_capacity(part.len());
            for &mut &(number, bytes) in part {
                router.parse_line(&mut out, label(file, number), bytes);
            }
            out
        });
        let mut waiting = 0;
        let steps: Vec<Step<'_, 'c>> = parsed
            .into_iter()
            .map(|p| {
                let step = pair(&mut self.pending, p);
                waiting += usize::from(matches!(step, Step::Result { .. }));
                step
            })
            .collect();
        if waiting < 64 {
            return steps.into_iter().map(|s| router.finish(s)).collect();
        }
        let mut steps = steps;
        in_parts(&mut steps, jobs, |part| {
            part.iter_mut().map(|s| router.finish(std::mem::replace(s, Step::Taken))).collect()
        })
    }
}

/// `f` on `items` split in up to `jobs` consecutive parts, on as many
/// threads (this one included); the outputs in order.
fn in_parts<T: Send, U: Send>(items: &mut [T], jobs: usize, f: impl Fn(&mut [T]) -> Vec<U> + Sync) -> Vec<U> {
    if jobs <= 1 || items.len() < 2 {
        return f(items);
    }
    let size = items.len().div_ceil(jobs);
    let f = &f;
    std::thread::scope(|scope| {
        let mut parts = items.chunks_mut(size);
        let first = parts.next().unwrap_or_default();
        let handles: Vec<_> = parts.map(|part| scope.spawn(move || f(part))).collect();
        let mut out = f(first);
        for h in handles {
            out.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        out
    })
}

/// Pairs a response with the latest still-unanswered request of its id, or
/// remembers a request as pending: in input order.
fn pair<'b, 'c>(pending: &mut Waiting<'c>, p: Parsed<'b, 'c>) -> Step<'b, 'c> {
    match p {
        Parsed::Done(j) => Step::Done(j),
        Parsed::Request(j, key, p) => {
            pending.push(key, p);
            Step::Done(j)
        }
        Parsed::Response { mut j, mut findings, id, result } => {
            let paired = id.as_ref().and_then(|(key, _)| pending.answer(key));
            if let (Some((_, excerpt)), None) = (&id, &paired) {
                let msg = format!("no request with id {excerpt} is waiting for a response in this file");
                findings.insert(0, Finding::new(rules::ROUTE_ID, "id", msg));
            }
            match result {
                Some(result) => Step::Result { j, findings, result, paired },
                None => {
                    j.report = Report::new(findings);
                    Step::Done(j)
                }
            }
        }
    }
}

impl<'c> Router<'c> {
    /// Parses one line into `out`: nothing for a blank line, one message, or
    /// a batch's elements.
    fn parse_line<'b>(&self, out: &mut Vec<Parsed<'b, 'c>>, label: String, bytes: &'b [u8]) {
        let text = trim(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes));
        if text.is_empty() {
            return;
        }
        if text[0] != b'[' {
            out.push(self.message(label, text));
            return;
        }
        match serde_json::from_slice::<Vec<&RawValue>>(text) {
            Err(e) => out.push(Parsed::Done(shape(label, MESSAGE_FIELD, format!("not JSON: {e}")))),
            Ok(items) if items.is_empty() => {
                out.push(Parsed::Done(shape(label, MESSAGE_FIELD, "an empty batch holds no message".to_string())))
            }
            Ok(items) => {
                for (i, item) in items.iter().enumerate() {
                    out.push(self.message(format!("{label}[{i}]"), item.get().as_bytes()));
                }
            }
        }
    }

    /// Judges one message (not a batch) as far as its own bytes allow.
    fn message<'b>(&self, source: String, bytes: &'b [u8]) -> Parsed<'b, 'c> {
        let done = |j: Judged| Parsed::Done(j);
        let members = match parse_object(bytes) {
            Ok(m) => m,
            Err(why) => return done(shape(source, MESSAGE_FIELD, why)),
        };
        let mut j = Judged { source, contracts: Vec::new(), report: Report::default() };
        let mut findings = Vec::new();
        if let Some(key) = members.repeated(&["jsonrpc", "method", "id", "result", "error"]) {
            return done(shape(
                j.source,
                &key,
                format!("key '{key}' appears more than once: readers disagree on which wins"),
            ));
        }
        match members.get("jsonrpc") {
            None => {
                return done(shape(
                    j.source,
                    "jsonrpc",
                    "required member is missing (JSON-RPC 2.0 messages carry \"jsonrpc\": \"2.0\")".into(),
                ))
            }
            Some(v) if v.get() != "\"2.0\"" && text(v).as_deref() != Some("2.0") => {
                return done(shape(j.source, "jsonrpc", format!("expected \"2.0\", found {}", excerpt(v))))
            }
            Some(_) => {}
        }
        let id = members.get("id");
        let (result, error) = (members.get("result"), members.get("error"));
        if let Some(method) = members.get("method") {
            let Some(method) = text(method) else {
                return done(shape(j.source, "method", format!("expected a string, found {}", excerpt(method))));
            };
            if result.is_some() || error.is_some() {
                let msg = "a message has either 'method' (a request) or 'result'/'error' (a response), not both";
                return done(shape(j.source, MESSAGE_FIELD, msg.into()));
            }
            if let Some(id) = id {
                if !matches!(kind(id), Kind::String | Kind::Number) {
                    return done(shape(
                        j.source,
                        "id",
                        format!("a request id is a string or a number, found {}", excerpt(id)),
                    ));
                }
            }
            let tool = self.tool_name(&method, &members);
            self.request(&mut j, &mut findings, &method, tool.as_deref(), bytes, &members);
            j.report = Report::new(findings);
            match id {
                Some(id) => {
                    let (method, source) = match self.results.get_key_value(method.as_ref()) {
                        Some((known, _)) => (Cow::Borrowed(*known), None),
                        None => (Cow::Owned(method.into_owned()), Some(j.source.clone())),
                    };
                    let pending = Pending { method, tool, source };
                    Parsed::Request(j, KEY.with_borrow_mut(|k| id_key_into(k, id)), pending)
                }
                None => done(j),
            }
        } else if result.is_some() || error.is_some() {
            if result.is_some() && error.is_some() {
                return done(shape(j.source, MESSAGE_FIELD, "a response has 'result' or 'error', not both".into()));
            }
            let Some(id) = id else {
                return done(shape(
                    j.source,
                    "id",
                    "required member is missing (a response names the request it answers)".into(),
                ));
            };
            match (kind(id), error.is_some()) {
                (Kind::String | Kind::Number, _) | (Kind::Null, true) => {}
                (Kind::Null, false) => {
                    return done(shape(
                        j.source,
                        "id",
                        "a success response answers a request: its id is not null".into(),
                    ))
                }
                _ => {
                    return done(shape(
                        j.source,
                        "id",
                        format!("a response id is a string or a number, found {}", excerpt(id)),
                    ))
                }
            }
            if result.is_none() {
                match &self.error {
                    Some((c, cid)) => judge(&mut j, &mut findings, c, cid.clone(), bytes, ""),
                    None => {
                        let name = format!("{}.error.response", self.protocol);
                        findings.push(Finding::new(
                            rules::ROUTE_METHOD,
                            "error",
                            format!("no contract {} in the catalog of {}", crate::render::one_line(&name), self.label),
                        ))
                    }
                }
            }
            let id = if kind(id) == Kind::Null { None } else { Some((id_key(id), excerpt(id))) };
            Parsed::Response { j, findings, id, result }
        } else {
            let msg = "neither 'method' (a request or notification) nor 'result' or 'error' (a response)";
            done(shape(j.source, MESSAGE_FIELD, msg.into()))
        }
    }

    /// A paired message's verdict: a success response judged by its
    /// request's method (or by any response contract, unpaired).
    fn finish(&self, step: Step<'_, 'c>) -> Judged {
        match step {
            Step::Done(j) => j,
            Step::Taken => Judged { source: String::new(), contracts: Vec::new(), report: Report::default() },
            Step::Result { mut j, mut findings, result, paired } => {
                match paired {
                    Some(p) => self.result(&mut j, &mut findings, result, &p),
                    None => self.orphan(&mut j, &mut findings, result),
                }
                j.report = Report::new(findings);
                j
            }
        }
    }

    /// A request or notification: its own contract, and its tool's.
    fn request(
        &self,
        j: &mut Judged,
        findings: &mut Vec<Finding>,
        method: &str,
        tool: Option<&str>,
        bytes: &[u8],
        members: &Members<'_>,
    ) {
        match self.requests.get(method) {
            Some((c, id)) => judge(j, findings, c, id.clone(), bytes, ""),
            None => {
                let name = format!("{}.{method}.request", self.protocol);
                let msg = format!(
                    "no contract {} in the catalog of {}: the method is unknown to this protocol revision",
                    crate::render::one_line(&name),
                    self.label
                );
                findings.push(Finding::new(rules::ROUTE_METHOD, "method", msg));
            }
        }
        let Some(tool) = tool else { return };
        match self.tool_contract(tool, false) {
            Some(c) => {
                let params = members.get("params").and_then(|p| parse_object(p.get().as_bytes()).ok());
                let arguments = params.as_ref().and_then(|p| p.get("arguments"));
                // No arguments are no arguments: the tool's contract judges `{}`.
                let body = arguments.map_or(&b"{}"[..], |a| a.get().as_bytes());
                judge(j, findings, c, c.id(), body, "params.arguments");
            }
            None => findings.push(Finding::new(
                rules::ROUTE_TOOL,
                "params.name",
                format!("no tool contract is named *.{}", crate::render::one_line(tool)),
            )),
        }
    }

    /// The tool a `tools/call` request names, when tool contracts are given.
    fn tool_name(&self, method: &str, members: &Members<'_>) -> Option<String> {
        if self.tools.is_none() || method != "tools/call" {
            return None;
        }
        let params = parse_object(members.get("params")?.get().as_bytes()).ok()?;
        text(params.get("name")?).map(Cow::into_owned)
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

    /// A success response to a known request.
    fn result(&self, j: &mut Judged, findings: &mut Vec<Finding>, result: &RawValue, p: &Pending<'_>) {
        match self.results.get(p.method.as_ref()) {
            Some((c, id)) => judge(j, findings, c, id.clone(), result.get().as_bytes(), "result"),
            None => findings.push(Finding::new(
                rules::ROUTE_METHOD,
                "result",
                format!(
                    "no contract {} in the catalog of {} judges the response to {}",
                    crate::render::one_line(&format!("{}.{}.response", self.protocol, p.method)),
                    self.label,
                    crate::render::one_line(p.source.as_deref().unwrap_or_default())
                ),
            )),
        }
        let Some(tool) = &p.tool else { return };
        let Some(output) = self.tool_contract(tool, true) else { return };
        let Ok(members) = parse_object(result.get().as_bytes()) else { return };
        match members.get("structuredContent") {
            Some(s) => judge(j, findings, output, output.id(), s.get().as_bytes(), "result.structuredContent"),
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
fn judge(j: &mut Judged, findings: &mut Vec<Finding>, contract: &ContractSpec, id: String, body: &[u8], prefix: &str) {
    j.contracts.push(id);
    let report = contract.validate_json(body);
    for f in report.into_findings() {
        let f =
            if prefix.is_empty() && f.field() == crate::DATA_FIELD { f.under(MESSAGE_FIELD) } else { f.under(prefix) };
        findings.push(f);
    }
}

/// What a message tells of its capture's protocol revision, when no
/// `--protocol` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// An MCP `initialize` request asks for this `params.protocolVersion`.
    Initialize(String),
    /// An A2A agent card (the line itself, or a response's `result`: an
    /// object with `skills` and a string `protocolVersion`) declares this
    /// `protocolVersion`.
    AgentCard(String),
    /// A request or notification of this method.
    Method(String),
}

/// The hints of one line (each element of a batch), in order; none for
/// what is not JSON.
pub fn hints(bytes: &[u8]) -> Vec<Hint> {
    let text = trim(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes));
    if text.first() == Some(&b'[') {
        let Ok(items) = serde_json::from_slice::<Vec<&RawValue>>(text) else { return Vec::new() };
        return items.iter().filter_map(|item| hint(item.get().as_bytes())).collect();
    }
    hint(text).into_iter().collect()
}

fn hint(bytes: &[u8]) -> Option<Hint> {
    let members = parse_object(bytes).ok()?;
    let card = |m: &Members<'_>| -> Option<Hint> {
        m.get("skills").filter(|s| kind(s) == Kind::Array)?;
        Some(Hint::AgentCard(text(m.get("protocolVersion")?)?.into_owned()))
    };
    let Some(method) = members.get("method") else {
        if let Some(h) = card(&members) {
            return Some(h);
        }
        return card(&parse_object(members.get("result")?.get().as_bytes()).ok()?);
    };
    let method = text(method)?.into_owned();
    if method == "initialize" {
        let version = members
            .get("params")
            .and_then(|p| parse_object(p.get().as_bytes()).ok())
            .and_then(|p| p.get("protocolVersion").and_then(|v| text(v).map(Cow::into_owned)));
        if let Some(version) = version {
            return Some(Hint::Initialize(version));
        }
    }
    Some(Hint::Method(method))
}

/// The `params.protocolVersion` of an MCP `initialize` request on this line
/// (or in its batch), if it has one: how a capture tells its protocol revision.
pub fn initialize_version(bytes: &[u8]) -> Option<String> {
    hints(bytes).into_iter().find_map(|h| match h {
        Hint::Initialize(v) => Some(v),
        _ => None,
    })
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

/// A JSON string's text: borrowed when it has no escape.
fn text(v: &RawValue) -> Option<Cow<'_, str>> {
    let raw = v.get();
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(Cow::Borrowed(inner));
    }
    serde_json::from_str::<String>(raw).ok().map(Cow::Owned)
}

thread_local! {
    /// Where a request's id key is built before it is shared.
    static KEY: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// [`id_key`] as a shared string, built in `buf` (one allocation).
fn id_key_into(buf: &mut String, id: &RawValue) -> Arc<str> {
    buf.clear();
    match text(id) {
        Some(s) => {
            buf.push('s');
            buf.push_str(&s);
        }
        None => {
            buf.push('n');
            buf.push_str(id.get());
        }
    }
    Arc::from(buf.as_str())
}

/// Equal ids pair: strings by their decoded text, numbers as written.
fn id_key(id: &RawValue) -> String {
    let (tag, body) = match text(id) {
        Some(s) => ('s', s),
        None => ('n', Cow::Borrowed(id.get())),
    };
    let mut key = String::with_capacity(body.len() + 1);
    key.push(tag);
    key.push_str(&body);
    key
}

/// `FILE:LINE`, without the formatting machinery (one per line).
fn label(file: &str, number: usize) -> String {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = number;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let mut out = String::with_capacity(file.len() + 1 + digits.len() - at);
    out.push_str(file);
    out.push(':');
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
    out
}

/// An object's members in order, values as raw JSON text, repeated keys kept.
struct Members<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

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

/// An object key, borrowed from the bytes when it has no escape.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// A JSON value: an object's members, or the kind of anything else.
enum Top<'a> {
    Object(Members<'a>),
    Other(Kind),
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top<'de>, A::Error> {
        let mut out = Vec::with_capacity(6);
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            out.push((k, map.next_value::<&'de RawValue>()?));
        }
        Ok(Top::Object(Members(out)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top<'de>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Top::Other(Kind::Array))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::Bool))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::Number))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::Number))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::Number))
    }
    fn visit_str<E>(self, _: &str) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::String))
    }
    fn visit_unit<E>(self) -> Result<Top<'de>, E> {
        Ok(Top::Other(Kind::Null))
    }
}

impl<'de> DeserializeSeed<'de> for TopVisitor {
    type Value = Top<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Top<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

/// The members of a JSON object, or why the bytes are not one: one pass over
/// the bytes, keys borrowed.
fn parse_object(bytes: &[u8]) -> Result<Members<'_>, String> {
    // The UTF-8 of the line checked once, fast, so that the reader need not
    // check each borrowed member again (a `RawValue` read from bytes is).
    let Ok(text) = std::str::from_utf8(bytes) else { return parse_object_slowly(bytes) };
    let mut de = serde_json::Deserializer::from_str(text);
    let top = TopVisitor.deserialize(&mut de).and_then(|t| de.end().map(|()| t));
    match top {
        Ok(Top::Object(m)) => Ok(m),
        Ok(Top::Other(k)) => Err(format!("a JSON-RPC message is an object, found {}", k.name())),
        // The reason as the two-step reading words it.
        Err(_) => parse_object_slowly(bytes),
    }
}

/// [`parse_object`] in two steps (a raw value, then its members): the words
/// of its errors.
fn parse_object_slowly(bytes: &[u8]) -> Result<Members<'_>, String> {
    let raw: &RawValue = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    let k = kind(raw);
    if k != Kind::Object {
        return Err(format!("a JSON-RPC message is an object, found {}", k.name()));
    }
    let mut de = serde_json::Deserializer::from_str(raw.get());
    match TopVisitor.deserialize(&mut de).and_then(|t| de.end().map(|()| t)) {
        Ok(Top::Object(m)) => Ok(m),
        Ok(Top::Other(k)) => Err(format!("a JSON-RPC message is an object, found {}", k.name())),
        Err(e) => Err(format!("not JSON: {e}")),
    }
}
