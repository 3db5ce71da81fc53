//! The runtime validator against the floor of merely reading the bytes
//! (`serde_json::from_slice::<IgnoredAny>`), against building a
//! `serde_json::Value`, against the `jsonschema` crate on hand-translated
//! schemas (`bench/schemas/`, agreement checked by
//! `tests/jsonschema_agrees.rs`), run-time and compile-time
//! (`#[jsonschema::validator]`), against the generated validators and the
//! typed parse of the generated types, on two small bodies and a ~100 KB
//! one, and on two bodies checked against schema-form contracts imported from
//! the official MCP and A2A schemas (a ~3 KB `CallToolResult`, an A2A
//! message with 20 parts), all in one run. The schema-form types'
//! `validate_json` is their generated check (`codegen/schema_check.rs`), and
//! `jsonschema` gets the contract's own `schema`, with formats validated.
//!
//! `cargo bench -p protocolarc-bench --bench validate`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use protocolarc::{Contract, ContractSpec};
use protocolarc_bench::typed::real::call_tool_result::CallToolResult;
use protocolarc_bench::typed::real::message::Message;
use protocolarc_bench::typed::{SamplingCreateMessage, TaskSend, ToolCall};
use protocolarc_bench::{
    a2a_message, contract, json_schema, large_sampling, mcp_call_tool_result, real_contract, real_schema, schema,
    small_task_send, small_tool_call, A2A_MESSAGE, MCP_CALL_TOOL_RESULT,
};
use serde::de::IgnoredAny;

/// The typed parse of a body: plain serde, and `Contract::from_json`
/// (validation, then serde).
struct Typed {
    fast_path: fn(&[u8]) -> bool,
    serde: fn(&[u8]) -> bool,
    generated: fn(&[u8]) -> protocolarc::Report,
    from_json: fn(&[u8]) -> bool,
}

fn typed<T: Contract>() -> Typed {
    Typed {
        fast_path: T::fast_path,
        serde: |b| serde_json::from_slice::<T>(b).is_ok(),
        generated: T::validate_json,
        from_json: |b| T::from_json(b).is_ok(),
    }
}

/// A bundled contract (`contracts/`) and its hand translation
/// (`bench/schemas/`).
fn bundled(stem: &str) -> (ContractSpec, jsonschema::Validator) {
    (contract(stem), jsonschema::validator_for(&json_schema(stem)).expect("schema compiles"))
}

/// An imported schema-form contract (`tests/data/contracts/`) and its own
/// `schema`, formats validated; `stem` names the extract the compile-time
/// validator reads (`bench/schemas/`), which must be that `schema`.
fn imported(rel: &str, stem: &str) -> (ContractSpec, jsonschema::Validator) {
    let own = real_schema(rel);
    assert_eq!(json_schema(stem), own, "bench/schemas/{stem} must be the contract's schema");
    let schema = jsonschema::options().should_validate_formats(true).build(&own).expect("schema compiles");
    (real_contract(rel), schema)
}

fn bench(c: &mut Criterion) {
    let cases = [
        ("mcp_tool_call/small", bundled("mcp_tool_call_1.1.0"), small_tool_call(), typed::<ToolCall>()),
        ("a2a_task_send/small", bundled("a2a_task_send_1.0.0"), small_task_send(), typed::<TaskSend>()),
        (
            "mcp_sampling/100KB",
            bundled("mcp_sampling_create_message_1.0.0"),
            large_sampling(),
            typed::<SamplingCreateMessage>(),
        ),
        (
            "mcp_call_tool_result/3KB",
            imported(MCP_CALL_TOOL_RESULT, "mcp_call_tool_result_2025.6.18"),
            mcp_call_tool_result(),
            typed::<CallToolResult>(),
        ),
        ("a2a_message/20parts", imported(A2A_MESSAGE, "a2a_message_0.3.0"), a2a_message(), typed::<Message>()),
    ];
    let compiled: [fn(&serde_json::Value) -> bool; 5] = [
        schema::ToolCall::is_valid,
        schema::TaskSend::is_valid,
        schema::SamplingCreateMessage::is_valid,
        schema::CallToolResult::is_valid,
        schema::Message::is_valid,
    ];
    for ((name, (spec, schema), body, typed), compiled) in cases.iter().zip(compiled) {
        let value: serde_json::Value = serde_json::from_slice(body).expect("json");
        assert!(spec.validate_json(body).is_valid(), "{name}: the benchmark body must be valid");
        assert!(schema.is_valid(&value) && compiled(&value), "{name}: jsonschema must accept the body too");
        assert!((typed.serde)(body) && (typed.from_json)(body), "{name}: the typed parse must succeed");
        assert!((typed.fast_path)(body), "{name}: the generated validator must pass the body itself");
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
        g.bench_function(BenchmarkId::from_parameter("generated_validate_json"), |b| {
            b.iter(|| (typed.generated)(std::hint::black_box(body)))
        });
        g.bench_function(BenchmarkId::from_parameter("jsonschema_is_valid_on_value"), |b| {
            b.iter(|| schema.is_valid(std::hint::black_box(&value)))
        });
        g.bench_function(BenchmarkId::from_parameter("jsonschema_parse_and_is_valid"), |b| {
            b.iter(|| {
                let v: serde_json::Value = serde_json::from_slice(std::hint::black_box(body)).expect("json");
                schema.is_valid(&v)
            })
        });
        g.bench_function(BenchmarkId::from_parameter("jsonschema_compiled_is_valid_on_value"), |b| {
            b.iter(|| compiled(std::hint::black_box(&value)))
        });
        g.bench_function(BenchmarkId::from_parameter("jsonschema_compiled_parse_and_is_valid"), |b| {
            b.iter(|| {
                let v: serde_json::Value = serde_json::from_slice(std::hint::black_box(body)).expect("json");
                compiled(&v)
            })
        });
        g.bench_function(BenchmarkId::from_parameter("serde_typed_parse"), |b| {
            b.iter(|| (typed.serde)(std::hint::black_box(body)))
        });
        g.bench_function(BenchmarkId::from_parameter("typed_from_json"), |b| {
            b.iter(|| (typed.from_json)(std::hint::black_box(body)))
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
