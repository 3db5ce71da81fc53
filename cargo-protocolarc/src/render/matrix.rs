//! The matrix as text, JSON and Markdown: each a pure function of the
//! [`Matrix`], so the same matrix always gives the same bytes.

use serde::Serialize;

use super::markdown::{cell, code};
use protocolarc::chain::Chain;
use protocolarc::matrix::{Cell, Matrix, Totals};
use protocolarc::report::{Finding, Report};

fn mark(cell: &Cell) -> &'static str {
    match cell {
        Cell::Mismatch => "-",
        Cell::Checked(r) if !r.is_valid() => "FAIL",
        Cell::Checked(r) if r.warnings().next().is_some() => "pass~",
        Cell::Checked(_) => "pass",
    }
}

/// `1 contract`, `2 contracts`.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn summary(t: &Totals) -> String {
    let mut s = format!(
        "{}, {}: {} checked, {} pass, {} fail",
        count(t.contracts, "contract"),
        count(t.envelopes, "envelope"),
        count(t.checked, "cell"),
        t.passed,
        t.failed
    );
    if t.unmatched > 0 {
        s.push_str(&format!("; {} name no contract here", count(t.unmatched, "envelope")));
    }
    if t.insufficient_bumps > 0 {
        s.push_str(&format!("; {} too small", count(t.insufficient_bumps, "revision bump")));
    }
    s
}

fn step_line(chain: &Chain) -> Vec<String> {
    if chain.steps.is_empty() {
        return vec![format!("{}: {} (single revision)", chain.name, chain.revisions[0])];
    }
    chain
        .steps
        .iter()
        .map(|s| {
            let verdict = s.diff.compatibility();
            let bump = match s.problem() {
                None => format!("{} bump, ok", s.bump),
                Some(_) => format!("{} bump, needs {}: {}", s.bump, s.needed, protocolarc::chain::BUMP_INSUFFICIENT),
            };
            format!("{}: {} -> {} {verdict} ({bump})", chain.name, s.diff.from(), s.diff.to())
        })
        .collect()
}

/// The failing (and warning) cells with their findings.
fn failures(m: &Matrix) -> Vec<(&str, String, &Report)> {
    let mut out = Vec::new();
    for row in &m.rows {
        for (col, c) in m.columns.iter().zip(&row.cells) {
            if let Cell::Checked(r) = c {
                if !r.findings().is_empty() {
                    out.push((row.source.as_str(), col.id(), r));
                }
            }
        }
    }
    out
}

/// An aligned grid (`pass`, `pass~` warnings only, `FAIL`, `-` another
/// contract), the chains, and every finding.
pub fn text(m: &Matrix) -> String {
    let mut out = format!("matrix: {}\n\n", summary(&m.totals()));
    let header: Vec<String> = std::iter::once("envelope".to_string()).chain(m.columns.iter().map(|c| c.id())).collect();
    let rows: Vec<Vec<String>> = m
        .rows
        .iter()
        .map(|r| std::iter::once(r.source.clone()).chain(r.cells.iter().map(|c| mark(c).to_string())).collect())
        .collect();
    let mut width = vec![0usize; header.len()];
    for row in std::iter::once(&header).chain(&rows) {
        for (w, c) in width.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (i, (c, w)) in row.iter().zip(&width).enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            line.push_str(c);
            line.push_str(&" ".repeat(w - c.chars().count()));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("\nchains:\n");
    for chain in &m.chains {
        for line in step_line(chain) {
            out.push_str(&format!("  {line}\n"));
        }
    }
    let failed = failures(m);
    if !failed.is_empty() {
        out.push_str("\nfindings:\n");
        for (source, id, r) in failed {
            out.push_str(&format!("  {source} vs {id}:\n"));
            for f in r.findings() {
                out.push_str(&format!("    {f}\n"));
            }
        }
    }
    out
}

#[derive(Serialize)]
struct JsonMatrix<'a> {
    summary: Totals,
    contracts: Vec<String>,
    envelopes: Vec<JsonRow<'a>>,
    chains: Vec<JsonChain<'a>>,
}

