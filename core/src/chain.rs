//! Revision chains: every revision of one contract name, ordered by
//! semver, each neighbour pair classified, and the version bump checked
//! against the verdict: breaking needs a major bump (a minor one while the
//! major is 0), forward a minor bump at least, compatible a patch bump at least.

use std::fmt;

use crate::contract::ContractSpec;
use crate::diff::{diff, ContractDiff, Impact};

/// A rule of `cargo protocolarc check`: a property of a
/// project's contracts as a whole (their chains, lock, fixtures and history),
/// not of one envelope or one change. The chain and lock rules are defined
/// here and in [`crate::lock`]; the CLI defines the rest with this type.
#[derive(Debug, PartialEq, Eq)]
pub struct CheckRule {
    /// The id problems carry: `lock.mismatch`.
    pub id: &'static str,
    /// One line: when the check fails.
    pub summary: &'static str,
    /// Why the check exists and what exactly it compares.
    pub explanation: &'static str,
    /// A situation that fails it.
    pub example: &'static str,
    /// How to make the problem go away.
    pub fix: &'static str,
}

impl fmt::Display for CheckRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id)
    }
}

/// A bump too small for its verdict.
pub const BUMP_INSUFFICIENT: &CheckRule = &CheckRule {
    id: "revision.bump.insufficient",
    summary: "a revision's version bump is smaller than its changes need (breaking: major, minor while 0.x; \
              forward: minor; compatible: patch)",
    explanation: "Neighbouring revisions of a contract (by semver) are compared with the compatibility engine, and \
                  the version must move as far as the worst change needs: breaking needs a major bump (a minor one \
                  while the major is 0), forward a minor bump, compatible a patch bump. A pre-release promises \
                  nothing: the step out of one needs no bump. Changes approved by an `accept` entry do not count.",
    example: "mcp.tool_call 1.0.0 -> 1.1.0 lowers `maximum` on `limit` (field.maximum.tightened, breaking): \
              1.0.0 -> 1.1.0 is breaking (field.maximum.tightened limit), which needs a major bump; found a minor bump",
    fix: "Rename the new revision to the version it needs (2.0.0), or, when no client can be affected, approve the \
          change with an `accept` entry and a reason.",
};

/// The `revision.bump.insufficient` sentence, the one wording of every face
/// (`check`, [`Step::problem`], the macro's `compatible_with` gate):
/// `1.0.0 -> 1.1.0 is breaking (field.maximum.tightened limit), which needs a
/// major bump; found a minor bump`. `causes` (`rule field`), when there are
/// any, name the changes that set the verdict.
pub fn bump_message(
    from: &semver::Version,
    to: &semver::Version,
    verdict: Impact,
    causes: &[String],
    needed: Bump,
    found: Bump,
) -> String {
    let causes = if causes.is_empty() { String::new() } else { format!(" ({})", causes.join(", ")) };
    format!("{from} -> {to} is {verdict}{causes}, which needs {}; found {}", needed.phrase(), found.phrase())
}

/// How far a version moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bump {
    /// Only pre-release or build metadata changed.
    None,
    /// The patch number moved (`1.0.0` -> `1.0.1`).
    Patch,
    /// The minor number moved (`1.0.3` -> `1.1.0`).
    Minor,
    /// The major number moved (`1.4.0` -> `2.0.0`).
    Major,
}

impl Bump {
    /// The bump from `from` to `to`: the highest of major, minor and patch that
    /// differs. Pre-release and build metadata count for nothing, and a move
    /// down (`2.0.0` -> `1.0.0`) is still a bump of the part that moved.
    pub fn between(from: &semver::Version, to: &semver::Version) -> Bump {
        if to.major != from.major {
            Bump::Major
        } else if to.minor != from.minor {
            Bump::Minor
        } else if to.patch != from.patch {
            Bump::Patch
        } else {
            Bump::None
        }
    }

    /// The smallest bump a verdict needs from `from`. A pre-release promises
    /// nothing, so the step out of one needs no bump.
    pub fn needed(verdict: Impact, from: &semver::Version) -> Bump {
        if !from.pre.is_empty() {
            return Bump::None;
        }
        match verdict {
            Impact::Breaking if from.major == 0 => Bump::Minor,
            Impact::Breaking => Bump::Major,
            Impact::Forward => Bump::Minor,
            Impact::Compatible => Bump::Patch,
        }
    }

    /// `no bump`, `a minor bump`: the bump in a sentence.
    pub fn phrase(self) -> String {
        if self == Bump::None {
            "no bump".to_string()
        } else {
            format!("a {} bump", self.as_str())
        }
    }

