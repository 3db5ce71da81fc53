//! The schema-form diff and directions (SPEC §11): exact changes for each
//! shape (unions, maps, references, closed objects, tuples), the direction's
//! verdict and witness sense, and every printed witness re-checked with both
//! validators.

use protocolarc::diff::{diff, diff_in, ContractDiff, Impact};
use protocolarc::{ContractDirection, ContractSpec};

fn schema(revision: &str, direction: &str, body: &str) -> ContractSpec {
    let doc = format!(r#"{{"name": "t.s", "revision": "{revision}", "direction": "{direction}", "schema": {body}}}"#);
    ContractSpec::from_slice(doc.as_bytes(), "s.json").unwrap_or_else(|e| panic!("{body}: {e}"))
}

/// `(impact, rule, field, message)` of every change, in the diff's order.
fn changes(d: &ContractDiff) -> Vec<(Impact, &str, &str, &str)> {
    d.changes().iter().map(|c| (c.impact(), c.rule(), c.field(), c.message())).collect()
}

/// Every witness proves its change in its sense: the accepting revision
/// has no finding at all, the other one has one.
fn witnesses_hold(old: &ContractSpec, new: &ContractSpec, d: &ContractDiff) -> usize {
    let mut n = 0;
    for c in d.changes() {
        let Some(w) = c.witness() else { continue };
        let (accepting, rejecting) = match c.witness_direction() {
            Some(ContractDirection::Request) => (old, new),
            Some(ContractDirection::Response) => (new, old),
            other => panic!("{}: a witness with sense {other:?}", c.rule()),
        };
        let a = accepting.validate_json(w.as_bytes());
        assert!(a.findings().is_empty(), "{} {}: {w} has findings on the accepting side: {a}", c.rule(), c.field());
        let r = rejecting.validate_json(w.as_bytes());
        assert!(!r.findings().is_empty(), "{} {}: {w} passes the rejecting side", c.rule(), c.field());
        n += 1;
    }
    n
}

const CONTENT_V1: &str = r#"{"type": "object", "required": ["content"], "properties": {"content": {"type": "array", "items": {"oneOf": [
    {"type": "object", "required": ["type", "text"], "properties": {"type": {"const": "text"}, "text": {"type": "string"}}},
    {"type": "object", "required": ["type", "data"], "properties": {"type": {"const": "image"}, "data": {"type": "string"}}}
]}}}}"#;

const CONTENT_V2: &str = r#"{"type": "object", "required": ["content"], "properties": {"content": {"type": "array", "items": {"oneOf": [
    {"type": "object", "required": ["type", "text"], "properties": {"type": {"const": "text"}, "text": {"type": "string", "maxLength": 100}}},
    {"type": "object", "required": ["type", "data"], "properties": {"type": {"const": "image"}, "data": {"type": "string"}}},
    {"type": "object", "required": ["type", "uri"], "properties": {"type": {"const": "link"}, "uri": {"type": "string"}}}
]}}}}"#;

#[test]
fn a_tagged_union_member_added_breaks_responses_and_not_requests() {
    let changes_in = |direction: &str| {
        let (old, new) = (schema("1.0.0", direction, CONTENT_V1), schema("2.0.0", direction, CONTENT_V2));
        let d = diff(&old, &new).expect("same name");
        assert_eq!(d.direction().as_str(), direction);
        witnesses_hold(&old, &new, &d);
        (d.compatibility(), changes(&d).into_iter().map(|(i, r, f, m)| format!("{i} {r} {f}: {m}")).collect::<Vec<_>>())
    };
    let (verdict, request) = changes_in("request");
    assert_eq!(verdict, Impact::Breaking);
    assert_eq!(
        request[0],
        "breaking field.maxLength.tightened content[].text: (none) -> maxLength 100 (in member type='text')"
    );
    assert_eq!(request[1], "forward union.member.added content[]: oneOf member type='link' added");
    assert_eq!(request.len(), 2);
    let (verdict, response) = changes_in("response");
    assert_eq!(verdict, Impact::Breaking);
    assert_eq!(response[0], "breaking union.member.added content[]: oneOf member type='link' added");
    assert_eq!(
        response[1],
        "forward field.maxLength.tightened content[].text: (none) -> maxLength 100 (in member type='text')"
    );
    let (verdict, both) = changes_in("both");
    assert_eq!(verdict, Impact::Breaking);
    assert!(both.iter().all(|c| c.starts_with("breaking ")), "{both:?}");
}

