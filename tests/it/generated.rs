//! The generated validator (`Contract::fast_path`, behind
//! `Contract::validate_json`) and its interpreted twin in the runtime
//! (`ContractSpec::passes`) against the finding engine. For every input
//! the report must be the runtime's, byte for byte; the one-pass check may
//! pass a body only when the runtime finds nothing, and it must pass every
//! such body except the few it documents handing over (an escaped key or
//! enum string, a `uniqueItems` array with objects or arrays among several
//! elements, or more than 32 of them, more than 32 undeclared keys in one
//! object).

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use protocolarc::envelope::{collect_files, read_file, InputError};
use protocolarc::{Contract, ContractSpec};
use protocolarc_tests::root;
use serde_json::{json, Value};

#[protocolarc::contract("data/contracts/every_rule_1.0.0.json")]
pub struct EveryRule;

#[protocolarc::contract("data/contracts/wide_1.0.0.json")]
pub struct Wide;

#[protocolarc::contract("data/contracts/strict_nested_1.0.0.json")]
pub struct StrictNested;

#[protocolarc::contract("../contracts/mcp_tool_call_1.0.0.json")]
pub struct ToolCall10;

#[protocolarc::contract("../contracts/mcp_tool_call_1.1.0.json")]
pub struct ToolCall11;

#[protocolarc::contract("../contracts/mcp_tool_call_2.0.0.json")]
pub struct ToolCall20;

pub use protocolarc_tests::typed::*;

/// A generated type next to the same contract loaded at run time.
struct Pair {
    spec: ContractSpec,
    fast_path: fn(&[u8]) -> bool,
    validate_json: fn(&[u8]) -> protocolarc::Report,
}

fn pair<T: Contract>(path: &str) -> Pair {
    let spec = ContractSpec::from_path(root().join(path)).expect("contract loads");
    assert_eq!((spec.name(), spec.revision().to_string()), (T::NAME, T::REVISION.to_string()));
    Pair { spec, fast_path: T::fast_path, validate_json: T::validate_json }
}

fn bundled() -> Vec<Pair> {
    vec![
        pair::<ToolCall10>("contracts/mcp_tool_call_1.0.0.json"),
        pair::<ToolCall11>("contracts/mcp_tool_call_1.1.0.json"),
        pair::<ToolCall20>("contracts/mcp_tool_call_2.0.0.json"),
        pair::<CreateMessage>("contracts/mcp_sampling_create_message_1.0.0.json"),
        pair::<SendMessage>("contracts/a2a_message_send_1.0.0.json"),
        pair::<TaskSend>("contracts/a2a_task_send_1.0.0.json"),
    ]
}

impl Pair {
    /// Checks one body; returns (the runtime found nothing, the fast path passed it).
    /// The reference is the finding engine alone: the runtime's one-pass
    /// check (`passes`) answers exactly as it does, and the generated one
    /// passes only a clean body (and every clean body, unless it may hand over).
    fn check(&self, bytes: &[u8], may_hand_over: bool) -> (bool, bool) {
        let runtime = self.spec.validate_json_full(bytes);
        let shown = String::from_utf8_lossy(bytes);
        assert_eq!((self.validate_json)(bytes), runtime, "findings differ on {shown}");
        assert_eq!(self.spec.validate_json(bytes), runtime, "findings differ on {shown}");
        let clean = runtime.findings().is_empty();
        let fast = (self.fast_path)(bytes);
        assert_eq!(
            self.spec.passes(bytes),
            clean,
            "the runtime's check is not exact on {shown:?} ({})",
            self.spec.name()
        );
        assert!(!fast || clean, "the fast path passed a body with findings: {shown}\n{runtime:?}");
        if !may_hand_over {
            assert_eq!(fast, clean, "the fast path handed over a clean body: {shown}");
        }
        (clean, fast)
    }
}

/// Every envelope of the files under `dir`, with the contract and revision it targets.
fn envelopes(dir: &str) -> Vec<(String, String, Vec<u8>)> {
    let files = collect_files(&[root().join(dir)]).expect("fixtures");
    let mut out = Vec::new();
    for file in &files {
        read_file(file, |e| -> Result<(), InputError> {
            out.push((e.contract().to_string(), e.revision().unwrap_or("").to_string(), e.data().to_vec()));
            Ok(())
        })
        .expect("fixture reads");
    }
    out
}

