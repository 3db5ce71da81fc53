//! `loss` output (SPEC §13): each tool's crossings, a chain hop by hop, or
//! the matrix of sources by formats; text, one JSON document, or Markdown.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;
use serde_json::{json, Value};

use super::markdown::{cell, code};
use super::one_line;
use protocolarc_interop::loss::{counts, Format, Hop, Loss, Path, Severity, Status};

/// What `loss` was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Each tool into each format, one hop each (`--to`).
    To,
    /// Each tool through the formats in order (`--chain`).
    Chain,
    /// Every source by every format, counted (`--matrix`).
    Matrix,
}

impl Mode {
    fn as_str(self) -> &'static str {
        match self {
            Mode::To => "to",
            Mode::Chain => "chain",
            Mode::Matrix => "matrix",
        }
    }
}

/// The tools of one input (a capture, a contract file or directory), each
/// carried: one path per format (`--to`, `--matrix`) or one path through the
/// chain.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// The input as given (`protocols/tools-list/x.json`).
    pub label: String,
    /// The paths, tool by tool in name order, then by format.
    pub paths: Vec<Path>,
}

/// A whole run.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// What was asked.
    pub mode: Mode,
    /// The formats, in the order given.
    pub formats: Vec<Format>,
    /// Every input.
    pub sources: Vec<Source>,
}

impl Run {
    /// Every loss a tool suffers on the way (a chain's whole path, or each
    /// single hop), for `--fail-on`.
    pub fn worst(&self) -> Option<Severity> {
        self.sources.iter().flat_map(|s| &s.paths).flat_map(|p| &p.overall).map(|l| l.severity).max()
    }

    fn totals(&self) -> (usize, usize, usize) {
        let all: Vec<Loss> = self.sources.iter().flat_map(|s| &s.paths).flat_map(|p| p.overall.clone()).collect();
        counts(&all)
    }

    fn tools(&self) -> usize {
        let mut names: Vec<&str> = self.sources.iter().flat_map(|s| &s.paths).map(|p| p.tool.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        names.len()
    }
}

fn counted(losses: &[Loss]) -> String {
    let (b, ma, mi) = counts(losses);
    let mut parts = Vec::new();
    for (n, what) in [(b, "blocker"), (ma, "major"), (mi, "minor")] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    if parts.is_empty() {
        "intact".to_string()
    } else {
        parts.join(", ")
    }
}

fn status_text(h: &Hop) -> String {
    match h.status {
        Status::NothingLeft(at) => format!(
            "nothing left: the input contract was lost at hop {at}; this hop was handed no schema (not a clean hop)"
        ),
        _ => counted(&h.losses),
    }
}

fn write_losses(out: &mut String, losses: &[Loss], indent: &str) {
    for l in losses {
        let _ = writeln!(
            out,
            "{indent}{:<7} {} {}: {}",
            l.severity.as_str(),
            l.rule,
            one_line(&l.field),
            one_line(&l.message)
        );
        if let Some(w) = &l.witness {
            let _ = writeln!(out, "{indent}        witness (the target accepts, the tool rejects): {}", one_line(w));
        }
    }
}

/// The text report: per tool and format (or per chain), every loss with its
/// witness, then the totals.
pub fn text(run: &Run) -> String {
    let mut out = String::new();
    if run.mode == Mode::Matrix {
        return matrix_text(run);
    }
    for s in &run.sources {
        for p in &s.paths {
            if run.mode == Mode::Chain {
                let route: Vec<&str> = p.hops.iter().map(|h| h.format.as_str()).collect();
                let _ = writeln!(out, "{}: {}", one_line(&p.tool.name), route.join(" -> "));
                for (i, h) in p.hops.iter().enumerate() {
                    let _ = writeln!(out, "  hop {} {}: {}", i + 1, h.format, status_text(h));
                    write_losses(&mut out, &h.losses, "    ");
                }
                let _ = writeln!(out, "  whole path: {}", counted(&p.overall));
            } else {
                let h = &p.hops[0];
                let _ = writeln!(out, "{} -> {}: {}", one_line(&p.tool.name), h.format, status_text(h));
                write_losses(&mut out, &h.losses, "  ");
            }
        }
    }
    let (b, ma, mi) = run.totals();
    let formats: Vec<&str> = run.formats.iter().map(|f| f.as_str()).collect();
    let _ = writeln!(
        out,
        "loss: {} tool(s) {} {}: {b} blocker, {ma} major, {mi} minor",
        run.tools(),
        if run.mode == Mode::Chain { "through" } else { "into" },
        formats.join(if run.mode == Mode::Chain { " -> " } else { ", " })
    );
    out
}

fn loss_json(l: &Loss) -> Value {
    json!({
        "severity": l.severity.as_str(),
        "kind": l.kind.as_str(),
        "rule": l.rule,
        "field": l.field,
        "message": l.message,
        "witness": l.witness,
    })
}

fn counts_json(losses: &[Loss]) -> Value {
    let (b, ma, mi) = counts(losses);
    json!({ "blocker": b, "major": ma, "minor": mi })
}

/// One hop as JSON: its keys are these fields' names, in this order.
#[derive(Serialize)]
struct HopJson<'h> {
    format: &'static str,
    dialect_revision: &'static str,
    status: &'static str,
    lost_at_hop: Option<usize>,
    counts: Value,
    losses: Vec<Value>,
    artifact: &'h Value,
}

