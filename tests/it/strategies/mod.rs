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

/// Byte-level damage to a serialised body, case `how % 7` at byte `at`:
/// truncation, a deleted byte, a repeated first member, an escaped key, a
/// number out of any range, white space, or nesting past the depth limit.
pub fn damaged(bytes: &[u8], how: usize, at: usize) -> Vec<u8> {
    let at = at % (bytes.len() + 1);
    let mut out = bytes.to_vec();
    match how % 7 {
        0 => out.truncate(at),
        1 => {
            if at < out.len() {
                out.remove(at);
            }
        }
        2 => {
            let first = out.iter().position(|&b| b == b',').unwrap_or(out.len());
            let member = out.get(1..first).unwrap_or(&[]).to_vec();
            out.splice(1..1, member.into_iter().chain([b',']));
        }
        3 => {
            if let Some(q) = out.iter().position(|&b| b == b'"') {
                out.splice(q + 1..q + 2, *b"\\u0073");
            }
        }
        4 => {
            if let Some(d) = out.iter().skip(at).position(u8::is_ascii_digit) {
                out.splice(at + d..at + d + 1, *b"1e400");
            }
        }
        5 => {
            out.splice(at..at, *b" \n\t");
        }
        _ => {
            let n = 120 + at % 12;
            let deep = format!("{}{}", "[".repeat(n), "]".repeat(n));
            if let Some(colon) = out.iter().position(|&b| b == b':') {
                let end = out.iter().skip(colon).position(|&b| b == b',' || b == b'}').map_or(out.len(), |e| colon + e);
                out.splice(colon + 1..end, deep.into_bytes());
            }
        }
    }
    out
}
