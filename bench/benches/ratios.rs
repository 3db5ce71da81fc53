//! Ratios to the floor that hold on a noisy machine: each candidate is timed
//! in short batches interleaved with batches of the floor
//! (`serde_json::from_slice::<IgnoredAny>`), so both see the same clock speed
//! and neighbours, and the median of the per-round ratios is reported.
//! `jsonschema` and `js compiled` (`#[jsonschema::validator]`) both start
//! from the bytes: parse to a `serde_json::Value`, then `is_valid`.
//!
//! `cargo bench -p protocolarc-bench --bench ratios`

use std::hint::black_box;
use std::time::{Duration, Instant};

use protocolarc::{Contract, Report};
use protocolarc_bench::typed::{SamplingCreateMessage, TaskSend, ToolCall};
use protocolarc_bench::{contract, json_schema, large_sampling, schema, small_task_send, small_tool_call};
use serde::de::IgnoredAny;

const ROUNDS: usize = 41;
const BATCH: Duration = Duration::from_millis(4);

/// Nanoseconds per call of `f` over a batch of `n` calls.
fn batch(n: usize, f: &dyn Fn() -> bool) -> f64 {
    let start = Instant::now();
    let mut ok = 0;
    for _ in 0..n {
        ok += usize::from(black_box(f()));
    }
    assert_eq!(ok, n, "every call must succeed");
    start.elapsed().as_nanos() as f64 / n as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; a filter is not supported.
    let generated: [fn(&[u8]) -> Report; 3] =
        [ToolCall::validate_json, TaskSend::validate_json, SamplingCreateMessage::validate_json];
    let cases = [
        ("mcp_tool_call/small", "mcp_tool_call_1.1.0", small_tool_call()),
        ("a2a_task_send/small", "a2a_task_send_1.0.0", small_task_send()),
        ("mcp_sampling/100KB", "mcp_sampling_create_message_1.0.0", large_sampling()),
    ];
    let compiled: [fn(&serde_json::Value) -> bool; 3] =
        [schema::ToolCall::is_valid, schema::TaskSend::is_valid, schema::SamplingCreateMessage::is_valid];
    println!(
        "{:<22} {:>9} {:>10} {:>10} {:>11} {:>11}",
        "body", "floor ns", "generated", "runtime", "jsonschema", "js compiled"
    );
    for (((name, stem, body), generated), compiled) in cases.iter().zip(generated).zip(compiled) {
        let spec = contract(stem);
        let schema = jsonschema::validator_for(&json_schema(stem)).expect("schema compiles");
        let floor = || serde_json::from_slice::<IgnoredAny>(black_box(body)).is_ok();
        let parsed = |check: &dyn Fn(&serde_json::Value) -> bool| {
            let v: serde_json::Value = serde_json::from_slice(black_box(body)).expect("json");
            check(&v)
        };
        let candidates: [&dyn Fn() -> bool; 4] = [
            &|| generated(black_box(body)).is_valid(),
            &|| spec.validate_json(black_box(body)).is_valid(),
            &|| parsed(&|v| schema.is_valid(v)),
            &|| parsed(&compiled),
        ];
        // Calls per batch, from a first estimate of the floor.
        let n = ((BATCH.as_nanos() as f64 / batch(1000, &floor)) as usize).max(10);
        let mut floors = Vec::new();
        let mut ratios = vec![Vec::new(); candidates.len()];
        for _ in 0..ROUNDS {
            let base = batch(n, &floor);
            floors.push(base);
            for (r, f) in ratios.iter_mut().zip(&candidates) {
                r.push(batch(n, *f) / base);
            }
        }
        let [g, r, j, c] = [0, 1, 2, 3].map(|i| median(ratios[i].clone()));
        println!("{name:<22} {:>9.0} {g:>9.2}x {r:>9.2}x {j:>10.2}x {c:>10.2}x", median(floors));
    }
}
