//! The judge: one per session, the one place a message is judged. A
//! transport hands it each complete message as it was on the wire, with the
//! side that sent it, and carries out the [`Action`] it answers.
//!
//! A message is judged exactly as `traffic` judges the recorded line
//! `{"from": SIDE, "message": MESSAGE, "session": ..., "time": ...}` it
//! writes to `--record`: the message's bytes go to the runtime's traffic
//! engine as the side and session of that line, so `traffic` on the record
//! reproduces the live verdicts. A message that is not one JSON value is
//! recorded, and judged, as the JSON string of its text. The revision is the one `--protocol` names,
//! else the one the session's first message tells (`initialize`, an agent
//! card, an A2A method), as `traffic` picks it.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use protocolarc::traffic::{hints, Judged, Status, Traffic};
use protocolarc::Finding;
use serde_json::Value;

use crate::catalogs::{Catalogs, Revision};
use crate::events::{self, Report, Verdict};
pub use crate::message::{Action, Side};
use crate::message::{Failing, Pin};
use crate::pinned::Pinned;
use crate::{answer, clock};

/// What a proxy is started with (the command line's flags).
pub struct Options {
    /// The catalog root: `<protocol>/<revision>/*.json`.
    pub catalog: PathBuf,
    /// `--protocol NAME@REVISION`: no detection.
    pub protocol: Option<String>,
    /// `--tools DIR`: the pinned tool contracts.
    pub tools: Option<PathBuf>,
    /// `--enforce`.
    pub enforce: bool,
    /// `--relay`: no checks, no report, no record: the bytes relayed only.
    pub relay: bool,
    /// `--report FILE`, opened: JSON lines. `None`: text on stderr.
    pub report: Option<Box<dyn Write + Send>>,
    /// `--record FILE`, opened.
    pub record: Option<Box<dyn Write + Send>>,
    /// The largest message judged (bytes, line break excluded): the line cap
    /// `traffic` reads captures with.
    pub max_message: usize,
}

/// What every session of a proxy shares, read-only but for the sinks.
pub struct Config {
    catalogs: Catalogs,
    protocol: Option<Revision>,
    tools: Option<Pinned>,
    enforce: bool,
    relay: bool,
    report: Report,
    record: Option<events::Shared>,
    max_message: usize,
}

impl Config {
    /// Reads the catalog root and the pinned tools; an error names the
    /// directory or file at fault.
    pub fn new(options: Options) -> Result<Config, String> {
        let catalogs = Catalogs::new(options.catalog)?;
        let protocol = match &options.protocol {
            Some(p) => {
                let r = catalogs.chosen(p)?;
                catalogs.load(&r)?;
                Some(r)
            }
            None => None,
        };
        let tools = match &options.tools {
            Some(dir) => Some(Pinned::load(dir)?),
            None => None,
        };
        let report = match options.report {
            Some(w) => Report::Json(Mutex::new(w)),
            None => Report::Text(Mutex::new(Box::new(std::io::stderr()))),
        };
        Ok(Config {
            catalogs,
            protocol,
            tools,
            enforce: options.enforce,
            relay: options.relay,
            report,
            record: options.record.map(Mutex::new),
            max_message: options.max_message,
        })
    }

    /// Whether messages are judged at all (not `--relay`).
    pub fn judges(&self) -> bool {
        !self.relay
    }

    /// Whether the proxy enforces (`--enforce`).
    pub fn enforces(&self) -> bool {
        self.enforce && !self.relay
    }

    /// The largest message judged, in bytes.
    pub fn max_message(&self) -> usize {
        self.max_message
    }

    /// Whether messages are judged without acting on them (neither
    /// `--enforce` nor `--relay`): a verdict then changes nothing on the
    /// wire, so a transport may forward a message before judging it.
    pub fn observes(&self) -> bool {
        !self.enforce && !self.relay
    }
}

/// One session's judge: its revision, once known, and the requests each
/// side is waiting on.
pub struct Judge {
    config: Arc<Config>,
    session: String,
    /// The session's traffic engine, once its revision is known; `None`
    /// after the revision could not be told (then nothing is judged).
    traffic: Option<Traffic<'static>>,
    decided: bool,
    protocol: String,
    /// Messages judged so far: a message's label is `SESSION#N`.
    count: u64,
    /// Tools refused in this session (changed or unpinned when listed).
    refused: Vec<(String, Finding)>,
}

impl Judge {
    /// A judge for one session, named `session` in the report and record.
    pub fn new(config: Arc<Config>, session: String) -> Judge {
        let mut judge = Judge {
            config,
            session,
            traffic: None,
            decided: false,
            protocol: String::new(),
            count: 0,
            refused: Vec::new(),
        };
        if let Some(r) = judge.config.protocol.clone() {
            judge.start(&r, None);
        }
        judge
    }

