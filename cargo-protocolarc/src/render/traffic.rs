//! `traffic` output: text in `validate`'s shape and one JSON document, both
//! written one message at a time (constant memory whatever the capture's
//! length), then a summary counting messages, failures and findings per rule.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use protocolarc::report::Finding;
use protocolarc::traffic::{Judged, Status};

pub use protocolarc::traffic::write_text;

/// Totals of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Messages judged (a batch counts its elements).
    pub messages: usize,
    /// Messages with no error (responses paired with their request).
    pub passed: usize,
    /// Responses without error that answer no pending request.
    pub unpaired: usize,
    /// Messages with at least one error.
    pub failed: usize,
    /// Findings per rule id, warnings included.
    pub rules: BTreeMap<String, usize>,
}

impl Summary {
    /// Counts one message.
    pub fn add(&mut self, j: &Judged) {
        self.messages += 1;
        match j.status() {
            Status::Pass => self.passed += 1,
            Status::Unpaired => self.unpaired += 1,
            Status::Fail => self.failed += 1,
        }
        for f in j.report.findings() {
            match self.rules.get_mut(f.rule()) {
                Some(n) => *n += 1,
                None => {
                    self.rules.insert(f.rule().to_string(), 1);
                }
            }
        }
    }
}

/// `traffic mcp@2025-06-18: 4 messages, 2 passed, 1 unpaired, 1 failed; route.id 1`
/// (the unpaired ones only when there are).
pub fn write_text_summary(w: &mut dyn Write, protocol: &str, s: &Summary) -> io::Result<()> {
    let plural = if s.messages == 1 { "" } else { "s" };
    write!(w, "traffic {}: {} message{plural}, {} passed", super::one_line(protocol), s.messages, s.passed,)?;
    if s.unpaired > 0 {
        write!(w, ", {} unpaired", s.unpaired)?;
    }
    write!(w, ", {} failed", s.failed)?;
    let rules: Vec<String> = s.rules.iter().map(|(rule, n)| format!("{rule} {n}")).collect();
    if !rules.is_empty() {
        write!(w, "; {}", rules.join(", "))?;
    }
    writeln!(w)
}

#[derive(Serialize)]
struct JsonResult<'a> {
    source: &'a str,
    contracts: &'a [String],
    status: &'a str,
    findings: &'a [Finding],
}

/// Writes `{"format_version":1,"protocol":...,"results":[` and a line break.
pub fn write_json_start(w: &mut dyn Write, protocol: &str) -> io::Result<()> {
    write!(w, "{{\"format_version\":{},\"protocol\":", super::FORMAT_VERSION)?;
    serde_json::to_writer(&mut *w, protocol).map_err(io::Error::other)?;
    writeln!(w, ",\"results\":[")
}

/// Writes one message's result as one line; `first` tells whether a comma is needed.
pub fn write_json_result(w: &mut dyn Write, first: bool, j: &Judged) -> io::Result<()> {
    if !first {
        w.write_all(b",\n")?;
    }
    let r = JsonResult {
        source: &j.source.to_string(),
        contracts: &j.contracts.ids(),
        status: j.status().name(),
        findings: j.report.findings(),
    };
    serde_json::to_writer(&mut *w, &r).map_err(io::Error::other)
}

/// Closes the results array with the summary, and the error that cut the
/// run short if any (the document stays one JSON object).
pub fn write_json_end(w: &mut dyn Write, any: bool, summary: &Summary, error: Option<&str>) -> io::Result<()> {
    if any {
        w.write_all(b"\n")?;
    }
    w.write_all(b"],\n\"summary\":")?;
    serde_json::to_writer(&mut *w, summary).map_err(io::Error::other)?;
    if let Some(error) = error {
        w.write_all(b",\n\"error\":")?;
        serde_json::to_writer(&mut *w, error).map_err(io::Error::other)?;
    }
    w.write_all(b"}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocolarc::traffic::Traffic;
    use protocolarc::{Catalog, ContractSpec};

    /// The text verdict written in pieces reads as the same text written
    /// through `fmt` would: a pre-release revision with build metadata, a
    /// batch element, an unprintable file label, and a long finding.
    #[test]
    fn text_verdicts_read_as_their_formatted_form() {
        let key = "k".repeat(700);
        let spec = format!(
            r#"{{"name": "mcp.ping.request", "revision": "1.2.3-beta.1+build.5",
                "schema": {{"type": "object", "required": ["{key}"]}}}}"#
        );
        let ping = ContractSpec::from_slice(spec.as_bytes(), "ping.json").unwrap();
        let catalog = Catalog::from_entries(vec![("ping.json".into(), ping)]).unwrap();
        let mut traffic = Traffic::new("mcp", "mcp@2025-03-26", &catalog, None);
        let mut judged = Vec::new();
        traffic
            .lines(
                "cap\tture.jsonl",
                &[(123_456, &br#"[{"jsonrpc": "2.0", "method": "ping"}, 7]"#[..])],
                1,
                || {},
                |j| {
                    judged.push(j);
                    Ok::<_, ()>(())
                },
            )
            .unwrap();
        let mut got = Vec::new();
        for j in &judged {
            write_text(&mut got, j).unwrap();
        }
        let mut want = String::new();
        for j in &judged {
            let contracts: Vec<String> =
                j.contracts.iter().map(|c| format!("{}@{}", super::super::one_line(c.name()), c.revision())).collect();
            let shown = if contracts.is_empty() { "(unrouted)".to_string() } else { contracts.join(" + ") };
            let verdict = j.status().name().to_uppercase();
            want.push_str(&format!("[{verdict}] {shown} <- {}\n", super::super::one_line(&j.source.to_string())));
            for f in j.report.findings() {
                want.push_str(&format!("  {f}\n"));
            }
        }
        assert_eq!(String::from_utf8(got).unwrap(), want);
        assert!(
            want.starts_with("[FAIL] mcp.ping.request@1.2.3-beta.1+build.5 <- cap\\tture.jsonl:123456[0]\n"),
            "{want}"
        );
        assert!(want.contains(&format!("  ERROR field.required {key}: ")), "{want}");
        assert!(want.contains("[FAIL] (unrouted) <- cap\\tture.jsonl:123456[1]\n"), "{want}");
    }
}
