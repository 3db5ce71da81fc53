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
//! The parts, by job: `reader` reads a line's object members, kinds and
//! texts; `hint` tells a capture's revision from its lines; `verdict`
//! is a message's verdict; `id` keys a request id by its sender;
//! `frame` is each revision's JSON-RPC frame; `router` reads, routes
//! and judges one message; `waiting` holds the pending requests and
//! `pairing` pairs responses with them (`stream`: until a stream's
//! last event, or the end of a HAR entry's response); `threads` does it
//! on several threads in input order; [`har`] reads HAR captures; `scan`
//! is the quick way's byte scan.
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

use crate::catalog::Catalog;
use crate::rules::{self, Rule};

mod frame;
pub mod har;
mod hint;
mod id;
mod pairing;
mod reader;
mod revisions;
mod router;
mod scan;
mod stream;
mod threads;
mod verdict;
mod waiting;

pub use hint::{hints, initialize_version, Hint};
pub use id::Side;
pub use revisions::{requests, Revision, Revisions};
pub use verdict::{write_text, Judged, Judges, Source, Status, MESSAGE_FIELD};

use pairing::settle;
use reader::trim;
use router::{comparable, Router};
use waiting::Waiting;

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

pub use waiting::{PENDING_BUDGET, PENDING_WINDOW};

/// The routing state of one protocol revision over a capture.
pub struct Traffic<'c> {
    router: Router<'c>,
    pending: Waiting<'c>,
}

impl<'c> Traffic<'c> {
    /// Routes messages of `protocol` (`mcp`) to `catalog`'s contracts (the
    /// highest revision of each name); `label` names the protocol revision in
    /// messages (`mcp@2025-06-18`). `tools`: the tool contracts of
    /// `import tools-list`, if any.
    pub fn new(protocol: &str, label: &str, catalog: &'c Catalog, tools: Option<&'c Catalog>) -> Self {
        Traffic { router: Router::new(protocol, label, catalog, tools), pending: Waiting::default() }
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
        self.in_turn(Source::labelled(label), bytes, false, |j| out.push(j));
        out
    }

    /// Judges one message of a HAR capture ([`har::messages`]) labelled
    /// `label`, as [`Traffic::line`] its line; the one that closes its
    /// entry's response ([`har::HarMessage::ends`]) also ends the stream of
    /// the request it answers: a stream cut off before its final event
    /// waits for nothing more.
    pub fn har_message<'a>(&mut self, label: &'a str, m: &'a har::HarMessage) -> Vec<Judged<'a>>
    where
        'c: 'a,
    {
        let mut out = Vec::new();
        self.in_turn(Source::labelled(label), &m.line, m.ends, |j| out.push(j));
        out
    }

    /// The message (or batch) `side` sent in `session`, one JSON value: the
    /// verdicts [`Traffic::line`] gives the recorded line `{"from": side,
    /// "message": bytes, "session": session}`, without reading such a line
    /// (for a caller that wrote it: the proxy).
    pub fn sent<'a>(&mut self, label: &'a str, side: Side, session: Option<&str>, bytes: &'a [u8]) -> Vec<Judged<'a>>
    where
        'c: 'a,
    {
        let mut out = Vec::new();
        let (router, pending) = (&self.router, &mut self.pending);
        router.sent(Source::labelled(label), side, session, bytes, |p| out.push(settle(router, pending, p, false)));
        out
    }

    /// One line's messages parsed, paired and judged in turn, each verdict
    /// given to `f`: [`Traffic::line`], and [`Traffic::lines`] on one thread.
    /// `ends`: the line's responses end their streams.
    #[inline]
    fn in_turn<'a>(&mut self, source: Source<'a>, bytes: &'a [u8], ends: bool, mut f: impl FnMut(Judged<'a>))
    where
        'c: 'a,
    {
        let (router, pending) = (&self.router, &mut self.pending);
        router.each_message(source, bytes, |p| f(settle(router, pending, p, ends)));
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
                self.in_turn(Source::at_line(file, number), bytes, false, |j| {
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
