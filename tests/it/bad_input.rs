//! Bad input, through the CLI: every case exits 3 with one clear message that
//! names the file and the position, and nothing panics.

use protocolarc_tests::{bin, root, run_in, scratch, write_files};

/// Runs `validate CONTRACT ENVELOPES` in a scratch dir holding `files`, and
/// returns (exit code, stderr). Envelopes before a bad one are reported as
/// they stream; `printed` is how many result lines must precede the error.
fn validate_after(name: &str, files: &[(&str, &[u8])], args: &[&str], printed: usize) -> (i32, String) {
    let dir = scratch(name);
    write_files(&dir, files);
    let mut full = vec!["validate"];
    full.extend_from_slice(args);
    let out = run_in(bin!(), &dir, &full);
    assert_eq!(out.stdout.lines().count(), printed, "{name}: {}", out.stdout);
    (out.code, out.stderr)
}

fn validate(name: &str, files: &[(&str, &[u8])], args: &[&str]) -> (i32, String) {
    validate_after(name, files, args, 0)
}

const GOOD_ENVELOPES: &[u8] = br#"{"contract": "t.c", "data": {"a": "x"}}"#;

fn contract_error(name: &str, contract: &str) -> (i32, String) {
    validate(name, &[("c.json", contract.as_bytes()), ("e.jsonl", GOOD_ENVELOPES)], &["c.json", "e.jsonl"])
}

#[test]
fn malformed_contract_json() {
    let c = "{\n  \"name\": \"t.c\",,\n  \"revision\": \"1.0.0\"\n}";
    assert_eq!(contract_error("malformed", c), (3, "error: c.json:2:17: expected a string key\n".into()));
}

#[test]
fn contract_missing_fields() {
    let c = r#"{"name": "t.c", "revision": "1.0.0"}"#;
    assert_eq!(
        contract_error("no-fields", c),
        (3, "error: c.json:1:1: missing required key 'fields' (or 'schema', for a JSON Schema contract)\n".into())
    );
}

#[test]
fn unknown_type() {
    let c = "{\"name\": \"t.c\", \"revision\": \"1.0.0\", \"fields\": [\n  {\"name\": \"a\", \"type\": \"strin\"}\n]}";
    assert_eq!(
        contract_error("unknown-type", c),
        (
            3,
            "error: c.json:2:25: field 'a': unknown type 'strin': did you mean 'string'? \
             (expected one of: string, integer, number, boolean, object, array, null, any)\n"
                .into()
        )
    );
}

#[test]
fn duplicate_field() {
    let c = "{\"name\": \"t.c\", \"revision\": \"1.0.0\", \"fields\": [\n  {\"name\": \"a\", \"type\": \"string\"},\n  {\"name\": \"a\", \"type\": \"integer\"}\n]}";
    assert_eq!(
        contract_error("dup-field", c),
        (3, "error: c.json:3:3: field 'a': duplicate field path (first declared on line 2)\n".into())
    );
}

#[test]
fn bad_regex() {
    let c = "{\"name\": \"t.c\", \"revision\": \"1.0.0\", \"fields\": [\n  {\"name\": \"a\", \"type\": \"string\", \"pattern\": \"(ab\"}\n]}";
    assert_eq!(
        contract_error("bad-regex", c),
        (3, "error: c.json:2:46: field 'a': pattern '(ab' does not compile: unclosed group\n".into())
    );
}

