//! The generated check of a schema-form contract (`Contract::fast_path`,
//! `codegen/schema_check.rs`) against the runtime's schema walker: the same
//! verdict and, through `Contract::validate_json`, the same findings, on a
//! contract that uses every construct the generator compiles (closed
//! objects, typed maps, tagged and untagged `anyOf`, an untagged `oneOf`,
//! arrays with bounds and `uniqueItems`, a recursive `$ref`, a recursive
//! untagged union (left to the walker), formats,
//! patterns) and some it hands to the walker (`enum` with an object member,
//! `allOf`, `patternProperties`, `prefixItems`, `false`), on hand-written
//! bodies (escaped keys, repeated keys, a tag that is not the first key) and
//! on mutants of them.

use protocolarc::Contract;
use serde_json::Value;

mod cover {
    /// The contract under test.
    #[protocolarc::contract("data/contracts/schema_check/cover_1.0.0.json")]
    pub struct Cover;
}
use cover::Cover;

const BODIES: &[&str] = &[
    r#"{"blocks": [{"type": "text", "text": "hi"}]}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}, {"type": "image", "data": "iVBORw0KGgo=", "uri": "https://x.example/a?b#c"}]}"#,
    // The tag after other keys.
    r#"{"blocks": [{"text": "hi", "type": "text"}, {"data": "QUJD", "extra": [1, {"k": null}], "type": "image"}]}"#,
    // The tag missing, unknown, not a string, escaped.
    r#"{"blocks": [{"text": "hi"}]}"#,
    r#"{"blocks": [{"type": "video", "text": "hi"}]}"#,
    r#"{"blocks": [{"type": 1, "text": "hi"}]}"#,
    r#"{"blocks": [{"type": "te\u0078t", "text": "hi"}]}"#,
    // Not an object where the union is.
    r#"{"blocks": ["text"]}"#,
    r#"{"blocks": []}"#,
    // Closed object, bounds, formats.
    r#"{"blocks": [{"type": "text", "text": "hi", "more": 1}]}"#,
    r#"{"blocks": [{"type": "text", "text": ""}]}"#,
    r#"{"blocks": [{"type": "image", "data": "not base64!"}]}"#,
    r#"{"blocks": [{"type": "image", "data": "QUJD", "uri": "no scheme"}]}"#,
    // Escaped keys: the walker reads the object again.
    r#"{"blocks": [{"type": "text", "te\u0078t": "hi"}]}"#,
    r#"{"bl\u006fcks": [{"type": "text", "text": "hi"}]}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "\u0061ny": 1}"#,
    // Repeated keys, declared and undeclared.
    r#"{"blocks": [{"type": "text", "text": "hi"}], "blocks": []}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "z": 1, "z": 2}"#,
    r#"{"blocks": [{"type": "image", "data": "QUJD", "q": 1, "q": 1}]}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "any": {"a": 1, "a": 2}}"#,
    // Untagged anyOf.
    r#"{"blocks": [{"type": "text", "text": "hi"}], "file": {"bytes": "x"}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "file": {"uri": "https://a", "name": "n"}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "file": {"uri": "ftp://a"}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "file": {"name": "n"}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "file": {"bytes": "x", "uri": "ftp://a"}}"#,
    // Untagged oneOf: 5 is both an integer >= 0 and a number <= 10.
    r#"{"blocks": [{"type": "text", "text": "hi"}], "exactly": 5}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "exactly": 50}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "exactly": -2.5}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "exactly": 5.0}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "exactly": -3}"#,
    // uniqueItems, enum.
    r#"{"blocks": [{"type": "text", "text": "hi"}], "tags": ["a", "b"]}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "tags": ["a", "b", "a"]}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "tags": ["a", "d"]}"#,
    // Typed map.
    r#"{"blocks": [{"type": "text", "text": "hi"}], "counts": {"x": 1, "y": 2}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "counts": {"x": 0}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "counts": {"a": 1, "b": 1, "c": 1, "d": 1}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "counts": {"x": 1, "x": 1}}"#,
    // Recursion.
    r#"{"blocks": [{"type": "text", "text": "hi"}], "tree": {"label": "r", "children": [{"label": "a", "children": [{"label": "b"}]}]}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "tree": {"label": "r", "children": [{"label": "a", "children": [{"x": 1}]}]}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "tree": {"label": "r", "children": [{"label": "a"}, {"label": "b"}, {"label": "c"}, {"label": "d"}]}}"#,
    // Handed to the walker.
    r#"{"blocks": [{"type": "text", "text": "hi"}], "mode": "fast"}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "mode": {"slow": true}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "mode": {"slow": false}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "both": {"x": true}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "both": {"x": 1}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "both": {}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "pat": {"n_a": 1, "m": "x"}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "pat": {"n_a": "x"}}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "pair": ["a", 1]}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "pair": ["a", 1, 2]}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "when": "2025-05-03T14:30:00Z"}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "when": "yesterday"}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "nothing": null}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}], "any": [1, "x", {"y": [null]}]}"#,
    // Syntax.
    r#"{"blocks": [{"type": "text", "text": "hi"}],}"#,
    r#"{"blocks": [{"type": "text", "text": "hi"}]} x"#,
    r#"{"blocks": [{"type": "text" "text": "hi"}]}"#,
    r#"[]"#,
    r#"{}"#,
];

