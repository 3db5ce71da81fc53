//! Bulk traffic: a capture of ~400,000 raw MCP `tools/call`
//! requests (realistic arguments, 2% invalid), generated deterministically,
//! judged the way `cargo protocolarc traffic --quiet` judges it (lines read
//! in batches by `input::each_batch`, as the CLI reads them), `Traffic::lines` on 1 and 2 jobs, the quiet text rendering
//! written to a sink), timed interleaved with the floor of merely reading
//! the JSON: the capture read in batches as traffic reads it, each line
//! `serde_json::from_slice::<IgnoredAny>`, on one core. Then the invalid path: a capture of only invalid requests against
//! the same floor over it. Each round times every candidate once over the
//! whole file; the table gives the median of the per-round ratios.
//!
//! `cargo bench -p protocolarc-bench --bench bulk` (from bench/); `BULK_ROUNDS=N`
//! for N rounds instead of 7.
//!
//! `BULK_WRITE=DIR cargo bench -p protocolarc-bench --bench bulk` writes the
//! captures instead (`DIR/mcp-400k.jsonl`, `DIR/mcp-1600k.jsonl`,
//! `DIR/mcp-invalid-100k.jsonl`) for the CLI's peak memory under
//! `/usr/bin/time`.

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use cargo_protocolarc::render::traffic::{write_text, Summary};
use protocolarc::input::{each_batch, LineBatches};
use protocolarc::traffic::{batch_bytes, Traffic};
use protocolarc::Catalog;
use serde::de::IgnoredAny;

/// Lines of the main capture.
const LINES: usize = 400_000;
/// Lines of the all-invalid capture.
const INVALID_LINES: usize = 100_000;
/// Rounds of interleaved timings (`BULK_ROUNDS=N` for more: this machine's
/// speed drifts within a run, and more rounds steady the medians).
const ROUNDS: usize = 7;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "the", "server", "request", "tool", "file", "error", "config", "deploy", "user", "cache", "index", "query",
    "result", "agent", "build", "test", "review", "merge", "branch", "update", "schema", "é", "naïve", "日本",
];

fn words(rng: &mut Rng, n: u64) -> String {
    let mut out = String::new();
    for i in 0..n {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(rng.pick(WORDS));
    }
    out
}

/// A JSON string literal.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

