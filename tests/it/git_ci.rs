//! The CI gate end to end: temporary git repositories with real commits of
//! contract revisions, then `diff --against`, `check` and `lock`, asserting
//! exact exit codes and output.

use std::path::{Path, PathBuf};
use std::process::Command;

use protocolarc_tests::{bin, git, run_in, scratch, write_files, Output};

const MANIFEST: &[u8] = b"[workspace]\nmembers = []\n\n[workspace.metadata.protocolarc]\ncontracts = \"contracts\"\n";

fn contract(revision: &str, fields: &str) -> Vec<u8> {
    format!("{{\n  \"name\": \"t.call\",\n  \"revision\": \"{revision}\",\n  \"fields\": [\n    {fields}\n  ]\n}}\n")
        .into_bytes()
}

const V1: &str =
    r#"{ "name": "id", "type": "string" }, { "name": "limit", "type": "integer", "required": false, "maximum": 50 }"#;

/// A repository with `contracts/<file>` at revision 1.0.0, locked and committed.
fn repo(name: &str, file: &str) -> PathBuf {
    let dir = scratch(name);
    write_files(&dir, &[("Cargo.toml", MANIFEST), (&format!("contracts/{file}"), &contract("1.0.0", V1))]);
    git(&dir, &["init", "-q"]);
    assert_eq!(run_in(bin!(), &dir, &["lock"]).code, 0);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "1.0.0"]);
    dir
}

fn cli(dir: &Path, args: &[&str]) -> Output {
    run_in(bin!(), dir, args)
}

/// Adds a revision file (per-revision layout), relocks, and returns the dir.
fn add_revision(dir: &Path, revision: &str, fields: &str) {
    write_files(dir, &[(&format!("contracts/t_{revision}.json"), &contract(revision, fields))]);
    assert_eq!(cli(dir, &["lock"]).code, 0);
}

