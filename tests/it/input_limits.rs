//! Endless and special-file input: a JSONL line and a
//! whole document are read up to a cap and refused past it, naming the file
//! and line; directory walks take regular files only, so a link to
//! `/dev/zero` or a FIFO in an envelope directory neither hangs nor eats
//! memory. Each case ran away or blocked forever before the caps.

use std::process::Command;

use protocolarc_tests::{bin, scratch, write_files, Output};

const CONTRACT: &str = r#"{"name": "t.ping", "revision": "1.0.0", "fields": [{"name": "seq", "type": "integer"}]}"#;
const ENVELOPE: &str = r#"{"contract": "t.ping", "data": {"seq": 1}}"#;

fn run_env(dir: &std::path::Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let out = Command::new(bin!())
        .arg("protocolarc")
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .output()
        .expect("the CLI runs");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[cfg(unix)]
#[test]
fn special_files_in_a_directory_are_skipped_not_read() {
    let dir = scratch("limits-special");
    write_files(&dir, &[("t.json", CONTRACT.as_bytes()), ("env/a.jsonl", ENVELOPE.as_bytes())]);
    std::os::unix::fs::symlink("/dev/zero", dir.join("env/z.jsonl")).expect("symlink");
    let fifo = dir.join("env/f.jsonl");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    // The directory really holds a device link and a FIFO.
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(dir.join("env/z.jsonl")).unwrap().file_type().is_char_device());
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    let out = run_env(&dir, &[], &["validate", "t.json", "env"]);
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (0, "[PASS] t.ping@1.0.0 <- a.jsonl:1\n", ""));
}

#[cfg(unix)]
#[test]
fn an_endless_file_given_by_name_is_refused_at_its_first_byte() {
    let dir = scratch("limits-zero");
    write_files(&dir, &[("t.json", CONTRACT.as_bytes())]);
    std::os::unix::fs::symlink("/dev/zero", dir.join("z.jsonl")).expect("symlink");
    let out = run_env(&dir, &[], &["validate", "t.json", "z.jsonl"]);
    assert_eq!((out.code, out.stderr.as_str()), (3, "error: z.jsonl:1:1: expected a JSON value\n"));
    // An endless `.json` document stops at the document cap.
    std::os::unix::fs::symlink("/dev/zero", dir.join("z.json")).expect("symlink");
    let out = run_env(&dir, &[("PROTOCOLARC_MAX_DOCUMENT_BYTES", "4096")], &["validate", "t.json", "z.json"]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (3, "error: z.json: file is larger than the limit of 4 KiB (PROTOCOLARC_MAX_DOCUMENT_BYTES raises it)\n")
    );
}

#[test]
fn a_line_longer_than_the_cap_is_an_input_error_naming_its_line() {
    let dir = scratch("limits-line");
    let long = format!(r#"{{"contract": "t.ping", "data": {{"seq": 1, "pad": "{}"}}}}"#, "x".repeat(300));
    let file = format!("{ENVELOPE}\n{long}\n");
    write_files(&dir, &[("t.json", CONTRACT.as_bytes()), ("e.jsonl", file.as_bytes())]);
    // Within the default caps the file is valid.
    let out = run_env(&dir, &[], &["validate", "t.json", "e.jsonl"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = run_env(&dir, &[("PROTOCOLARC_MAX_LINE_BYTES", "100")], &["validate", "t.json", "e.jsonl"]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            3,
            "error: e.jsonl:2:101: line is longer than the limit of 100 bytes (PROTOCOLARC_MAX_LINE_BYTES raises it)\n"
        )
    );
}

#[test]
fn documents_and_contracts_longer_than_the_cap_are_refused() {
    let dir = scratch("limits-document");
    let many = format!("[{}]", [ENVELOPE; 10].join(", "));
    write_files(&dir, &[("t.json", CONTRACT.as_bytes()), ("e.json", many.as_bytes())]);
    assert!(CONTRACT.len() < 300 && many.len() > 300, "the contract fits the cap, the envelopes do not");
    let out = run_env(&dir, &[], &["validate", "t.json", "e.json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let cap = [("PROTOCOLARC_MAX_DOCUMENT_BYTES", "300")];
    let out = run_env(&dir, &cap, &["validate", "t.json", "e.json"]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (3, "error: e.json: file is larger than the limit of 300 bytes (PROTOCOLARC_MAX_DOCUMENT_BYTES raises it)\n")
    );
    let out = run_env(&dir, &[("PROTOCOLARC_MAX_DOCUMENT_BYTES", "50")], &["describe", "t.json"]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            3,
            "error: t.json: cannot read contract: file is larger than the limit of 50 bytes \
             (PROTOCOLARC_MAX_DOCUMENT_BYTES raises it)\n"
        )
    );
}

/// A cap that is not a positive number of bytes is an input error naming the
/// variable, never silently the default.
#[test]
fn a_malformed_cap_is_an_input_error_not_ignored() {
    let dir = scratch("limits-bad-env");
    write_files(&dir, &[("t.json", CONTRACT.as_bytes()), ("e.jsonl", ENVELOPE.as_bytes())]);
    let out = run_env(&dir, &[("PROTOCOLARC_MAX_LINE_BYTES", "64M")], &["validate", "t.json", "e.jsonl"]);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            3,
            "",
            "error: t.json: cannot read contract: PROTOCOLARC_MAX_LINE_BYTES=\"64M\" is not a positive number of bytes\n"
        )
    );
    let out = run_env(&dir, &[("PROTOCOLARC_MAX_DOCUMENT_BYTES", "0")], &["describe", "t.json"]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (3, "error: t.json: cannot read contract: PROTOCOLARC_MAX_DOCUMENT_BYTES=\"0\" is not a positive number of bytes\n")
    );
}
