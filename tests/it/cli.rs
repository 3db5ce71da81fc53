//! The CLI end to end: golden transcripts of `validate` and `describe` on the
//! bundled contracts, exit codes, argument spellings, and determinism.

use protocolarc_tests::{bin, golden, run, run_in, scratch, write_files};

/// The `validate` transcript of the seed README, byte for byte.
const SEED_TRANSCRIPT: &str = "\
[PASS] mcp.tool_call@1.0.0 <- mcp_calls.jsonl:1
[FAIL] mcp.tool_call@1.0.0 <- mcp_calls.jsonl:3
  ERROR field.enum method: value 'tools/list' not in {'tools/call'}
";

/// The seed's A2A fixture against the strict `a2a.task_send` (seed README table).
const A2A_TRANSCRIPT: &str = "\
[PASS] a2a.task_send@1.0.0 <- a2a_tasks.json:1
[FAIL] a2a.task_send@1.0.0 <- a2a_tasks.json:2
  ERROR field.enum role: value 'supervisor' not in {'user', 'agent'}
  WARNING field.unknown priority: key is not declared by the strict contract
";

#[test]
fn validate_reproduces_the_seed_readme_transcript() {
    let out =
        run(bin!(), &["validate", "contracts/mcp_tool_call_1.0.0.json", "contracts/fixtures/readme/mcp_calls.jsonl"]);
    assert_eq!(out.stdout, SEED_TRANSCRIPT);
    assert_eq!(out.stderr, "");
    assert_eq!(out.code, 1);
}

#[test]
fn validate_the_unchanged_seed_fixture_against_each_revision() {
    for rev in ["1.0.0", "1.1.0", "2.0.0"] {
        let contract = format!("contracts/mcp_tool_call_{rev}.json");
        let out = run(bin!(), &["validate", &contract, "contracts/fixtures/mcp_calls.jsonl"]);
        assert_eq!(out.code, 1, "{rev}");
        golden(&format!("validate_mcp_calls_vs_{rev}.txt"), &out.stdout);
    }
}

#[test]
fn validate_matches_the_seed_readme_expectations_for_1_1_0() {
    // anchors/seeds/ProtocolArc/README.md: #1, #2 pass; #3 field.enum on method; #4 field.required on method.
    let out = run(bin!(), &["validate", "contracts/mcp_tool_call_1.1.0.json", "contracts/fixtures/mcp_calls.jsonl"]);
    assert_eq!(
        out.stdout,
        "[PASS] mcp.tool_call@1.1.0 <- mcp_calls.jsonl:1\n\
         [PASS] mcp.tool_call@1.1.0 <- mcp_calls.jsonl:2\n\
         [FAIL] mcp.tool_call@1.1.0 <- mcp_calls.jsonl:3\n  \
         ERROR field.enum method: value 'tools/list' not in {'tools/call'}\n\
         [FAIL] mcp.tool_call@1.1.0 <- mcp_calls.jsonl:4\n  \
         ERROR field.required method: required field is missing\n"
    );
    let out = run(bin!(), &["validate", "contracts/a2a_task_send_1.0.0.json", "contracts/fixtures/a2a_tasks.json"]);
    assert_eq!(out.stdout, A2A_TRANSCRIPT);
    assert_eq!(out.code, 1);
}

#[test]
fn validate_flags_an_envelope_for_another_contract() {
    let out = run(bin!(), &["validate", "contracts/mcp_tool_call_1.1.0.json", "contracts/fixtures/a2a_tasks.json"]);
    let first = out.stdout.lines().take(2).collect::<Vec<_>>();
    assert_eq!(
        first,
        [
            "[FAIL] mcp.tool_call@1.1.0 <- a2a_tasks.json:1",
            "  ERROR contract.match <envelope>: envelope targets 'a2a.task_send', not 'mcp.tool_call'",
        ]
    );
    assert_eq!(out.code, 1);
}

#[test]
fn validate_with_no_paths_checks_the_configured_fixtures() {
    // Cargo.toml: [workspace.metadata.protocolarc] fixtures = "contracts/fixtures/valid".
    let out = run(bin!(), &["validate"]);
    assert_eq!(out.code, 0);
    assert_eq!(out.stderr, "");
    golden("validate_default.txt", &out.stdout);
    let json = run(bin!(), &["validate", "--format", "json"]);
    assert_eq!(json.code, 0);
    golden("validate_default.json", &json.stdout);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).expect("validate --format json is JSON");
    let results = doc["results"].as_array().expect("results array");
    assert_eq!(doc["summary"]["envelopes"], results.len());
    assert_eq!(results.len(), out.stdout.lines().filter(|l| l.starts_with('[')).count());
}