fn hop_json(h: &Hop) -> Value {
    let (status, lost_at) = match h.status {
        Status::Carried => ("carried", None),
        Status::Destroyed => ("destroyed", None),
        Status::NothingLeft(at) => ("nothing-left", Some(at)),
    };
    let hop = HopJson {
        format: h.format.as_str(),
        dialect_revision: &h.format.dialect().revision,
        status,
        lost_at_hop: lost_at,
        counts: counts_json(&h.losses),
        losses: h.losses.iter().map(loss_json).collect(),
        artifact: &h.artifact,
    };
    // Strings, numbers and values already built: nothing here fails to serialize.
    serde_json::to_value(hop).unwrap_or(Value::Null)
}

/// One JSON document: `format_version`, `mode`, `direction` (`request`:
/// the losses are the compatibility engine's, judged as a request
/// contract), `formats`, `sources` (each with its tools' paths, hops and
/// losses), the `matrix` (sources by formats) and the `summary`.
pub fn json(run: &Run) -> String {
    let sources: Vec<Value> = run
        .sources
        .iter()
        .map(|s| {
            json!({
                "source": s.label,
                "paths": s.paths.iter().map(|p| json!({
                    "tool": p.tool.name,
                    "revision": p.tool.revision,
                    "hops": p.hops.iter().map(hop_json).collect::<Vec<_>>(),
                    "overall": {
                        "counts": counts_json(&p.overall),
                        "losses": p.overall.iter().map(loss_json).collect::<Vec<_>>(),
                    },
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let (b, ma, mi) = run.totals();
    let doc = json!({
        "mode": run.mode.as_str(),
        "direction": "request",
        "formats": run.formats.iter().map(|f| f.as_str()).collect::<Vec<_>>(),
        "sources": sources,
        "matrix": matrix_json(run),
        "most_common": most_common(run).into_iter().map(|(rule, n)| json!({ "rule": rule, "count": n })).collect::<Vec<_>>(),
        "summary": { "tools": run.tools(), "blocker": b, "major": ma, "minor": mi },
    });
    // A number a double cannot hold travels marked; it is written as the
    // contract wrote it.
    let mut text = protocolarc_interop::loss::as_written(
        &serde_json::to_string_pretty(&super::versioned(doc)).unwrap_or_default(),
    );
    text.push('\n');
    text
}

/// One cell of the matrix: the format, the tools that cross it intact, the losses.
type Cell = (Format, usize, Vec<Loss>);

/// Per source and format: tools that cross intact, and the losses.
fn cells(run: &Run) -> Vec<(String, usize, Vec<Cell>)> {
    run.sources
        .iter()
        .map(|s| {
            let mut tools: Vec<&str> = s.paths.iter().map(|p| p.tool.name.as_str()).collect();
            tools.dedup();
            let row = run
                .formats
                .iter()
                .map(|f| {
                    let paths: Vec<&Path> =
                        s.paths.iter().filter(|p| p.hops.last().is_some_and(|h| h.format == *f)).collect();
                    let intact = paths.iter().filter(|p| p.overall.is_empty()).count();
                    (*f, intact, paths.iter().flat_map(|p| p.overall.clone()).collect())
                })
                .collect();
            (s.label.clone(), tools.len(), row)
        })
        .collect()
}

fn matrix_json(run: &Run) -> Value {
    if run.mode != Mode::Matrix {
        return Value::Null;
    }
    Value::Array(
        cells(run)
            .into_iter()
            .map(|(label, tools, row)| {
                let by: serde_json::Map<String, Value> = row
                    .iter()
                    .map(|(f, intact, losses)| {
                        let mut c = counts_json(losses);
                        c["intact"] = json!(intact);
                        (f.as_str().to_string(), c)
                    })
                    .collect();
                json!({ "source": label, "tools": tools, "formats": by })
            })
            .collect(),
    )
}

/// The rules that cost most often (major and blocker losses), most common
/// first, then by rule.
fn most_common(run: &Run) -> Vec<(String, usize)> {
    let mut n: BTreeMap<String, usize> = BTreeMap::new();
    for l in run.sources.iter().flat_map(|s| &s.paths).flat_map(|p| &p.overall) {
        if l.severity >= Severity::Major {
            *n.entry(l.rule.clone()).or_default() += 1;
        }
    }
    let mut v: Vec<(String, usize)> = n.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

fn cell_text(tools: usize, intact: usize, losses: &[Loss]) -> String {
    let (b, ma, mi) = counts(losses);
    if b > 0 {
        return format!("{intact}/{tools} intact, {b} blocker");
    }
    let mut parts = vec![format!("{intact}/{tools} intact")];
    for (n, what) in [(ma, "major"), (mi, "minor")] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    parts.join(", ")
}

fn matrix_text(run: &Run) -> String {
    let mut out = String::new();
    let rows = cells(run);
    let mut header = vec!["source".to_string(), "tools".to_string()];
    header.extend(run.formats.iter().map(|f| f.as_str().to_string()));
    let mut table = vec![header];
    for (label, tools, row) in &rows {
        let mut line = vec![label.clone(), tools.to_string()];
        line.extend(row.iter().map(|(_, intact, losses)| cell_text(*tools, *intact, losses)));
        table.push(line);
    }
    let widths: Vec<usize> =
        (0..table[0].len()).map(|i| table.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
    for r in &table {
        let cols: Vec<String> = r.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        let _ = writeln!(out, "{}", cols.join("  ").trim_end());
    }
    let common = most_common(run);
    if !common.is_empty() {
        let top: Vec<String> = common.iter().take(5).map(|(r, n)| format!("{r} {n}")).collect();
        let _ = writeln!(out, "most common losses (major and blocker): {}", top.join(", "));
    }
    let (b, ma, mi) = run.totals();
    let _ = writeln!(
        out,
        "loss: {} tool(s) into {} format(s): {b} blocker, {ma} major, {mi} minor",
        run.tools(),
        run.formats.len()
    );
    out
}

/// Markdown: the matrix as a table with the most common losses; otherwise
/// one section per tool with a table of its losses.
pub fn markdown(run: &Run) -> String {
    let mut out = String::new();
    if run.mode == Mode::Matrix {
        let rows = cells(run);
        let mut head = String::from("| source | tools |");
        let mut rule = String::from("|---|---:|");
        for f in &run.formats {
            let _ = write!(head, " {} |", code(f.as_str()));
            rule.push_str("---|");
        }
        let _ = writeln!(out, "{head}\n{rule}");
        for (label, tools, row) in &rows {
            let _ = write!(out, "| {} | {tools} |", code(label));
            for (_, intact, losses) in row {
                let _ = write!(out, " {} |", cell(&cell_text(*tools, *intact, losses)));
            }
            out.push('\n');
        }
        let common = most_common(run);
        if !common.is_empty() {
            out.push_str("\n| most common loss (major and blocker) | tool crossings |\n|---|---:|\n");
            for (r, n) in &common {
                let _ = writeln!(out, "| {} | {n} |", code(r));
            }
        }
        let (b, ma, mi) = run.totals();
        let _ = writeln!(
            out,
            "\n{} tools, {} formats: {b} blocker, {ma} major, {mi} minor.",
            run.tools(),
            run.formats.len()
        );
        return out;
    }
    for s in &run.sources {
        for p in &s.paths {
            let route: Vec<&str> = p.hops.iter().map(|h| h.format.as_str()).collect();
            let _ = writeln!(out, "### {} -> {}\n", code(&p.tool.name), route.join(" -> "));
            for (i, h) in p.hops.iter().enumerate() {
                if p.hops.len() > 1 {
                    let _ = writeln!(out, "hop {} {}: {}\n", i + 1, code(h.format.as_str()), cell(&status_text(h)));
                } else {
                    let _ = writeln!(out, "{}\n", cell(&status_text(h)));
                }
                if !h.losses.is_empty() {
                    out.push_str("| severity | rule | field | lost | witness |\n|---|---|---|---|---|\n");
                    for l in &h.losses {
                        let w = l.witness.as_deref().map(code).unwrap_or_default();
                        let _ = writeln!(
                            out,
                            "| {} | {} | {} | {} | {} |",
                            l.severity,
                            code(&l.rule),
                            code(&l.field),
                            cell(&l.message),
                            cell(&w)
                        );
                    }
                    out.push('\n');
                }
            }
            if p.hops.len() > 1 {
                let _ = writeln!(out, "whole path: {}\n", counted(&p.overall));
            }
        }
    }
    out
}
