//! `lock`: pin every revision's canonical content, or verify the pins.

use std::io::Write;

use protocolarc::lock::{compare, Lock};

use super::Ctx;
use crate::history::{self, Revision};
use crate::source::{Input, Repo};
use crate::{exit, Failure};

pub(crate) fn run(cx: &Ctx, args: crate::cli::LockArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let project = cx.project()?;
    let mut repo = Repo::at(&project.contracts);
    let (work, broken) = history::load(&mut repo, &Input::Disk(project.contracts.clone()))?;
    if let Some(p) = broken.first() {
        return Err(Failure::Input(format!("{}:{}: {}", p.file, p.line, p.message)));
    }
    if let Some(p) = history::duplicates(&work).first() {
        return Err(Failure::Input(format!("{}: {} {}", p.file, p.contract, p.message)));
    }
    let lock = Lock::new(work.iter().map(Revision::pin).collect());
    let text = lock.to_text();
    let shown = project.lock.display().to_string();
    if args.check {
        // Compared pin by pin: formatting and line endings are not content.
        let current = std::fs::read_to_string(&project.lock).unwrap_or_default();
        let old = match Lock::parse(&current) {
            Ok(old) => old,
            Err(e) => {
                writeln!(out, "{shown} cannot be read ({e}): run `cargo protocolarc lock` and commit it")?;
                return Ok(exit::FAILED);
            }
        };
        let problems: Vec<String> = compare(&old, &lock.contracts)
            .iter()
            .map(|d| format!("{} {}@{}: {}", d.rule(), d.pin().name, d.pin().revision, d.message(&shown)))
            .collect();
        if problems.is_empty() {
            writeln!(out, "{shown} matches ({})", super::check::count(lock.contracts.len(), "revision"))?;
            return Ok(exit::OK);
        }
        writeln!(out, "{shown} does not match the contracts: run `cargo protocolarc lock` and commit it")?;
        for p in problems {
            writeln!(out, "  {p}")?;
        }
        return Ok(exit::FAILED);
    }
    crate::write::write_atomic(&project.lock, text.as_bytes())?;
    writeln!(out, "wrote {shown} ({})", super::check::count(lock.contracts.len(), "revision"))?;
    Ok(exit::OK)
}
