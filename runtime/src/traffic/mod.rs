//! Raw JSON-RPC 2.0 traffic judged by a protocol's catalog (SPEC §12): lines
//! in, one verdict per message out. No files, no output: the CLI reads the
//! capture within its caps and renders the verdicts.
//!
//! Routing, for a protocol `P` (`mcp`, `a2a`) whose catalog names its
//! contracts `P.<method>.request`, `P.<method>.response` and `P.error.response`:
//!
//! - a line holding a JSON array is a batch: each element is one message,
//!   labelled `LABEL[i]` (0-based);
//! - a recorded line `{"from": "client"|"server", "message": ...}` (optional
//!   `"session"`, `"time"`) holds a message or a batch sent by that side; a
//!   line with `skills` and no JSON-RPC member is an agent card, judged by
//!   `P.agent_card`;
//! - a request or notification (it has `method`) is judged whole by
//!   `P.<method>.request`; a request (it has `id`) is remembered as pending;
//! - a success response (`result`) is paired with the latest earlier request
//!   of its `id` still unanswered (in the lines given since
//!   [`Traffic::start_file`], in its session, sent by the other side when
//!   the line says who sent it) and its `result` value judged by that
//!   method's `P.<method>.response` (findings under `result.`); an error
//!   response is judged whole by `P.error.response`;
//! - a raw response whose id is pending for two requests of different
//!   methods (the two sides' ids collide) is paired with the latest unless
//!   only the earlier one's response contract accepts it, with a
//!   `route.ambiguous` warning;
//! - a response answering no pending request gets a `route.id` warning and
//!   is [`Status::Unpaired`], never a pass; a success response is also
//!   `route.response` when no `P.*.response` contract accepts its result;
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
//! assert_eq!(answer[0].contracts.ids(), ["mcp.ping.response@2025.6.18"]);
//! assert_eq!(answer[0].report.findings()[0].field(), "result.x");
//! ```

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::de::{Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::catalog::Catalog;
use crate::report::{Finding, Report};
use crate::rules::{self, Rule};
use crate::{ContractDirection, ContractSpec};
use protocolarc_core::TopMembers;

mod frame;
pub mod har;
mod scan;
mod stream;

/// The field of findings about a message as a whole.
pub const MESSAGE_FIELD: &str = "<message>";

/// One message's verdict. It borrows its label and contracts (nothing is
/// allocated for a message that passes); they are written out when shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged<'a> {
    /// Where the message is: `FILE:LINE`, `FILE:LINE[i]` for a batch element.
    pub source: Source<'a>,
    /// The contracts that judged the message, in the order applied (none
    /// when it could not be routed).
    pub contracts: Judges<'a>,
    /// Every finding; the message passes when none is an error.
    pub report: Report,
}

/// A message's verdict as shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// No error, and paired when a response.
    Pass,
    /// A response without error that answers no pending request: nobody
    /// checked it against its method's contract, so it never reads as passed.
    Unpaired,
    /// An error finding.
    Fail,
}

impl Status {
    /// `pass`, `unpaired`, `fail`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Unpaired => "unpaired",
            Status::Fail => "fail",
        }
    }
}

impl<'a> Judged<'a> {
    /// Pass, unpaired (a `route.id` finding, no error) or fail.
    pub fn status(&self) -> Status {
        if !self.report.is_valid() {
            Status::Fail
        } else if self.report.findings().iter().any(|f| f.rule() == rules::ROUTE_ID.id) {
            Status::Unpaired
        } else {
            Status::Pass
        }
    }

    /// A verdict's place, held until it is judged.
    fn placeholder(source: Source<'a>) -> Self {
        Judged { source, contracts: Judges::default(), report: Report::default() }
    }
}

/// Where a message is in its capture: `FILE:LINE`, or `FILE:LINE[i]` for
/// element `i` (from 0) of a batch line.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Source<'a> {
    /// The file's label (or the whole label given to [`Traffic::line`]).
    pub file: &'a str,
    // Four words, not six: a verdict crosses threads (`Traffic::lines`).
    /// The line number (from 1), 0 when the label is whole.
    line: usize,
    /// The batch element plus one, 0 for a message alone on its line.
    element: usize,
}

impl<'a> Source<'a> {
    /// A whole label (`FILE:LINE` given as one text).
    pub fn labelled(file: &'a str) -> Self {
        Source { file, line: 0, element: 0 }
    }

