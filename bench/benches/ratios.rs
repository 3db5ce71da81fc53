//! Ratios to the floor that hold on a noisy machine: each candidate is timed
//! in short batches interleaved with batches of the floor
//! (`serde_json::from_slice::<IgnoredAny>`), so both see the same clock speed
//! and neighbours, and the median of the per-round ratios is reported.
//! `jsonschema` and `js compiled` (`#[jsonschema::validator]`) both start
//! from the bytes: parse to a `serde_json::Value`, then `is_valid`.
//! `from_json` is the typed parse of the generated type (its check, then
//! serde).
//!
//! The last two bodies are checked against schema-form contracts imported
//! from the official MCP and A2A schemas: their generated type's
//! `validate_json` is the generated check (`codegen/schema_check.rs`), and
//! `jsonschema` gets the contract's own `schema`, with formats validated.
//!
//! A second table times bodies with findings (one change each, near the
//! end; `bench/src/lib.rs`): the whole report, generated and runtime, and
//! `jsonschema`'s verdict from bytes.
//!
//! `cargo bench -p protocolarc-bench --bench ratios`

use std::hint::black_box;
use std::time::{Duration, Instant};

use protocolarc::{Contract, ContractSpec, Report};
use protocolarc_bench::typed::real::call_tool_result::CallToolResult;
use protocolarc_bench::typed::real::message::Message;
use protocolarc_bench::typed::real::tools_call_request::ToolsCallRequest;
use protocolarc_bench::typed::{SamplingCreateMessage, TaskSend, ToolCall};
use protocolarc_bench::{
    a2a_message, catalog_contract, catalog_schema, contract, invalid_a2a_message, invalid_mcp_call_tool_result,
    invalid_tools_call_request, json_schema, large_sampling, mcp_call_tool_result, real_contract, real_schema, schema,
    small_task_send, small_tool_call, A2A_MESSAGE, MCP_CALL_TOOL_RESULT, MCP_TOOLS_CALL_REQUEST,
};
use serde::de::IgnoredAny;
use serde_json::Value;

const ROUNDS: usize = 41;
const BATCH: Duration = Duration::from_millis(4);

/// One body and everything that checks it.
struct Case {
    name: &'static str,
    body: Vec<u8>,
    spec: ContractSpec,
    schema: jsonschema::Validator,
    generated: fn(&[u8]) -> Report,
    from_json: fn(&[u8]) -> bool,
    compiled: fn(&Value) -> bool,
}

impl Case {
    /// A body checked against a bundled contract (`contracts/`) and its hand
    /// translation (`bench/schemas/`).
    fn bundled<T: Contract>(name: &'static str, stem: &str, body: Vec<u8>, compiled: fn(&Value) -> bool) -> Case {
        let schema = jsonschema::validator_for(&json_schema(stem)).expect("schema compiles");
        Case::new::<T>(name, body, contract(stem), schema, compiled)
    }

    /// A body checked against an imported schema-form contract
    /// (`tests/data/contracts/`) and its own `schema`, formats validated;
    /// `stem` names the extract the compile-time validator reads.
    fn imported<T: Contract>(
        name: &'static str,
        rel: &str,
        stem: &str,
        body: Vec<u8>,
        compiled: fn(&Value) -> bool,
    ) -> Case {
        let own = real_schema(rel);
        assert_eq!(json_schema(stem), own, "{name}: bench/schemas/{stem} must be the contract's schema");
        let schema = jsonschema::options().should_validate_formats(true).build(&own).expect("schema compiles");
        Case::new::<T>(name, body, real_contract(rel), schema, compiled)
    }

    fn new<T: Contract>(
        name: &'static str,
        body: Vec<u8>,
        spec: ContractSpec,
        schema: jsonschema::Validator,
        compiled: fn(&Value) -> bool,
    ) -> Case {
        let value: Value = serde_json::from_slice(&body).expect("json");
        assert!(spec.validate_json(&body).is_valid(), "{name}: the body must be valid");
        assert!(T::validate_json(&body).is_valid() && T::from_json(&body).is_ok(), "{name}: typed parse");
        assert!(schema.is_valid(&value) && compiled(&value), "{name}: jsonschema must accept the body too");
        Case { name, body, spec, schema, generated: T::validate_json, from_json: |b| T::from_json(b).is_ok(), compiled }
    }
}