fn target<'p>(pairs: &'p [Pair], contract: &str, revision: &str) -> Option<&'p Pair> {
    pairs
        .iter()
        .find(|p| p.spec.name() == contract && (revision.is_empty() || p.spec.revision().to_string() == revision))
}

#[test]
fn every_valid_fixture_takes_the_fast_path() {
    let pairs = bundled();
    let mut checked = 0;
    for (contract, revision, data) in envelopes("contracts/fixtures/valid") {
        let pair = target(&pairs, &contract, &revision).expect("a generated type for every fixture");
        assert!(pair.spec.validate_json(&data).findings().is_empty(), "the fixture is valid");
        assert_eq!(pair.check(&data, false), (true, true));
        checked += 1;
    }
    assert!(checked >= 15, "{checked} fixtures");
}

#[test]
fn rule_fixtures_get_the_runtime_findings() {
    let pairs = bundled();
    let (mut clean, mut flagged) = (0, 0);
    for (contract, revision, data) in envelopes("contracts/fixtures/rules") {
        let Some(pair) = target(&pairs, &contract, &revision) else { continue };
        match pair.check(&data, false) {
            (true, true) => clean += 1,
            (false, false) => flagged += 1,
            other => panic!("{other:?}"),
        }
    }
    assert!(clean >= 15 && flagged >= 15, "{clean} clean, {flagged} flagged");
}

