//! Real revisions of MCP tool inputs: 27 modifications of `inputSchema`s of
//! GitHub's official MCP server (`tests/data/tool-revisions/pairs.jsonl`,
//! MIT, provenance in `tests/data/tool-revisions/PROVENANCE.md`), each with
//! the verdict and the rule ids judged by hand for the request direction (a
//! tool's input is what the server accepts).

use std::collections::BTreeSet;

use protocolarc::diff::{diff, Impact};
use protocolarc::ContractSpec;
use protocolarc_interop::import::schema_contract;
use serde_json::Value;

struct Revision {
    tool: String,
    to_commit: String,
    old: Value,
    new: Value,
    verdict: Impact,
    rules: BTreeSet<String>,
    reason: String,
}

fn revisions() -> Vec<Revision> {
    let text = std::fs::read_to_string(protocolarc_tests::data("tool-revisions/pairs.jsonl")).expect("pairs");
    text.lines()
        .map(|line| {
            let r: Value = serde_json::from_str(line).expect("record");
            let s = |k: &str| r[k].as_str().unwrap_or_else(|| panic!("{k}")).to_string();
            Revision {
                tool: s("tool"),
                to_commit: s("to_commit"),
                old: r["old"].clone(),
                new: r["new"].clone(),
                verdict: match r["verdict"].as_str() {
                    Some("compatible") => Impact::Compatible,
                    Some("forward") => Impact::Forward,
                    Some("breaking") => Impact::Breaking,
                    other => panic!("verdict {other:?}"),
                },
                rules: r["rules"].as_array().expect("rules").iter().map(|v| v.as_str().unwrap().to_string()).collect(),
                reason: s("reason"),
            }
        })
        .collect()
}

/// The tool's `inputSchema` as a request contract `github.TOOL`.
fn contract(tool: &str, schema: &Value, revision: &str) -> ContractSpec {
    let name = format!("github.{tool}");
    let (value, _notes) = schema_contract(schema, &name, revision, Some("request"), None)
        .unwrap_or_else(|e| panic!("{tool} {revision} imports: {e}"));
    let bytes = serde_json::to_vec(&value).expect("serialise");
    ContractSpec::from_slice(&bytes, &format!("{tool}.json")).unwrap_or_else(|e| panic!("{tool} {revision} loads: {e}"))
}

#[test]
fn the_selection_is_pinned() {
    let all = revisions();
    let count = |v: Impact| all.iter().filter(|r| r.verdict == v).count();
    assert_eq!((all.len(), count(Impact::Breaking), count(Impact::Forward), count(Impact::Compatible)), (27, 7, 18, 2));
    // The six breaking cases the anchors' README names.
    for (tool, commit) in [
        ("search_code", "efef8ae2"),
        ("get_issue_comments", "08a49b0f"),
        ("list_issues", "8aa3379f"),
        ("update_issue_type", "6830c4d3"),
        ("dismiss_notification", "60aef5d2"),
        ("add_issue_comment", "2211a4d6"),
    ] {
        let r = all.iter().find(|r| r.tool == tool && r.to_commit.starts_with(commit));
        assert_eq!(r.map(|r| r.verdict), Some(Impact::Breaking), "{tool} @ {commit}");
    }
    for r in &all {
        assert!(r.old != r.new, "{} @ {}: no change", r.tool, r.to_commit);
        assert!(!r.reason.is_empty() && r.rules.is_empty() == (r.verdict == Impact::Compatible));
    }
}

#[test]
fn verdicts_and_rules_are_the_ones_judged_by_hand() {
    let all = revisions();
    let mut failures = Vec::new();
    for r in &all {
        let old = contract(&r.tool, &r.old, "1.0.0");
        let new = contract(&r.tool, &r.new, "2.0.0");
        let d = diff(&old, &new).expect("same name");
        // The shape's rules: rewritten descriptions (`annotation.changed`)
        // are judged in `annotations.rs`.
        let ours: BTreeSet<String> =
            d.changes().iter().map(|c| c.rule().to_string()).filter(|r| r != "annotation.changed").collect();
        if d.compatibility() != r.verdict || ours != r.rules {
            let changes: String = d
                .changes()
                .iter()
                .map(|c| format!("\n    {} {} {}: {}", c.impact(), c.rule(), c.field(), c.message()))
                .collect();
            failures.push(format!(
                "{} @ {}: expected {} {:?}, ours {} {:?}\n  why: {}{changes}",
                r.tool,
                &r.to_commit[..8],
                r.verdict,
                r.rules,
                d.compatibility(),
                ours,
                r.reason
            ));
        }
        // A witness proves its break: the old revision accepts it, the new one flags it.
        for c in d.changes() {
            if let Some(w) = c.witness() {
                let (yes, no) = (old.validate_json(w.as_bytes()), new.validate_json(w.as_bytes()));
                if !yes.findings().is_empty() || no.findings().is_empty() {
                    failures.push(format!(
                        "{} @ {}: {} witness {w} does not prove it",
                        r.tool,
                        &r.to_commit[..8],
                        c.rule()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} revisions differ:\n\n{}", failures.len(), all.len(), failures.join("\n\n"));
}