    /// Line `line` (from 1) of `file`.
    pub fn at_line(file: &'a str, line: usize) -> Self {
        Source { file, line, element: 0 }
    }

    /// The line number, unless the label is whole.
    pub fn line(&self) -> Option<usize> {
        (self.line > 0).then_some(self.line)
    }

    /// The element of a batch (from 0).
    pub fn element(&self) -> Option<usize> {
        self.element.checked_sub(1)
    }

    fn at(self, element: usize) -> Self {
        Source { element: element + 1, ..self }
    }
}

impl fmt::Display for Source<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.file)?;
        if let Some(line) = self.line() {
            write!(f, ":{line}")?;
        }
        if let Some(i) = self.element() {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Source<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Source")
            .field("file", &self.file)
            .field("line", &self.line())
            .field("element", &self.element())
            .finish()
    }
}

/// The contracts that judged a message, in the order applied: a message's
/// own contract and its tool's, so at most two in practice, kept inline.
#[derive(Debug, Clone, Default)]
pub struct Judges<'a> {
    inline: [Option<&'a ContractSpec>; 2],
    /// Never used by today's routing (two at most); boxed, so that a
    /// verdict stays small.
    // One word, where a `Vec` is three and a boxed slice two.
    #[allow(clippy::box_collection)]
    more: Option<Box<Vec<&'a ContractSpec>>>,
}

impl<'a> Judges<'a> {
    /// One contract: written whole, where a [`Judges::push`] on the default
    /// writes one word and a verdict's move then reads it back with its
    /// neighbours (a stalled load).
    fn one(c: &'a ContractSpec) -> Self {
        Judges { inline: [Some(c), None], more: None }
    }

    fn push(&mut self, c: &'a ContractSpec) {
        match self.inline.iter_mut().find(|slot| slot.is_none()) {
            Some(slot) => *slot = Some(c),
            None => self.more.get_or_insert_default().push(c),
        }
    }

    /// The contracts in the order applied.
    pub fn iter(&self) -> impl Iterator<Item = &'a ContractSpec> + '_ {
        self.inline.iter().flatten().copied().chain(self.more.iter().flat_map(|more| more.iter().copied()))
    }

    /// Whether no contract judged the message (it could not be routed).
    pub fn is_empty(&self) -> bool {
        self.inline[0].is_none()
    }

    /// Each contract as `name@revision`.
    pub fn ids(&self) -> Vec<String> {
        self.iter().map(ContractSpec::id).collect()
    }
}

impl PartialEq for Judges<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().map(|c| (c.name(), c.revision())).eq(other.iter().map(|c| (c.name(), c.revision())))
    }
}

impl Eq for Judges<'_> {}

/// The contracts of a method the catalog knows.
#[derive(Debug, Clone, Copy, Default)]
struct Method<'c> {
    /// The method's name (the map's key, as text).
    name: &'c str,
    request: Option<&'c ContractSpec>,
    response: Option<&'c ContractSpec>,
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
    /// Per method, the highest revision of `P.<method>.request` and of
    /// `P.<method>.response`.
    /// Keyed by the name's bytes: the quick way looks up the raw bytes
    /// between the quotes, with no UTF-8 check of its own.
    methods: HashMap<&'c [u8], Method<'c>, Hasher>,
    /// `P.error.response`.
    error: Option<&'c ContractSpec>,
    /// `P.agent_card`: judges a line that is an agent card.
    card: Option<&'c ContractSpec>,
    /// The JSON-RPC frame of the revision.
    frame: frame::Frame,
    /// Methods the revision before this one had and this one has not,
    /// with that revision's label.
    removed: Option<(String, Vec<String>)>,
    responses: Vec<&'c ContractSpec>,
    tools: Option<&'c Catalog>,
}

/// The bytes of lines a batch of [`Traffic::lines`] should hold at most
/// (past its last line) on `jobs` threads: what the CLI reads at a time
/// (`input::each_batch`), and its benchmark. On one thread, 256 KiB: a
/// batch stays in the core's cache from its reading to its verdicts (a
/// batch larger than a core's L2 cache is read back from memory). On more,
/// 4 MiB: a batch's threads are started once per batch, so fewer, larger
/// batches start fewer threads.
pub fn batch_bytes(jobs: usize) -> usize {
    if jobs <= 1 {
        256 << 10
    } else {
        4 << 20
    }
}

/// How many requests a request stays pending for: one unanswered after
/// this many later requests of its file is forgotten (its response, if it
/// comes, answers nothing), so that memory stays bounded on any capture.
pub const PENDING_WINDOW: usize = 4096;

