//! The stdio proxy's cost (`cargo bench -p protocolarc-bench --bench
//! proxy`): a client drives real-sized MCP messages (a `tools/call` request
//! of ~300 bytes, a 4 KB `CallToolResult`) one round trip at a time through
//! `proxy-under-bench` against a replaying server, with no proxy, with the
//! proxy as a plain relay (`--relay`) and with checks on (observe), and
//! prints for each: messages per second, round-trip latency p50/p99, the
//! latency added to the direct round trip (p50/p99), and the proxy's
//! resident memory at a tenth and at the end of the session.
//!
//! `PROXY_BENCH_MESSAGES` (default 100,000: half requests, half results).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const PROXY: &str = env!("CARGO_BIN_EXE_proxy-under-bench");
const SERVER: &str = env!("CARGO_BIN_EXE_replay-server");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

/// A 4 KB CallToolResult: text blocks as a search tool returns them.
fn results_file() -> PathBuf {
    let block = |i: usize| {
        format!(
            r#"{{"type":"text","text":"result {i}: {} https://example.com/docs/{i}"}}"#,
            "the quick brown fox jumps over the lazy dog ".repeat(4)
        )
    };
    let content: Vec<String> = (0..18).map(block).collect();
    let call = format!(r#"{{"content":[{}],"isError":false}}"#, content.join(","));
    let results = format!(
        r#"{{"initialize":{{"protocolVersion":"2025-06-18","capabilities":{{"tools":{{}}}},"serverInfo":{{"name":"replay","version":"1.0.0"}}}},"tools/call":{call}}}"#
    );
    let path = std::env::temp_dir().join(format!("protocolarc-proxy-bench-{}.json", std::process::id()));
    std::fs::write(&path, results).expect("written");
    path
}

fn request(id: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"search","arguments":{{"query":"contract testing for agent protocols, page {id}","limit":20,"filters":{{"site":"docs.example.com","lang":"en","after":"2025-01-01"}}}},"_meta":{{"progressToken":"p{id}"}}}}}}"#
    )
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1.0.0"}}}"#;

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

struct Measured {
    total: Duration,
    latencies: Vec<u64>,
    rss: (u64, u64),
}

fn drive(mut child: Child, round_trips: usize) -> Measured {
    let pid = child.id();
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    writeln!(input, "{INITIALIZE}").expect("written");
    output.read_line(&mut line).expect("initialized");
    let requests: Vec<String> = (1..=round_trips).map(request).collect();
    let mut latencies = Vec::with_capacity(round_trips);
    let mut rss = (0, 0);
    let started = Instant::now();
    for (i, r) in requests.iter().enumerate() {
        let t = Instant::now();
        input.write_all(r.as_bytes()).expect("written");
        input.write_all(b"\n").expect("written");
        input.flush().expect("flushed");
        line.clear();
        output.read_line(&mut line).expect("answered");
        latencies.push(t.elapsed().as_nanos() as u64);
        assert!(line.len() > 4000, "a 4 KB result: {line}");
        if i == round_trips / 10 {
            rss.0 = rss_kib(pid);
        }
    }
    let total = started.elapsed();
    rss.1 = rss_kib(pid);
    drop(input);
    child.wait().expect("exits");
    latencies.sort_unstable();
    Measured { total, latencies, rss }
}

fn pct(sorted: &[u64], p: f64) -> u64 {
    sorted[((sorted.len() as f64 - 1.0) * p) as usize]
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let messages: usize = std::env::var("PROXY_BENCH_MESSAGES").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let round_trips = messages / 2;
    let results = results_file();
    let catalog = root().join("protocols");
    let spawn = |mode: Option<&str>| {
        let mut c = match mode {
            None => Command::new(SERVER),
            Some(mode) => {
                let mut c = Command::new(PROXY);
                c.arg(mode).arg(&catalog).arg("--").arg(SERVER);
                c
            }
        };
        c.arg(&results).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        c.spawn().expect("starts")
    };
    println!("proxy bench: {messages} messages ({round_trips} tools/call round trips, 4 KB results), one at a time");
    let direct = drive(spawn(None), round_trips);
    let relay = drive(spawn(Some("relay")), round_trips);
    let on = drive(spawn(Some("observe")), round_trips);
    println!("| run | messages/s | round trip p50 / p99 | added p50 / p99 | RSS at 10% / end |");
    println!("|---|---:|---|---|---|");
    for (name, m) in [("server alone", &direct), ("proxy --relay", &relay), ("proxy, checks on", &on)] {
        let per_s = messages as f64 / m.total.as_secs_f64();
        let added = |p| pct(&m.latencies, p).saturating_sub(pct(&direct.latencies, p));
        let rss = if m.rss.0 == 0 { "-".to_string() } else { format!("{} / {} MiB", m.rss.0 / 1024, m.rss.1 / 1024) };
        println!(
            "| {name} | {per_s:.0} | {:.1} / {:.1} µs | {:.1} / {:.1} µs | {rss} |",
            pct(&m.latencies, 0.5) as f64 / 1e3,
            pct(&m.latencies, 0.99) as f64 / 1e3,
            added(0.5) as f64 / 1e3,
            added(0.99) as f64 / 1e3,
        );
    }
    let ratio = on.total.as_secs_f64() / relay.total.as_secs_f64();
    println!("checks on / relay, time per message: {ratio:.2}x (target <= 1.25x)");
    let _ = std::fs::remove_file(results);
}
