//! What judges messages: the catalog's contracts by method, and how one
//! message is read, routed and judged as far as its own bytes allow
//! ([`Parsed`]); a success response's result once paired ([`Router::finish`]).

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::value::RawValue;

use super::frame;
use super::id::{id_ref, Hasher, IdRef, Side};
use super::reader::{excerpt, is_card, kind, parse_object, recorded, text, trim, Kind, Members};
use super::scan;
use super::verdict::{shape, Judged, Judges, Source, MESSAGE_FIELD, NOT_JSON};
use super::waiting::{Held, Pending};
use crate::catalog::Catalog;
use crate::report::{Finding, Report};
use crate::rules;
use crate::{ContractDirection, ContractSpec};
use protocolarc_core::TopMembers;

/// The searcher for a `progressToken` key, built once: a message the quick
/// way is searched for one, which the exact reader then checks.
static PROGRESS_TOKEN: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"progressToken"));

/// The contracts of a method the catalog knows.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Method<'c> {
    /// The method's name (the map's key, as text).
    pub(super) name: &'c str,
    pub(super) request: Option<&'c ContractSpec>,
    pub(super) response: Option<&'c ContractSpec>,
}

/// What judges messages: the catalog, read-only, shared by the threads of
/// [`Traffic::lines`](super::Traffic::lines).
pub(super) struct Router<'c> {
    pub(super) protocol: String,
    pub(super) label: String,
    /// Per method, the highest revision of `P.<method>.request` and of
    /// `P.<method>.response`.
    /// Keyed by the name's bytes: the quick way looks up the raw bytes
    /// between the quotes, with no UTF-8 check of its own.
    pub(super) methods: HashMap<&'c [u8], Method<'c>, Hasher>,
    /// `P.error.response`.
    pub(super) error: Option<&'c ContractSpec>,
    /// `P.agent_card`: judges a line that is an agent card.
    pub(super) card: Option<&'c ContractSpec>,
    /// The JSON-RPC frame of the revision.
    pub(super) frame: frame::Frame,
    /// Methods the revision before this one had and this one has not,
    /// with that revision's label.
    pub(super) removed: Option<(String, Vec<String>)>,
    pub(super) responses: Vec<&'c ContractSpec>,
    pub(super) tools: Option<&'c Catalog>,
}

