//! One test per fixed bug (found in review of the foundation), so each stays fixed.

use std::io::Read;
use std::process::{Command, Stdio};

use protocolarc::ContractSpec;
use protocolarc_tests::{bin, root, run_in, scratch, write_files};

fn lines(c: &ContractSpec, data: &str) -> Vec<String> {
    c.validate_json(data.as_bytes()).findings().iter().map(|f| f.to_string()).collect()
}

fn load(doc: &str) -> Result<ContractSpec, String> {
    ContractSpec::from_slice(doc.as_bytes(), "r.json").map_err(|e| e.to_string())
}

#[test]
fn a_path_deeper_than_the_limit_is_a_structural_error_not_a_stack_overflow() {
    let path = vec!["a"; 30_000].join(".");
    let doc = format!(r#"{{"name": "t", "revision": "1.0.0", "fields": [{{"name": "{path}", "type": "string"}}]}}"#);
    let err = load(&doc).unwrap_err();
    assert_eq!(
        err,
        format!(
            "r.json:1:56: field '{}...': path '{}...' nests deeper than 128 levels",
            "a.".repeat(40),
            "a.".repeat(20)
        )
    );
    let dir = scratch("deep-path");
    write_files(&dir, &[("p.json", doc.as_bytes())]);
    let out = run_in(bin!(), &dir, &["describe", "p.json"]);
    assert_eq!(out.code, 3);
}

#[test]
fn keys_and_revisions_cannot_forge_lines_of_text_output() {
    let c = load(r#"{"name": "t", "revision": "1.0.0", "strict": true, "fields": []}"#).unwrap();
    assert_eq!(
        lines(&c, "{\"x\\n[PASS] forged\": 1}"),
        ["WARNING field.unknown [\"x\\n[PASS] forged\"]: key is not declared by the strict contract"]
    );
    let dir = scratch("forge");
    let contract = std::fs::read(root().join("contracts/a2a_task_send_1.0.0.json")).unwrap();
    let line = br#"{"contract": "a2a.task_send", "revision": "9\n[PASS] forged", "data": {"task_id": "t", "role": "user", "parts": []}}"#;
    write_files(&dir, &[("c.json", &contract), ("e.jsonl", line)]);
    let out = run_in(bin!(), &dir, &["validate", "c.json", "e.jsonl"]);
    assert_eq!(
        out.stdout,
        "[PASS] a2a.task_send@1.0.0 <- e.jsonl:1\n  WARNING revision.hint <envelope>: envelope declares revision 9\\n[PASS] forged, contract is 1.0.0\n"
    );
}

#[test]
fn describe_json_keeps_numbers_as_written() {
    let dir = scratch("describe-numbers");
    let doc = br#"{"name": "t", "revision": "1.0.0", "fields": [
        {"name": "n", "type": "number", "multipleOf": 1e-300, "maximum": 12345678901234567890123, "minimum": 1e2}]}"#;
    write_files(&dir, &[("c.json", doc)]);
    let out = run_in(bin!(), &dir, &["describe", "c.json", "--format", "json"]);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout.contains(
            "\"constraints\": {\n        \"maximum\": 12345678901234567890123,\n        \"minimum\": 1e2,\n        \"multipleOf\": 1e-300\n      }"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn jsonl_errors_at_the_end_of_a_line_stay_on_that_line() {
    let dir = scratch("eol");
    let contract = std::fs::read(root().join("contracts/a2a_task_send_1.0.0.json")).unwrap();
    write_files(&dir, &[("c.json", &contract), ("e.jsonl", b"{\"contract\":\"t\",\"data\":{\"p\":1}\r\n")]);
    let out = run_in(bin!(), &dir, &["validate", "c.json", "e.jsonl"]);
    assert_eq!((out.code, out.stderr.as_str()), (3, "error: e.jsonl:1:31: unexpected end of input\n"));
}

#[test]
fn json_output_is_one_document_even_when_input_fails() {
    let dir = scratch("json-abort");
    let contract = std::fs::read(root().join("contracts/a2a_task_send_1.0.0.json")).unwrap();
    let lines = b"{\"contract\":\"a2a.task_send\",\"data\":{\"task_id\":\"t\",\"role\":\"user\",\"parts\":[]}}\n[1]\n";
    write_files(&dir, &[("c.json", &contract), ("e.jsonl", lines)]);
    let out = run_in(bin!(), &dir, &["validate", "c.json", "e.jsonl", "--format", "json"]);
    assert_eq!(out.code, 3);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("a complete JSON document");
    assert_eq!(doc["error"], "e.jsonl:2:1: an envelope must be a JSON object, found array");
    assert_eq!(doc["summary"]["envelopes"], 1);
    let out = run_in(bin!(), &dir, &["validate", "missing.json", "e.jsonl", "--format", "json"]);
    assert_eq!((out.code, out.stdout.as_str()), (3, ""), "nothing is printed before the contract loads");
}

#[test]
fn a_closed_pipe_never_turns_failures_into_success() {
    let dir = scratch("pipe");
    let seed = std::fs::read(root().join("contracts/fixtures/mcp_calls.jsonl")).unwrap();
    write_files(&dir, &[("many.jsonl", &seed.repeat(5000))]);
    let contract = root().join("contracts/mcp_tool_call_1.1.0.json");
    let mut child = Command::new(bin!())
        .args(["protocolarc", "validate", contract.to_str().unwrap(), "many.jsonl"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut first = [0u8; 16];
    child.stdout.take().expect("stdout").read_exact(&mut first).expect("first bytes");
    let code = child.wait().expect("wait").code();
    assert!(matches!(code, Some(1) | Some(141)), "{code:?}");
}

#[test]
fn every_structural_error_is_reported_with_its_column() {
    let doc = "{\"name\": \"t\", \"revision\": \"1.0.0\", \"fields\": [\n  {\"name\": \"a\", \"type\": \"string\"}, {\"name\": \"a.b\", \"type\": \"string\"},\n  {\"name\": \"c\", \"type\": \"strin\"}\n]}";
    let err = load(doc).unwrap_err();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines,
        [
            "r.json:2:3: field 'a': 'a' is declared as string, so it cannot have the child field 'a.b'",
            "r.json:3:25: field 'c': unknown type 'strin': did you mean 'string'? (expected one of: string, integer, number, boolean, object, array, null, any)",
        ]
    );
}

#[test]
fn an_enum_rejects_objects_and_arrays() {
    let c = load(r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "a", "type": ["string", "object", "array"], "enum": ["x"]}]}"#)
        .unwrap();
    assert_eq!(lines(&c, r#"{"a": {}}"#), ["ERROR field.enum a: an object is not in {'x'}"]);
    assert_eq!(lines(&c, r#"{"a": [1]}"#), ["ERROR field.enum a: an array is not in {'x'}"]);
    assert_eq!(lines(&c, r#"{"a": "x"}"#), Vec::<String>::new());
}

#[test]
fn contract_numbers_beyond_the_exact_range_are_refused_and_values_near_it_compare_exactly() {
    let err = load(r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "n", "type": "number", "maximum": 1e1099511627777}]}"#)
        .unwrap_err();
    assert!(
        err.ends_with(
            "'maximum' 1e1099511627777 is beyond the supported range of numbers (a decimal exponent within ±2^39)"
        ),
        "{err}"
    );
    let c = load(r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "n", "type": "number", "exclusiveMaximum": 1e549755813887}]}"#)
        .unwrap();
    assert_eq!(lines(&c, r#"{"n": 1e549755813886}"#), Vec::<String>::new());
    assert_eq!(lines(&c, r#"{"n": 1e1099511627776}"#).len(), 1, "a larger value is still above the bound");
}

#[test]
fn patterns_work_on_text_not_bytes() {
    let err = load(
        r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "s", "type": "string", "pattern": "^(?-u:..)$"}]}"#,
    )
    .unwrap_err();
    assert!(err.starts_with("r.json:1:90: field 's': pattern '^(?-u:..)$' does not compile: "), "{err}");
}

/// A pattern the regex crate compiles with its defaults loads: a tool
/// name's `^\w{1,128}$` (Unicode word characters, counted); past that
/// size, the loader says why.
#[test]
fn a_counted_unicode_class_loads_as_the_regex_crate_compiles_it() {
    let c = load(
        r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "s", "type": "string", "pattern": "^\\w{1,128}$"}]}"#,
    )
    .unwrap();
    assert_eq!(lines(&c, r#"{"s": "naïve_tool_1"}"#), Vec::<String>::new());
    assert_eq!(lines(&c, &format!(r#"{{"s": "{}"}}"#, "a".repeat(129))).len(), 1);
    let err = load(
        r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "s", "type": "string", "pattern": "^\\w{1,1000}$"}]}"#,
    )
    .unwrap_err();
    assert!(err.ends_with("does not compile: Compiled regex exceeds size limit of 10485760 bytes."), "{err}");
}

#[test]
fn a_byte_order_mark_is_tolerated_in_contracts_as_in_envelopes() {
    let c =
        ContractSpec::from_slice(b"\xef\xbb\xbf{\"name\": \"t\", \"revision\": \"1.0.0\", \"fields\": []}", "bom.json");
    assert!(c.is_ok());
}

#[test]
fn unique_items_false_constrains_nothing_and_fits_any_type() {
    assert!(load(
        r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "s", "type": "string", "uniqueItems": false}]}"#
    )
    .is_ok());
    let err =
        load(r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "s", "type": "string", "uniqueItems": true}]}"#)
            .unwrap_err();
    assert!(err.ends_with("'uniqueItems' applies to arrays, but the field's type is string"), "{err}");
}

