//! The runtime API of SPEC §8 (`ContractSpec`, `Report`, `Finding`) on the
//! semantics of SPEC §2 and §4 that the bundled fixtures do not reach.

use protocolarc::contract::Diagnostic;
use protocolarc::ContractSpec;

fn contract(fields: &str) -> ContractSpec {
    let doc = format!(r#"{{"name": "t.c", "revision": "1.0.0", "fields": [{fields}]}}"#);
    ContractSpec::from_slice(doc.as_bytes(), "t.json").unwrap_or_else(|e| panic!("{e}"))
}

fn strict(fields: &str) -> ContractSpec {
    let doc = format!(r#"{{"name": "t.c", "revision": "1.0.0", "strict": true, "fields": [{fields}]}}"#);
    ContractSpec::from_slice(doc.as_bytes(), "t.json").unwrap_or_else(|e| panic!("{e}"))
}

/// `SEVERITY rule field: message` lines of a report.
fn lines(c: &ContractSpec, data: &str) -> Vec<String> {
    c.validate_json(data.as_bytes()).findings().iter().map(|f| f.to_string()).collect()
}

#[test]
fn malformed_bytes_give_one_syntax_finding() {
    let c = contract(r#"{"name": "a", "type": "string"}"#);
    assert_eq!(lines(&c, "{\"a\": \"x\",}"), ["ERROR json.syntax <data>: line 1, column 11: expected a string key"]);
    assert_eq!(
        lines(&c, "{\n\"a\": tru}"),
        ["ERROR json.syntax <data>: line 2, column 6: invalid literal (expected true, false or null)"]
    );
    assert_eq!(lines(&c, ""), ["ERROR json.syntax <data>: line 1, column 1: unexpected end of input"]);
    let report = c.validate_json(b"{\"a\": \"\xff\"}");
    assert!(!report.is_valid());
    assert_eq!(report.findings()[0].message(), "line 1, column 8: invalid UTF-8");
}

#[test]
fn data_that_is_not_an_object() {
    let c = contract(r#"{"name": "a", "type": "string"}"#);
    assert_eq!(lines(&c, "[1, 2]"), ["ERROR field.type <data>: expected object, found array"]);
    assert_eq!(lines(&c, "null"), ["ERROR field.type <data>: expected object, found null"]);
}

#[test]
fn validate_value_uses_the_same_engine() {
    let c = contract(r#"{"name": "a", "type": "integer", "maximum": 3}, {"name": "b.c", "type": "string"}"#);
    let data = serde_json::json!({"a": 4, "b": {"c": 1}});
    let from_value = c.validate_value(&data);
    let from_bytes = c.validate_json(data.to_string().as_bytes());
    assert_eq!(from_value, from_bytes);
    assert_eq!(
        from_value.findings().iter().map(|f| f.to_string()).collect::<Vec<_>>(),
        [
            "ERROR field.maximum a: value 4 is greater than maximum 3",
            "ERROR field.type b.c: expected string, found integer"
        ]
    );
}

#[test]
fn integers_follow_json_schema() {
    let c = contract(r#"{"name": "n", "type": "integer"}"#);
    for ok in ["1", "1.0", "1e2", "-0", "1E+2", "100e-2"] {
        assert_eq!(lines(&c, &format!("{{\"n\": {ok}}}")), Vec::<String>::new(), "{ok}");
    }
    assert_eq!(lines(&c, r#"{"n": 1.5}"#), ["ERROR field.type n: expected integer, found number"]);
    assert_eq!(lines(&c, r#"{"n": true}"#), ["ERROR field.type n: expected integer, found boolean"]);
    let num = contract(r#"{"name": "n", "type": "number"}"#);
    assert_eq!(lines(&num, r#"{"n": 7}"#), Vec::<String>::new());
}

#[test]
fn constraints_apply_only_to_their_types() {
    let c = contract(r#"{"name": "v", "type": ["string", "number"], "maximum": 3, "maxLength": 2}"#);
    assert_eq!(lines(&c, r#"{"v": "abc"}"#), ["ERROR field.maxLength v: length 3 is greater than maxLength 2"]);
    assert_eq!(lines(&c, r#"{"v": 300}"#), ["ERROR field.maximum v: value 300 is greater than maximum 3"]);
    assert_eq!(lines(&c, r#"{"v": "ab"}"#), Vec::<String>::new());
}

#[test]
fn string_length_counts_code_points() {
    let c = contract(r#"{"name": "s", "type": "string", "maxLength": 2, "minLength": 2}"#);
    for ok in ["\"\u{e9}\u{1F600}\"", r#""\u00e9\ud83d\ude00""#, r#""\n\"""#] {
        assert_eq!(lines(&c, &format!("{{\"s\": {ok}}}")), Vec::<String>::new(), "{ok}");
    }
    assert_eq!(lines(&c, "{\"s\": \"\u{1F600}\"}"), ["ERROR field.minLength s: length 1 is less than minLength 2"]);
}

#[test]
fn patterns_are_unanchored_searches_on_decoded_text() {
    let c = contract(r#"{"name": "s", "type": "string", "pattern": "b+c"}"#);
    assert_eq!(lines(&c, r#"{"s": "abbcd"}"#), Vec::<String>::new());
    assert_eq!(lines(&c, r#"{"s": "a\u0062c"}"#), Vec::<String>::new());
    assert_eq!(lines(&c, r#"{"s": "ac"}"#), ["ERROR field.pattern s: value 'ac' does not match pattern 'b+c'"]);
}

#[test]
fn enums_compare_json_values() {
    let c = contract(
        r#"{"name": "v", "type": ["integer", "string", "null", "boolean"], "enum": [1, "a\"b", null, false]}"#,
    );
    for ok in ["1.0", "1", r#""a\"b""#, r#""a\u0022b""#, "null", "false"] {
        assert_eq!(lines(&c, &format!("{{\"v\": {ok}}}")), Vec::<String>::new(), "{ok}");
    }
    assert_eq!(lines(&c, r#"{"v": 2}"#), [r#"ERROR field.enum v: value 2 not in {1, 'a"b', null, false}"#]);
    assert_eq!(lines(&c, r#"{"v": true}"#), [r#"ERROR field.enum v: value true not in {1, 'a"b', null, false}"#]);
}

#[test]
fn unique_items_uses_json_equality() {
    let c = contract(r#"{"name": "a", "type": "array", "uniqueItems": true}"#);
    assert_eq!(
        lines(&c, r#"{"a": [{"x": 1, "y": [2]}, {"y": [2.0], "x": 1}]}"#),
        ["ERROR field.uniqueItems a: items 0 and 1 are equal"]
    );
    assert_eq!(lines(&c, r#"{"a": [1, true, "1", [1], {"1": 1}]}"#), Vec::<String>::new());
}

#[test]
fn implied_parents() {
    let c = contract(r#"{"name": "p.q.r", "type": "string"}, {"name": "p.s", "type": "integer", "required": false}"#);
    assert_eq!(lines(&c, "{}"), ["ERROR field.required p: required field is missing"]);
    assert_eq!(lines(&c, r#"{"p": {}}"#), ["ERROR field.required p.q: required field is missing"]);
    assert_eq!(lines(&c, r#"{"p": null}"#), ["ERROR field.type p: expected object, found null"]);
    assert_eq!(lines(&c, r#"{"p": {"q": [1]}}"#), ["ERROR field.type p.q: expected object, found array"]);
    let optional = contract(r#"{"name": "p.s", "type": "integer", "required": false}"#);
    assert_eq!(lines(&optional, "{}"), Vec::<String>::new());
}

#[test]
fn children_of_an_absent_optional_parent_are_not_required() {
    let c = contract(r#"{"name": "p", "type": "object", "required": false}, {"name": "p.q", "type": "string"}"#);
    assert_eq!(lines(&c, "{}"), Vec::<String>::new());
    assert_eq!(lines(&c, r#"{"p": {}}"#), ["ERROR field.required p.q: required field is missing"]);
    let nullable = contract(r#"{"name": "p", "type": ["object", "null"]}, {"name": "p.q", "type": "string"}"#);
    assert_eq!(lines(&nullable, r#"{"p": null}"#), Vec::<String>::new());
}

#[test]
fn array_paths() {
    let c = contract(
        r#"{"name": "parts[].kind", "type": "string", "enum": ["text"]},
           {"name": "tags[]", "type": "string", "required": false},
           {"name": "grid[][]", "type": "integer", "required": false}"#,
    );
    assert_eq!(
        lines(
            &c,
            r#"{"parts": [{"kind": "text"}, {}, 3, {"kind": "file"}], "tags": ["a", 1], "grid": [[1], [2, "x"], 5]}"#
        ),
        [
            "ERROR field.type grid[1][1]: expected integer, found string",
            "ERROR field.type grid[2]: expected array, found integer",
            "ERROR field.required parts[1].kind: required field is missing",
            "ERROR field.type parts[2]: expected object, found integer",
            "ERROR field.enum parts[3].kind: value 'file' not in {'text'}",
            "ERROR field.type tags[1]: expected string, found integer",
        ]
    );
    assert_eq!(lines(&c, "{}"), ["ERROR field.required parts: required field is missing"]);
}

#[test]
fn strict_flags_only_top_level_keys() {
    let c = strict(r#"{"name": "a.b", "type": "string"}"#);
    assert_eq!(
        lines(&c, r#"{"a": {"b": "x", "deep": 1}, "z": 1, "y": {"w": 2}}"#),
        [
            "WARNING field.unknown y: key is not declared by the strict contract",
            "WARNING field.unknown z: key is not declared by the strict contract",
        ]
    );
}

#[test]
fn duplicate_keys_anywhere() {
    let c = contract(r#"{"name": "a", "type": "object"}"#);
    assert_eq!(
        lines(&c, r#"{"a": {"x": {"k": 1, "\u006b": 2}}, "z": [{"q": 1, "q": 1}]}"#),
        [
            "ERROR json.duplicate_key a.x.k: key appears more than once in its object",
            "ERROR json.duplicate_key z[0].q: key appears more than once in its object",
        ]
    );
    let many: Vec<String> = (0..100).map(|i| format!("\"k{i}\": {i}")).collect();
    let doc = format!("{{\"a\": {{{}, \"k57\": 0}}}}", many.join(", "));
    assert_eq!(lines(&c, &doc), ["ERROR json.duplicate_key a.k57: key appears more than once in its object"]);
}

#[test]
fn the_first_of_repeated_keys_is_validated() {
    let c = contract(r#"{"name": "a", "type": "string"}"#);
    assert_eq!(
        lines(&c, r#"{"a": 1, "a": "x"}"#),
        [
            "ERROR field.type a: expected string, found integer",
            "ERROR json.duplicate_key a: key appears more than once in its object"
        ]
    );
}

#[test]
fn depth_limit_is_exact() {
    let c = contract(r#"{"name": "a", "type": "any", "required": false}"#);
    let nested = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    // The data object is level 1: 127 more arrays reach the limit of 128.
    assert_eq!(lines(&c, &format!("{{\"a\": {}}}", nested(127))), Vec::<String>::new());
    let too_deep = lines(&c, &format!("{{\"a\": {}}}", nested(128)));
    assert_eq!(
        too_deep,
        [format!("ERROR json.depth a{}: objects and arrays nest deeper than 128 levels", "[0]".repeat(127))]
    );
    // Far deeper input costs no stack.
    let report = c.validate_json(format!("{{\"a\": {}}}", nested(1_000_000)).as_bytes());
    assert_eq!(report.findings()[0].rule(), "json.depth");
}

fn diagnostics(doc: &str) -> Vec<Diagnostic> {
    match ContractSpec::from_slice(doc.as_bytes(), "t.json") {
        Ok(_) => panic!("contract should not load: {doc}"),
        Err(e) => e.diagnostics().to_vec(),
    }
}

fn one(doc: &str) -> (usize, usize, Option<String>, String) {
    let d = diagnostics(doc);
    assert_eq!(d.len(), 1, "{d:?}");
    (d[0].line, d[0].column, d[0].field.clone(), d[0].message.clone())
}

/// Line, column, field and message of the one diagnostic expected.
type Expected<'a> = (usize, usize, Option<&'a str>, &'a str);

#[test]
fn structural_errors_name_position_and_field() {
    let head = r#"{"name": "t.c", "revision": "1.0.0", "fields": ["#;
    let f = |fields: &str| format!("{head}\n{fields}\n]}}");
    let cases: &[(&str, Expected<'_>)] = &[
        (
            r#"{"name": "a", "type": "string"}, {"name": "a.b", "type": "string"}"#,
            (2, 1, Some("a"), "'a' is declared as string, so it cannot have the child field 'a.b'"),
        ),
        (
            r#"{"name": "t", "type": "object"}, {"name": "t[]", "type": "string"}"#,
            (2, 1, Some("t"), "'t' is declared as object, so it cannot have the array field 't[]'"),
        ),
        (
            r#"{"name": "e", "type": "integer", "enum": [1, 2.5]}"#,
            (2, 46, Some("e"), "enum value 2.5 is of type number, which the field's type integer does not accept"),
        ),
        (
            r#"{"name": "e", "type": "string", "enum": ["a", "a"]}"#,
            (2, 47, Some("e"), "enum lists 'a' twice"),
        ),
        (
            r#"{"name": "e", "type": "string", "reqired": false}"#,
            (2, 33, Some("e"), "unknown key 'reqired' in field: did you mean 'required'? (expected one of: name, type, required, enum, const, format, closed, doc, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength, maxLength, pattern, minItems, maxItems, uniqueItems)"),
        ),
        (r#"{"name": "e", "type": ["any", "null"]}"#, (2, 24, Some("e"), "'any' already accepts every type; list it alone")),
        (r#"{"name": "e", "type": ["string", "string"]}"#, (2, 34, Some("e"), "type 'string' is listed twice")),
        (r#"{"name": "e..f", "type": "string"}"#, (2, 10, Some("e..f"), "path 'e..f' has an empty segment")),
        (r#"{"name": "n", "type": "number", "multipleOf": 0}"#, (2, 47, Some("n"), "'multipleOf' must be greater than 0, found 0")),
        (r#"{"name": "n", "type": "number", "exclusiveMinimum": 5, "exclusiveMaximum": 5}"#, (2, 1, Some("n"), "no number satisfies both 'exclusiveMinimum' 5 and 'exclusiveMaximum' 5")),
        (r#"{"name": "s", "type": "string", "minLength": 1.5}"#, (2, 46, Some("s"), "'minLength' must be a non-negative integer, found 1.5")),
        (r#"{"name": "a", "type": "array", "minItems": 3, "maxItems": 2}"#, (2, 1, Some("a"), "'minItems' 3 is greater than 'maxItems' 2")),
        (r#"{"type": "string"}"#, (2, 1, None, "field is missing required key 'name'")),
        (r#"{"name": "x"}"#, (2, 1, Some("x"), "field is missing required key 'type'")),
        (r#""x""#, (2, 1, None, "a field must be a JSON object, found string")),
    ];
    for (fields, (line, col, field, msg)) in cases {
        assert_eq!(one(&f(fields)), (*line, *col, field.map(String::from), msg.to_string()), "{fields}");
    }
    assert_eq!(
        one(r#"{"name": "t c", "revision": "1.0.0", "fields": []}"#),
        (1, 10, None, "name 't c' must not contain white space or '@'".to_string())
    );
    assert_eq!(
        one(r#"{"name": "t", "revision": "1.0.0", "fields": [], "strict": "yes"}"#),
        (1, 60, None, "'strict' must be true or false, found string".to_string())
    );
    assert_eq!(
        one(r#"{"name": "t", "revision": "1.0.0", "fields": [], "version": 2}"#),
        (
            1,
            50,
            None,
            "unknown key 'version' in contract (expected one of: $schema, name, revision, kind, title, doc, direction, strict, closed, fields, schema)"
                .to_string()
        )
    );
}

#[test]
fn contract_accessors() {
    let c = ContractSpec::from_path(protocolarc_tests::root().join("contracts/mcp_tool_call_1.0.0.json")).unwrap();
    assert_eq!(
        (c.name(), c.revision().to_string().as_str(), c.kind(), c.title()),
        ("mcp.tool_call", "1.0.0", Some("mcp"), Some("MCP Tool Call"))
    );
    assert!(!c.is_strict());
    let paths: Vec<&str> = c.fields().iter().map(|f| f.path().as_str()).collect();
    assert_eq!(paths, ["jsonrpc", "id", "method", "params.name", "params.arguments"]);
    assert_eq!(c.fields()[1].types().label(), "string|integer");
    assert_eq!(c.fields()[4].line(), 12);
}