#[derive(Serialize)]
struct JsonRow<'a> {
    source: &'a str,
    contract: &'a str,
    revision: Option<&'a str>,
    cells: Vec<JsonCell<'a>>,
}

#[derive(Serialize)]
struct JsonCell<'a> {
    contract: String,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    findings: Option<&'a [Finding]>,
}

#[derive(Serialize)]
struct JsonChain<'a> {
    contract: &'a str,
    revisions: Vec<String>,
    steps: Vec<JsonStep>,
}

#[derive(Serialize)]
struct JsonStep {
    from: String,
    to: String,
    compatibility: &'static str,
    bump: &'static str,
    needed: &'static str,
    sufficient: bool,
    diff: serde_json::Value,
}

/// The matrix as pretty JSON: summary, columns, every cell with its findings,
/// and every chain step with its diff.
pub fn json(m: &Matrix) -> String {
    let doc = JsonMatrix {
        summary: m.totals(),
        contracts: m.columns.iter().map(|c| c.id()).collect(),
        envelopes: m
            .rows
            .iter()
            .map(|r| JsonRow {
                source: &r.source,
                contract: &r.contract,
                revision: r.revision.as_deref(),
                cells: m
                    .columns
                    .iter()
                    .zip(&r.cells)
                    .map(|(col, c)| JsonCell {
                        contract: col.id(),
                        status: match c {
                            Cell::Mismatch => "mismatch",
                            Cell::Checked(r) if r.is_valid() => "pass",
                            Cell::Checked(_) => "fail",
                        },
                        findings: c.report().map(|r| r.findings()),
                    })
                    .collect(),
            })
            .collect(),
        chains: m
            .chains
            .iter()
            .map(|c| JsonChain {
                contract: &c.name,
                revisions: c.revisions.iter().map(|v| v.to_string()).collect(),
                steps: c
                    .steps
                    .iter()
                    .map(|s| JsonStep {
                        from: s.diff.from().to_string(),
                        to: s.diff.to().to_string(),
                        compatibility: s.diff.compatibility().as_str(),
                        bump: s.bump.as_str(),
                        needed: s.needed.as_str(),
                        sufficient: s.is_sufficient(),
                        diff: super::diff::json_value(&s.diff),
                    })
                    .collect(),
            })
            .collect(),
    };
    serde_json::to_string_pretty(&super::versioned(doc)).unwrap_or_default() + "\n"
}

/// The matrix as a Markdown report: summary, grid, chains with their
/// changes, findings.
pub fn markdown(m: &Matrix) -> String {
    let mut out = format!("# Contract matrix\n\n{}.\n\n", summary(&m.totals()));
    out.push_str("| envelope |");
    for c in &m.columns {
        out.push_str(&format!(" {} |", code(&c.id())));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(m.columns.len()));
    out.push('\n');
    for r in &m.rows {
        out.push_str(&format!("| {} |", code(&r.source)));
        for c in &r.cells {
            let shown = match mark(c) {
                "FAIL" => "**FAIL**",
                "-" => "",
                other => other,
            };
            out.push_str(&format!(" {shown} |"));
        }
        out.push('\n');
    }
    out.push_str("\n`pass~`: warnings only. An empty cell: the envelope names another contract.\n");
    out.push_str("\n## Revision chains\n\n");
    for chain in &m.chains {
        for line in step_line(chain) {
            out.push_str(&format!("- {}\n", cell(&line)));
        }
    }
    for chain in &m.chains {
        for s in &chain.steps {
            out.push('\n');
            out.push_str(&super::diff::markdown(&s.diff));
        }
    }
    let failed = failures(m);
    if !failed.is_empty() {
        out.push_str("\n## Findings\n\n");
        for (source, id, r) in failed {
            out.push_str(&format!("- {} vs {}\n", code(source), code(&id)));
            for f in r.findings() {
                out.push_str(&format!(
                    "  - {} {} {}: {}\n",
                    f.severity().as_str().to_uppercase(),
                    code(f.rule()),
                    code(f.field()),
                    f.message()
                ));
            }
        }
    }
    out
}