#[test]
fn validate_with_a_contract_and_no_envelopes_uses_its_fixtures() {
    let out = run(bin!(), &["validate", "contracts/a2a_task_send_1.0.0.json"]);
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        "[PASS] a2a.task_send@1.0.0 <- a2a_task_send.json:1\n[PASS] a2a.task_send@1.0.0 <- a2a_task_send.json:2\n"
    );
}

#[test]
fn validate_with_no_paths_outside_a_cargo_project_uses_contracts_fixtures() {
    let dir = scratch("no-cargo");
    let contract = std::fs::read(protocolarc_tests::root().join("contracts/a2a_task_send_1.0.0.json")).unwrap();
    let seed = std::fs::read(protocolarc_tests::root().join("contracts/fixtures/a2a_tasks.json")).unwrap();
    write_files(&dir, &[("contracts/a.json", &contract), ("contracts/fixtures/a2a_tasks.json", &seed)]);
    let out = run_in(bin!(), &dir, &["validate"]);
    assert_eq!((out.code, out.stdout.as_str()), (1, A2A_TRANSCRIPT));
}

#[test]
fn validate_exits_zero_when_every_envelope_passes() {
    let dir = scratch("all-pass");
    let line = br#"{"contract": "a2a.task_send", "data": {"task_id": "t", "role": "agent", "parts": []}}"#;
    write_files(&dir, &[("ok.jsonl", line)]);
    let contract = protocolarc_tests::root().join("contracts/a2a_task_send_1.0.0.json");
    let out = run_in(bin!(), &dir, &["validate", contract.to_str().unwrap(), "ok.jsonl"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "[PASS] a2a.task_send@1.0.0 <- ok.jsonl:1\n"));
}

#[test]
fn validate_json_output_has_the_spec_shape() {
    let out = run(
        bin!(),
        &[
            "validate",
            "contracts/mcp_tool_call_1.0.0.json",
            "contracts/fixtures/readme/mcp_calls.jsonl",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stdout,
        "{\"format_version\":1,\"results\":[\n\
         {\"contract\":\"mcp.tool_call\",\"revision\":\"1.0.0\",\"source\":\"mcp_calls.jsonl:1\",\"status\":\"pass\",\"findings\":[]},\n\
         {\"contract\":\"mcp.tool_call\",\"revision\":\"1.0.0\",\"source\":\"mcp_calls.jsonl:3\",\"status\":\"fail\",\"findings\":[\
         {\"severity\":\"error\",\"rule\":\"field.enum\",\"field\":\"method\",\"message\":\"value 'tools/list' not in {'tools/call'}\"}]}\n\
         ],\n\"summary\":{\"envelopes\":2,\"passed\":1,\"failed\":1}}\n"
    );
}

#[test]
fn describe_golden_transcripts() {
    let contracts = [
        "a2a_message_send_1.0.0",
        "a2a_task_send_1.0.0",
        "mcp_sampling_create_message_1.0.0",
        "mcp_tool_call_1.0.0",
        "mcp_tool_call_1.1.0",
        "mcp_tool_call_2.0.0",
    ];
    for c in contracts {
        let out = run(bin!(), &["describe", &format!("contracts/{c}.json")]);
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{c}");
        golden(&format!("describe_{c}.txt"), &out.stdout);
    }
    let all = run(bin!(), &["describe"]);
    assert_eq!(all.code, 0);
    golden("describe_default.txt", &all.stdout);
    let json = run(bin!(), &["describe", "--format", "json"]);
    assert_eq!(json.code, 0);
    golden("describe_default.json", &json.stdout);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).expect("describe --format json is JSON");
    assert_eq!(doc["format_version"], 1);
    assert_eq!(doc["contracts"].as_array().map(Vec::len), Some(contracts.len()));
}