/// Values per key of `every_rule`: mostly valid ones (so that about a third
/// of the bodies are clean), sometimes one across a boundary or of a wrong
/// type; optional and required keys are sometimes left out.
pub(crate) fn every_rule_body() -> impl Strategy<Value = Value> {
    fn pick(valid: Vec<Value>, invalid: Vec<Value>) -> BoxedStrategy<Option<Value>> {
        let value = prop_oneof![30 => prop::sample::select(valid), 1 => prop::sample::select(invalid)];
        prop::option::weighted(0.9, value).boxed()
    }
    let tree = crate::strategies::json_tree(
        prop_oneof![Just(json!(1)), Just(json!("a")), Just(json!(null)), Just(json!(1.5))].boxed(),
        crate::strategies::CONTRACT_KEYS,
        3,
        12,
        3,
    );
    let keys: Vec<(&str, BoxedStrategy<Option<Value>>)> = vec![
        (
            "s",
            pick(
                vec![json!("ab"), json!("abcdefgh"), json!("\u{e9}\u{e9}")],
                vec![json!("a"), json!("abcdefghi"), json!("Ab"), json!("a\"b"), json!(1)],
            ),
        ),
        ("e", pick(vec![json!("a"), json!("b"), json!("say \"hi\"")], vec![json!("c"), json!(1), json!(null)])),
        (
            "n",
            pick(
                vec![json!(0.5), json!(100), json!(1.5), json!(50)],
                vec![json!(0.25), json!(100.5), json!(0), json!("x")],
            ),
        ),
        (
            "i",
            pick(vec![json!(-3), json!(9), json!(0), json!(1.0)], vec![json!(-4), json!(10), json!(2.5), json!("1")]),
        ),
        ("ix", pick(vec![json!(1), json!(1000), json!(5.0)], vec![json!(0), json!(1001), json!(0.5)])),
        ("ne", pick(vec![json!(1), json!(1.0), json!(2.5)], vec![json!(2), json!(true)])),
        ("b", pick(vec![json!(true)], vec![json!(false), json!(null)])),
        ("z", pick(vec![json!(null)], vec![json!(0), json!(false)])),
        ("opt", pick(vec![json!(false), json!(null)], vec![json!(true)])),
        ("multi", pick(vec![json!("x"), json!(1), json!(null)], vec![json!(1.5), json!(true), json!([])])),
        ("num", pick(vec![json!(1), json!(1.5), json!(-0.0)], vec![json!("1")])),
        ("int", pick(vec![json!(1), json!(1.0), json!(-0)], vec![json!(1.5), json!(false)])),
        ("anyv", pick(vec![json!(1), json!({"a": [1, {"b": null}]}), json!("x")], vec![json!(null)])),
        (
            "o",
            pick(
                vec![json!({}), json!({"a": 1}), json!({"a": 1, "b": {"c": [1, {"a": 2}]}})],
                vec![json!([]), json!("x")],
            ),
        ),
        (
            "deep",
            pick(
                vec![
                    json!({"er": {"y": "s", "x": 1}}),
                    json!({"er": {"y": "s"}}),
                    json!({"er": {"y": "s", "z": [1, 2]}, "w": 1}),
                ],
                vec![json!({"er": {"x": 1.5, "y": "s"}}), json!({"er": {}}), json!({"er": []}), json!({}), json!([])],
            ),
        ),
        (
            "arr",
            pick(
                vec![json!([{"k": "a"}]), json!([{"k": "a", "v": 1}]), json!([{"k": "a"}, {"k": "b"}])],
                vec![
                    json!([]),
                    json!([{"k": "a", "v": 1}, {"k": "a", "v": 1}]),
                    json!([{"k": 1}]),
                    json!([{}]),
                    json!([{"k": "a", "v": 1.5}]),
                    json!(["x"]),
                ],
            ),
        ),
        (
            "tags",
            pick(
                vec![json!([]), json!(["a", "b", 1, 2.5, true, false, null]), json!([1, "1"]), json!(["\n", "\t"])],
                vec![json!(["a", "a"]), json!([1, 1.0]), json!(["\n", "\t", "\n"]), json!([[]]), json!([{}, 1])],
            ),
        ),
        (
            "grid",
            pick(
                vec![json!([]), json!([[]]), json!([[0, 1], [2]])],
                vec![json!([[-1]]), json!([[1.5]]), json!([1]), json!("x")],
            ),
        ),
        ("list", pick(vec![json!([]), json!([1, {"a": [1]}])], vec![json!([1, 2, 3])])),
        (
            "sel",
            pick(
                vec![json!("s"), json!({"k": true}), json!([1, 2]), json!({})],
                vec![json!({"k": 1}), json!([1.5]), json!(1)],
            ),
        ),
    ];
    let names: Vec<&'static str> = keys.iter().map(|(k, _)| *k).collect();
    let values: Vec<BoxedStrategy<Option<Value>>> = keys.into_iter().map(|(_, v)| v).collect();
    (values, prop::option::weighted(0.2, tree)).prop_map(move |(values, extra)| {
        let mut body = serde_json::Map::new();
        for (name, value) in names.iter().zip(values) {
            if let Some(v) = value {
                body.insert(name.to_string(), v);
            }
        }
        if let Some(extra) = extra {
            body.insert("extra".to_string(), extra);
        }
        Value::Object(body)
    })
}

/// The hand-overs the fast path documents, for a body of `every_rule`.
fn may_hand_over(body: &Value) -> bool {
    let nested_in_unique = |key: &str| {
        body[key].as_array().is_some_and(|a| a.len() >= 2 && a.iter().any(|v| v.is_object() || v.is_array()))
    };
    body["e"] == "say \"hi\"" || nested_in_unique("arr") || nested_in_unique("tags")
}

/// Deterministic bodies from a strategy.
pub(crate) fn samples<S: Strategy>(strategy: S, n: usize) -> Vec<S::Value> {
    let mut runner = TestRunner::deterministic();
    (0..n).map(|_| strategy.new_tree(&mut runner).expect("a value").current()).collect()
}

#[test]
fn every_rule_bodies_agree_with_the_runtime() {
    let pair = pair::<EveryRule>("tests/data/contracts/every_rule_1.0.0.json");
    let (mut clean, mut fast, mut handed_over) = (0, 0, 0);
    for body in samples(every_rule_body(), 4000) {
        let bytes = body.to_string();
        let allowed = may_hand_over(&body);
        let (c, f) = pair.check(bytes.as_bytes(), allowed);
        clean += usize::from(c);
        fast += usize::from(f);
        handed_over += usize::from(c && !f);
    }
    // The generator reaches both sides often; `check` has already shown
    // that only the documented hand-overs of clean bodies happened.
    assert!((1000..=3000).contains(&clean), "{clean} clean bodies of 4000");
    assert!(fast + handed_over == clean && fast >= 500, "{fast} passed by the fast path, {handed_over} handed over");
}