#[test]
fn directories_are_read_in_path_order_and_include_ndjson() {
    let dir = scratch("dir-order");
    let contract = std::fs::read(root().join("contracts/a2a_task_send_1.0.0.json")).unwrap();
    let env = br#"{"contract": "a2a.task_send", "data": {"task_id": "t", "role": "user", "parts": []}}"#;
    write_files(&dir, &[("c.json", &contract), ("in/a.jsonl", env), ("in/a/b.jsonl", env), ("in/z.ndjson", env)]);
    let out = run_in(bin!(), &dir, &["validate", "c.json", "in"]);
    assert_eq!(
        out.stdout,
        "[PASS] a2a.task_send@1.0.0 <- a/b.jsonl:1\n[PASS] a2a.task_send@1.0.0 <- a.jsonl:1\n[PASS] a2a.task_send@1.0.0 <- z.ndjson:1\n"
    );
}

#[test]
fn an_enum_member_its_own_field_rejects_is_a_structural_error() {
    let err = load(r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "n", "type": "integer", "enum": [1, 7], "minimum": 5}]}"#)
        .unwrap_err();
    assert_eq!(
        err,
        "r.json:1:89: field 'n': enum value 1 can never pass: field.minimum: value 1 is less than minimum 5"
    );
}

/// Witnesses the second review found missing although they exist.
#[test]
fn witnesses_exist_for_these_breaking_changes() {
    use protocolarc::diff::diff;
    let pairs = [
        (
            r#"[{"name":"b","type":"array","minItems":1},{"name":"x","type":"string"}]"#,
            r#"[{"name":"b","type":"array","minItems":1},{"name":"x","type":"integer"}]"#,
        ),
        (r#"[{"name":"a[].x","type":"null"}]"#, r#"[{"name":"a[]","type":"null"}]"#),
        (r#"[{"name":"x","type":"string","pattern":"^a"}]"#, r#"[{"name":"x","type":"string","maxLength":2}]"#),
    ];
    for (old, new) in pairs {
        let old = load(&format!(r#"{{"name": "w", "revision": "1.0.0", "fields": {old}}}"#)).unwrap();
        let new = load(&format!(r#"{{"name": "w", "revision": "2.0.0", "fields": {new}}}"#)).unwrap();
        let d = diff(&old, &new).unwrap();
        let first = &d.changes()[0];
        let w = first.witness().unwrap_or_else(|| panic!("no witness for {}", first.message()));
        assert!(old.validate_json(w.as_bytes()).findings().is_empty(), "{w}");
        assert!(!new.validate_json(w.as_bytes()).is_valid(), "{w}");
    }
}

#[test]
fn canonical_numbers_break_ties_to_even_as_ecmascript_does() {
    let a = protocolarc::lock::canonical_json(br#"{"a": 852325852412319.2, "b": 94614632987514.12}"#).unwrap();
    assert_eq!(a, r#"{"a":852325852412319.2,"b":94614632987514.12}"#);
}

/// Issue 10, defect 5: a field named `zz\n::error::injected` printed a line
/// that GitHub Actions reads as a workflow command (`diff`, `changelog`,
/// `describe` printed names raw). The loader refuses such names, and free
/// text (title, kind, doc) is escaped onto one line.
#[test]
fn contract_text_cannot_start_an_output_line_of_its_own() {
    let dir = scratch("control-chars");
    let bad =
        r#"{"name": "t.x", "revision": "1.0.0", "fields": [{"name": "zz\n::error::injected", "type": "string"}]}"#;
    let text = r#"{"name": "t.x", "revision": "1.0.0", "title": "T\n::error::forged", "doc": "one\ntwo",
        "fields": [{"name": "a", "type": "string", "doc": "x\r\n::warning::y"}]}"#;
    write_files(&dir, &[("bad.json", bad.as_bytes()), ("text.json", text.as_bytes())]);
    for args in [&["describe", "bad.json"][..], &["diff", "bad.json", "bad.json"]] {
        let out = run_in(bin!(), &dir, args);
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (
                3,
                "",
                "error: bad.json:1:58: field 'zz\\n::error::injected': path 'zz\\n::error::injected' contains a \
                 control character (a line break would forge output lines)\n"
            ),
            "{args:?}"
        );
    }
    let out = run_in(bin!(), &dir, &["describe", "text.json"]);
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        "t.x@1.0.0: T\\n::error::forged\nkind: -, strict: false, 1 field\none\\ntwo\n\n  FIELD  TYPE    REQUIRED  \
         CONSTRAINTS\n  a      string  required\n      x\\r\\n::warning::y\n"
    );
    assert!(out.stdout.lines().all(|l| !l.starts_with("::")), "no line starts a workflow command");
}

/// Issue 10, defect 6: adding these patterns to a plain string field printed
/// "(no witness found)", though `"a"`, a space, a line break and `"bc"` are
/// witnesses. Candidates now come from each pattern's complement too.
#[test]
fn an_added_pattern_gets_a_witness_from_its_complement() {
    let old = load(r#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "s", "type": "string"}]}"#).unwrap();
    for pattern in ["^[^a]*$", "^\\\\w*$", "^\\\\S*$", "^.*$", "^(?:[^b]|b[^c])*$"] {
        let doc = format!(
            r#"{{"name": "t", "revision": "2.0.0", "fields": [{{"name": "s", "type": "string", "pattern": "{pattern}"}}]}}"#
        );
        let new = load(&doc).unwrap();
        let d = protocolarc::diff::diff(&old, &new).unwrap();
        let change = &d.changes()[0];
        assert_eq!((change.rule(), change.field()), ("field.pattern.tightened", "s"), "{pattern}");
        let witness = change.witness().unwrap_or_else(|| panic!("{pattern}: no witness"));
        // The witness really is one: the old revision accepts it with no
        // finding, the new one flags the pattern.
        assert!(old.validate_json(witness.as_bytes()).findings().is_empty(), "{pattern}: {witness}");
        let flagged = new.validate_json(witness.as_bytes());
        assert!(flagged.findings().iter().any(|f| f.rule() == "field.pattern" && f.field() == "s"), "{pattern}");
    }
}

const LOCK_MANIFEST: &[u8] =
    b"[workspace]\nmembers = []\n\n[workspace.metadata.protocolarc]\ncontracts = \"contracts\"\n";
const LOCK_CONTRACT: &[u8] = br#"{"name": "t.x", "revision": "1.0.0", "fields": [{"name": "a", "type": "string"}]}"#;

/// Issue 10, defect 3: a committed `protocolarc.lock -> /any/file` made `lock`
/// overwrite that file (or create one through a dangling link). A link is
/// refused and left alone.
#[cfg(unix)]
#[test]
fn lock_never_writes_through_a_symbolic_link() {
    let dir = scratch("lock-symlink");
    write_files(&dir, &[("Cargo.toml", LOCK_MANIFEST), ("contracts/t.json", LOCK_CONTRACT), ("victim", b"keep")]);
    std::os::unix::fs::symlink(dir.join("victim"), dir.join("protocolarc.lock")).unwrap();
    let out = run_in(bin!(), &dir, &["lock"]);
    assert_eq!(out.code, 3);
    assert!(out.stderr.ends_with(
        "protocolarc.lock: is a symbolic link; refusing to write through it (replace it with a regular file)\n"
    ));
    assert_eq!(std::fs::read(dir.join("victim")).unwrap(), b"keep");
    std::fs::remove_file(dir.join("protocolarc.lock")).unwrap();
    std::os::unix::fs::symlink(dir.join("elsewhere"), dir.join("protocolarc.lock")).unwrap();
    assert_eq!(run_in(bin!(), &dir, &["lock"]).code, 3);
    assert!(!dir.join("elsewhere").exists(), "nothing is created through a dangling link");
}

/// Issue 10, defect 2: `lock` truncated, then wrote, so a `lock --check`
/// running beside it (same content) failed with "EOF while parsing" 8 times
/// in 150. The lock is now replaced by a rename: a reader sees the whole old
/// file or the whole new one.
#[test]
fn lock_check_beside_lock_always_reads_a_whole_file() {
    let dir = scratch("lock-race");
    write_files(&dir, &[("Cargo.toml", LOCK_MANIFEST)]);
    // Many revisions, so that writing the lock takes a while.
    for minor in 0..400 {
        let doc =
            format!(r#"{{"name": "t.x", "revision": "1.{minor}.0", "fields": [{{"name": "a", "type": "string"}}]}}"#);
        write_files(&dir, &[(&format!("contracts/t_1.{minor}.0.json"), doc.as_bytes())]);
    }
    assert_eq!(run_in(bin!(), &dir, &["lock"]).code, 0);
    let writer_dir = dir.clone();
    let writer = std::thread::spawn(move || {
        (0..60).map(|_| run_in(bin!(), &writer_dir, &["lock"]).code).filter(|&c| c != 0).count()
    });
    let mut failures = Vec::new();
    for _ in 0..60 {
        let out = run_in(bin!(), &dir, &["lock", "--check"]);
        if out.code != 0 {
            failures.push(format!("{}{}", out.stdout, out.stderr));
        }
    }
    assert_eq!(writer.join().unwrap(), 0, "every lock run succeeds");
    assert_eq!(failures, Vec::<String>::new());
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "no temporary file is left: {names:?}");
}

/// Issue 10, defect 8: adding an empty pattern was reported as breaking with
/// no witness, though every string matches it. A pattern that matches
/// everything is the same as none; one that asserts a position is not.
#[test]
fn a_pattern_every_string_matches_is_no_change() {
    let field = |extra: &str| {
        load(&format!(r#"{{"name": "t", "revision": "1.0.0", "fields": [{{"name": "s", "type": "string"{extra}}}]}}"#))
            .unwrap()
    };
    let plain = field("");
    for trivial in ["", "a*", ".*?", "(?:)"] {
        let with = field(&format!(r#", "pattern": "{trivial}""#));
        // The pattern really accepts every string the samples below try.
        for s in [r#"{"s": ""}"#, r#"{"s": "b"}"#, r#"{"s": "\n x"}"#] {
            assert!(with.validate_json(s.as_bytes()).findings().is_empty(), "{trivial}: {s}");
        }
        for (old, new) in [(&plain, &with), (&with, &plain)] {
            let d = protocolarc::diff::diff(old, new).unwrap();
            assert_eq!(d.changes().len(), 0, "{trivial:?}: {:?}", d.changes());
        }
    }
    let anchored = field(r#", "pattern": "^$""#);
    let d = protocolarc::diff::diff(&plain, &anchored).unwrap();
    let rows: Vec<_> = d.changes().iter().map(|c| (c.rule(), c.witness().is_some())).collect();
    assert_eq!(rows, vec![("field.pattern.tightened", true)]);
}