#[test]
fn compatible_edit_passes() {
    let dir = repo("compatible", "t_1.0.0.json");
    // 1.0.1 only rewords documentation.
    add_revision(&dir, "1.0.1", &V1.replace(r#""type": "string" }"#, r#""type": "string", "doc": "Request id." }"#));
    let out = cli(&dir, &["diff", "--against", "HEAD"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.stdout,
        "t.call: 1.0.0 -> 1.0.1\ncompatibility: COMPATIBLE\n  compatible annotation.changed id: doc (none) -> 'Request id.'\n\ndiff --against HEAD: 1 changed revision; nothing breaking\n"
    );
    let out = cli(&dir, &["check"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "check: ok (2 revisions, 1 chain step, 2 pinned, 0 fixtures; base HEAD)\n")
    );
}

#[test]
fn forward_edit_with_a_minor_bump_passes() {
    let dir = repo("forward", "t_1.0.0.json");
    add_revision(&dir, "1.1.0", &format!(r#"{V1}, {{ "name": "lang", "type": "string", "required": false }}"#));
    let out = cli(&dir, &["diff", "--against", "HEAD"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.starts_with(
        "t.call: 1.0.0 -> 1.1.0\ncompatibility: FORWARD\n  forward field.added.optional lang: added string\n"
    ));
    assert_eq!(cli(&dir, &["check"]).code, 0);
}

#[test]
fn breaking_edit_without_a_major_bump_fails_both() {
    let dir = repo("breaking-minor", "t_1.0.0.json");
    // A lowered maximum removes nothing and still breaks clients.
    add_revision(&dir, "1.1.0", &V1.replace(r#""maximum": 50"#, r#""maximum": 20"#));
    let out = cli(&dir, &["diff", "--against", "HEAD"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stdout.contains("  breaking field.maximum.tightened limit: maximum 50 -> maximum 20\n"),
        "{}",
        out.stdout
    );
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stdout,
        "error[revision.bump.insufficient] contracts/t_1.1.0.json:3: t.call@1.1.0: 1.0.0 -> 1.1.0 is breaking \
         (field.maximum.tightened limit), which needs a major bump; found a minor bump\ncheck: 1 problem\n"
    );
    let out = cli(&dir, &["check", "--format", "github"]);
    assert_eq!(
        out.stdout,
        "::error file=contracts/t_1.1.0.json,line=3,title=revision.bump.insufficient::t.call@1.1.0: 1.0.0 -> 1.1.0 is \
         breaking (field.maximum.tightened limit), which needs a major bump; found a minor bump\ncheck: 1 problem\n"
    );
    // `diff --against` annotates the changed field's own line (5), not `revision` (3).
    let out = cli(&dir, &["diff", "--against", "HEAD", "--format", "github"]);
    let annotation = out.stdout.lines().next().unwrap_or("");
    assert_eq!(
        annotation,
        "::error file=contracts/t_1.1.0.json,line=5,title=field.maximum.tightened::t.call@1.1.0: breaking change since \
         t.call@1.0.0: limit: maximum 50 -> maximum 20"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("contracts/t_1.1.0.json"))
            .unwrap()
            .lines()
            .nth(4)
            .map(|l| l.contains("\"limit\"")),
        Some(true)
    );
}

#[test]
fn breaking_edit_with_a_major_bump_passes_check() {
    let dir = repo("breaking-major", "t_1.0.0.json");
    add_revision(&dir, "2.0.0", &V1.replace(r#""maximum": 50"#, r#""maximum": 20"#));
    assert_eq!(cli(&dir, &["diff", "--against", "HEAD"]).code, 2);
    let out = cli(&dir, &["check"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "check: ok (2 revisions, 1 chain step, 2 pinned, 0 fixtures; base HEAD)\n")
    );
}

#[test]
fn an_accepted_break_ships_without_a_major_bump_and_a_stale_one_is_reported() {
    let dir = repo("accept", "t_1.0.0.json");
    add_revision(&dir, "1.1.0", &V1.replace(r#""maximum": 50"#, r#""maximum": 20"#));
    let accept = "\n[[workspace.metadata.protocolarc.accept]]\ncontract = \"t.call\"\nrevision = \"1.1.0\"\n\
                  rule = \"field.maximum.tightened\"\nfield = \"limit\"\nreason = \"no client ever sent more than 20\"\n";
    let manifest = [MANIFEST, accept.as_bytes()].concat();
    write_files(&dir, &[("Cargo.toml", &manifest)]);
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 0, "{out:?}");
    let out = cli(&dir, &["diff", "--against", "HEAD"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("  accepted field.maximum.tightened limit: no client ever sent more than 20\n"),
        "{}",
        out.stdout
    );
    let out = cli(&dir, &["changelog"]);
    assert!(
        out.stdout.contains(
            "- breaking `field.maximum.tightened` `limit`: maximum 50 -> maximum 20 (accepted: no client ever sent more than 20)\n"
        ),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("revision.bump.insufficient"), "{}", out.stdout);
    // The same entry on a revision that does not make that change is stale.
    let stale = [MANIFEST, accept.replace("\"limit\"", "\"id\"").as_bytes()].concat();
    write_files(&dir, &[("Cargo.toml", &stale)]);
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.contains("error[accept.stale] Cargo.toml: t.call@1.1.0: accept entry field.maximum.tightened id matches no change; remove it\n"), "{}", out.stdout);
    // An entry without a reason is refused.
    let no_reason = [MANIFEST, accept.replace("no client ever sent more than 20", " ").as_bytes()].concat();
    write_files(&dir, &[("Cargo.toml", &no_reason)]);
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 3);
    assert_eq!(out.stderr, "error: accept entry for t.call@1.1.0 field.maximum.tightened limit needs a reason\n");
}

#[test]
fn editing_a_published_revision_in_place_is_a_mutation() {
    let dir = repo("mutated", "t_1.0.0.json");
    write_files(
        &dir,
        &[("contracts/t_1.0.0.json", &contract("1.0.0", &V1.replace("\"maximum\": 50", "\"maximum\": 60")))],
    );
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stdout,
        "error[lock.mismatch] contracts/t_1.0.0.json:3: t.call@1.0.0: content changed since it was pinned in \
         protocolarc.lock (sha256 "
            .to_string()
            + &out.stdout[out.stdout.find("(sha256 ").unwrap() + 8..out.stdout.find(" pinned,").unwrap()]
            + " pinned, "
            + &out.stdout[out.stdout.find("pinned, ").unwrap() + 8..out.stdout.find(" now)").unwrap()]
            + " now)\nerror[revision.mutated] contracts/t_1.0.0.json:3: t.call@1.0.0: t.call@1.0.0 was published at HEAD \
               and has changed since (published revisions are immutable: publish a new revision instead)\ncheck: 2 problems\n"
    );
    // Relocking does not launder it: the base still has the published content.
    assert_eq!(cli(&dir, &["lock"]).code, 0);
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.starts_with("error[revision.mutated] contracts/t_1.0.0.json:3: "), "{}", out.stdout);
    let out = cli(&dir, &["diff", "--against", "HEAD"]);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout.contains("  note: t.call@1.0.0 was edited in place since HEAD (see `check`: revision.mutated)\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn one_file_edited_in_place_layout() {
    let dir = repo("in-place", "t.json");
    // The file keeps its name; its revision moves on. Breaking with a minor bump:
    write_files(&dir, &[("contracts/t.json", &contract("1.1.0", &V1.replace(r#""required": false, "#, "")))]);
    assert_eq!(cli(&dir, &["lock"]).code, 0);
    let out = cli(&dir, &["diff", "--against", "HEAD"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stdout.starts_with("t.call: 1.0.0 -> 1.1.0\ncompatibility: BREAKING\n  breaking field.required.tightened limit: optional -> required\n"),
        "{}",
        out.stdout
    );
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.starts_with(
            "error[revision.bump.insufficient] contracts/t.json:3: t.call@1.1.0: 1.0.0 -> 1.1.0 is breaking"
        ),
        "{}",
        out.stdout
    );
    // With a major bump the same edit passes.
    write_files(&dir, &[("contracts/t.json", &contract("2.0.0", &V1.replace(r#""required": false, "#, "")))]);
    assert_eq!(cli(&dir, &["lock"]).code, 0);
    assert_eq!(cli(&dir, &["check"]).code, 0);
}

#[test]
fn lock_mismatch_and_lock_check() {
    let dir = repo("lock", "t_1.0.0.json");
    add_revision(&dir, "1.1.0", &format!(r#"{V1}, {{ "name": "x", "type": "string", "required": false }}"#));
    assert_eq!(cli(&dir, &["lock", "--check"]).code, 0);
    // The unpublished revision changes after it was locked.
    write_files(
        &dir,
        &[(
            "contracts/t_1.1.0.json",
            &contract("1.1.0", &format!(r#"{V1}, {{ "name": "x", "type": "integer", "required": false }}"#)),
        )],
    );
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.starts_with(
            "error[lock.mismatch] contracts/t_1.1.0.json:3: t.call@1.1.0: content changed since it was pinned"
        ),
        "{}",
        out.stdout
    );
    let out = cli(&dir, &["lock", "--check"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            1,
            "protocolarc.lock does not match the contracts: run `cargo protocolarc lock` and commit it\n  \
             lock.mismatch t.call@1.1.0: content changed since it was pinned in protocolarc.lock (sha256 cbb6defbe4b1 \
             pinned, 415cf1334be8 now)\n"
        )
    );
    // Whitespace and key order are not content: the canonical hash ignores them.
    let reformatted = String::from_utf8(contract(
        "1.1.0",
        &format!(r#"{V1}, {{ "name": "x", "type": "string", "required": false }}"#),
    ))
    .unwrap()
    .replace("  ", "\t");
    write_files(&dir, &[("contracts/t_1.1.0.json", reformatted.as_bytes())]);
    assert_eq!(cli(&dir, &["lock", "--check"]).code, 0);
    // A revision nobody locked.
    std::fs::remove_file(dir.join("protocolarc.lock")).unwrap();
    let out = cli(&dir, &["check"]);
    assert!(
        out.stdout.contains(
            "error[lock.missing] protocolarc.lock: no lock file: run `cargo protocolarc lock` and commit it\n"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn a_base_missing_from_the_clone_says_how_to_fetch_it() {
    let dir = repo("missing-base", "t_1.0.0.json");
    for args in [&["check", "--against", "origin/main"][..], &["diff", "--against", "origin/main"]] {
        let out = cli(&dir, args);
        assert_eq!(out.code, 3, "{args:?}");
        assert_eq!(
            out.stderr,
            "error: git revision 'origin/main' is not in this clone. In CI, fetch the history it needs \
             (actions/checkout with `fetch-depth: 0`, or `git fetch origin main`), then run again.\n"
        );
        assert_eq!(out.stdout, "");
        // With annotations, the reason shows on the workflow run too.
        let github = cli(&dir, &[args, &["--format", "github"]].concat());
        assert_eq!(github.code, 3);
        assert_eq!(github.stderr, out.stderr);
        assert_eq!(
            github.stdout,
            "::error title=cargo protocolarc::git revision 'origin/main' is not in this clone. In CI, fetch the \
             history it needs (actions/checkout with `fetch-depth: 0`, or `git fetch origin main`), then run again.\n"
        );
    }
}

#[test]
fn injected_refs_are_refused() {
    let dir = repo("inject", "t_1.0.0.json");
    for rev in ["--output=x", "-c", "HEAD\nmain", "a b"] {
        let out = cli(&dir, &["diff", &format!("--against={rev}")]);
        assert_eq!(out.code, 3, "{rev:?}: {out:?}");
        assert!(out.stderr.starts_with(&format!("error: invalid git revision {rev:?}: ")), "{}", out.stderr);
        assert!(!dir.join("x").exists());
    }
}

#[test]
fn rev_path_arguments_read_committed_files() {
    let dir = repo("rev-path", "t_1.0.0.json");
    add_revision(&dir, "2.0.0", &V1.replace(r#""maximum": 50"#, r#""maximum": 20"#));
    let out = cli(&dir, &["diff", "HEAD:contracts/t_1.0.0.json", "contracts/t_2.0.0.json"]);
    assert_eq!(out.code, 2);
    assert!(out.stdout.starts_with("t.call: 1.0.0 -> 2.0.0\ncompatibility: BREAKING\n"), "{}", out.stdout);
    let out = cli(&dir, &["describe", "HEAD:contracts/t_1.0.0.json"]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.starts_with("t.call@1.0.0\n"), "{}", out.stdout);
    let out = cli(&dir, &["describe", "HEAD:contracts/none.json"]);
    assert_eq!((out.code, out.stderr.as_str()), (3, "error: HEAD:contracts/none.json: not in git at that revision (looked for 'contracts/none.json' in the repository)\n"));
    // `generate` from git: the code of the committed file, naming its path.
    let committed = cli(&dir, &["generate", "HEAD:contracts/t_1.0.0.json", "--name", "T"]);
    let on_disk = cli(&dir, &["generate", "contracts/t_1.0.0.json", "--name", "T"]);
    assert_eq!((committed.code, on_disk.code), (0, 0), "{}", committed.stderr);
    let (head, body) = committed.stdout.split_once('\n').expect("a header line");
    assert_eq!(head, "// Generated by `cargo protocolarc generate HEAD:contracts/t_1.0.0.json`: what");
    assert_eq!(body, on_disk.stdout.split_once('\n').expect("a header line").1);
    assert!(body.contains(r#""/contracts/t_1.0.0.json""#), "{body}");
}

#[test]
fn manifest_path_from_another_directory() {
    let dir = repo("manifest-path", "t_1.0.0.json");
    add_revision(&dir, "1.1.0", &V1.replace(r#""maximum": 50"#, r#""maximum": 20"#));
    let elsewhere = scratch("manifest-path-elsewhere");
    let manifest = dir.join("Cargo.toml");
    let out = cli(&elsewhere, &["check", "--manifest-path", manifest.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{out:?}");
    let file = dir.join("contracts/t_1.1.0.json");
    assert!(
        out.stdout.starts_with(&format!("error[revision.bump.insufficient] {}:3: t.call@1.1.0: ", file.display())),
        "{}",
        out.stdout
    );
    let out = cli(&elsewhere, &["diff", "--against", "HEAD", "--manifest-path", manifest.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{out:?}");
    let out = cli(&elsewhere, &["check", "--manifest-path", "nope/Cargo.toml"]);
    assert_eq!(out.code, 3);
    assert!(out.stderr.starts_with("error: cannot read nope/Cargo.toml: "), "{}", out.stderr);
}

#[test]
fn changelog_renders_every_chain() {
    let dir = repo("changelog", "t_1.0.0.json");
    add_revision(&dir, "1.1.0", &format!(r#"{V1}, {{ "name": "lang", "type": "string", "required": false }}"#));
    add_revision(
        &dir,
        "2.0.0",
        &format!(r#"{}, {{ "name": "lang", "type": "string", "required": false }}"#, V1.replace("50", "20")),
    );
    let out = cli(&dir, &["changelog"]);
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        "# Contract changelog\n\nComputed by `cargo protocolarc changelog` from the contracts themselves.\n\n\
         ## t.call\n\n\
         ### 2.0.0 (breaking, from 1.1.0; major bump)\n\n\
         - breaking `field.maximum.tightened` `limit`: maximum 50 -> maximum 20\n\n\
         ### 1.1.0 (forward, from 1.0.0; minor bump)\n\n\
         - forward `field.added.optional` `lang`: added string\n\n\
         ### 1.0.0 (first revision)\n"
    );
}

#[test]
fn package_metadata_is_read_for_the_package_in_use() {
    // A workspace whose member package configures its own contracts.
    let dir = scratch("package-metadata");
    let member = b"[package]\nname = \"svc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\npath = \"lib.rs\"\n\n\
                   [package.metadata.protocolarc]\ncontracts = \"spec\"\nlock = \"spec.lock\"\n";
    write_files(
        &dir,
        &[
            (
                "Cargo.toml",
                b"[workspace]\nmembers = [\"pkg\"]\n\n[workspace.metadata.protocolarc]\ncontracts = \"wscontracts\"\n",
            ),
            ("pkg/Cargo.toml", member),
            ("pkg/lib.rs", b""),
            ("pkg/spec/t.json", &contract("1.0.0", V1)),
        ],
    );
    let out = cli(&dir, &["lock", "--manifest-path", "pkg/Cargo.toml"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "wrote pkg/spec.lock (1 revision)\n"), "{out:?}");
    // From inside the package, its own metadata applies without --manifest-path.
    let out = cli(&dir.join("pkg"), &["lock", "--check"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, "spec.lock matches (1 revision)\n"), "{out:?}");
}

#[test]
fn a_broken_manifest_is_reported_not_ignored() {
    let dir = scratch("broken-manifest");
    write_files(&dir, &[("Cargo.toml", b"[workspace]\nmembers = \n"), ("contracts/t.json", &contract("1.0.0", V1))]);
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 3);
    assert!(out.stderr.starts_with("error: cannot read Cargo.toml: "), "{}", out.stderr);
    let bad_table = [MANIFEST, b"lock = 7\n"].concat();
    write_files(&dir, &[("Cargo.toml", &bad_table)]);
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 3);
    assert!(
        out.stderr.starts_with("error: Cargo.toml: [workspace.metadata.protocolarc]: invalid type: integer `7`"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_repository_without_commits_checks_everything_but_mutation() {
    let dir = scratch("unborn");
    write_files(&dir, &[("Cargo.toml", MANIFEST), ("contracts/t.json", &contract("1.0.0", V1))]);
    git(&dir, &["init", "-q"]);
    assert_eq!(cli(&dir, &["lock"]).code, 0);
    let out = cli(&dir, &["check"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "check: ok (1 revision, 0 chain steps, 1 pinned, 0 fixtures; base HEAD (no commit yet: revision.mutated not checked))\n")
    );
}

#[test]
fn deleting_a_published_revision_fails_the_gate() {
    let dir = repo("deleted", "t_1.0.0.json");
    add_revision(&dir, "1.1.0", &format!(r#"{V1}, {{ "name": "lang", "type": "string", "required": false }}"#));
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "1.1.0"]);
    std::fs::remove_file(dir.join("contracts/t_1.0.0.json")).unwrap();
    assert_eq!(cli(&dir, &["lock"]).code, 0);
    let out = cli(&dir, &["check"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            1,
            "error[revision.deleted] contracts/t_1.0.0.json: t.call@1.0.0: t.call@1.0.0 was published at HEAD and its file \
             has been deleted (published revisions stay)\ncheck: 1 problem\n"
        )
    );
}

#[test]
fn a_line_break_cannot_enter_the_git_pipe() {
    let dir = repo("newline-path", "t_1.0.0.json");
    let out = cli(&dir, &["describe", "HEAD:contracts/t_1.0.0.json\nHEAD:contracts/x.json"]);
    assert_eq!(out.code, 3);
    assert!(
        out.stderr.starts_with("error: invalid path \"contracts/t_1.0.0.json\\nHEAD:contracts/x.json\""),
        "{}",
        out.stderr
    );
}

#[test]
fn leaving_a_pre_release_needs_no_bump() {
    let dir = scratch("pre-release");
    write_files(&dir, &[("Cargo.toml", MANIFEST), ("contracts/t_1.0.0-rc.1.json", &contract("1.0.0-rc.1", V1))]);
    git(&dir, &["init", "-q"]);
    assert_eq!(cli(&dir, &["lock"]).code, 0);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "rc"]);
    // The release tightens a bound: breaking, yet a pre-release promised nothing.
    add_revision(&dir, "1.0.0", &V1.replace("\"maximum\": 50", "\"maximum\": 20"));
    let out = cli(&dir, &["check"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "check: ok (2 revisions, 1 chain step, 2 pinned, 0 fixtures; base HEAD)\n")
    );
}

#[test]
fn a_sha256_repository_is_read_as_well() {
    let dir = scratch("sha256");
    write_files(
        &dir,
        &[
            ("Cargo.toml", MANIFEST),
            ("contracts/t.json", &contract("1.0.0", V1)),
            ("fx/a.jsonl", br#"{"contract": "t.call", "data": {"id": "a"}}"#),
            ("fx/sub/b.jsonl", br#"{"contract": "t.call", "data": {"id": 1}}"#),
        ],
    );
    git(&dir, &["init", "-q", "--object-format=sha256"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "init"]);
    let out = cli(&dir, &["validate", "contracts/t.json", "HEAD:fx"]);
    assert_eq!(
        out.stdout,
        "[PASS] t.call@1.0.0 <- a.jsonl:1\n[FAIL] t.call@1.0.0 <- sub/b.jsonl:1\n  ERROR field.type id: expected string, found integer\n"
    );
}

/// One repository that fails every guard at once: each problem `check`
/// reports names a check rule with a record, and every check rule is reached.
#[test]
fn every_problem_check_reports_names_a_check_rule_record() {
    let dir = repo("every-rule", "t_1.0.0.json");
    let other =
        b"{\"name\": \"u.call\", \"revision\": \"1.0.0\", \"fields\": [{\"name\": \"id\", \"type\": \"string\"}]}\n";
    write_files(&dir, &[("contracts/u_1.0.0.json", other)]);
    assert_eq!(cli(&dir, &["lock"]).code, 0);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "u 1.0.0"]);
    let accept = "\n[[workspace.metadata.protocolarc.accept]]\ncontract = \"t.call\"\nrevision = \"1.0.1\"\n\
                  rule = \"field.type.narrowed\"\nfield = \"id\"\nreason = \"nobody sends it\"\n";
    let tightened = contract("1.0.1", &V1.replace(r#""maximum": 50"#, r#""maximum": 20"#));
    write_files(
        &dir,
        &[
            ("Cargo.toml", &[MANIFEST, accept.as_bytes()].concat()),
            // Edited in place after publication (revision.mutated, lock.mismatch).
            ("contracts/t_1.0.0.json", &contract("1.0.0", &V1.replace(r#""maximum": 50"#, r#""maximum": 40"#))),
            // A breaking change with a patch bump, never locked.
            ("contracts/t_1.0.1.json", &tightened),
            ("contracts/broken.json", b"{}\n"),
            ("contracts/fixtures/f.jsonl", b"{\"contract\": \"x.y\", \"data\": {}}\n"),
        ],
    );
    std::fs::remove_file(dir.join("contracts/u_1.0.0.json")).unwrap();
    let mut reported = check_rules(&dir);
    // A duplicate leaves the fixtures without one catalog: checked without them.
    write_files(&dir, &[("contracts/t_copy.json", &tightened)]);
    std::fs::remove_dir_all(dir.join("contracts/fixtures")).unwrap();
    reported.extend(check_rules(&dir));
    reported.sort();
    reported.dedup();
    let mut records: Vec<String> = cargo_protocolarc::checks::CHECK_RULES.iter().map(|r| r.id.to_string()).collect();
    records.sort();
    assert_eq!(reported, records);
    for id in &reported {
        let out = cli(&dir, &["rules", id]);
        assert_eq!(out.code, 0, "{id}: {out:?}");
        assert!(out.stdout.starts_with(&format!("{id} [check]\n")), "{id}: {}", out.stdout);
    }
}

/// The rule of every problem `check --format json` reports (a contract that
/// does not load makes it exit 3).
fn check_rules(dir: &Path) -> Vec<String> {
    let out = cli(dir, &["check", "--format", "json"]);
    assert_eq!(out.code, 3, "{out:?}");
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    let problems = doc["problems"].as_array().unwrap_or_else(|| panic!("no problems: {out:?}"));
    problems.iter().map(|p| p["rule"].as_str().expect("rule").to_string()).collect()
}

/// Walking `REV:DIR` built `REV:dir/<entry>` requests from
/// names stored in git, and a name with a line break split one request in
/// two, shifting every later reply: a directory named `zz\nHEAD:good.jsonl`
/// turned two failing envelopes into `[PASS]` with exit 0. Subtrees are now
/// read by object id, and the label's line break is escaped.
#[test]
fn a_line_break_in_a_committed_name_loses_and_mislabels_nothing() {
    let dir = repo("git-newline-name", "t_1.0.0.json");
    let bad = "{\"contract\": \"t.call\", \"data\": {\"id\": 7}}\n{\"contract\": \"t.call\", \"data\": {}}\n";
    let good = "{\"contract\": \"t.call\", \"data\": {\"id\": \"a\"}}\n";
    write_files(&dir, &[("env/a/bad.jsonl", bad.as_bytes()), ("good.jsonl", good.as_bytes())]);
    let odd = dir.join("env").join("zz\nHEAD:good.jsonl");
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::write(odd.join("x.jsonl"), good).unwrap();
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "odd name"]);
    // The name really is in git, line break and all.
    let listed = Command::new("git").args(["ls-tree", "-z", "--name-only", "HEAD", "env/"]).current_dir(&dir).output();
    assert!(String::from_utf8_lossy(&listed.unwrap().stdout).contains("env/zz\nHEAD:good.jsonl\0"));
    let expected = "[FAIL] t.call@1.0.0 <- a/bad.jsonl:1\n  ERROR field.type id: expected string, found integer\n\
                    [FAIL] t.call@1.0.0 <- a/bad.jsonl:2\n  ERROR field.required id: required field is missing\n\
                    [PASS] t.call@1.0.0 <- zz\\nHEAD:good.jsonl/x.jsonl:1\n";
    let on_disk = cli(&dir, &["validate", "contracts/t_1.0.0.json", "env"]);
    assert_eq!((on_disk.code, on_disk.stdout.as_str()), (1, expected));
    let in_git = cli(&dir, &["validate", "contracts/t_1.0.0.json", "HEAD:env"]);
    assert_eq!((in_git.code, in_git.stdout.as_str(), in_git.stderr.as_str()), (1, expected, ""));
}

/// SPEC §7: `diff --against --format json` is one object with the same keys
/// for zero, one and many changed revisions (it printed `[]`, an object, or
/// an array, depending on the count).
#[test]
fn diff_against_json_keeps_one_shape_for_any_count() {
    let dir = repo("against-json-shape", "t_1.0.0.json");
    let shape = |dir: &Path| {
        let out = cli(dir, &["diff", "--against", "HEAD", "--format", "json"]);
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("one JSON document");
        let keys: Vec<String> = doc.as_object().expect("an object").keys().cloned().collect();
        let count = doc["diffs"].as_array().expect("a list of diffs").len();
        (keys, count, doc["compatibility"].as_str().unwrap().to_string())
    };
    let keys = vec!["compatibility".to_string(), "diffs".to_string(), "format_version".to_string()];
    assert_eq!(shape(&dir), (keys.clone(), 0, "compatible".into()));
    add_revision(&dir, "1.1.0", &format!("{V1}, {{ \"name\": \"note\", \"type\": \"string\", \"required\": false }}"));
    assert_eq!(shape(&dir), (keys.clone(), 1, "forward".into()));
    // A second changed revision: the 1.0.0 file edited in place too.
    let edited = String::from_utf8(contract("1.0.0", V1)).unwrap().replace("\"maximum\": 50", "\"maximum\": 40");
    write_files(&dir, &[("contracts/t_1.0.0.json", edited.as_bytes())]);
    let (k, n, verdict) = shape(&dir);
    assert_eq!((k, n, verdict.as_str()), (keys, 2, "breaking"));
}

/// Markdown of `diff --against` opens with a heading and a summary line, and
/// says so when nothing changed (it printed nothing at all).
#[test]
fn diff_against_markdown_has_a_heading_and_says_when_nothing_changed() {
    let dir = repo("against-markdown", "t_1.0.0.json");
    let out = cli(&dir, &["diff", "--against", "HEAD", "--format", "markdown"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            0,
            "## ProtocolArc diff\n\ndiff --against HEAD: 0 changed revisions; nothing breaking\n\nNo changed \
             revisions.\n"
        )
    );
}

/// The GitHub workflow of docs/ci.md, step by step on a scratch repository: the
/// gate is `check`; the summary (`diff --fail-on never`) always runs and never
/// fails the job. A legitimate major release passes both; a break released as
/// a minor version fails `check` with an annotation, and the summary still
/// describes it. `--fail-on unbumped` fails only the second.
#[test]
fn the_ci_workflow_passes_a_major_release_and_fails_an_unbumped_break() {
    let workflow = |dir: &Path| {
        let gate = cli(dir, &["check", "--against", "HEAD", "--format", "github"]);
        let summary = cli(dir, &["diff", "--against", "HEAD", "--format", "markdown", "--fail-on", "never"]);
        let unbumped = cli(dir, &["diff", "--against", "HEAD", "--fail-on", "unbumped"]).code;
        let strict = cli(dir, &["diff", "--against", "HEAD"]).code;
        (gate, summary, unbumped, strict)
    };
    let tightened = V1.replace(r#""maximum": 50"#, r#""maximum": 20"#);

    let major = repo("workflow-major", "t_1.0.0.json");
    add_revision(&major, "2.0.0", &tightened);
    let (gate, summary, unbumped, strict) = workflow(&major);
    assert_eq!(
        (gate.code, gate.stdout.as_str()),
        (0, "check: ok (2 revisions, 1 chain step, 2 pinned, 0 fixtures; base HEAD)\n")
    );
    assert_eq!(summary.code, 0);
    assert!(summary.stdout.starts_with("## ProtocolArc diff\n\ndiff --against HEAD: 1 changed revision; breaking\n"));
    assert!(summary.stdout.contains("| breaking | `field.maximum.tightened` | `limit` |"), "{}", summary.stdout);
    assert_eq!((unbumped, strict), (0, 2));

    let minor = repo("workflow-minor", "t_1.0.0.json");
    add_revision(&minor, "1.1.0", &tightened);
    let (gate, summary, unbumped, strict) = workflow(&minor);
    assert_eq!(gate.code, 1);
    assert!(
        gate.stdout.starts_with("::error file=contracts/t_1.1.0.json,line=3,title=revision.bump.insufficient::"),
        "{}",
        gate.stdout
    );
    assert_eq!(summary.code, 0);
    assert!(summary.stdout.contains("| breaking | `field.maximum.tightened` | `limit` |"), "{}", summary.stdout);
    assert_eq!((unbumped, strict), (2, 2));
}

/// A schema-form response contract through the whole gate: a new union
/// member published with a minor bump breaks old readers (`check` and
/// `diff --against` use the response verdict), an edit of the published
/// revision is caught by the lock and by `revision.mutated`.
#[test]
fn a_schema_form_response_contract_through_check_and_lock() {
    let schema = |revision: &str, members: &str| {
        format!(
            "{{\n  \"name\": \"t.result\",\n  \"revision\": \"{revision}\",\n  \"direction\": \"response\",\n  \
             \"schema\": {{\"type\": \"object\", \"properties\": {{\"content\": {{\"type\": \"array\", \"items\": {{\"oneOf\": [{members}]}}}}}}}}\n}}\n"
        )
    };
    let member = |tag: &str| {
        format!(
            r#"{{"type": "object", "required": ["type"], "properties": {{"type": {{"const": "{tag}"}}, "text": {{"type": "string"}}}}}}"#
        )
    };
    let dir = scratch("schema-response-gate");
    let v1 = schema("1.0.0", &member("text"));
    write_files(&dir, &[("Cargo.toml", MANIFEST), ("contracts/r_1.0.0.json", v1.as_bytes())]);
    git(&dir, &["init", "-q"]);
    assert_eq!(cli(&dir, &["lock"]).code, 0);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "1.0.0"]);
    let v11 = schema("1.1.0", &format!("{}, {}", member("text"), member("image")));
    write_files(&dir, &[("contracts/r_1.1.0.json", v11.as_bytes())]);
    assert_eq!(cli(&dir, &["lock"]).code, 0);
    let out = cli(&dir, &["diff", "--against", "HEAD"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stdout.starts_with(
            "t.result: 1.0.0 -> 1.1.0\ncompatibility: BREAKING (as a response)\n  breaking union.member.added content[]: oneOf member type='image' added\n"
        ),
        "{}",
        out.stdout
    );
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stdout,
        "error[revision.bump.insufficient] contracts/r_1.1.0.json:3: t.result@1.1.0: 1.0.0 -> 1.1.0 is breaking \
         (union.member.added content[]), which needs a major bump; found a minor bump\ncheck: 1 problem\n"
    );
    let out = cli(&dir, &["changelog"]);
    assert!(
        out.stdout.contains(
            "## t.result\n\nJudged as a response: a change is breaking when old readers reject what the new revision \
             allows.\n\n### 1.1.0 (breaking, from 1.0.0; minor bump)\n"
        ),
        "{}",
        out.stdout
    );
    // Published as 2.0.0 instead: the gate passes.
    std::fs::remove_file(dir.join("contracts/r_1.1.0.json")).unwrap();
    let v2 = schema("2.0.0", &format!("{}, {}", member("text"), member("image")));
    write_files(&dir, &[("contracts/r_2.0.0.json", v2.as_bytes())]);
    assert_eq!(cli(&dir, &["lock"]).code, 0);
    assert_eq!(cli(&dir, &["check"]).code, 0, "{:?}", cli(&dir, &["check"]));
    // Editing the published 1.0.0 in place (its description) is caught.
    let edited = v1.replace(
        "\"type\": \"object\", \"properties\"",
        "\"type\": \"object\", \"description\": \"x\", \"properties\"",
    );
    assert_ne!(edited, v1);
    write_files(&dir, &[("contracts/r_1.0.0.json", edited.as_bytes())]);
    let out = cli(&dir, &["check"]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.contains("error[lock.mismatch] contracts/r_1.0.0.json"), "{}", out.stdout);
    assert!(out.stdout.contains("error[revision.mutated] contracts/r_1.0.0.json"), "{}", out.stdout);
}