#[test]
fn a_clean_every_rule_body_takes_the_fast_path() {
    let pair = pair::<EveryRule>("tests/data/contracts/every_rule_1.0.0.json");
    let body = json!({
        "s": "\u{e9}t\u{e9}", "e": "b", "n": 99.5, "i": -3, "ix": 1e3, "ne": 2.5, "b": true, "z": null,
        "opt": false, "multi": null, "num": -0.5, "int": 1e2, "anyv": [{"a": {"a": 1}}], "o": {"a": {"b": []}},
        "deep": {"er": {"y": "", "x": 9.0}}, "arr": [{"k": "a", "v": "1"}],
        "tags": ["a", "\n", "\u{e9}", 1, 2.5, true, null], "grid": [[0, 7], []], "list": [{}, []],
        "sel": {"k": false}, "extra": {"s": 1}
    });
    let bytes = body.to_string();
    assert_eq!(pair.check(bytes.as_bytes(), false), (true, true));
    // White space before the object is fine; any other first byte is not
    // an object, even when the rest reads as one's members.
    let members = &bytes[1..];
    assert_eq!(pair.check(format!(" \n{{{members}").as_bytes(), false), (true, true));
    for first in ["x", "[", "\"", "1"] {
        assert_eq!(pair.check(format!("{first}{members}").as_bytes(), false), (false, false), "{first}");
    }
    // Each value moved across its boundary is flagged, by the runtime's own finding.
    for (key, bad, rule) in [
        ("s", json!("abcdefghi"), "field.maxLength"),
        ("s", json!("aB"), "field.pattern"),
        ("n", json!(99.75), "field.multipleOf"),
        ("i", json!(10), "field.exclusiveMaximum"),
        ("ix", json!(0), "field.exclusiveMinimum"),
        ("ix", json!(1001), "field.maximum"),
        ("ne", json!(2), "field.enum"),
        ("b", json!(false), "field.enum"),
        ("opt", json!(true), "field.enum"),
        ("int", json!(1.5), "field.type"),
        ("tags", json!(["\n", "\u{a}"]), "field.uniqueItems"),
        ("arr", json!([]), "field.minItems"),
        ("grid", json!([[0], [-1]]), "field.minimum"),
        ("list", json!([1, 2, 3]), "field.maxItems"),
    ] {
        let mut changed = body.clone();
        changed[key] = bad;
        let bytes = changed.to_string();
        let runtime = pair.spec.validate_json(bytes.as_bytes());
        let rules: Vec<&str> = runtime.findings().iter().map(|f| f.rule()).collect();
        assert_eq!(rules, [rule], "{key}");
        assert_eq!(pair.check(bytes.as_bytes(), false), (false, false));
    }
}

#[test]
fn damaged_bodies_agree_with_the_runtime() {
    let every = pair::<EveryRule>("tests/data/contracts/every_rule_1.0.0.json");
    let pairs = bundled();
    let mut cases = 0;
    for (n, body) in samples(every_rule_body(), 1500).iter().enumerate() {
        let bytes = body.to_string();
        every.check(&crate::strategies::damaged(bytes.as_bytes(), n, n * 7919), true);
        cases += 1;
    }
    for (contract, revision, data) in envelopes("contracts/fixtures/valid") {
        let pair = target(&pairs, &contract, &revision).expect("a generated type");
        for n in 0..60 {
            pair.check(&crate::strategies::damaged(&data, n, n * 104_729), true);
            cases += 1;
        }
    }
    assert!(cases > 2500, "{cases}");
}