mod threads;
mod waiting;
use waiting::{Held, Waiting};

/// The hasher of the maps looked up once or twice per message: seeded per
/// process (ids come from the capture), and several times faster than the
/// standard library's on short keys.
type Hasher = foldhash::fast::RandomState;

/// The routing state of one protocol revision over a capture.
pub struct Traffic<'c> {
    router: Router<'c>,
    pending: Waiting<'c>,
}

/// A message as far as its own bytes judge it (on any thread); what is left
/// depends on the requests before it ([`Traffic::pair`]).
/// `'a`: the message's bytes and label; `'c`: the catalog. Pairing fills
/// it in place, in input order.
enum Parsed<'a, 'c> {
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
    fn sent(self, side: Side, session: Option<&str>) -> Self {
        match self {
            Parsed::Request(j, Some((id, held))) => Parsed::Request(j, Some((id.sent(side, session), held))),
            Parsed::Response { j, findings, id: Some((id, excerpt)), result, paired } => {
                Parsed::Response { j, findings, id: Some((id.sent(side, session), excerpt)), result, paired }
            }
            other => other,
        }
    }
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
        Traffic {
            router: Router {
                protocol: protocol.to_string(),
                label: label.to_string(),
                methods,
                error,
                card,
                frame: frame::of(protocol, label.split_once('@').map_or("", |(_, r)| r)),
                removed: None,
                responses,
                tools,
            },
            pending: Waiting::default(),
        }
    }

    /// Whether the quick way (when it answers) and the exact reader agree
    /// on one message's verdict: what the fuzz target checks on any bytes.
    #[doc(hidden)]
    pub fn __quick_agrees(&self, bytes: &[u8]) -> bool {
        let text = trim(bytes);
        let at = Source::at_line("f", 1);
        match self.router.quick(at, text) {
            None => true,
            Some(fast) => comparable(fast) == comparable(self.router.exactly(at, text)),
        }
    }

    /// Names the methods the revision before this one (`label`) had and
    /// this one removed: a request of one says so, besides `route.method`.
    pub fn removed_since(&mut self, label: &str, methods: Vec<String>) {
        self.router.removed = Some((label.to_string(), methods));
    }

    /// Forgets every pending request: responses pair only within one file.
    pub fn start_file(&mut self) {
        self.pending.clear();
    }

    /// Judges one line (without its line break) labelled `label`
    /// (`FILE:LINE`): no verdict for a blank line, one for a message, one per
    /// element for a batch.
    pub fn line<'a>(&mut self, label: &'a str, bytes: &'a [u8]) -> Vec<Judged<'a>>
    where
        'c: 'a,
    {
        let mut out = Vec::new();
        self.in_turn(Source::labelled(label), bytes, |j| out.push(j));
        out
    }

    /// One line's messages parsed, paired and judged in turn, each verdict
    /// given to `f`: [`Traffic::line`], and [`Traffic::lines`] on one thread.
    #[inline]
    fn in_turn<'a>(&mut self, source: Source<'a>, bytes: &'a [u8], mut f: impl FnMut(Judged<'a>))
    where
        'c: 'a,
    {
        let (router, pending) = (&self.router, &mut self.pending);
        router.each_message(source, bytes, |p| f(settle(router, pending, p)));
    }

    /// Judges lines of one file in order, `(LINE, bytes)` labelled
    /// `FILE:LINE`, on up to `jobs` threads, giving each verdict to `each`:
    /// the verdicts of [`Traffic::line`] on each line in turn, in the same
    /// order, whatever `jobs`. Stops at the first error of `each`.
    /// `meanwhile` runs once on this thread: while the other threads judge
    /// (reading the next lines ahead, `input::each_batch`), or after the
    /// verdicts on one thread (not after an error of `each`, unless it ran
    /// before it).
    ///
    /// On one thread each message is parsed, paired and judged in turn. On
    /// more, the lines are cut into runs that the threads (this one
    /// included) parse and judge as far as their own bytes allow (a
    /// request's verdict is then final); this thread pairs each run's
    /// responses with the requests before them as soon as the runs before
    /// it are paired, and gives its verdicts to `each` once its success
    /// responses are judged (by their request's method, on any thread),
    /// while the other threads go on with the next runs.
    pub fn lines<'a, E>(
        &mut self,
        file: &'a str,
        lines: &[(usize, &'a [u8])],
        jobs: usize,
        meanwhile: impl FnOnce(),
        mut each: impl FnMut(Judged<'a>) -> Result<(), E>,
    ) -> Result<(), E>
    where
        'c: 'a,
    {
        if jobs <= 1 || lines.len() < 2 {
            // Each message parsed, paired, judged and handed on while it is
            // still in cache, with no batch of parsed messages in between.
            for &(number, bytes) in lines {
                let mut failed = None;
                self.in_turn(Source::at_line(file, number), bytes, |j| {
                    if failed.is_none() {
                        failed = each(j).err();
                    }
                });
                if let Some(e) = failed {
                    return Err(e);
                }
            }
            meanwhile();
            return Ok(());
        }
        threads::in_order(&self.router, &mut self.pending, file, lines, jobs, meanwhile, each)
    }
}

/// A parsed message as comparable data: its verdict, and for a request its
/// pairing key and what waits for the response.
type Comparable<'a> = (Judged<'a>, Option<(Vec<u8>, String, Option<String>)>);

