//! Contract revisions with their files and content digests, and how the
//! working tree's revisions pair with those committed at a base revision.
//! Shared by `diff --against`, `check`, `lock` and `changelog`.

use protocolarc::chain::{bump_message, Bump, BUMP_INSUFFICIENT};
use protocolarc::diff::{Change, ContractDiff, Impact};
use protocolarc::lock::{digest, Pin};
use protocolarc::ContractSpec;

use crate::checks::{CONTRACT_DUPLICATE, CONTRACT_LOAD};
use crate::ci::Problem;
use crate::config::Accept;
use crate::source::{Input, Origin, Repo};
use crate::Failure;

/// One loaded revision.
#[derive(Debug, Clone)]
pub(crate) struct Revision {
    pub spec: ContractSpec,
    /// Where its file was read from: the working tree or a git revision.
    pub origin: Origin,
    pub digest: String,
}

impl Revision {
    pub fn id(&self) -> String {
        self.spec.id()
    }

    /// The file as problems name it: the path, or `REV:path`.
    pub fn file_text(&self) -> String {
        self.origin.to_string()
    }

    /// Whether `other` is the same name and revision.
    pub fn same_as(&self, other: &Revision) -> bool {
        self.spec.name() == other.spec.name() && self.spec.revision() == other.spec.revision()
    }

    /// Its lock pin: name, revision and content digest.
    pub fn pin(&self) -> Pin {
        Pin {
            name: self.spec.name().to_string(),
            revision: self.spec.revision().to_string(),
            sha256: self.digest.clone(),
        }
    }
}

/// Every contract file of an input, loaded; files that do not load become
/// `contract.load` problems instead of stopping the run.
pub(crate) fn load(repo: &mut Repo, input: &Input) -> Result<(Vec<Revision>, Vec<Problem>), Failure> {
    let mut revisions = Vec::new();
    let mut problems = Vec::new();
    for (origin, bytes) in repo.files(input)? {
        let shown = origin.to_string();
        match ContractSpec::from_slice(&bytes, &shown) {
            Ok(spec) => match digest(&bytes) {
                Ok(digest) => revisions.push(Revision { spec, origin, digest }),
                Err(e) => problems.push(Problem {
                    file: shown.clone(),
                    line: protocolarc::line_col(&bytes, e.offset).0,
                    rule: CONTRACT_LOAD.id,
                    contract: spec.id(),
                    message: format!("cannot be pinned: {}", e.message),
                }),
            },
            Err(e) => {
                for d in e.diagnostics() {
                    problems.push(Problem {
                        file: shown.clone(),
                        line: d.line,
                        rule: CONTRACT_LOAD.id,
                        contract: String::new(),
                        message: d.to_string(),
                    });
                }
            }
        }
    }
    revisions.sort_by(|a, b| a.spec.name().cmp(b.spec.name()).then_with(|| a.spec.revision().cmp(b.spec.revision())));
    Ok((revisions, problems))
}

/// Two files defining the same name and revision.
pub(crate) fn duplicates(revisions: &[Revision]) -> Vec<Problem> {
    revisions
        .windows(2)
        .filter(|w| w[0].same_as(&w[1]))
        .map(|w| Problem {
            file: w[1].file_text(),
            line: w[1].spec.revision_line(),
            rule: CONTRACT_DUPLICATE.id,
            contract: w[1].id(),
            message: format!("also defined in {}", w[0].file_text()),
        })
        .collect()
}

/// How a working-tree revision relates to the base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Relation {
    /// The same name and revision exists at the base with other content.
    Mutated,
    /// A revision the base does not have, after `old` (from the base or the tree).
    Next,
}

/// A working-tree revision and what it is compared with.
pub(crate) struct Pair<'a> {
    pub old: &'a Revision,
    pub new: &'a Revision,
    pub relation: Relation,
}

/// Pairs each working-tree revision with the base: a published revision whose
/// content changed is paired with its published self; a new revision with its
/// predecessor (the highest lower revision of that name, at the base or in the
/// tree). Unchanged revisions are left out. Also returns the names the base
/// does not know at all.
pub(crate) fn pair<'a>(base: &'a [Revision], work: &'a [Revision]) -> (Vec<Pair<'a>>, Vec<&'a Revision>) {
    let mut pairs = Vec::new();
    let mut fresh = Vec::new();
    for new in work {
        let same = base.iter().find(|b| b.same_as(new));
        match same {
            Some(old) if old.digest != new.digest => pairs.push(Pair { old, new, relation: Relation::Mutated }),
            Some(_) => {}
            None => {
                let before = base
                    .iter()
                    .chain(work)
                    .filter(|r| r.spec.name() == new.spec.name() && r.spec.revision() < new.spec.revision())
                    .max_by(|a, b| a.spec.revision().cmp(b.spec.revision()));
                match before {
                    Some(old) => pairs.push(Pair { old, new, relation: Relation::Next }),
                    None => fresh.push(new),
                }
            }
        }
    }
    (pairs, fresh)
}

/// The accept entry that approves this change of this revision, if any.
pub(crate) fn approval<'a>(accept: &'a [Accept], new: &ContractSpec, change: &Change) -> Option<&'a Accept> {
    accept.iter().find(|a| {
        a.contract == new.name()
            && a.revision == new.revision().to_string()
            && a.rule == change.rule()
            && a.field == change.field()
    })
}

/// The verdict of a diff once approved changes are set aside.
pub(crate) fn verdict(d: &ContractDiff, accept: &[Accept], new: &ContractSpec) -> Impact {
    d.changes()
        .iter()
        .filter(|c| approval(accept, new, c).is_none())
        .map(|c| c.impact())
        .max()
        .unwrap_or(Impact::Compatible)
}

/// The `revision.bump.insufficient` problem of a neighbour pair, if any,
/// given the pair's diff (witnesses are not needed: none is printed).
pub(crate) fn bump_problem(old: &Revision, new: &Revision, d: &ContractDiff, accept: &[Accept]) -> Option<Problem> {
    let verdict = verdict(d, accept, &new.spec);
    let bump = Bump::between(old.spec.revision(), new.spec.revision());
    let needed = Bump::needed(verdict, old.spec.revision());
    if bump >= needed {
        return None;
    }
    let causes: Vec<String> = d
        .changes()
        .iter()
        .filter(|c| c.impact() == verdict && approval(accept, &new.spec, c).is_none())
        .map(|c| format!("{} {}", c.rule(), c.field()))
        .collect();
    Some(Problem {
        file: new.file_text(),
        line: new.spec.revision_line(),
        rule: BUMP_INSUFFICIENT.id,
        contract: new.id(),
        message: bump_message(old.spec.revision(), new.spec.revision(), verdict, &causes, needed, bump),
    })
}
