//! A node's keywords judged together, not one by one (SPEC §11): the
//! integer lattice (`exclusiveMinimum: 4` is `minimum: 5` on integers, a
//! `multipleOf` that divides 1 rejects no integer, a `number` with
//! `multipleOf: 1` holds integers), length bounds a pattern already implies,
//! and schemas applied to the same instance (`then`, `else`, `allOf`, a
//! `$ref` beside siblings, `not`) judged on the values the schema around
//! them lets through. Where no value tells two revisions apart the verdict
//! is compatible with no change; where one does, the change names it and
//! its witness passes the accepting revision and fails the other (checked
//! by `judged`, with both validators).

use protocolarc::diff::Impact;
use protocolarc::ContractDirection;

use super::conjuncts::{judged, schema};

/// Values that probe numeric and string keywords from every side.
const PROBES: &[&str] = &[
    "-2", "-1", "0", "0.5", "1", "1.5", "2", "3", "4", "4.5", "5", "5.5", "6", "9", "9.5", "10", "11", "\"\"", "\"a\"",
    "\"abc\"", "\"abcd\"", "\"ABC\"", "\"ab1\"", "null", "true", "[]", "{}",
];

/// Asserts that `a` and `b` accept exactly the same probe values (the
/// claim the pair stands for), and that the diff finds no change between
/// them, in either order and either direction.
fn same_values(a: &str, b: &str) {
    let (x, y) = (schema("1.0.0", a), schema("2.0.0", b));
    for v in PROBES {
        let (p, q) = (x.validate_json(v.as_bytes()).is_valid(), y.validate_json(v.as_bytes()).is_valid());
        assert_eq!(p, q, "{v}: {a} says {p}, {b} says {q}");
    }
    for (old, new) in [(a, b), (b, a)] {
        for direction in [ContractDirection::Request, ContractDirection::Response] {
            let (verdict, changes) = judged(old, new, direction);
            assert_eq!((verdict, changes), (Impact::Compatible, Vec::<String>::new()), "{old} -> {new} {direction:?}");
        }
    }
}

/// Asserts the verdict and changes of `old -> new` in each direction.
fn verdicts(old: &str, new: &str, request: (Impact, &[&str]), response: (Impact, &[&str])) {
    for (direction, (impact, lines)) in [(ContractDirection::Request, request), (ContractDirection::Response, response)]
    {
        let (verdict, changes) = judged(old, new, direction);
        let want: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        assert_eq!((verdict, changes), (impact, want), "{old} -> {new} {direction:?}");
    }
}

