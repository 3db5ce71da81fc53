//! `diff` output: text (the original ProtocolArc format, byte for byte), JSON, Markdown.

use serde::Serialize;
use serde_json::value::RawValue;

use super::markdown::{cell, code};
use protocolarc::diff::{Change, ContractDiff};
use protocolarc::ContractDirection;

/// `name: from -> to`, `compatibility: VERDICT` (with the direction when it
/// is not `request`), then one line per change (`  impact rule field:
/// message`), or `  (no changes)`. With `witnesses`, each witness follows its
/// change on a line of its own, saying which revision accepts it when that is
/// the new one (a response-direction break).
pub fn text(d: &ContractDiff, witnesses: bool) -> String {
    let mut out = format!("{}: {} -> {}\n", d.name(), d.from(), d.to());
    out.push_str(&format!("compatibility: {}{}\n", d.compatibility().as_str().to_uppercase(), direction_note(d)));
    for c in d.changes() {
        out.push_str(&format!("  {} {} {}: {}\n", c.impact(), c.rule(), c.field(), c.message()));
        if let (true, Some(w)) = (witnesses, c.witness()) {
            out.push_str(&format!("    {}: {w}\n", witness_label(c)));
        }
    }
    if d.changes().is_empty() {
        out.push_str("  (no changes)\n");
    }
    out
}

/// ` (as a response)` / ` (both directions)` after the verdict; nothing for
/// a request contract (the original format).
fn direction_note(d: &ContractDiff) -> &'static str {
    match d.direction() {
        ContractDirection::Request => "",
        ContractDirection::Response => " (as a response)",
        ContractDirection::Both => " (both directions)",
    }
}

/// `witness` (the old revision accepts it, the new one rejects it), or
/// `witness (new accepts, old rejects)`.
fn witness_label(c: &Change) -> &'static str {
    match c.witness_direction() {
        Some(ContractDirection::Response) => "witness (new accepts, old rejects)",
        _ => "witness",
    }
}

#[derive(Serialize)]
struct JsonDiff<'a> {
    contract: &'a str,
    from: String,
    to: String,
    direction: &'static str,
    compatibility: &'static str,
    changes: Vec<JsonChange<'a>>,
}

#[derive(Serialize)]
struct JsonChange<'a> {
    impact: &'static str,
    rule: &'static str,
    field: &'a str,
    message: &'a str,
    witness: Option<Box<RawValue>>,
    /// `request`: the old revision accepts the witness and the new one
    /// rejects it; `response`: the other way round.
    witness_direction: Option<&'static str>,
}

/// The JSON value of a diff (one document per diff).
pub fn json_value(d: &ContractDiff) -> serde_json::Value {
    serde_json::to_value(json_doc(d)).unwrap_or(serde_json::Value::Null)
}

fn json_doc(d: &ContractDiff) -> JsonDiff<'_> {
    JsonDiff {
        contract: d.name(),
        from: d.from().to_string(),
        to: d.to().to_string(),
        direction: d.direction().as_str(),
        compatibility: d.compatibility().as_str(),
        changes: d
            .changes()
            .iter()
            .map(|c| JsonChange {
                impact: c.impact().as_str(),
                rule: c.rule(),
                field: c.field(),
                message: c.message(),
                witness: c.witness().and_then(|w| RawValue::from_string(w.to_string()).ok()),
                witness_direction: c.witness_direction().map(ContractDirection::as_str),
            })
            .collect(),
    }
}

/// Pretty JSON of one diff (`diff OLD NEW`): one object.
pub fn json(d: &ContractDiff) -> String {
    serde_json::to_string_pretty(&super::versioned(json_doc(d))).unwrap_or_default() + "\n"
}

#[derive(Serialize)]
struct JsonDiffs<'a> {
    compatibility: &'static str,
    diffs: Vec<JsonDiff<'a>>,
}

/// Pretty JSON of any number of diffs (every chain step, `--against`): one
/// object whatever the count, `{"compatibility": worst, "diffs": [...]}`, so a
/// script reads the same keys for none, one or many.
pub fn json_many(diffs: &[ContractDiff]) -> String {
    let worst = diffs.iter().map(ContractDiff::compatibility).max().unwrap_or(protocolarc::diff::Impact::Compatible);
    let doc = JsonDiffs { compatibility: worst.as_str(), diffs: diffs.iter().map(json_doc).collect() };
    serde_json::to_string_pretty(&super::versioned(doc)).unwrap_or_default() + "\n"
}

/// A Markdown section: heading, verdict, and a table of changes with witnesses.
pub fn markdown(d: &ContractDiff) -> String {
    let mut out =
        format!("### {} {} -> {}: {}{}\n\n", d.name(), d.from(), d.to(), d.compatibility().as_str(), direction_note(d));
    if d.changes().is_empty() {
        out.push_str("No changes.\n");
        return out;
    }
    out.push_str("| impact | rule | field | change |\n|---|---|---|---|\n");
    for c in d.changes() {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            c.impact(),
            code(c.rule()),
            code(c.field()),
            cell(c.message())
        ));
    }
    // Witnesses below the table, one JSON block each: long bodies would
    // stretch a table cell past the page.
    let witnessed: Vec<_> = d.changes().iter().filter_map(|c| Some((c, c.witness()?))).collect();
    if !witnessed.is_empty() {
        out.push_str("\nWitnesses (accepted by the old revision, rejected by the new one, unless marked):\n");
        for (c, w) in witnessed {
            let fence = fence(w);
            let sense = match c.witness_direction() {
                Some(ContractDirection::Response) => " (accepted by the new revision, rejected by the old one)",
                _ => "",
            };
            out.push_str(&format!("\n{} {}{sense}:\n\n{fence}json\n{w}\n{fence}\n", code(c.rule()), code(c.field())));
        }
    }
    out
}

/// A Markdown code fence longer than any run of backticks in `body`.
fn fence(body: &str) -> String {
    let longest = body.split(|ch| ch != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

#[cfg(test)]
mod tests {
    use super::fence;

    #[test]
    fn a_fence_outgrows_the_backticks_of_its_body() {
        assert_eq!(fence(r#"{"a":1}"#), "```");
        assert_eq!(fence(r#"{"s":"a```b"}"#), "````");
        assert_eq!(fence(r#"{"s":"`````"}"#), "``````");
    }
}