/// The arguments of one of the tools the anchors' real servers list
/// (filesystem, github, fetch, memory).
fn arguments(rng: &mut Rng) -> (&'static str, String) {
    match rng.below(6) {
        0 => {
            let path = format!("/home/dev/project/src/{}/{}.rs", rng.pick(WORDS), rng.pick(WORDS));
            ("read_file", format!(r#"{{"path":{}}}"#, quoted(&path)))
        }
        1 => {
            let path = format!("/home/dev/project/notes/{}.md", rng.pick(WORDS));
            let content = {
                let n = 20 + rng.below(60);
                words(rng, n)
            };
            ("write_file", format!(r#"{{"path":{},"content":{}}}"#, quoted(&path), quoted(&content)))
        }
        2 => {
            let q = {
                let n = 1 + rng.below(4);
                words(rng, n)
            };
            let page = 1 + rng.below(5);
            ("search_repositories", format!(r#"{{"query":{},"page":{page},"perPage":30}}"#, quoted(&q)))
        }
        3 => {
            let title = {
                let n = 3 + rng.below(6);
                words(rng, n)
            };
            let body = {
                let n = 10 + rng.below(40);
                words(rng, n)
            };
            let labels: Vec<String> = (0..rng.below(3)).map(|_| quoted(rng.pick(WORDS))).collect();
            (
                "create_issue",
                format!(
                    r#"{{"owner":"acme","repo":"widgets","title":{},"body":{},"labels":[{}],"assignees":["octocat"]}}"#,
                    quoted(&title),
                    quoted(&body),
                    labels.join(",")
                ),
            )
        }
        4 => {
            let url = format!("https://example.com/{}/{}?page={}", rng.pick(WORDS), rng.pick(WORDS), rng.below(100));
            ("fetch", format!(r#"{{"url":{},"max_length":5000,"start_index":0,"raw":false}}"#, quoted(&url)))
        }
        _ => {
            let name = words(rng, 2);
            let observations: Vec<String> = (0..1 + rng.below(3)).map(|_| quoted(&words(rng, 6))).collect();
            (
                "create_entities",
                format!(
                    r#"{{"entities":[{{"name":{},"entityType":"person","observations":[{}]}}]}}"#,
                    quoted(&name),
                    observations.join(",")
                ),
            )
        }
    }
}

/// One `tools/call` request; `invalid`: one the 2025-06-18
/// `mcp.tools/call.request` contract refuses.
fn request(rng: &mut Rng, n: usize, invalid: bool, out: &mut String) {
    let (tool, args) = arguments(rng);
    let id = if n.is_multiple_of(3) { format!(r#""req-{n}""#) } else { n.to_string() };
    let params = if !invalid {
        format!(r#"{{"name":"{tool}","arguments":{args}}}"#)
    } else {
        match rng.below(4) {
            0 => format!(r#"{{"name":{},"arguments":{args}}}"#, rng.below(1000)),
            1 => format!(r#"{{"arguments":{args}}}"#),
            2 => format!(r#"{{"name":"{tool}","arguments":[{args}]}}"#),
            _ => format!(r#"{{"name":"{tool}","arguments":{}}}"#, quoted(&args)),
        }
    };
    let _ = writeln!(out, r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#);
}

/// `lines` requests, `invalid_per_100` of each hundred invalid.
fn capture(lines: usize, invalid_per_100: u64, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut out = String::with_capacity(lines * 300);
    for n in 1..=lines {
        let invalid = rng.below(100) < invalid_per_100;
        request(&mut rng, n, invalid, &mut out);
    }
    out.into_bytes()
}

/// The lines of `file`, found by `memchr` on the slice itself.
fn lines(file: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', file).chain(std::iter::once(file.len())).map(move |end| {
        let line = &file[start..end];
        start = end + 1;
        line
    })
}

/// The floor: the capture read as traffic reads it (`input::each_batch`
/// over `LineBatches`, batches of traffic's one-job size: one copy and one
/// `memchr` pass per batch, lines as slices of it), every line read as
/// JSON and thrown away, on one core.
///
/// It reads lines as the CLI does, not by a byte-at-a-time split (which
/// would make the floor slower than the product it bounds).
fn floor(file: &[u8]) -> usize {
    let mut n = 0;
    each_batch(LineBatches::new(file, usize::MAX), usize::MAX, batch_bytes(1), |lines, read_ahead| {
        for &(_, line) in lines {
            if !line.is_empty() && serde_json::from_slice::<IgnoredAny>(line).is_ok() {
                n += 1;
            }
        }
        read_ahead();
        Ok::<(), std::convert::Infallible>(())
    })
    .expect("memory reads");
    n
}

/// The floor without reading: lines found by `memchr` in the slice, no
/// copy (a profile figure: the least time the parse alone takes).
fn floor_slice(file: &[u8]) -> usize {
    lines(file).filter(|line| !line.is_empty() && serde_json::from_slice::<IgnoredAny>(line).is_ok()).count()
}

/// `traffic --quiet` on `file`: lines read in batches as the CLI reads
/// them, judged on `jobs` threads, failures rendered as text to a sink, the
/// summary counted. Returns the failures.
fn traffic(catalog: &Catalog, file: &[u8], jobs: usize) -> usize {
    let mut traffic = Traffic::new("mcp", "mcp@2025-06-18", catalog, None);
    let mut sink = std::io::sink();
    let mut summary = Summary::default();
    let batches = LineBatches::new(file, usize::MAX);
    each_batch(batches, usize::MAX, batch_bytes(jobs), |lines, read_ahead| {
        traffic.lines("cap.jsonl", lines, jobs, read_ahead, |j| {
            summary.add(&j);
            if !j.report.is_valid() {
                write_text(&mut sink, &j)?;
            }
            Ok::<(), std::io::Error>(())
        })
    })
    .expect("memory reads, and a sink takes anything");
    let _ = sink.flush();
    summary.failed
}

fn seconds(f: impl FnOnce() -> usize) -> f64 {
    let start = Instant::now();
    black_box(f());
    start.elapsed().as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let big = capture(LINES, 2, 0x5EED);
    let invalid = capture(INVALID_LINES, 100, 0xBAD);
    if let Some(dir) = std::env::var_os("BULK_WRITE") {
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("the output directory");
        std::fs::write(dir.join("mcp-400k.jsonl"), &big).expect("written");
        std::fs::write(dir.join("mcp-1600k.jsonl"), big.repeat(4)).expect("written");
        std::fs::write(dir.join("mcp-invalid-100k.jsonl"), &invalid).expect("written");
        println!("wrote {}", dir.display());
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../protocols/mcp/2025-06-18");
    let catalog = Catalog::load(&[root]).expect("the bundled MCP catalog loads");
    if let Some(what) = std::env::var_os("BULK_PROFILE") {
        // One candidate alone, for a profiler: `valid` or `invalid`, one
        // job; `valid2`: the valid capture on two jobs; `walker`: the schema
        // walker alone on the valid capture's lines; `floor` and
        // `invalid-floor`: the floor on either capture (instruction counts
        // of a candidate and of its floor give a ratio that does not drift).
        // `BULK_PASSES=N`: N passes instead of 3 (the difference of two
        // counts is N passes without the captures' generation).
        let passes = std::env::var("BULK_PASSES").ok().and_then(|n| n.parse().ok()).unwrap_or(3);
        let file = if what == "invalid" || what == "invalid-floor" { &invalid } else { &big };
        if what == "floor" || what == "invalid-floor" {
            for _ in 0..passes {
                black_box(floor(file));
            }
            return;
        }
        if what == "walker" {
            // The schema walker alone on the lines of the slice (the profile row).
            let request =
                catalog.contracts().find(|c| c.name() == "mcp.tools/call.request").expect("the request contract");
            for _ in 0..passes {
                black_box(lines(file).filter(|l| !l.is_empty() && !request.validate_json(l).is_valid()).count());
            }
            return;
        }
        let jobs = if what == "valid2" { 2 } else { 1 };
        for _ in 0..passes {
            black_box(traffic(&catalog, file, jobs));
        }
        return;
    }
    let failed = traffic(&catalog, &big, 1);
    assert_eq!(failed, traffic(&catalog, &big, 2), "1 and 2 jobs agree");
    let all = traffic(&catalog, &invalid, 1);
    assert_eq!(all, INVALID_LINES, "every request of the invalid capture fails");
    println!(
        "capture: {LINES} tools/call requests, {:.1} MB, {failed} invalid ({:.1}%); invalid capture: {INVALID_LINES} requests, {:.1} MB",
        big.len() as f64 / 1e6,
        failed as f64 * 100.0 / LINES as f64,
        invalid.len() as f64 / 1e6
    );

    // What the schema walker alone costs: the request contract on every
    // line, one core (a profile figure, not a target).
    let request = catalog.contracts().find(|c| c.name() == "mcp.tools/call.request").expect("the request contract");
    let walker = |file: &[u8]| lines(file).filter(|l| !l.is_empty() && !request.validate_json(l).is_valid()).count();
    let (mut floor_s, mut one, mut two, mut bad_floor, mut bad) = (vec![], vec![], vec![], vec![], vec![]);
    let (mut r1, mut r2, mut rbad, mut walk, mut rwalk) = (vec![], vec![], vec![], vec![], vec![]);
    let (mut walk_bad, mut rwalk_bad) = (vec![], vec![]);
    // What two cores give the floor itself: the file in two halves (cut at
    // a line break), one per thread.
    let half = big.len() / 2 + big[big.len() / 2..].iter().position(|&b| b == b'\n').expect("lines") + 1;
    let floor2 = || {
        std::thread::scope(|s| {
            let other = s.spawn(|| floor(&big[half..]));
            floor(&big[..half]) + other.join().expect("the floor does not panic")
        })
    };
    assert_eq!(floor(&big), LINES, "the floor reads every line");
    assert_eq!(floor(&invalid), INVALID_LINES, "the floor reads every invalid line");
    assert_eq!(floor2(), floor(&big));
    let (mut two_floor, mut rtwo_floor) = (vec![], vec![]);
    assert_eq!(floor_slice(&big), floor(&big));
    let (mut slice_floor, mut rslice_floor) = (vec![], vec![]);
    let rounds = std::env::var("BULK_ROUNDS").ok().and_then(|n| n.parse().ok()).filter(|&n| n > 0).unwrap_or(ROUNDS);
    for _ in 0..rounds {
        let f = seconds(|| floor(&big));
        let f2 = seconds(floor2);
        two_floor.push(f2);
        rtwo_floor.push(f2 / f);
        let fs = seconds(|| floor_slice(&big));
        slice_floor.push(fs);
        rslice_floor.push(fs / f);
        let t1 = seconds(|| traffic(&catalog, &big, 1));
        let t2 = seconds(|| traffic(&catalog, &big, 2));
        let bf = seconds(|| floor(&invalid));
        let tb = seconds(|| traffic(&catalog, &invalid, 1));
        let w = seconds(|| walker(&big));
        walk.push(w);
        rwalk.push(w / fs);
        let bfs = seconds(|| floor_slice(&invalid));
        let wb = seconds(|| walker(&invalid));
        walk_bad.push(wb);
        rwalk_bad.push(wb / bfs);
        r1.push(t1 / f);
        r2.push(t2 / f);
        rbad.push(tb / bf);
        floor_s.push(f);
        one.push(t1);
        two.push(t2);
        bad_floor.push(bf);
        bad.push(tb);
    }
    let mb = big.len() as f64 / 1e6;
    let bad_mb = invalid.len() as f64 / 1e6;
    println!("{rounds} rounds, medians:");
    println!("| run | time (s) | MB/s | ratio to the floor (median of rounds) | target |");
    println!("|---|---:|---:|---:|---:|");
    let row = |name: &str, t: &[f64], size: f64, ratio: Option<f64>, target: &str| {
        let t = median(t.to_vec());
        let ratio = ratio.map_or("1.00".to_string(), |r| format!("{r:.2}"));
        println!("| {name} | {t:.3} | {:.0} | {ratio} | {target} |", size / t);
    };
    row("floor (batches read as traffic reads them, IgnoredAny, 1 core), 400k requests", &floor_s, mb, None, "");
    row("traffic --jobs 1 --quiet", &one, mb, Some(median(r1)), "<= 2.0");
    row("traffic --jobs 2 --quiet", &two, mb, Some(median(r2)), "<= 1.2");
    row("(profile) the floor itself on 2 threads", &two_floor, mb, Some(median(rtwo_floor)), "");
    row(
        "(profile) the floor without reading: memchr on the slice, no copy",
        &slice_floor,
        mb,
        Some(median(rslice_floor)),
        "",
    );
    row(
        "(profile) schema walker alone on the slice's lines, 1 core, ratio to the floor without reading",
        &walk,
        mb,
        Some(median(rwalk)),
        "",
    );
    row("floor (batches read as traffic reads them), 100k invalid requests", &bad_floor, bad_mb, None, "");
    row("traffic --jobs 1 --quiet, all invalid", &bad, bad_mb, Some(median(rbad)), "<= 2.5");
    row(
        "(profile) schema walker alone on the slice's lines, all invalid, ratio to the floor without reading",
        &walk_bad,
        bad_mb,
        Some(median(rwalk_bad)),
        "",
    );
}