    /// The session's name.
    pub fn session(&self) -> &str {
        &self.session
    }

    /// Reports something that happened to the session (`event`: `exit`,
    /// `disconnect`, ...) in the report.
    pub fn event(&self, event: &str, message: &str) {
        self.config.report.event(&self.session, event, message);
    }

    /// One complete JSON-RPC message (or batch) as it was on the wire, from one side.
    pub fn message(&mut self, from: Side, bytes: &[u8]) -> Action {
        if self.config.relay {
            return Action::Forward;
        }
        let text = trim(bytes);
        if text.is_empty() {
            return Action::Forward;
        }
        if text.len() > self.config.max_message {
            return self.too_large(from, text.len());
        }
        self.decide(text);
        let Some(traffic) = self.traffic.as_mut() else { return Action::Forward };
        self.count += 1;
        let label = format!("{}#{}", self.session, self.count);
        let side = match from {
            Side::Client => protocolarc::traffic::Side::Client,
            Side::Server => protocolarc::traffic::Side::Server,
        };
        // The message is judged as it came, which reads it once; only one
        // that is not a JSON value is then judged again as what the record
        // holds in its place, the JSON string of its text (what `traffic`
        // gives the recorded line is what is judged here, either way).
        let shown;
        let mut verdicts = traffic.sent(&label, side, Some(&self.session), text);
        let judged = if verdicts.len() == 1 && verdicts[0].unreadable() {
            shown = Value::String(String::from_utf8_lossy(text).into_owned()).to_string();
            verdicts = traffic.sent(&label, side, Some(&self.session), shown.as_bytes());
            shown.as_bytes()
        } else {
            text
        };
        if let Some(record) = &self.config.record {
            events::write_line(record, &recorded(from, judged, &self.session));
        }
        let protocol = self.protocol.clone();
        let protocol = protocol.as_str();
        for j in &verdicts {
            let method = method_of(protocol, j);
            self.config.report.verdict(&Verdict { session: &self.session, from, method, judged: j });
        }
        let pins = self.pins(from, text, protocol, &verdicts);
        let failing: Vec<Failing> = verdicts
            .iter()
            .filter(|j| j.status() == Status::Fail)
            .map(|j| Failing { element: j.source.element(), findings: j.report.findings().to_vec() })
            .collect();
        drop(verdicts);
        if !self.config.enforce || (failing.is_empty() && pins.is_empty()) {
            return Action::Forward;
        }
        crate::enforce::action(from, text, failing, pins)
    }

    /// An A2A agent card fetched by the client (tells the revision, judged as a card).
    pub fn card(&mut self, bytes: &[u8]) -> Action {
        match self.message(Side::Server, bytes) {
            // A card is no JSON-RPC message: nothing can stand in its place.
            Action::Answer(_) | Action::Replace(_) => Action::Drop,
            other => other,
        }
    }

    /// A message longer than the cap: reported, not judged nor recorded.
    /// Observing, it is forwarded (the transport streams it through);
    /// enforcing, it is dropped, and a client is told its request was
    /// refused (under the id `null`: the id was not read).
    pub fn too_large(&mut self, from: Side, len: usize) -> Action {
        if self.config.relay {
            return Action::Forward;
        }
        let cap = self.config.max_message;
        let msg = format!(
            "a {} message of {len} bytes or more is longer than the limit of {cap} bytes \
             (PROTOCOLARC_MAX_LINE_BYTES raises it): not judged, not recorded",
            from.name()
        );
        self.event("oversized", &msg);
        if !self.config.enforce {
            return Action::Forward;
        }
        match from {
            Side::Client => {
                let f = Finding::new(protocolarc::rules::JSONRPC_SHAPE, protocolarc::traffic::MESSAGE_FIELD, msg);
                let e = answer::error(Value::Null, answer::INVALID_REQUEST, "protocolarc: message too large", &[f]);
                Action::Answer(answer::bytes(&e))
            }
            Side::Server => Action::Drop,
        }
    }

    /// Picks the session's revision on its first message, unless chosen.
    fn decide(&mut self, text: &[u8]) {
        if self.decided {
            return;
        }
        match self.config.catalogs.decided(&hints(text)) {
            Ok((r, note)) => self.start(&r, Some(&note)),
            Err(why) => {
                self.decided = true;
                self.event("protocol", &format!("{why}: the session is relayed unjudged"));
            }
        }
    }

