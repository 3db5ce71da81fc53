//! A fixed loop over one validator call, for `valgrind --tool=callgrind`
//! (instruction counts, repeatable on a noisy machine):
//! `cargo build --release -p protocolarc-bench --example profile &&
//!  valgrind --tool=callgrind target/release/examples/profile small [floor]`

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "small".into());
    let floor = std::env::args().nth(2).is_some_and(|a| a == "floor");
    let (spec, body) = match which.as_str() {
        "large" => {
            (protocolarc_bench::contract("mcp_sampling_create_message_1.0.0"), protocolarc_bench::large_sampling())
        }
        _ => (protocolarc_bench::contract("mcp_tool_call_1.1.0"), protocolarc_bench::small_tool_call()),
    };
    let rounds = if which == "large" { 200 } else { 20_000 };
    let mut errors = 0;
    for _ in 0..rounds {
        if floor {
            let r = serde_json::from_slice::<serde::de::IgnoredAny>(std::hint::black_box(&body));
            errors += usize::from(r.is_err());
        } else {
            errors += spec.validate_json(std::hint::black_box(&body)).findings().len();
        }
    }
    println!("{which}: {rounds} rounds, {errors} findings");
}
