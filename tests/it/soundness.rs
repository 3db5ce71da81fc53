//! Soundness of the compatibility verdicts (SPEC §5), by property test.
//!
//! Random pairs of contracts are drawn from a fixed set of slots (top-level
//! fields, a nested object, an array and its elements, keys inside array
//! elements), the new revision a mutation of the old one. The claim checked is
//! exactly the one the README makes for `forward`: whenever the verdict is
//! `compatible` or `forward`, every envelope the old revision accepts **and
//! that sends no key the old revision leaves undeclared** is accepted by the
//! new one (undeclared keys are outside the contract: a new revision may give
//! them a meaning, so random envelopes use only the old revision's declared
//! fields). Whenever a witness is printed, the old revision must accept it
//! with no finding and the new one must flag it.

use proptest::prelude::*;
use protocolarc::diff::{diff, Impact};
use protocolarc::ContractSpec;
use serde_json::{json, Map, Value};

const SCALAR_TYPES: [&str; 5] = ["string", "integer", "number", "boolean", "null"];
const STRINGS: [&str; 8] = ["", "a", "ab", "ba", "abc", "b", "aaaaaa", "xyz"];
const NUMBERS: [&str; 14] = ["0", "1", "-1", "1.5", "2", "3", "4.5", "5", "10", "-0.5", "6", "0.5", "1.0", "12"];

/// A scalar field's description, as JSON keywords.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    types: Vec<&'static str>,
    required: bool,
    keywords: Vec<(&'static str, Value)>,
}

fn number(text: &str) -> Value {
    serde_json::from_str(text).expect("number")
}

fn scalar_spec() -> impl Strategy<Value = Spec> {
    let types = prop::sample::subsequence(SCALAR_TYPES.to_vec(), 1..=3);
    let bound = prop::option::weighted(0.3, prop::sample::select(vec!["-1", "0", "1", "1.5", "3", "5"]));
    let upper = prop::option::weighted(0.3, prop::sample::select(vec!["2", "5", "6", "10", "12"]));
    let multiple = prop::option::weighted(0.2, prop::sample::select(vec!["0.5", "1", "2", "3"]));
    let min_len = prop::option::weighted(0.2, 0u64..3);
    let max_len = prop::option::weighted(0.2, 1u64..6);
    let pattern = prop::option::weighted(0.2, prop::sample::select(vec!["^a", "b", "^[ab]*$", "a|b"]));
    let exclusive = (any::<bool>(), any::<bool>());
    let enumerate = prop::option::weighted(0.2, prop::sample::subsequence((0..6usize).collect::<Vec<_>>(), 1..4));
    (types, any::<bool>(), bound, upper, multiple, min_len, max_len, pattern, exclusive, enumerate).prop_map(
        |(types, required, lo, hi, m, min_len, max_len, pattern, (xlo, xhi), enumerate)| {
            let numeric = types.iter().any(|t| *t == "integer" || *t == "number");
            let textual = types.contains(&"string");
            let mut keywords = Vec::new();
            if numeric {
                if let Some(lo) = lo {
                    keywords.push((if xlo { "exclusiveMinimum" } else { "minimum" }, number(lo)));
                }
                if let Some(hi) = hi {
                    keywords.push((if xhi { "exclusiveMaximum" } else { "maximum" }, number(hi)));
                }
                if let Some(m) = m {
                    keywords.push(("multipleOf", number(m)));
                }
            }
            if textual {
                if let Some(n) = min_len {
                    keywords.push(("minLength", json!(n)));
                }
                if let Some(n) = max_len {
                    keywords.push(("maxLength", json!(n)));
                }
                if let Some(p) = pattern {
                    keywords.push(("pattern", json!(p)));
                }
            }
            if let Some(picks) = enumerate {
                // Enum members of the field's own types only.
                let mut pool: Vec<Value> = Vec::new();
                if textual {
                    pool.extend(["a", "b", "ab"].map(Value::from));
                }
                if types.contains(&"integer") || types.contains(&"number") {
                    pool.extend(["1", "2", "5"].map(number));
                }
                if types.contains(&"number") {
                    pool.push(number("1.5"));
                }
                if types.contains(&"boolean") {
                    pool.push(Value::Bool(true));
                }
                if types.contains(&"null") {
                    pool.push(Value::Null);
                }
                let members: Vec<Value> = picks.iter().filter_map(|&i| pool.get(i).cloned()).collect();
                if !members.is_empty() {
                    keywords.push(("enum", Value::Array(members)));
                }
            }
            Spec { types, required, keywords }
        },
    )
}

