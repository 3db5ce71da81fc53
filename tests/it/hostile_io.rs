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
    let capture = dir.join("cap.jsonl");
    for asked in ["vendor@mcp", "tools-list@history", "mcp@1999-01-01"] {
        let args = ["traffic", capture.to_str().unwrap(), "--catalog", "protocols", "--protocol", asked];
        let out = run_in(bin!(), &root(), &args);
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

const GOOD: &str = r#"{"type": "object", "properties": {"a": {"type": "string"}}}"#;

/// A tools/list with a good tool, then `tool` with `schema` as its input.
fn tools_list(tool: &str, schema: &str) -> String {
    format!(
        "{{\"tools\": [\n  {{\"name\": \"ok\", \"inputSchema\": {GOOD}}},\n  {{\"name\": \"{tool}\", \"inputSchema\": {schema}}}\n]}}\n"
    )
}

fn import(dir: &Path, file: &str, out: &str) -> Output {
    run_in(bin!(), dir, &["import", "tools-list", file, "--server", "s", "--revision", "1.0.0", "--out", out])
}

fn names(dir: &Path) -> Vec<String> {
    let mut all: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    all.sort();
    all
}

/// What the loader refuses, `import` refuses before writing anything: the
/// tool and its schema's position named, the loader's reason quoted.
#[test]
fn import_refuses_what_the_loader_would_refuse_before_writing() {
    let dir = scratch("hostile-import-loads");
    let cases = [
        (
            r#"{"type": "object", "properties": {"a": {"type": "string", "pattern": "(a)\\1"}}}"#,
            "pattern '(a)\\\\1' does not compile: backreferences are not supported",
        ),
        (
            r#"{"type": "object", "properties": {"a": {"type": "string", "pattern": "(a"}}}"#,
            "pattern '(a' does not compile: unclosed group",
        ),
        (
            r#"{"type": "object", "properties": {"a": {"type": "number", "minimum": 5, "maximum": 1}}}"#,
            "no number satisfies both 'minimum' 5 and 'maximum' 1",
        ),
        (
            r##"{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "properties": {"a": {"$ref": "#/$defs/A"}}}"##,
            "this schema applies itself to the same value through $ref or allOf/anyOf/oneOf/not/if without \
             descending into a property or element: the check would never end",
        ),
        (
            r##"{"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#/required"}}}"##,
            "$ref '#/required' names no schema in this document",
        ),
    ];
    for (i, (schema, reason)) in cases.into_iter().enumerate() {
        let file = format!("t{i}.json");
        let text = tools_list("bad", schema);
        serde_json::from_str::<serde_json::Value>(&text).expect("the input is JSON");
        std::fs::write(dir.join(&file), &text).unwrap();
        let out = import(&dir, &file, "out");
        assert_eq!(out.code, 3, "{file}: {}", out.stdout);
        assert_eq!(
            out.stderr,
            format!("error: {file}:3:19: tool 'bad' at /tools/1/inputSchema does not load as a contract: {reason}\n"),
            "{file}"
        );
        assert!(!dir.join("out").exists(), "{file}: nothing written, not even the good tool");
    }
    // `import schema` checks the same.
    std::fs::write(dir.join("s.json"), r#"{"type": "number", "minimum": 5, "maximum": 1}"#).unwrap();
    let args = ["import", "schema", "s.json", "--name", "s.n", "--revision", "1.0.0", "--out", "n.json"];
    let out = run_in(bin!(), &dir, &args);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            3,
            "error: s.json:1:1: the schema does not load as a contract: no number satisfies both 'minimum' 5 and \
             'maximum' 1\n"
        )
    );
    assert!(!dir.join("n.json").exists());
}

#[test]
fn import_refuses_a_300_character_tool_name_before_writing() {
    let dir = scratch("hostile-import-long-name");
    let long = "x".repeat(300);
    std::fs::write(dir.join("t.json"), tools_list(&long, GOOD)).unwrap();
    let out = import(&dir, "t.json", "out");
    assert_eq!(out.code, 3, "{}", out.stdout);
    assert_eq!(
        out.stderr,
        format!(
            "error: t.json:3:3: tool '{}...' at /tools/1 would be written as a file name of 313 bytes, longer \
             than the 255 a file system holds; rename the tool\n",
            &long[..80]
        )
    );
    assert!(!dir.join("out").exists(), "the first tool is not written either");
}

/// `Foo`, `foo` and `FOO` would be one file on a case-insensitive file
/// system (macOS, Windows): refused, naming the pair.
#[test]
fn import_refuses_tools_whose_files_differ_only_in_case() {
    let dir = scratch("hostile-import-case");
    let tools = format!(
        "{{\"tools\": [{{\"name\": \"Foo\", \"inputSchema\": {GOOD}}}, {{\"name\": \"foo\", \"inputSchema\": {GOOD}}}, \
         {{\"name\": \"FOO\", \"inputSchema\": {GOOD}}}]}}"
    );
    std::fs::write(dir.join("t.json"), tools).unwrap();
    let out = import(&dir, "t.json", "out");
    assert_eq!(out.code, 3, "{}", out.stdout);
    assert_eq!(
        out.stderr,
        "error: t.json:1:105: tool 'foo' at /tools/1 maps to the file stem 's_foo', which differs only in case \
         from 's_Foo' of the contract 's.Foo' (one file on a case-insensitive file system); rename one of them\n"
    );
    assert!(!dir.join("out").exists());
}

