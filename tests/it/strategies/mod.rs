//! Proptest strategies shared by the property tests (`mod strategies;`), and
//! the one configuration every property test runs with ([`config`]).

use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, RngAlgorithm, RngSeed};
use serde_json::Value;

/// The seed of every property test: each run draws the same cases.
pub const SEED: u64 = 0x5052_4f54_4f41_5243;

/// The configuration of every property test under `tests/`: `cases` cases
/// drawn from the fixed [`SEED`] (reproducible; the `PROPTEST_CASES` and
/// `PROPTEST_RNG_SEED` environment variables do not change it), and every
/// failure persisted under `tests/proptest-regressions/<file>.txt` (next to
/// `it/`), which is committed and replayed first on every later run.
pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_algorithm: RngAlgorithm::XorShift,
        rng_seed: RngSeed::Fixed(SEED),
        failure_persistence: Some(Box::new(FileFailurePersistence::SourceParallel("proptest-regressions"))),
        ..ProptestConfig::default()
    }
}

/// Keys the bundled and test contracts declare, plus two they do not.
pub const CONTRACT_KEYS: &[&str] = &[
    "jsonrpc",
    "id",
    "method",
    "params",
    "name",
    "arguments",
    "message",
    "messages",
    "role",
    "content",
    "parts",
    "kind",
    "type",
    "text",
    "maxTokens",
    "temperature",
    "task_id",
    "x",
    "extra",
];

/// Arrays and objects of `leaf` values, nested to `depth` levels with at
/// most `width` members each; object keys come from `keys`, so that random
/// trees keep hitting the names contracts declare.
pub fn json_tree(
    leaf: BoxedStrategy<Value>,
    keys: &'static [&'static str],
    depth: u32,
    size: u32,
    width: usize,
) -> impl Strategy<Value = Value> {
    leaf.prop_recursive(depth, size, width as u32 + 2, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..width).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(keys), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

/// Random bodies for the bundled contracts: trees of their keys, with the
/// numbers and strings their rules turn on (`1.0`, `1e2`, enum members).
#[allow(dead_code)] // `mod strategies;` is compiled into each test binary; `fuzz` does not use this one.
pub fn contract_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        prop::sample::select(vec!["0", "1", "-1", "1.0", "2.5", "100", "1e2", "0.7", "2"])
            .prop_map(|n| serde_json::from_str(n).expect("number")),
        prop::sample::select(vec!["", "2.0", "tools/call", "user", "agent", "text", "message", "x", "message/send"])
            .prop_map(|s| Value::String(s.to_string())),
    ];
    json_tree(leaf.boxed(), CONTRACT_KEYS, 4, 40, 4)
}
