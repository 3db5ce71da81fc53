//! Hostile contracts and captures (SPEC §15): numbers carried as written,
//! no code from contract text, bounded output, linear cost. Each test shows
//! its input is what it claims, then asserts the exact verdict and a bound
//! counted in bytes or steps (never in time).

use protocolarc_tests::{bin, run_in, scratch, write_files, Output};
use serde_json::Value;

fn cli_in(dir: &std::path::Path, args: &[&str]) -> Output {
    run_in(bin!(), dir, args)
}

const NUMBERS: &str = r#"{"name": "t.num", "revision": "1.0.0", "direction": "request", "schema": {
  "type": "object",
  "properties": {
    "s": {"type": "string", "maxLength": 256, "pattern": "^a"},
    "m": {"type": "number", "maximum": 25, "minimum": 1.5},
    "big": {"type": "number", "maximum": 1.5e308},
    "huge": {"type": "number", "maximum": 1e400, "multipleOf": 1e-400},
    "k": {"enum": ["x", "y"]}
  },
  "required": ["s"],
  "additionalProperties": false
}}"#;

#[test]
fn loss_keeps_every_number_as_written() {
    let dir = scratch("hostile-loss-numbers");
    write_files(&dir, &[("n.json", NUMBERS.as_bytes())]);
    let out = cli_in(&dir, &["loss", "n.json", "--to", "openai", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The artifact's text holds each bound as the contract spells it.
    let props = out.stdout.split("\"properties\": {").nth(1).expect("the artifact's properties");
    for written in [
        "\"maxLength\": 256,",
        "\"maximum\": 25,",
        "\"minimum\": 1.5,",
        "\"maximum\": 1.5e308,",
        "\"maximum\": 1e400,",
        "\"multipleOf\": 1e-400,",
    ] {
        assert!(props.contains(written), "{written} missing from {props}");
    }
    for canonical in ["25600", "250.0", "15.0", "e+308", "protocolarc-number"] {
        assert!(!out.stdout.contains(canonical), "{canonical} in {}", out.stdout);
    }
    // serde_json holds no 1e400: read the rest with those two spelt small.
    let doc: Value = serde_json::from_str(&out.stdout.replace("1e400", "1").replace("1e-400", "1")).expect("JSON");
    let hop = &doc["sources"][0]["paths"][0]["hops"][0];
    assert_eq!(hop["counts"], serde_json::json!({"blocker": 0, "major": 0, "minor": 0}), "openai keeps it whole");
    let params = &hop["artifact"]["function"]["parameters"];
    assert_eq!(params["required"], serde_json::json!(["s"]));
    assert_eq!(params["additionalProperties"], false);
    assert_eq!(params["properties"]["k"]["enum"], serde_json::json!(["x", "y"]));
    assert_eq!(params["properties"]["s"]["pattern"], "^a");
}

#[test]
fn loss_fail_on_major_sees_what_is_lost() {
    let dir = scratch("hostile-loss-fail-on");
    write_files(&dir, &[("n.json", NUMBERS.as_bytes())]);
    let intact = cli_in(&dir, &["loss", "n.json", "--to", "openai", "--fail-on", "major"]);
    assert_eq!(
        (intact.code, intact.stdout.as_str()),
        (0, "t.num -> openai: intact\nloss: 1 tool(s) into openai: 0 blocker, 0 major, 0 minor\n"),
        "{}",
        intact.stderr
    );
    // Gemini has no additionalProperties: the closed object is a major loss.
    let lost = cli_in(&dir, &["loss", "n.json", "--to", "gemini", "--fail-on", "major"]);
    assert_eq!(lost.code, 1, "{}{}", lost.stdout, lost.stderr);
    assert!(
        lost.stdout.starts_with(
            "t.num -> gemini: 1 major, 1 minor\n  major   contract.closed.disabled <contract>: closed -> open\n"
        ),
        "{}",
        lost.stdout
    );
    assert!(
        lost.stdout.contains("minor   field.multipleOf.relaxed huge: multipleOf 1e-400 -> (none)"),
        "{}",
        lost.stdout
    );
}

/// A tool description holding code in every form Markdown reads as a code
/// block: a backtick fence, an indented block, a tilde fence in a list
/// item, a longer fence in a quote, a tab; and a bidi override.
fn evil_capture() -> String {
    let desc = "Fetch a page.\n\n```rust\nstd::process::exit(7);\n```\n\n    std::process::exit(8);\n\n- ~~~rust\n  std::process::exit(9);\n  ~~~\n> ````\n> x\n\tstd::process::exit(10);\nRight-to-left \u{202e} here */ end";
    serde_json::json!({"tools": [{"name": "evil", "title": "~~~rust", "description": desc, "inputSchema": {
        "type": "object",
        "properties": {"q": {"type": "string", "description": "```\nfn main(){}\n```"}, "k": {"enum": ["```rust", "b"]}},
        "required": ["q"]
    }}]})
    .to_string()
}

/// Whether a Markdown line could open a code block: a fence (three or more
/// backticks or tildes) after any list or quote markers, or four columns
/// of indent.
fn opens_code(doc: &str) -> bool {
    let unmarked = doc.trim_start_matches([' ', '>', '-', '*', '+']);
    unmarked.starts_with("```") || unmarked.starts_with("~~~") || doc.starts_with("    ") || doc.contains('\t')
}

#[test]
fn a_tool_description_never_becomes_a_doctest() {
    let dir = scratch("hostile-doctest");
    write_files(&dir, &[("evil.json", evil_capture().as_bytes())]);
    let import =
        cli_in(&dir, &["import", "tools-list", "evil.json", "--server", "s", "--revision", "1.0.0", "--out", "out/"]);
    assert_eq!(import.code, 0, "{}", import.stderr);
    let contract = std::fs::read_to_string(dir.join("out/s_evil_1.0.0.json")).expect("written");
    assert!(contract.contains(r#"```rust\nstd::process::exit(7);\n```"#), "the description crossed whole: {contract}");
    let out = cli_in(&dir, &["generate", "out/s_evil_1.0.0.json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let docs: Vec<&str> = out
        .stdout
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("///"))
        .map(|d| d.strip_prefix(' ').unwrap_or(d))
        .collect();
    assert_eq!(
        &docs[..17],
        [
            r"\~\~\~rust (`s.evil@1.0.0`).",
            "Fetch a page.",
            "",
            r"\`\`\`rust",
            "std::process::exit(7);",
            r"\`\`\`",
            "",
            " std::process::exit(8);",
            "",
            r"- \~\~\~rust",
            "  std::process::exit(9);",
            r"  \~\~\~",
            r"> \`\`\`\`",
            "> x",
            r"\tstd::process::exit(10);",
            r"Right-to-left \u{202e} here */ end",
            "`k`, optional.",
        ]
    );
    assert!(docs.contains(&r"\`\`\`") && docs.contains(&"fn main(){}"), "{docs:?}");
    let open: Vec<&&str> = docs.iter().filter(|d| opens_code(d)).collect();
    assert!(open.is_empty(), "lines rustdoc would read as code: {open:?}");
    assert!(!out.stdout.contains('\u{202e}') && !out.stdout.contains('\t'));
}

#[test]
fn a_contract_path_with_a_line_break_stays_in_the_header_comment() {
    let dir = scratch("hostile-header");
    let contract = br#"{"name": "t.h", "revision": "1.0.0", "schema": {"type": "object"}}"#;
    write_files(&dir, &[("a\nfn evil() {}\n.json", contract)]);
    let out = cli_in(&dir, &["generate", "a\nfn evil() {}\n.json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let head: Vec<&str> = out.stdout.lines().take(2).collect();
    assert_eq!(
        head,
        [
            r"// Generated by `cargo protocolarc generate a\nfn evil() {}\n.json`: what",
            r#"// #[protocolarc::contract("a\nfn evil() {}\n.json")] expands to."#,
        ]
    );
    assert!(!out.stdout.lines().any(|l| l.starts_with("fn evil")));
    assert!(out.stdout.lines().nth(2).is_some_and(|l| l.starts_with("///")), "the header is two lines");
}

/// A schema-form contract whose `kind` is a 200,000-value string enum.
fn wide_enum_contract(n: usize) -> String {
    let values: Vec<String> = (0..n).map(|i| format!("\"v{i}\"")).collect();
    format!(
        r#"{{"name": "t.wide", "revision": "1.0.0", "schema": {{"type": "object", "properties": {{"kind": {{"enum": [{}]}}, "k2": {{"type": "integer", "enum": [{}]}}}}}}}}"#,
        values.join(","),
        (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
    )
}

#[test]
fn a_finding_names_a_few_enum_values_and_counts_the_rest() {
    let text = wide_enum_contract(200_000);
    let spec = protocolarc::ContractSpec::from_slice(text.as_bytes(), "wide.json").expect("loads");
    let report = spec.validate_json(br#"{"kind": "nope", "k2": -1}"#);
    let messages: Vec<(&str, &str)> = report.findings().iter().map(|f| (f.field(), f.message())).collect();
    assert_eq!(
        messages,
        [
            ("k2", "value -1 not in {0, 1, 2, 3, 4, ... (200000 values)}"),
            ("kind", "value 'nope' not in {'v0', 'v1', 'v2', 'v3', 'v4', ... (200000 values)}"),
        ]
    );
}

#[test]
fn a_thousand_findings_against_a_wide_enum_print_a_bounded_report() {
    let dir = scratch("hostile-wide-enum");
    let envelope = r#"{"contract":"t.wide","revision":"1.0.0","data":{"kind":"x"}}"#;
    let lines = format!("{envelope}\n").repeat(1000);
    write_files(&dir, &[("wide.json", wide_enum_contract(200_000).as_bytes()), ("e.jsonl", lines.as_bytes())]);
    let out = cli_in(&dir, &["validate", "wide.json", "e.jsonl"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let failing = out
        .stdout
        .lines()
        .filter(|l| l.contains("value 'x' not in {'v0', 'v1', 'v2', 'v3', 'v4', ... (200000 values)}"))
        .count();
    assert_eq!(failing, 1000, "{}", &out.stdout[..out.stdout.len().min(2000)]);
    // Each finding's line is a few hundred bytes, not the 2 MB enum.
    assert!(out.stdout.len() < 1000 * 400, "{} bytes", out.stdout.len());
}

#[test]
fn a_finding_message_is_capped_in_bytes() {
    let long = "y".repeat(5000);
    let text =
        format!(r#"{{"name": "t.c", "revision": "1.0.0", "schema": {{"const": {{"a": "{long}", "b": [{long:?}]}}}}}}"#);
    let spec = protocolarc::ContractSpec::from_slice(text.as_bytes(), "c.json").expect("loads");
    let report = spec.validate_json(br#"{"z": 1}"#);
    let f = &report.findings()[0];
    assert_eq!(f.message(), format!("an object is not {{\"a\":\"{}...", "y".repeat(74)));
    assert!(report.findings().iter().all(|f| f.message().len() <= protocolarc::report::MESSAGE_MAX));
}

/// `hostile_cost`'s doubling definitions, the leaf a string of at most 3
/// characters, revision 1.0.0.
fn doubling(levels: usize, how: &str) -> String {
    super::hostile_cost::doubling(levels, how, 3, "1.0.0")
}

#[test]
fn doubling_definitions_validate_in_linear_steps() {
    for how in ["allOf", "anyOf", "oneOf", "ref"] {
        let text = doubling(30, how);
        assert!(text.len() < 5000, "{how}: a small contract ({} bytes)", text.len());
        let spec = protocolarc::ContractSpec::from_slice(text.as_bytes(), "double.json").expect("loads");
        // Walked per use, 2^30 leaf visits: each (node, value) pair is
        // walked once, so this returns at once (or the test never ends).
        let good = spec.validate_json(br#""abc""#);
        let bad = spec.validate_json(br#""abcd""#);
        fn first(r: &protocolarc::Report) -> Vec<(&str, &str, String)> {
            r.findings().iter().map(|f| (f.rule(), f.field(), f.message().to_string())).collect()
        }
        match how {
            "allOf" | "ref" => {
                assert!(good.is_valid(), "{how}");
                let only = ("field.maxLength", "<data>", "length 4 is greater than maxLength 3".to_string());
                assert_eq!(first(&bad), [only], "{how}");
            }
            union => {
                // The last level's two members are the same string: `oneOf`
                // fails on "abc" (both match), `anyOf` passes.
                assert_eq!(good.is_valid(), union == "anyOf", "{how}");
                let found = first(&bad);
                let rule = format!("field.{union}");
                assert_eq!(found.len(), 1, "{how}: {found:?}");
                assert_eq!((found[0].0, found[0].1), (rule.as_str(), "<data>"));
                let head =
                    format!("no member of '{union}' matches; closest is 'L1' (member 1): field.{union} <data>: ");
                assert!(found[0].2.starts_with(&head), "{how}: {}", found[0].2);
                assert!(found[0].2.len() <= protocolarc::report::MESSAGE_MAX && found[0].2.ends_with("..."));
            }
        }
    }
}

#[test]
fn loss_stops_at_its_budget_where_a_dialect_writes_each_ref_in_place() {
    let dir = scratch("hostile-loss-budget");
    let text = doubling(30, "anyOf").replace(
        r##""schema": {"$ref": "#/$defs/L0""##,
        r##""schema": {"type": "object", "properties": {"q": {"$ref": "#/$defs/L0"}}"##,
    );
    assert!(text.len() < 5000 && text.contains(r#""L29": {"anyOf""#));
    write_files(&dir, &[("d.json", text.as_bytes())]);
    let out = cli_in(&dir, &["loss", "d.json", "--to", "gemini"]);
    assert_eq!((out.code, out.stdout.as_str()), (3, ""));
    assert_eq!(
        out.stderr,
        format!(
            "error: t.double: written in {}'s form (each $ref in place), the schema expands past 100000 subschemas (at q)\n",
            protocolarc_interop::loss::Format::Gemini.dialect().title
        )
    );
    assert_eq!(protocolarc_interop::loss::MAX_PROJECTED_NODES, 100_000);
}

#[test]
fn format_regex_is_parsed_within_a_size_and_nesting_bound() {
    let text = r#"{"name": "t.re", "revision": "1.0.0", "schema": {"type": "string", "format": "regex"}}"#;
    let spec = protocolarc::ContractSpec::from_slice(text.as_bytes(), "re.json").expect("loads");
    let body = |pattern: &str| serde_json::to_vec(pattern).unwrap();
    assert!(spec.validate_json(&body("^(a|b)+$")).is_valid());
    // 256 nested groups parse; 257 are past the bound.
    let nested = |n: usize| format!("{}a{}", "(".repeat(n), ")".repeat(n));
    assert!(spec.validate_json(&body(&nested(256))).is_valid());
    let deep = spec.validate_json(&body(&nested(257)));
    assert_eq!(deep.findings().iter().map(|f| f.rule()).collect::<Vec<_>>(), ["field.format"]);
    // Ten million `(`: refused by length before any parse (no 3 GB tree).
    let huge = spec.validate_json(&body(&"(".repeat(10_000_000)));
    let messages: Vec<&str> = huge.findings().iter().map(|f| f.message()).collect();
    assert_eq!(messages.len(), 1);
    assert!(
        messages[0].starts_with("value '((((") && messages[0].ends_with("' is not a valid regex"),
        "{}",
        messages[0]
    );
    // 64 KiB of literals still parse.
    assert!(spec.validate_json(&body(&"a".repeat(64 << 10))).is_valid());
    assert!(!spec.validate_json(&body(&"a".repeat((64 << 10) + 1))).is_valid());
}

#[test]
fn generate_checks_a_thirty_thousand_value_enum_without_deep_recursion() {
    let dir = scratch("hostile-generate-enum");
    let values: Vec<String> = (0..30_000).map(|i| format!("\"v{i}\"")).collect();
    let text = format!(
        r#"{{"name": "t.e", "revision": "1.0.0", "schema": {{"type": "object", "properties": {{"k": {{"type": "string", "enum": [{}]}}}}}}}}"#,
        values.join(",")
    );
    write_files(&dir, &[("e.json", text.as_bytes())]);
    // A `||` chain of 30,000 comparisons overflowed the stack of the parser.
    let out = cli_in(&dir, &["generate", "e.json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let list = out.stdout.split("const MEMBERS: &[&str] = &[").nth(1).expect("the members as a list");
    let list = &list[..list.find("];").expect("the list ends")];
    assert_eq!(list.matches("\"v").count(), 30_000);
    assert!(list.contains("\"v29999\"") && !out.stdout.contains("s.eq_str(\"v1\") ||"));
}

#[test]
fn describe_stops_at_its_row_budget_on_doubling_definitions() {
    let dir = scratch("hostile-describe");
    for how in ["allOf", "anyOf", "oneOf"] {
        write_files(&dir, &[("d.json", doubling(30, how).as_bytes())]);
        let out = cli_in(&dir, &["describe", "d.json"]);
        assert_eq!((out.code, out.stdout.as_str()), (3, ""), "{how}");
        assert_eq!(
            out.stderr,
            "error: t.double@1.0.0: the description expands past 100000 rows (at <data>): each use of a definition is written out where it is used\n",
            "{how}"
        );
    }
}

#[test]
fn describe_reads_a_wide_object_once_per_property() {
    let dir = scratch("hostile-describe-wide");
    let props: Vec<String> = (0..100_000).map(|i| format!(r#""p{i}": {{"type": "string"}}"#)).collect();
    let required: Vec<String> = (0..50_000).map(|i| format!(r#""p{}""#, i * 2)).collect();
    let text = format!(
        r#"{{"name": "t.w", "revision": "1.0.0", "schema": {{"type": "object", "properties": {{{}}}, "required": [{}]}}}}"#,
        props.join(","),
        required.join(",")
    );
    write_files(&dir, &[("w.json", text.as_bytes())]);
    let out = cli_in(&dir, &["describe", "w.json", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let rows = doc.to_string();
    assert_eq!(rows.matches(r#""required":true"#).count(), 50_000);
    assert_eq!(rows.matches(r#""required":false"#).count(), 50_000);
}

/// The plain-`$ref` variant follows each `$ref` in place along one chain:
/// its `allOf` members name definitions already being expanded on the way
/// there, so each is one row marked recursive, not expanded again.
#[test]
fn describe_writes_the_plain_ref_doubling_chain_once() {
    let dir = scratch("hostile-describe-ref");
    let text = doubling(30, "ref");
    assert_eq!(text.matches(r##""$ref": "#/$defs/L"##).count(), 61);
    write_files(&dir, &[("d.json", text.as_bytes())]);
    let out = cli_in(&dir, &["describe", "d.json"]);
    let chain: Vec<String> = (0..=30).map(|k| format!("-> L{k}")).collect();
    let all_of: Vec<String> = (1..=30).map(|k| format!("all of L{k}")).collect();
    let mut want = format!(
        "t.double@1.0.0\nkind: -, strict: false, direction: request, schema: 31 rows\n\n  \
         PATH                TYPE    REQUIRED  KEYWORDS\n  \
         <data>              string  -         {}; maxLength=3; {}\n",
        chain.join(" "),
        all_of.join("; ")
    );
    for k in 1..=30 {
        want.push_str(&format!("  <data> (all of #1)  string  -         -> L{k} (recursive)\n"));
    }
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (0, want.as_str(), ""));
    assert_eq!(out.stdout.lines().count(), 35);
}

/// Every asserted `format` but `regex` (bounded by its own test) on 1 MB
/// and 4 MB strings built to make a checker rescan: the verdicts as the
/// grammar gives them. A checker quadratic in the string would take hours
/// on 4 MB, so this test ending shows each reads its string a bounded
/// number of times.
#[test]
fn format_checks_stay_linear_on_megabyte_strings() {
    let formats = [
        "byte",
        "date",
        "date-time",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "json-pointer",
        "time",
        "uri",
        "uri-reference",
        "uri-template",
        "uuid",
    ];
    let props: Vec<String> =
        formats.iter().map(|f| format!(r#""{f}": {{"type": "string", "format": "{f}"}}"#)).collect();
    let text = format!(
        r#"{{"name": "t.fmt", "revision": "1.0.0", "schema": {{"type": "object", "properties": {{{}}}}}}}"#,
        props.join(", ")
    );
    let spec = protocolarc::ContractSpec::from_slice(text.as_bytes(), "fmt.json").expect("loads");
    for n in [1 << 20, 4 << 20] {
        let r = |s: &str| s.repeat(n / s.len());
        // (format, string, valid)
        let cases: Vec<(&str, String, bool)> = vec![
            ("byte", r("QUJD"), true),
            ("byte", r("QUJD") + "=QUJ", false),
            ("date", r("2024-01-01"), false),
            ("date-time", format!("2024-02-29T23:59:60.{}Z", r("9")), true),
            ("date-time", format!("2024-02-29T23:59:60.{}", r("9")), false),
            ("duration", format!("P{}DT{}S", r("1"), r("2")), true),
            ("duration", format!("P{}", r("1D")), false),
            ("email", format!("{}@example.com", r("a.")), false),
            ("email", format!("\"{}\"@example.com", r("\\a")), false),
            ("email", format!("a@{}", r("a.")), false),
            ("hostname", r("a."), false),
            ("hostname", format!("xn--{}", r("a")), false),
            ("ipv4", r("1."), false),
            ("ipv6", r("::"), false),
            ("ipv6", r("1:"), false),
            ("json-pointer", r("/~0"), true),
            ("json-pointer", r("/~0") + "~2", false),
            ("time", format!("23:59:60.{}Z", r("0")), true),
            ("uri", format!("http://example.com/{}", r("a/")), true),
            ("uri", format!("http://example.com/{}?{}#{}", r("%41"), r("?/"), r("#")), false),
            ("uri", format!("http://{}/", r("a@")), false),
            ("uri", format!("mailto:{}", r("%41")), true),
            ("uri", r("a"), false),
            ("uri-reference", format!("//{}", r("[")), false),
            ("uri-reference", r(":a"), false),
            ("uri-reference", r("a/"), true),
            ("uri-template", format!("http://x/{}", r("{a,b}")), true),
            ("uri-template", r("{"), false),
            ("uri-template", r("{a}}"), false),
            ("uuid", r("0"), false),
        ];
        for (format, s, valid) in cases {
            assert!(s.len() >= n - 8, "{format}: {} bytes", s.len());
            let body = serde_json::to_vec(&serde_json::Map::from_iter([(format.to_string(), Value::from(s.clone()))]))
                .unwrap();
            let report = spec.validate_json(&body);
            let rules: Vec<(&str, &str)> = report.findings().iter().map(|f| (f.rule(), f.field())).collect();
            let want: &[(&str, &str)] = if valid { &[] } else { &[("field.format", format)] };
            assert_eq!(rules, want, "{format} on {} bytes: {}...", s.len(), &s[..40]);
        }
    }
}