    /// `no`, `patch`, `minor` or `major`, as the bump is written in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::None => "no",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }
}

impl fmt::Display for Bump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One neighbour pair of a chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The changes from the older revision to the newer one.
    pub diff: ContractDiff,
    /// How far the revision actually moved.
    pub bump: Bump,
    /// The smallest bump the diff's verdict requires ([`Bump::needed`]).
    pub needed: Bump,
}

impl Step {
    /// Whether the version moved far enough for the verdict.
    pub fn is_sufficient(&self) -> bool {
        self.bump >= self.needed
    }

    /// The `revision.bump.insufficient` message, when the bump is too small,
    /// naming the changes that set the verdict.
    pub fn problem(&self) -> Option<String> {
        (!self.is_sufficient()).then(|| {
            let verdict = self.diff.compatibility();
            let causes: Vec<String> = self
                .diff
                .changes()
                .iter()
                .filter(|c| c.impact() == verdict)
                .map(|c| format!("{} {}", c.rule(), c.field()))
                .collect();
            bump_message(self.diff.from(), self.diff.to(), verdict, &causes, self.needed, self.bump)
        })
    }
}

/// Every revision of one name, oldest first, and the steps between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain {
    /// The contract name shared by every revision.
    pub name: String,
    /// Every revision of the name, oldest first.
    pub revisions: Vec<semver::Version>,
    /// One step per neighbour pair of `revisions`, in order: one fewer than
    /// the revisions.
    pub steps: Vec<Step>,
}

/// The chain of each contract name, given contracts sorted by name and then
/// revision (as a catalog holds them), sorted by name.
pub fn chains<'a>(contracts: impl IntoIterator<Item = &'a ContractSpec>) -> Vec<Chain> {
    let mut out: Vec<Chain> = Vec::new();
    let all: Vec<&ContractSpec> = contracts.into_iter().collect();
    let mut start = 0;
    while start < all.len() {
        let name = all[start].name();
        let end = all[start..].iter().position(|c| c.name() != name).map_or(all.len(), |n| start + n);
        let group = &all[start..end];
        let steps = group
            .windows(2)
            .filter_map(|pair| {
                let d = diff(pair[0], pair[1]).ok()?;
                let bump = Bump::between(pair[0].revision(), pair[1].revision());
                let needed = Bump::needed(d.compatibility(), pair[0].revision());
                Some(Step { diff: d, bump, needed })
            })
            .collect();
        out.push(Chain {
            name: name.to_string(),
            revisions: group.iter().map(|c| c.revision().clone()).collect(),
            steps,
        });
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> semver::Version {
        semver::Version::parse(s).unwrap()
    }

    #[test]
    fn bumps_and_what_verdicts_need() {
        assert_eq!(Bump::between(&v("1.1.0"), &v("2.0.0")), Bump::Major);
        assert_eq!(Bump::between(&v("1.0.0"), &v("1.1.0")), Bump::Minor);
        assert_eq!(Bump::between(&v("1.0.0"), &v("1.0.1")), Bump::Patch);
        assert_eq!(Bump::between(&v("1.0.0-rc.1"), &v("1.0.0")), Bump::None);
        assert_eq!(Bump::needed(Impact::Breaking, &v("1.4.2")), Bump::Major);
        assert_eq!(Bump::needed(Impact::Breaking, &v("0.4.2")), Bump::Minor);
        assert_eq!(Bump::needed(Impact::Forward, &v("0.4.2")), Bump::Minor);
        assert_eq!(Bump::needed(Impact::Compatible, &v("1.0.0")), Bump::Patch);
        assert_eq!(Bump::needed(Impact::Breaking, &v("1.0.0-rc.1")), Bump::None);
    }

    #[test]
    fn the_bump_sentence_names_its_causes_when_given() {
        let causes = ["field.maximum.tightened limit".to_string(), "field.type.narrowed id".to_string()];
        assert_eq!(
            bump_message(&v("1.0.0"), &v("1.1.0"), Impact::Breaking, &causes, Bump::Major, Bump::Minor),
            "1.0.0 -> 1.1.0 is breaking (field.maximum.tightened limit, field.type.narrowed id), which needs a \
             major bump; found a minor bump"
        );
        assert_eq!(
            bump_message(&v("0.1.0"), &v("0.1.0-rc.1"), Impact::Forward, &[], Bump::Minor, Bump::None),
            "0.1.0 -> 0.1.0-rc.1 is forward, which needs a minor bump; found no bump"
        );
    }
}