/// How the new revision's slot derives from the old one's.
#[derive(Debug, Clone)]
enum Mutation {
    Keep,
    Regenerate(Option<Spec>),
    DropKeyword(usize),
    AddType(&'static str),
    DropType(usize),
    FlipRequired,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => Just(Mutation::Keep),
        1 => prop::option::weighted(0.7, scalar_spec()).prop_map(Mutation::Regenerate),
        1 => (0usize..4).prop_map(Mutation::DropKeyword),
        1 => prop::sample::select(SCALAR_TYPES.to_vec()).prop_map(Mutation::AddType),
        1 => (0usize..3).prop_map(Mutation::DropType),
        1 => Just(Mutation::FlipRequired),
    ]
}

fn mutate(old: &Option<Spec>, m: &Mutation) -> Option<Spec> {
    let mut s = old.clone();
    match (m, &mut s) {
        (Mutation::Keep, _) => {}
        (Mutation::Regenerate(spec), _) => return spec.clone(),
        (Mutation::DropKeyword(i), Some(spec)) if *i < spec.keywords.len() => {
            spec.keywords.remove(*i);
        }
        (Mutation::AddType(t), Some(spec)) if !spec.types.contains(t) => spec.types.push(t),
        (Mutation::DropType(i), Some(spec)) if spec.types.len() > 1 && *i < spec.types.len() => {
            spec.types.remove(*i);
        }
        (Mutation::FlipRequired, Some(spec)) => spec.required = !spec.required,
        _ => {}
    }
    s
}

/// The slots a contract is made of, in order.
const SLOTS: [&str; 7] = ["a", "b", "o.x", "o.y", "arr[]", "list[].k", "list[].m"];

/// `arr` itself: (minItems, maxItems, uniqueItems).
pub(crate) type ArrSpec = (Option<u64>, Option<u64>, bool);

#[derive(Debug, Clone)]
pub(crate) struct Pair {
    pub(crate) old: Vec<Option<Spec>>,
    pub(crate) new: Vec<Option<Spec>>,
    pub(crate) strict: (bool, bool),
    /// `arr` itself in old and new, if declared.
    pub(crate) arr: (Option<ArrSpec>, Option<ArrSpec>),
}

pub(crate) fn pair() -> impl Strategy<Value = Pair> {
    let slots = prop::collection::vec((prop::option::weighted(0.6, scalar_spec()), mutation()), SLOTS.len());
    let arr = prop::option::weighted(0.5, (prop::option::of(0u64..3), prop::option::of(1u64..4), any::<bool>()));
    (slots, any::<(bool, bool)>(), arr.clone(), arr, any::<bool>()).prop_map(
        |(slots, strict, arr_old, arr_new, same)| {
            let old: Vec<Option<Spec>> = slots.iter().map(|(s, _)| s.clone()).collect();
            let new: Vec<Option<Spec>> = slots.iter().map(|(s, m)| mutate(s, m)).collect();
            let arr_new = if same { arr_old } else { arr_new };
            Pair { old, new, strict, arr: (arr_old, arr_new) }
        },
    )
}

fn contract(
    revision: &str,
    strict: bool,
    slots: &[Option<Spec>],
    arr: Option<(Option<u64>, Option<u64>, bool)>,
) -> Option<ContractSpec> {
    contract_in(revision, strict, slots, arr, None)
}

