//! `rules`: every rule id with what it means, read from the rule tables the
//! engines themselves use.

use std::io::Write;

use protocolarc::diff::rules as change;
use protocolarc::rules as validation;

use crate::cli::RulesArgs;
use crate::{exit, Failure};

/// The rules of `check` (and `diff --against`), with what fails them.
pub(crate) const CHECK_RULES: &[(&str, &str)] = &[
    ("contract.load", "a contract file does not load (exit 3)"),
    ("contract.duplicate", "two files define the same contract name and revision"),
    (
        "revision.bump.insufficient",
        "a revision's version bump is smaller than its changes need (breaking: major, minor while 0.x; forward: minor; compatible: patch)",
    ),
    ("revision.mutated", "a revision published at the base has other content now: publish a new revision instead"),
    ("revision.deleted", "the file of a revision published at the base is gone (and was not edited into a later revision)"),
    ("lock.missing", "a revision is not pinned in the lock file (or there is no lock file)"),
    ("lock.mismatch", "a revision's canonical content no longer has its pinned SHA-256, or a pin has no contract"),
    ("fixture.invalid", "a fixture envelope fails its contract"),
    ("accept.stale", "an accept entry matches no change any more"),
];

pub(crate) fn run(args: RulesArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let mut rows: Vec<(String, &str, &str)> = Vec::new();
    for r in validation::VALIDATION_RULES {
        rows.push(("validate".into(), r.id, r.summary));
    }
    for r in change::all() {
        rows.push((format!("diff ({})", r.impact), r.id, r.summary));
    }
    for (id, summary) in CHECK_RULES {
        rows.push(("check".into(), id, summary));
    }
    if let Some(rule) = args.rule {
        let Some((kind, id, summary)) = rows.iter().find(|r| r.1 == rule) else {
            return Err(Failure::Input(format!("unknown rule '{rule}' (see `cargo protocolarc rules`)")));
        };
        let severity = validation::find(id).map(|r| format!(", {}", r.severity)).unwrap_or_default();
        writeln!(out, "{id} [{kind}{severity}]\n  {summary}")?;
        return Ok(exit::OK);
    }
    let width = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let kind_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    for (kind, id, summary) in &rows {
        writeln!(out, "{kind:kind_width$}  {id:width$}  {summary}")?;
    }
    Ok(exit::OK)
}