#[test]
fn bounds_spelled_differently_on_integers_are_one_bound() {
    for (a, b) in [
        (r#"{"type": "integer", "exclusiveMinimum": 4}"#, r#"{"type": "integer", "minimum": 5}"#),
        (r#"{"type": "integer", "minimum": 4.5}"#, r#"{"type": "integer", "minimum": 5}"#),
        (r#"{"type": "integer", "exclusiveMinimum": 4.5}"#, r#"{"type": "integer", "exclusiveMinimum": 4}"#),
        (r#"{"type": "integer", "exclusiveMaximum": 10}"#, r#"{"type": "integer", "maximum": 9}"#),
        (r#"{"type": "integer", "maximum": 9.5}"#, r#"{"type": "integer", "exclusiveMaximum": 10}"#),
        (r#"{"type": "integer", "minimum": -1.5}"#, r#"{"type": "integer", "exclusiveMinimum": -2}"#),
    ] {
        same_values(a, b);
    }
}

#[test]
fn multiple_of_on_integers_counts_the_integers_it_lets_through() {
    for (a, b) in [
        // Every integer is a multiple of 0.5: no constraint on integers.
        (r#"{"type": "integer", "multipleOf": 0.5}"#, r#"{"type": "integer"}"#),
        // The integer multiples of 0.4 are the even numbers.
        (r#"{"type": "integer", "multipleOf": 0.4}"#, r#"{"type": "integer", "multipleOf": 2}"#),
    ] {
        same_values(a, b);
    }
    // A step that is not a multiple of the old one on integers: both ways.
    verdicts(
        r#"{"type": "integer", "multipleOf": 0.5}"#,
        r#"{"type": "integer", "multipleOf": 1.5}"#,
        (Impact::Breaking, &["breaking field.multipleOf.tightened <data>: multipleOf 0.5 -> 1.5 1"]),
        (Impact::Forward, &["forward field.multipleOf.tightened <data>: multipleOf 0.5 -> 1.5"]),
    );
}

#[test]
fn a_number_that_holds_integers_only_is_an_integer() {
    for (a, b) in [
        (r#"{"type": "number", "multipleOf": 1}"#, r#"{"type": "integer"}"#),
        (
            r#"{"type": "number", "multipleOf": 2, "exclusiveMinimum": 0}"#,
            r#"{"type": "integer", "multipleOf": 2, "minimum": 1}"#,
        ),
        // Bounds that pin one integer.
        (r#"{"type": "number", "minimum": 1, "maximum": 1}"#, r#"{"type": "integer", "minimum": 1, "maximum": 1}"#),
        // Bounds that no integer lies between hold no integer: the type
        // change is invisible.
        (r#"{"type": ["string", "integer"], "minimum": 4.2, "maximum": 4.8}"#, r#"{"type": "string"}"#),
    ] {
        same_values(a, b);
    }
}

#[test]
fn an_integer_bound_that_moves_names_the_integer_between() {
    verdicts(
        r#"{"type": "integer", "exclusiveMinimum": 4}"#,
        r#"{"type": "integer", "minimum": 6}"#,
        (Impact::Breaking, &["breaking field.minimum.tightened <data>: exclusiveMinimum 4 -> minimum 6 5"]),
        (Impact::Forward, &["forward field.minimum.tightened <data>: exclusiveMinimum 4 -> minimum 6"]),
    );
    // Dropping `multipleOf: 1` from a number lets fractions through.
    verdicts(
        r#"{"type": "number", "multipleOf": 1}"#,
        r#"{"type": "number"}"#,
        (Impact::Forward, &["forward field.multipleOf.relaxed <data>: multipleOf 1 -> (none)"]),
        (Impact::Breaking, &["breaking field.multipleOf.relaxed <data>: multipleOf 1 -> (none) 0.5"]),
    );
    // A number narrowed to integers at the same bound: the fraction between.
    verdicts(
        r#"{"type": "number", "exclusiveMinimum": 4}"#,
        r#"{"type": "integer", "minimum": 5}"#,
        (Impact::Breaking, &["breaking field.type.narrowed <data>: number -> integer 4.5"]),
        (Impact::Forward, &["forward field.type.narrowed <data>: number -> integer"]),
    );
}

#[test]
fn a_length_the_pattern_implies_changes_nothing() {
    for (a, b) in [
        (
            r#"{"type": "string", "pattern": "^[a-z]{3}$", "minLength": 1}"#,
            r#"{"type": "string", "pattern": "^[a-z]{3}$", "minLength": 3}"#,
        ),
        (
            r#"{"type": "string", "pattern": "^[a-z]{3}$"}"#,
            r#"{"type": "string", "pattern": "^[a-z]{3}$", "maxLength": 3}"#,
        ),
        // The pattern moved into the length bound: the same strings.
        (
            r#"{"type": "string", "pattern": "^[a-z]{1,3}$"}"#,
            r#"{"type": "string", "pattern": "^[a-z]+$", "maxLength": 3}"#,
        ),
    ] {
        same_values(a, b);
    }
    // A length bound that cuts into what the pattern allows: the string between.
    verdicts(
        r#"{"type": "string", "pattern": "^[a-z]{1,5}$"}"#,
        r#"{"type": "string", "pattern": "^[a-z]{1,5}$", "maxLength": 3}"#,
        (Impact::Breaking, &[r#"breaking field.maxLength.tightened <data>: (none) -> maxLength 3 "aaaa""#]),
        (Impact::Forward, &["forward field.maxLength.tightened <data>: (none) -> maxLength 3"]),
    );
}

#[test]
fn then_and_else_are_judged_under_the_schema_beside_them() {
    // Apicurio's "Conditional: then" and "else": the outer schema holds
    // strings only, so `then` gaining `type: string` changes nothing.
    for branch in ["then", "else"] {
        let with = |inner: &str| format!(r#"{{"type": "string", "if": {{"maxLength": 3}}, "{branch}": {inner}}}"#);
        same_values(&with(r#"{"pattern": "[a-z]*"}"#), &with(r#"{"type": "string"}"#));
        same_values(&with(r#"{"maxLength": 9}"#), &with(r#"{"type": "string", "maxLength": 9}"#));
    }
    // What the branch says of strings still counts.
    verdicts(
        r#"{"type": "string", "if": {"maxLength": 3}, "then": {"type": "string"}}"#,
        r#"{"type": "string", "if": {"maxLength": 3}, "then": {"type": "string", "pattern": "^[a-z]*$"}}"#,
        (Impact::Breaking, &[r#"breaking field.pattern.tightened <data>: (none) -> pattern '^[a-z]*$' "0""#]),
        (Impact::Forward, &[r#"forward field.pattern.tightened <data>: (none) -> pattern '^[a-z]*$'"#]),
    );
}

#[test]
fn all_of_and_a_ref_beside_siblings_are_judged_under_the_schema_beside_them() {
    same_values(
        r#"{"type": "string", "allOf": [{"maxLength": 5}]}"#,
        r#"{"type": "string", "allOf": [{"type": "string", "maxLength": 5}]}"#,
    );
    // A `$ref` beside `type: integer`: its number bound is one on integers.
    same_values(
        r##"{"type": "integer", "$ref": "#/$defs/n", "$defs": {"n": {"type": "number", "exclusiveMinimum": 0}}}"##,
        r##"{"type": "integer", "$ref": "#/$defs/n", "$defs": {"n": {"minimum": 1}}}"##,
    );
}

#[test]
fn not_is_judged_on_the_values_the_schema_beside_it_holds() {
    // A `not` of integers beside `type: string` rejects no string.
    same_values(r#"{"type": "string"}"#, r#"{"type": "string", "not": {"type": "integer"}}"#);
    same_values(
        r#"{"type": "string", "not": {"type": "integer"}}"#,
        r#"{"type": "string", "not": {"type": "number"}}"#,
    );
    // One that rejects strings is a tightening, with the string it rejects.
    verdicts(
        r#"{"type": "string", "not": {"type": "integer"}}"#,
        r#"{"type": "string", "not": {"maxLength": 0}}"#,
        (Impact::Breaking, &[r#"breaking field.not.tightened <data>: no not -> not """#]),
        (Impact::Forward, &["forward field.not.tightened <data>: no not -> not"]),
    );
}

#[test]
fn contains_beside_max_contains_changes_both_ways() {
    // Fewer elements match: the minimum is harder to meet, the maximum easier.
    let old = r#"{"type": "array", "contains": {"type": "string"}, "maxContains": 2}"#;
    let new = r#"{"type": "array", "contains": {"type": "string", "minLength": 2}, "maxContains": 2}"#;
    let (o, n) = (schema("1.0.0", old), schema("2.0.0", new));
    assert!(o.validate_json(br#"["a"]"#).is_valid() && !n.validate_json(br#"["a"]"#).is_valid());
    assert!(n.validate_json(br#"["a", "a", "aa"]"#).is_valid() && !o.validate_json(br#"["a", "a", "aa"]"#).is_valid());
    for direction in [ContractDirection::Request, ContractDirection::Response] {
        let (verdict, changes) = judged(old, new, direction);
        assert_eq!(verdict, Impact::Breaking, "{direction:?}");
        assert_eq!(changes.len(), 1, "{changes:?}");
        let want = "breaking field.contains.changed <data>: contains: field.minLength.tightened <data>: (none) -> \
                    minLength 2 (beside maxContains)";
        assert!(changes[0].starts_with(want), "{direction:?}: {changes:?}");
    }
}

/// A `format` every listed value already meets changes nothing where an
/// `enum` fixes the values; one a listed value fails removes that value.
#[test]
fn a_format_beside_an_enum_is_judged_on_the_listed_values() {
    let listed = r#"{"type": "string", "enum": ["a@example.com", "b@example.org"]}"#;
    let formatted = r#"{"type": "string", "enum": ["a@example.com", "b@example.org"], "format": "email"}"#;
    let x = schema("1.0.0", formatted);
    for v in [r#""a@example.com""#, r#""b@example.org""#] {
        assert!(x.validate_json(v.as_bytes()).is_valid(), "{v} is an email");
    }
    same_values(listed, formatted);
}