/// The contract of `slots`, with `direction` written in it when given.
pub(crate) fn contract_in(
    revision: &str,
    strict: bool,
    slots: &[Option<Spec>],
    arr: Option<ArrSpec>,
    direction: Option<&str>,
) -> Option<ContractSpec> {
    let mut fields = Vec::new();
    if let Some((min, max, unique)) = arr {
        let mut f = Map::new();
        f.insert("name".into(), json!("arr"));
        f.insert("type".into(), json!("array"));
        f.insert("required".into(), json!(false));
        if let Some(n) = min {
            f.insert("minItems".into(), json!(n));
        }
        if let Some(n) = max {
            f.insert("maxItems".into(), json!(n));
        }
        f.insert("uniqueItems".into(), json!(unique));
        fields.push(Value::Object(f));
    }
    for (slot, spec) in SLOTS.iter().zip(slots) {
        let Some(spec) = spec else { continue };
        let mut f = Map::new();
        f.insert("name".into(), json!(slot));
        f.insert("type".into(), json!(spec.types));
        f.insert("required".into(), json!(spec.required));
        for (k, v) in &spec.keywords {
            f.insert(k.to_string(), v.clone());
        }
        fields.push(Value::Object(f));
    }
    let mut doc = json!({"name": "prop.c", "revision": revision, "strict": strict, "fields": fields});
    if let Some(d) = direction {
        doc["direction"] = json!(d);
    }
    // Random keyword mixes can be contradictory (minimum above maximum): those
    // are not contracts, and the loader says so.
    ContractSpec::from_slice(doc.to_string().as_bytes(), revision).ok()
}

fn scalar_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(STRINGS.to_vec()).prop_map(Value::from),
        prop::sample::select(NUMBERS.to_vec()).prop_map(number),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
    ]
}

/// A body using only keys the slots can declare.
pub(crate) fn body() -> impl Strategy<Value = Value> {
    let maybe = || prop::option::weighted(0.8, scalar_value());
    let element = (prop::option::weighted(0.8, scalar_value()), prop::option::weighted(0.8, scalar_value()));
    (
        maybe(),
        maybe(),
        prop::option::weighted(0.8, (maybe(), maybe())),
        prop::option::weighted(0.7, prop::collection::vec(scalar_value(), 0..5)),
        prop::option::weighted(0.7, prop::collection::vec(element, 0..3)),
    )
        .prop_map(|(a, b, o, arr, list)| {
            let mut m = Map::new();
            if let Some(a) = a {
                m.insert("a".into(), a);
            }
            if let Some(b) = b {
                m.insert("b".into(), b);
            }
            if let Some((x, y)) = o {
                let mut inner = Map::new();
                if let Some(x) = x {
                    inner.insert("x".into(), x);
                }
                if let Some(y) = y {
                    inner.insert("y".into(), y);
                }
                m.insert("o".into(), Value::Object(inner));
            }
            if let Some(arr) = arr {
                m.insert("arr".into(), Value::Array(arr));
            }
            if let Some(list) = list {
                let items = list
                    .into_iter()
                    .map(|(k, v)| {
                        let mut e = Map::new();
                        if let Some(k) = k {
                            e.insert("k".into(), k);
                        }
                        if let Some(v) = v {
                            e.insert("m".into(), v);
                        }
                        Value::Object(e)
                    })
                    .collect();
                m.insert("list".into(), Value::Array(items));
            }
            Value::Object(m)
        })
}

/// Keeps only the keys the old revision declares (a new optional field may
/// reject a value the old revision left open: that is SPEC's `forward`).
pub(crate) fn declared_only(body: Value, p: &Pair) -> Value {
    declared_in(body, &p.old, p.arr.0)
}

