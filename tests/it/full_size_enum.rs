//! `diff` on two 200,000-value enums (the size SPEC §15 bounds validation
//! at) in the schema form: the lists are compared by canonical value, so
//! the comparison is linear (a quadratic one, 4e10 value pairs, would not
//! end). The verdict is asserted exactly, witness included, after showing
//! the inputs are what the test says.

use protocolarc::diff::{diff_in, Impact};
use protocolarc::{ContractDirection, ContractSpec};

const FULL: usize = 200_000;

fn contract(revision: &str, skip: usize, extra: Option<&str>) -> ContractSpec {
    let mut values: Vec<String> = (0..FULL).filter(|&i| i != skip).map(|i| format!("\"v{i}\"")).collect();
    values.extend(extra.map(|e| format!("\"{e}\"")));
    let doc = format!(
        r#"{{"name": "t.e", "revision": "{revision}", "schema": {{"type": "object", "properties": {{"k": {{"enum": [{}]}}}}}}}}"#,
        values.join(",")
    );
    ContractSpec::from_slice(doc.as_bytes(), "e.json").expect("a wide enum loads")
}

#[test]
fn two_full_size_enums_are_compared_with_a_witness() {
    let old = contract("1.0.0", usize::MAX, None);
    let new = contract("2.0.0", 199_999, Some("w"));
    assert!(old.validate_json(br#"{"k": "v199999"}"#).is_valid());
    assert!(!new.validate_json(br#"{"k": "v199999"}"#).is_valid());
    assert!(new.validate_json(br#"{"k": "w"}"#).is_valid());
    let d = diff_in(&old, &new, ContractDirection::Request).expect("same name");
    let got: Vec<(Impact, &str, &str, Option<&str>)> =
        d.changes().iter().map(|c| (c.impact(), c.rule(), c.message(), c.witness())).collect();
    assert_eq!(
        got,
        [
            (Impact::Breaking, "field.enum.restricted", "dropped {'v199999'}", Some(r#"{"k":"v199999"}"#)),
            (Impact::Forward, "field.enum.expanded", "added {'w'}", None),
        ]
    );
    assert_eq!(d.compatibility(), Impact::Breaking);
}