fn comparable<'a>(p: Parsed<'a, '_>) -> Comparable<'a> {
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

/// One message paired and finished in turn (on one thread). Taken apart
/// by value: a request's id goes to the pending ones without being taken
/// out of the message first (a message moved on after that read back the
/// word pairing had just written into it, a stalled load per request).
#[inline(always)]
fn settle<'a, 'c>(router: &Router<'c>, pending: &mut Waiting<'c>, p: Parsed<'a, 'c>) -> Judged<'a>
where
    'c: 'a,
{
    match p {
        Parsed::Done(j) | Parsed::Request(j, None) => j,
        Parsed::Request(j, Some((id, held))) => {
            pending.push(&id, held);
            j
        }
        mut p @ Parsed::Response { .. } => {
            pair(router, pending, &mut p);
            router.finish(p)
        }
    }
}

/// Pairs a response with the latest still-unanswered request of its id, or
/// remembers a request as pending: in input order. Whether a result waits
/// to be judged by the request's method.
fn pair<'c>(router: &Router<'c>, pending: &mut Waiting<'c>, p: &mut Parsed<'_, 'c>) -> bool {
    match p {
        Parsed::Request(_, waits) => {
            if let Some((id, held)) = waits.take() {
                pending.push(&id, held);
            }
            false
        }
        Parsed::Response { findings, id, result, paired, .. } => {
            if let Some((id, excerpt)) = &id {
                let (side, kind) = Side::of(id.tag);
                let (answered, by) = match side {
                    Side::Unknown => (router.either(pending, id, excerpt, *result, findings), Side::Unknown),
                    side => match pending.answer(&id.key_from(side.other())) {
                        Some(p) => (Some(p), side.other()),
                        None => (pending.answer(&id.key_from(Side::Unknown)), Side::Unknown),
                    },
                };
                // A stream's request waits on for its next event, until the last.
                if let (Some(p), Some(r)) = (&answered, *result) {
                    if stream::streams(&p.method) && !stream::last(r) {
                        pending.push(&IdRef { tag: by.tag(kind), body: id.body.clone() }, p.clone().into());
                    }
                }
                *paired = answered;
            }
            if let (Some((_, excerpt)), None) = (&id, &paired) {
                let msg = format!("no request with id {excerpt} is waiting for a response in this file");
                findings.insert(0, Finding::new(rules::ROUTE_ID, "id", msg));
            }
            result.is_some()
        }
        Parsed::Done(_) => false,
    }
}

