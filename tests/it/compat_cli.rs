//! `diff`, `matrix` and `report` end to end: golden transcripts on the bundled
//! contracts, exit codes, and the witnesses in JSON output re-checked.

use protocolarc::ContractSpec;
use protocolarc_tests::{bin, golden, root, run, run_in, scratch, write_files};

/// The seed README's `diff` transcript, byte for byte.
const SEED_DIFF: &str = "\
mcp.tool_call: 1.0.0 -> 2.0.0
compatibility: BREAKING
  breaking field.type.narrowed id: string|integer -> string
  breaking field.required.tightened params.arguments: optional -> required
  forward field.added.optional params.timeout_ms: added integer
  compatible annotation.changed id: doc 'Correlation identifier.' -> 'Correlation identifier, now string-only.'
  compatible annotation.changed params.arguments: doc 'Tool argument map.' -> 'Tool argument map, now required.'
";

const V1: &str = "contracts/mcp_tool_call_1.0.0.json";
const V11: &str = "contracts/mcp_tool_call_1.1.0.json";
const V2: &str = "contracts/mcp_tool_call_2.0.0.json";

#[test]
fn diff_reproduces_the_seed_readme_transcript() {
    let out = run(bin!(), &["diff", V1, V2]);
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (2, SEED_DIFF, ""));
}

#[test]
fn diff_golden_transcripts_for_the_bundled_pairs() {
    let out = run(bin!(), &["diff", V1, V11]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            0,
            "mcp.tool_call: 1.0.0 -> 1.1.0\ncompatibility: FORWARD\n  forward field.added.optional params.timeout_ms: added integer\n"
        )
    );
    let out = run(bin!(), &["diff", V11, V2]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            2,
            "mcp.tool_call: 1.1.0 -> 2.0.0\ncompatibility: BREAKING\n  \
             breaking field.type.narrowed id: string|integer -> string\n  \
             breaking field.required.tightened params.arguments: optional -> required\n  \
             compatible annotation.changed id: doc 'Correlation identifier.' -> 'Correlation identifier, now string-only.'\n  \
             compatible annotation.changed params.arguments: doc 'Tool argument map.' -> 'Tool argument map, now required.'\n"
        )
    );
    let out = run(bin!(), &["diff", V1, V1]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "mcp.tool_call: 1.0.0 -> 1.0.0\ncompatibility: COMPATIBLE\n  (no changes)\n")
    );
    for (name, args) in [
        ("diff_1.0.0_2.0.0_witnesses.txt", vec!["diff", V1, V2, "--witnesses"]),
        ("diff_1.0.0_2.0.0.json", vec!["diff", V1, V2, "--format", "json"]),
        ("diff_1.0.0_2.0.0.md", vec!["diff", V1, V2, "--format", "markdown"]),
        ("diff_default.txt", vec!["diff"]),
    ] {
        let out = run(bin!(), &args);
        assert_eq!(out.code, 2, "{args:?}");
        golden(name, &out.stdout);
    }
}