/// Nanoseconds per call of `f` over a batch of `n` calls.
/// `ROUNDS` rounds of a batch of the floor, then a batch of each candidate
/// (calls per batch from a first estimate of the floor): the floor's
/// per-call times, and each candidate's per-round ratios to the floor.
fn interleave(floor: &dyn Fn() -> bool, candidates: &[&dyn Fn() -> bool]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = ((BATCH.as_nanos() as f64 / batch(1000, floor)) as usize).max(10);
    let mut floors = Vec::new();
    let mut ratios = vec![Vec::new(); candidates.len()];
    for _ in 0..ROUNDS {
        let base = batch(n, floor);
        floors.push(base);
        for (r, f) in ratios.iter_mut().zip(candidates) {
            r.push(batch(n, *f) / base);
        }
    }
    (floors, ratios)
}

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
    // `cargo bench` passes `--bench`; any other argument is a filter on the
    // body's name.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let cases = [
        Case::bundled::<ToolCall>(
            "mcp_tool_call/small",
            "mcp_tool_call_1.1.0",
            small_tool_call(),
            schema::ToolCall::is_valid,
        ),
        Case::bundled::<TaskSend>(
            "a2a_task_send/small",
            "a2a_task_send_1.0.0",
            small_task_send(),
            schema::TaskSend::is_valid,
        ),
        Case::bundled::<SamplingCreateMessage>(
            "mcp_sampling/100KB",
            "mcp_sampling_create_message_1.0.0",
            large_sampling(),
            schema::SamplingCreateMessage::is_valid,
        ),
        Case::imported::<CallToolResult>(
            "mcp_call_tool_result/3KB",
            MCP_CALL_TOOL_RESULT,
            "mcp_call_tool_result_2025.6.18",
            mcp_call_tool_result(),
            schema::CallToolResult::is_valid,
        ),
        Case::imported::<Message>(
            "a2a_message/20parts",
            A2A_MESSAGE,
            "a2a_message_0.3.0",
            a2a_message(),
            schema::Message::is_valid,
        ),
    ];
    println!(
        "{:<26} {:>6} {:>9} {:>10} {:>10} {:>10} {:>11} {:>11}",
        "body", "bytes", "floor ns", "generated", "runtime", "from_json", "jsonschema", "js compiled"
    );
    if let Some(what) = std::env::var_os("RATIOS_PROFILE") {
        // One body's runtime (or `generated`) check alone for two seconds,
        // for a profiler: `RATIOS_PROFILE=runtime`, `generated` or `floor`, the body
        // picked by the filter.
        // `RATIOS_CALLS=N`: exactly N thousand calls instead (for instruction counts per call).
        let Some(case) = cases.iter().find(|c| filter.iter().any(|f| c.name.contains(f.as_str()))) else {
            // An invalid body's name (`bad`): its whole report instead.
            return invalid(&filter);
        };
        let calls: Option<u64> = std::env::var("RATIOS_CALLS").ok().and_then(|n| n.parse().ok());
        let start = Instant::now();
        let mut rounds = 0;
        while calls.map_or(start.elapsed() < Duration::from_secs(2), |n| rounds < n) {
            rounds += 1;
            for _ in 0..1000 {
                let ok = if what == "generated" {
                    (case.generated)(black_box(&case.body)).is_valid()
                } else if what == "floor" {
                    serde_json::from_slice::<IgnoredAny>(black_box(&case.body)).is_ok()
                } else {
                    case.spec.validate_json(black_box(&case.body)).is_valid()
                };
                assert!(black_box(ok));
            }
        }
        return;
    }
    for case in cases.iter().filter(|c| filter.is_empty() || filter.iter().any(|f| c.name.contains(f.as_str()))) {
        let body = &case.body;
        let floor = || serde_json::from_slice::<IgnoredAny>(black_box(body)).is_ok();
        let parsed = |check: &dyn Fn(&Value) -> bool| {
            let v: Value = serde_json::from_slice(black_box(body)).expect("json");
            check(&v)
        };
        let candidates: [&dyn Fn() -> bool; 5] = [
            &|| (case.generated)(black_box(body)).is_valid(),
            &|| case.spec.validate_json(black_box(body)).is_valid(),
            &|| (case.from_json)(black_box(body)),
            &|| parsed(&|v| case.schema.is_valid(v)),
            &|| parsed(&case.compiled),
        ];
        let (floors, ratios) = interleave(&floor, &candidates);
        let [g, r, t, j, c] = [0, 1, 2, 3, 4].map(|i| median(ratios[i].clone()));
        println!(
            "{:<26} {:>6} {:>9.0} {g:>9.2}x {r:>9.2}x {t:>9.2}x {j:>10.2}x {c:>10.2}x",
            case.name,
            body.len(),
            median(floors)
        );
    }
    invalid(&filter);
}