impl<'c> Router<'c> {
    /// Parses one line, giving each message to `f` as it comes: nothing
    /// for a blank line, one message, or a batch's elements.
    #[inline]
    fn each_message<'a>(&self, label: Source<'a>, bytes: &'a [u8], mut f: impl FnMut(Parsed<'a, 'c>))
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
            Err(e) => f(Parsed::Done(shape(label, MESSAGE_FIELD, format!("not JSON: {e}")))),
            Ok(items) => self.batch(label, &items, f),
        }
    }

    /// Judges one message (not a batch) as far as its own bytes allow.
    #[inline(always)]
    fn message<'a>(&self, source: Source<'a>, bytes: &'a [u8]) -> Parsed<'a, 'c>
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
    const ROUTING_KEYS: &'static [&'static str] = &["jsonrpc", "method", "id", "result", "error"];
    /// The routing members, none seen yet (their lookup table made once, here).
    const NO_MEMBERS: TopMembers = TopMembers::new(Self::ROUTING_KEYS);

    /// The common message the quick way: a request or notification whose
    /// method has a contract (and no tool to judge), routed by the scan of
    /// its top-level members and validated whole by the walker alone. `None`
    /// for anything else, and for bytes the walker finds are not JSON:
    /// [`Router::exactly`] then reads the message, so that both ways give
    /// the same verdict.
    #[inline(always)]
    fn quick<'a>(&self, source: Source<'a>, bytes: &'a [u8]) -> Option<Parsed<'a, 'c>>
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
        if self.frame.progress_token && memchr::memmem::find(bytes, b"progressToken").is_some() {
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
    fn exactly<'a>(&self, source: Source<'a>, bytes: &'a [u8]) -> Parsed<'a, 'c>
    where
        'c: 'a,
    {
        match parse_object(bytes) {
            Ok(members) => self.judged(source, bytes, members),
            Err(why) => Parsed::Done(shape(source, MESSAGE_FIELD, why)),
        }
    }

    /// A recorded line's message (or batch), each sent by the side it names.
    fn recorded<'a>(&self, label: Source<'a>, members: &Members<'a>, mut f: impl FnMut(Parsed<'a, 'c>))
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
        let bytes = message.get().as_bytes();
        let sent = |p: Parsed<'a, 'c>| p.sent(side, session.as_deref());
        if kind(message) != Kind::Array {
            return f(sent(self.message(label, bytes)));
        }
        match serde_json::from_str::<Vec<&RawValue>>(message.get()) {
            Err(e) => f(done("message", format!("not JSON: {e}"))),
            Ok(items) => self.batch(label, &items, |p| f(sent(p))),
        }
    }

    /// A batch's elements, each a message, where the revision has batches.
    fn batch<'a>(&self, label: Source<'a>, items: &[&'a RawValue], mut f: impl FnMut(Parsed<'a, 'c>))
    where
        'c: 'a,
    {
        if items.is_empty() {
            return f(Parsed::Done(shape(label, MESSAGE_FIELD, "an empty batch holds no message".to_string())));
        }
        if !self.frame.batches {
            let msg = format!(
                "a batch of {} message{}: {} has no batches (its JSONRPCMessage is one message)",
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
    fn judged<'a>(&self, source: Source<'a>, bytes: &'a [u8], members: Members<'a>) -> Parsed<'a, 'c>
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
    fn bad_id(&self, id: &RawValue, what: &str) -> Option<String> {
        match kind(id) {
            Kind::String => None,
            Kind::Number if !self.frame.integer_ids || frame::integer(id.get().as_bytes()) => None,
            Kind::Number => Some(format!("{what} is a string or an integer in {}, found {}", self.label, excerpt(id))),
            _ => Some(format!("{what} is a string or a number, found {}", excerpt(id))),
        }
    }

    /// Why a request's `params._meta.progressToken` is not a string or an
    /// integer, where the revision's frame says so.
    fn bad_progress_token(&self, members: &Members<'_>) -> Option<String> {
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

    /// The request a raw response answers: the latest pending one of its
    /// id, unless the one before it is of another method (the other side's
    /// request, whose id collides) and only that one's response contract
    /// accepts the result; a `route.ambiguous` warning names both.
    fn either(
        &self,
        pending: &mut Waiting<'c>,
        id: &IdRef<'_>,
        excerpt: &str,
        result: Option<&RawValue>,
        findings: &mut Vec<Finding>,
    ) -> Option<Pending<'c>> {
        let key = id.key();
        let (latest, before) = match pending.latest_two(&key) {
            [Some(a), Some(b)] if a != b => (a.into_owned(), b.into_owned()),
            _ => return pending.answer(&key),
        };
        let accepts = |method: &str| {
            let contract = self.methods.get(method.as_bytes()).and_then(|m| m.response);
            matches!((result, contract), (Some(r), Some(c)) if c.validate_json(r.get().as_bytes()).is_valid())
        };
        let second = !accepts(&latest) && accepts(&before);
        let chosen = if second { &before } else { &latest };
        let (latest, before, chosen) = (
            protocolarc_core::one_line(&latest),
            protocolarc_core::one_line(&before),
            protocolarc_core::one_line(chosen),
        );
        findings.push(Finding::new(
            rules::ROUTE_AMBIGUOUS,
            "id",
            format!(
                "id {excerpt} is pending for two requests, {latest} and {before} (a raw line does not say who sent which): paired with {chosen}"
            ),
        ));
        if second {
            pending.answer_second(&key)
        } else {
            pending.answer(&key)
        }
    }

    /// A paired message's verdict: a success response judged by its
    /// request's method (or by any response contract, unpaired).
    fn finish<'a>(&self, parsed: Parsed<'a, 'c>) -> Judged<'a>
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
    fn request<'a>(
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
        // Sorted by name then revision: from the end, a tool's newest revision first.
        tools.entries().iter().rev().map(|(_, c)| c).filter(|c| c.name().ends_with(&suffix)).find(|c| {
            // An input contract is never a response's (`S.x.output` also ends with `.output`).
            output || c.direction() != ContractDirection::Response
        })
    }

    /// A success response to a known request.
    fn result<'a>(&self, j: &mut Judged<'a>, findings: &mut Vec<Finding>, result: &RawValue, p: &Pending<'_>)
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
    fn orphan(&self, findings: &mut Vec<Finding>, result: &RawValue) {
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
fn judge<'a>(j: &mut Judged<'a>, findings: &mut Vec<Finding>, contract: &'a ContractSpec, body: &[u8], prefix: &str) {
    j.contracts.push(contract);
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
    /// object with `skills`) declares this protocol version: its own
    /// `protocolVersion` (up to v0.3), or from v1.0 on, where the card
    /// moved it into `supportedInterfaces[]`, the JSON-RPC interface's
    /// (else the first interface's that has one).
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
    if let Some(message) = parse_object(text).ok().filter(recorded).and_then(|m| m.get("message")) {
        // A recorded line: its message's (or batch's) hints.
        return hints(message.get().as_bytes());
    }
    hint(text).into_iter().collect()
}

fn hint(bytes: &[u8]) -> Option<Hint> {
    let members = parse_object(bytes).ok()?;
    let card = |m: &Members<'_>| -> Option<Hint> {
        m.get("skills").filter(|s| kind(s) == Kind::Array)?;
        if let Some(v) = m.get("protocolVersion") {
            return Some(Hint::AgentCard(text(v)?.into_owned()));
        }
        let interfaces = serde_json::from_str::<Vec<&RawValue>>(m.get("supportedInterfaces")?.get()).ok()?;
        let versions: Vec<(bool, String)> = interfaces
            .iter()
            .filter_map(|i| {
                let i = parse_object(i.get().as_bytes()).ok()?;
                let json_rpc = i.get("protocolBinding").and_then(text).is_some_and(|b| b == "JSONRPC");
                Some((json_rpc, text(i.get("protocolVersion")?)?.into_owned()))
            })
            .collect();
        let (_, version) = versions.iter().find(|(json_rpc, _)| *json_rpc).or(versions.first())?;
        Some(Hint::AgentCard(version.clone()))
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

/// Whether an object is a recorded line: no `jsonrpc`, a `message`.
fn recorded(members: &Members<'_>) -> bool {
    members.get("jsonrpc").is_none() && members.get("message").is_some()
}

/// Whether an object is an agent card: no JSON-RPC member, `skills` (as
/// [`hints`] reads a card).
fn is_card(members: &Members<'_>) -> bool {
    ["method", "id", "result", "error"].iter().all(|k| members.get(k).is_none()) && members.get("skills").is_some()
}

fn shape<'a>(source: Source<'a>, field: &str, message: String) -> Judged<'a> {
    let report = Report::new(vec![Finding::new(rules::JSONRPC_SHAPE, field, message)]);
    Judged { source, contracts: Judges::default(), report }
}

/// The record of every rule this module emits besides the validators'.
pub const TRAFFIC_RULES: &[&Rule] = &[
    rules::JSONRPC_SHAPE,
    rules::JSONRPC_BATCH,
    rules::ROUTE_METHOD,
    rules::ROUTE_ID,
    rules::ROUTE_AMBIGUOUS,
    rules::ROUTE_RESPONSE,
    rules::ROUTE_TOOL,
];

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

/// A request id as responses pair with it: a string by its decoded text
/// (tagged `s`), a number as written (`n`); a short one (most are) inline,
/// without allocating.
#[derive(Debug, Clone, PartialEq, Eq)]
enum IdKey {
    Inline(u8, [u8; IdKey::INLINE]),
    Heap(Box<[u8]>),
}

impl IdKey {
    const INLINE: usize = 30;

    /// No id (an empty slot's): equal to no key [`IdKey::new`] makes.
    const EMPTY: IdKey = IdKey::Inline(0, [0; IdKey::INLINE]);

    fn new(tag: u8, body: &[u8]) -> Self {
        let mut key = IdKey::EMPTY;
        key.write(tag, body);
        key
    }
}

impl IdKey {
    /// Writes the key of `tag` and `body` over this one, which owns nothing
    /// (an inline key), without reading it: the bytes go straight to their
    /// place (a pending request's slot).
    /// The one place a key's bytes are laid out ([`IdKey::new`] too).
    fn write(&mut self, tag: u8, body: &[u8]) {
        debug_assert!(matches!(self, IdKey::Inline(..)), "a key written over one that owns memory would leak it");
        let n = body.len();
        if n < Self::INLINE {
            std::mem::forget(std::mem::replace(self, IdKey::EMPTY));
            if let IdKey::Inline(len, bytes) = self {
                bytes[0] = tag;
                bytes[1..=n].copy_from_slice(body);
                *len = n as u8 + 1;
            }
        } else {
            let heap = IdKey::Heap([&[tag][..], body].concat().into_boxed_slice());
            std::mem::forget(std::mem::replace(self, heap));
        }
    }

    fn bytes(&self) -> &[u8] {
        match self {
            IdKey::Inline(len, bytes) => &bytes[..usize::from(*len)],
            IdKey::Heap(bytes) => bytes,
        }
    }
}

impl std::hash::Hash for IdKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(self.bytes());
    }
}