/// A pid no process holds: a child that has exited and been reaped.
fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().expect("true runs");
    let pid = child.id();
    child.wait().unwrap();
    pid
}

/// What a killed `import` or `lock` left (a staging directory, a temporary
/// file of a target, a lock's temporary) is removed by the next run; a live
/// process's temporaries are kept.
#[test]
fn the_next_run_removes_what_a_killed_run_left() {
    let dir = scratch("hostile-import-leftovers");
    let tools: Vec<String> = (0..5).map(|i| format!("{{\"name\": \"t{i}\", \"inputSchema\": {GOOD}}}")).collect();
    std::fs::write(dir.join("t.json"), format!("{{\"tools\": [{}]}}", tools.join(", "))).unwrap();
    let dead = dead_pid();
    let live = std::process::id();
    let stage = format!("out/.protocolarc-stage.{dead}.0.tmp");
    std::fs::create_dir_all(dir.join(&stage)).unwrap();
    std::fs::write(dir.join(&stage).join("s_t0_1.0.0.json"), "half").unwrap();
    std::fs::write(dir.join(format!("out/.s_t3_1.0.0.json.{dead}.7.tmp")), "half").unwrap();
    std::fs::write(dir.join(format!("out/.s_t3_1.0.0.json.{live}.7.tmp")), "running").unwrap();
    std::fs::write(dir.join("out/s_t1_1.0.0.json"), "old").unwrap();
    let out = import(&dir, "t.json", "out");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let want: Vec<String> = (0..5).map(|i| format!("wrote out/s_t{i}_1.0.0.json\n")).collect();
    assert_eq!(out.stdout, want.concat());
    let mut expected: Vec<String> = (0..5).map(|i| format!("s_t{i}_1.0.0.json")).collect();
    expected.insert(0, format!(".s_t3_1.0.0.json.{live}.7.tmp"));
    assert_eq!(names(&dir.join("out")), expected);
    let written = std::fs::read_to_string(dir.join("out/s_t1_1.0.0.json")).unwrap();
    assert!(written.starts_with("{\n  \"name\": \"s.t1\",\n  \"revision\": \"1.0.0\","), "{written}");

    // `lock`: its killed run's temporary goes with the next lock.
    let project = scratch("hostile-lock-leftovers");
    std::fs::create_dir_all(project.join("contracts")).unwrap();
    std::fs::copy(dir.join("out/s_t0_1.0.0.json"), project.join("contracts/t0.json")).unwrap();
    std::fs::write(project.join(format!(".protocolarc.lock.{dead}.0.tmp")), "half").unwrap();
    let out = run_in(bin!(), &project, &["lock"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "wrote protocolarc.lock (1 revision)\n"), "{}", out.stderr);
    assert_eq!(names(&project), ["contracts", "protocolarc.lock"]);
}

/// One target a link: refused before any file of the set is written.
#[cfg(unix)]
#[test]
fn import_writes_nothing_when_one_target_is_a_link() {
    let dir = scratch("hostile-import-link");
    let tools: Vec<String> = (0..3).map(|i| format!("{{\"name\": \"t{i}\", \"inputSchema\": {GOOD}}}")).collect();
    std::fs::write(dir.join("t.json"), format!("{{\"tools\": [{}]}}", tools.join(", "))).unwrap();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::write(dir.join("victim"), "keep").unwrap();
    std::os::unix::fs::symlink(dir.join("victim"), dir.join("out/s_t2_1.0.0.json")).unwrap();
    let out = import(&dir, "t.json", "out");
    assert_eq!(out.code, 3, "{}", out.stdout);
    assert_eq!(
        out.stderr,
        "error: out/s_t2_1.0.0.json: is a symbolic link; refusing to write through it (replace it with a regular \
         file)\n"
    );
    assert_eq!(names(&dir.join("out")), ["s_t2_1.0.0.json"]);
    assert_eq!(std::fs::read_to_string(dir.join("victim")).unwrap(), "keep");
}

/// Bidi controls (U+202E, U+2066) from a contract's keys or a capture's
/// method are shown escaped, never raw, by `describe` and in `route.method`.
#[test]
fn bidi_controls_are_shown_escaped() {
    let dir = scratch("hostile-bidi");
    let contract = "{\"name\": \"t.b\", \"revision\": \"1.0.0\", \"schema\": {\"type\": \"object\", \"properties\": \
                    {\"k\\u2066x\": {\"type\": \"string\", \"title\": \"T\\u202eT\"}}}}";
    let capture = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/\\u2066call\\u202e\"}\n";
    std::fs::write(dir.join("b.json"), contract).unwrap();
    std::fs::write(dir.join("b.jsonl"), capture).unwrap();
    let doc: serde_json::Value = serde_json::from_str(contract).unwrap();
    assert!(doc["schema"]["properties"].as_object().unwrap().contains_key("k\u{2066}x"));
    let out = run_in(bin!(), &dir, &["describe", "b.json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("\n  [\"k\\u2066x\"]  string  optional\n"), "{}", out.stdout);
    assert!(!out.stdout.contains(['\u{2066}', '\u{202e}']));
    let out = run_in(bin!(), &dir, &["traffic", "b.jsonl", "--protocol", "mcp@2025-06-18"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout.contains(
            "  ERROR route.method method: no contract mcp.tools/\\u{2066}call\\u{202e}.request in the catalog of \
             mcp@2025-06-18: the method is unknown to this protocol revision\n"
        ),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains(['\u{2066}', '\u{202e}']));
}
