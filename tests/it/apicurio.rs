//! Apicurio Registry's JSON Schema compatibility cases
//! (`tests/data/apicurio/compatibility-test-data.json`, Apache-2.0, provenance
//! in `tests/data/apicurio/PROVENANCE.md`) as an outside judge of the schema
//! diff.
//!
//! Each of the 145 cases is imported (`original` and `updated`, direction
//! `request`) and diffed. Apicurio's label maps onto our verdict in the
//! request direction: `both` (backward and forward compatible: the same
//! documents) is compatible, `backward` (the new schema reads everything the
//! old one accepted, and not the reverse) is forward, `none` is breaking.
//!
//! A case whose schemas do not import is not applicable, and is pinned by
//! index and id in [`NOT_APPLICABLE`], so that the set can neither shrink nor
//! grow unnoticed. Where our semantics differ from Apicurio's, the case is
//! pinned in [`DOCUMENTED`] with our verdict and the reason. Every other
//! applicable case must agree; a failure prints every disagreement as a table.

use protocolarc::diff::{diff, Impact};
use protocolarc::ContractSpec;
use protocolarc_interop::import::schema_contract;
use serde_json::Value;

/// The cases whose `original` or `updated` schema does not import, by index
/// and id (ids repeat upstream; the index is the key).
const NOT_APPLICABLE: &[(usize, &str)] = &[
    // `updated` spells the identifier `id` (draft-04): an unknown keyword in draft-07, refused.
    (3, "Basic: meta"),
    // `original` is draft-04 (boolean `exclusiveMinimum`/`exclusiveMaximum`): import reads draft-07 and 2020-12.
    (26, "Number: exclusiveMinimum 1"),
    (30, "Number: exclusiveMinimum 5"),
    (31, "Number: exclusiveMaximum 1"),
    (35, "Number: exclusiveMaximum 5"),
];

/// The applicable cases where our verdict is not Apicurio's, by design: index,
/// id, our verdict, the rules that must be among our changes, and why. Case
/// 41 is our one rule of our own (a required property removed breaks its
/// readers); every other one is a case where Apicurio's label is not what the
/// two schemas accept under JSON Schema semantics (checked by hand, and by
/// running a draft-07 validator over sample documents).
const DOCUMENTED: &[(usize, &str, Impact, &[&str], &str)] = &[
    (
        10,
        "String: pattern 1",
        Impact::Compatible,
        &[],
        "the unanchored pattern [a-z]* matches every string (an empty match): removing it accepts the same strings",
    ),
    (
        11,
        "String: pattern 2",
        Impact::Compatible,
        &[],
        "[a-z]* and [A-Z]* are unanchored: both match every string, so both schemas accept every string",
    ),
    (
        41,
        "Object: required",
        Impact::Breaking,
        &["field.removed.required"],
        "postal_code was required and is no longer named at all: removing a required property breaks its readers \
      (SPEC 5: field.removed.required), where Apicurio only sees that more documents are accepted",
    ),
    (
        96,
        "Const",
        Impact::Compatible,
        &[],
        "`type: string` with an array `const` accepts no value, before and after: nothing accepted is now rejected",
    ),
    (
        100,
        "String: contentEncoding 2",
        Impact::Compatible,
        &[],
        "contentEncoding is an annotation, never enforced (SPEC 10): removing it accepts the same documents",
    ),
    (
        101,
        "String: contentEncoding 3",
        Impact::Compatible,
        &[],
        "contentEncoding is an annotation, never enforced (SPEC 10): changing it accepts the same documents",
    ),
    (
        103,
        "String: contentMediaType 2",
        Impact::Compatible,
        &[],
        "contentMediaType is an annotation, never enforced (SPEC 10): removing it accepts the same documents",
    ),
    (
        104,
        "String: contentMediaType 3",
        Impact::Compatible,
        &[],
        "contentMediaType is an annotation, never enforced (SPEC 10): changing it accepts the same documents",
    ),
    (
        117,
        "Complex: oneOf 1",
        Impact::Breaking,
        &[],
        "oneOf is exclusive: the old accepts strings longer than 5, the new only those longer than 10 \
      (\"abcdefg\" matched one member, now matches both)",
    ),
    (
        119,
        "Complex: oneOf 3",
        Impact::Breaking,
        &[],
        "oneOf is exclusive: strings of at most 5 characters now match both members and are rejected (\"a\")",
    ),
    (
        125,
        "Conditional: then",
        Impact::Compatible,
        &[],
        "`then` gives `data` the unanchored pattern [a-z]*, which matches every string (an empty match), and the \
      outer schema already makes `data` a string: `then` turning it into `type: string` accepts the same documents",
    ),
    (
        126,
        "Conditional: else",
        Impact::Compatible,
        &[],
        "`else` gives `data` the unanchored pattern [A-Z]*, which matches every string (an empty match), and the \
      outer schema already makes `data` a string: `else` turning it into `type: string` accepts the same documents",
    ),
];

/// How many cases import (145 less the not applicable ones).
/// Of them, 128 must agree with Apicurio and 12 are documented differences.
const APPLICABLE: usize = 140;

