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
//! And `docs/pinning.md` followed as written (`tests/sdk/pin_run.py`) on the
//! real MCP server's `tools/list`, recorded from a real session: `check`
//! catches the rug pull and a breaking change, `diff` names them.
//!
//! The Python environment is `PROTOCOLARC_SDK_VENV` when set (`.ci/run` sets
//! it), used as it is: without the pinned packages the tests fail. Unset, it
//! is `target/sdk-venv`, reused when it holds the pinned packages, else made
//! here (`python3 -m venv`, `pip install` of the versions `.ci/run` pins);
//! when that cannot be done (no `python3`, no network) the tests fail saying
//! so: they never pass without having run.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use protocolarc_tests::{bin, root, scratch};

/// The packages `.ci/run` installs, pinned alike.
const PACKAGES: [&str; 3] = ["mcp==2.3.0", "jsonschema==4.26.0", "a2a-sdk[http-server]==1.3.0"];

/// Imports the SDKs and compares their installed versions with
/// [`PACKAGES`]; exits non-zero naming what differs.
const PROBE: &str = "import mcp, a2a, jsonschema\n\
from importlib.metadata import version\n\
found = {n: version(n) for n in ('mcp', 'jsonschema', 'a2a-sdk')}\n\
wanted = {'mcp': '2.3.0', 'jsonschema': '4.26.0', 'a2a-sdk': '1.3.0'}\n\
assert found == wanted, f'installed {found}, pinned {wanted}'\n";

/// Runs `program args`; `Err` says what was run and how it failed.
fn run(program: &Path, args: &[&str]) -> Result<(), String> {
    let out = Command::new(program).args(args).output().map_err(|e| format!("{}: {e}", program.display()))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "`{} {}` exited {}:\n{}{}",
        program.display(),
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

/// `target/sdk-venv` with the pinned packages: reused when it has them,
/// else made (or completed) with `python3 -m venv` and `pip install`.
fn provision(venv: &Path) -> Result<(), String> {
    let python = venv.join("bin/python");
    if python.is_file() && run(&python, &["-c", PROBE]).is_ok() {
        return Ok(());
    }
    if !python.is_file() {
        run(Path::new("python3"), &["-m", "venv", &venv.to_string_lossy()])?;
    }
    let mut args = vec!["-m", "pip", "install", "--quiet", "--disable-pip-version-check"];
    args.extend(PACKAGES);
    run(&python, &args)?;
    run(&python, &["-c", PROBE])
}

/// The Python of the SDK environment, provisioned once per test binary (the
/// tests sharing it wait for one another rather than install side by side).
/// Panics, saying why and how to provide one, when there is none.
pub(crate) fn sdk_python() -> PathBuf {
    static VENV: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let venv = VENV.get_or_init(|| match std::env::var_os("PROTOCOLARC_SDK_VENV") {
        Some(venv) => {
            let python = PathBuf::from(venv).join("bin/python");
            run(&python, &["-c", PROBE]).map(|()| python).map_err(|e| format!("PROTOCOLARC_SDK_VENV: {e}"))
        }
        None => {
            let venv = root().join("target/sdk-venv");
            provision(&venv)
                .map(|()| venv.join("bin/python"))
                .map_err(|e| format!("cannot make {} with {}: {e}", venv.display(), PACKAGES.join(" ")))
        }
    });
    match venv {
        Ok(python) => python.clone(),
        Err(why) => panic!(
            "the real-SDK tests need a Python environment with the official SDKs and could not get one.\n{why}\n\
             Make one by hand (python3 -m venv target/sdk-venv && target/sdk-venv/bin/pip install {}) \
             or point PROTOCOLARC_SDK_VENV at one.",
            PACKAGES.map(|p| format!("'{p}'")).join(" ")
        ),
    }
}

/// Runs `tests/sdk/SCRIPT BIN ROOT WORK` and returns how many checks passed;
/// fails unless every check passed, within `limit`.
fn checks(script: &str, limit: Duration) -> usize {
    let python = sdk_python();
    let work = scratch(script.trim_end_matches(".py"));
    let started = Instant::now();
    let out = Command::new(&python)
        .arg(root().join("tests/sdk").join(script))
        .arg(bin!())
        .arg(root())
        .arg(&work)
        // No `__pycache__` left in the source tree.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{script}:\n{stdout}{stderr}");
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(summary.ends_with(" passed, 0 failed"), "{script}:\n{stdout}{stderr}");
    assert!(started.elapsed() < limit, "{script} took {:?}", started.elapsed());
    summary.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0)
}

#[test]
fn real_sdk_sessions_pass_and_their_mutants_fail_where_the_official_schema_does() {
    // The sessions' own checks, one per recorded message, one per mutant
    // (the MCP half about 70, the A2A half about 25).
    let passed = checks("run.py", Duration::from_secs(120));
    assert!(passed >= 90, "run.py: {passed} checks");
}

#[test]
fn the_pinning_page_run_on_a_real_server_catches_the_rug_pull_and_the_breaking_change() {
    // The pin, the unchanged server, the rug pull, the breaking change under
    // the same revision and under new ones: 56 checks.
    let passed = checks("pin_run.py", Duration::from_secs(60));
    assert_eq!(passed, 56, "pin_run.py: {passed} checks");
}
