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

mod annotations;
mod detect;
mod lattice;
mod memo;
mod regex_inclusion;
pub mod rules;
mod sample;
mod schema;
mod schema_witness;
mod witness;

use std::fmt;

use crate::contract::{ContractDirection, ContractSpec};

/// How a change affects envelopes and their readers, worst last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Impact {
    /// No effect on what the contract accepts.
    Compatible,
    /// No side has to change in the contract's direction: for a request,
    /// every body the old revision accepted is still accepted; for a
    /// response, every body the new revision allows is accepted by the old
    /// one. Needs a minor bump.
    Forward,
    /// Some body is rejected by the side that must accept it (the new
    /// revision for a request, old readers for a response), or readers break.
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
    witness_direction: Option<ContractDirection>,
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
    /// direction the revisions were judged in ([`ContractDiff::direction`]).
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

    /// For a breaking change that rejects envelopes: a data body (compact
    /// JSON) that proves it, checked with both validators. Its sense is
    /// [`Change::witness_direction`].
    pub fn witness(&self) -> Option<&str> {
        self.witness.as_deref()
    }

    /// The sense of the witness: `Request` when the old revision accepts it
    /// with no finding and the new one flags it (a sender's message now
    /// rejected), `Response` when the new revision accepts it with no finding
    /// and the old one flags it (what a new sender may send, which old
    /// readers reject). `None` without a witness.
    pub fn witness_direction(&self) -> Option<ContractDirection> {
        self.witness_direction
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
    direction: ContractDirection,
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

    /// The direction the changes were judged in: the contracts' own (`both`
    /// when the two revisions name different directions), or the one given
    /// to [`diff_in`].
    pub fn direction(&self) -> ContractDirection {
        self.direction
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

/// Compares two revisions of the same contract in the direction their
/// messages flow (SPEC §11: the contracts' `direction`, `request` by default;
/// `both` when the revisions disagree, which is itself the breaking change
/// `contract.direction.changed`), with a checked witness for every breaking
/// change that a message shows.
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
    compare(old, new, None, true)
}

/// [`diff`] in a given direction, whatever the contracts say (a direction
/// change is then not reported): what `response` readers would see of a
/// request contract's change, say.
///
/// ```
/// use protocolarc_core::diff::{diff_in, Impact};
/// use protocolarc_core::{ContractDirection, ContractSpec};
///
/// let old = ContractSpec::from_slice(br#"{"name": "t.r", "revision": "1.0.0",
///     "fields": [ { "name": "role", "type": "string", "enum": ["user"] } ] }"#, "old.json").unwrap();
/// let new = ContractSpec::from_slice(br#"{"name": "t.r", "revision": "1.1.0",
///     "fields": [ { "name": "role", "type": "string", "enum": ["user", "agent"] } ] }"#, "new.json").unwrap();
///
/// assert_eq!(diff_in(&old, &new, ContractDirection::Request).unwrap().compatibility(), Impact::Forward);
/// let d = diff_in(&old, &new, ContractDirection::Response).unwrap();
/// assert_eq!(d.compatibility(), Impact::Breaking);
/// // What a new sender may send and an old reader rejects.
/// assert_eq!(d.changes()[0].witness(), Some(r#"{"role":"agent"}"#));
/// assert_eq!(d.changes()[0].witness_direction(), Some(ContractDirection::Response));
/// ```
pub fn diff_in(
    old: &ContractSpec,
    new: &ContractSpec,
    direction: ContractDirection,
) -> Result<ContractDiff, NameMismatch> {
    compare(old, new, Some(direction), true)
}

/// The same changes and verdict as [`diff`], without the witness search: for
/// callers that print no witness (`check`'s semver guard). A breaking change's
/// message is the detector's, without the `(no witness found)` note.
pub fn diff_without_witnesses(old: &ContractSpec, new: &ContractSpec) -> Result<ContractDiff, NameMismatch> {
    compare(old, new, None, false)
}

/// A contract in the schema form: itself, or a fields-form contract with
/// its fields lowered into the schema graph (which accepts exactly the same
/// bodies), keeping its `strict` flag.
fn in_schema_form(spec: &ContractSpec) -> ContractSpec {
    let mut converted = spec.clone();
    if spec.schema().is_none() {
        converted.schema = Some(Box::new(spec.walked().clone()));
        converted.fields = Vec::new();
        converted.tree = Default::default();
    }
    converted
}

/// Which way a pair of revisions is judged: the given direction, else the
/// contracts' own, else (when they disagree) both ways.
fn judged_direction(old: &ContractSpec, new: &ContractSpec, given: Option<ContractDirection>) -> ContractDirection {
    match given {
        Some(d) => d,
        None if old.direction() == new.direction() => new.direction(),
        None => ContractDirection::Both,
    }
}

fn compare(
    old: &ContractSpec,
    new: &ContractSpec,
    given: Option<ContractDirection>,
    witnesses: bool,
) -> Result<ContractDiff, NameMismatch> {
    if old.name() != new.name() {
        return Err(NameMismatch { old: old.name().to_string(), new: new.name().to_string() });
    }
    let direction = judged_direction(old, new, given);
    let mut notes = Vec::new();
    annotations::contract(&mut notes, old, new);
    // Both revisions are compared as schema graphs: a fields-form contract's
    // lowered graph accepts exactly its bodies and marks the fields it
    // declares; its `strict` warning has no equal there and is compared on
    // its own.
    let converted = (in_schema_form(old), in_schema_form(new));
    let (old, new) = (&converted.0, &converted.1);
    let mut detected = schema::changes(old, new);
    detected.extend(notes);
    if old.strict != new.strict {
        let rule = if new.strict { rules::STRICT_ENABLED } else { rules::STRICT_DISABLED };
        let message = format!("strict {} -> {}", old.strict, new.strict);
        detected.push(detect::Detected { rule, field: CONTRACT_FIELD.to_string(), message, hints: Vec::new() });
    }
    if given.is_none() && old.direction() != new.direction() {
        detected.push(detect::Detected {
            rule: rules::DIRECTION_CHANGED,
            field: CONTRACT_FIELD.to_string(),
            message: format!("direction {} -> {} (judged both ways)", old.direction(), new.direction()),
            hints: Vec::new(),
        });
    }
    let mut changes: Vec<Change> = detected
        .into_iter()
        .map(|d| {
            let impact = d.rule.impact_in(direction);
            let (witness, witness_direction, message) = if witnesses && impact == Impact::Breaking {
                witness::prove_in(old, new, &d, direction)
            } else {
                (None, None, witness::plain_message(&d, direction))
            };
            Change { rule: d.rule, impact, field: d.field, message, witness, witness_direction }
        })
        .collect();
    changes.sort_by(|a, b| {
        b.impact.cmp(&a.impact).then_with(|| a.field.cmp(&b.field)).then_with(|| a.rule.id.cmp(b.rule.id))
    });
    Ok(ContractDiff {
        name: old.name().to_string(),
        from: old.revision().clone(),
        to: new.revision().clone(),
        direction,
        changes,
    })
}

/// What the schema comparison of two revisions costs: the node pairs it
/// compares and the fresh subschema comparisons it computes (the rest are
/// answered from its memo). For tests that hold the diff linear in the
/// contracts' size, counted in steps rather than time.
#[doc(hidden)]
pub fn comparison_cost(old: &ContractSpec, new: &ContractSpec) -> (usize, usize) {
    let memo = std::rc::Rc::new(memo::Memo::default());
    schema::changes_in(&in_schema_form(old), &in_schema_form(new), &memo);
    (memo.steps(), memo.computed())
}

/// A data body (compact JSON) that schema-form `accepting` accepts with no
/// finding and `rejecting` flags, with any rule, at `field`, a key below it
/// or a parent of it; checked with both validators. What a loss needs as a
/// witness, where the rule that rejects does not matter (a format lost in
/// every member of a union is flagged by the union, not by `format`).
pub fn any_witness(accepting: &ContractSpec, rejecting: &ContractSpec, field: &str) -> Option<String> {
    [rules::ProofAt::FieldOrChild, rules::ProofAt::FieldOrParent]
        .into_iter()
        .find_map(|at| schema_witness::find(accepting, rejecting, field, crate::rules::VALIDATION_RULES, at, &[]))
}