/// A request id as its message holds it: its tag (`s` a string, `n` a
/// number) and its body, borrowed when it needs no decoding. What moves
/// with a parsed message is these few words; the [`IdKey`] the pending
/// requests keep is written once, in its slot ([`Waiting::push`]): built
/// here and moved, its bytes written one by one were read back sixteen at
/// a time, a stalled load per request.
#[derive(Debug, Clone, PartialEq, Eq)]
struct IdRef<'a> {
    tag: u8,
    body: Cow<'a, [u8]>,
}

impl<'a> IdRef<'a> {
    fn borrowed(tag: u8, body: &'a [u8]) -> Self {
        IdRef { tag, body: Cow::Borrowed(body) }
    }

    /// The key the pending requests hold.
    fn key(&self) -> IdKey {
        IdKey::new(self.tag, &self.body)
    }
}

/// Who sent a message: a raw line does not say; a recorded line does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// A raw line.
    Unknown,
    /// `"from": "client"`.
    Client,
    /// `"from": "server"`.
    Server,
}

impl Side {
    /// The side that answers this side's requests.
    fn other(self) -> Side {
        match self {
            Side::Client => Side::Server,
            Side::Server => Side::Client,
            Side::Unknown => Side::Unknown,
        }
    }

    /// A key's tag for an id of kind `kind` (`s`, `n`) sent by this side:
    /// the kind as is for a raw line, upper case for the client, its high
    /// bit set for the server, so that the sides never share a key.
    fn tag(self, kind: u8) -> u8 {
        match self {
            Side::Unknown => kind,
            Side::Client => kind.to_ascii_uppercase(),
            Side::Server => kind | 0x80,
        }
    }

