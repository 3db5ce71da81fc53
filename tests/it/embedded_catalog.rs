//! The protocol catalogs compiled into the CLI (`cargo-protocolarc/catalog/`):
//! the copy is the generated catalog under `protocols/`, byte for byte, and
//! `traffic`, `proxy` and `loss --matrix` run from a directory outside the checkout
//! with nothing but the binary, as they do inside it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use protocolarc_tests::{bin, root, run, scratch, updating, Output};

/// The directories of `protocols/` the binary carries (the vendored schemas
/// they are generated from stay out of it).
const CARRIED: &[&str] = &["mcp", "a2a", "tools-list"];

fn files(dir: &Path, under: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files(&path, under, out);
        } else {
            let rel = path.strip_prefix(under).expect("under").to_string_lossy().replace('\\', "/");
            out.insert(rel, std::fs::read(&path).expect("read"));
        }
    }
}

fn tree(base: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for d in CARRIED {
        files(&base.join(d), base, &mut out);
    }
    out
}

/// `cargo-protocolarc/catalog/` holds exactly the files of `protocols/mcp`,
/// `protocols/a2a` and `protocols/tools-list`. With `UPDATE_GOLDEN=1` the
/// copy is refreshed from `protocols/` (after `cargo protocolarc protocols`).
#[test]
fn the_embedded_copy_is_the_generated_catalog() {
    let generated = tree(&root().join("protocols"));
    let copy_dir = root().join("cargo-protocolarc/catalog");
    assert!(generated.contains_key("mcp/2025-11-25/mcp_tools_call_request.json"), "{:?}", generated.keys().next());
    assert!(generated.len() > 250, "{} files", generated.len());
    if updating() {
        for d in CARRIED {
            let _ = std::fs::remove_dir_all(copy_dir.join(d));
        }
        for (rel, bytes) in &generated {
            let path = copy_dir.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, bytes).expect("write");
        }
    }
    let copy = tree(&copy_dir);
    let only_generated: Vec<_> = generated.keys().filter(|k| !copy.contains_key(*k)).collect();
    let only_copy: Vec<_> = copy.keys().filter(|k| !generated.contains_key(*k)).collect();
    let differ: Vec<_> =
        generated.iter().filter(|(k, v)| copy.get(*k).is_some_and(|c| c != *v)).map(|(k, _)| k).collect();
    assert!(
        only_generated.is_empty() && only_copy.is_empty() && differ.is_empty(),
        "cargo-protocolarc/catalog/ is not protocols/ (refresh with UPDATE_GOLDEN=1 cargo test -p protocolarc-tests \
         --test it embedded_catalog): missing {only_generated:?}, extra {only_copy:?}, different {differ:?}"
    );
}