/// Keeps only the keys `slots` (and `arr`) declare.
pub(crate) fn declared_in(body: Value, slots: &[Option<Spec>], arr: Option<ArrSpec>) -> Value {
    let has = |slot: &str| SLOTS.iter().position(|s| *s == slot).is_some_and(|i| slots[i].is_some());
    let Value::Object(mut m) = body else { return body };
    for key in ["a", "b"] {
        if !has(key) {
            m.remove(key);
        }
    }
    if let Some(Value::Object(o)) = m.get_mut("o") {
        for key in ["x", "y"] {
            if !has(&format!("o.{key}")) {
                o.remove(key);
            }
        }
    }
    if !has("o.x") && !has("o.y") {
        m.remove("o");
    }
    if !has("arr[]") && arr.is_none() {
        m.remove("arr");
    }
    if let Some(Value::Array(items)) = m.get_mut("list") {
        for item in items.iter_mut() {
            if let Value::Object(e) = item {
                for key in ["k", "m"] {
                    if !has(&format!("list[].{key}")) {
                        e.remove(key);
                    }
                }
            }
        }
    }
    if !has("list[].k") && !has("list[].m") {
        m.remove("list");
    }
    Value::Object(m)
}

proptest! {
    // Random keyword mixes are often not contracts: those cases are rejected.
    #![proptest_config(ProptestConfig { max_global_rejects: 100_000, ..crate::strategies::config(5000) })]

    #[test]
    fn verdicts_are_sound(p in pair(), bodies in prop::collection::vec(body(), 24)) {
        let bodies: Vec<Value> = bodies.into_iter().map(|b| declared_only(b, &p)).collect();
        let old = contract("1.0.0", p.strict.0, &p.old, p.arr.0);
        let new = contract("2.0.0", p.strict.1, &p.new, p.arr.1);
        let (Some(old), Some(new)) = (old, new) else { return Err(TestCaseError::reject("not a contract")) };
        let d = diff(&old, &new).expect("same name");
        for c in d.changes() {
            if let Some(w) = c.witness() {
                prop_assert!(old.validate_json(w.as_bytes()).findings().is_empty(), "{}: old flags {w}", c.rule());
                let after = new.validate_json(w.as_bytes());
                if c.rule() == "contract.strict.enabled" {
                    prop_assert!(after.findings().iter().any(|f| f.rule() == "field.unknown"), "{w}");
                } else {
                    prop_assert!(!after.is_valid(), "{}: new accepts {w}", c.rule());
                }
            }
        }
        if d.compatibility() == Impact::Breaking {
            return Ok(());
        }
        for b in &bodies {
            let text = b.to_string();
            if old.validate_json(text.as_bytes()).is_valid() {
                let after = new.validate_json(text.as_bytes());
                prop_assert!(
                    after.is_valid(),
                    "verdict {} but the new revision rejects {text}: {:?}\nchanges: {:?}",
                    d.compatibility(),
                    after.findings(),
                    d.changes().iter().map(|c| format!("{} {} {}", c.rule(), c.field(), c.message())).collect::<Vec<_>>()
                );
            }
        }
    }
}

/// The witness search finds a witness for most breaking changes it is given:
/// counted here so a regression in the search shows as a number, not silence.
#[test]
fn witnesses_are_found_for_breaking_changes() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    // The shared configuration's fixed seed: the same 600 pairs every run.
    let mut runner = TestRunner::new(crate::strategies::config(600));
    let (mut breaking, mut proven, mut readers_only) = (0, 0, 0);
    let mut missing = Vec::new();
    for _ in 0..600 {
        let p = pair().new_tree(&mut runner).expect("tree").current();
        let (Some(old), Some(new)) =
            (contract("1.0.0", p.strict.0, &p.old, p.arr.0), contract("2.0.0", p.strict.1, &p.new, p.arr.1))
        else {
            continue;
        };
        for c in diff(&old, &new).expect("same name").changes() {
            if c.impact() != Impact::Breaking {
                continue;
            }
            breaking += 1;
            if c.witness().is_some() {
                proven += 1;
            } else if c.rule() == "field.removed.required" {
                readers_only += 1;
            } else {
                missing.push(format!("{} {}: {}", c.rule(), c.field(), c.message()));
            }
        }
    }
    let rejectable = breaking - readers_only;
    assert!(breaking > 300, "too few breaking changes drawn: {breaking}");
    // Some breaking changes have no witness at all (a bound on values the
    // old revision's enum never allowed, a field no body can satisfy).
    assert!(
        proven * 100 >= rejectable * 96,
        "witnesses for {proven} of {rejectable} breaking changes; missing:\n{}",
        missing.join("\n")
    );
}