/// Every key dropped, every value replaced by one of each other type.
fn mutants(v: &Value, out: &mut Vec<Value>, edit: &mut dyn FnMut(Option<Value>) -> Value) {
    for other in [Value::Null, Value::from(7), Value::from(-1.5), Value::from("s"), Value::from(true)] {
        if std::mem::discriminant(&other) != std::mem::discriminant(v) {
            out.push(edit(Some(other)));
        }
    }
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                out.push(edit(Some(Value::Object(
                    map.iter().filter(|(x, _)| *x != k).map(|(a, b)| (a.clone(), b.clone())).collect(),
                ))));
                let mut inner = |with: Option<Value>| {
                    let mut m = map.clone();
                    match with {
                        Some(w) => m[k] = w,
                        None => drop(m.remove(k)),
                    }
                    edit(Some(Value::Object(m)))
                };
                mutants(child, out, &mut inner);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let mut inner = |with: Option<Value>| {
                    let mut a = items.clone();
                    match with {
                        Some(w) => a[i] = w,
                        None => drop(a.remove(i)),
                    }
                    edit(Some(Value::Array(a)))
                };
                mutants(child, out, &mut inner);
            }
        }
        _ => {}
    }
}

fn check(bytes: &[u8]) -> bool {
    let spec = Cover::spec();
    let runtime = spec.validate_json(bytes);
    let text = String::from_utf8_lossy(bytes);
    assert_eq!(Cover::fast_path(bytes), runtime.is_valid(), "verdicts differ on {text}: runtime {runtime}");
    assert_eq!(Cover::validate_json(bytes), runtime, "findings differ on {text}");
    runtime.is_valid()
}

#[test]
fn the_generated_check_gives_the_runtime_verdict_and_findings() {
    let (mut valid, mut total) = (0, 0);
    for body in BODIES {
        valid += usize::from(check(body.as_bytes()));
        total += 1;
        let Ok(value) = serde_json::from_str::<Value>(body) else { continue };
        let mut out = Vec::new();
        mutants(&value, &mut out, &mut |with| with.unwrap_or(Value::Null));
        for m in out {
            valid += usize::from(check(&serde_json::to_vec(&m).unwrap()));
            total += 1;
        }
    }
    assert!(total > 1000, "{total} bodies");
    assert!(valid > 100 && valid < total - 100, "{valid} of {total} valid: both verdicts must be exercised");
}

#[test]
fn a_recursive_untagged_union_costs_one_walk_per_level() {
    // Each level's first member fails (one element), the second passes: tried
    // in code without a memo this would be 2^60 member walks.
    let body =
        format!(r#"{{"blocks": [{{"type": "text", "text": "hi"}}], "nest": {}1{}}}"#, "[".repeat(60), "]".repeat(60));
    assert!(check(body.as_bytes()));
    let bad = body.replace("1]", "\"x\"]");
    assert!(!check(bad.as_bytes()));
}

#[test]
fn a_nested_union_is_exact_at_any_depth() {
    let mut deep = String::from(r#"{"label": "leaf"}"#);
    for i in 0..40 {
        deep = format!(r#"{{"label": "n{i}", "children": [{deep}]}}"#);
    }
    let body = format!(r#"{{"blocks": [{{"type": "text", "text": "hi"}}], "tree": {deep}}}"#);
    assert!(check(body.as_bytes()));
    let bad = body.replacen(r#""label": "leaf""#, r#""label": 1"#, 1);
    assert!(!check(bad.as_bytes()));
}