#[test]
fn wide_objects_use_every_seen_word() {
    let pair = pair::<Wide>("tests/data/contracts/wide_1.0.0.json");
    let value = |i: usize| match i % 4 {
        0 => json!("s"),
        1 => json!(1),
        2 => json!(true),
        _ => json!(0.5),
    };
    let full: serde_json::Map<String, Value> = (0..140).map(|i| (format!("f{i:03}"), value(i))).collect();
    let body = Value::Object(full.clone()).to_string();
    assert_eq!(pair.check(body.as_bytes(), false), (true, true));
    // Required keys in the second word and past the 128th.
    for key in ["f063", "f133"] {
        let mut missing = full.clone();
        missing.remove(key);
        let bytes = Value::Object(missing).to_string();
        let report = pair.spec.validate_json(bytes.as_bytes());
        let shown: Vec<String> = report.findings().iter().map(|f| f.to_string()).collect();
        assert_eq!(shown, [format!("ERROR field.required {key}: required field is missing")]);
        assert_eq!(pair.check(bytes.as_bytes(), false), (false, false));
    }
    // Repeats of the 66th and the 136th key, and an undeclared key of the strict contract.
    let with = |extra: &str| format!("{},{extra}}}", body.trim_end_matches('}'));
    for (bytes, finding) in [
        (with("\"f065\":1.5"), "ERROR json.duplicate_key f065: key appears more than once in its object"),
        (with("\"f135\":1.5"), "ERROR json.duplicate_key f135: key appears more than once in its object"),
        (with("\"f140\":1"), "WARNING field.unknown f140: key is not declared by the strict contract"),
    ] {
        let report = pair.spec.validate_json(bytes.as_bytes());
        assert_eq!(report.findings().iter().map(|f| f.to_string()).collect::<Vec<_>>(), [finding]);
        assert_eq!(pair.check(bytes.as_bytes(), false), (false, false));
    }
}

#[test]
fn depth_hands_over_at_the_runtime_limit_and_an_open_map_takes_any_number_of_keys() {
    let pair = pair::<ToolCall20>("contracts/mcp_tool_call_2.0.0.json");
    let call = |arguments: String| {
        format!(
            r#"{{"jsonrpc": "2.0", "id": "r", "method": "tools/call", "params": {{"name": "n", "arguments": {arguments}}}}}"#
        )
    };
    // `arguments` is at depth 2, its key `a` at 3: 125 levels of arrays
    // there are allowed (up to depth 127), 126 are not.
    let nested = |levels: usize| call(format!("{{\"a\": {}{}}}", "[".repeat(levels), "]".repeat(levels)));
    assert_eq!(pair.check(nested(125).as_bytes(), false), (true, true));
    let too_deep = nested(126);
    assert_eq!(pair.spec.validate_json(too_deep.as_bytes()).findings()[0].rule(), "json.depth");
    assert_eq!(pair.check(too_deep.as_bytes(), false), (false, false));
    // An open map's undeclared keys pass however many there are.
    let keys =
        |n: usize| call(format!("{{{}}}", (0..n).map(|i| format!("\"k{i}\": {i}")).collect::<Vec<_>>().join(", ")));
    assert_eq!(pair.check(keys(32).as_bytes(), false), (true, true));
    assert_eq!(pair.check(keys(33).as_bytes(), false), (true, true));
    // A repeat among them is found past the 32 compared pairwise too.
    let repeated =
        call(format!("{{{}, \"k0\": 0}}", (0..33).map(|i| format!("\"k{i}\": {i}")).collect::<Vec<_>>().join(", ")));
    let shown: Vec<String> =
        pair.spec.validate_json(repeated.as_bytes()).findings().iter().map(|f| f.to_string()).collect();
    assert_eq!(shown, ["ERROR json.duplicate_key params.arguments.k0: key appears more than once in its object"]);
    assert_eq!(pair.check(repeated.as_bytes(), false), (false, false));
}

#[protocolarc::contract("data/contracts/empty_strict_1.0.0.json")]
pub struct EmptyStrict;