#[test]
fn removing_a_tagged_member_is_the_mirror() {
    let (old, new) = (schema("1.0.0", "request", CONTENT_V2), schema("2.0.0", "request", CONTENT_V1));
    let d = diff(&old, &new).expect("same name");
    let found = changes(&d);
    assert!(found.contains(&(
        Impact::Breaking,
        "union.member.removed",
        "content[]",
        "oneOf member type='link' removed"
    )));
    assert!(found.contains(&(
        Impact::Forward,
        "field.maxLength.relaxed",
        "content[].text",
        "maxLength 100 -> (none) (in member type='text')"
    )));
    let r = diff_in(&old, &new, ContractDirection::Response).expect("same name");
    assert_eq!(r.direction(), ContractDirection::Response);
    assert!(changes(&r).contains(&(
        Impact::Forward,
        "union.member.removed",
        "content[]",
        "oneOf member type='link' removed"
    )));
    assert!(changes(&r).contains(&(
        Impact::Breaking,
        "field.maxLength.relaxed",
        "content[].text",
        "maxLength 100 -> (none) (in member type='text')"
    )));
    witnesses_hold(&old, &new, &d);
    witnesses_hold(&old, &new, &r);
}

#[test]
fn untagged_members_are_matched_by_what_they_accept() {
    let old = schema("1.0.0", "request", r#"{"anyOf": [{"type": "string", "maxLength": 5}, {"type": "integer"}]}"#);
    let new = schema(
        "2.0.0",
        "request",
        r#"{"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 9}, {"type": "null"}]}"#,
    );
    let d = diff(&old, &new).expect("same name");
    assert_eq!(
        changes(&d),
        [
            (
                Impact::Forward,
                "field.maxLength.relaxed",
                "<data>",
                "maxLength 5 -> maxLength 9 (in member #1 (string))"
            ),
            (Impact::Forward, "union.member.added", "<data>", "anyOf member #2 (null) added"),
        ]
    );
    assert_eq!(d.compatibility(), Impact::Forward);
}

#[test]
fn a_referenced_definition_is_reported_once_and_recursion_ends() {
    let tree = |max: u32| {
        format!(
            r##"{{"$defs": {{"Node": {{"type": "object", "properties": {{"v": {{"type": "integer", "maximum": {max}}},
            "kids": {{"type": "array", "items": {{"$ref": "#/$defs/Node"}}}}}}}}}},
            "type": "object", "properties": {{"a": {{"$ref": "#/$defs/Node"}}, "b": {{"$ref": "#/$defs/Node"}}}}}}"##
        )
    };
    let (old, new) = (schema("1.0.0", "request", &tree(10)), schema("2.0.0", "request", &tree(5)));
    let d = diff(&old, &new).expect("same name");
    let found: Vec<_> = changes(&d).into_iter().map(|(i, r, f, _)| (i, r, f)).collect();
    assert_eq!(found, [(Impact::Breaking, "field.maximum.tightened", "a.v")]);
    assert_eq!(d.changes()[0].message().split(" (").next(), Some("maximum 10 -> maximum 5"));
}

