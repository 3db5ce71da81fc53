//! What CI commands report: problems with a rule, a contract, a file and a
//! line, rendered as text, JSON, a Markdown summary, or GitHub workflow
//! commands (`::error file=...,line=...,title=...::...`).

use serde::Serialize;

use crate::cli::CiFormat;

/// One failed check.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub(crate) struct Problem {
    pub file: String,
    pub line: usize,
    pub rule: &'static str,
    pub contract: String,
    pub message: String,
}

/// `%`, CR and LF escaped as GitHub's workflow commands require; in
/// properties also `:` and `,`.
fn escape(text: &str, property: bool) -> String {
    let mut out = text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A");
    if property {
        out = out.replace(':', "%3A").replace(',', "%2C");
    }
    out
}

fn location(p: &Problem) -> String {
    if p.line > 0 {
        format!("{}:{}", p.file, p.line)
    } else {
        p.file.clone()
    }
}

/// Renders problems; `summary` is the closing line (`check: ok (...)`).
/// A GitHub annotation for an input error that stopped the run (a missing
/// base, a malformed file): `::error title=cargo protocolarc::MESSAGE`.
pub(crate) fn input_error_annotation(message: &str) -> String {
    format!("::error title={}::{}", escape("cargo protocolarc", true), escape(message, false))
}

/// `contract: message`, or the message alone for a problem of no one
/// contract (a missing lock file).
fn subject(p: &Problem) -> String {
    if p.contract.is_empty() {
        p.message.clone()
    } else {
        format!("{}: {}", p.contract, p.message)
    }
}

pub(crate) fn render(problems: &[Problem], format: CiFormat, title: &str, summary: &str) -> String {
    let mut sorted = problems.to_vec();
    sorted.sort();
    match format {
        CiFormat::Text => {
            let mut out = String::new();
            for p in &sorted {
                out.push_str(&format!("error[{}] {}: {}\n", p.rule, location(p), subject(p)));
            }
            out.push_str(summary);
            out.push('\n');
            out
        }
        CiFormat::Github => {
            let mut out = String::new();
            for p in &sorted {
                let line = if p.line > 0 { format!(",line={}", p.line) } else { String::new() };
                out.push_str(&format!(
                    "::error file={}{line},title={}::{}\n",
                    escape(&p.file, true),
                    escape(p.rule, true),
                    escape(&subject(p), false)
                ));
            }
            out.push_str(summary);
            out.push('\n');
            out
        }
        CiFormat::Markdown => {
            let mut out = format!("## {title}\n\n{summary}\n");
            if !sorted.is_empty() {
                out.push_str("\n| rule | contract | where | problem |\n|---|---|---|---|\n");
                for p in &sorted {
                    out.push_str(&format!(
                        "| `{}` | `{}` | `{}` | {} |\n",
                        p.rule,
                        if p.contract.is_empty() { "-" } else { &p.contract },
                        location(p),
                        p.message.replace('|', "\\|")
                    ));
                }
            }
            out
        }
        CiFormat::Json => {
            #[derive(Serialize)]
            struct Doc<'a> {
                ok: bool,
                summary: &'a str,
                problems: &'a [Problem],
            }
            let doc = Doc { ok: sorted.is_empty(), summary, problems: &sorted };
            serde_json::to_string_pretty(&crate::render::versioned(doc)).unwrap_or_default() + "\n"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_annotations_escape_their_parts() {
        let p = Problem {
            file: "contracts/a,b.json".into(),
            line: 3,
            rule: protocolarc::lock::LOCK_MISMATCH.id,
            contract: "x@1.0.0".into(),
            message: "100% wrong\nsee: lock".into(),
        };
        assert_eq!(
            render(&[p], CiFormat::Github, "t", "check: 1 problem"),
            "::error file=contracts/a%2Cb.json,line=3,title=lock.mismatch::x@1.0.0: 100%25 wrong%0Asee: lock\ncheck: 1 problem\n"
        );
    }
}