/// Runs the CLI in `dir` with its cache in `cache`.
fn run_outside(dir: &Path, cache: &Path, args: &[&str]) -> Output {
    let out = Command::new(bin!())
        .arg("protocolarc")
        .args(args)
        .current_dir(dir)
        .env("XDG_CACHE_HOME", cache)
        .env_remove("CARGO_TERM_COLOR")
        .env_remove("NO_COLOR")
        .output()
        .expect("run the CLI");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn outside(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    assert!(!dir.starts_with(root()), "{} is inside the checkout", dir.display());
    assert!(!dir.join("protocols").exists() && !dir.join("Cargo.toml").exists());
    let cache = dir.join("cache");
    (dir, cache)
}

/// A real MCP capture: outside the checkout (no `protocols/`, no project)
/// the built-in catalog judges it exactly as `protocols/` does inside.
#[test]
fn traffic_runs_outside_the_checkout() {
    let (dir, cache) = outside("embedded-traffic");
    let capture = protocolarc_tests::data("traffic/mcp-2025-06-18.jsonl");
    std::fs::copy(&capture, dir.join("mcp-2025-06-18.jsonl")).expect("copy the capture");
    let there = run_outside(&dir, &cache, &["traffic", "mcp-2025-06-18.jsonl"]);
    let here = run(bin!(), &["traffic", "tests/data/traffic/mcp-2025-06-18.jsonl"]);
    assert_eq!(here.code, 1, "{}", here.stderr);
    assert!(
        here.stdout.ends_with("traffic mcp@2025-06-18: 7 messages, 5 passed, 2 failed; field.type 2\n"),
        "{}",
        here.stdout
    );
    assert_eq!((there.code, &there.stdout), (here.code, &here.stdout), "{}", there.stderr);
    // The catalog was written under the cache directory the run was given.
    let written: Vec<_> = std::fs::read_dir(cache.join("protocolarc")).expect("cache").collect();
    assert_eq!(written.len(), 1);
}

/// `loss --matrix` reads the bundled tools/list captures from anywhere; a
/// damaged extracted file is written again before use.
#[test]
fn loss_matrix_runs_outside_the_checkout_and_repairs_its_copy() {
    let (dir, cache) = outside("embedded-loss");
    let here = run(bin!(), &["loss", "--matrix"]);
    assert_eq!(here.code, 0, "{}", here.stderr);
    assert!(here.stdout.contains("github-mcp-server-2025-08-13.json"), "{}", here.stdout);
    let there = run_outside(&dir, &cache, &["loss", "--matrix"]);
    assert_eq!((there.code, &there.stdout), (0, &here.stdout), "{}", there.stderr);
    let extracted =
        std::fs::read_dir(cache.join("protocolarc")).expect("cache").next().expect("one").expect("entry").path();
    let damaged = extracted.join("tools-list/github-mcp-server-2025-08-13.json");
    let good = std::fs::read(&damaged).expect("extracted capture");
    std::fs::write(&damaged, b"{").expect("damage");
    let again = run_outside(&dir, &cache, &["loss", "--matrix"]);
    assert_eq!((again.code, &again.stdout), (0, &here.stdout), "{}", again.stderr);
    assert_eq!(std::fs::read(&damaged).expect("repaired"), good);
}

/// The verdict lines of a proxy's text report (its events, which the two
/// directions' ends race to, left out).
fn verdicts(stderr: &str) -> Vec<&str> {
    let mut kept = Vec::new();
    let mut finding = false;
    for line in stderr.lines() {
        finding = line.starts_with("protocolarc proxy: [") || (finding && line.starts_with("  "));
        if finding {
            kept.push(line);
        }
    }
    kept
}

/// `proxy` outside the checkout judges a server's messages with the built-in
/// catalog as it does inside with `protocols/`: the bytes forwarded and the
/// verdicts are the same.
#[test]
fn proxy_runs_outside_the_checkout() {
    let (dir, cache) = outside("embedded-proxy");
    let said = concat!(
        r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"loud","data":"x"}}"#,
        "\n"
    );
    std::fs::write(dir.join("server.jsonl"), said).expect("write the server's lines");
    let there = run_outside(&dir, &cache, &["proxy", "--protocol", "mcp@2025-06-18", "--", "cat", "server.jsonl"]);
    let inside = scratch("embedded-proxy-inside").join("server.jsonl");
    std::fs::write(&inside, said).expect("write the server's lines");
    let inside = inside.display().to_string();
    let here = run(bin!(), &["proxy", "--protocol", "mcp@2025-06-18", "--catalog", "protocols", "--", "cat", &inside]);
    assert_eq!((here.code, here.stdout.as_str()), (0, said), "{}", here.stderr);
    assert_eq!(
        verdicts(&here.stderr),
        [
            "protocolarc proxy: [FAIL] mcp.notifications/message.request@2025.6.18 <- stdio#2",
            "  ERROR field.enum params.level: value 'loud' not in {'alert', 'critical', 'debug', 'emergency', \
             'error', ... (8 values)}",
        ]
    );
    assert_eq!((there.code, there.stdout.as_str()), (0, said), "{}", there.stderr);
    assert_eq!(verdicts(&there.stderr), verdicts(&here.stderr));
}
