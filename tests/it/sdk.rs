//! The official SDKs' real traffic (`tests/sdk/run.py`): a real MCP client
//! and server over stdio through a recording relay, with server-to-client
//! requests whose ids collide with the client's; `traffic` passes every
//! recorded message, the raw session only warns (`route.ambiguous`), and
//! one-change mutants fail exactly where python `jsonschema` on the vendored
//! official schema fails them. Then a real A2A client and server (`a2a-sdk`)
//! over HTTP on loopback through a recording HTTP relay, A2A 1.0 and 0.3, a
//! plain and a streaming send each: the recorded lines and the HAR files
//! pass, a changed stream event fails alone (`FILE#ENTRY[event N]`), and the
//! 0.3 mutants fail where `jsonschema` on the vendored 0.3 schema does.
//!
//! The Python environment is `PROTOCOLARC_SDK_VENV` (`.ci/run` makes it:
//! `python3 -m venv`, pinned `mcp`, `jsonschema` and `a2a-sdk[http-server]`). Set and broken, the
//! test fails; unset (a plain `cargo test`), it says on stderr that it did
//! not run, and how to run it.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use protocolarc_tests::{bin, root, scratch};

#[test]
fn real_sdk_sessions_pass_and_their_mutants_fail_where_the_official_schema_does() {
    let Some(venv) = std::env::var_os("PROTOCOLARC_SDK_VENV") else {
        eprintln!(
            "sdk: NOT RUN: PROTOCOLARC_SDK_VENV is not set (`.ci/run` sets it; by hand: python3 -m venv target/sdk-venv \
             && target/sdk-venv/bin/pip install mcp==2.3.0 jsonschema==4.26.0 'a2a-sdk[http-server]==1.3.0', then PROTOCOLARC_SDK_VENV=target/sdk-venv)"
        );
        return;
    };
    let venv = PathBuf::from(venv);
    let python = venv.join("bin/python");
    assert!(python.is_file(), "PROTOCOLARC_SDK_VENV={} has no bin/python", venv.display());
    let work = scratch("sdk");
    let started = Instant::now();
    let out = Command::new(&python)
        .arg(root().join("tests/sdk/run.py"))
        .arg(bin!())
        .arg(root())
        .arg(&work)
        .output()
        .expect("python runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}{stderr}");
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(summary.ends_with(" passed, 0 failed"), "{stdout}{stderr}");
    let checks: usize = summary.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
    // The sessions' own checks, one per recorded message, one per mutant
    // (the MCP half about 70, the A2A half about 25).
    assert!(checks >= 90, "{stdout}");
    assert!(started.elapsed() < Duration::from_secs(120), "took {:?}", started.elapsed());
}