#[test]
fn a_contract_without_fields_compiles_and_agrees() {
    let pair = pair::<EmptyStrict>("tests/data/contracts/empty_strict_1.0.0.json");
    assert_eq!(pair.check(b" {} ", false), (true, true));
    let report = pair.spec.validate_json(br#"{"a": 1}"#);
    let shown: Vec<String> = report.findings().iter().map(|f| f.to_string()).collect();
    assert_eq!(shown, ["WARNING field.unknown a: key is not declared by the strict contract"]);
    assert_eq!(pair.check(br#"{"a": 1}"#, false), (false, false));
    assert_eq!(pair.check(b"[]", false), (false, false));
}

/// Random trees of the contracts' keys, and every valid fixture with one of
/// its keys replaced by a random value, against every bundled contract.
#[test]
fn random_and_mutated_bodies_agree_for_every_bundled_contract() {
    let pairs = bundled();
    let values = samples(crate::strategies::contract_value(), 2500);
    let mut clean = 0;
    for body in &values {
        let bytes = body.to_string();
        for pair in &pairs {
            clean += usize::from(pair.check(bytes.as_bytes(), true).0);
        }
    }
    let mut mutated = 0;
    for (n, (contract, revision, data)) in envelopes("contracts/fixtures/valid").into_iter().enumerate() {
        let pair = target(&pairs, &contract, &revision).expect("a generated type");
        let base: Value = serde_json::from_slice(&data).expect("fixture data is JSON");
        for (i, value) in values.iter().skip(n * 40).take(40).enumerate() {
            let mut body = base.clone();
            let keys: Vec<String> = base.as_object().expect("an object").keys().cloned().collect();
            let key = &keys[i % keys.len()];
            if i % 2 == 0 {
                body[key] = value.clone();
            } else if let Some(inner) = body[key].as_object_mut() {
                inner.insert("params".to_string(), value.clone());
            }
            let (c, _) = pair.check(body.to_string().as_bytes(), true);
            clean += usize::from(c);
            mutated += 1;
        }
    }
    assert!(mutated >= 600 && clean >= 100, "{mutated} mutated bodies, {clean} clean bodies in all");
}

/// A hand-written `Contract` (no macro): the trait's defaults interpret the
/// loaded contract for the one-pass check and give the engine's findings.
#[derive(protocolarc::__private::serde::Serialize, protocolarc::__private::serde::Deserialize)]
#[serde(crate = "protocolarc::__private::serde", transparent)]
struct HandWritten(Value);

impl Contract for HandWritten {
    const NAME: &'static str = "mcp.tool_call";
    const REVISION: &'static str = "1.1.0";

    fn spec() -> &'static ContractSpec {
        static SPEC: std::sync::OnceLock<ContractSpec> = std::sync::OnceLock::new();
        SPEC.get_or_init(|| ContractSpec::from_path(root().join("contracts/mcp_tool_call_1.1.0.json")).expect("loads"))
    }
}

#[test]
fn hand_written_contracts_use_the_interpreted_check() {
    let generated = pair::<ToolCall11>("contracts/mcp_tool_call_1.1.0.json");
    let valid = br#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "n"}}"#;
    let invalid = br#"{"jsonrpc": "2.0", "id": 1.5, "method": "tools/call", "params": {"name": "n"}}"#;
    assert_eq!(generated.check(valid, false), (true, true));
    assert_eq!(generated.check(invalid, false), (false, false));
    assert!(HandWritten::fast_path(valid) && !HandWritten::fast_path(invalid));
    assert_eq!(HandWritten::validate_json(valid), protocolarc::Report::default());
    let findings: Vec<String> = HandWritten::validate_json(invalid).findings().iter().map(|f| f.to_string()).collect();
    assert_eq!(findings, ["ERROR field.type id: expected string|integer, found number"]);
    assert!(HandWritten::from_json(valid).is_ok() && HandWritten::from_json(invalid).is_err());
}

/// The generated code names what it uses: types of the user's that are
/// called `Option`, `Some`, `None`, `Kind`, `Cursor` or `fast` change nothing.
mod shadowed {
    #![allow(dead_code, non_camel_case_types)]
    pub struct Option;
    pub struct Some;
    pub struct None;
    pub struct Kind;
    pub struct Cursor;
    pub struct fast;

    #[protocolarc::contract("../contracts/mcp_tool_call_1.1.0.json")]
    pub struct Call;
}

#[test]
fn generated_code_is_hygienic() {
    let valid = br#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "n", "timeout_ms": 5}}"#;
    assert!(shadowed::Call::fast_path(valid));
    let call = shadowed::Call::from_json(valid).expect("valid");
    assert_eq!(call.params.timeout_ms, std::option::Option::Some(5));
}