#[test]
fn maps_tuples_and_closed_objects_are_diffed_at_their_paths() {
    let old = schema(
        "1.0.0",
        "request",
        r#"{"type": "object", "properties": {
            "caps": {"type": "object", "additionalProperties": {"type": "string"}},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
            "inner": {"type": "object", "properties": {"a": {"type": "string"}}}}}"#,
    );
    let new = schema(
        "2.0.0",
        "request",
        r#"{"type": "object", "properties": {
            "caps": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 3}},
            "pair": {"type": "array", "prefixItems": [{"type": "string", "format": "uuid"}, {"type": "integer"}]},
            "inner": {"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}}}}"#,
    );
    let d = diff(&old, &new).expect("same name");
    let found: Vec<_> = changes(&d)
        .into_iter()
        .map(|(i, r, f, m)| (i, r, f, m.split(" (no").next().unwrap_or(m).to_string()))
        .collect();
    assert_eq!(
        found,
        [
            (Impact::Breaking, "field.maxLength.tightened", "caps{}", "(none) -> maxLength 3".to_string()),
            (Impact::Breaking, "field.closed.enabled", "inner", "open -> closed".to_string()),
            (Impact::Breaking, "field.format.tightened", "pair[0]", "no format -> format uuid".to_string()),
        ]
    );
    witnesses_hold(&old, &new, &d);
}

#[test]
fn a_required_field_added_to_a_response_is_forward_and_removed_is_breaking() {
    let v1 = r#"{"type": "object", "properties": {"id": {"type": "string"}}}"#;
    let v2 = r#"{"type": "object", "required": ["kind"], "properties": {"id": {"type": "string"}, "kind": {"type": "string"}}}"#;
    let (old, new) = (schema("1.0.0", "response", v1), schema("2.0.0", "response", v2));
    let d = diff(&old, &new).expect("same name");
    assert_eq!(changes(&d), [(Impact::Forward, "field.added.required", "kind", "added string")]);
    // Removed: old readers reject a response without it; the witness is a
    // body the new revision allows and the old one rejects.
    let back = diff(&new, &old).expect("same name");
    assert_eq!(back.compatibility(), Impact::Breaking);
    let c = &back.changes()[0];
    assert_eq!((c.rule(), c.field(), c.message()), ("field.removed.required", "kind", "removed string"));
    assert_eq!(c.witness_direction(), Some(ContractDirection::Response));
    assert_eq!(witnesses_hold(&new, &old, &back), 1);
    // As a request, the same removal rejects nothing: readers break, no witness.
    let req = diff_in(&new, &old, ContractDirection::Request).expect("same name");
    let c = &req.changes()[0];
    assert_eq!(c.message(), "removed string (no envelope is rejected; readers of the field break)");
    assert_eq!(c.witness(), None);
}

#[test]
fn a_direction_change_is_breaking_and_judges_both_ways() {
    let body = r#"{"type": "object", "properties": {"role": {"enum": ["user"]}}}"#;
    let wider = r#"{"type": "object", "properties": {"role": {"enum": ["user", "agent"]}}}"#;
    let d = diff(&schema("1.0.0", "request", body), &schema("2.0.0", "response", wider)).expect("same name");
    assert_eq!(d.direction(), ContractDirection::Both);
    assert_eq!(
        changes(&d),
        [
            (
                Impact::Breaking,
                "contract.direction.changed",
                "<contract>",
                "direction request -> response (judged both ways)"
            ),
            (Impact::Breaking, "field.enum.expanded", "role", "added {'agent'}"),
        ]
    );
}

