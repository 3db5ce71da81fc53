//! Schemas applied to an instance beside others (SPEC §5, §11): an `allOf`
//! member, a `$ref` beside siblings, `then`/`else`, a dependent schema or a
//! union member that names a key the instance already declares constrains
//! that key; it never declares a new field. Each pair is judged both ways
//! and in both directions, with every witness checked by both validators.

use protocolarc::diff::{diff_in, ContractDiff, Impact};
use protocolarc::{ContractDirection, ContractSpec};

pub(super) fn schema(revision: &str, body: &str) -> ContractSpec {
    let doc = format!(r#"{{"name": "t.c", "revision": "{revision}", "schema": {body}}}"#);
    ContractSpec::from_slice(doc.as_bytes(), "c.json").unwrap_or_else(|e| panic!("{body}: {e}"))
}

/// `impact rule field: message [witness]` of every change.
fn lines(d: &ContractDiff) -> Vec<String> {
    d.changes()
        .iter()
        .map(|c| match c.witness() {
            Some(w) => format!("{} {} {}: {} {w}", c.impact(), c.rule(), c.field(), c.message()),
            None => format!("{} {} {}: {}", c.impact(), c.rule(), c.field(), c.message()),
        })
        .collect()
}

/// Judges `old -> new` in `direction`, checking every witness with both
/// validators in its sense.
pub(super) fn judged(old: &str, new: &str, direction: ContractDirection) -> (Impact, Vec<String>) {
    let (o, n) = (schema("1.0.0", old), schema("2.0.0", new));
    let d = diff_in(&o, &n, direction).expect("same name");
    for c in d.changes() {
        let Some(w) = c.witness() else { continue };
        let (accepting, rejecting) = match c.witness_direction() {
            Some(ContractDirection::Request) => (&o, &n),
            Some(ContractDirection::Response) => (&n, &o),
            other => panic!("{}: a witness with sense {other:?}", c.rule()),
        };
        let a = accepting.validate_json(w.as_bytes());
        assert!(a.findings().is_empty(), "{} {}: {w} has findings on the accepting side: {a}", c.rule(), c.field());
        assert!(!rejecting.validate_json(w.as_bytes()).findings().is_empty(), "{}: {w} passes", c.rule());
    }
    (d.compatibility(), lines(&d))
}

const BASE: &str = r#"{"type": "object", "properties": {"a": {"type": "integer"}}}"#;

/// Asserts the four verdicts of a tightening pair: `base -> tighter` breaks
/// requests with `request`, is forward for responses; `tighter -> base` is
/// forward for requests and breaks responses with `response`.
fn tightening(tighter: &str, request: &[&str], relaxed: &[&str], response: &[&str]) {
    let (verdict, changes) = judged(BASE, tighter, ContractDirection::Request);
    assert_eq!(
        (verdict, changes.as_slice()),
        (Impact::Breaking, request.iter().map(|s| s.to_string()).collect::<Vec<_>>().as_slice())
    );
    let (verdict, _) = judged(BASE, tighter, ContractDirection::Response);
    assert_eq!(verdict, Impact::Forward, "{tighter}");
    let (verdict, changes) = judged(tighter, BASE, ContractDirection::Request);
    assert_eq!(
        (verdict, changes.as_slice()),
        (Impact::Forward, relaxed.iter().map(|s| s.to_string()).collect::<Vec<_>>().as_slice())
    );
    let (verdict, changes) = judged(tighter, BASE, ContractDirection::Response);
    assert_eq!(
        (verdict, changes.as_slice()),
        (Impact::Breaking, response.iter().map(|s| s.to_string()).collect::<Vec<_>>().as_slice())
    );
}

#[test]
fn an_all_of_member_beside_the_properties_it_constrains_is_a_bound() {
    let new = r#"{"type": "object", "properties": {"a": {"type": "integer"}},
        "allOf": [{"properties": {"a": {"maximum": 10}}}]}"#;
    // What the old revision accepts and the new one refuses.
    assert!(schema("1.0.0", BASE).validate_json(br#"{"a": 27433}"#).findings().is_empty());
    assert!(!schema("2.0.0", new).validate_json(br#"{"a": 27433}"#).findings().is_empty());
    tightening(
        new,
        &[r#"breaking field.maximum.tightened a: (none) -> maximum 10 {"a":100}"#],
        &["forward field.maximum.relaxed a: maximum 10 -> (none)"],
        &[r#"breaking field.maximum.relaxed a: maximum 10 -> (none) {"a":100}"#],
    );
}

#[test]
fn an_all_of_member_that_changes_the_type_is_a_narrowing() {
    let new = r#"{"type": "object", "properties": {"a": {"type": "integer"}},
        "allOf": [{"properties": {"a": {"type": "string"}}}]}"#;
    tightening(
        new,
        // (`a` is an integer by the schema beside the member: none is left.)
        &[r#"breaking field.type.narrowed a: integer -> nothing (false) {"a":0}"#],
        &["forward field.type.widened a: nothing (false) -> integer"],
        &[r#"breaking field.type.widened a: nothing (false) -> integer {"a":0}"#],
    );
}

#[test]
fn a_dependent_schema_on_a_declared_key_is_a_bound_when_its_key_is_there() {
    let new = r#"{"type": "object", "properties": {"a": {"type": "integer"}},
        "dependentSchemas": {"b": {"properties": {"a": {"maximum": 10}}}}}"#;
    assert!(schema("2.0.0", new).validate_json(br#"{"a": 27433}"#).findings().is_empty());
    assert!(!schema("2.0.0", new).validate_json(br#"{"a": 27433, "b": 0}"#).findings().is_empty());
    tightening(
        new,
        &[r#"breaking field.maximum.tightened a: (none) -> maximum 10 {"b":"","a":100}"#],
        &["forward field.maximum.relaxed a: maximum 10 -> (none)"],
        &[r#"breaking field.maximum.relaxed a: maximum 10 -> (none) {"b":"","a":100}"#],
    );
}

#[test]
fn a_ref_beside_siblings_and_a_conditional_constrain_the_declared_key() {
    let with_ref = r##"{"type": "object", "properties": {"a": {"type": "integer"}}, "$ref": "#/$defs/small",
        "$defs": {"small": {"properties": {"a": {"minimum": 0}}}}}"##;
    let (verdict, changes) = judged(BASE, with_ref, ContractDirection::Request);
    assert_eq!(verdict, Impact::Breaking);
    assert_eq!(changes, [r#"breaking field.minimum.tightened a: (none) -> minimum 0 {"a":-1}"#]);
    let conditional = r#"{"type": "object", "properties": {"a": {"type": "integer"}},
        "if": {"required": ["b"]}, "then": {"properties": {"a": {"maximum": 10}}}}"#;
    let (verdict, changes) = judged(BASE, conditional, ContractDirection::Request);
    assert_eq!(verdict, Impact::Breaking, "{changes:?}");
    assert!(changes.iter().all(|c| !c.contains("field.added")), "{changes:?}");
}

#[test]
fn a_key_no_schema_of_the_old_instance_declared_is_still_a_new_field() {
    let new = r#"{"type": "object", "properties": {"a": {"type": "integer"}},
        "allOf": [{"properties": {"c": {"type": "string"}}}]}"#;
    let (verdict, changes) = judged(BASE, new, ContractDirection::Request);
    assert_eq!((verdict, changes), (Impact::Forward, vec!["forward field.added.optional c: added string".to_string()]));
}

#[test]
fn a_key_moved_from_properties_into_an_all_of_member_is_compared_as_a_constraint() {
    let old = r#"{"type": "object", "allOf": [{"properties": {"a": {"maximum": 10}}}]}"#;
    let new = r#"{"type": "object", "properties": {"a": {"type": "integer"}},
        "allOf": [{"properties": {"a": {"maximum": 10}}}]}"#;
    let (verdict, changes) = judged(old, new, ContractDirection::Request);
    assert_eq!(verdict, Impact::Breaking);
    assert_eq!(changes, [r#"breaking field.type.narrowed a: any -> integer {"a":""}"#]);
}

/// An applicator's keywords beside `properties`, around a constraint on `a`.
type Applicator = fn(&str) -> String;

/// Every applicator beside `properties`, with a constraint on the declared
/// key, added and removed, in both directions: a verdict that is not
/// breaking must hold on every body of a set that probes the constraint
/// (a request: what the old revision accepts, the new one accepts; a
/// response: the reverse), and every witness holds (`judged`).
#[test]
fn applicators_beside_properties_are_judged_soundly() {
    let applicators: [(&str, Applicator); 7] = [
        ("allOf", |c| format!(r#""allOf": [{{"properties": {{"a": {c}}}}}]"#)),
        ("$ref", |c| format!(r##""$ref": "#/$defs/c", "$defs": {{"c": {{"properties": {{"a": {c}}}}}}}"##)),
        ("dependentSchemas", |c| format!(r#""dependentSchemas": {{"b": {{"properties": {{"a": {c}}}}}}}"#)),
        ("if/then", |c| format!(r#""if": {{"required": ["b"]}}, "then": {{"properties": {{"a": {c}}}}}"#)),
        ("anyOf", |c| format!(r#""anyOf": [{{"properties": {{"a": {c}}}}}]"#)),
        ("oneOf", |c| format!(r#""oneOf": [{{"properties": {{"a": {c}}}}}]"#)),
        ("not", |c| format!(r#""not": {{"properties": {{"a": {c}}}, "required": ["a"]}}"#)),
    ];
    let constraints = [
        r#"{"maximum": 10}"#,
        r#"{"type": "string"}"#,
        r#"{"minimum": 0}"#,
        r#"{"multipleOf": 3}"#,
        r#"{"enum": [1, 2]}"#,
    ];
    let values = ["-5", "0", "1", "2", "3", "11", "27433", "\"x\"", "null"];
    let mut bodies = vec!["{}".to_string(), r#"{"b": 0}"#.to_string()];
    for v in values {
        bodies.push(format!(r#"{{"a": {v}}}"#));
        bodies.push(format!(r#"{{"a": {v}, "b": 0}}"#));
    }
    let mut checked = 0;
    for (name, applicator) in applicators {
        for c in constraints {
            let with =
                format!(r#"{{"type": "object", "properties": {{"a": {{"type": "integer"}}}}, {}}}"#, applicator(c));
            for (old, new) in [(BASE, with.as_str()), (with.as_str(), BASE)] {
                let (o, n) = (schema("1.0.0", old), schema("2.0.0", new));
                for direction in [ContractDirection::Request, ContractDirection::Response] {
                    let (verdict, changes) = judged(old, new, direction);
                    if verdict == Impact::Breaking {
                        continue;
                    }
                    let (must, then) = if direction == ContractDirection::Request { (&o, &n) } else { (&n, &o) };
                    for body in &bodies {
                        if must.validate_json(body.as_bytes()).is_valid() {
                            checked += 1;
                            assert!(
                                then.validate_json(body.as_bytes()).is_valid(),
                                "{name} {c} {direction:?}: {verdict} {changes:?}, but {body} is refused\nold: {old}\nnew: {new}"
                            );
                        }
                    }
                }
            }
        }
    }
    // The claim was put to the test on many bodies.
    assert!(checked > 200, "{checked}");
}

#[test]
fn a_bound_that_excludes_no_listed_value_changes_nothing() {
    let with =
        |keywords: &str| format!(r#"{{"type": "object", "properties": {{"a": {{"enum": [1, 2, 7]{keywords}}}}}}}"#);
    for keywords in [
        r#", "maximum": 7"#,
        r#", "exclusiveMaximum": 8"#,
        r#", "minimum": 1, "type": "integer""#,
        r#", "multipleOf": 1"#,
    ] {
        let (verdict, changes) = judged(&with(""), &with(keywords), ContractDirection::Both);
        assert_eq!((verdict, changes), (Impact::Compatible, Vec::<String>::new()), "{keywords}");
    }
    // A listed value that is not an integer is judged as written.
    let decimal =
        |keywords: &str| format!(r#"{{"type": "object", "properties": {{"a": {{"enum": [1, 1.5]{keywords}}}}}}}"#);
    let (verdict, _) = judged(&decimal(r#", "type": "integer""#), &decimal(""), ContractDirection::Response);
    assert_eq!(verdict, Impact::Breaking);
    // A bound that excludes one is the enum restricted, with that value as the witness.
    let (verdict, changes) = judged(&with(""), &with(r#", "maximum": 6"#), ContractDirection::Request);
    assert_eq!(verdict, Impact::Breaking);
    assert_eq!(changes, [r#"breaking field.maximum.tightened a: (none) -> maximum 6 {"a":7}"#]);
}
