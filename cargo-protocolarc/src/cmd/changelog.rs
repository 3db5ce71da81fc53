//! `changelog`: every contract chain's history as Markdown, newest first.

use std::io::Write;

use protocolarc::chain::chains;

use super::Ctx;
use crate::source::{Input, Repo};
use crate::{exit, Failure};

pub(crate) fn run(cx: &Ctx, args: crate::cli::ChangelogArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let mut repo = Repo::default();
    let catalog = repo.catalog(&[Input::Disk(cx.project()?.contracts)])?;
    let mut text = String::from(
        "# Contract changelog\n\nComputed by `cargo protocolarc changelog` from the contracts themselves.\n",
    );
    for chain in chains(&catalog) {
        text.push_str(&format!("\n## {}\n", chain.name));
        for step in chain.steps.iter().rev() {
            let d = &step.diff;
            let verdict = d.compatibility();
            text.push_str(&format!("\n### {} ({verdict}, from {}; {} bump)\n\n", d.to(), d.from(), step.bump));
            if let Some(problem) = step.problem() {
                text.push_str(&format!("**{}**: {problem}\n\n", protocolarc::chain::BUMP_INSUFFICIENT));
            }
            if d.changes().is_empty() {
                text.push_str("- no change to the shape\n");
            }
            for c in d.changes() {
                text.push_str(&format!("- {} `{}` `{}`: {}\n", c.impact(), c.rule(), c.field(), c.message()));
            }
        }
        text.push_str(&format!("\n### {} (first revision)\n", chain.revisions[0]));
    }
    match args.out {
        Some(path) => {
            std::fs::write(&path, &text)
                .map_err(|e| Failure::Input(format!("{}: cannot write: {}", path.display(), crate::io_reason(&e))))?;
            writeln!(out, "wrote {}", path.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(exit::OK)
}
