//! The rule records and their faces: every change rule the engine emits has a
//! record (with the impact the change carries), every record is reachable,
//! and `rules RULE` explains one rule of each kind byte for byte, or suggests
//! the nearest id for a typo (exit 3). That every check rule `check` reports
//! has a record is `git_ci::every_problem_check_reports_names_a_check_rule_record`.

use protocolarc::diff::rules::{self, ContractDirection};
use protocolarc::diff::{diff, diff_without_witnesses};
use protocolarc::ContractSpec;
use protocolarc_tests::{bin, run};

fn spec(revision: &str, strict: bool, fields: &str) -> ContractSpec {
    let text = format!(r#"{{"name": "t.r", "revision": "{revision}", "strict": {strict}, "fields": [{fields}]}}"#);
    ContractSpec::from_slice(text.as_bytes(), "t.json").unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Pairs of one field's revisions (or a contract's `strict`) that, compared
/// both ways, reach every change rule.
const PAIRS: &[(bool, &str, bool, &str)] = &[
    (false, r#"{"name": "a", "type": "string"}"#, false, r#"{"name": "a", "type": "string", "format": "uri"}"#),
    (
        false,
        r#"{"name": "a", "type": "string", "format": "uri"}"#,
        false,
        r#"{"name": "a", "type": "string", "format": "uuid"}"#,
    ),
    (false, r#"{"name": "a", "type": "object"}"#, false, r#"{"name": "a", "type": "object", "closed": true}"#),
    (false, "", false, r#"{"name": "a", "type": "string", "required": false}"#),
    (false, "", false, r#"{"name": "a", "type": "string"}"#),
    (false, r#"{"name": "a", "type": "string", "required": false}"#, false, r#"{"name": "a", "type": "string"}"#),
    (false, r#"{"name": "a", "type": ["string", "integer"]}"#, false, r#"{"name": "a", "type": "string"}"#),
    (false, r#"{"name": "a", "type": "string"}"#, false, r#"{"name": "a", "type": "integer"}"#),
    (false, r#"{"name": "a", "type": "string"}"#, false, r#"{"name": "a", "type": "string", "enum": ["x", "y"]}"#),
    (
        false,
        r#"{"name": "a", "type": "string", "enum": ["x", "y"]}"#,
        false,
        r#"{"name": "a", "type": "string", "enum": ["x"]}"#,
    ),
    (false, "", true, ""),
    (
        false,
        r#"{"name": "a", "type": "integer", "minimum": 1}"#,
        false,
        r#"{"name": "a", "type": "integer", "minimum": 2}"#,
    ),
    (
        false,
        r#"{"name": "a", "type": "integer", "maximum": 5}"#,
        false,
        r#"{"name": "a", "type": "integer", "maximum": 3}"#,
    ),
    (
        false,
        r#"{"name": "a", "type": "integer", "multipleOf": 2}"#,
        false,
        r#"{"name": "a", "type": "integer", "multipleOf": 4}"#,
    ),
    (
        false,
        r#"{"name": "a", "type": "integer", "multipleOf": 2}"#,
        false,
        r#"{"name": "a", "type": "integer", "multipleOf": 3}"#,
    ),
    (
        false,
        r#"{"name": "a", "type": "string", "minLength": 1}"#,
        false,
        r#"{"name": "a", "type": "string", "minLength": 2}"#,
    ),
    (
        false,
        r#"{"name": "a", "type": "string", "maxLength": 5}"#,
        false,
        r#"{"name": "a", "type": "string", "maxLength": 3}"#,
    ),
    (false, r#"{"name": "a", "type": "string"}"#, false, r#"{"name": "a", "type": "string", "pattern": "^a"}"#),
    (
        false,
        r#"{"name": "a", "type": "string", "pattern": "^a"}"#,
        false,
        r#"{"name": "a", "type": "string", "pattern": "^b"}"#,
    ),
    (
        false,
        r#"{"name": "a", "type": "array", "minItems": 1}"#,
        false,
        r#"{"name": "a", "type": "array", "minItems": 2}"#,
    ),
    (
        false,
        r#"{"name": "a", "type": "array", "maxItems": 5}"#,
        false,
        r#"{"name": "a", "type": "array", "maxItems": 3}"#,
    ),
    (false, r#"{"name": "a", "type": "array"}"#, false, r#"{"name": "a", "type": "array", "uniqueItems": true}"#),
];

/// Schema-form pairs (old, new) and a rule the pair shows in one order or
/// the other.
const SCHEMA_PAIRS: &[(&str, &str, &str)] = &[
    (r#"{"type": "string"}"#, r#"{"if": {"type": "string"}, "then": {"maxLength": 3}}"#, "schema.undecided"),
    (
        r#"{"oneOf": [{"type": "object", "required": ["type"], "properties": {"type": {"const": "a"}}}, {"type": "object", "required": ["type"], "properties": {"type": {"const": "b"}}}]}"#,
        r#"{"oneOf": [{"type": "object", "required": ["type"], "properties": {"type": {"const": "a"}}}]}"#,
        "union.member.removed",
    ),
    (
        r#"{"anyOf": [{"type": "string"}]}"#,
        r#"{"anyOf": [{"type": "string"}, {"type": "integer"}]}"#,
        "union.member.added",
    ),
    (r#"{"type": "integer", "default": 1}"#, r#"{"type": "integer", "default": 2}"#, "field.default.changed"),
    (r#"{"type": "integer", "description": "a"}"#, r#"{"type": "integer", "description": "b"}"#, "annotation.changed"),
    (
        r#"{"type": "object", "additionalProperties": false, "properties": {"a": {}}}"#,
        r#"{"type": "object", "additionalProperties": false, "properties": {"a": {}, "b": {}}}"#,
        "field.added.closed",
    ),
    (
        r#"{"type": "object", "additionalProperties": false, "properties": {"a": {}}}"#,
        r#"{"type": "object", "additionalProperties": false, "properties": {"a": {}, "b": {}}}"#,
        "field.removed.closed",
    ),
    (
        r#"{"type": "object"}"#,
        r#"{"type": "object", "propertyNames": {"maxLength": 3}}"#,
        "field.propertyNames.tightened",
    ),
    (
        r#"{"type": "object"}"#,
        r#"{"type": "object", "propertyNames": {"maxLength": 3}}"#,
        "field.propertyNames.relaxed",
    ),
    (
        r#"{"type": "object", "propertyNames": {"pattern": "^a"}}"#,
        r#"{"type": "object", "propertyNames": {"pattern": "^b"}}"#,
        "field.propertyNames.changed",
    ),
    (
        r#"{"type": "object"}"#,
        r#"{"type": "object", "dependentRequired": {"a": ["b"]}}"#,
        "field.dependentRequired.tightened",
    ),
    (
        r#"{"type": "object"}"#,
        r#"{"type": "object", "dependentRequired": {"a": ["b"]}}"#,
        "field.dependentRequired.relaxed",
    ),
    (
        r#"{"type": "object", "dependentRequired": {"a": ["b"]}}"#,
        r#"{"type": "object", "dependentRequired": {"a": ["c"]}}"#,
        "field.dependentRequired.changed",
    ),
    (r#"{"type": "array"}"#, r#"{"type": "array", "contains": {"type": "string"}}"#, "field.contains.tightened"),
    (r#"{"type": "array"}"#, r#"{"type": "array", "contains": {"type": "string"}}"#, "field.contains.relaxed"),
    (
        r#"{"type": "array", "contains": {"type": "string"}}"#,
        r#"{"type": "array", "contains": {"type": "integer"}}"#,
        "field.contains.changed",
    ),
    (
        r#"{"type": "array", "contains": {"type": "string"}}"#,
        r#"{"type": "array", "contains": {"type": "string"}, "minContains": 2}"#,
        "field.minContains.tightened",
    ),
    (
        r#"{"type": "array", "contains": {"type": "string"}}"#,
        r#"{"type": "array", "contains": {"type": "string"}, "minContains": 2}"#,
        "field.minContains.relaxed",
    ),
    (
        r#"{"type": "array", "contains": {"type": "string"}}"#,
        r#"{"type": "array", "contains": {"type": "string"}, "maxContains": 2}"#,
        "field.maxContains.tightened",
    ),
    (
        r#"{"type": "array", "contains": {"type": "string"}}"#,
        r#"{"type": "array", "contains": {"type": "string"}, "maxContains": 2}"#,
        "field.maxContains.relaxed",
    ),
    (
        r#"{"allOf": [{"maximum": 9}, {"multipleOf": 2}]}"#,
        r#"{"anyOf": [{"maximum": 9}, {"multipleOf": 2}]}"#,
        "union.kind.relaxed",
    ),
    (
        r#"{"allOf": [{"maximum": 9}, {"multipleOf": 2}]}"#,
        r#"{"anyOf": [{"maximum": 9}, {"multipleOf": 2}]}"#,
        "union.kind.tightened",
    ),
    (r#"{"not": {"maxLength": 5}}"#, r#"{"not": {"maxLength": 9}}"#, "field.not.tightened"),
    (r#"{"not": {"maxLength": 5}}"#, r#"{"not": {"maxLength": 9}}"#, "field.not.relaxed"),
    (r#"{"not": {"type": "string"}}"#, r#"{"not": {"type": "integer"}}"#, "field.not.changed"),
    (r#"{"type": "object"}"#, r#"{"type": "object", "minProperties": 1}"#, "field.minProperties.tightened"),
    (r#"{"type": "object"}"#, r#"{"type": "object", "minProperties": 1}"#, "field.minProperties.relaxed"),
    (r#"{"type": "object"}"#, r#"{"type": "object", "maxProperties": 1}"#, "field.maxProperties.tightened"),
    (r#"{"type": "object"}"#, r#"{"type": "object", "maxProperties": 1}"#, "field.maxProperties.relaxed"),
];

#[test]
fn every_change_rule_the_engine_emits_has_its_record_and_every_record_is_reached() {
    let mut emitted: Vec<&str> = Vec::new();
    for (strict_a, a, strict_b, b) in PAIRS {
        let (one, two) = (spec("1.0.0", *strict_a, a), spec("2.0.0", *strict_b, b));
        for (old, new) in [(&one, &two), (&two, &one)] {
            let d = diff(old, new).expect("same name");
            assert!(!d.changes().is_empty(), "{a} / {b}: no change");
            for c in d.changes() {
                let record = rules::find(c.rule()).unwrap_or_else(|| panic!("{} has no record", c.rule()));
                assert_eq!(record, c.record(), "{}", c.rule());
                assert_eq!(c.impact(), record.impact_in(ContractDirection::Request), "{}", c.rule());
                emitted.push(c.rule());
            }
            // The witness-free entry point finds the same changes and verdict.
            let quick = diff_without_witnesses(old, new).expect("same name");
            let ids = |d: &protocolarc::diff::ContractDiff| {
                d.changes().iter().map(|c| (c.rule(), c.field().to_string(), c.impact())).collect::<Vec<_>>()
            };
            assert_eq!(ids(&quick), ids(&d));
            assert_eq!(quick.compatibility(), d.compatibility());
            assert!(quick.changes().iter().all(|c| c.witness().is_none()));
        }
    }
    // A contract closed and opened.
    let closed = |rev: &str, closed: bool| {
        let doc = format!(r#"{{"name": "t.r", "revision": "{rev}", "closed": {closed}, "fields": []}}"#);
        ContractSpec::from_slice(doc.as_bytes(), "c.json").expect("closed contract")
    };
    for (old, new) in [(closed("1.0.0", false), closed("2.0.0", true)), (closed("1.0.0", true), closed("2.0.0", false))]
    {
        for c in diff(&old, &new).expect("same name").changes() {
            assert_eq!(rules::find(c.rule()), Some(c.record()), "{}", c.rule());
            emitted.push(c.rule());
        }
    }
    // The schema form: each pair of schemas shows the rule named beside it,
    // in one order or the other.
    let schema = |rev: &str, direction: &str, body: &str| {
        let doc = format!(r#"{{"name": "t", "revision": "{rev}", "direction": "{direction}", "schema": {body}}}"#);
        ContractSpec::from_slice(doc.as_bytes(), "s.json").unwrap_or_else(|e| panic!("{body}: {e}"))
    };
    for (a, b, rule) in SCHEMA_PAIRS {
        let mut seen = Vec::new();
        for (old, new) in [
            (schema("1.0.0", "request", a), schema("2.0.0", "request", b)),
            (schema("1.0.0", "request", b), schema("2.0.0", "request", a)),
        ] {
            let d = diff(&old, &new).expect("same name");
            for c in d.changes() {
                assert_eq!(rules::find(c.rule()), Some(c.record()), "{}", c.rule());
                emitted.push(c.rule());
                seen.push(c.rule());
            }
        }
        assert!(seen.contains(rule), "{a} / {b}: {rule} not among {seen:?}");
    }
    let d = diff(&schema("1.0.0", "request", "{}"), &schema("2.0.0", "response", "{}")).expect("same name");
    assert_eq!(d.changes().iter().map(|c| c.rule()).collect::<Vec<_>>(), ["contract.direction.changed"]);
    emitted.push(d.changes()[0].rule());
    emitted.sort_unstable();
    emitted.dedup();
    let mut records: Vec<&str> = rules::CHANGE_RULES.iter().map(|r| r.id).collect();
    records.sort_unstable();
    assert_eq!(emitted, records, "every record is reached, and nothing else is emitted");
}

#[test]
fn a_validation_rule_explained() {
    let out = run(bin!(), &["rules", "field.maxLength"]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(out.stdout, VALIDATION);
}

#[test]
fn a_change_rule_explained_with_its_impact_per_direction() {
    let out = run(bin!(), &["rules", "field.maximum.tightened"]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(out.stdout, CHANGE);
}

#[test]
fn a_check_rule_explained() {
    let out = run(bin!(), &["rules", "lock.mismatch"]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(out.stdout, CHECK);
}

#[test]
fn a_typo_gets_the_nearest_rule_and_exit_3() {
    let out = run(bin!(), &["rules", "field.maxLenght"]);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            3,
            "",
            "error: unknown rule 'field.maxLenght': did you mean `field.maxLength`? (see `cargo protocolarc rules`)\n"
        )
    );
    let out = run(bin!(), &["rules", "lock.misssing"]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (3, "error: unknown rule 'lock.misssing': did you mean `lock.missing`? (see `cargo protocolarc rules`)\n")
    );
    // Nothing is near enough: no guess.
    let out = run(bin!(), &["rules", "nope"]);
    assert_eq!((out.code, out.stderr.as_str()), (3, "error: unknown rule 'nope' (see `cargo protocolarc rules`)\n"));
}

#[test]
fn the_list_shows_each_change_rule_per_direction() {
    let out = run(bin!(), &["rules"]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    let total = protocolarc::rules::VALIDATION_RULES.len()
        + rules::CHANGE_RULES.len()
        + cargo_protocolarc::checks::CHECK_RULES.len()
        + protocolarc_interop::loss::LOSS_RULES.len();
    assert_eq!(out.stdout.lines().count(), total);
    for r in rules::CHANGE_RULES {
        let impacts =
            format!("request: {}, response: {}, both: {}", r.impact, r.response, r.impact_in(ContractDirection::Both));
        let line = out.stdout.lines().find(|l| l.split_whitespace().nth(1) == Some(r.id)).expect("listed");
        assert!(line.starts_with("diff "), "{line}");
        assert!(line.contains(&format!("  {impacts}  ")), "{line}");
        assert!(line.ends_with(r.summary), "{line}");
    }
}

#[test]
fn check_help_lists_every_check_rule_from_its_record() {
    let out = run(bin!(), &["check", "--help"]);
    assert_eq!(out.code, 0);
    let width = cargo_protocolarc::checks::CHECK_RULES.iter().map(|r| r.id.len()).max().unwrap_or(0);
    for r in cargo_protocolarc::checks::CHECK_RULES {
        let line = format!("\n  {:width$}  {}\n", r.id, r.summary);
        assert!(out.stdout.contains(&line), "{line}in\n{}", out.stdout);
    }
}

const VALIDATION: &str = r#"field.maxLength [validate, error]
  a string has more code points than `maxLength`

  Length counts Unicode code points, not bytes or UTF-16 units.

  example: field {"name": "code", "type": "string", "maxLength": 2}; data
  {"code": "abc"}

  fix: Send a shorter string, or raise `maxLength` in a new revision (a
  forward change).
"#;
const CHANGE: &str = r#"field.maximum.tightened [diff]
  the upper bound accepts fewer numbers (introduced or lowered, or made
  exclusive)

  impact: request: breaking, response: forward, both: breaking

  shown by: field.maximum, field.exclusiveMaximum

  `maximum` and `exclusiveMaximum` form one upper bound, compared by its
  effect. A number between the new and the old bound was valid and is now
  rejected (request: breaking); responses within the new bound satisfy old
  readers (response: forward).

  example: old {"name": "limit", "type": "integer", "maximum": 100}; new
  `"maximum": 50`; data {"limit": 100} gets field.maximum from the new
  revision

  fix: Publish the change as a new revision with a major bump (a minor one
  while the major is 0), so that clients opt in; or, when no client can be
  affected, approve it with an `accept` entry and a reason.
"#;
const CHECK: &str = r#"lock.mismatch [check]
  a revision's canonical content no longer has its pinned SHA-256, or a pin
  has no contract

  Whitespace and key order never change the digest (it is taken over canonical
  JSON); any other edit does, descriptions included: a silently changed tool
  description (the "rug pull") fails here. A pin whose revision no contract
  file defines any more fails too.

  example: the `doc` of t.call 1.0.0 is edited after `cargo protocolarc lock`
  pinned it

  fix: If the revision is unpublished, run `cargo protocolarc lock` and commit
  the lock; if it is published, undo the edit and publish a new revision
  instead.
"#;