    fn start(&mut self, r: &Revision, note: Option<&str>) {
        self.decided = true;
        let catalogs = &self.config.catalogs;
        let loaded = catalogs.load(r).and_then(|c| Ok((c, catalogs.removed(r)?)));
        let (catalog, removed) = match loaded {
            Ok(pair) => pair,
            Err(why) => return self.event("protocol", &format!("{why}: the session is relayed unjudged")),
        };
        let label = format!("{}@{}", r.0, r.1);
        let mut traffic = Traffic::new(&r.0, &label, catalog, self.config.tools.as_ref().map(|t| t.catalog));
        if let Some((before, methods)) = removed {
            traffic.removed_since(&before, methods);
        }
        self.traffic = Some(traffic);
        self.protocol = r.0.clone();
        if let Some(note) = note {
            self.event("protocol", note);
        }
    }

    /// With pinned tools: the tools a `tools/list` result may not list, and
    /// a `tools/call` of a refused or unpinned tool; reported here.
    fn pins(&mut self, from: Side, text: &[u8], protocol: &str, verdicts: &[Judged<'_>]) -> Vec<Pin> {
        let Some(pinned) = &self.config.tools else { return Vec::new() };
        let list = format!("{protocol}.tools/list.response");
        let call = format!("{protocol}.tools/call.request");
        let mut out = Vec::new();
        for j in verdicts {
            let names = |n: &str| j.contracts.iter().any(|c| c.name() == n);
            let (listing, calling) = (from == Side::Server && names(&list), from == Side::Client && names(&call));
            if !listing && !calling {
                continue;
            }
            let Some(message) = element(text, j.source.element()) else { continue };
            if listing {
                let tools = message.pointer("/result/tools").and_then(Value::as_array);
                let refusals = tools.map(|t| pinned.check(t)).unwrap_or_default();
                if refusals.is_empty() {
                    continue;
                }
                let findings: Vec<Finding> = refusals.iter().map(|r| r.finding.clone()).collect();
                self.config.report.pins(&self.session, from, "tools/list", &findings);
                for r in &refusals {
                    self.refused.retain(|(n, _)| *n != r.name);
                    self.refused.push((r.name.clone(), r.finding.clone()));
                }
                out.push(Pin::List { element: j.source.element(), refusals });
            } else {
                let Some(name) = message.pointer("/params/name").and_then(Value::as_str) else { continue };
                let finding = match self.refused.iter().find(|(n, _)| n == name) {
                    Some((_, f)) => f.clone(),
                    None if !pinned.has(name) => Finding::new(
                        protocolarc::rules::TOOL_UNPINNED,
                        "params.name",
                        format!("tool '{}' has no pinned contract", protocolarc::one_line(name)),
                    ),
                    None => continue,
                };
                let finding = Finding::new(
                    if finding.rule() == protocolarc::rules::TOOL_CHANGED.id {
                        protocolarc::rules::TOOL_CHANGED
                    } else {
                        protocolarc::rules::TOOL_UNPINNED
                    },
                    "params.name",
                    finding.message().to_string(),
                );
                self.config.report.pins(&self.session, from, "tools/call", std::slice::from_ref(&finding));
                out.push(Pin::Call { element: j.source.element(), finding });
            }
        }
        out
    }
}

/// The method a verdict is about: its contract's `P.<method>.request|response`.
fn method_of<'j>(protocol: &str, j: &'j Judged<'_>) -> Option<&'j str> {
    let c = j.contracts.iter().next()?;
    let rest = c.name().strip_prefix(protocol)?.strip_prefix('.')?;
    rest.strip_suffix(".request").or_else(|| rest.strip_suffix(".response"))
}

/// The recorded line of a message, one JSON value (as judged):
/// `{"from":...,"message":...,"session":...,"time":...}`.
fn recorded(from: Side, message: &[u8], session: &str) -> Vec<u8> {
    let mut line = Vec::with_capacity(message.len() + 96);
    line.extend_from_slice(b"{\"from\":\"");
    line.extend_from_slice(from.name().as_bytes());
    line.extend_from_slice(b"\",\"message\":");
    line.extend_from_slice(message);
    line.extend_from_slice(b",\"session\":");
    line.extend_from_slice(Value::String(session.to_string()).to_string().as_bytes());
    line.extend_from_slice(b",\"time\":\"");
    line.extend_from_slice(clock::now().as_bytes());
    line.extend_from_slice(b"\"}");
    line
}

/// Leading and trailing JSON white space (a line's `\r` included) removed.
fn trim(mut b: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = b {
        if matches!(first, b' ' | b'\t' | b'\r' | b'\n') {
            b = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = b {
        if matches!(last, b' ' | b'\t' | b'\r' | b'\n') {
            b = rest;
        } else {
            break;
        }
    }
    b
}

/// A message as a value: the whole message, or element `i` of a batch.
fn element(text: &[u8], i: Option<usize>) -> Option<Value> {
    let v: Value = serde_json::from_slice(text).ok()?;
    match (v, i) {
        (Value::Array(mut items), Some(i)) if i < items.len() => Some(items.swap_remove(i)),
        (v @ Value::Object(_), None) => Some(v),
        _ => None,
    }
}
