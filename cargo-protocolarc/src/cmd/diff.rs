//! `diff`: two revisions, every neighbouring pair of the project, or every
//! contract of the project against a git revision (`--against`).

use std::io::Write;

use crate::render::diff as render;
use protocolarc::chain::{chains, Bump};
use protocolarc::diff::{diff, ContractDiff, Impact};

use super::{input, Ctx};
use crate::ci::{self, Problem};
use crate::cli::{CiFormat, DiffArgs, FailOn};
use crate::git::Rev;
use crate::history::{self, approval, Relation};
use crate::source::{Input, Repo};
use crate::{exit, Failure};

pub(crate) fn run(cx: &Ctx, args: DiffArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    if let Some(against) = &args.against {
        return against_rev(cx, against, &args, out);
    }
    if args.format == CiFormat::Github {
        return Err(Failure::Input(
            "--format github goes with --against REV (annotations need the files in the repository)".into(),
        ));
    }
    let mut repo = Repo::default();
    let diffs: Vec<ContractDiff> = match (&args.old, &args.new) {
        (Some(old), Some(new)) => {
            let (old, new) = (repo.contract(&input(old)?)?, repo.contract(&input(new)?)?);
            vec![diff(&old, &new).map_err(|e| Failure::Input(e.to_string()))?]
        }
        _ => {
            let catalog = repo.catalog(&[Input::Disk(cx.project()?.contracts)])?;
            chains(catalog.contracts()).into_iter().flat_map(|c| c.steps.into_iter().map(|s| s.diff)).collect()
        }
    };
    let single = args.old.is_some();
    let worst = diffs.iter().map(ContractDiff::compatibility).max().unwrap_or(Impact::Compatible);
    let summary = format!("{}: {}", super::check::count(diffs.len(), "chain step"), worst.as_str());
    write_diffs(&diffs, &args, &[], single, &summary, out)?;
    let fails = diffs.iter().any(|d| fails(args.fail_on, d.compatibility(), d.from(), d.to()));
    Ok(if fails { exit::BREAKING } else { exit::OK })
}

/// Whether a verdict between two revisions makes `diff` exit 2 under `--fail-on`.
fn fails(fail_on: FailOn, verdict: Impact, from: &semver::Version, to: &semver::Version) -> bool {
    match fail_on {
        FailOn::Never => false,
        FailOn::Breaking => verdict == Impact::Breaking,
        FailOn::Unbumped => verdict == Impact::Breaking && Bump::between(from, to) < Bump::needed(verdict, from),
    }
}

/// Text, JSON or Markdown of several diffs; `notes` follow each diff's text.
/// JSON is the one diff's object for `diff OLD NEW` (`single`), else one
/// object listing every diff, whatever their number; Markdown of several
/// diffs opens with a heading and `summary`, and says when nothing changed.
fn write_diffs(
    diffs: &[ContractDiff],
    args: &DiffArgs,
    notes: &[Vec<String>],
    single: bool,
    summary: &str,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    match args.format {
        CiFormat::Text | CiFormat::Github => {
            for (i, d) in diffs.iter().enumerate() {
                if i > 0 {
                    out.write_all(b"\n")?;
                }
                out.write_all(render::text(d, args.witnesses).as_bytes())?;
                for note in notes.get(i).into_iter().flatten() {
                    writeln!(out, "  {note}")?;
                }
            }
        }
        CiFormat::Json => match diffs {
            [d] if single => out.write_all(render::json(d).as_bytes())?,
            _ => out.write_all(render::json_many(diffs).as_bytes())?,
        },
        CiFormat::Markdown => {
            if !single {
                writeln!(out, "## ProtocolArc diff\n\n{summary}\n")?;
                if diffs.is_empty() {
                    writeln!(out, "No changed revisions.")?;
                }
            }
            for (i, d) in diffs.iter().enumerate() {
                if i > 0 {
                    out.write_all(b"\n")?;
                }
                out.write_all(render::markdown(d).as_bytes())?;
                for note in notes.get(i).into_iter().flatten() {
                    writeln!(out, "\n{note}")?;
                }
            }
        }
    }
    Ok(())
}

fn against_rev(cx: &Ctx, against: &str, args: &DiffArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let rev = Rev::parse(against)?;
    let project = cx.project()?;
    let mut repo = Repo::at(&project.contracts);
    repo.require(&rev)?;
    let work_input = Input::Disk(project.contracts.clone());
    let (work, broken) = history::load(&mut repo, &work_input)?;
    if let Some(p) = broken.first() {
        return Err(Failure::Input(format!("{}:{}: {}", p.file, p.line, p.message)));
    }
    let base_input = Input::Git { rev: rev.clone(), path: project.contracts.clone() };
    // A contracts directory the base does not have yet: everything is new.
    let (base, _) =
        if repo.exists(&base_input)? { history::load(&mut repo, &base_input)? } else { (Vec::new(), Vec::new()) };
    let (pairs, fresh) = history::pair(&base, &work);
    let mut diffs = Vec::new();
    let mut notes = Vec::new();
    let mut problems = Vec::new();
    let (mut breaking, mut failing) = (false, false);
    for p in &pairs {
        let d = diff(&p.old.spec, &p.new.spec).map_err(|e| Failure::Input(e.to_string()))?;
        // Whether an unapproved break of this pair fails the run (`--fail-on`);
        // with `unbumped`, a break its bump covers is reported, not annotated.
        let pair_fails = fails(args.fail_on, Impact::Breaking, p.old.spec.revision(), p.new.spec.revision());
        let annotate = pair_fails || args.fail_on == FailOn::Never;
        let mut lines = Vec::new();
        if p.relation == Relation::Mutated {
            lines.push(format!(
                "note: {} was edited in place since {} (see `check`: revision.mutated)",
                p.new.id(),
                rev.as_str()
            ));
        }
        for c in d.changes() {
            match approval(&project.accept, &p.new.spec, c) {
                Some(a) => lines.push(format!("accepted {} {}: {}", c.rule(), c.field(), a.reason)),
                None if c.impact() == Impact::Breaking => {
                    breaking = true;
                    failing |= pair_fails;
                    if !annotate {
                        continue;
                    }
                    problems.push(Problem {
                        file: p.new.file_text(),
                        // The changed field's own line; a removed field, or a
                        // change to the whole contract, points at `revision`.
                        line: p.new.spec.field_line(c.field()).unwrap_or_else(|| p.new.spec.revision_line()),
                        rule: c.rule(),
                        contract: p.new.id(),
                        message: format!("breaking change since {}: {}: {}", p.old.id(), c.field(), c.message()),
                    });
                }
                None => {}
            }
        }
        diffs.push(d);
        notes.push(lines);
    }
    let mut summary =
        format!("diff --against {}: {}", rev.as_str(), super::check::count(pairs.len(), "changed revision"));
    if !fresh.is_empty() {
        let names: Vec<String> = fresh.iter().map(|r| r.id()).collect();
        summary.push_str(&format!(", new: {}", names.join(", ")));
    }
    summary.push_str(if breaking { "; breaking" } else { "; nothing breaking" });
    match args.format {
        CiFormat::Github => out.write_all(ci::render(&problems, CiFormat::Github, "", &summary).as_bytes())?,
        _ => {
            write_diffs(&diffs, args, &notes, false, &summary, out)?;
            if args.format == CiFormat::Text {
                if !diffs.is_empty() {
                    out.write_all(b"\n")?;
                }
                writeln!(out, "{summary}")?;
            }
        }
    }
    Ok(if failing { exit::BREAKING } else { exit::OK })
}
