//! The compatibility engine: what changed between two revisions of a
//! contract, how bad each change is, and a witness envelope proving each
//! breaking change.
//!
//! `detect.rs` compares the two contracts path by path (declared fields and the
//! parents they imply, nested objects and array elements alike) and emits
//! changes, each with its record from `rules.rs`; `witness.rs` then builds, for each
//! breaking change, a data body the old revision accepts and the new one rejects,
//! and keeps it only if both real validators agree. `sample.rs` proposes the
//! values those bodies are made of.
//!
//! The engine reads contracts only; it knows nothing of files, git or output.

mod detect;
pub mod rules;
mod sample;
mod schema;
mod schema_witness;
mod witness;

use std::fmt;

use crate::contract::ContractSpec;

/// How a change affects envelopes and their readers, worst last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Impact {
    /// No effect on what the contract accepts.
    Compatible,
    /// Everything the old revision accepted is still accepted.
    Forward,
    /// Some envelope the old revision accepted is rejected, or readers break.
    Breaking,
}

impl Impact {
    /// `compatible` / `forward` / `breaking`.
    pub fn as_str(self) -> &'static str {
        match self {
            Impact::Compatible => "compatible",
            Impact::Forward => "forward",
            Impact::Breaking => "breaking",
        }
    }
}

impl fmt::Display for Impact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Impact {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One difference between two revisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    rule: &'static rules::ChangeRule,
    impact: Impact,
    field: String,
    message: String,
    witness: Option<String>,
}

impl Change {
    /// The rule id, such as `field.type.narrowed`.
    pub fn rule(&self) -> &'static str {
        self.rule.id
    }

    /// The rule's record: its impact per direction, explanation and proof.
    pub fn record(&self) -> &'static rules::ChangeRule {
        self.rule
    }

    /// How the change affects documents: the impact its rule has in the
    /// request direction.
    pub fn impact(&self) -> Impact {
        self.impact
    }

    /// The field path (`params.parts[].kind`), or `<contract>` for
    /// contract-level changes.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What changed, in one sentence (`type narrowed from string|integer to
    /// string`).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// For a breaking change that rejects envelopes: a data body (compact JSON)
    /// the old revision accepts with no finding and the new one flags, checked
    /// with both validators.
    pub fn witness(&self) -> Option<&str> {
        self.witness.as_deref()
    }
}

/// The field name of contract-level changes.
pub const CONTRACT_FIELD: &str = "<contract>";

/// Every change between two revisions of one contract, sorted by impact
/// (breaking first), field, rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractDiff {
    name: String,
    from: semver::Version,
    to: semver::Version,
    changes: Vec<Change>,
}

impl ContractDiff {
    /// The contract name both revisions share.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The older revision, the one compared from.
    pub fn from(&self) -> &semver::Version {
        &self.from
    }

    /// The newer revision, the one compared to.
    pub fn to(&self) -> &semver::Version {
        &self.to
    }

    /// The changes, breaking first, then by field and rule; empty when the
    /// revisions are equivalent.
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// The worst impact; `Compatible` when nothing changed.
    pub fn compatibility(&self) -> Impact {
        self.changes.iter().map(|c| c.impact).max().unwrap_or(Impact::Compatible)
    }
}

/// Two contracts that are not revisions of one another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameMismatch {
    /// The name of the older contract.
    pub old: String,
    /// The name of the newer contract.
    pub new: String,
}

impl fmt::Display for NameMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot compare different contracts: '{}' and '{}'", self.old, self.new)
    }
}

impl std::error::Error for NameMismatch {}

/// Compares two revisions of the same contract, with a checked witness for
/// every breaking change that rejects an envelope.
///
/// ```
/// use protocolarc_core::diff::{diff, Impact};
/// use protocolarc_core::ContractSpec;
///
/// let old = ContractSpec::from_slice(br#"{"name": "t.call", "revision": "1.0.0",
///     "fields": [ { "name": "params.name", "type": "string", "maxLength": 128 } ] }"#, "old.json").unwrap();
/// let new = ContractSpec::from_slice(br#"{"name": "t.call", "revision": "2.0.0",
///     "fields": [ { "name": "params.name", "type": "string", "maxLength": 64 } ] }"#, "new.json").unwrap();
///
/// let d = diff(&old, &new).unwrap();
/// assert_eq!(d.changes().len(), 1);
/// let change = &d.changes()[0];
/// assert_eq!(change.rule(), "field.maxLength.tightened");
/// assert_eq!(change.impact(), Impact::Breaking);
/// assert_eq!(change.field(), "params.name");
/// assert_eq!(change.message(), "maxLength 128 -> maxLength 64");
/// // A data body 1.0.0 accepts and 2.0.0 rejects, checked with both.
/// let witness = format!(r#"{{"params":{{"name":"{}"}}}}"#, "x".repeat(65));
/// assert_eq!(change.witness(), Some(witness.as_str()));
/// assert_eq!(d.compatibility(), Impact::Breaking);
/// ```
pub fn diff(old: &ContractSpec, new: &ContractSpec) -> Result<ContractDiff, NameMismatch> {
    compare(old, new, true)
}

/// The same changes and verdict as [`diff`], without the witness search: for
/// callers that print no witness (`check`'s semver guard). A breaking change's
/// message is the detector's, without the `(no witness found)` note.
pub fn diff_without_witnesses(old: &ContractSpec, new: &ContractSpec) -> Result<ContractDiff, NameMismatch> {
    compare(old, new, false)
}

fn compare(old: &ContractSpec, new: &ContractSpec, witnesses: bool) -> Result<ContractDiff, NameMismatch> {
    if old.name() != new.name() {
        return Err(NameMismatch { old: old.name().to_string(), new: new.name().to_string() });
    }
    let detected = if old.schema().is_some() || new.schema().is_some() {
        schema::changes(old, new)
    } else {
        detect::changes(old, new)
    };
    let mut changes: Vec<Change> = detected
        .into_iter()
        .map(|d| {
            let (witness, message) = if witnesses && d.rule.impact == Impact::Breaking {
                witness::prove(old, new, &d)
            } else {
                (None, d.message.clone())
            };
            Change { rule: d.rule, impact: d.rule.impact, field: d.field, message, witness }
        })
        .collect();
    changes.sort_by(|a, b| {
        b.impact.cmp(&a.impact).then_with(|| a.field.cmp(&b.field)).then_with(|| a.rule.id.cmp(b.rule.id))
    });
    Ok(ContractDiff { name: old.name().to_string(), from: old.revision().clone(), to: new.revision().clone(), changes })
}