/// A message as far as its own bytes judge it (on any thread); what is left
/// depends on the requests before it ([`pair`](super::pairing::pair)).
/// `'a`: the message's bytes and label; `'c`: the catalog. Pairing fills
/// it in place, in input order.
pub(super) enum Parsed<'a, 'c> {
    /// Judged whole: not a message, a notification, a request without id.
    Done(Judged<'a>),
    /// A judged request with an id: its id and what waits for the
    /// response (taken when it is paired).
    Request(Judged<'a>, Option<(IdRef<'a>, Held<'c>)>),
    /// A response. `findings`: the error contract's, for an error response;
    /// `id`: its pairing key and excerpt (none for a null id); `result`: a
    /// success response's result, judged once paired; `paired`: the request
    /// it answers, once paired.
    Response {
        j: Judged<'a>,
        findings: Vec<Finding>,
        id: Option<(IdRef<'a>, String)>,
        result: Option<&'a RawValue>,
        paired: Option<Pending<'c>>,
    },
}

impl<'a, 'c> Parsed<'a, 'c> {
    /// This message as sent by `side` in `session`: its id keyed so.
    pub(super) fn sent(self, side: Side, session: Option<&str>) -> Self {
        match self {
            Parsed::Request(j, Some((id, held))) => Parsed::Request(j, Some((id.sent(side, session), held))),
            Parsed::Response { j, findings, id: Some((id, excerpt)), result, paired } => {
                Parsed::Response { j, findings, id: Some((id.sent(side, session), excerpt)), result, paired }
            }
            other => other,
        }
    }
}

/// A parsed message as comparable data: its verdict, and for a request its
/// pairing key and what waits for the response.
pub(super) type Comparable<'a> = (Judged<'a>, Option<(Vec<u8>, String, Option<String>)>);

pub(super) fn comparable<'a>(p: Parsed<'a, '_>) -> Comparable<'a> {
    match p {
        Parsed::Request(j, Some((id, held))) => {
            let (method, source) = held.shown();
            (j, Some((id.key().bytes().to_vec(), method, source)))
        }
        Parsed::Request(j, None) | Parsed::Done(j) => (j, None),
        Parsed::Response { j, id, .. } => {
            (j, Some((id.map(|(k, _)| k.key().bytes().to_vec()).unwrap_or_default(), String::new(), None)))
        }
    }
}

impl<'c> Router<'c> {
    /// Routes messages of `protocol` to `catalog`'s contracts (the highest
    /// revision of each name), as [`super::Traffic::new`] says.
    pub(super) fn new(protocol: &str, label: &str, catalog: &'c Catalog, tools: Option<&'c Catalog>) -> Self {
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
        let mut methods: HashMap<&[u8], Method<'_>, Hasher> = HashMap::default();
        for (name, c) in &contracts {
            let Some(rest) = name.strip_prefix(&prefix) else { continue };
            let (method, request) = match (rest.strip_suffix(".request"), rest.strip_suffix(".response")) {
                (Some(method), _) => (method, true),
                (None, Some(method)) => (method, false),
                (None, None) => continue,
            };
            let m = methods.entry(method.as_bytes()).or_insert_with(|| Method { name: method, ..Method::default() });
            if request {
                m.request = Some(*c);
            } else {
                m.response = Some(*c);
            }
        }
        let error = contracts.get(error.as_str()).copied();
        let card = contracts.get(format!("{protocol}.agent_card").as_str()).copied();
        Router {
            protocol: protocol.to_string(),
            label: label.to_string(),
            methods,
            error,
            card,
            frame: frame::of(protocol, label.split_once('@').map_or("", |(_, r)| r)),
            removed: None,
            responses,
            tools,
        }
    }

    /// Parses one line, giving each message to `f` as it comes: nothing
    /// for a blank line, one message, or a batch's elements.
    #[inline]
    pub(super) fn each_message<'a>(&self, label: Source<'a>, bytes: &'a [u8], mut f: impl FnMut(Parsed<'a, 'c>))
    where
        'c: 'a,
    {
        let text = trim(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes));
        if text.is_empty() {
            return;
        }
        if text[0] != b'[' {
            if let Some(p) = self.quick(label, text) {
                return f(p);
            }
            match parse_object(text) {
                Ok(members) if recorded(&members) => self.recorded(label, &members, f),
                Ok(members) => f(self.judged(label, text, members)),
                Err(why) => f(Parsed::Done(shape(label, MESSAGE_FIELD, why))),
            }
            return;
        }
        match serde_json::from_slice::<Vec<&RawValue>>(text) {
            Err(e) => f(Parsed::Done(shape(label, MESSAGE_FIELD, format!("{NOT_JSON}: {e}")))),
            Ok(items) => self.batch(label, &items, f),
        }
    }

    /// Judges one message (not a batch) as far as its own bytes allow.
    #[inline(always)]
    pub(super) fn message<'a>(&self, source: Source<'a>, bytes: &'a [u8]) -> Parsed<'a, 'c>
    where
        'c: 'a,
    {
        match self.quick(source, bytes) {
            Some(parsed) => parsed,
            None => self.exactly(source, bytes),
        }
    }

    /// The top-level members routing reads: `jsonrpc`, `method`, `id`,
    /// `result`, `error` (in this order: [`Router::quick`] reads them by index).
    pub(super) const ROUTING_KEYS: &'static [&'static str] = &["jsonrpc", "method", "id", "result", "error"];
    /// The routing members, none seen yet (their lookup table made once, here).
    pub(super) const NO_MEMBERS: TopMembers = TopMembers::new(Self::ROUTING_KEYS);

