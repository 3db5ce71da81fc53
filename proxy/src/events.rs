//! Where a proxy writes what it sees: verdicts and events to the report
//! (JSON lines with `--report`, else text on stderr), messages to the record
//! (`--record`, the recorded lines `traffic` reads). Each line is written
//! whole under its sink's lock and flushed, so that sessions on several
//! threads never interleave within a line and a reader following the file
//! sees every line as soon as it is judged.

use std::io::Write;
use std::sync::Mutex;

use protocolarc::one_line;
use protocolarc::report::FORMAT_VERSION;
use protocolarc::traffic::write_text;
use protocolarc::traffic::{Judged, Status};
use protocolarc::Finding;
use serde_json::json;

use crate::message::Side;

/// A writer shared by every session of a process.
pub(crate) type Shared = Mutex<Box<dyn Write + Send>>;

/// The report's form.
pub(crate) enum Report {
    /// `--report FILE`: one JSON object per line.
    Json(Shared),
    /// Text on stderr: messages with findings and events only.
    Text(Shared),
}

/// One line of the report about one message.
pub(crate) struct Verdict<'a> {
    pub session: &'a str,
    pub from: Side,
    pub method: Option<&'a str>,
    pub judged: &'a Judged<'a>,
}

impl Report {
    /// A message's verdict: every message in JSON, those with findings in text.
    pub(crate) fn verdict(&self, v: &Verdict<'_>) {
        match self {
            Report::Json(w) => {
                let contracts = v.judged.contracts.ids();
                let line = json!({
                    "time": crate::clock::now(),
                    "session": v.session,
                    "from": v.from.name(),
                    "source": v.judged.source.to_string(),
                    "method": v.method,
                    "contract": (!contracts.is_empty()).then(|| contracts.join(" + ")),
                    "status": v.judged.status().name(),
                    "findings": v.judged.report.findings(),
                });
                write_line(w, &versioned(&line));
            }
            Report::Text(w) => {
                if v.judged.status() == Status::Pass && v.judged.report.findings().is_empty() {
                    return;
                }
                let mut text = b"protocolarc proxy: ".to_vec();
                if write_text(&mut text, v.judged).is_ok() {
                    text.pop();
                    write_line(w, &text);
                }
            }
        }
    }

    /// Findings of the proxy's own about a message (pinned tools), beside
    /// its catalog verdict.
    pub(crate) fn pins(&self, session: &str, from: Side, method: &str, findings: &[Finding]) {
        match self {
            Report::Json(w) => {
                let line = json!({
                    "time": crate::clock::now(),
                    "session": session,
                    "from": from.name(),
                    "method": method,
                    "contract": "pinned tools",
                    "status": "fail",
                    "findings": findings,
                });
                write_line(w, &versioned(&line));
            }
            Report::Text(w) => {
                let mut text = format!("protocolarc proxy: [FAIL] pinned tools <- {session} ({method})");
                for f in findings {
                    text.push_str(&format!("\n  {f}"));
                }
                write_line(w, text.as_bytes());
            }
        }
    }

    /// Something that happened to the session (`event`: `protocol`,
    /// `oversized`, `exit`, ...), said in `message`.
    pub(crate) fn event(&self, session: &str, event: &str, message: &str) {
        match self {
            Report::Json(w) => {
                let line = json!({
                    "time": crate::clock::now(),
                    "session": session,
                    "event": event,
                    "message": message,
                });
                write_line(w, &versioned(&line));
            }
            Report::Text(w) => {
                let text = format!("protocolarc proxy: {event}: {}", one_line(message));
                write_line(w, text.as_bytes());
            }
        }
    }
}

/// A JSON report line: `"format_version"` its first key, as in every JSON
/// output, then the object's own keys (a JSON object's keys are written
/// sorted, which would put it after `"findings"`).
fn versioned(object: &serde_json::Value) -> Vec<u8> {
    let rest = object.to_string();
    let members = rest.strip_prefix('{').unwrap_or("}");
    let comma = if members == "}" { "" } else { "," };
    format!("{{\"format_version\":{FORMAT_VERSION}{comma}{members}").into_bytes()
}

/// Writes one line and flushes it. A report or record that cannot be
/// written must not stop the traffic it describes: the error is dropped.
pub(crate) fn write_line(w: &Shared, line: &[u8]) {
    let mut w = w.lock().unwrap_or_else(|e| e.into_inner());
    let _ = w.write_all(line).and_then(|()| w.write_all(b"\n")).and_then(|()| w.flush());
}
