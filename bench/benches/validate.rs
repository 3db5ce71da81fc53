//! The runtime validator against the floor of merely reading the bytes
//! (`serde_json::from_slice::<IgnoredAny>`) and against building a
//! `serde_json::Value`, on a small and a ~100 KB body, all in one run.
//!
//! `cargo bench -p protocolarc-bench --bench validate`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use protocolarc_bench::{contract, large_sampling, small_tool_call};
use serde::de::IgnoredAny;

fn bench(c: &mut Criterion) {
    let cases = [
        ("mcp_tool_call/small", contract("mcp_tool_call_1.1.0"), small_tool_call()),
        ("mcp_sampling/100KB", contract("mcp_sampling_create_message_1.0.0"), large_sampling()),
    ];
    for (name, spec, body) in &cases {
        assert!(spec.validate_json(body).is_valid(), "{name}: the benchmark body must be valid");
        let mut g = c.benchmark_group(*name);
        g.throughput(Throughput::Bytes(body.len() as u64));
        g.bench_function(BenchmarkId::from_parameter("floor_ignored_any"), |b| {
            b.iter(|| serde_json::from_slice::<IgnoredAny>(std::hint::black_box(body)).expect("json"))
        });
        g.bench_function(BenchmarkId::from_parameter("serde_value"), |b| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(std::hint::black_box(body)).expect("json"))
        });
        g.bench_function(BenchmarkId::from_parameter("protocolarc_validate_json"), |b| {
            b.iter(|| spec.validate_json(std::hint::black_box(body)))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