    /// The common message the quick way: a request or notification whose
    /// method has a contract (and no tool to judge), routed by the scan of
    /// its top-level members and validated whole by the walker alone. `None`
    /// for anything else, and for bytes the walker finds are not JSON:
    /// [`Router::exactly`] then reads the message, so that both ways give
    /// the same verdict.
    #[inline(always)]
    pub(super) fn quick<'a>(&self, source: Source<'a>, bytes: &'a [u8]) -> Option<Parsed<'a, 'c>>
    where
        'c: 'a,
    {
        // The scan reads up to `method` only; the walk, which reads the
        // whole message anyway, tells where the other routing members are.
        let (scanned, escaped) = scan::method(bytes)?;
        let method = scanned.strip_prefix(b"\"")?.strip_suffix(b"\"").filter(|_| !escaped)?;
        let known = self.methods.get(method)?;
        let method = known.name;
        let contract = known.request?;
        if self.tools.is_some() && method == "tools/call" {
            return None;
        }
        if self.frame.progress_token && PROGRESS_TOKEN.find(bytes).is_some() {
            return None;
        }
        let (report, top) = contract.validate_json_top(bytes, Self::NO_MEMBERS)?;
        if report.findings().iter().any(|f| f.rule() == rules::JSON_SYNTAX.id || f.rule() == rules::JSON_DEPTH.id) {
            return None;
        }
        let member = |i| top.get(bytes, i);
        let (Some(Some(br#""2.0""#)), Some(Some(walked)), Some(id), Some(None), Some(None)) =
            (member(0), member(1), member(2), member(3), member(4))
        else {
            return None;
        };
        // The one `method` member: the walk's is the scan's.
        if walked.as_ptr() != scanned.as_ptr() {
            return None;
        }
        let id = match id {
            None => None,
            Some(id) => match id[0] {
                b'"' if !id.contains(&b'\\') => Some(IdRef::borrowed(b's', &id[1..id.len() - 1])),
                b'-' | b'0'..=b'9' if !self.frame.integer_ids || frame::integer(id) => Some(IdRef::borrowed(b'n', id)),
                _ => return None,
            },
        };
        let mut j = Judged { source, contracts: Judges::one(contract), report };
        if j.report.findings().iter().any(|f| f.field() == crate::DATA_FIELD) {
            let findings = std::mem::take(&mut j.report).into_findings();
            j.report = Report::new(findings.into_iter().map(|f| f.under(MESSAGE_FIELD)).collect());
        }
        let Some(id) = id else { return Some(Parsed::Done(j)) };
        // The request's label is kept only when no contract can judge the response.
        let held = match known.response {
            Some(_) => Held::Method(method),
            None => Pending { method: Cow::Borrowed(method), tool: None, source: Some(j.source.to_string()) }.into(),
        };
        Some(Parsed::Request(j, Some((id, held))))
    }

    /// Judges one message (not a batch) as far as its own bytes allow, every
    /// member read and checked.
    pub(super) fn exactly<'a>(&self, source: Source<'a>, bytes: &'a [u8]) -> Parsed<'a, 'c>
    where
        'c: 'a,
    {
        match parse_object(bytes) {
            Ok(members) => self.judged(source, bytes, members),
            Err(why) => Parsed::Done(shape(source, MESSAGE_FIELD, why)),
        }
    }

    /// A recorded line's message (or batch), each sent by the side it names.
    pub(super) fn recorded<'a>(&self, label: Source<'a>, members: &Members<'a>, mut f: impl FnMut(Parsed<'a, 'c>))
    where
        'c: 'a,
    {
        let done = |field: &str, msg: String| Parsed::Done(shape(label, field, msg));
        if let Some(key) = members.repeated(&["from", "message", "session", "time"]) {
            return f(done(&key, format!("key '{key}' appears more than once: readers disagree on which wins")));
        }
        let side = match members.get("from").map(|v| (v, text(v))) {
            Some((_, Some(t))) if t == "client" => Side::Client,
            Some((_, Some(t))) if t == "server" => Side::Server,
            Some((v, _)) => return f(done("from", format!("expected \"client\" or \"server\", found {}", excerpt(v)))),
            None => {
                return f(done(
                    "from",
                    "required member is missing (a recorded line says who sent its message: \"client\" or \"server\")"
                        .into(),
                ))
            }
        };
        let session = match members.get("session") {
            None => None,
            Some(v) => match text(v) {
                Some(t) => Some(t),
                None => return f(done("session", format!("expected a string, found {}", excerpt(v)))),
            },
        };
        if let Some(v) = members.get("time").filter(|v| kind(v) != Kind::String) {
            return f(done("time", format!("expected an RFC 3339 time string, found {}", excerpt(v))));
        }
        let Some(message) = members.get("message") else { return };
        self.sent(label, side, session.as_deref(), message.get().as_bytes(), f)
    }

    /// The message (or batch) of a recorded line: `bytes`, one JSON value,
    /// that `side` sent in `session`.
    pub(super) fn sent<'a>(
        &self,
        label: Source<'a>,
        side: Side,
        session: Option<&str>,
        bytes: &'a [u8],
        mut f: impl FnMut(Parsed<'a, 'c>),
    ) where
        'c: 'a,
    {
        let sent = |p: Parsed<'a, 'c>| p.sent(side, session);
        if bytes.first() != Some(&b'[') {
            return f(sent(self.message(label, bytes)));
        }
        match serde_json::from_slice::<Vec<&RawValue>>(bytes) {
            Err(e) => f(Parsed::Done(shape(label, MESSAGE_FIELD, format!("{NOT_JSON}: {e}")))),
            Ok(items) => self.batch(label, &items, |p| f(sent(p))),
        }
    }

    /// A batch's elements, each a message, where the revision has batches.
    pub(super) fn batch<'a>(&self, label: Source<'a>, items: &[&'a RawValue], mut f: impl FnMut(Parsed<'a, 'c>))
    where
        'c: 'a,
    {
        if items.is_empty() {
            return f(Parsed::Done(shape(label, MESSAGE_FIELD, "an empty batch holds no message".to_string())));
        }
        if !self.frame.batches {
            let msg = format!(
                "a batch of {} message{}: {} has no batches (each message is sent on its own)",
                items.len(),
                if items.len() == 1 { "" } else { "s" },
                self.label
            );
            let report = Report::new(vec![Finding::new(rules::JSONRPC_BATCH, MESSAGE_FIELD, msg)]);
            return f(Parsed::Done(Judged { source: label, contracts: Judges::default(), report }));
        }
        for (i, item) in items.iter().enumerate() {
            f(self.message(label.at(i), item.get().as_bytes()));
        }
    }

    /// [`Router::exactly`] on a message's members, read.
    pub(super) fn judged<'a>(&self, source: Source<'a>, bytes: &'a [u8], members: Members<'a>) -> Parsed<'a, 'c>
    where
        'c: 'a,
    {
        let done = |j: Judged<'a>| Parsed::Done(j);
        let mut j = Judged { source, contracts: Judges::default(), report: Report::default() };
        let mut findings = Vec::new();
        if let Some(key) = members.repeated(&["jsonrpc", "method", "id", "result", "error"]) {
            let msg = format!("key '{key}' appears more than once: readers disagree on which wins");
            let report = Report::new(vec![Finding::new(rules::JSON_DUPLICATE_KEY, &key, msg)]);
            return done(Judged { source: j.source, contracts: Judges::default(), report });
        }
        match members.get("jsonrpc") {
            None if self.card.is_some() && is_card(&members) => {
                if let Some(card) = self.card {
                    judge(&mut j, &mut findings, card, bytes, "");
                }
                j.report = Report::new(findings);
                return done(j);
            }
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
                if let Some(why) = self.bad_id(id, "a request id") {
                    return done(shape(j.source, "id", why));
                }
            }
            if let Some(why) = self.bad_progress_token(&members) {
                return done(shape(j.source, "params._meta.progressToken", why));
            }
            let tool = self.tool_name(&method, &members);
            self.request(&mut j, &mut findings, &method, tool.as_deref(), bytes, &members);
            j.report = Report::new(findings);
            match id {
                Some(id) => {
                    let (method, source) = match self.methods.get(method.as_bytes()) {
                        Some(m) if m.response.is_some() => (Cow::Borrowed(m.name), None),
                        _ => (Cow::Owned(method.into_owned()), Some(j.source.to_string())),
                    };
                    let pending = Pending { method, tool, source };
                    Parsed::Request(j, Some((id_ref(id), pending.into())))
                }
                None => done(j),
            }
        } else if result.is_some() || error.is_some() {
            if result.is_some() && error.is_some() {
                return done(shape(j.source, MESSAGE_FIELD, "a response has 'result' or 'error', not both".into()));
            }
            let id = match id {
                Some(id) => id,
                // No id: as a null id, where the revision allows it.
                None if error.is_some() && self.frame.error_without_id => RawValue::NULL,
                None => {
                    return done(shape(
                        j.source,
                        "id",
                        format!(
                            "required member is missing (a response names the request it answers{})",
                            if error.is_some() {
                                format!("; {} requires it of an error too", self.label)
                            } else {
                                String::new()
                            }
                        ),
                    ))
                }
            };
            if let Some(why) = self.bad_id(id, "a response id").filter(|_| kind(id) != Kind::Null) {
                return done(shape(j.source, "id", why));
            }
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
                    Some(c) => judge(&mut j, &mut findings, c, bytes, ""),
                    None => {
                        let name = format!("{}.error.response", self.protocol);
                        findings.push(Finding::new(
                            rules::ROUTE_METHOD,
                            "error",
                            format!(
                                "no contract {} in the catalog of {}",
                                protocolarc_core::one_line(&name),
                                self.label
                            ),
                        ))
                    }
                }
            }
            let id = if kind(id) == Kind::Null { None } else { Some((id_ref(id), excerpt(id))) };
            Parsed::Response { j, findings, id, result, paired: None }
        } else {
            let msg = "neither 'method' (a request or notification) nor 'result' or 'error' (a response)";
            done(shape(j.source, MESSAGE_FIELD, msg.into()))
        }
    }

    /// Why an id is not one the revision's frame allows, if it is not.
    pub(super) fn bad_id(&self, id: &RawValue, what: &str) -> Option<String> {
        match kind(id) {
            Kind::String => None,
            Kind::Number if !self.frame.integer_ids || frame::integer(id.get().as_bytes()) => None,
            Kind::Number => Some(format!("{what} is a string or an integer in {}, found {}", self.label, excerpt(id))),
            _ => Some(format!("{what} is a string or a number, found {}", excerpt(id))),
        }
    }

    /// Why a request's `params._meta.progressToken` is not a string or an
    /// integer, where the revision's frame says so.
    pub(super) fn bad_progress_token(&self, members: &Members<'_>) -> Option<String> {
        if !self.frame.progress_token {
            return None;
        }
        let params = parse_object(members.get("params")?.get().as_bytes()).ok()?;
        let meta = parse_object(params.get("_meta")?.get().as_bytes()).ok()?;
        let token = meta.get("progressToken")?;
        match kind(token) {
            Kind::String => None,
            Kind::Number if frame::integer(token.get().as_bytes()) => None,
            _ => {
                Some(format!("a progress token is a string or an integer in {}, found {}", self.label, excerpt(token)))
            }
        }
    }

    /// A paired message's verdict: a success response judged by its
    /// request's method (or by any response contract, unpaired).
    pub(super) fn finish<'a>(&self, parsed: Parsed<'a, 'c>) -> Judged<'a>
    where
        'c: 'a,
    {
        match parsed {
            Parsed::Done(j) | Parsed::Request(j, _) => j,
            Parsed::Response { mut j, mut findings, result, paired, .. } => {
                match (result, paired) {
                    (Some(result), Some(p)) => self.result(&mut j, &mut findings, result, &p),
                    (Some(result), None) => self.orphan(&mut findings, result),
                    (None, _) => {}
                }
                j.report = Report::new(findings);
                j
            }
        }
    }

    /// A request or notification: its own contract, and its tool's.
    pub(super) fn request<'a>(
        &self,
        j: &mut Judged<'a>,
        findings: &mut Vec<Finding>,
        method: &str,
        tool: Option<&str>,
        bytes: &[u8],
        members: &Members<'_>,
    ) where
        'c: 'a,
    {
        match self.methods.get(method.as_bytes()).and_then(|m| m.request) {
            Some(c) => judge(j, findings, c, bytes, ""),
            None => {
                let name = format!("{}.{method}.request", self.protocol);
                let mut msg = format!(
                    "no contract {} in the catalog of {}: the method is unknown to this protocol revision",
                    protocolarc_core::one_line(&name),
                    self.label
                );
                if let Some((before, _)) = self.removed.as_ref().filter(|(_, m)| m.iter().any(|m| m == method)) {
                    msg.push_str(&format!(" ({before} has it: this revision removed it)"));
                }
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
                judge(j, findings, c, body, "params.arguments");
            }
            None => findings.push(Finding::new(
                rules::ROUTE_TOOL,
                "params.name",
                format!("no tool contract is named *.{}", protocolarc_core::one_line(tool)),
            )),
        }
    }

    /// The tool a `tools/call` request names, when tool contracts are given.
    pub(super) fn tool_name(&self, method: &str, members: &Members<'_>) -> Option<String> {
        if self.tools.is_none() || method != "tools/call" {
            return None;
        }
        let params = parse_object(members.get("params")?.get().as_bytes()).ok()?;
        text(params.get("name")?).map(Cow::into_owned)
    }

    /// The contract of a tool's input (`S.TOOL`) or output (`S.TOOL.output`).
    pub(super) fn tool_contract(&self, tool: &str, output: bool) -> Option<&'c ContractSpec> {
        let tools = self.tools?;
        let suffix = if output { format!(".{tool}.output") } else { format!(".{tool}") };
        // Sorted by name then revision: from the end, a tool's newest revision first.
        tools.entries().iter().rev().map(|(_, c)| c).filter(|c| c.name().ends_with(&suffix)).find(|c| {
            // An input contract is never a response's (`S.x.output` also ends with `.output`).
            output || c.direction() != ContractDirection::Response
        })
    }

    /// A success response to a known request.
    pub(super) fn result<'a>(&self, j: &mut Judged<'a>, findings: &mut Vec<Finding>, result: &RawValue, p: &Pending<'_>)
    where
        'c: 'a,
    {
        match self.methods.get(p.method.as_bytes()).and_then(|m| m.response) {
            Some(c) => judge(j, findings, c, result.get().as_bytes(), "result"),
            None => findings.push(Finding::new(
                rules::ROUTE_METHOD,
                "result",
                format!(
                    "no contract {} in the catalog of {} judges the response to {}",
                    protocolarc_core::one_line(&format!("{}.{}.response", self.protocol, p.method)),
                    self.label,
                    protocolarc_core::one_line(p.source.as_deref().unwrap_or_default())
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
                j.contracts.push(output);
                findings.push(Finding::new(
                    rules::FIELD_REQUIRED,
                    "result.structuredContent",
                    "required field is missing (the tool declares an output schema)",
                ));
            }
            None => {}
        }
    }

    /// A success response answering no pending request: unpaired, and an
    /// error when no response contract of the protocol accepts it. The one
    /// that does is not named: it says nothing of what the result answers.
    pub(super) fn orphan(&self, findings: &mut Vec<Finding>, result: &RawValue) {
        let body = result.get().as_bytes();
        match self.responses.iter().find(|c| c.validate_json(body).is_valid()) {
            Some(_) => {}
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
pub(super) fn judge<'a>(
    j: &mut Judged<'a>,
    findings: &mut Vec<Finding>,
    contract: &'a ContractSpec,
    body: &[u8],
    prefix: &str,
) {
    j.contracts.push(contract);
    let report = contract.validate_json(body);
    for f in report.into_findings() {
        let f =
            if prefix.is_empty() && f.field() == crate::DATA_FIELD { f.under(MESSAGE_FIELD) } else { f.under(prefix) };
        findings.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick way, whenever it answers, gives exactly the exact
    /// reader's verdict: on real requests and on every one-byte mutant of
    /// them (a byte dropped, doubled, or replaced by one of JSON's own).
    #[test]
    fn the_quick_way_agrees_with_the_exact_reader() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../protocols/mcp/2025-06-18");
        let catalog = Catalog::load(&[root]).expect("the bundled catalog loads");
        let router = Router::new("mcp", "mcp@2025-06-18", &catalog, None);
        let seeds = [
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fetch","arguments":{"url":"https://x.org/é","n":[1,{"a":"\"}"}]}}}"#,
            r#"{"jsonrpc": "2.0", "id": "r-1", "method": "ping"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":-1.5e3,"method":"tools/list","params":{"cursor":"c"}}"#,
            r#"{"method":"resources/read","params":{"uri":"file:///a"},"id":"\u0041","jsonrpc":"2.0"}"#,
            // Routing members after `method`, where the scan no longer reads.
            r#"{"method":"ping","params":{},"jsonrpc":"2.0","id":3,"id":4}"#,
            r#"{"method":"ping","jsonrpc":"2.0","result":{},"id":5}"#,
        ];
        // What the scan no longer reads is seen by the walk: each of these
        // is not a plain request, so the quick way declines it, and the
        // exact reader says why.
        for (line, field) in [
            (r#"{"method":"ping","jsonrpc":"2.0","id":3,"id":4}"#, "id"),
            (r#"{"method":"ping","jsonrpc":"2.0","id":1,"method":"tools/list"}"#, "method"),
            (r#"{"method":"ping","jsonrpc":"2.0","jsonrpc":"2.0"}"#, "jsonrpc"),
            (r#"{"method":"ping","id":3,"jsonrpc":"2.0","result":{}}"#, MESSAGE_FIELD),
            (r#"{"id":1,"method":"ping","jsonrpc":"2.0","error":{"code":1,"message":"x"}}"#, MESSAGE_FIELD),
            (r#"{"method":"ping","jsonrpc":"1.0","id":1}"#, "jsonrpc"),
            (r#"{"method":"ping","id":1}"#, "jsonrpc"),
            (r#"{"method":"ping","id":true,"jsonrpc":"2.0"}"#, "id"),
        ] {
            let at = Source::at_line("cap", 1);
            assert!(router.quick(at, line.as_bytes()).is_none(), "{line}");
            let Parsed::Done(exact) = router.exactly(at, line.as_bytes()) else { panic!("{line}") };
            let f = &exact.report.findings()[0];
            let rule = if line.matches(&format!("\"{field}\":")).count() < 2 {
                rules::JSONRPC_SHAPE
            } else {
                rules::JSON_DUPLICATE_KEY
            };
            assert_eq!((f.rule(), f.field()), (rule.id, field), "{line}");
        }
        // An escaped key after `method` may spell a routing member: declined too.
        let escaped = br#"{"method":"ping","jsonrpc":"2.0","\u0069d":5}"#;
        let at = Source::at_line("cap", 1);
        assert!(router.quick(at, escaped).is_none());
        assert!(matches!(router.exactly(at, escaped), Parsed::Request(..)));
        let (mut quick, mut total) = (0, 0);
        let mut check = |line: &[u8]| {
            total += 1;
            let text = trim(line);
            if text.first() != Some(&b'{') {
                return;
            }
            let at = Source::at_line("cap", 1);
            if let Some(fast) = router.quick(at, text) {
                quick += 1;
                let exact = router.exactly(at, text);
                assert_eq!(comparable(fast), comparable(exact), "{}", String::from_utf8_lossy(line));
            }
        };
        let odd: &[&[u8]] =
            &[b"\xff", b"\xc3", b"\\ud800", b"\\", b"\"", b"{", b"}", b"[", b"]", b",", b":", b"0", b"-"];
        for seed in seeds {
            let seed = seed.as_bytes();
            check(seed);
            for i in 0..seed.len() {
                check(&[&seed[..i], &seed[i + 1..]].concat());
                check(&[&seed[..i], &seed[i..i + 1], &seed[i..]].concat());
                for o in odd {
                    check(&[&seed[..i], o, &seed[i + 1..]].concat());
                    check(&[&seed[..i], o, &seed[i..]].concat());
                }
            }
        }
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"a":{}1{}}}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        check(deep.as_bytes());
        // The quick way takes most of them: the mutants it answers are worth comparing.
        assert!(quick * 10 > total, "{quick} of {total}");
    }
}
