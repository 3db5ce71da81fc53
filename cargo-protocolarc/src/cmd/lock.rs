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
        let current = std::fs::read_to_string(&project.lock).unwrap_or_default();
        if current == text {
            writeln!(out, "{shown} matches ({} revisions)", lock.contracts.len())?;
            return Ok(exit::OK);
        }
        writeln!(out, "{shown} does not match the contracts: run `cargo protocolarc lock` and commit it")?;
        let old = Lock::parse(&current).ok();
        for pin in &lock.contracts {
            match old.as_ref().and_then(|l| l.find(&pin.name, &pin.revision)) {
                None => writeln!(out, "  lock.missing {}@{}", pin.name, pin.revision)?,
                Some(p) if p.sha256 != pin.sha256 => writeln!(out, "  lock.mismatch {}@{}", pin.name, pin.revision)?,
                Some(_) => {}
            }
        }
        return Ok(exit::FAILED);
    }
    std::fs::write(&project.lock, &text)
        .map_err(|e| Failure::Input(format!("{shown}: cannot write: {}", crate::io_reason(&e))))?;
    writeln!(out, "wrote {shown} ({} revisions)", lock.contracts.len())?;
    Ok(exit::OK)
}