#[test]
fn bad_semver() {
    let c = r#"{"name": "t.c", "revision": "1.0", "fields": []}"#;
    let (code, err) = contract_error("bad-semver", c);
    assert_eq!(code, 3);
    assert!(
        err.starts_with("error: c.json:1:29: revision '1.0' is not a semantic version (MAJOR.MINOR.PATCH): "),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn minimum_above_maximum() {
    let c = "{\"name\": \"t.c\", \"revision\": \"1.0.0\", \"fields\": [\n  {\"name\": \"n\", \"type\": \"integer\", \"minimum\": 10, \"maximum\": 3}\n]}";
    assert_eq!(
        contract_error("min-max", c),
        (3, "error: c.json:2:3: field 'n': no number satisfies both 'minimum' 10 and 'maximum' 3\n".into())
    );
}

#[test]
fn every_problem_of_a_contract_is_reported_at_once() {
    let c = "{\"name\": \"t.c\", \"revision\": \"x\", \"fields\": [\n  {\"name\": \"a\", \"type\": \"integer\", \"maxLength\": 3},\n  {\"name\": \"b\", \"type\": []}\n]}";
    let (code, err) = contract_error("many", c);
    assert_eq!(code, 3);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(lines[0].starts_with("error: c.json:1:29: revision 'x' is not a semantic version"), "{err}");
    assert_eq!(lines[1], "c.json:2:49: field 'a': 'maxLength' applies to strings, but the field's type is integer");
    assert_eq!(lines[2], "c.json:3:25: field 'b': empty type list");
}

#[test]
fn contract_file_that_does_not_exist() {
    let (code, err) = validate("no-contract", &[("e.jsonl", GOOD_ENVELOPES)], &["missing.json", "e.jsonl"]);
    assert_eq!((code, err.as_str()), (3, "error: missing.json: cannot read contract: no such file or directory\n"));
}

const CONTRACT: &[u8] = br#"{"name": "t.c", "revision": "1.0.0", "fields": [{"name": "a", "type": "string"}]}"#;

#[test]
fn envelope_file_that_does_not_exist() {
    let (code, err) = validate("no-envelopes", &[("c.json", CONTRACT)], &["c.json", "nope.jsonl"]);
    assert_eq!((code, err.as_str()), (3, "error: nope.jsonl: no such file or directory\n"));
}

#[test]
fn directory_with_no_envelopes() {
    let (code, err) =
        validate("empty-dir", &[("c.json", CONTRACT), ("traffic/notes.txt", b"not json")], &["c.json", "traffic"]);
    assert_eq!((code, err.as_str()), (3, "error: traffic: directory contains no .json or .jsonl files\n"));
}

#[test]
fn files_with_no_envelope_at_all() {
    let (code, err) = validate("blank", &[("c.json", CONTRACT), ("e.jsonl", b"\n  \n")], &["c.json", "e.jsonl"]);
    assert_eq!((code, err.as_str()), (3, "error: no envelopes to validate in e.jsonl\n"));
}

#[test]
fn invalid_utf8_in_an_envelope() {
    let line = b"{\"contract\": \"t.c\", \"data\": {\"a\": \"caf\xe9\"}}\n";
    let (code, err) = validate("utf8", &[("c.json", CONTRACT), ("e.jsonl", line)], &["c.json", "e.jsonl"]);
    assert_eq!((code, err.as_str()), (3, "error: e.jsonl:1:39: invalid UTF-8\n"));
}

#[test]
fn invalid_utf8_in_a_contract() {
    let c = b"{\"name\": \"t\xffc\", \"revision\": \"1.0.0\", \"fields\": []}";
    let (code, err) = validate("utf8-contract", &[("c.json", c), ("e.jsonl", GOOD_ENVELOPES)], &["c.json", "e.jsonl"]);
    assert_eq!((code, err.as_str()), (3, "error: c.json:1:12: invalid UTF-8\n"));
}

#[test]
fn jsonl_line_that_is_not_an_object() {
    let lines = [GOOD_ENVELOPES, b"\n[1, 2]\n"].concat();
    let (code, err) =
        validate_after("not-object", &[("c.json", CONTRACT), ("e.jsonl", &lines)], &["c.json", "e.jsonl"], 1);
    assert_eq!((code, err.as_str()), (3, "error: e.jsonl:2:1: an envelope must be a JSON object, found array\n"));
}

#[test]
fn malformed_envelope_json_names_line_and_column() {
    let lines = [GOOD_ENVELOPES, b"\n\n{\"contract\": \"t.c\", \"data\": {\"a\": }}\n"].concat();
    let (code, err) =
        validate_after("malformed-env", &[("c.json", CONTRACT), ("e.jsonl", &lines)], &["c.json", "e.jsonl"], 1);
    assert_eq!((code, err.as_str()), (3, "error: e.jsonl:3:35: expected a JSON value\n"));
    let doc = b"[\n  {\"contract\": \"t.c\", \"data\": {}},\n  {\"contract\": \"t.c\" \"data\": {}}\n]";
    let (code, err) =
        validate_after("malformed-json", &[("c.json", CONTRACT), ("e.json", doc)], &["c.json", "e.json"], 2);
    assert_eq!((code, err.as_str()), (3, "error: e.json:3:22: expected ',' or '}' after an object member\n"));
}

#[test]
fn envelope_wrapper_problems() {
    let cases: &[(&[u8], &str)] = &[
        (br#"{"data": {}}"#, "error: e.jsonl:1:1: envelope is missing required key 'contract'\n"),
        (
            br#"{"contract": "t.c", "revison": "1.0.0", "data": {}}"#,
            "error: e.jsonl:1:21: unknown key 'revison' in envelope (expected contract, revision, data)\n",
        ),
        (
            br#"{"contract": "t.c", "revision": 1, "data": {}}"#,
            "error: e.jsonl:1:33: 'revision' must be a string, found number\n",
        ),
    ];
    for (i, (line, want)) in cases.iter().enumerate() {
        let (code, err) =
            validate(&format!("wrapper-{i}"), &[("c.json", CONTRACT), ("e.jsonl", line)], &["c.json", "e.jsonl"]);
        assert_eq!((code, err.as_str()), (3, *want));
    }
}

#[test]
fn describe_bad_contract_exits_three() {
    let dir = scratch("describe-bad");
    write_files(&dir, &[("c.json", b"[]")]);
    let out = run_in(bin!(), &dir, &["describe", "c.json"]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (3, "error: c.json:1:1: a contract must be a JSON object, found array\n")
    );
}

#[test]
fn default_mode_names_a_fixture_whose_contract_is_missing() {
    let dir = scratch("orphan");
    let contract = std::fs::read(root().join("contracts/a2a_task_send_1.0.0.json")).unwrap();
    write_files(
        &dir,
        &[
            ("Cargo.toml", b"[workspace]\n"),
            ("contracts/a2a_task_send_1.0.0.json", &contract),
            ("contracts/fixtures/x.jsonl", br#"{"contract": "nobody", "data": {}}"#),
        ],
    );
    let out = run_in(bin!(), &dir, &["validate"]);
    assert_eq!(out.code, 3);
    assert_eq!(
        out.stderr,
        "error: contracts/fixtures: envelope x.jsonl:1 targets 'nobody', which no contract in contracts defines\n"
    );
}

#[test]
fn generate_refuses_bad_contract_files() {
    let dir = scratch("generate-bad");
    write_files(&dir, &[("bad.json", b"{\"name\": \"t.c\",,}"), ("binary.json", b"\xff\xfe")]);
    std::fs::create_dir_all(dir.join("dir.json")).unwrap();
    for (file, message) in [
        ("missing.json", "error: missing.json: cannot read contract: no such file or directory\n"),
        ("bad.json", "error: bad.json:1:16: expected a string key\n"),
        ("binary.json", "error: binary.json:1:1: expected a JSON value\n"),
        ("dir.json", "error: dir.json: cannot read contract: is a directory\n"),
    ] {
        let out = run_in(bin!(), &dir, &["generate", file]);
        assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (3, "", message), "{file}");
    }
}
