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
