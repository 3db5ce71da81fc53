//! `validate` output: text (the original ProtocolArc format, byte for byte) and JSON.
//!
//! Both are written one envelope at a time, so a stream of any length is
//! rendered in constant memory.

use std::io::{self, Write};

use serde::Serialize;

use protocolarc::report::{Finding, Report};

/// One envelope's outcome against one contract revision.
#[derive(Debug, Clone, Copy)]
pub struct Outcome<'a> {
    /// The contract name.
    pub contract: &'a str,
    /// The revision validated against, as semver text.
    pub revision: &'a str,
    /// Where the envelope came from (`file.jsonl:LINE`).
    pub source: &'a str,
    /// The findings for the envelope; it passes when none is an error.
    pub report: &'a Report,
}

/// `[PASS] name@rev <- source`, then every finding indented by two spaces.
pub fn write_text(w: &mut dyn Write, o: &Outcome<'_>) -> io::Result<()> {
    let status = if o.report.is_valid() { "PASS" } else { "FAIL" };
    // A file name may hold a line break: it is escaped, never a line of its own.
    writeln!(w, "[{status}] {}@{} <- {}", super::one_line(o.contract), o.revision, super::one_line(o.source))?;
    for f in o.report.findings() {
        writeln!(w, "  {f}")?;
    }
    Ok(())
}

/// `validate: 3 envelopes, 1 passed, 2 failed` (the `--quiet` closing line).
pub fn write_text_summary(w: &mut dyn Write, s: &Summary) -> io::Result<()> {
    let plural = if s.envelopes == 1 { "" } else { "s" };
    writeln!(w, "validate: {} envelope{plural}, {} passed, {} failed", s.envelopes, s.passed, s.failed)
}

#[derive(Serialize)]
struct JsonResult<'a> {
    contract: &'a str,
    revision: &'a str,
    source: &'a str,
    status: &'a str,
    findings: &'a [Finding],
}

/// Totals closing a JSON stream.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Envelopes counted.
    pub envelopes: usize,
    /// Envelopes whose report has no error.
    pub passed: usize,
    /// Envelopes whose report has at least one error.
    pub failed: usize,
}

impl Summary {
    /// Counts one envelope's report: passed when it holds no error (warnings
    /// do not fail), failed otherwise.
    pub fn add(&mut self, report: &Report) {
        self.envelopes += 1;
        if report.is_valid() {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
    }
}

/// Writes `{"format_version":1,"results":[` and the first line break.
pub fn write_json_start(w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "{{\"format_version\":{},\"results\":[", super::FORMAT_VERSION)
}

/// Writes one result as one line; `first` tells whether a comma is needed.
pub fn write_json_result(w: &mut dyn Write, first: bool, o: &Outcome<'_>) -> io::Result<()> {
    if !first {
        w.write_all(b",\n")?;
    }
    let r = JsonResult {
        contract: o.contract,
        revision: o.revision,
        source: o.source,
        status: if o.report.is_valid() { "pass" } else { "fail" },
        findings: o.report.findings(),
    };
    serde_json::to_writer(&mut *w, &r).map_err(io::Error::other)
}

/// Closes the results array and writes the summary.
pub fn write_json_end(w: &mut dyn Write, any: bool, summary: &Summary) -> io::Result<()> {
    if any {
        w.write_all(b"\n")?;
    }
    w.write_all(b"],\n\"summary\":")?;
    serde_json::to_writer(&mut *w, summary).map_err(io::Error::other)?;
    w.write_all(b"}\n")
}

/// Closes a JSON stream cut short by an input error, so that what was
/// written is still one JSON document: the results so far, the summary, and
/// the error.
pub fn write_json_abort(w: &mut dyn Write, any: bool, summary: &Summary, error: &str) -> io::Result<()> {
    if any {
        w.write_all(b"\n")?;
    }
    w.write_all(b"],\n\"summary\":")?;
    serde_json::to_writer(&mut *w, summary).map_err(io::Error::other)?;
    w.write_all(b",\n\"error\":")?;
    serde_json::to_writer(&mut *w, error).map_err(io::Error::other)?;
    w.write_all(b"}\n")
}
