//! `check`: every guard at once, for CI. Each guard is a function
//! returning its problems: contracts load ([`history::load`]), no duplicates,
//! chain bumps, nothing published mutated or deleted since the base, the lock
//! matches, fixtures pass, no stale accept entry. Every neighbouring pair is
//! diffed once, without witnesses (none is printed), and the bump guard and the
//! stale-accept guard read the same diffs.

use std::io::Write;
use std::path::PathBuf;

use protocolarc::diff::{diff_without_witnesses, ContractDiff};
use protocolarc::lock::{compare, Drift, Lock, LOCK_MISSING};

use super::Ctx;
use crate::checks::{ACCEPT_STALE, FIXTURE_INVALID, REVISION_DELETED, REVISION_MUTATED};
use crate::ci::{self, Problem};
use crate::cli::CheckArgs;
use crate::config::{Accept, Project};
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
    let base = base(&mut repo, &args, &project)?;
    let steps = steps(&work, base.published.as_deref());
    problems.extend(bumps(&steps, &project.accept));
    if let Some(published) = &base.published {
        problems.extend(mutations(published, &work, &base.rev));
    }
    problems.extend(lock(&project, &work)?);
    let (fixture_problems, fixtures) = fixtures(&mut repo, &project, &work)?;
    problems.extend(fixture_problems);
    problems.extend(stale_accepts(&project, &steps));

    let summary = if problems.is_empty() {
        format!(
            "check: ok ({}, {}, {} pinned, {}; base {}{})",
            count(work.len(), "revision"),
            count(steps.len(), "chain step"),
            work.len(),
            count(fixtures, "fixture"),
            base.rev.as_str(),
            base.note
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

/// `1 revision`, `2 revisions`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// The git base the tree is compared with.
struct Base {
    rev: Rev,
    /// Why the immutability guard did not run, for the summary (or empty).
    note: &'static str,
    /// The revisions at the base, when there is a base with contracts.
    published: Option<Vec<Revision>>,
}

/// `--against`, else the configured base, else `HEAD`. Without git, or before
/// the first commit, there is no base to compare with unless one was asked
/// for explicitly (then its absence is an input error).
fn base(repo: &mut Repo, args: &CheckArgs, project: &Project) -> Result<Base, Failure> {
    let name = args.against.clone().or_else(|| project.base.clone()).unwrap_or_else(|| "HEAD".to_string());
    let rev = Rev::parse(&name)?;
    let explicit = args.against.is_some() || project.base.is_some();
    let none = |rev: Rev, note| Ok(Base { rev, note, published: None });
    let unborn = match repo.git() {
        Err(e) if explicit => return Err(e),
        Err(_) => return none(rev, " (not a git repository: revision.mutated not checked)"),
        Ok(git) => !explicit && !git.has_commit(&rev)?,
    };
    if unborn {
        return none(rev, " (no commit yet: revision.mutated not checked)");
    }
    repo.require(&rev)?;
    let input = Input::Git { rev: rev.clone(), path: project.contracts.clone() };
    // A base without the contracts directory published nothing.
    let published = if repo.exists(&input)? { Some(history::load(repo, &input)?.0) } else { None };
    Ok(Base { rev, note: "", published })
}

/// A neighbour pair whose bump is checked, with its diff.
struct Step<'a> {
    old: &'a Revision,
    new: &'a Revision,
    diff: Option<ContractDiff>,
}

/// Every pair whose bump is checked, each diffed once: neighbours in the tree,
/// and each revision edited in place (one file per contract) with its
/// predecessor, which only the base has.
fn steps<'a>(work: &'a [Revision], published: Option<&'a [Revision]>) -> Vec<Step<'a>> {
    let step = |old: &'a Revision, new: &'a Revision| Step {
        old,
        new,
        diff: diff_without_witnesses(&old.spec, &new.spec).ok(),
    };
    let mut out: Vec<Step<'a>> =
        work.windows(2).filter(|w| w[0].spec.name() == w[1].spec.name()).map(|w| step(&w[0], &w[1])).collect();
    if let Some(published) = published {
        let (pairs, _) = history::pair(published, work);
        for p in pairs.iter().filter(|p| p.relation == Relation::Next) {
            if !work.iter().any(|w| w.same_as(p.old)) {
                out.push(step(p.old, p.new));
            }
        }
    }
    out
}

/// `revision.bump.insufficient`: each step's bump covers its verdict.
fn bumps(steps: &[Step<'_>], accept: &[Accept]) -> Vec<Problem> {
    steps.iter().filter_map(|s| history::bump_problem(s.old, s.new, s.diff.as_ref()?, accept)).collect()
}

/// `revision.deleted` and `revision.mutated`: nothing published at the base
/// lost its file or changed its content.
fn mutations(published: &[Revision], work: &[Revision], rev: &Rev) -> Vec<Problem> {
    let mut out = Vec::new();
    // A published revision whose file is gone (not edited in place into a
    // later revision) was deleted: clients pinned to it break.
    for old in published {
        let kept = work.iter().any(|w| w.same_as(old));
        let path = old.origin.path();
        if !kept && !path.exists() {
            out.push(Problem {
                file: path.display().to_string(),
                line: 0,
                rule: REVISION_DELETED.id,
                contract: old.id(),
                message: format!(
                    "{} was published at {} and its file has been deleted (published revisions stay)",
                    old.id(),
                    rev.as_str()
                ),
            });
        }
    }
    for new in work {
        if let Some(old) = published.iter().find(|o| o.same_as(new) && o.digest != new.digest) {
            out.push(Problem {
                file: new.file_text(),
                line: new.spec.revision_line(),
                rule: REVISION_MUTATED.id,
                contract: new.id(),
                message: format!(
                    "{} was published at {} and has changed since (published revisions are immutable: publish a \
                     new revision instead)",
                    old.id(),
                    rev.as_str()
                ),
            });
        }
    }
    out
}

/// `lock.missing` and `lock.mismatch`: the lock pins every revision's content.
fn lock(project: &Project, work: &[Revision]) -> Result<Vec<Problem>, Failure> {
    let lock_file = project.lock.display().to_string();
    let Ok(text) = std::fs::read_to_string(&project.lock) else {
        return Ok(vec![Problem {
            file: lock_file,
            line: 0,
            rule: LOCK_MISSING.id,
            contract: String::new(),
            message: "no lock file: run `cargo protocolarc lock` and commit it".into(),
        }]);
    };
    let lock = Lock::parse(&text).map_err(|e| Failure::Input(format!("{lock_file}: {e}")))?;
    let current: Vec<_> = work.iter().map(Revision::pin).collect();
    let problems = compare(&lock, &current)
        .iter()
        .map(|d| {
            let message = d.message(&lock_file);
            let pin = d.pin();
            // A drift about a revision points at its file, an orphan pin at the lock.
            let revision = match d {
                Drift::Orphan(_) => None,
                _ => current.iter().position(|c| std::ptr::eq(c, pin)).map(|i| &work[i]),
            };
            match revision {
                Some(r) => Problem {
                    file: r.file_text(),
                    line: r.spec.revision_line(),
                    rule: d.rule().id,
                    contract: r.id(),
                    message,
                },
                None => Problem {
                    file: lock_file.clone(),
                    line: 0,
                    rule: d.rule().id,
                    contract: format!("{}@{}", pin.name, pin.revision),
                    message,
                },
            }
        })
        .collect();
    Ok(problems)
}

/// `fixture.invalid`: every fixture envelope names a contract of the project
/// and passes it. Also returns how many envelopes were read.
fn fixtures(repo: &mut Repo, project: &Project, work: &[Revision]) -> Result<(Vec<Problem>, usize), Failure> {
    let mut problems = Vec::new();
    if !project.fixtures.exists() {
        return Ok((problems, 0));
    }
    let catalog = protocolarc::Catalog::from_entries(
        work.iter().map(|r| (PathBuf::from(r.file_text()), r.spec.clone())).collect(),
    )
    .map_err(|e| Failure::Input(e.to_string()))?;
    let dir = project.fixtures.clone();
    let mut count = 0;
    repo.envelopes(&[Input::Disk(dir.clone())], |e| {
        count += 1;
        let (file, line) = locate(&dir, e.source());
        match catalog.for_envelope(e.contract(), e.revision()) {
            None => problems.push(Problem {
                file,
                line,
                rule: FIXTURE_INVALID.id,
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
                        rule: FIXTURE_INVALID.id,
                        contract: c.id(),
                        message: format!("fixture {} fails: {first}", e.source()),
                    });
                }
            }
        }
        Ok(())
    })?;
    Ok((problems, count))
}

