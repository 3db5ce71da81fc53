//! `lock`: pin every revision's canonical content, or verify the pins.

use std::io::Write;

use protocolarc::lock::{Lock, Pin};

use super::Ctx;
use crate::history;
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
    let lock = Lock::new(
        work.iter()
            .map(|r| Pin {
                name: r.spec.name().to_string(),
                revision: r.spec.revision().to_string(),
                sha256: r.digest.clone(),
            })
            .collect(),
    );
    let text = lock.to_text();
    let shown = project.lock.display();
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
        let mut problems = Vec::new();
        for pin in &lock.contracts {
            match old.find(&pin.name, &pin.revision) {
                None => problems.push(format!("lock.missing {}@{}: not pinned", pin.name, pin.revision)),
                Some(p) if p.sha256 != pin.sha256 => problems
                    .push(format!("lock.mismatch {}@{}: content changed since it was pinned", pin.name, pin.revision)),
                Some(_) => {}
            }
        }
        for pin in &old.contracts {
            if lock.find(&pin.name, &pin.revision).is_none() {
                problems.push(format!(
                    "lock.mismatch {}@{}: pinned, but no contract file defines it",
                    pin.name, pin.revision
                ));
            }
        }
        if problems.is_empty() {
            writeln!(out, "{shown} matches ({} revisions)", lock.contracts.len())?;
            return Ok(exit::OK);
        }
        writeln!(out, "{shown} does not match the contracts: run `cargo protocolarc lock` and commit it")?;
        for p in problems {
            writeln!(out, "  {p}")?;
        }
        return Ok(exit::FAILED);
    }
    std::fs::write(&project.lock, &text)
        .map_err(|e| Failure::Input(format!("{shown}: cannot write: {}", crate::io_reason(&e))))?;
    writeln!(out, "wrote {shown} ({} revisions)", lock.contracts.len())?;
    Ok(exit::OK)
}
