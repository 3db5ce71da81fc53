//! The schema form (SPEC §10) through the library API: one exact finding per
//! validation rule the form adds, tagged and untagged unions, closed objects
//! and maps at depth, `["key"]` paths, structural errors with their
//! position, and the diff engine's `schema.undecided`.

use protocolarc::diff::{diff, Impact};
use protocolarc::ContractSpec;

fn contract(schema: &str) -> ContractSpec {
    let doc = format!(r#"{{"name": "t.schema", "revision": "1.0.0", "schema": {schema}}}"#);
    ContractSpec::from_slice(doc.as_bytes(), "t.json").unwrap_or_else(|e| panic!("{schema}: {e}"))
}

fn findings(c: &ContractSpec, data: &str) -> Vec<String> {
    c.validate_json(data.as_bytes()).findings().iter().map(|f| f.to_string()).collect()
}

/// One case per rule the schema form adds: (rule, schema, data, the one finding).
pub(crate) const RULE_CASES: &[(&str, &str, &str, &str)] = &[
    ("field.const", r#"{"properties": {"type": {"const": "text"}}}"#, r#"{"type": "image"}"#,
        "ERROR field.const type: value 'image' is not 'text'"),
    ("field.format", r#"{"format": "date-time"}"#, r#""2025-13-01T00:00:00Z""#,
        "ERROR field.format <data>: value '2025-13-01T00:00:00Z' is not a valid date-time"),
    ("field.additionalProperties", r#"{"properties": {"a": {"properties": {"b": {}}, "additionalProperties": false}}}"#,
        r#"{"a": {"b": 1, "c": 2}}"#,
        "ERROR field.additionalProperties a.c: key is not allowed: the object is closed (additionalProperties: false)"),
    ("field.propertyNames", r#"{"propertyNames": {"maxLength": 3}}"#, r#"{"abcd": 1}"#,
        "ERROR field.propertyNames abcd: key 'abcd' is not allowed by propertyNames: field.maxLength length 4 is greater than maxLength 3"),
    ("field.minProperties", r#"{"minProperties": 1}"#, "{}",
        "ERROR field.minProperties <data>: 0 properties is less than minProperties 1"),
    ("field.maxProperties", r#"{"maxProperties": 1}"#, r#"{"a": 1, "b": 2}"#,
        "ERROR field.maxProperties <data>: 2 properties is greater than maxProperties 1"),
    ("field.dependentRequired", r#"{"dependentRequired": {"card": ["expiry"]}}"#, r#"{"card": "4111"}"#,
        "ERROR field.dependentRequired expiry: required when 'card' is present (dependentRequired)"),
    ("field.items", r#"{"prefixItems": [{}], "items": false}"#, "[1, 2]",
        "ERROR field.items [1]: element 1 is not allowed: the array holds at most 1 (items: false)"),
    ("field.contains", r#"{"contains": {"const": "x"}}"#, r#"["a"]"#,
        "ERROR field.contains <data>: no element matches the schema under 'contains'"),
    ("field.minContains", r#"{"contains": {"const": 1}, "minContains": 2}"#, "[1]",
        "ERROR field.minContains <data>: 1 elements match 'contains', fewer than minContains 2"),
    ("field.maxContains", r#"{"contains": {"const": 1}, "maxContains": 1}"#, "[1, 1]",
        "ERROR field.maxContains <data>: 2 elements match 'contains', more than maxContains 1"),
    ("field.anyOf", r#"{"anyOf": [{"type": "string"}, {"type": "integer"}]}"#, "1.5",
        "ERROR field.anyOf <data>: no member of 'anyOf' matches; closest is member 1: field.type <data>: expected string, found number"),
    ("field.oneOf", r#"{"oneOf": [{"minimum": 0}, {"maximum": 10}]}"#, "5",
        "ERROR field.oneOf <data>: matches member 1 and member 2, but 'oneOf' allows exactly one"),
    ("field.not", r#"{"not": {"type": "null"}}"#, "null", "ERROR field.not <data>: value matches the schema under 'not'"),
    ("field.false", r#"{"properties": {"legacy": false}}"#, r#"{"legacy": 1}"#,
        "ERROR field.false legacy: no value is allowed here (the schema is false)"),
];

#[test]
fn every_rule_of_the_schema_form_has_its_exact_finding() {
    for (rule, schema, data, want) in RULE_CASES {
        let c = contract(schema);
        assert_eq!(findings(&c, data), [*want], "{rule}: {schema} / {data}");
        assert!(want.contains(rule), "{rule}");
    }
}

/// The real MCP 2025-06-18 content block union, tagged by `type`: the tag
/// picks the member, the member's own findings are reported, an unknown tag
/// is `field.enum` at the tag listing the known tags.
const CONTENT: &str = r##"{
  "$defs": {
    "TextContent": {"type": "object", "required": ["type", "text"],
      "properties": {"type": {"const": "text"}, "text": {"type": "string"}}},
    "ImageContent": {"type": "object", "required": ["type", "data", "mimeType"],
      "properties": {"type": {"const": "image"}, "data": {"type": "string", "format": "byte"}, "mimeType": {"type": "string"}}}
  },
  "type": "object", "required": ["content"],
  "properties": {
    "content": {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/TextContent"}, {"$ref": "#/$defs/ImageContent"}]}},
    "_meta": {"type": "object", "additionalProperties": {"type": "string"}}
  }
}"##;

#[test]
fn a_tagged_union_reports_the_picked_members_findings() {
    let c = contract(CONTENT);
    assert_eq!(
        findings(
            &c,
            r#"{"content": [{"type": "text", "text": "hi"}, {"type": "image", "data": "aGk=", "mimeType": "image/png"}]}"#
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        findings(&c, r#"{"content": [{"type": "text", "text": "hi"}, {"type": "text"}]}"#),
        ["ERROR field.required content[1].text: required field is missing"]
    );
    assert_eq!(
        findings(&c, r#"{"content": [{"type": "image", "mimeType": "image/png"}]}"#),
        ["ERROR field.required content[0].data: required field is missing"]
    );
    assert_eq!(
        findings(&c, r#"{"content": [{"type": "video", "url": "x"}]}"#),
        ["ERROR field.enum content[0].type: value 'video' not in {'text', 'image'}"]
    );
    assert_eq!(
        findings(&c, r#"{"content": [{"text": "no tag"}]}"#),
        ["ERROR field.required content[0].type: required field is missing (it picks the member: one of {'text', 'image'})"]
    );
}

#[test]
fn maps_and_keys_that_are_not_plain_have_exact_paths() {
    let c = contract(CONTENT);
    assert_eq!(
        findings(&c, r#"{"content": [], "_meta": {"io.modelcontextprotocol/protocolVersion": 1, "ok": "x"}}"#),
        [r#"ERROR field.type _meta["io.modelcontextprotocol/protocolVersion"]: expected string, found integer"#]
    );
}

#[test]
fn bad_schemas_are_refused_with_their_position() {
    let err = |schema: &str| {
        let doc = format!("{{\"name\": \"t\", \"revision\": \"1.0.0\",\n \"schema\": {schema}}}");
        ContractSpec::from_slice(doc.as_bytes(), "t.json").unwrap_err().to_string()
    };
    assert_eq!(
        err(r#"{"properties": {"a": {"x-vendorKeyword": false}}}"#),
        "t.json:2:34: unsupported keyword 'x-vendorKeyword' at /properties/a (supported: type, enum, const, properties, required, additionalProperties, patternProperties, propertyNames, minProperties, maxProperties, dependentRequired, dependentSchemas, items, prefixItems, contains, minContains, maxContains, minItems, maxItems, uniqueItems, anyOf, oneOf, allOf, not, if, then, else, $ref, $defs, $anchor, unevaluatedProperties, unevaluatedItems, $dynamicRef, $dynamicAnchor, format, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength, maxLength, pattern; annotations: title, description, default, examples, deprecated, readOnly, writeOnly, $comment, $schema, $id, $vocabulary, contentMediaType, contentEncoding, contentSchema)"
    );
    assert_eq!(
        err(r#"{"type": "object", "requried": ["a"]}"#),
        "t.json:2:31: unsupported keyword 'requried' at the schema root: did you mean 'required'? (supported: type, enum, const, properties, required, additionalProperties, patternProperties, propertyNames, minProperties, maxProperties, dependentRequired, dependentSchemas, items, prefixItems, contains, minContains, maxContains, minItems, maxItems, uniqueItems, anyOf, oneOf, allOf, not, if, then, else, $ref, $defs, $anchor, unevaluatedProperties, unevaluatedItems, $dynamicRef, $dynamicAnchor, format, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength, maxLength, pattern; annotations: title, description, default, examples, deprecated, readOnly, writeOnly, $comment, $schema, $id, $vocabulary, contentMediaType, contentEncoding, contentSchema)"
    );
    assert_eq!(
        err(r#"{"$ref": "https://example.com/s.json"}"#),
        "t.json:2:21: $ref 'https://example.com/s.json' is not local: it names a document that is not in this contract (`cargo protocolarc import schema FILE --resolve DIR` bundles the files a schema references)"
    );
    assert_eq!(
        err(r##"{"$ref": "#/$defs/Nope"}"##),
        "t.json:2:21: $ref '#/$defs/Nope' names no schema in this document"
    );
    assert_eq!(
        err(r##"{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"allOf": [{"$ref": "#/$defs/A"}]}}, "$ref": "#/$defs/A"}"##),
        "t.json:2:28: this schema applies itself to the same value through $ref or allOf/anyOf/oneOf/not/if without descending into a property or element: the check would never end"
    );
    // `strict` is the fields form's; a schema-form file that sets it is
    // refused at the key (`false`, the default, changes nothing).
    let strict = |value: &str| {
        let doc = format!("{{\"name\": \"t\", \"revision\": \"1.0.0\",\n \"strict\": {value}, \"schema\": {{}}}}");
        ContractSpec::from_slice(doc.as_bytes(), "t.json").map_err(|e| e.to_string())
    };
    assert_eq!(
        strict("true").unwrap_err(),
        "t.json:2:12: 'strict' is for the fields form (a warning per undeclared top-level key): a schema refuses undeclared keys with \"additionalProperties\": false (an error)"
    );
    assert!(!strict("false").expect("strict false loads").is_strict());
    assert_eq!(
        err(r#"{"definitions": {}}"#),
        "t.json:2:13: 'definitions' at the schema root is a draft-07 keyword: `cargo protocolarc import schema` converts a draft-07 schema to 2020-12"
    );
}

#[test]
fn recursion_through_a_property_terminates() {
    let c = contract(
        r##"{"$defs": {"Node": {"type": "object", "required": ["v"], "properties": {"v": {"type": "integer"}, "next": {"$ref": "#/$defs/Node"}}}}, "$ref": "#/$defs/Node"}"##,
    );
    assert_eq!(
        findings(&c, r#"{"v": 1, "next": {"v": 2, "next": {"v": "3"}}}"#),
        ["ERROR field.type next.next.v: expected integer, found string"]
    );
}

#[test]
fn nested_untagged_unions_are_memoised_not_exponential() {
    // 30 levels of `anyOf` whose two members both recurse into `a` (through
    // `$defs`, so the schema stays small): without memoisation each level
    // would double the work (2^30 walks).
    let mut defs = vec![r#""L0": {"type": "integer"}"#.to_string()];
    for i in 1..=30 {
        let below = format!(r##"{{"properties": {{"a": {{"$ref": "#/$defs/L{}"}}}}, "required": ["a"]}}"##, i - 1);
        let other = format!(r##"{{"properties": {{"a": {{"$ref": "#/$defs/L{}"}}}}, "minProperties": 1}}"##, i - 1);
        defs.push(format!(r#""L{i}": {{"anyOf": [{below}, {other}]}}"#));
    }
    let schema = format!(r##"{{"$defs": {{{}}}, "$ref": "#/$defs/L30"}}"##, defs.join(", "));
    let c = contract(&schema);
    let mut data = "\"x\"".to_string();
    for _ in 0..30 {
        data = format!(r#"{{"a": {data}}}"#);
    }
    let report = c.validate_json(data.as_bytes());
    assert!(!report.is_valid());
    assert_eq!(report.findings()[0].rule(), "field.anyOf");
}

#[test]
fn a_changed_schema_is_classified_and_documentation_is_no_change() {
    let old = contract(r#"{"type": "object", "title": "A", "properties": {"title": {"type": "string"}}}"#);
    let doc = |schema: &str| format!(r#"{{"name": "t.schema", "revision": "2.0.0", "schema": {schema}}}"#);
    let same = ContractSpec::from_slice(
        doc(r#"{"type": "object", "title": "B", "properties": {"title": {"type": "string"}}}"#).as_bytes(),
        "n.json",
    )
    .unwrap();
    let d = diff(&old, &same).unwrap();
    // A title is documentation: compatible, reported for review.
    let rules: Vec<(&str, &str, &str)> = d.changes().iter().map(|c| (c.rule(), c.field(), c.message())).collect();
    assert_eq!(
        (d.compatibility(), rules),
        (Impact::Compatible, vec![("annotation.changed", "<data>", "title 'A' -> 'B'")])
    );
    // A property named `title` is not documentation.
    let new = ContractSpec::from_slice(
        doc(r#"{"type": "object", "properties": {"title": {"type": "integer"}}}"#).as_bytes(),
        "n.json",
    )
    .unwrap();
    let d = diff(&old, &new).unwrap();
    assert_eq!(d.compatibility(), Impact::Breaking);
    let c = &d.changes()[0];
    assert_eq!((c.rule(), c.field(), c.message()), ("field.type.changed", "title", "string -> integer"));
    let w = c.witness().expect("a witness");
    assert!(old.validate_json(w.as_bytes()).findings().is_empty(), "{w}");
    assert_eq!(new.validate_json(w.as_bytes()).findings()[0].rule(), "field.type");
    // Fields form -> schema form: compared through the fields form's JSON Schema.
    let fields =
        ContractSpec::from_slice(br#"{"name": "t.schema", "revision": "0.9.0", "fields": []}"#, "f.json").unwrap();
    let d = diff(&fields, &old).unwrap();
    let found: Vec<_> = d.changes().iter().map(|c| (c.rule(), c.field(), c.message())).collect();
    assert_eq!(
        found,
        [("field.added.optional", "title", "added string"), ("annotation.changed", "<data>", "title (none) -> 'A'")]
    );
}

#[test]
fn the_guide_schema_form_example_loads_and_judges_real_content_blocks() {
    let readme = std::fs::read_to_string(protocolarc_tests::root().join("docs/contracts.md")).unwrap();
    let section = &readme[readme.find("\n## The schema form").expect("section")..];
    let start = section.find("```json\n").expect("example") + "```json\n".len();
    let example = &section[start..start + section[start..].find("```").unwrap()];
    let c = ContractSpec::from_slice(example.as_bytes(), "docs/contracts.md").unwrap();
    assert_eq!((c.id().as_str(), c.direction().as_str()), ("mcp.call_tool_result@2025.6.18", "response"));
    // The result of the MCP 2025-06-18 spec's tools/call example.
    let ok = r#"{"content": [{"type": "text", "text": "Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy"}], "isError": false}"#;
    assert_eq!(findings(&c, ok), Vec::<String>::new());
    assert_eq!(
        findings(&c, r#"{"content": [{"type": "image", "data": "not base64!", "mimeType": "image/png"}]}"#),
        ["ERROR field.format content[0].data: value 'not base64!' is not a valid byte"]
    );
}

#[test]
fn constants_show_as_the_contract_writes_them() {
    let c = contract(r#"{"properties": {"n": {"const": 2}, "d": {"enum": [1.50, [1, {"b": 2}]]}}}"#);
    assert_eq!(
        findings(&c, r#"{"n": 3, "d": 1.6}"#),
        // Sorted by field: `d` before `n`.
        ["ERROR field.enum d: value 1.6 not in {1.50, [1,{\"b\":2}]}", "ERROR field.const n: value 3 is not 2"]
    );
    // Compared as JSON values, whatever the spelling.
    assert_eq!(findings(&c, r#"{"n": 2.0, "d": 1.5}"#), Vec::<String>::new());
}

#[test]
fn an_object_or_array_outside_an_enum_or_const_is_named_by_its_kind() {
    // As the fields form words it (`keywords::enums::container_message`).
    let c = contract(r#"{"properties": {"e": {"enum": ["a", [1]]}, "k": {"const": {"x": 1}}}}"#);
    // The members themselves pass: the check compares JSON values.
    assert_eq!(findings(&c, r#"{"e": [1], "k": {"x": 1.0}}"#), Vec::<String>::new());
    assert_eq!(
        findings(&c, r#"{"e": {"a": 1}, "k": [1]}"#),
        ["ERROR field.enum e: an object is not in {'a', [1]}", "ERROR field.const k: an array is not {\"x\":1}"]
    );
    // The fields form says the same of the same values.
    let fields = ContractSpec::from_slice(
        br#"{"name": "t.fields", "revision": "1.0.0", "fields": [{"name": "e", "type": "any", "enum": ["a", "b"]}]}"#,
        "f.json",
    )
    .expect("a fields-form contract");
    assert_eq!(findings(&fields, r#"{"e": {"a": 1}}"#), ["ERROR field.enum e: an object is not in {'a', 'b'}"]);
}

#[test]
fn a_value_read_by_several_schemas_reports_each_fault_once() {
    let c = contract(
        r##"{"properties": {"a": {}}, "$ref": "#/$defs/X", "$defs": {"X": {"type": "object"}}, "allOf": [{"required": ["a"]}, {"type": "object"}]}"##,
    );
    assert_eq!(
        findings(&c, r#"{"a": 1, "a": 2, "b": {"c": 1, "c": 2}}"#),
        [
            "ERROR json.duplicate_key a: key appears more than once in its object",
            "ERROR json.duplicate_key b.c: key appears more than once in its object"
        ]
    );
}

/// Repeated undeclared keys are found whatever the keys: objects of up to
/// 40 keys drawn from names that share a length and their first and last
/// bytes (the walker's per-object key filter gives them one bit), some
/// written with escapes, past the 32 keys compared pairwise, at the root
/// and nested, in both contract forms, against a plain model.
#[test]
fn repeated_undeclared_keys_are_found_under_the_key_filter() {
    const NAMES: &[&str] = &["axb", "ayb", "azb", "a", "b", "ab", "ba", "name", "nome", "k1", "k2", "k10", "x"];
    let schema = contract(r#"{"properties": {"d": {"type": "integer"}}}"#);
    let fields = ContractSpec::from_slice(
        br#"{"name": "t.fields", "revision": "1.0.0", "fields": [{"name": "o", "type": "object"}]}"#,
        "t.json",
    )
    .expect("a fields contract");
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut checked = 0;
    for _ in 0..400 {
        let count = 1 + next(40) as usize;
        let mut members = Vec::new();
        let mut expected = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..count {
            let name = NAMES[next(NAMES.len() as u64) as usize];
            // One key in four spelled with its first letter escaped.
            let spelled = if next(4) == 0 {
                format!("\\u{:04x}{}", u32::from(name.as_bytes()[0]), &name[1..])
            } else {
                name.to_string()
            };
            if !seen.insert(name) {
                expected.push(name.to_string());
            }
            members.push(format!(r#""{spelled}": {}"#, next(9)));
        }
        // Both forms report a repeated key once per path, however often it
        // repeats (a report keeps each distinct finding once).
        expected.sort();
        let mut once = expected.clone();
        once.dedup();
        let object = format!("{{{}}}", members.join(", "));
        let duplicates = |c: &ContractSpec, data: &str, under: &str| {
            let mut got: Vec<String> = c
                .validate_json(data.as_bytes())
                .findings()
                .iter()
                .filter(|f| f.rule() == "json.duplicate_key")
                .map(|f| f.field().strip_prefix(under).expect("the object's path").to_string())
                .collect();
            got.sort();
            got
        };
        // Undeclared keys beside a declared one at the root (schema form),
        // and inside an object nothing constrains (both forms).
        let root = format!(r#"{{"d": 1, {}}}"#, &object[1..object.len() - 1]);
        assert_eq!(duplicates(&schema, &root, ""), once, "{root}");
        assert_eq!(duplicates(&schema, &format!(r#"{{"z": {object}}}"#), "z."), once, "{object}");
        assert_eq!(duplicates(&fields, &format!(r#"{{"o": {object}}}"#), "o."), once, "{object}");
        checked += usize::from(!expected.is_empty());
    }
    // Most objects repeat a key; some do not.
    assert!((200..400).contains(&checked), "{checked} of 400 objects repeat a key");
}

/// An object whose every member is valid once it is an object (nothing of
/// its own but `type`, `additionalProperties` absent, `true` or `{}`: MCP's
/// `arguments`, `_meta`, `structuredContent`) is read as a skipped value is,
/// its keys still checked for repeats: the same exact findings as the same
/// map read member by member (a pattern that matches every key is the same
/// schema, read so).
#[test]
fn an_open_map_gives_the_findings_of_its_members_read_one_by_one() {
    let maps = [
        r#"{"type": "object"}"#,
        r#"{"type": "object", "additionalProperties": {}}"#,
        r#"{"type": "object", "additionalProperties": true}"#,
        r#"{"type": "object", "patternProperties": {"": {}}}"#,
    ]
    .map(|m| contract(&format!(r#"{{"properties": {{"p": {{"properties": {{"m": {m}}}}}}}}}"#)));
    let deep = format!(r#"{{"p": {{"m": {{"x": {}1{}}}}}}}"#, "[".repeat(200), "]".repeat(200));
    // The 129th level is the 126th array: `p`, `m` and `x` hold the first three.
    let depth = format!("ERROR json.depth p.m.x{}: objects and arrays nest deeper than 128 levels", "[0]".repeat(125));
    let cases: &[(&str, &[&str])] = &[
        (
            r#"{"p": {"m": {"a": 1, "b": {"a": [1, {"a": 1, "a": 2}]}, "\u0061": 3}}}"#,
            &[
                "ERROR json.duplicate_key p.m.a: key appears more than once in its object",
                "ERROR json.duplicate_key p.m.b.a[1].a: key appears more than once in its object",
            ],
        ),
        (r#"{"p": {"m": ["a"]}}"#, &["ERROR field.type p.m: expected object, found array"]),
        (
            r#"{"p": {"m": {}}, "q": {"m": {"a": 1, "a": 1}}}"#,
            &["ERROR json.duplicate_key q.m.a: key appears more than once in its object"],
        ),
        (&deep, &[&depth]),
        (
            r#"{"p": {"m": {"a": tru}}}"#,
            &["ERROR json.syntax <data>: line 1, column 19: invalid literal (expected true, false or null)"],
        ),
    ];
    for (data, want) in cases {
        for map in &maps {
            assert_eq!(findings(map, data), *want, "{data}");
        }
    }
}

/// One walker writes the findings of both forms: a fields-form contract's
/// model is compiled into the schema graph (through its JSON Schema export)
/// at its first body with a finding. Every fields-form contract file of the
/// repository compiles so (a contract whose twin did not compile would stop
/// the run here), and its findings are the schema walker's: a repeated key
/// once per path, which the path-tree walker wrote once per repeat.
#[test]
fn every_fields_contract_compiles_to_its_schema_twin() {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries {
            let p = e.expect("entry").path();
            if p.is_dir() {
                files(&p, out);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    let root = protocolarc_tests::root();
    let mut paths = Vec::new();
    for dir in ["contracts", "docs/examples", "tests/data", "tests/ui"] {
        files(&root.join(dir), &mut paths);
    }
    paths.sort();
    let mut twins = 0;
    for p in &paths {
        let Ok(c) = ContractSpec::from_path(p) else { continue };
        if c.schema().is_some() {
            continue;
        }
        let shown: Vec<String> = c.validate_json_full(b"[]").findings().iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["ERROR field.type <data>: expected object, found array"], "{}", p.display());
        twins += 1;
    }
    assert!(twins >= 19, "{twins} fields-form contracts");
    let c = ContractSpec::from_slice(
        br#"{"name": "t.fields", "revision": "1.0.0", "strict": true,
             "fields": [{"name": "a", "type": "integer"}]}"#,
        "t.json",
    )
    .expect("loads");
    let shown: Vec<String> = c
        .validate_json(br#"{"a": 1, "a": 2, "a": "x", "b": 1, "b": 2}"#)
        .findings()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        shown,
        [
            "ERROR json.duplicate_key a: key appears more than once in its object",
            "ERROR json.duplicate_key b: key appears more than once in its object",
            "WARNING field.unknown b: key is not declared by the strict contract",
        ]
    );
}

/// The deepest paths a fields-form contract may declare (128 levels: dotted
/// segments, `[]` steps) export to a schema nesting about twice as deep, and
/// their twins still compile: a body with a finding gets its finding, never
/// a panic. And a value under an `enum` or `const` (fields or schema form)
/// is spelled for comparison only as deep as the walk reads it: a body
/// nesting past the limit is one `json.depth`, never a stack overflow.
#[test]
fn the_deepest_contract_paths_and_values_are_judged_within_the_limits() {
    let deep = |name: String| {
        let doc =
            format!(r#"{{"name": "t.deep", "revision": "1.0.0", "fields": [{{"name": "{name}", "type": "string"}}]}}"#);
        ContractSpec::from_slice(doc.as_bytes(), "t.json").unwrap_or_else(|e| panic!("{e}"))
    };
    let dotted = deep(vec!["a"; 128].join("."));
    let shown: Vec<String> = dotted.validate_json(b"{}").findings().iter().map(ToString::to_string).collect();
    assert_eq!(shown, ["ERROR field.required a: required field is missing"]);
    let body = format!("{}7{}", r#"{"a": "#.repeat(127), "}".repeat(127));
    let shown: Vec<String> = dotted.validate_json(body.as_bytes()).findings().iter().map(ToString::to_string).collect();
    let path = vec!["a"; 127].join(".");
    assert_eq!(shown, [format!("ERROR field.type {path}: expected object, found integer")]);
    let stepped = deep(format!("a{}", "[]".repeat(127)));
    let shown: Vec<String> =
        stepped.validate_json(br#"{"a": [[1]]}"#).findings().iter().map(ToString::to_string).collect();
    assert_eq!(shown, ["ERROR field.type a[0][0]: expected array, found integer"]);

    let fields = ContractSpec::from_slice(
        br#"{"name": "t.enum", "revision": "1.0.0", "fields": [{"name": "x", "type": ["string", "array"], "enum": ["a"]}]}"#,
        "t.json",
    )
    .expect("loads");
    let schema = contract(r#"{"type": "object", "properties": {"x": {"const": [1]}}}"#);
    let tagged = contract(
        r#"{"oneOf": [{"type": "object", "properties": {"t": {"const": "a"}}, "required": ["t"]},
                      {"type": "object", "properties": {"t": {"const": "b"}}, "required": ["t"]}]}"#,
    );
    let nested = format!(r#"{{"x": {}{}}}"#, "[".repeat(200_000), "]".repeat(200_000));
    let tag = format!(r#"{{"t": {}{}}}"#, "[".repeat(200_000), "]".repeat(200_000));
    // The walk stops at the first container past the limit: 127 levels
    // below the member's own.
    let at = |key: &str| {
        format!("ERROR json.depth {key}{}: objects and arrays nest deeper than 128 levels", "[0]".repeat(127))
    };
    for (c, body, key) in [(&fields, &nested, "x"), (&schema, &nested, "x"), (&tagged, &tag, "t")] {
        let shown: Vec<String> = c.validate_json(body.as_bytes()).findings().iter().map(ToString::to_string).collect();
        assert_eq!(shown, [at(key)], "{}", c.name());
    }
}

/// A fields-form path of n dotted segments exports to a schema nesting
/// 2n + 1 levels. Up to 63 segments, ProtocolArc reads its own export back
/// (as `import schema` does, and as a schema-form contract) and finds what
/// the fields form finds; from 64 on, its readers refuse the export at the
/// first level past the limit (README, "import and export").
#[test]
fn a_deep_fields_path_exports_to_a_schema_this_reader_takes_up_to_its_depth_limit() {
    let fields = |n: usize| {
        let doc = format!(
            r#"{{"name": "t.deep", "revision": "1.0.0", "fields": [{{"name": "{}", "type": "string"}}]}}"#,
            vec!["a"; n].join(".")
        );
        ContractSpec::from_slice(doc.as_bytes(), "t.json").unwrap_or_else(|e| panic!("{e}"))
    };
    let shallow = fields(63);
    let text = protocolarc_interop::export::from_spec(&shallow).text;
    assert!(protocolarc_interop::import::parse_document(text.as_bytes()).is_ok(), "63 segments read back");
    let doc = format!(r#"{{"name": "t.deep", "revision": "1.0.0", "schema": {text}}}"#);
    let back = ContractSpec::from_slice(doc.as_bytes(), "t.json").unwrap_or_else(|e| panic!("{e}"));
    let shown = |c: &ContractSpec, body: &str| -> Vec<String> {
        c.validate_json(body.as_bytes()).findings().iter().map(ToString::to_string).collect()
    };
    let body = format!("{}7{}", r#"{"a": "#.repeat(63), "}".repeat(63));
    let leaf = format!("ERROR field.type {}: expected string, found integer", vec!["a"; 63].join("."));
    assert_eq!(shown(&shallow, &body), std::slice::from_ref(&leaf));
    assert_eq!(shown(&back, &body), [leaf]);
    assert_eq!(shown(&shallow, "{}"), ["ERROR field.required a: required field is missing"]);
    assert_eq!(shown(&back, "{}"), ["ERROR field.required a: required field is missing"]);

    let text = protocolarc_interop::export::from_spec(&fields(64)).text;
    let e = protocolarc_interop::import::parse_document(text.as_bytes()).expect_err("129 levels are refused");
    assert_eq!(e.message, "nesting deeper than 128 levels");
    assert_eq!(text.as_bytes()[e.offset], b'{', "at the first object past the limit");
}

/// `validate_json` on the real MCP `CallToolResult` contract over a stream
/// whose invalid bodies first pass the first-fault walk, then (past six in
/// 32 on this thread) skip it, then take it again: every report is the
/// exact finding, and the one `validate_json_full` (the finding walk alone)
/// gives.
#[test]
fn a_stream_of_real_results_gets_the_same_reports_whichever_walk_goes_first() {
    let c = ContractSpec::from_path(
        protocolarc_tests::root().join("tests/data/contracts/mcp/call_tool_result_2025.6.18.json"),
    )
    .unwrap();
    let ok = r#"{"content": [{"type": "text", "text": "72°F"}], "isError": false}"#;
    let bad = r#"{"content": [{"type": "text", "text": "72°F"}, {"type": "image", "mimeType": "image/png"}], "isError": false}"#;
    let missing = ["ERROR field.required content[1].data: required field is missing"];
    let stream: Vec<&str> = [vec![ok; 40], vec![bad; 12], vec![ok; 40], vec![bad; 3]].concat();
    for (i, body) in stream.iter().enumerate() {
        let got = findings(&c, body);
        let full: Vec<String> =
            c.validate_json_full(body.as_bytes()).findings().iter().map(|f| f.to_string()).collect();
        assert_eq!(got, full, "body {i}");
        if *body == ok {
            assert!(got.is_empty(), "body {i}: {got:?}");
        } else {
            assert_eq!(got, missing, "body {i}");
        }
    }
}

/// Objects of more than 64 declared properties keep their seen-bits in
/// allocated flags (one word holds 64): a repeat and a missing required key on
/// either side of that line are found, in both forms.
#[test]
fn declared_properties_past_one_word_of_seen_bits_find_repeats_and_missing_keys() {
    let names: Vec<String> = (0..70).map(|i| format!("p{i}")).collect();
    let required = ["p0", "p63", "p64", "p69"];
    let properties: Vec<String> = names.iter().map(|n| format!(r#""{n}": {{"type": "string"}}"#)).collect();
    let quoted: Vec<String> = required.iter().map(|r| format!("\"{r}\"")).collect();
    let schema =
        contract(&format!(r#"{{"properties": {{{}}}, "required": [{}]}}"#, properties.join(", "), quoted.join(", ")));
    let fields: Vec<String> = names
        .iter()
        .map(|n| format!(r#"{{"name": "{n}", "type": "string", "required": {}}}"#, required.contains(&n.as_str())))
        .collect();
    let doc = format!(r#"{{"name": "t.fields", "revision": "1.0.0", "fields": [{}]}}"#, fields.join(", "));
    let fields = ContractSpec::from_slice(doc.as_bytes(), "t.json").expect("the fields contract loads");
    let body = |skip: &[&str], again: &[&str]| {
        let mut members: Vec<String> =
            names.iter().filter(|n| !skip.contains(&n.as_str())).map(|n| format!(r#""{n}": "v""#)).collect();
        members.extend(again.iter().map(|n| format!(r#""{n}": "w""#)));
        format!("{{{}}}", members.join(", "))
    };
    for c in [&schema, &fields] {
        assert_eq!(findings(c, &body(&[], &[])), Vec::<String>::new(), "every property once");
        assert_eq!(
            findings(c, &body(&["p63", "p64", "p69"], &[])),
            [
                "ERROR field.required p63: required field is missing",
                "ERROR field.required p64: required field is missing",
                "ERROR field.required p69: required field is missing",
            ]
        );
        for key in ["p63", "p64", "p69"] {
            assert_eq!(
                findings(c, &body(&[], &[key])),
                [format!("ERROR json.duplicate_key {key}: key appears more than once in its object")],
                "{key} twice"
            );
        }
    }
}
