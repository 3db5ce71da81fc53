//! Shared helpers for the cross-crate tests: run the CLI as a process, compare
//! against golden files with a readable diff, make scratch directories.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The path of the CLI binary under test (built in this package).
#[macro_export]
macro_rules! bin {
    () => {
        env!("CARGO_BIN_EXE_protocolarc-under-test")
    };
}

/// What a CLI run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// The workspace root (where `contracts/` lives).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

/// A file in the test data folder.
pub fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(rel)
}

/// Runs the CLI in `dir` with `args` (as `cargo protocolarc ARGS`).
pub fn run_in(bin: &str, dir: &Path, args: &[&str]) -> Output {
    run_fed(bin, dir, args, None)
}

/// [`run_in`] with its standard input read from the file `input` (as
/// `cargo protocolarc ARGS < INPUT`), else from nothing.
pub fn run_fed(bin: &str, dir: &Path, args: &[&str], input: Option<&Path>) -> Output {
    let stdin = match input {
        Some(path) => {
            let file = std::fs::File::open(dir.join(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            std::process::Stdio::from(file)
        }
        None => std::process::Stdio::null(),
    };
    let out = Command::new(bin)
        .arg("protocolarc")
        .args(args)
        .current_dir(dir)
        .stdin(stdin)
        .env_remove("RUST_BACKTRACE")
        // The outputs under test are the plain bytes, whatever the caller's shell sets.
        .env_remove("CARGO_TERM_COLOR")
        .env_remove("NO_COLOR")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {bin}: {e}"));
    let output = Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        !output.stderr.contains("panicked") && !output.stderr.contains("internal error"),
        "the CLI panicked on {args:?}:\n{}",
        output.stderr
    );
    output
}

/// Runs the CLI at the workspace root.
pub fn run(bin: &str, args: &[&str]) -> Output {
    run_in(bin, &root(), args)
}

/// Whether expected outputs are to be rewritten rather than compared:
/// `UPDATE_GOLDEN=1` in the environment (the golden files under
/// `tests/golden/` and the README's transcripts).
pub fn updating() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some()
}

/// Compares `actual` with `tests/golden/NAME` byte for byte. With
/// `UPDATE_GOLDEN=1` in the environment, writes the file instead.
pub fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden").join(name);
    if updating() {
        std::fs::create_dir_all(path.parent().expect("golden dir")).expect("create golden dir");
        std::fs::write(&path, actual).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (run with UPDATE_GOLDEN=1 to create it)", path.display()));
    if expected != actual {
        panic!("{} differs from the golden file:\n{}", path.display(), line_diff(&expected, actual));
    }
}

/// A minimal line diff: the first differing line with context.
pub fn line_diff(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.split_inclusive('\n').collect();
    let a: Vec<&str> = actual.split_inclusive('\n').collect();
    let first = e.iter().zip(&a).position(|(x, y)| x != y).unwrap_or(e.len().min(a.len()));
    let mut out = format!("first difference at line {}\n", first + 1);
    for i in first.saturating_sub(2)..(first + 3).min(e.len().max(a.len())) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if x == y => out.push_str(&format!("  {x:?}\n")),
            (x, y) => {
                if let Some(x) = x {
                    out.push_str(&format!("- {x:?}\n"));
                }
                if let Some(y) = y {
                    out.push_str(&format!("+ {y:?}\n"));
                }
            }
        }
    }
    out
}

/// A fresh, empty scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("protocolarc-tests-{}", std::process::id())).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Writes `files` (relative path, contents) under `dir`.
pub fn write_files(dir: &Path, files: &[(&str, &[u8])]) {
    for (rel, bytes) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create dir");
        std::fs::write(path, bytes).expect("write file");
    }
}

/// Typed forms of the bundled contracts, generated once for every test that
/// needs them (`#[protocolarc::contract]`; paths relative to `tests/`).
/// `deny(missing_docs)`: every generated item carries a doc comment (SPEC §8),
/// or this crate does not compile.
#[deny(missing_docs)]
pub mod typed {
    /// `mcp.sampling_create_message` 1.0.0.
    #[protocolarc::contract("../contracts/mcp_sampling_create_message_1.0.0.json")]
    pub struct CreateMessage;

    /// `a2a.message_send` 1.0.0.
    #[protocolarc::contract("../contracts/a2a_message_send_1.0.0.json")]
    pub struct SendMessage;

    /// `a2a.task_send` 1.0.0.
    #[protocolarc::contract("../contracts/a2a_task_send_1.0.0.json")]
    pub struct TaskSend;

    /// `demo.fields_v2` 1.0.0: the fields form's `const`, `format`,
    /// `closed` and `["key"]` names.
    #[protocolarc::contract("data/contracts/fields_v2_1.0.0.json")]
    pub struct FieldsV2;

    /// Schema-form contracts imported from the official MCP 2025-06-18 and
    /// A2A v0.3.0 schemas (`tests/data/contracts/{mcp,a2a}/`), each in its
    /// own module: their `$defs` types share names.
    pub mod real {
        /// MCP `CallToolResult`.
        pub mod call_tool_result {
            /// `mcp.call_tool_result` 2025.6.18.
            #[protocolarc::contract("data/contracts/mcp/call_tool_result_2025.6.18.json")]
            pub struct CallToolResult;
        }
        /// MCP `Tool`.
        pub mod tool {
            /// `mcp.tool` 2025.6.18.
            #[protocolarc::contract("data/contracts/mcp/tool_2025.6.18.json")]
            pub struct Tool;
        }
        /// MCP `InitializeRequest`.
        pub mod initialize_request {
            /// `mcp.initialize_request` 2025.6.18.
            #[protocolarc::contract("data/contracts/mcp/initialize_request_2025.6.18.json")]
            pub struct InitializeRequest;
        }
        /// MCP `InitializeResult`.
        pub mod initialize_result {
            /// `mcp.initialize_result` 2025.6.18.
            #[protocolarc::contract("data/contracts/mcp/initialize_result_2025.6.18.json")]
            pub struct InitializeResult;
        }
        /// A2A `Message`.
        pub mod message {
            /// `a2a.message` 0.3.0.
            #[protocolarc::contract("data/contracts/a2a/message_0.3.0.json")]
            pub struct Message;
        }
        /// A2A `AgentCard`.
        pub mod agent_card {
            /// `a2a.agent_card` 0.3.0.
            #[protocolarc::contract("data/contracts/a2a/agent_card_0.3.0.json")]
            pub struct AgentCard;
        }
    }
}

/// Runs git in `dir` with a fixed identity, no signing and `main` as the
/// default branch; fails the test when git fails.
pub fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}