#[test]
fn json_witnesses_hold_against_both_revisions() {
    let out = run(bin!(), &["diff", V1, V2, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    assert_eq!(doc["compatibility"], "breaking");
    assert_eq!(
        (doc["contract"].as_str(), doc["from"].as_str(), doc["to"].as_str()),
        (Some("mcp.tool_call"), Some("1.0.0"), Some("2.0.0"))
    );
    let old = ContractSpec::from_path(root().join(V1)).unwrap();
    let new = ContractSpec::from_path(root().join(V2)).unwrap();
    let changes = doc["changes"].as_array().expect("changes");
    // Three shape changes and two rewritten field docs.
    assert_eq!(changes.len(), 5);
    for c in changes {
        let w = &c["witness"];
        if c["impact"] == "breaking" {
            let body = w.to_string();
            assert!(old.validate_json(body.as_bytes()).findings().is_empty(), "{body}");
            let report = new.validate_json(body.as_bytes());
            assert!(!report.is_valid(), "{body}");
            assert!(
                report.findings().iter().all(|f| f.field() == c["field"]),
                "witness isolates {}: {body}",
                c["field"]
            );
        } else {
            assert!(w.is_null());
        }
    }
}

#[test]
fn diff_refuses_two_different_contracts() {
    let out = run(bin!(), &["diff", V1, "contracts/a2a_task_send_1.0.0.json"]);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (3, "", "error: cannot compare different contracts: 'mcp.tool_call' and 'a2a.task_send'\n")
    );
    let out = run(bin!(), &["diff", V1]);
    assert_eq!(out.code, 3, "one path is a usage error");
}

#[test]
fn diff_of_a_bad_contract_names_the_file() {
    let dir = scratch("diff-bad");
    write_files(
        &dir,
        &[("a.json", br#"{"name": "x", "revision": "1.0.0", "fields": [{"name": "a", "type": "strin"}]}"#)],
    );
    let v1 = root().join(V1);
    let out = run_in(bin!(), &dir, &["diff", v1.to_str().unwrap(), "a.json"]);
    assert_eq!(out.code, 3);
    assert!(out.stderr.starts_with("error: a.json:1:69: field 'a': unknown type 'strin'"), "{}", out.stderr);
}

#[test]
fn matrix_golden_transcripts() {
    let seed = [
        "--contracts",
        V1,
        V11,
        V2,
        "contracts/a2a_task_send_1.0.0.json",
        "--envelopes",
        "contracts/fixtures/mcp_calls.jsonl",
        "contracts/fixtures/a2a_tasks.json",
    ];
    let mut args = vec!["matrix"];
    args.extend(seed);
    let out = run(bin!(), &args);
    assert_eq!(out.code, 1, "the seed fixtures include failing envelopes");
    golden("matrix_seed.txt", &out.stdout);
    let out = run(bin!(), &["matrix"]);
    assert_eq!(out.code, 1);
    golden("matrix_default.txt", &out.stdout);
    for (format, name) in [("json", "report_seed.json"), ("markdown", "report_seed.md"), ("text", "report_seed.txt")] {
        let mut args = vec!["report"];
        args.extend(seed);
        args.extend(["--format", format]);
        let out = run(bin!(), &args);
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "report --format {format}");
        golden(name, &out.stdout);
    }
    // The report's text is the matrix's text.
    let mut m = vec!["matrix"];
    m.extend(seed);
    let mut r = vec!["report", "--format", "text"];
    r.extend(seed);
    assert_eq!(run(bin!(), &m).stdout, run(bin!(), &r).stdout);
}

#[test]
fn matrix_is_clean_when_every_cell_passes_and_bumps_suffice() {
    let out = run(bin!(), &["matrix", "--contracts", V11, "--envelopes", "contracts/fixtures/readme/mcp_calls.jsonl"]);
    assert_eq!(out.code, 1, "line 3 names tools/list");
    let dir = scratch("matrix-clean");
    let line =
        br#"{"contract": "a2a.task_send", "revision": "1.0.0", "data": {"task_id": "t", "role": "user", "parts": []}}"#;
    write_files(&dir, &[("ok.jsonl", line)]);
    let c = root().join("contracts/a2a_task_send_1.0.0.json");
    let out = run_in(bin!(), &dir, &["matrix", "--contracts", c.to_str().unwrap(), "--envelopes", "ok.jsonl"]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert_eq!(
        out.stdout,
        "matrix: 1 contract, 1 envelope: 1 cell checked, 1 pass, 0 fail\n\n\
         envelope    a2a.task_send@1.0.0\n\
         ok.jsonl:1  pass\n\n\
         chains:\n  a2a.task_send: 1.0.0 (single revision)\n"
    );
}

#[test]
fn matrix_flags_a_bump_too_small_for_its_verdict() {
    let dir = scratch("matrix-bump");
    let v1 = std::fs::read_to_string(root().join(V11)).unwrap();
    // The breaking 2.0.0 content published as 1.2.0: a minor bump.
    let v2 = std::fs::read_to_string(root().join(V2)).unwrap().replace("\"2.0.0\"", "\"1.2.0\"");
    write_files(&dir, &[("c/a.json", v1.as_bytes()), ("c/b.json", v2.as_bytes()), ("e.jsonl", b"")]);
    let seed = root().join("contracts/fixtures/mcp_calls.jsonl");
    let out = run_in(bin!(), &dir, &["matrix", "--contracts", "c", "--envelopes", seed.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.contains(
            "chains:\n  mcp.tool_call: 1.1.0 -> 1.2.0 breaking (minor bump, needs major: revision.bump.insufficient)\n"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.starts_with(
            "matrix: 2 contracts, 4 envelopes: 8 cells checked, 3 pass, 5 fail; 1 revision bump too small\n"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn report_writes_a_file() {
    let dir = scratch("report-out");
    let contracts = root().join("contracts");
    let fixtures = root().join("contracts/fixtures/a2a_tasks.json");
    let args = ["report", "--contracts", contracts.to_str().unwrap(), "--envelopes", fixtures.to_str().unwrap()];
    let stdout = run_in(bin!(), &dir, &args);
    let mut with_out = args.to_vec();
    with_out.extend(["--out", "report.md"]);
    let out = run_in(bin!(), &dir, &with_out);
    assert!(!dir.join("missing").exists());
    assert_eq!((out.code, out.stdout.as_str()), (0, "wrote report.md\n"));
    assert_eq!(std::fs::read_to_string(dir.join("report.md")).unwrap(), stdout.stdout);
    assert!(
        stdout.stdout.starts_with("# Contract matrix\n\n6 contracts, 2 envelopes: 2 cells checked, 1 pass, 1 fail.\n"),
        "{}",
        stdout.stdout
    );
    let mut bad = args.to_vec();
    bad.extend(["--out", "missing/dir/r.md"]);
    let out = run_in(bin!(), &dir, &bad);
    assert_eq!(out.code, 3);
    assert_eq!(out.stderr, "error: missing/dir/r.md: cannot write: no such file or directory\n");
}

#[test]
fn compatibility_outputs_are_byte_identical_across_runs() {
    for args in [
        &["diff", "--format", "json"][..],
        &["diff", "--format", "markdown", "--witnesses"],
        &["matrix", "--format", "json"],
        &["report"],
    ] {
        assert_eq!(run(bin!(), args), run(bin!(), args), "{args:?}");
    }
}
