//! Every change rule of SPEC §5, at the top level, in nested objects and in
//! array elements: the exact impact, rule, field and message, and for each
//! breaking change a witness that this test re-checks with both validators
//! (accepted by the old revision with no finding, flagged by the new one).

use protocolarc::diff::{diff, Change, ContractDiff, Impact};
use protocolarc::ContractSpec;
use protocolarc_tests::{bin, data, run};

fn contract(revision: &str, strict: bool, fields: &str) -> ContractSpec {
    let doc = format!(r#"{{"name": "t.c", "revision": "{revision}", "strict": {strict}, "fields": [{fields}]}}"#);
    ContractSpec::from_slice(doc.as_bytes(), &format!("t_{revision}.json")).unwrap_or_else(|e| panic!("{e}"))
}

/// Checks one witness independently of the engine.
fn witness_holds(old: &ContractSpec, new: &ContractSpec, c: &Change) {
    let w = c.witness().unwrap_or_else(|| panic!("{}: no witness", c.rule()));
    let before = old.validate_json(w.as_bytes());
    assert!(before.findings().is_empty(), "{}: old flags its witness {w}: {:?}", c.rule(), before.findings());
    let after = new.validate_json(w.as_bytes());
    if c.rule() == "contract.strict.enabled" {
        assert!(after.findings().iter().any(|f| f.rule() == "field.unknown"), "{}: {w}", c.rule());
    } else {
        assert!(!after.is_valid(), "{}: new accepts its witness {w}", c.rule());
    }
}

/// (impact, rule, field, message, has a witness)
type Row<'a> = (&'a str, &'a str, &'a str, &'a str, bool);

fn check(old_fields: &str, new_fields: &str, expect: &[Row<'_>]) -> ContractDiff {
    check_strict((false, false), old_fields, new_fields, expect)
}

fn check_strict(strict: (bool, bool), old_fields: &str, new_fields: &str, expect: &[Row<'_>]) -> ContractDiff {
    let old = contract("1.0.0", strict.0, old_fields);
    let new = contract("2.0.0", strict.1, new_fields);
    let d = diff(&old, &new).expect("same name");
    let got: Vec<(String, String, String, String, bool)> = d
        .changes()
        .iter()
        .map(|c| (c.impact().to_string(), c.rule().into(), c.field().into(), c.message().into(), c.witness().is_some()))
        .collect();
    let want: Vec<(String, String, String, String, bool)> =
        expect.iter().map(|(a, b, c, m, w)| (a.to_string(), b.to_string(), c.to_string(), m.to_string(), *w)).collect();
    assert_eq!(got, want, "\nold: {old_fields}\nnew: {new_fields}");
    for c in d.changes() {
        if c.witness().is_some() {
            witness_holds(&old, &new, c);
        }
        if c.impact() != Impact::Breaking {
            assert!(c.witness().is_none(), "{}: only breaking changes carry witnesses", c.rule());
        }
    }
    let worst = expect.iter().map(|r| r.0).fold("compatible", |w, i| match (w, i) {
        (_, "breaking") | ("breaking", _) => "breaking",
        (_, "forward") | ("forward", _) => "forward",
        _ => "compatible",
    });
    assert_eq!(d.compatibility().as_str(), worst);
    d
}

const ID: &str = r#"{"name": "id", "type": "string"}"#;

#[test]
fn no_change_and_documentation_only() {
    check(ID, ID, &[]);
    let d = check(
        r#"{"name": "id", "type": ["string", "integer"], "doc": "old words"}"#,
        r#"{"name": "id", "type": ["integer", "string"], "doc": "new words"}"#,
        &[("compatible", "annotation.changed", "id", "doc 'old words' -> 'new words'", false)],
    );
    assert_eq!(d.compatibility(), Impact::Compatible);
}

#[test]
fn field_added() {
    check(
        ID,
        &format!(r#"{ID}, {{"name": "n", "type": "integer", "required": false}}"#),
        &[("forward", "field.added.optional", "n", "added integer", false)],
    );
    check(
        ID,
        &format!(r#"{ID}, {{"name": "n", "type": "integer"}}"#),
        &[("breaking", "field.added.required", "n", "added integer", true)],
    );
    // Nested and in array elements.
    let old = r#"{"name": "p.q", "type": "string"}, {"name": "parts[].kind", "type": "string"}"#;
    let new = r#"{"name": "p.q", "type": "string"}, {"name": "p.r", "type": "boolean"},
                 {"name": "parts[].kind", "type": "string"}, {"name": "parts[].text", "type": "string"}"#;
    check(
        old,
        new,
        &[
            ("breaking", "field.added.required", "p.r", "added boolean", true),
            ("breaking", "field.added.required", "parts[].text", "added string", true),
        ],
    );
}

#[test]
fn field_removed() {
    check(
        &format!(r#"{ID}, {{"name": "n", "type": "integer", "required": false}}"#),
        ID,
        &[("forward", "field.removed.optional", "n", "removed integer", false)],
    );
    check(
        &format!(r#"{ID}, {{"name": "a.b", "type": "integer"}}"#),
        ID,
        &[(
            "breaking",
            "field.removed.required",
            "a.b",
            "removed integer (no envelope is rejected; readers of the field break)",
            false,
        )],
    );
}

#[test]
fn required_tightened_and_relaxed() {
    let opt = r#"{"name": "p.args", "type": "object", "required": false}"#;
    let req = r#"{"name": "p.args", "type": "object"}"#;
    check(opt, req, &[("breaking", "field.required.tightened", "p.args", "optional -> required", true)]);
    check(req, opt, &[("forward", "field.required.relaxed", "p.args", "required -> optional", false)]);
    // An element field inside an array.
    let opt = r#"{"name": "items[].sku", "type": "string", "required": false}"#;
    let req = r#"{"name": "items[].sku", "type": "string"}"#;
    // The implied `items` array becomes required with its child; the child's
    // change is the one reported.
    check(opt, req, &[("breaking", "field.required.tightened", "items[].sku", "optional -> required", true)]);
}

#[test]
fn a_declared_parent_dropped_becomes_required() {
    // `p` declared optional; the new revision only implies it, and `p.q` is
    // required, so `p` is now required: breaking, not a forward removal.
    check(
        r#"{"name": "p", "type": "object", "required": false}, {"name": "p.q", "type": "string"}"#,
        r#"{"name": "p.q", "type": "string"}"#,
        &[("breaking", "field.required.tightened", "p", "optional -> required", true)],
    );
}

#[test]
fn types() {
    let f = |t: &str| format!(r#"{{"name": "v", "type": {t}}}"#);
    check(
        &f(r#"["string", "integer"]"#),
        &f(r#""string""#),
        &[("breaking", "field.type.narrowed", "v", "string|integer -> string", true)],
    );
    check(&f(r#""integer""#), &f(r#""number""#), &[("forward", "field.type.widened", "v", "integer -> number", false)]);
    check(
        &f(r#""number""#),
        &f(r#""integer""#),
        &[("breaking", "field.type.narrowed", "v", "number -> integer", true)],
    );
    check(&f(r#""string""#), &f(r#""boolean""#), &[("breaking", "field.type.changed", "v", "string -> boolean", true)]);
    check(&f(r#""string""#), &f(r#""any""#), &[("forward", "field.type.widened", "v", "string -> any", false)]);
    check(
        &f(r#""any""#),
        &f(r#"["string", "null"]"#),
        &[("breaking", "field.type.narrowed", "v", "any -> string|null", true)],
    );
    // integer plus number is number: no change.
    check(&f(r#"["integer", "number"]"#), &f(r#""number""#), &[]);
    // In array elements and nested objects.
    let old = r#"{"name": "m.parts[].n", "type": "number"}"#;
    let new = r#"{"name": "m.parts[].n", "type": "integer"}"#;
    check(old, new, &[("breaking", "field.type.narrowed", "m.parts[].n", "number -> integer", true)]);
}

#[test]
fn enums() {
    let f = |e: &str| format!(r#"{{"name": "role", "type": "string"{e}}}"#);
    check(
        &f(""),
        &f(r#", "enum": ["user", "agent"]"#),
        &[("breaking", "field.enum.added", "role", "open -> {'user', 'agent'}", true)],
    );
    check(
        &f(r#", "enum": ["user", "agent"]"#),
        &f(""),
        &[("forward", "field.enum.removed", "role", "{'user', 'agent'} -> open", false)],
    );
    check(
        &f(r#", "enum": ["user", "agent"]"#),
        &f(r#", "enum": ["user"]"#),
        &[("breaking", "field.enum.restricted", "role", "dropped {'agent'}", true)],
    );
    check(
        &f(r#", "enum": ["user"]"#),
        &f(r#", "enum": ["user", "agent"]"#),
        &[("forward", "field.enum.expanded", "role", "added {'agent'}", false)],
    );
    // Both at once, in array elements.
    let g = |e: &str| format!(r#"{{"name": "msgs[].role", "type": "string", "enum": {e}}}"#);
    check(
        &g(r#"["user", "agent"]"#),
        &g(r#"["user", "system"]"#),
        &[
            ("breaking", "field.enum.restricted", "msgs[].role", "dropped {'agent'}", true),
            ("forward", "field.enum.expanded", "msgs[].role", "added {'system'}", false),
        ],
    );
    // Numbers compare by value: 1 and 1.0 are one member.
    let h = |e: &str| format!(r#"{{"name": "n", "type": "number", "enum": {e}}}"#);
    check(&h("[1, 2]"), &h("[2.0, 1.0]"), &[]);
}

#[test]
fn lower_bounds() {
    let f = |k: &str| format!(r#"{{"name": "n", "type": "number"{k}}}"#);
    check(
        &f(""),
        &f(r#", "minimum": 1"#),
        &[("breaking", "field.minimum.tightened", "n", "(none) -> minimum 1", true)],
    );
    check(&f(r#", "minimum": 1"#), &f(""), &[("forward", "field.minimum.relaxed", "n", "minimum 1 -> (none)", false)]);
    check(
        &f(r#", "minimum": 1"#),
        &f(r#", "minimum": 5"#),
        &[("breaking", "field.minimum.tightened", "n", "minimum 1 -> minimum 5", true)],
    );
    check(
        &f(r#", "minimum": 10"#),
        &f(r#", "exclusiveMinimum": 10"#),
        &[("breaking", "field.minimum.tightened", "n", "minimum 10 -> exclusiveMinimum 10", true)],
    );
    check(
        &f(r#", "exclusiveMinimum": 10"#),
        &f(r#", "minimum": 10"#),
        &[("forward", "field.minimum.relaxed", "n", "exclusiveMinimum 10 -> minimum 10", false)],
    );
    // The tighter of the two keywords is the bound.
    check(&f(r#", "minimum": 0, "exclusiveMinimum": 5"#), &f(r#", "exclusiveMinimum": 5"#), &[]);
}

#[test]
fn upper_bounds() {
    let f = |k: &str| format!(r#"{{"name": "cfg.limit", "type": "integer"{k}}}"#);
    // The tightening that removes nothing: a lowered maximum.
    check(
        &f(r#", "maximum": 12"#),
        &f(r#", "maximum": 6"#),
        &[("breaking", "field.maximum.tightened", "cfg.limit", "maximum 12 -> maximum 6", true)],
    );
    check(
        &f(r#", "maximum": 6"#),
        &f(r#", "maximum": 12"#),
        &[("forward", "field.maximum.relaxed", "cfg.limit", "maximum 6 -> maximum 12", false)],
    );
    check(
        &f(r#", "maximum": 6"#),
        &f(r#", "exclusiveMaximum": 6"#),
        &[("breaking", "field.maximum.tightened", "cfg.limit", "maximum 6 -> exclusiveMaximum 6", true)],
    );
    check(
        &f(""),
        &f(r#", "exclusiveMaximum": 100"#),
        &[("breaking", "field.maximum.tightened", "cfg.limit", "(none) -> exclusiveMaximum 100", true)],
    );
}

#[test]
fn multiple_of() {
    let f = |m: &str| format!(r#"{{"name": "q", "type": "number"{m}}}"#);
    check(
        &f(r#", "multipleOf": 2"#),
        &f(r#", "multipleOf": 4"#),
        &[("breaking", "field.multipleOf.tightened", "q", "multipleOf 2 -> 4", true)],
    );
    check(
        &f(r#", "multipleOf": 4"#),
        &f(r#", "multipleOf": 2"#),
        &[("forward", "field.multipleOf.relaxed", "q", "multipleOf 4 -> 2", false)],
    );
    check(
        &f(r#", "multipleOf": 2"#),
        &f(r#", "multipleOf": 3"#),
        &[("breaking", "field.multipleOf.changed", "q", "multipleOf 2 -> 3", true)],
    );
    check(
        &f(""),
        &f(r#", "multipleOf": 0.01"#),
        &[("breaking", "field.multipleOf.tightened", "q", "(none) -> multipleOf 0.01", true)],
    );
    check(
        &f(r#", "multipleOf": 0.01"#),
        &f(""),
        &[("forward", "field.multipleOf.relaxed", "q", "multipleOf 0.01 -> (none)", false)],
    );
    check(&f(r#", "multipleOf": 0.5"#), &f(r#", "multipleOf": 0.50"#), &[]);
}

#[test]
fn string_lengths() {
    let f = |k: &str| format!(r#"{{"name": "tags[]", "type": "string"{k}}}"#);
    check(
        &f(""),
        &f(r#", "minLength": 1"#),
        &[("breaking", "field.minLength.tightened", "tags[]", "(none) -> minLength 1", true)],
    );
    check(
        &f(r#", "minLength": 3"#),
        &f(r#", "minLength": 1"#),
        &[("forward", "field.minLength.relaxed", "tags[]", "minLength 3 -> minLength 1", false)],
    );
    check(
        &f(r#", "maxLength": 128"#),
        &f(r#", "maxLength": 64"#),
        &[("breaking", "field.maxLength.tightened", "tags[]", "maxLength 128 -> maxLength 64", true)],
    );
    check(
        &f(r#", "maxLength": 64"#),
        &f(""),
        &[("forward", "field.maxLength.relaxed", "tags[]", "maxLength 64 -> (none)", false)],
    );
    // minLength 0 is no bound.
    check(&f(""), &f(r#", "minLength": 0"#), &[]);
}

#[test]
fn patterns() {
    let f = |p: &str| format!(r#"{{"name": "msg.id", "type": "string"{p}}}"#);
    check(
        &f(""),
        &f(r#", "pattern": "^[0-9a-f]{8}$""#),
        &[("breaking", "field.pattern.tightened", "msg.id", "(none) -> pattern '^[0-9a-f]{8}$'", true)],
    );
    check(
        &f(r#", "pattern": "^[a-z]+$""#),
        &f(""),
        &[("forward", "field.pattern.relaxed", "msg.id", "pattern '^[a-z]+$' -> (none)", false)],
    );
    check(
        &f(r#", "pattern": "^[a-z]+$""#),
        &f(r#", "pattern": "^[a-f]+$""#),
        &[("breaking", "field.pattern.tightened", "msg.id", "pattern '^[a-z]+$' -> '^[a-f]+$'", true)],
    );
    // Decided by regex inclusion: neither accepts all the other does.
    check(
        &f(r#", "pattern": "^[a-m]+$""#),
        &f(r#", "pattern": "^[f-z]+$""#),
        &[("breaking", "field.pattern.changed", "msg.id", "pattern '^[a-m]+$' -> '^[f-z]+$'", true)],
    );
}

#[test]
fn array_sizes_and_uniqueness() {
    let f =
        |k: &str| format!(r#"{{"name": "parts", "type": "array"{k}}}, {{"name": "parts[].kind", "type": "string"}}"#);
    check(
        &f(""),
        &f(r#", "minItems": 1"#),
        &[("breaking", "field.minItems.tightened", "parts", "(none) -> minItems 1", true)],
    );
    check(
        &f(r#", "minItems": 2"#),
        &f(r#", "minItems": 1"#),
        &[("forward", "field.minItems.relaxed", "parts", "minItems 2 -> minItems 1", false)],
    );
    check(
        &f(r#", "maxItems": 4"#),
        &f(r#", "maxItems": 2"#),
        &[("breaking", "field.maxItems.tightened", "parts", "maxItems 4 -> maxItems 2", true)],
    );
    check(
        &f(r#", "maxItems": 2"#),
        &f(r#", "maxItems": 4"#),
        &[("forward", "field.maxItems.relaxed", "parts", "maxItems 2 -> maxItems 4", false)],
    );
    check(
        &f(""),
        &f(r#", "uniqueItems": true"#),
        &[("breaking", "field.uniqueItems.tightened", "parts", "uniqueItems false -> true", true)],
    );
    check(
        &f(r#", "uniqueItems": true"#),
        &f(r#", "uniqueItems": false"#),
        &[("forward", "field.uniqueItems.relaxed", "parts", "uniqueItems true -> false", false)],
    );
}

#[test]
fn strictness() {
    check_strict(
        (false, true),
        ID,
        ID,
        &[("breaking", "contract.strict.enabled", "<contract>", "strict false -> true", true)],
    );
    check_strict(
        (true, false),
        ID,
        ID,
        &[("forward", "contract.strict.disabled", "<contract>", "strict true -> false", false)],
    );
}

#[test]
fn changes_sort_by_impact_then_field_then_rule() {
    let old = r#"{"name": "b", "type": "string", "maxLength": 5}, {"name": "a", "type": "integer", "required": false}"#;
    let new = r#"{"name": "b", "type": ["string", "null"], "maxLength": 3}, {"name": "a", "type": "integer"},
                 {"name": "c", "type": "boolean", "required": false}"#;
    check(
        old,
        new,
        &[
            ("breaking", "field.required.tightened", "a", "optional -> required", true),
            ("breaking", "field.maxLength.tightened", "b", "maxLength 5 -> maxLength 3", true),
            ("forward", "field.type.widened", "b", "string -> string|null", false),
            ("forward", "field.added.optional", "c", "added boolean", false),
        ],
    );
}

#[test]
fn different_contracts_are_refused() {
    let a = contract("1.0.0", false, ID);
    let b = ContractSpec::from_slice(br#"{"name": "other", "revision": "1.0.0", "fields": []}"#, "o.json").unwrap();
    assert_eq!(diff(&a, &b).unwrap_err().to_string(), "cannot compare different contracts: 't.c' and 'other'");
}

#[test]
fn every_rule_is_in_the_table_with_its_impact() {
    use protocolarc::diff::rules;
    let all = rules::all();
    let ids: Vec<&str> = all.iter().map(|r| r.id).collect();
    for id in [
        "field.added.optional",
        "field.added.required",
        "field.removed.required",
        "field.removed.optional",
        "field.required.tightened",
        "field.required.relaxed",
        "field.type.narrowed",
        "field.type.widened",
        "field.type.changed",
        "field.enum.added",
        "field.enum.removed",
        "field.enum.restricted",
        "field.enum.expanded",
        "field.minimum.tightened",
        "field.maximum.relaxed",
        "field.pattern.changed",
        "field.multipleOf.changed",
        "field.uniqueItems.tightened",
        "contract.strict.enabled",
        "contract.strict.disabled",
    ] {
        assert!(ids.contains(&id), "{id} missing from the rule table");
    }
    for r in &all {
        let want = if r.id.ends_with(".relaxed")
            || r.id.ends_with(".widened")
            || r.id.ends_with(".expanded")
            || r.id.ends_with(".disabled")
            || [
                "field.added.optional",
                "field.removed.optional",
                "field.enum.removed",
                "field.added.closed",
                "union.member.added",
            ]
            .contains(&r.id)
        {
            Impact::Forward
        } else if r.id == "annotation.changed" {
            Impact::Compatible
        } else {
            Impact::Breaking
        };
        assert_eq!(r.impact, want, "{}", r.id);
    }
    assert!(!ids.contains(&"field.minimum.changed"), "bounds only tighten or relax");
}

/// One field's keywords (without its name) in the old and new revision;
/// `None` where the revision does not declare it.
type Case<'a> = (Option<&'a str>, Option<&'a str>, &'a str, &'a str, &'a str, bool);

/// Every rule at three depths: a top-level field, a nested one, and a key in
/// every element of an array. Rule, impact, message and the witness hold alike.
#[test]
fn every_rule_at_the_top_in_nested_objects_and_in_array_elements() {
    let cases: &[Case<'_>] = &[
        (
            None,
            Some(r#""type": "string", "required": false"#),
            "forward",
            "field.added.optional",
            "added string",
            false,
        ),
        (None, Some(r#""type": "string""#), "breaking", "field.added.required", "added string", true),
        (
            Some(r#""type": "string", "required": false"#),
            None,
            "forward",
            "field.removed.optional",
            "removed string",
            false,
        ),
        (
            Some(r#""type": "string""#),
            None,
            "breaking",
            "field.removed.required",
            "removed string (no envelope is rejected; readers of the field break)",
            false,
        ),
        (
            Some(r#""type": "string", "required": false"#),
            Some(r#""type": "string""#),
            "breaking",
            "field.required.tightened",
            "optional -> required",
            true,
        ),
        (
            Some(r#""type": "string""#),
            Some(r#""type": "string", "required": false"#),
            "forward",
            "field.required.relaxed",
            "required -> optional",
            false,
        ),
        (
            Some(r#""type": ["string", "null"]"#),
            Some(r#""type": "string""#),
            "breaking",
            "field.type.narrowed",
            "string|null -> string",
            true,
        ),
        (
            Some(r#""type": "integer""#),
            Some(r#""type": "number""#),
            "forward",
            "field.type.widened",
            "integer -> number",
            false,
        ),
        (
            Some(r#""type": "boolean""#),
            Some(r#""type": "string""#),
            "breaking",
            "field.type.changed",
            "boolean -> string",
            true,
        ),
        (
            Some(r#""type": "string""#),
            Some(r#""type": "string", "enum": ["a"]"#),
            "breaking",
            "field.enum.added",
            "open -> {'a'}",
            true,
        ),
        (
            Some(r#""type": "string", "enum": ["a"]"#),
            Some(r#""type": "string""#),
            "forward",
            "field.enum.removed",
            "{'a'} -> open",
            false,
        ),
        (
            Some(r#""type": "string", "enum": ["a", "b"]"#),
            Some(r#""type": "string", "enum": ["a"]"#),
            "breaking",
            "field.enum.restricted",
            "dropped {'b'}",
            true,
        ),
        (
            Some(r#""type": "string", "enum": ["a"]"#),
            Some(r#""type": "string", "enum": ["a", "b"]"#),
            "forward",
            "field.enum.expanded",
            "added {'b'}",
            false,
        ),
        (
            Some(r#""type": "number", "minimum": 0"#),
            Some(r#""type": "number", "minimum": 1"#),
            "breaking",
            "field.minimum.tightened",
            "minimum 0 -> minimum 1",
            true,
        ),
        (
            Some(r#""type": "number", "minimum": 1"#),
            Some(r#""type": "number""#),
            "forward",
            "field.minimum.relaxed",
            "minimum 1 -> (none)",
            false,
        ),
        (
            Some(r#""type": "number""#),
            Some(r#""type": "number", "exclusiveMaximum": 9"#),
            "breaking",
            "field.maximum.tightened",
            "(none) -> exclusiveMaximum 9",
            true,
        ),
        (
            Some(r#""type": "number", "maximum": 9"#),
            Some(r#""type": "number", "maximum": 99"#),
            "forward",
            "field.maximum.relaxed",
            "maximum 9 -> maximum 99",
            false,
        ),
        (
            Some(r#""type": "integer", "multipleOf": 2"#),
            Some(r#""type": "integer", "multipleOf": 4"#),
            "breaking",
            "field.multipleOf.tightened",
            "multipleOf 2 -> 4",
            true,
        ),
        (
            Some(r#""type": "integer", "multipleOf": 4"#),
            Some(r#""type": "integer", "multipleOf": 2"#),
            "forward",
            "field.multipleOf.relaxed",
            "multipleOf 4 -> 2",
            false,
        ),
        (
            Some(r#""type": "integer", "multipleOf": 2"#),
            Some(r#""type": "integer", "multipleOf": 3"#),
            "breaking",
            "field.multipleOf.changed",
            "multipleOf 2 -> 3",
            true,
        ),
        (
            Some(r#""type": "string""#),
            Some(r#""type": "string", "minLength": 2"#),
            "breaking",
            "field.minLength.tightened",
            "(none) -> minLength 2",
            true,
        ),
        (
            Some(r#""type": "string", "minLength": 2"#),
            Some(r#""type": "string""#),
            "forward",
            "field.minLength.relaxed",
            "minLength 2 -> (none)",
            false,
        ),
        (
            Some(r#""type": "string", "maxLength": 9"#),
            Some(r#""type": "string", "maxLength": 3"#),
            "breaking",
            "field.maxLength.tightened",
            "maxLength 9 -> maxLength 3",
            true,
        ),
        (
            Some(r#""type": "string", "maxLength": 3"#),
            Some(r#""type": "string", "maxLength": 9"#),
            "forward",
            "field.maxLength.relaxed",
            "maxLength 3 -> maxLength 9",
            false,
        ),
        (
            Some(r#""type": "string""#),
            Some(r#""type": "string", "pattern": "^x+$""#),
            "breaking",
            "field.pattern.tightened",
            "(none) -> pattern '^x+$'",
            true,
        ),
        (
            Some(r#""type": "string", "pattern": "^x+$""#),
            Some(r#""type": "string""#),
            "forward",
            "field.pattern.relaxed",
            "pattern '^x+$' -> (none)",
            false,
        ),
        (
            Some(r#""type": "string", "pattern": "^x""#),
            Some(r#""type": "string", "pattern": "^y""#),
            "breaking",
            "field.pattern.changed",
            "pattern '^x' -> '^y'",
            true,
        ),
        (
            Some(r#""type": "array""#),
            Some(r#""type": "array", "minItems": 2"#),
            "breaking",
            "field.minItems.tightened",
            "(none) -> minItems 2",
            true,
        ),
        (
            Some(r#""type": "array", "minItems": 2"#),
            Some(r#""type": "array""#),
            "forward",
            "field.minItems.relaxed",
            "minItems 2 -> (none)",
            false,
        ),
        (
            Some(r#""type": "array", "maxItems": 3"#),
            Some(r#""type": "array", "maxItems": 1"#),
            "breaking",
            "field.maxItems.tightened",
            "maxItems 3 -> maxItems 1",
            true,
        ),
        (
            Some(r#""type": "array", "maxItems": 1"#),
            Some(r#""type": "array", "maxItems": 3"#),
            "forward",
            "field.maxItems.relaxed",
            "maxItems 1 -> maxItems 3",
            false,
        ),
        (
            Some(r#""type": "array""#),
            Some(r#""type": "array", "uniqueItems": true"#),
            "breaking",
            "field.uniqueItems.tightened",
            "uniqueItems false -> true",
            true,
        ),
        (
            Some(r#""type": "array", "uniqueItems": true"#),
            Some(r#""type": "array""#),
            "forward",
            "field.uniqueItems.relaxed",
            "uniqueItems true -> false",
            false,
        ),
    ];
    let anchor = r#"{"name": "id", "type": "string"}"#;
    for path in ["v", "p.q.v", "items[].v"] {
        for (old, new, impact, rule, message, witness) in cases {
            let field = |kw: &Option<&str>| kw.map_or(String::new(), |k| format!(r#", {{"name": "{path}", {k}}}"#));
            let (of, nf) = (format!("{anchor}{}", field(old)), format!("{anchor}{}", field(new)));
            // An optional field whose parents come and go with it is an
            // optional subtree, reported at its root: the implied `p` object
            // or `items` array (SPEC §11).
            let (at, message) = match (*rule, path) {
                ("field.added.optional", "p.q.v") => ("p", "added object"),
                ("field.added.optional", "items[].v") => ("items", "added array"),
                ("field.removed.optional", "p.q.v") => ("p", "removed object"),
                ("field.removed.optional", "items[].v") => ("items", "removed array"),
                _ => (path, *message),
            };
            check(&of, &nf, &[(impact, rule, at, message, *witness)]);
        }
    }
}

/// Adding `subtree` to `base` is one `field.added.optional` at `root` and
/// removing it one `field.removed.optional` there, whatever the subtree's
/// fields say about themselves (SPEC §11): both forward.
fn optional_subtree(base: &str, subtree: &str, root: &str, types: &str) {
    let with = if base.is_empty() { subtree.to_string() } else { format!("{base}, {subtree}") };
    let added = format!("added {types}");
    let removed = format!("removed {types}");
    let d = check(base, &with, &[("forward", "field.added.optional", root, &added, false)]);
    assert_eq!(d.compatibility(), Impact::Forward);
    let d = check(&with, base, &[("forward", "field.removed.optional", root, &removed, false)]);
    assert_eq!(d.compatibility(), Impact::Forward);
}

#[test]
fn an_optional_object_with_required_children_is_one_optional_addition() {
    // A declared parent, optional, with required (and optional) children.
    optional_subtree(
        ID,
        r#"{"name": "opts", "type": "object", "required": false}, {"name": "opts.mode", "type": "string"},
           {"name": "opts.level", "type": "integer", "required": false}"#,
        "opts",
        "object",
    );
    // The same, nested under a parent both revisions have.
    optional_subtree(
        r#"{"name": "p.q", "type": "string"}"#,
        r#"{"name": "p.opts", "type": "object", "required": false}, {"name": "p.opts.mode", "type": "string"}"#,
        "p.opts",
        "object",
    );
    // And inside the elements of an array both revisions have.
    optional_subtree(
        r#"{"name": "list[].k", "type": "string"}"#,
        r#"{"name": "list[].meta", "type": "object", "required": false}, {"name": "list[].meta.v", "type": "integer"}"#,
        "list[].meta",
        "object",
    );
}

#[test]
fn an_optional_array_with_declared_elements_is_one_optional_addition() {
    // `tags[]`: the elements themselves.
    optional_subtree(
        ID,
        r#"{"name": "tags", "type": "array", "required": false}, {"name": "tags[]", "type": "string"}"#,
        "tags",
        "array",
    );
    // `items[].x`: required keys inside each element.
    optional_subtree(
        ID,
        r#"{"name": "items", "type": "array", "required": false}, {"name": "items[].x", "type": "integer"},
           {"name": "items[].y", "type": "string", "required": false}"#,
        "items",
        "array",
    );
    // Both: a declared element object with a required key.
    optional_subtree(
        ID,
        r#"{"name": "items", "type": "array", "required": false}, {"name": "items[]", "type": "object"},
           {"name": "items[].x", "type": "integer"}"#,
        "items",
        "array",
    );
}

#[test]
fn a_deeper_optional_subtree_is_reported_at_its_root() {
    // `a` new and optional; `a.b` and `a.b.c` required below it.
    optional_subtree(
        ID,
        r#"{"name": "a", "type": "object", "required": false}, {"name": "a.b", "type": "object"},
           {"name": "a.b.c", "type": "string"}, {"name": "a.b.d[]", "type": "integer"}"#,
        "a",
        "object",
    );
    // `a` implied: its only child is an optional declared object whose own
    // children are required.
    optional_subtree(
        ID,
        r#"{"name": "a.b", "type": "object", "required": false}, {"name": "a.b.c", "type": "string"}"#,
        "a",
        "object",
    );
}

#[test]
fn an_implied_parent_of_optional_fields_is_the_root() {
    // `opts` is implied by optional fields only: an optional object.
    optional_subtree(
        ID,
        r#"{"name": "opts.mode", "type": "string", "required": false},
           {"name": "opts.level", "type": "integer", "required": false}"#,
        "opts",
        "object",
    );
    // `a` and `a.b` implied, optional.
    optional_subtree(ID, r#"{"name": "a.b.c", "type": "string", "required": false}"#, "a", "object");
    // Implied arrays: of declared elements, and of elements with keys.
    optional_subtree(ID, r#"{"name": "tags[]", "type": "string", "required": false}"#, "tags", "array");
    optional_subtree(
        ID,
        r#"{"name": "items[].x", "type": "integer", "required": false},
           {"name": "items[].y", "type": "string", "required": false}"#,
        "items",
        "array",
    );
}

#[test]
fn a_required_subtree_reports_its_fields_down_to_the_next_optional_root() {
    // `cfg` is required; `cfg.mode` is required in it; `cfg.extra` is an
    // optional subtree inside it, reported at its root only; the elements
    // of the new declared array `cfg.tags` belong to it.
    check(
        ID,
        &format!(
            r#"{ID}, {{"name": "cfg", "type": "object"}}, {{"name": "cfg.mode", "type": "string"}},
               {{"name": "cfg.extra", "type": "object", "required": false}}, {{"name": "cfg.extra.v", "type": "string"}},
               {{"name": "cfg.tags", "type": "array"}}, {{"name": "cfg.tags[]", "type": "string"}}"#
        ),
        &[
            ("breaking", "field.added.required", "cfg", "added object", true),
            ("breaking", "field.added.required", "cfg.mode", "added string", true),
            ("breaking", "field.added.required", "cfg.tags", "added array", true),
            ("forward", "field.added.optional", "cfg.extra", "added object", false),
        ],
    );
    // An implied required parent is not reported: its required fields are,
    // and an optional implied parent below it is the root of its subtree.
    check(
        ID,
        &format!(
            r#"{ID}, {{"name": "a.b", "type": "string"}}, {{"name": "a.c", "type": "integer", "required": false}},
               {{"name": "a.d.e", "type": "string", "required": false}}"#
        ),
        &[
            ("breaking", "field.added.required", "a.b", "added string", true),
            ("forward", "field.added.optional", "a.c", "added integer", false),
            ("forward", "field.added.optional", "a.d", "added object", false),
        ],
    );
}

#[test]
fn a_required_child_under_an_existing_optional_parent_still_breaks() {
    // An old body with the parent but without the new child is rejected.
    let cases = [
        // A declared optional parent.
        (
            r#"{"name": "opts", "type": "object", "required": false}, {"name": "opts.level", "type": "integer", "required": false}"#,
            r#"{"name": "opts", "type": "object", "required": false}, {"name": "opts.level", "type": "integer", "required": false},
               {"name": "opts.mode", "type": "string"}"#,
            "opts.mode",
        ),
        // The elements of an optional array.
        (
            r#"{"name": "items", "type": "array", "required": false}, {"name": "items[].x", "type": "integer"}"#,
            r#"{"name": "items", "type": "array", "required": false}, {"name": "items[].x", "type": "integer"},
               {"name": "items[].y", "type": "string"}"#,
            "items[].y",
        ),
        // An implied optional parent (the new child makes it required too).
        (
            r#"{"name": "opts.level", "type": "integer", "required": false}"#,
            r#"{"name": "opts.level", "type": "integer", "required": false}, {"name": "opts.mode", "type": "string"}"#,
            "opts.mode",
        ),
    ];
    for (old_fields, new_fields, field) in cases {
        let d = check(old_fields, new_fields, &[("breaking", "field.added.required", field, "added string", true)]);
        // The witness has the parent (so the child's absence is what the new
        // revision flags), the old revision accepts it with no finding and
        // the new one reports exactly the missing child.
        let w = d.changes()[0].witness().expect("witness");
        let (old, new) = (contract("1.0.0", false, old_fields), contract("2.0.0", false, new_fields));
        assert!(old.validate_json(w.as_bytes()).findings().is_empty(), "{w}");
        let after = new.validate_json(w.as_bytes());
        let got: Vec<(&str, String)> =
            after.findings().iter().map(|f| (f.rule(), f.field().replace("[0]", "[]"))).collect();
        assert_eq!(got, [("field.required", field.to_string())], "{w}");
    }
}

#[test]
fn required_flags_compare_relative_to_the_parent() {
    // A required child under an optional parent both revisions have.
    check(
        r#"{"name": "opts", "type": "object", "required": false}, {"name": "opts.mode", "type": "string", "required": false}"#,
        r#"{"name": "opts", "type": "object", "required": false}, {"name": "opts.mode", "type": "string"}"#,
        &[("breaking", "field.required.tightened", "opts.mode", "optional -> required", true)],
    );
    // The elements of a declared array have no requiredness of their own:
    // an array declared on one side and implied by its elements on the other
    // changes at the array only.
    let declared = |req: bool, element_req: bool| {
        format!(
            r#"{{"name": "tags", "type": "array", "required": {req}}}, {{"name": "tags[]", "type": "string", "required": {element_req}}}"#
        )
    };
    let implied = |element_req: bool| format!(r#"{{"name": "tags[]", "type": "string", "required": {element_req}}}"#);
    check(&declared(true, false), &implied(true), &[]);
    check(&implied(true), &declared(true, false), &[]);
    check(&declared(false, true), &implied(false), &[]);
    check(&declared(false, false), &implied(false), &[]);
    check(
        &declared(false, false),
        &implied(true),
        &[("breaking", "field.required.tightened", "tags", "optional -> required", true)],
    );
    check(
        &implied(true),
        &declared(false, true),
        &[("forward", "field.required.relaxed", "tags", "required -> optional", false)],
    );
    // Both implied: the element's own flag is the array's.
    check(
        &implied(false),
        &implied(true),
        &[("breaking", "field.required.tightened", "tags[]", "optional -> required", true)],
    );
}

/// A real revision pair: GitHub's MCP server added the optional array
/// `field_filters` (each element an object with required `field_name` and
/// `value`) to its `list_issues` tool. The contracts are hand translations of
/// `pkg/github/__toolsnaps__/list_issues.snap` of github/github-mcp-server
/// (MIT, `tests/data/contracts/github-mcp-server/LICENSE`) at commits
/// 87a1110c (1.0.0) and 13e7f10f (1.1.0), taken from the anchors' tool
/// history (`anchors/tool-revisions/github-mcp-server/history.jsonl`).
#[test]
fn github_list_issues_gaining_field_filters_is_forward() {
    let v1 = data("contracts/github-mcp-server/list_issues_1.0.0.json");
    let v11 = data("contracts/github-mcp-server/list_issues_1.1.0.json");
    let (old, new) = (ContractSpec::from_path(&v1).unwrap(), ContractSpec::from_path(&v11).unwrap());
    let d = diff(&old, &new).unwrap();
    let got: Vec<(Impact, &str, &str, &str)> =
        d.changes().iter().map(|c| (c.impact(), c.rule(), c.field(), c.message())).collect();
    // The contracts' provenance note (their `doc`) names another commit:
    // quoted from a little before the difference.
    let note = "doc ...'t_issues.snap at commit 87a1110c15e4a9d3935707fb2da8d87f0e581c96 (2026-01-15, \"Implement recursive JSON key sorting for ...' -> ...'t_issues.snap at commit 13e7f10fc8ddff977e02043aec4574d9c8ded8ec (2026-05-21, \"Add custom field filtering to list_issues...'";
    assert_eq!(
        got,
        [
            (Impact::Forward, "field.added.optional", "field_filters", "added array"),
            (Impact::Compatible, "annotation.changed", "<contract>", note)
        ]
    );
    assert_eq!(d.compatibility(), Impact::Forward);
    let out = run(bin!(), &["diff", v1.to_str().unwrap(), v11.to_str().unwrap()]);
    let want = format!("github.list_issues: 1.0.0 -> 1.1.0\ncompatibility: FORWARD\n  forward field.added.optional field_filters: added array\n  compatible annotation.changed <contract>: {note}\n");
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (0, want.as_str(), ""));
    // And back: the optional array removed.
    let out = run(bin!(), &["diff", v11.to_str().unwrap(), v1.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(out.stdout.contains("  forward field.removed.optional field_filters: removed array\n"), "{}", out.stdout);
}