#[test]
fn a_changed_default_is_breaking_without_a_witness() {
    let d = diff(
        &schema("1.0.0", "request", r#"{"type": "object", "properties": {"n": {"type": "integer", "default": 10}}}"#),
        &schema("2.0.0", "request", r#"{"type": "object", "properties": {"n": {"type": "integer", "default": 50}}}"#),
    )
    .expect("same name");
    assert_eq!(changes(&d), [(Impact::Breaking, "field.default.changed", "n", "default 10 -> 50")]);
    assert_eq!(d.changes()[0].witness(), None);
}

#[test]
fn what_is_not_compared_is_undecided_and_breaking() {
    for (a, b, message) in [
        (
            r#"{"if": {"type": "string"}, "then": {"maxLength": 3}}"#,
            r#"{"if": {"type": "integer"}, "then": {"maxLength": 3}}"#,
            "the `if` schema changed: not compared (judged breaking)",
        ),
        (
            r#"{"oneOf": [{"type": "integer"}, {"type": "number", "maximum": 9}]}"#,
            r#"{"oneOf": [{"type": "integer"}, {"type": "number", "maximum": 5}]}"#,
            "an untagged oneOf whose members overlap changed: not compared (judged breaking)",
        ),
        (
            r#"{"type": "string"}"#,
            r#"{"anyOf": [{"type": "integer"}, {"type": "null"}]}"#,
            "a anyOf was added: not compared (judged breaking)",
        ),
    ] {
        for direction in ["request", "response"] {
            let d = diff(&schema("1.0.0", direction, a), &schema("2.0.0", direction, b)).expect("same name");
            let undecided: Vec<_> = changes(&d).into_iter().filter(|c| c.1 == "schema.undecided").collect();
            assert_eq!(undecided, [(Impact::Breaking, "schema.undecided", "<data>", message)], "{a} -> {b}");
            assert_eq!(d.compatibility(), Impact::Breaking);
        }
    }
}

#[test]
fn a_fields_form_revision_is_compared_with_a_schema_form_one_through_its_json_schema() {
    let fields = ContractSpec::from_slice(
        br#"{"name": "t.s", "revision": "1.0.0", "fields": [{"name": "a", "type": "string", "maxLength": 9}]}"#,
        "f.json",
    )
    .expect("fields contract");
    let schema_form = schema(
        "2.0.0",
        "request",
        r#"{"type": "object", "required": ["a"], "properties": {"a": {"type": "string", "maxLength": 5}}}"#,
    );
    let d = diff(&fields, &schema_form).expect("same name");
    let found: Vec<_> = changes(&d).into_iter().map(|(i, r, f, _)| (i, r, f)).collect();
    assert_eq!(found, [(Impact::Breaking, "field.maxLength.tightened", "a")]);
    // The same shape written both ways is no change at all.
    let same = schema(
        "2.0.0",
        "request",
        r#"{"type": "object", "required": ["a"], "properties": {"a": {"type": "string", "maxLength": 9}}}"#,
    );
    assert_eq!(changes(&diff(&fields, &same).expect("same name")), []);
}

#[test]
fn chains_and_bumps_use_the_direction_verdict() {
    use protocolarc_tests::{bin, run_in, scratch, write_files};
    // An enum value added, published with a minor bump: fine for a request,
    // a break for a response (old readers reject the new value).
    let contract = |direction: &str, revision: &str, values: &str| {
        format!(
            r#"{{"name": "t.role", "revision": "{revision}", "direction": "{direction}",
              "fields": [{{"name": "role", "type": "string", "enum": [{values}]}}]}}"#
        )
    };
    for (direction, code, chain) in [
        ("request", 0, "  t.role: 1.0.0 -> 1.1.0 forward (minor bump, ok)\n"),
        ("response", 1, "  t.role: 1.0.0 -> 1.1.0 breaking (minor bump, needs major: revision.bump.insufficient)\n"),
    ] {
        let dir = scratch(&format!("direction-chain-{direction}"));
        let (a, b) = (contract(direction, "1.0.0", r#""user""#), contract(direction, "1.1.0", r#""user", "agent""#));
        write_files(&dir, &[("c/a.json", a.as_bytes()), ("c/b.json", b.as_bytes()), ("e.jsonl", b"")]);
        let out = run_in(bin!(), &dir, &["matrix", "--contracts", "c", "--envelopes", "e.jsonl"]);
        assert_eq!(out.code, code, "{direction}: {}", out.stdout);
        assert!(out.stdout.contains(chain), "{direction}: {}", out.stdout);
        let out = run_in(bin!(), &dir, &["diff", "c/a.json", "c/b.json", "--witnesses"]);
        if direction == "response" {
            assert_eq!(out.code, 2);
            assert_eq!(
                out.stdout,
                "t.role: 1.0.0 -> 1.1.0\ncompatibility: BREAKING (as a response)\n  breaking field.enum.expanded role: \
                 added {'agent'}\n    witness (new accepts, old rejects): {\"role\":\"agent\"}\n"
            );
        } else {
            assert_eq!(out.code, 0);
        }
    }
}