struct Case {
    index: usize,
    id: String,
    label: String,
    original: Value,
    updated: Value,
}

fn cases() -> Vec<Case> {
    let bytes = std::fs::read(protocolarc_tests::data("apicurio/compatibility-test-data.json")).expect("test data");
    let doc: Value = serde_json::from_slice(&bytes).expect("JSON");
    let tests = doc["tests"].as_array().expect("tests");
    assert_eq!(tests.len(), 145, "the upstream file has 145 cases");
    tests
        .iter()
        .enumerate()
        .map(|(index, t)| {
            assert_eq!(t["enabled"], true, "case {index} is enabled upstream");
            Case {
                index,
                id: t["id"].as_str().expect("id").to_string(),
                label: t["compatibility"].as_str().expect("label").to_string(),
                original: t["original"].clone(),
                updated: t["updated"].clone(),
            }
        })
        .collect()
}

/// Apicurio's label as our verdict in the request direction.
fn expected(label: &str) -> Impact {
    match label {
        "both" => Impact::Compatible,
        "backward" => Impact::Forward,
        "none" => Impact::Breaking,
        other => panic!("unknown Apicurio label {other:?}"),
    }
}

/// The schema as a request contract, or why it does not import or load.
fn contract(schema: &Value, revision: &str) -> Result<ContractSpec, String> {
    let (value, _notes) = schema_contract(schema, "apicurio.case", revision, Some("request"), None)
        .map_err(|e| format!("import: {e}"))?;
    let bytes = serde_json::to_vec(&value).expect("serialise");
    ContractSpec::from_slice(&bytes, "apicurio.json").map_err(|e| format!("load: {e}"))
}

/// Both revisions of a case, or why one of them is not applicable.
fn pair(case: &Case) -> Result<(ContractSpec, ContractSpec), String> {
    let old = contract(&case.original, "1.0.0").map_err(|e| format!("original: {e}"))?;
    let new = contract(&case.updated, "2.0.0").map_err(|e| format!("updated: {e}"))?;
    Ok((old, new))
}

#[test]
fn not_applicable_cases_are_exactly_the_pinned_ones() {
    let mut found = Vec::new();
    let mut why = Vec::new();
    for case in cases() {
        if let Err(e) = pair(&case) {
            why.push(format!("{:>3} {:<45} {}", case.index, case.id, e.replace('\n', " ")));
            found.push((case.index, case.id));
        }
    }
    let pinned: Vec<(usize, String)> = NOT_APPLICABLE.iter().map(|&(i, id)| (i, id.to_string())).collect();
    assert_eq!(found, pinned, "the cases that do not import:\n{}", why.join("\n"));
    assert_eq!(145 - NOT_APPLICABLE.len(), APPLICABLE);
}

#[test]
fn documented_differences_are_pinned_exactly() {
    let cases = cases();
    assert!(DOCUMENTED.windows(2).all(|w| w[0].0 < w[1].0), "documented cases in index order, each once");
    assert!(NOT_APPLICABLE.windows(2).all(|w| w[0].0 < w[1].0), "not applicable cases in index order, each once");
    for &(index, id, ours, _, reason) in DOCUMENTED {
        let case = &cases[index];
        assert_eq!(case.id, id, "documented case {index}");
        assert!(NOT_APPLICABLE.iter().all(|n| n.0 != index), "documented case {index} is not applicable");
        assert_ne!(expected(&case.label), ours, "documented case {index} ({id}) is no difference");
        assert!(!reason.is_empty());
    }
    assert_eq!(DOCUMENTED.len(), 12);
}

#[test]
fn verdicts_agree_with_apicurio() {
    let mut disagreements = Vec::new();
    let mut applicable = 0;
    for case in cases() {
        if NOT_APPLICABLE.iter().any(|n| n.0 == case.index) {
            continue;
        }
        let Ok((old, new)) = pair(&case) else {
            disagreements.push(format!("{:>3} | {:<45} | imports no more", case.index, case.id));
            continue;
        };
        applicable += 1;
        let documented = DOCUMENTED.iter().find(|d| d.0 == case.index);
        let want = documented.map_or_else(|| expected(&case.label), |d| d.2);
        let must: &[&str] = documented.map_or(&[], |d| d.3);
        let d = diff(&old, &new).expect("same name");
        let rules: Vec<&str> = d.changes().iter().map(|c| c.rule()).collect();
        let missing: Vec<&str> = must.iter().copied().filter(|r| !rules.contains(r)).collect();
        if d.compatibility() != want || !missing.is_empty() {
            let missing = if missing.is_empty() { String::new() } else { format!(" (missing {})", missing.join(" ")) };
            disagreements.push(format!(
                "{:>3} | {:<45} | {:<10} | {:<10} | {:<10} | {}{missing}",
                case.index,
                case.id,
                case.label,
                want.as_str(),
                d.compatibility().as_str(),
                rules.join(" ")
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {applicable} applicable cases disagree:\nidx | id | apicurio | expected | ours | our change rules\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    assert_eq!(applicable, APPLICABLE);
}
