//! `check`: every guard of SPEC §7 at once, for CI.

use std::io::Write;

use protocolarc::lock::Lock;

use super::Ctx;
use crate::ci::{self, Problem};
use crate::cli::CheckArgs;
use crate::git::Rev;
use crate::history::{self, approval, Relation, Revision};
use crate::source::{Input, Repo};
use crate::{exit, Failure};

pub(crate) fn run(cx: &Ctx, args: CheckArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let project = cx.project()?;
    let mut repo = Repo::at(&project.contracts);
    let (work, mut problems) = history::load(&mut repo, &Input::Disk(project.contracts.clone()))?;
    let load_failed = !problems.is_empty();
    problems.extend(history::duplicates(&work));

    // Semver: each neighbour pair's bump covers its verdict.
    let mut steps = 0;
    let mut used = vec![false; project.accept.len()];
    for pair in work.windows(2).filter(|w| w[0].spec.name() == w[1].spec.name()) {
        steps += 1;
        problems.extend(history::bump_problem(&pair[0], &pair[1], &project.accept));
        mark_used(&project.accept, &pair[0], &pair[1], &mut used);
    }

    // Immutability: nothing published at the base changed.
    let base = args.against.clone().or_else(|| project.base.clone()).unwrap_or_else(|| "HEAD".to_string());
    let rev = Rev::parse(&base)?;
    let explicit = args.against.is_some() || project.base.is_some();
    let mut base_note = String::new();
    let has_git = repo.git().is_ok();
    let unborn = has_git && !explicit && !repo.git()?.has_commit(&rev)?;
    match repo.git() {
        Ok(_) if unborn => base_note = " (no commit yet: revision.mutated not checked)".to_string(),
        Ok(_) => {
            repo.require(&rev)?;
            let base_input = Input::Git { rev: rev.clone(), path: project.contracts.clone() };
            if repo.exists(&base_input)? {
                let (published, _) = history::load(&mut repo, &base_input)?;
                // A revision edited in place (one file per contract) has its
                // predecessor only at the base: its bump is checked against it.
                let (pairs, _) = history::pair(&published, &work);
                for p in pairs.iter().filter(|p| p.relation == Relation::Next) {
                    let in_tree = work
                        .iter()
                        .any(|w| w.spec.name() == p.old.spec.name() && w.spec.revision() == p.old.spec.revision());
                    if !in_tree {
                        steps += 1;
                        problems.extend(history::bump_problem(p.old, p.new, &project.accept));
                        mark_used(&project.accept, p.old, p.new, &mut used);
                    }
                }
                // A published revision whose file is gone (not edited in place
                // into a later revision) was deleted: clients pinned to it break.
                for old in &published {
                    let kept = work
                        .iter()
                        .any(|w| w.spec.name() == old.spec.name() && w.spec.revision() == old.spec.revision());
                    let file = old.file_text();
                    let path = file.strip_prefix(&format!("{}:", rev.as_str())).unwrap_or(&file).to_string();
                    if !kept && !std::path::Path::new(&path).exists() {
                        problems.push(Problem {
                            file: path,
                            line: 0,
                            rule: "revision.deleted",
                            contract: old.id(),
                            message: format!(
                                "{} was published at {} and its file has been deleted (published revisions stay)",
                                old.id(),
                                rev.as_str()
                            ),
                        });
                    }
                }
                for new in &work {
                    let old = published
                        .iter()
                        .find(|o| o.spec.name() == new.spec.name() && o.spec.revision() == new.spec.revision());
                    if let Some(old) = old.filter(|o| o.digest != new.digest) {
                        problems.push(Problem {
                            file: new.file_text(),
                            line: new.spec.revision_line(),
                            rule: "revision.mutated",
                            contract: new.id(),
                            message: format!(
                                "{} was published at {} and has changed since (published revisions are immutable: \
                                 publish a new revision instead)",
                                old.id(),
                                rev.as_str()
                            ),
                        });
                    }
                }
            }
        }
        Err(e) if explicit => return Err(e),
        Err(_) => base_note = " (not a git repository: revision.mutated not checked)".to_string(),
    }

    // The lock pins every revision's content.
    let lock_file = project.lock.display().to_string();
    match std::fs::read_to_string(&project.lock) {
        Err(_) => problems.push(Problem {
            file: lock_file.clone(),
            line: 0,
            rule: "lock.missing",
            contract: "-".into(),
            message: "no lock file: run `cargo protocolarc lock` and commit it".into(),
        }),
        Ok(text) => {
            let lock = Lock::parse(&text).map_err(|e| Failure::Input(format!("{lock_file}: {e}")))?;
            problems.extend(lock_problems(&lock, &work, &lock_file));
        }
    }

    // Fixtures pass their contracts.
    let mut fixtures = 0;
    if project.fixtures.exists() {
        let catalog =
            protocolarc::Catalog::from_entries(work.iter().map(|r| (r.file.clone(), r.spec.clone())).collect())
                .map_err(|e| Failure::Input(e.to_string()))?;
        let fixtures_dir = project.fixtures.clone();
        repo.envelopes(&[Input::Disk(fixtures_dir.clone())], |e| {
            fixtures += 1;
            let (file, line) = locate(&fixtures_dir, e.source());
            match catalog.for_envelope(e.contract(), e.revision()) {
                None => problems.push(Problem {
                    file,
                    line,
                    rule: "fixture.invalid",
                    contract: e.contract().to_string(),
                    message: format!("fixture {} names a contract the project does not define", e.source()),
                }),
                Some(c) => {
                    let report = c.validate_envelope(&e);
                    let first = report.errors().next().map(|f| f.to_string());
                    if let Some(first) = first {
                        problems.push(Problem {
                            file,
                            line,
                            rule: "fixture.invalid",
                            contract: c.id(),
                            message: format!("fixture {} fails: {first}", e.source()),
                        });
                    }
                }
            }
            Ok(())
        })?;
    }

    // Approvals that approve nothing rot: each must still match a change.
    for (a, used) in project.accept.iter().zip(&used) {
        if !used {
            problems.push(Problem {
                file: project.manifest.as_ref().map_or("Cargo.toml".into(), |m| m.display().to_string()),
                line: 0,
                rule: "accept.stale",
                contract: format!("{}@{}", a.contract, a.revision),
                message: format!("accept entry {} {} matches no change; remove it", a.rule, a.field),
            });
        }
    }

    let summary = if problems.is_empty() {
        format!(
            "check: ok ({} revisions, {steps} chain steps, {} pinned, {fixtures} fixtures; base {}{base_note})",
            work.len(),
            work.len(),
            rev.as_str()
        )
    } else {
        format!("check: {} problem{}", problems.len(), if problems.len() == 1 { "" } else { "s" })
    };
    out.write_all(ci::render(&problems, args.format, "ProtocolArc check", &summary).as_bytes())?;
    Ok(if load_failed {
        exit::INPUT
    } else if problems.is_empty() {
        exit::OK
    } else {
        exit::FAILED
    })
}