#[test]
fn describe_shows_the_seed_contract_table() {
    let out = run(bin!(), &["describe", "contracts/mcp_tool_call_1.0.0.json"]);
    assert_eq!(
        out.stdout,
        "mcp.tool_call@1.0.0: MCP Tool Call\n\
         kind: mcp, strict: false, 5 fields\n\
         \n  \
         FIELD             TYPE            REQUIRED  CONSTRAINTS\n  \
         jsonrpc           string          required  enum={'2.0'}\n      \
         JSON-RPC protocol tag.\n  \
         id                string|integer  required\n      \
         Correlation identifier.\n  \
         method            string          required  enum={'tools/call'}\n      \
         The MCP method being invoked.\n  \
         params.name       string          required\n      \
         Tool name to invoke.\n  \
         params.arguments  object          optional\n      \
         Tool argument map.\n"
    );
}

#[test]
fn outputs_are_byte_identical_across_runs() {
    for args in [&["validate"][..], &["validate", "--format", "json"], &["describe"], &["describe", "--format", "json"]]
    {
        let a = run(bin!(), args);
        let b = run(bin!(), args);
        assert_eq!(a, b, "{args:?}");
    }
}

#[test]
fn cargo_and_direct_spellings_behave_alike() {
    let via_cargo = run(bin!(), &["describe", "contracts/a2a_task_send_1.0.0.json"]);
    let direct = std::process::Command::new(bin!())
        .args(["describe", "contracts/a2a_task_send_1.0.0.json"])
        .current_dir(protocolarc_tests::root())
        .output()
        .expect("run");
    assert_eq!(String::from_utf8_lossy(&direct.stdout), via_cargo.stdout);
    assert_eq!(direct.status.code(), Some(0));
}

#[test]
fn help_teaches_and_exits_zero() {
    let out = run(bin!(), &["--help"]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.starts_with("Versioned contracts for agent-protocol JSON envelopes"), "{}", out.stdout);
    assert!(out.stdout.contains("Usage: cargo protocolarc [OPTIONS] <COMMAND>"), "{}", out.stdout);
    assert!(out.stdout.contains("Any path may be REV:PATH"), "{}", out.stdout);
    assert!(out.stdout.contains("  3  usage or input error"), "{}", out.stdout);
    let out = run(bin!(), &["validate", "--help"]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("cargo protocolarc validate contracts/mcp_tool_call_1.0.0.json"), "{}", out.stdout);
}

#[test]
fn usage_errors_exit_three() {
    for args in [&["validate", "--format", "yaml"][..], &["frobnicate"], &[], &["describe", "a", "b"]] {
        let out = run(bin!(), args);
        assert_eq!(out.code, 3, "{args:?}: {out:?}");
        assert!(out.stderr.contains("cargo protocolarc") || out.stderr.contains("--help"), "{args:?}: {}", out.stderr);
        assert_eq!(out.stdout, "");
    }
}

#[test]
fn rules_lists_and_explains_every_rule() {
    let out = run(bin!(), &["rules", "field.maximum.tightened"]);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout.starts_with(
            "field.maximum.tightened [diff]\n  the upper bound accepts fewer numbers (introduced or lowered, or made\n  \
             exclusive)\n\n  impact: request: breaking, response: forward, both: breaking\n"
        ),
        "{}",
        out.stdout
    );
    let out = run(bin!(), &["rules", "revision.hint"]);
    assert!(
        out.stdout.starts_with(
            "revision.hint [validate, warning]\n  the envelope's revision differs from the contract's\n\n"
        ),
        "{}",
        out.stdout
    );
    let all = run(bin!(), &["rules"]).stdout;
    for id in [
        "json.duplicate_key",
        "contract.strict.enabled",
        "field.multipleOf.changed",
        "revision.mutated",
        "revision.deleted",
        "lock.mismatch",
    ] {
        assert!(all.lines().any(|l| l.split_whitespace().nth(1) == Some(id)), "{id}:\n{all}");
    }
    assert!(!all.contains("field.minimum.changed"));
    let out = run(bin!(), &["rules", "nope"]);
    assert_eq!((out.code, out.stderr.as_str()), (3, "error: unknown rule 'nope' (see `cargo protocolarc rules`)\n"));
}

#[test]
fn generate_prints_what_the_macro_emits() {
    for (contract, name) in [
        ("mcp_tool_call_2.0.0", "ToolCall"),
        ("a2a_task_send_1.0.0", "TaskSend"),
        ("mcp_sampling_create_message_1.0.0", "CreateMessage"),
        ("a2a_message_send_1.0.0", "SendMessage"),
    ] {
        let out = run(bin!(), &["generate", &format!("contracts/{contract}.json"), "--name", name]);
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{contract}");
        golden(&format!("generate_{contract}.rs.txt"), &out.stdout);
    }
    let out = run(bin!(), &["generate", "contracts/a2a_task_send_1.0.0.json"]);
    assert!(out.stdout.contains("pub struct A2aTaskSend {"), "{}", out.stdout);
    let out = run(bin!(), &["generate", "contracts/a2a_task_send_1.0.0.json", "--name", "not an ident"]);
    assert_eq!((out.code, out.stderr.as_str()), (3, "error: --name \"not an ident\" is not a Rust identifier\n"));
}

