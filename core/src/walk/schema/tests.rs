use crate::{ContractSpec, TopMembers};

const KEYS: &[&str] = &["jsonrpc", "method", "id"];

fn spec(schema: &str) -> ContractSpec {
    let text = format!(r#"{{"name": "t.top", "revision": "1.0.0", "schema": {schema}}}"#);
    ContractSpec::from_slice(text.as_bytes(), "t.json").expect("the contract loads")
}

/// The watched members as text, or `None` when the walk cannot tell.
fn top(spec: &ContractSpec, data: &str) -> Option<Vec<Option<String>>> {
    let (report, top) = spec.validate_json_top(data.as_bytes(), TopMembers::new(KEYS)).expect("schema form");
    // The report is `validate_json`'s.
    assert_eq!(report, spec.validate_json(data.as_bytes()), "{data}");
    (0..KEYS.len())
        .map(|i| top.get(data.as_bytes(), i).map(|v| v.map(|v| String::from_utf8_lossy(v).into_owned())))
        .collect()
}

fn some(v: &[Option<&str>]) -> Option<Vec<Option<String>>> {
    Some(v.iter().map(|v| v.map(str::to_string)).collect())
}

/// Keys that share a bucket of the lookup (length plus first byte, modulo
/// 32) are told apart by their bytes, and a key in a watched key's bucket
/// that is none of them is not noted.
#[test]
fn watched_keys_in_one_bucket_are_told_apart() {
    // "a" and "A" (1 + 97 and 1 + 65, both 2 modulo 32) and "ab" (2 +
    // 97 = 3): "A" shares the bucket of "a", "!B" (2 + 33 = 3) of "ab".
    const SHARED: &[&str] = &["a", "A", "ab"];
    let bucket = |k: &str| (k.len() + usize::from(k.as_bytes()[0])) % 32;
    assert_eq!(bucket("a"), bucket("A"));
    assert_eq!(bucket("ab"), bucket("!B"));
    let spec = spec(r#"{"type": "object"}"#);
    let data = r#"{"!B": 0, "A": 1, "ab": [2], "a": "3"}"#;
    let (report, top) = spec.validate_json_top(data.as_bytes(), TopMembers::new(SHARED)).expect("schema form");
    assert!(report.is_valid());
    let got: Vec<_> = (0..SHARED.len()).map(|i| top.get(data.as_bytes(), i).map(|v| v.map(|v| v.to_vec()))).collect();
    assert_eq!(got, [Some(Some(b"\"3\"".to_vec())), Some(Some(b"1".to_vec())), Some(Some(b"[2]".to_vec()))]);
}

/// Which nodes are read as open maps (`Node::any_object`): no object
/// keyword but an `additionalProperties` that is absent or accepts
/// anything, no applicator, no `enum`/`const` (keywords of other types
/// may be there: they never apply to an object).
#[test]
fn open_maps_are_the_objects_that_constrain_no_member() {
    let any = |schema: &str| {
        let spec = spec(&format!(r#"{{"properties": {{"m": {schema}}}}}"#));
        let graph = spec.schema().expect("schema form");
        let root = graph.node(crate::contract::schema::Schema::ROOT);
        graph.node(root.properties[0].1).any_object
    };
    for open in [
        r#"{"type": "object"}"#,
        r#"{"type": "object", "additionalProperties": {}}"#,
        r#"{"type": "object", "additionalProperties": true}"#,
        r#"{"type": ["object", "null"], "maxLength": 3, "description": "d"}"#,
    ] {
        assert!(any(open), "{open}");
    }
    for constrained in [
        "{}",
        "true",
        r##"{"$ref": "#"}"##,
        r#"{"type": "object", "additionalProperties": {"type": "string"}}"#,
        r#"{"type": "object", "additionalProperties": false}"#,
        r#"{"type": "object", "patternProperties": {"": {}}}"#,
        r#"{"type": "object", "properties": {"a": {}}}"#,
        r#"{"type": "object", "required": ["a"]}"#,
        r#"{"type": "object", "minProperties": 1}"#,
        r#"{"type": "object", "maxProperties": 1}"#,
        r#"{"type": "object", "propertyNames": {"maxLength": 1}}"#,
        r#"{"type": "object", "dependentRequired": {"a": ["b"]}}"#,
        r#"{"type": "object", "const": {}}"#,
        r#"{"type": "object", "enum": [{}]}"#,
        r#"{"type": "object", "allOf": [{}]}"#,
        r#"{"type": "object", "dependentSchemas": {"a": {}}}"#,
        r##"{"type": "object", "additionalProperties": {"$ref": "#"}}"##,
    ] {
        assert!(!any(constrained), "{constrained}");
    }
}

#[test]
fn the_walk_notes_where_top_level_members_are() {
    let plain = spec(r#"{"type": "object", "properties": {"method": {"const": "m"}}, "required": ["method"]}"#);
    let data = r#"{"method": "m", "params": {"id": 1, "jsonrpc": 2}, "jsonrpc" :  "2.0"}"#;
    assert_eq!(top(&plain, data), some(&[Some(r#""2.0""#), Some(r#""m""#), None]));
    // Noted on a body with findings too.
    assert_eq!(top(&plain, r#"{"method": "x", "id": [1, 2]}"#), some(&[None, Some(r#""x""#), Some("[1, 2]")]));
    // A watched key twice, or any escaped key: the walk cannot tell.
    assert_eq!(top(&plain, r#"{"method": "m", "id": 1, "id": 2}"#), None);
    assert_eq!(top(&plain, r#"{"method": "m", "\u0069d": 1}"#), None);
    // Not an object, not JSON, or an object the schema never looks into.
    assert_eq!(top(&plain, r#"[{"method": "m"}]"#), None);
    assert_eq!(top(&plain, r#"{"method": "m", "id": 1"#), None);
    assert_eq!(top(&spec("true"), r#"{"method": "m"}"#), None);
    // Read by every member of an `allOf` and by a union's member: the same places.
    let applied = spec(
        r#"{"allOf": [{"type": "object"}, {"required": ["id"]}],
            "anyOf": [{"properties": {"id": {"type": "string"}}}, {"properties": {"id": {"type": "integer"}}}]}"#,
    );
    assert_eq!(top(&applied, r#"{"id": 7, "method": "m"}"#), some(&[None, Some(r#""m""#), Some("7")]));
}

/// A string no keyword looks at is read by the verdict without its text
/// (`Scanner::skip_string`, a long one out of line): past its first 16
/// bytes, well-formed text with escapes and non-ASCII passes, and a raw
/// control character, an unknown escape or ill-formed UTF-8 there fail the
/// verdict and get the finding walk's exact report; a wrong type after a
/// long text is still found.
#[test]
fn an_unconstrained_long_string_is_judged_as_the_finding_walk_reads_it() {
    let fields = br#"{"name": "t.s", "revision": "1.0.0", "fields": [{"name": "p", "type": "string", "required": false}, {"name": "a", "type": "array", "required": false}, {"name": "a[]", "type": "string"}, {"name": "m", "type": "string", "required": false}]}"#;
    let spec = ContractSpec::from_slice(fields, "t.json").expect("the contract loads");
    let valid = "{\"p\": \"lorem ipsum dolor sit amet consectetur\", \"a\": [\"lorem ipsum dolor sit \\\"amet\\\" \\u00e9\", \"lorem ipsum dolor sit am\u{e9}t\"]}";
    assert!(spec.passes(valid.as_bytes()), "{valid}");
    assert_eq!(spec.validate_json(valid.as_bytes()).findings(), &[]);
    let cases: [(&[u8], &str); 4] = [
        (
            b"{\"p\": \"lorem ipsum dolor sit\x01amet\"}",
            "ERROR json.syntax <data>: line 1, column 29: unescaped control character in string",
        ),
        (
            b"{\"p\": \"lorem ipsum dolor sit \\q amet\"}",
            "ERROR json.syntax <data>: line 1, column 30: invalid escape sequence in string",
        ),
        (
            b"{\"a\": [\"lorem ipsum dolor sit \xff\xfe\"]}",
            "ERROR json.syntax <data>: line 1, column 31: invalid UTF-8",
        ),
        (
            b"{\"p\": \"lorem ipsum dolor sit amet consectetur\", \"m\": 3}",
            "ERROR field.type m: expected string, found integer",
        ),
    ];
    for (body, finding) in cases {
        let shown = String::from_utf8_lossy(body);
        assert!(!spec.passes(body), "{shown}");
        let report = spec.validate_json(body);
        let found: Vec<String> = report.findings().iter().map(ToString::to_string).collect();
        assert_eq!(found, [finding], "{shown}");
        assert_eq!(report, spec.validate_json_full(body), "{shown}");
    }
}
