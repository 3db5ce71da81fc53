//! What deciding `pattern` inclusion by automata costs inside `diff`, on
//! real tool patterns (MCP tool names of up to 128 characters, dotted
//! identifiers, semantic versions, language tags), each changed the way
//! revisions change them: a character class widened, a length bound moved,
//! a prefix made optional, and a change that is no change at all.
//!
//! Each pair is diffed as two schema-form contracts with one string field
//! (no witness search, so the time is the comparison's), in short batches
//! interleaved with batches of the floor: the same contract with no
//! pattern and a `minLength` change, judged keyword by keyword. The median of the per-round
//! ratios and the median time per diff are reported.
//!
//! `cargo bench -p protocolarc-bench --bench inclusion`

use std::hint::black_box;
use std::time::{Duration, Instant};

use protocolarc::diff::diff_without_witnesses;
use protocolarc::ContractSpec;

const ROUNDS: usize = 21;
const BATCH: Duration = Duration::from_millis(20);

/// Real patterns, each with a revision of it: (what changed, old, new).
const PAIRS: &[(&str, &str, &str)] = &[
    ("tool name: `-` allowed", "^[a-zA-Z0-9_]{1,128}$", "^[a-zA-Z0-9_-]{1,128}$"),
    ("tool name: 128 -> 64", "^[a-zA-Z0-9_.-]{1,128}$", "^[a-zA-Z0-9_.-]{1,64}$"),
    ("tool name: respelled", "^[a-zA-Z0-9_]{1,128}$", "^[[:word:]]{1,128}$"),
    (
        "dotted id: uppercase",
        r"^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*)*$",
        r"^[a-zA-Z][a-zA-Z0-9]*(\.[a-zA-Z][a-zA-Z0-9]*)*$",
    ),
    ("semver: pre-release", r"^[0-9]+\.[0-9]+\.[0-9]+$", r"^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$"),
    ("language tag: region", "^[a-zA-Z]{2}$", "^(-?[a-zA-Z]{2})$"),
    ("url: https only", "^https?:", "^https:"),
];

fn contract(revision: &str, string: &str) -> ContractSpec {
    let doc = format!(
        r#"{{"name": "t.p", "revision": "{revision}", "schema": {{"type": "object", "properties": {{"name": {{"type": "string", {string}}}}}}}}}"#
    );
    ContractSpec::from_slice(doc.as_bytes(), "p.json").expect("a pattern contract")
}

fn pattern(p: &str) -> String {
    format!(r#""pattern": {}"#, serde_json::Value::from(p))
}

/// Diffs `old -> new` in batches of at least [`BATCH`]: seconds per diff.
fn batch(old: &ContractSpec, new: &ContractSpec) -> f64 {
    let start = Instant::now();
    let mut n = 0u32;
    while start.elapsed() < BATCH {
        black_box(diff_without_witnesses(black_box(old), black_box(new)).expect("same name"));
        n += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(n)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    println!("{:<24} {:>12} {:>14} {:>8}  verdict", "pair", "ms per diff", "floor ms", "ratio");
    for &(what, a, b) in PAIRS {
        let (old, new) = (contract("1.0.0", &pattern(a)), contract("2.0.0", &pattern(b)));
        let floor_old = contract("1.0.0", r#""minLength": 1"#);
        let floor_new = contract("2.0.0", r#""minLength": 2"#);
        let verdict = diff_without_witnesses(&old, &new).expect("same name");
        let rules: Vec<&str> = verdict.changes().iter().map(|c| c.rule()).collect();
        let (mut times, mut floors, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            let t = batch(&old, &new);
            let f = batch(&floor_old, &floor_new);
            times.push(t);
            floors.push(f);
            ratios.push(t / f);
        }
        println!(
            "{what:<24} {:>12.3} {:>14.3} {:>8.1}  {}",
            median(times) * 1e3,
            median(floors) * 1e3,
            median(ratios),
            if rules.is_empty() { "no change".to_string() } else { rules.join(", ") }
        );
    }
}
