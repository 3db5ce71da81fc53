//! Witnesses in a direction's sense: which way round a breaking change is
//! shown by a message, and the search for it (`schema_witness.rs`, over
//! both revisions' schema graphs). Nothing unchecked is returned.

use super::detect::Detected;
use super::Impact;
use crate::contract::ContractDirection;
use crate::contract::ContractSpec;

/// The witness of a change breaking in `direction` (or `None`), its sense,
/// and the change's message, which says why when there is no witness.
///
/// A request-direction break is shown by a body the old revision accepts
/// and the new one flags; a response-direction break by a body the new
/// revision accepts and the old one flags (what a new sender may send and an
/// old reader rejects). In `both`, the request sense is tried first.
pub(super) fn prove_in(
    old: &ContractSpec,
    new: &ContractSpec,
    d: &Detected,
    direction: ContractDirection,
) -> (Option<String>, Option<ContractDirection>, String) {
    let mut searched = false;
    for sense in senses(d, direction) {
        searched = true;
        let found = match sense {
            ContractDirection::Request => search(old, new, d),
            _ => search(new, old, d),
        };
        if let Some(body) = found {
            return (Some(body), Some(sense), d.message.clone());
        }
    }
    let message = plain_message(d, direction);
    if searched {
        (None, None, format!("{message} (no witness found)"))
    } else {
        (None, None, message)
    }
}

/// The senses in which a change breaking in `direction` is shown by a
/// message: request first.
fn senses(d: &Detected, direction: ContractDirection) -> Vec<ContractDirection> {
    let mut out = Vec::new();
    if d.rule.proof.is_empty() {
        return out;
    }
    let request = matches!(direction, ContractDirection::Request | ContractDirection::Both);
    let response = matches!(direction, ContractDirection::Response | ContractDirection::Both);
    if request && d.rule.impact == Impact::Breaking && !d.rule.readers_only {
        out.push(ContractDirection::Request);
    }
    if response && d.rule.response == Impact::Breaking {
        out.push(ContractDirection::Response);
    }
    out
}

/// The detector's message, with the reason there is no witness when a
/// request-direction break rejects no message (readers break).
pub(super) fn plain_message(d: &Detected, direction: ContractDirection) -> String {
    if d.rule.readers_only && direction == ContractDirection::Request {
        format!("{} (no envelope is rejected; readers of the field break)", d.message)
    } else {
        d.message.clone()
    }
}

/// A body `accepting` accepts with no finding and `rejecting` flags for the
/// change, checked with both validators.
fn search(accepting: &ContractSpec, rejecting: &ContractSpec, d: &Detected) -> Option<String> {
    // The schema search names the value itself `<contract>`; changes name
    // it as findings do, `<data>`.
    let field = if d.field == crate::validate::DATA_FIELD { super::CONTRACT_FIELD } else { d.field.as_str() };
    // A fields-form element's own `required` is its implied array's
    // (`diff/schema.rs`, `arrays`): a body shows it by that array.
    let requiredness = d.rule == super::rules::REQUIRED_TIGHTENED || d.rule == super::rules::REQUIRED_RELAXED;
    let field = if requiredness { field.strip_suffix("[]").unwrap_or(field) } else { field };
    super::schema_witness::find(accepting, rejecting, field, d.rule.proof, d.rule.proof_at, &d.hints)
}
