//! `changelog`: every contract chain's history as Markdown, newest first.

use std::io::Write;

use protocolarc::chain::chains;

use super::Ctx;
use crate::history;
use crate::source::{Input, Repo};
use crate::{exit, Failure};

pub(crate) fn run(cx: &Ctx, args: crate::cli::ChangelogArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let mut repo = Repo::default();
    let project = cx.project()?;
    let catalog = repo.catalog(&[Input::Disk(project.contracts.clone())])?;
    let mut text = String::from(
        "# Contract changelog\n\nComputed by `cargo protocolarc changelog` from the contracts themselves.\n",
    );
    for chain in chains(catalog.contracts()) {
        text.push_str(&format!("\n## {}\n", chain.name));
        // A response (or both-ways) contract's verdicts are its readers': say so once.
        if let Some(d) = chain.steps.first().map(|s| &s.diff) {
            let note = match d.direction() {
                protocolarc::ContractDirection::Request => None,
                protocolarc::ContractDirection::Response => Some(
                    "Judged as a response: a change is breaking when old readers reject what the new revision allows.",
                ),
                protocolarc::ContractDirection::Both => {
                    Some("Judged both ways: as a request and as a response, the worse of the two.")
                }
            };
            if let Some(note) = note {
                text.push_str(&format!("\n{note}\n"));
            }
        }
        for step in chain.steps.iter().rev() {
            let d = &step.diff;
            let verdict = d.compatibility();
            text.push_str(&format!("\n### {} ({verdict}, from {}; {} bump)\n\n", d.to(), d.from(), step.bump));
            let new = catalog.find(&chain.name, &d.to().to_string());
            // Approved breaks count as the approval says (as in `check`).
            let approved = new.map(|n| history::verdict(d, &project.accept, n)).unwrap_or(verdict);
            let needed = protocolarc::chain::Bump::needed(approved, d.from());
            if step.bump < needed {
                text.push_str(&format!(
                    "**{}**: needs {}; found {}\n\n",
                    protocolarc::chain::BUMP_INSUFFICIENT,
                    needed.phrase(),
                    step.bump.phrase()
                ));
            }
            if d.changes().is_empty() {
                text.push_str("- no change to the shape\n");
            }
            for c in d.changes() {
                let accepted = new
                    .and_then(|n| history::approval(&project.accept, n, c))
                    .map(|a| format!(" (accepted: {})", a.reason))
                    .unwrap_or_default();
                text.push_str(&format!("- {} `{}` `{}`: {}{accepted}\n", c.impact(), c.rule(), c.field(), c.message()));
            }
        }
        text.push_str(&format!("\n### {} (first revision)\n", chain.revisions[0]));
    }
    match args.out {
        Some(path) => {
            crate::write::write_atomic(&path, text.as_bytes())?;
            writeln!(out, "wrote {}", path.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(exit::OK)
}
