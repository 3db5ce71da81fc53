//! Proptest strategies shared by the property tests (`mod strategies;`).

use proptest::prelude::*;
use serde_json::Value;

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