    /// The side and kind a key's tag holds.
    fn of(tag: u8) -> (Side, u8) {
        if tag & 0x80 != 0 {
            (Side::Server, tag & 0x7f)
        } else if tag.is_ascii_uppercase() {
            (Side::Client, tag.to_ascii_lowercase())
        } else {
            (Side::Unknown, tag)
        }
    }
}

impl IdRef<'_> {
    /// This id as sent by `side` in `session`: a session's name goes before
    /// the id's body, ended by a byte no UTF-8 text holds, so that sessions
    /// never share a key.
    fn sent(self, side: Side, session: Option<&str>) -> Self {
        let tag = side.tag(Side::of(self.tag).1);
        match session {
            None => IdRef { tag, body: self.body },
            Some(s) => IdRef { tag, body: Cow::Owned([s.as_bytes(), &[0xff], &self.body].concat()) },
        }
    }

    /// The key of the same id sent by `side`.
    fn key_from(&self, side: Side) -> IdKey {
        IdKey::new(side.tag(Side::of(self.tag).1), &self.body)
    }
}

/// Equal ids pair: strings by their decoded text, numbers as written.
fn id_ref(id: &RawValue) -> IdRef<'_> {
    match text(id) {
        Some(Cow::Borrowed(s)) => IdRef::borrowed(b's', s.as_bytes()),
        Some(Cow::Owned(s)) => IdRef { tag: b's', body: Cow::Owned(s.into_bytes()) },
        None => IdRef::borrowed(b'n', id.get().as_bytes()),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An agent card tells its protocol version: its own (to v0.3), or its
    /// JSON-RPC interface's (v1.0), else its first interface's.
    #[test]
    fn agent_cards_hint_their_version() {
        let card = |rest: &str| hints(format!(r#"{{"name": "a", "skills": [], {rest}}}"#).as_bytes());
        let version = |v: &str| vec![Hint::AgentCard(v.to_string())];
        assert_eq!(card(r#""protocolVersion": "0.2.9""#), version("0.2.9"));
        let interfaces = r#""supportedInterfaces": [
            {"url": "g", "protocolBinding": "GRPC", "protocolVersion": "1.1"},
            {"url": "j", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]"#;
        assert_eq!(card(interfaces), version("1.0"));
        assert_eq!(
            card(r#""supportedInterfaces": [{"protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"}]"#),
            version("0.3")
        );
        // No version anywhere, or no skills: not a card that tells one.
        assert_eq!(card(r#""supportedInterfaces": [{"protocolBinding": "JSONRPC"}]"#), vec![]);
        assert_eq!(hints(br#"{"name": "a", "supportedInterfaces": [{"protocolVersion": "1.0"}]}"#), vec![]);
    }

    /// A verdict is ten words: its source four (not six), its contracts
    /// three (the spill boxed), its report three. Verdicts cross threads
    /// by the hundred thousand (`Traffic::lines`).
    #[test]
    fn a_verdict_stays_small_and_its_source_reads_back() {
        assert_eq!(std::mem::size_of::<Judged<'_>>(), 10 * std::mem::size_of::<usize>());
        let line = Source::at_line("cap", 7);
        assert_eq!((line.line(), line.element(), line.to_string()), (Some(7), None, "cap:7".to_string()));
        let element = line.at(0);
        assert_eq!((element.line(), element.element(), element.to_string()), (Some(7), Some(0), "cap:7[0]".into()));
        let whole = Source::labelled("cap:9").at(2);
        assert_eq!((whole.line(), whole.element(), whole.to_string()), (None, Some(2), "cap:9[2]".to_string()));
        assert_eq!(format!("{element:?}"), r#"Source { file: "cap", line: Some(7), element: Some(0) }"#);
    }

    /// A third contract (none today's routing pushes) is kept, in order.
    #[test]
    fn judges_keep_every_contract_in_order() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../protocols/mcp/2025-06-18");
        let catalog = Catalog::load(&[root]).expect("the bundled catalog loads");
        let some: Vec<&ContractSpec> = catalog.contracts().take(4).collect();
        let mut judges = Judges::default();
        assert!(judges.is_empty());
        for c in &some {
            judges.push(c);
        }
        assert_eq!(judges.ids(), some.iter().map(|c| c.id()).collect::<Vec<_>>());
        assert_eq!(some[0].shown_id(), some[0].id());
        // One contract written whole is the same list as one pushed.
        let one = Judges::one(some[1]);
        assert_eq!(one.ids(), [some[1].id()]);
        assert!(!one.is_empty() && one.more.is_none());
    }

    /// The quick way, whenever it answers, gives exactly the exact
    /// reader's verdict: on real requests and on every one-byte mutant of
    /// them (a byte dropped, doubled, or replaced by one of JSON's own).
    #[test]
    fn the_quick_way_agrees_with_the_exact_reader() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../protocols/mcp/2025-06-18");
        let catalog = Catalog::load(&[root]).expect("the bundled catalog loads");
        let traffic = Traffic::new("mcp", "mcp@2025-06-18", &catalog, None);
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
            assert!(traffic.router.quick(at, line.as_bytes()).is_none(), "{line}");
            let Parsed::Done(exact) = traffic.router.exactly(at, line.as_bytes()) else { panic!("{line}") };
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
        assert!(traffic.router.quick(at, escaped).is_none());
        assert!(matches!(traffic.router.exactly(at, escaped), Parsed::Request(..)));
        let (mut quick, mut total) = (0, 0);
        let mut check = |line: &[u8]| {
            total += 1;
            let text = trim(line);
            if text.first() != Some(&b'{') {
                return;
            }
            let at = Source::at_line("cap", 1);
            if let Some(fast) = traffic.router.quick(at, text) {
                quick += 1;
                let exact = traffic.router.exactly(at, text);
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