fn mark_used(accept: &[crate::config::Accept], old: &Revision, new: &Revision, used: &mut [bool]) {
    let Ok(d) = protocolarc::diff::diff(&old.spec, &new.spec) else { return };
    for c in d.changes() {
        if let Some(a) = approval(accept, &new.spec, c) {
            if let Some(i) = accept.iter().position(|x| std::ptr::eq(x, a)) {
                used[i] = true;
            }
        }
    }
}

/// `lock.missing` and `lock.mismatch` for the working tree's revisions.
fn lock_problems(lock: &Lock, work: &[Revision], lock_file: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    for r in work {
        let rev = r.spec.revision().to_string();
        match lock.find(r.spec.name(), &rev) {
            None => out.push(Problem {
                file: r.file_text(),
                line: r.spec.revision_line(),
                rule: "lock.missing",
                contract: r.id(),
                message: format!("not pinned in {lock_file}: run `cargo protocolarc lock`"),
            }),
            Some(pin) if pin.sha256 != r.digest => out.push(Problem {
                file: r.file_text(),
                line: r.spec.revision_line(),
                rule: "lock.mismatch",
                contract: r.id(),
                message: format!(
                    "content changed since it was pinned in {lock_file} (sha256 {} pinned, {} now)",
                    short(&pin.sha256),
                    short(&r.digest)
                ),
            }),
            Some(_) => {}
        }
    }
    for pin in &lock.contracts {
        let present = work.iter().any(|r| r.spec.name() == pin.name && r.spec.revision().to_string() == pin.revision);
        if !present {
            out.push(Problem {
                file: lock_file.to_string(),
                line: 0,
                rule: "lock.mismatch",
                contract: format!("{}@{}", pin.name, pin.revision),
                message: "pinned, but no contract file defines it any more".into(),
            });
        }
    }
    out
}

fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// The fixture file and line an envelope label (`rel/path.jsonl:LINE`) points to.
fn locate(dir: &std::path::Path, source: &str) -> (String, usize) {
    let (rel, n) = source.rsplit_once(':').unwrap_or((source, "0"));
    let path = if dir.is_dir() { dir.join(rel) } else { dir.to_path_buf() };
    let n: usize = n.parse().unwrap_or(0);
    let line = if rel.ends_with(".jsonl") || rel.ends_with(".ndjson") { n } else { 0 };
    (path.display().to_string(), line)
}