/// A body with findings and what reports them.
struct Invalid {
    name: &'static str,
    body: Vec<u8>,
    spec: ContractSpec,
    schema: jsonschema::Validator,
    generated: fn(&[u8]) -> Report,
}

impl Invalid {
    fn new<T: Contract>(name: &'static str, body: Vec<u8>, spec: ContractSpec, schema: &Value) -> Invalid {
        let schema = jsonschema::options().should_validate_formats(true).build(schema).expect("schema compiles");
        let value: Value = serde_json::from_slice(&body).expect("json");
        let report = spec.validate_json(&body);
        assert!(!report.is_valid(), "{name}: the body must be invalid");
        assert_eq!(T::validate_json(&body), report, "{name}: generated and runtime findings");
        assert!(!schema.is_valid(&value), "{name}: jsonschema must refuse the body too");
        Invalid { name, body, spec, schema, generated: T::validate_json }
    }
}

/// The cost of a report with findings, as ratios to the floor.
fn invalid(filter: &[String]) {
    let cases = [
        Invalid::new::<CallToolResult>(
            "mcp_call_tool_result/bad",
            invalid_mcp_call_tool_result(),
            real_contract(MCP_CALL_TOOL_RESULT),
            &real_schema(MCP_CALL_TOOL_RESULT),
        ),
        Invalid::new::<Message>(
            "a2a_message/bad",
            invalid_a2a_message(),
            real_contract(A2A_MESSAGE),
            &real_schema(A2A_MESSAGE),
        ),
        Invalid::new::<ToolsCallRequest>(
            "mcp_tools_call_request/bad",
            invalid_tools_call_request(),
            catalog_contract(MCP_TOOLS_CALL_REQUEST),
            &catalog_schema(MCP_TOOLS_CALL_REQUEST),
        ),
    ];
    if let Some(what) = std::env::var_os("RATIOS_PROFILE") {
        let case = cases.iter().find(|c| filter.iter().any(|f| c.name.contains(f.as_str()))).expect("a body by name");
        let calls: u64 = std::env::var("RATIOS_CALLS").ok().and_then(|n| n.parse().ok()).unwrap_or(2000);
        for _ in 0..calls * 1000 {
            let report = if what == "generated" {
                (case.generated)(black_box(&case.body))
            } else {
                case.spec.validate_json(black_box(&case.body))
            };
            assert!(!black_box(report).is_valid());
        }
        return;
    }
    println!();
    println!(
        "{:<26} {:>6} {:>9} {:>10} {:>10} {:>11}",
        "invalid body", "bytes", "floor ns", "generated", "runtime", "jsonschema"
    );
    for case in cases.iter().filter(|c| filter.is_empty() || filter.iter().any(|f| c.name.contains(f.as_str()))) {
        let body = &case.body;
        let floor = || serde_json::from_slice::<IgnoredAny>(black_box(body)).is_ok();
        let candidates: [&dyn Fn() -> bool; 3] = [
            &|| !(case.generated)(black_box(body)).is_valid(),
            &|| !case.spec.validate_json(black_box(body)).is_valid(),
            &|| {
                let v: Value = serde_json::from_slice(black_box(body)).expect("json");
                !case.schema.is_valid(&v)
            },
        ];
        let (floors, ratios) = interleave(&floor, &candidates);
        let [g, r, j] = [0, 1, 2].map(|i| median(ratios[i].clone()));
        println!("{:<26} {:>6} {:>9.0} {g:>9.2}x {r:>9.2}x {j:>10.2}x", case.name, body.len(), median(floors));
    }
}