/// SPEC §7: `--quiet` prints only failures and the summary; the exit code and
/// the JSON summary are the same as without it.
#[test]
fn validate_quiet_prints_only_failures_and_a_summary() {
    let args = ["validate", "contracts/mcp_tool_call_1.0.0.json", "contracts/fixtures/mcp_calls.jsonl"];
    let full = run(bin!(), &args);
    assert_eq!(full.stdout.matches("[PASS]").count(), 2, "the input really has passing envelopes");
    let quiet = run(bin!(), &[&args[..], &["--quiet"]].concat());
    assert_eq!(quiet.code, full.code);
    let failing: String = full.stdout.split_inclusive('\n').skip_while(|l| !l.starts_with("[FAIL]")).collect();
    assert_eq!(quiet.stdout, format!("{failing}validate: 4 envelopes, 2 passed, 2 failed\n"));
    let json = run(bin!(), &[&args[..], &["--quiet", "--format", "json"]].concat());
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).expect("one JSON document");
    let statuses: Vec<&str> =
        doc["results"].as_array().unwrap().iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["fail", "fail"]);
    assert_eq!(doc["summary"], serde_json::json!({"envelopes": 4, "passed": 2, "failed": 2}));
}

/// SPEC §7: colour only on a terminal, `--color auto|always|never`, honouring
/// `NO_COLOR` and `CARGO_TERM_COLOR`; never in JSON. (The CLI's stdout here is
/// a pipe, so `auto` means none.)
#[test]
fn colour_is_opt_in_off_a_terminal_and_never_in_json() {
    let args = ["validate", "contracts/mcp_tool_call_1.0.0.json", "contracts/fixtures/readme/mcp_calls.jsonl"];
    let plain = run(bin!(), &args);
    assert!(!plain.stdout.contains('\x1b'));
    let colored = run(bin!(), &[&["--color", "always"][..], &args].concat());
    assert_eq!(
        colored.stdout,
        "\x1b[32m[PASS]\x1b[0m mcp.tool_call@1.0.0 <- mcp_calls.jsonl:1\n\x1b[1;31m[FAIL]\x1b[0m mcp.tool_call@1.0.0 <- \
         mcp_calls.jsonl:3\n  \x1b[31mERROR\x1b[0m field.enum method: value 'tools/list' not in {'tools/call'}\n"
    );
    let never = run(bin!(), &[&args[..], &["--color", "never"]].concat());
    assert_eq!(never.stdout, plain.stdout);
    let env = |vars: &[(&str, &str)], extra: &[&str]| {
        let out = std::process::Command::new(bin!())
            .arg("protocolarc")
            .args(args)
            .args(extra)
            .envs(vars.iter().copied())
            .current_dir(protocolarc_tests::root())
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(env(&[("CARGO_TERM_COLOR", "always")], &[]), colored.stdout);
    assert_eq!(env(&[("CARGO_TERM_COLOR", "always")], &["--color", "never"]), plain.stdout);
    assert_eq!(env(&[("NO_COLOR", "1")], &["--color", "always"]), colored.stdout, "an explicit flag wins");
    let json = env(&[("CARGO_TERM_COLOR", "always")], &["--format", "json"]);
    assert!(json.starts_with("{\"format_version\":1,\"results\":[") && !json.contains('\x1b'), "{json}");
}

/// `--jobs N` prints exactly what one job prints, in input order, in text
/// and JSON, quiet or not, across batch boundaries, and exits alike.
#[test]
fn validate_jobs_are_byte_identical_to_one_job() {
    let dir = scratch("validate-jobs");
    let seed = std::fs::read_to_string(protocolarc_tests::root().join("contracts/fixtures/mcp_calls.jsonl")).unwrap();
    let lines: Vec<&str> = seed.lines().collect();
    // 10,000 envelopes (more than two batches), valid and failing mixed.
    let mut body = String::new();
    for i in 0..10_000 {
        body.push_str(lines[i % lines.len()]);
        body.push('\n');
    }
    write_files(&dir, &[("big.jsonl", body.as_bytes())]);
    let contract = protocolarc_tests::root().join("contracts/mcp_tool_call_1.1.0.json");
    let contract = contract.to_str().unwrap();
    for extra in [&[][..], &["--format", "json"][..], &["--quiet"][..]] {
        let run = |jobs: &str| {
            let mut args = vec!["validate", contract, "big.jsonl", "--jobs", jobs];
            args.extend_from_slice(extra);
            run_in(bin!(), &dir, &args)
        };
        let one = run("1");
        assert_eq!(one.code, 1, "the seed fixtures include failing envelopes");
        assert!(one.stdout.len() > 10_000, "{extra:?}: {}", one.stdout.len());
        for jobs in ["2", "3", "8"] {
            let many = run(jobs);
            assert_eq!((many.code, &many.stdout), (one.code, &one.stdout), "--jobs {jobs} {extra:?}");
        }
    }
    let zero = run_in(bin!(), &dir, &["validate", contract, "big.jsonl", "--jobs", "0"]);
    assert_eq!(zero.code, 3);
}

/// An envelope that is not JSON stops the run at its line whatever the
/// jobs: what comes before it is printed alike, the error alike.
#[test]
fn validate_jobs_stop_alike_at_a_broken_line() {
    let dir = scratch("validate-jobs-broken");
    let seed = std::fs::read_to_string(protocolarc_tests::root().join("contracts/fixtures/mcp_calls.jsonl")).unwrap();
    let lines: Vec<&str> = seed.lines().collect();
    let mut body = String::new();
    for i in 0..9_000 {
        body.push_str(if i == 6_000 { "{\"contract\": " } else { lines[i % lines.len()] });
        body.push('\n');
    }
    write_files(&dir, &[("big.jsonl", body.as_bytes())]);
    let contract = protocolarc_tests::root().join("contracts/mcp_tool_call_1.1.0.json");
    let contract = contract.to_str().unwrap();
    for extra in [&[][..], &["--format", "json"][..]] {
        let run = |jobs: &str| {
            let mut args = vec!["validate", contract, "big.jsonl", "--jobs", jobs];
            args.extend_from_slice(extra);
            run_in(bin!(), &dir, &args)
        };
        let one = run("1");
        assert_eq!(one.code, 3, "{}", one.stderr);
        assert!(one.stderr.contains("big.jsonl:6001:"), "{}", one.stderr);
        assert!(one.stdout.contains("big.jsonl:6000"), "what comes before is printed");
        assert!(!one.stdout.contains("big.jsonl:6002"), "nothing after");
        let two = run("2");
        assert_eq!((two.code, &two.stdout, &two.stderr), (one.code, &one.stdout, &one.stderr), "{extra:?}");
    }
}

/// Progress goes to a terminal's stderr only: piped, stderr holds no
/// progress line (no carriage return, no counts), for `validate` and
/// `traffic` alike.
#[test]
fn piped_runs_show_no_progress() {
    let dir = scratch("progress-piped");
    let seed = std::fs::read_to_string(protocolarc_tests::root().join("contracts/fixtures/mcp_calls.jsonl")).unwrap();
    let lines: Vec<&str> = seed.lines().collect();
    let mut body = String::new();
    for i in 0..20_000 {
        body.push_str(lines[i % lines.len()]);
        body.push('\n');
    }
    let ping = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}\n".repeat(20_000);
    write_files(&dir, &[("big.jsonl", body.as_bytes()), ("cap.jsonl", ping.as_bytes())]);
    let contract = protocolarc_tests::root().join("contracts/mcp_tool_call_1.1.0.json");
    let catalog = protocolarc_tests::root().join("protocols");
    let runs = [
        run_in(bin!(), &dir, &["validate", contract.to_str().unwrap(), "big.jsonl", "--quiet"]),
        run_in(
            bin!(),
            &dir,
            &["traffic", "cap.jsonl", "--catalog", catalog.to_str().unwrap(), "--protocol", "mcp@2025-06-18"],
        ),
    ];
    for out in runs {
        assert!([0, 1].contains(&out.code), "{}", out.stderr);
        assert!(!out.stderr.contains('\r') && !out.stderr.contains("lines"), "{:?}", out.stderr);
        assert!(!out.stdout.contains('\r'), "stdout never carries progress");
    }
}
