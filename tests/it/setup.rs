//! Setting a repository up outside this one: `init` (idempotent, never
//! overwriting), the composite GitHub Action's shell steps run on the
//! repository `init` made, shell completions and the manual pages.

use std::path::{Path, PathBuf};
use std::process::Command;

use protocolarc_tests::{bin, git, root, run_in, scratch, write_files};

const WORKFLOW: &str = ".github/workflows/protocolarc.yml";

/// The files `init` writes in an empty directory, by relative path.
const WRITTEN: &[&str] = &[
    "contracts/weather_get_forecast_1.0.0.json",
    "contracts/fixtures/weather_get_forecast.jsonl",
    "protocolarc.lock",
    WORKFLOW,
];

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// A git repository set up by `init`, committed.
fn initialized(name: &str) -> PathBuf {
    let dir = scratch(name);
    assert_eq!(std::fs::read_dir(&dir).expect("scratch").count(), 0, "the directory starts empty");
    git(&dir, &["init", "-q"]);
    let out = run_in(bin!(), &dir, &["init"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "init"]);
    dir
}

#[test]
fn init_writes_the_starter_files_explains_them_and_is_idempotent() {
    let dir = scratch("init-empty");
    let first = run_in(bin!(), &dir, &["init"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let wrote: Vec<&str> = first.stdout.lines().filter_map(|l| l.strip_prefix("wrote   ")).collect();
    assert_eq!(wrote, WRITTEN);
    assert!(first.stdout.starts_with("skipped Cargo.toml (none here)\n"), "{}", first.stdout);
    // Each file is explained on the line after it.
    assert!(first.stdout.contains("wrote   protocolarc.lock\n         the pin of every revision"), "{}", first.stdout);
    let lock = read(&dir, "protocolarc.lock");
    assert!(lock.contains(r#"{"name":"weather.get_forecast","revision":"1.0.0","sha256":""#), "{lock}");
    assert!(read(&dir, WORKFLOW).contains(&format!("uses: protocolarc/protocolarc@v{}\n", env!("CARGO_PKG_VERSION"))));

    // The second run writes nothing and says so.
    let before: Vec<String> = WRITTEN.iter().map(|r| read(&dir, r)).collect();
    let second = run_in(bin!(), &dir, &["init"]);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(!second.stdout.contains("wrote"), "{}", second.stdout);
    assert!(second.stdout.contains("kept    .github/workflows/protocolarc.yml (already there)\n"), "{}", second.stdout);
    assert_eq!(WRITTEN.iter().map(|r| read(&dir, r)).collect::<Vec<_>>(), before);

    // A file of the user's is never overwritten.
    std::fs::write(dir.join(WORKFLOW), "name: mine\n").expect("write");
    let third = run_in(bin!(), &dir, &["init"]);
    assert_eq!(third.code, 0, "{}", third.stderr);
    assert!(third
        .stdout
        .contains("kept    .github/workflows/protocolarc.yml (already there and different: left as is)\n"));
    assert_eq!(read(&dir, WORKFLOW), "name: mine\n");

    // What init set up passes the gate.
    let check = run_in(bin!(), &dir, &["check"]);
    assert_eq!((check.code, check.stderr.as_str()), (0, ""), "{}", check.stdout);
    assert!(check.stdout.starts_with("check: ok (1 revision, 0 chain steps, 1 pinned, 1 fixture;"), "{}", check.stdout);
}

#[test]
fn init_records_the_configuration_in_a_package_manifest_once() {
    let dir = scratch("init-package");
    let manifest = "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";
    write_files(&dir, &[("Cargo.toml", manifest.as_bytes()), ("src/lib.rs", b"")]);
    let out = run_in(bin!(), &dir, &["init"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("wrote   Cargo.toml [package.metadata.protocolarc]\n"), "{}", out.stdout);
    let written = read(&dir, "Cargo.toml");
    assert!(written.starts_with(manifest), "{written}");
    assert!(written.contains("\n[package.metadata.protocolarc]\ncontracts = \"contracts\""), "{written}");
    let again = run_in(bin!(), &dir, &["init"]);
    assert!(again.stdout.starts_with("kept    Cargo.toml (it already configures protocolarc)\n"), "{}", again.stdout);
    assert_eq!(read(&dir, "Cargo.toml"), written);
    let check = run_in(bin!(), &dir, &["check"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
}

/// The `run:` scripts of `action.yml`, in order, with their step names.
fn action_steps() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root().join("action.yml")).expect("action.yml");
    let lines: Vec<&str> = text.lines().collect();
    let mut steps = Vec::new();
    let mut name = String::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        if let Some(n) = t.strip_prefix("- name: ") {
            name = n.to_string();
        }
        if let Some(script) = t.strip_prefix("run: ") {
            if script == "|" {
                let indent = lines[i + 1].len() - lines[i + 1].trim_start().len();
                let mut body = String::new();
                while i + 1 < lines.len()
                    && (lines[i + 1].trim().is_empty() || lines[i + 1].starts_with(&" ".repeat(indent)))
                {
                    i += 1;
                    body.push_str(lines[i].get(indent..).unwrap_or(""));
                    body.push('\n');
                }
                steps.push((name.clone(), body));
            } else {
                steps.push((name.clone(), script.to_string()));
            }
        }
        i += 1;
    }
    steps
}

/// Runs every shell step of the action in `repo`, as the runner would: the
/// CLI under test stands in for the installed binary (`cargo protocolarc`
/// reaches it as cargo would), so the install step finds it.
fn run_action(repo: &Path) -> Vec<(String, i32, String)> {
    let shims = repo.join("../shims");
    std::fs::create_dir_all(&shims).expect("shims");
    let cli = shims.join("cargo-protocolarc");
    let _ = std::fs::remove_file(&cli);
    std::os::unix::fs::symlink(bin!(), &cli).expect("symlink the CLI");
    std::fs::write(shims.join("cargo"), "#!/bin/sh\nexec cargo-protocolarc \"$@\"\n").expect("cargo shim");
    Command::new("chmod").arg("+x").arg(shims.join("cargo")).status().expect("chmod");
    let summary = repo.join("../summary.md");
    let _ = std::fs::remove_file(&summary);
    let path = format!("{}:{}", shims.display(), std::env::var("PATH").unwrap_or_default());
    action_steps()
        .into_iter()
        .map(|(name, script)| {
            let out = Command::new("bash")
                .args(["-eo", "pipefail", "-c", &script])
                .current_dir(repo)
                .env("PATH", &path)
                .env("AGAINST", "HEAD")
                .env("GITHUB_ACTION_PATH", root())
                .env("GITHUB_STEP_SUMMARY", &summary)
                .env_remove("CARGO_TERM_COLOR")
                .output()
                .expect("bash");
            (name, out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
        })
        .collect()
}

#[test]
fn the_action_steps_gate_a_repository_set_up_by_init() {
    let names: Vec<String> = action_steps().into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        [
            "Install cargo-protocolarc (pinned by this action's revision, --locked)",
            "Contract gate (check --format github)",
            "Summary (every change, never failing the job)"
        ]
    );
    let tightened = |revision: &str| {
        format!(
            "{{\n  \"name\": \"weather.get_forecast\",\n  \"revision\": \"{revision}\",\n  \"kind\": \"mcp\",\n  \
             \"fields\": [\n    {{ \"name\": \"city\", \"type\": \"string\" }},\n    \
             {{ \"name\": \"days\", \"type\": \"integer\", \"required\": false, \"minimum\": 1, \"maximum\": 5 }}\n  ]\n}}\n"
        )
    };

    // A breaking change released as 2.0.0 passes the gate; the summary says it breaks.
    let major = initialized("action-major");
    write_files(&major, &[("contracts/weather_get_forecast_2.0.0.json", tightened("2.0.0").as_bytes())]);
    assert_eq!(run_in(bin!(), &major, &["lock"]).code, 0);
    let steps = run_action(&major);
    assert_eq!(steps[0].1, 0, "{steps:?}");
    assert!(steps[0].2.starts_with("cargo-protocolarc is installed: "), "{steps:?}");
    assert_eq!(
        (steps[1].1, steps[1].2.as_str()),
        (0, "check: ok (2 revisions, 1 chain step, 2 pinned, 1 fixture; base HEAD)\n")
    );
    assert_eq!(steps[2].1, 0);
    let summary = read(&major, "../summary.md");
    assert!(
        summary.starts_with("## ProtocolArc diff\n\ndiff --against HEAD: 1 changed revision; breaking\n"),
        "{summary}"
    );
    assert!(summary.contains("| breaking | `field.maximum.tightened` | `days` |"), "{summary}");

    // The same change released as 1.1.0 fails the gate with an annotation; the summary is still written.
    let minor = initialized("action-minor");
    write_files(&minor, &[("contracts/weather_get_forecast_1.1.0.json", tightened("1.1.0").as_bytes())]);
    assert_eq!(run_in(bin!(), &minor, &["lock"]).code, 0);
    let steps = run_action(&minor);
    assert_eq!(steps[1].1, 1, "{steps:?}");
    assert!(
        steps[1].2.starts_with(
            "::error file=contracts/weather_get_forecast_1.1.0.json,line=3,title=revision.bump.insufficient::"
        ),
        "{}",
        steps[1].2
    );
    assert_eq!(steps[2].1, 0);
    assert!(read(&minor, "../summary.md").contains("| breaking | `field.maximum.tightened` | `days` |"));
}

#[test]
fn completions_and_manual_pages_are_generated() {
    let dir = scratch("completions");
    let bash = run_in(bin!(), &dir, &["completions", "bash"]);
    assert_eq!(bash.code, 0, "{}", bash.stderr);
    assert!(bash.stdout.contains("complete -F _cargo__protocolarc"), "{}", &bash.stdout[..200.min(bash.stdout.len())]);
    assert!(bash.stdout.contains(" traffic "), "every command is completed");
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = run_in(bin!(), &dir, &["completions", shell]);
        assert_eq!(out.code, 0, "{shell}: {}", out.stderr);
        assert!(out.stdout.contains("cargo-protocolarc") && out.stdout.contains("traffic"), "{shell}");
    }
    let bad = run_in(bin!(), &dir, &["completions", "tcsh"]);
    assert_eq!(bad.code, 3, "{}", bad.stderr);

    let man = run_in(bin!(), &dir, &["man"]);
    assert_eq!(man.code, 0, "{}", man.stderr);
    assert!(man.stdout.contains(".TH cargo-protocolarc 1"), "{}", man.stdout);
    assert!(man.stdout.contains("cargo\\-protocolarc\\-traffic(1)"), "the page lists the commands");
    let pages = run_in(bin!(), &dir, &["man", "--out", "man"]);
    assert_eq!(pages.code, 0, "{}", pages.stderr);
    let mut names: Vec<String> = std::fs::read_dir(dir.join("man"))
        .expect("man")
        .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
        .collect();
    names.sort();
    assert!(
        names.contains(&"cargo-protocolarc.1".to_string()) && names.contains(&"cargo-protocolarc-init.1".to_string())
    );
    assert_eq!(pages.stdout, format!("wrote {} manual pages to man\n", names.len()));
}

/// A raw JSON-RPC message given to `validate` (which reads envelopes) is an
/// input error that names `traffic` and the envelope to wrap a bare body in.
#[test]
fn validate_points_a_raw_message_to_traffic() {
    let dir = scratch("validate-raw");
    let raw = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}\n";
    write_files(&dir, &[("raw.jsonl", raw.as_bytes())]);
    let contract = root().join("contracts/mcp_tool_call_1.0.0.json");
    let out = run_in(bin!(), &dir, &["validate", contract.to_str().expect("utf-8"), "raw.jsonl"]);
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert_eq!(
        out.stderr,
        "error: raw.jsonl:1:2: unknown key 'jsonrpc' in envelope (expected contract, revision, data)\n\
         hint: this looks like a raw JSON-RPC message, not an envelope. `cargo protocolarc traffic FILE` judges raw \
         MCP and A2A messages against the protocol's catalog (`--protocol mcp@2025-11-25` picks the revision, \
         `--catalog DIR` another catalog); to judge a bare body against one contract, wrap it as \
         {\"contract\": \"NAME\", \"data\": BODY}\n"
    );
    // An envelope with a misspelt key gets no such hint.
    write_files(&dir, &[("typo.jsonl", b"{\"contract\": \"mcp.tool_call\", \"dat\": {}}\n")]);
    let out = run_in(bin!(), &dir, &["validate", contract.to_str().expect("utf-8"), "typo.jsonl"]);
    assert_eq!(out.code, 3);
    assert!(out.stderr.contains("unknown key 'dat' in envelope") && !out.stderr.contains("hint"), "{}", out.stderr);
    // A bare body is told how an envelope carries it.
    write_files(&dir, &[("bare.json", b"{\"query\": \"contracts\", \"limit\": 5}\n")]);
    let out = run_in(bin!(), &dir, &["validate", contract.to_str().expect("utf-8"), "bare.json"]);
    assert_eq!(out.code, 3);
    assert_eq!(
        out.stderr,
        "error: bare.json:1:2: unknown key 'query' in envelope (expected contract, revision, data)\n\
         hint: this looks like a bare body, not an envelope: an envelope carries the body under `data`, \
         {\"contract\": \"NAME\", \"data\": BODY} (`revision` optional)\n"
    );
}
