//! Hostile inputs and outputs of the commands that read a tree and write
//! many files (`protocols`, `import`): every read under the caps and never
//! waiting on a FIFO, every write atomic, all or nothing, never through a
//! link, and the leftovers of a killed run cleared by the next one.

use std::path::Path;
use std::process::Command;

use protocolarc_tests::{bin, root, run_in, scratch, Output};

/// `run_in` with `PROTOCOLARC_MAX_DOCUMENT_BYTES` set.
fn run_capped(dir: &Path, cap: &str, args: &[&str]) -> Output {
    let out = Command::new(bin!())
        .arg("protocolarc")
        .args(args)
        .current_dir(dir)
        .env("PROTOCOLARC_MAX_DOCUMENT_BYTES", cap)
        .output()
        .expect("the CLI runs");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A vendor tree with one MCP revision whose `schema.json` is made by `make`.
fn vendor_with(name: &str, make: impl FnOnce(&Path)) -> std::path::PathBuf {
    let dir = scratch(name);
    let rev = dir.join("vendor/mcp/2025-06-18");
    std::fs::create_dir_all(&rev).unwrap();
    make(&rev.join("schema.json"));
    dir
}

#[cfg(unix)]
#[test]
fn protocols_reads_a_link_to_dev_zero_up_to_the_cap() {
    let dir = vendor_with("hostile-protocols-zero", |p| std::os::unix::fs::symlink("/dev/zero", p).unwrap());
    let out = run_capped(&dir, "1048576", &["protocols", "--vendor", "vendor", "--out", "cat"]);
    assert_eq!(out.code, 3, "{}", out.stdout);
    assert_eq!(
        out.stderr,
        "error: vendor/mcp/2025-06-18/schema.json: cannot read: file is larger than the limit of 1 MiB \
         (PROTOCOLARC_MAX_DOCUMENT_BYTES raises it)\n"
    );
    assert!(!dir.join("cat").exists());
}

#[cfg(unix)]
#[test]
fn protocols_refuses_a_fifo_without_waiting_for_a_writer() {
    use std::os::unix::fs::FileTypeExt;
    let dir = vendor_with("hostile-protocols-fifo", |p| {
        assert!(Command::new("mkfifo").arg(p).status().unwrap().success());
    });
    let fifo = dir.join("vendor/mcp/2025-06-18/schema.json");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // No writer ever opens the FIFO: a blocking open would never return.
    let out = run_in(bin!(), &dir, &["protocols", "--vendor", "vendor", "--out", "cat"]);
    assert_eq!(out.code, 3, "{}", out.stdout);
    assert_eq!(out.stderr, "error: vendor/mcp/2025-06-18/schema.json: cannot read: is a FIFO, not a regular file\n");
    assert!(!dir.join("cat").exists());
}

#[test]
fn protocols_refuses_a_300_mb_schema_at_the_default_cap() {
    let dir = vendor_with("hostile-protocols-big", |p| {
        // Sparse: 300 MB long, no disk used.
        std::fs::File::create(p).unwrap().set_len(300_000_000).unwrap();
    });
    assert_eq!(std::fs::metadata(dir.join("vendor/mcp/2025-06-18/schema.json")).unwrap().len(), 300_000_000);
    let out = run_in(bin!(), &dir, &["protocols", "--vendor", "vendor", "--out", "cat"]);
    assert_eq!(out.code, 3, "{}", out.stdout);
    assert_eq!(
        out.stderr,
        "error: vendor/mcp/2025-06-18/schema.json: cannot read: file is larger than the limit of 256 MiB \
         (PROTOCOLARC_MAX_DOCUMENT_BYTES raises it)\n"
    );
}

/// `OUT/mcp` a link to a directory holding a user's file: refused before
/// anything is written or removed (the file would be stale to `protocols`).
#[cfg(unix)]
#[test]
fn protocols_never_writes_or_removes_through_a_linked_output_directory() {
    let dir = scratch("hostile-protocols-link");
    let victim = dir.join("mine/2025-06-18");
    std::fs::create_dir_all(&victim).unwrap();
    std::fs::write(victim.join("notes.json"), "keep").unwrap();
    std::fs::create_dir_all(dir.join("cat")).unwrap();
    std::os::unix::fs::symlink(dir.join("mine"), dir.join("cat/mcp")).unwrap();
    let vendor = root().join("protocols/vendor");
    let out = run_in(bin!(), &dir, &["protocols", "--vendor", vendor.to_str().unwrap(), "--out", "cat"]);
    assert_eq!(out.code, 3, "{}", out.stdout);
    assert_eq!(
        out.stderr,
        "error: cat/mcp: is a symbolic link; refusing to write through it (replace it with a directory)\n"
    );
    let left: Vec<_> = std::fs::read_dir(&victim).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("notes.json")]);
    assert_eq!(std::fs::read_to_string(victim.join("notes.json")).unwrap(), "keep");
    assert_eq!(std::fs::read_dir(dir.join("mine")).unwrap().count(), 1);
    assert!(!dir.join("cat/a2a").exists(), "nothing written before the refusal");
}

/// The message for an unknown `--protocol` lists the catalog's protocols
/// only: not the vendored schemas (`vendor@mcp`) nor the tools/list
/// captures kept beside them (`tools-list@history`).
#[test]
fn unknown_protocol_lists_only_real_protocols() {
    let bundled = root().join("protocols");
    assert!(bundled.join("vendor/mcp/2025-06-18/schema.json").is_file());
    assert!(bundled.join("tools-list/history").is_dir());
    let dir = scratch("hostile-unknown-protocol");
    std::fs::write(dir.join("cap.jsonl"), "{\"jsonrpc\": \"2.0\", \"method\": \"ping\"}\n").unwrap();
    for asked in ["vendor@mcp", "tools-list@history", "mcp@1999-01-01"] {
        let out = run_in(bin!(), &dir, &["traffic", "cap.jsonl", "--protocol", asked]);
        assert_eq!(
            (out.code, out.stderr.as_str()),
            (
                3,
                format!(
                    "error: unknown protocol '{asked}': the catalog protocols has a2a@0.2.6, a2a@0.3.0, a2a@1.0.1, \
                     mcp@2024-11-05, mcp@2025-03-26, mcp@2025-06-18, mcp@2025-11-25, mcp@2026-07-28\n"
                )
                .as_str()
            )
        );
    }
}