/// `accept.stale`: approvals that approve nothing rot; each must still match
/// a change of a checked step.
fn stale_accepts(project: &Project, steps: &[Step<'_>]) -> Vec<Problem> {
    let used = |a: &Accept| {
        steps.iter().any(|s| {
            s.diff.as_ref().is_some_and(|d| {
                d.changes()
                    .iter()
                    .any(|c| approval(&project.accept, &s.new.spec, c).is_some_and(|x| std::ptr::eq(x, a)))
            })
        })
    };
    project
        .accept
        .iter()
        .filter(|a| !used(a))
        .map(|a| Problem {
            file: project.manifest.as_ref().map_or("Cargo.toml".into(), |m| m.display().to_string()),
            line: 0,
            rule: ACCEPT_STALE.id,
            contract: format!("{}@{}", a.contract, a.revision),
            message: format!("accept entry {} {} matches no change; remove it", a.rule, a.field),
        })
        .collect()
}

/// The fixture file and line an envelope label (`rel/path.jsonl:LINE`) points to.
fn locate(dir: &std::path::Path, source: &str) -> (String, usize) {
    let (rel, n) = source.rsplit_once(':').unwrap_or((source, "0"));
    let path = if dir.is_dir() { dir.join(rel) } else { dir.to_path_buf() };
    let n: usize = n.parse().unwrap_or(0);
    let line = if rel.ends_with(".jsonl") || rel.ends_with(".ndjson") { n } else { 0 };
    (path.display().to_string(), line)
}
