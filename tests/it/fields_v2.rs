//! The fields form's SPEC §10 keys: `const`, `format`, `closed` (on a field
//! and on the contract) and `["key"]` names, through the runtime validator,
//! the generated validator and type, and the diff engine with its witnesses.

use protocolarc::diff::{diff, Impact};
use protocolarc::{Contract, ContractSpec};
use protocolarc_tests::typed::FieldsV2;

fn findings(c: &ContractSpec, data: &str) -> Vec<String> {
    c.validate_json(data.as_bytes()).findings().iter().map(|f| f.to_string()).collect()
}

const VALID: &str = r#"{"jsonrpc": "2.0", "id": 7, "params": {"uri": "https://example.com/a", "at": "2025-06-18T10:00:00Z",
    "color": "not checked", "_meta": {"io.modelcontextprotocol/protocolVersion": "2025-06-18", "other": 1},
    "caps": {"sampling": {"on": true}, "roots": {"on": false, "more": 1}}, "items": [{"kind": "text", "n": 1}]}}"#;

/// (body, the findings) for each new key, one at a time.
const CASES: &[(&str, &[&str])] = &[
    (VALID, &[]),
    (
        r#"{"jsonrpc": "1.0", "id": 1, "params": {"uri": "x:y", "items": [{"kind": "image", "n": 2}]}}"#,
        &[
            "ERROR field.const jsonrpc: value '1.0' is not '2.0'",
            "ERROR field.const params.items[0].kind: value 'image' is not 'text'",
            "ERROR field.const params.items[0].n: value 2 is not 1",
        ],
    ),
    (
        r#"{"jsonrpc": "2.0", "id": 1, "params": {"uri": "not a uri", "at": "yesterday", "items": []}}"#,
        &[
            "ERROR field.format params.at: value 'yesterday' is not a valid date-time",
            "ERROR field.format params.uri: value 'not a uri' is not a valid uri",
        ],
    ),
    (
        r#"{"jsonrpc": "2.0", "id": 1, "params": {"uri": "a:b", "items": [], "extra": true}, "top": 0}"#,
        &[
            "ERROR field.additionalProperties params.extra: key is not allowed: the object is closed (additionalProperties: false)",
            "ERROR field.additionalProperties top: key is not allowed: the object is closed (additionalProperties: false)",
        ],
    ),
    (
        // A key with a dot is one key: the same text as nested objects is not it.
        r#"{"jsonrpc": "2.0", "id": 1, "params": {"uri": "a:b", "items": [], "_meta": {"io.modelcontextprotocol/protocolVersion": 3, "io": {"modelcontextprotocol/protocolVersion": "x"}}}}"#,
        &[r#"ERROR field.type params._meta["io.modelcontextprotocol/protocolVersion"]: expected string, found integer"#],
    ),
    (
        // Every value of the map `caps{}`, under its concrete key.
        r#"{"jsonrpc": "2.0", "id": 1, "params": {"uri": "a:b", "items": [], "caps": {"a": {"on": 1}, "b": {}, "c": 2, "a.b": {"on": true}}}}"#,
        &[
            "ERROR field.type params.caps.a.on: expected boolean, found integer",
            "ERROR field.required params.caps.b.on: required field is missing",
            "ERROR field.type params.caps.c: expected object, found integer",
        ],
    ),
];

#[test]
fn each_new_key_has_its_exact_findings_in_the_runtime_and_the_generated_validator() {
    let spec = FieldsV2::spec();
    for (body, want) in CASES {
        assert_eq!(findings(spec, body), *want, "{body}");
        // The generated validator: the same report, and a pass only for a
        // body without findings.
        let generated = FieldsV2::validate_json(body.as_bytes());
        assert_eq!(generated, spec.validate_json_full(body.as_bytes()), "{body}");
        assert_eq!(FieldsV2::fast_path(body.as_bytes()), want.is_empty(), "{body}");
    }
}

#[test]
fn the_typed_parse_refuses_what_the_closed_objects_refuse_and_round_trips_the_rest() {
    let value = FieldsV2::from_json(VALID.as_bytes()).unwrap();
    let back: serde_json::Value = serde_json::from_slice(&value.to_json()).unwrap();
    assert_eq!(back, serde_json::from_str::<serde_json::Value>(VALID).unwrap());
    let err = FieldsV2::from_json(br#"{"jsonrpc": "2.0", "id": 1, "params": {"uri": "a:b", "items": [], "x": 1}}"#);
    assert_eq!(
        err.unwrap_err().to_string(),
        "ERROR field.additionalProperties params.x: key is not allowed: the object is closed (additionalProperties: false)"
    );
}

#[test]
fn field_names_are_canonical_and_bracketed_keys_are_one_key() {
    let c = ContractSpec::from_slice(
        br#"{"name": "t", "revision": "1.0.0", "fields": [{"name": "a[\"b\"][\"c.d\"][]", "type": "string"}]}"#,
        "t.json",
    )
    .unwrap();
    // `["b"]` is a plain key, written plainly; `["c.d"]` keeps its brackets.
    assert_eq!(c.fields()[0].path().as_str(), r#"a.b["c.d"][]"#);
    assert_eq!(c.fields()[0].path().segments()[2].key, "c.d");
    assert_eq!(
        findings(&c, r#"{"a": {"b": {"c.d": [1]}}}"#),
        [r#"ERROR field.type a.b["c.d"][0]: expected string, found integer"#]
    );
    let err = |name: &str| {
        let doc = format!(
            r#"{{"name": "t", "revision": "1.0.0", "fields": [{{"name": {}, "type": "string"}}]}}"#,
            serde_json::to_string(name).unwrap()
        );
        ContractSpec::from_slice(doc.as_bytes(), "t.json").unwrap_err().to_string()
    };
    assert_eq!(
        err(r#"a["b"#),
        r#"t.json:1:56: field 'a["b': path 'a["b': a ["..."] key must be a JSON string followed by ']'"#
    );
    assert_eq!(
        err("a{b}"),
        r#"t.json:1:56: field 'a{b}': path 'a{b}': key 'a{b}' must be written ["..."] (it holds ], {, }, " or \)"#
    );
}

/// A change's witness: accepted by the old revision with no finding, and
/// flagged by the new one with the change's rule.
fn witnessed(old: &ContractSpec, new: &ContractSpec, rule: &str, want: &str, finding: &str) {
    let d = diff(old, new).unwrap();
    let c = d.changes().iter().find(|c| c.rule() == rule).unwrap_or_else(|| panic!("{rule}: {:?}", d.changes()));
    assert_eq!(c.impact(), Impact::Breaking);
    let witness = c.witness().unwrap_or_else(|| panic!("{rule}: {}", c.message()));
    assert_eq!(witness, want);
    assert!(old.validate_json(witness.as_bytes()).findings().is_empty(), "{rule}: the old revision accepts it");
    assert_eq!(findings(new, witness), [finding], "{rule}");
}

fn contract(rev: &str, top: &str, fields: &str) -> ContractSpec {
    let doc = format!(r#"{{"name": "t", "revision": "{rev}", {top} "fields": [{fields}]}}"#);
    ContractSpec::from_slice(doc.as_bytes(), "t.json").unwrap()
}

#[test]
fn format_and_closed_changes_are_judged_and_witnessed() {
    let plain = contract("1.0.0", "", r#"{"name": "at", "type": "string"}"#);
    let dated = contract("2.0.0", "", r#"{"name": "at", "type": "string", "format": "date-time"}"#);
    witnessed(
        &plain,
        &dated,
        "field.format.tightened",
        r#"{"at":""}"#,
        "ERROR field.format at: value '' is not a valid date-time",
    );
    assert_eq!(diff(&dated, &plain).unwrap().changes()[0].rule(), "field.format.relaxed");
    assert_eq!(diff(&dated, &plain).unwrap().compatibility(), Impact::Forward);
    // A format that is only an annotation is no change.
    let colored = contract("2.0.0", "", r#"{"name": "at", "type": "string", "format": "color"}"#);
    assert_eq!(diff(&plain, &colored).unwrap().changes(), []);

    let open = contract("1.0.0", "", r#"{"name": "p", "type": "object"}, {"name": "p.a", "type": "string"}"#);
    let shut =
        contract("2.0.0", "", r#"{"name": "p", "type": "object", "closed": true}, {"name": "p.a", "type": "string"}"#);
    witnessed(
        &open,
        &shut,
        "field.closed.enabled",
        r#"{"p":{"a":"","undeclared":""}}"#,
        "ERROR field.additionalProperties p.undeclared: key is not allowed: the object is closed (additionalProperties: false)",
    );
    assert_eq!(diff(&shut, &open).unwrap().compatibility(), Impact::Forward);

    let top_open = contract("1.0.0", "", r#"{"name": "a", "type": "string"}"#);
    let top_shut = contract("2.0.0", r#""closed": true,"#, r#"{"name": "a", "type": "string"}"#);
    witnessed(
        &top_open,
        &top_shut,
        "contract.closed.enabled",
        r#"{"a":"","undeclared":""}"#,
        "ERROR field.additionalProperties undeclared: key is not allowed: the object is closed (additionalProperties: false)",
    );
}

#[test]
fn export_writes_the_new_keys_and_the_reference_agrees_on_every_case() {
    let path = protocolarc_tests::data("contracts/fields_v2_1.0.0.json");
    let exported = protocolarc_interop::export::json_schema(&std::fs::read(&path).unwrap(), "fields_v2.json").unwrap();
    let schema: serde_json::Value = serde_json::from_str(&exported.text).unwrap();
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["properties"]["params"]["properties"]["uri"]["format"], "uri");
    assert_eq!(schema["properties"]["jsonrpc"]["const"], "2.0");
    let reference = jsonschema::options().should_validate_formats(true).build(&schema).unwrap();
    for (body, want) in CASES {
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(reference.is_valid(&value), want.is_empty(), "{body}");
    }
}

#[test]
fn map_changes_are_found_under_the_map_and_witnessed_through_it() {
    let old = contract("1.0.0", "", r#"{"name": "caps{}.on", "type": "boolean", "required": false}"#);
    let new = contract("2.0.0", "", r#"{"name": "caps{}.on", "type": "boolean"}"#);
    let d = diff(&old, &new).unwrap();
    let c = &d.changes()[0];
    assert_eq!((c.rule(), c.field()), ("field.required.tightened", "caps{}.on"));
    witnessed(
        &old,
        &new,
        "field.required.tightened",
        r#"{"caps":{"k":{}}}"#,
        "ERROR field.required caps.k.on: required field is missing",
    );
    // Export writes the map as additionalProperties.
    let exported = protocolarc_interop::export::from_spec(&new);
    let schema: serde_json::Value = serde_json::from_str(&exported.text).unwrap();
    assert_eq!(schema["properties"]["caps"]["additionalProperties"]["required"], serde_json::json!(["on"]));
}

#[test]
fn describe_shows_const_format_closed_and_maps() {
    let c = FieldsV2::spec();
    let text = cargo_protocolarc::render::describe::text(c);
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    assert_eq!(lines[1], "kind: -, strict: false, closed: true, 12 fields");
    for want in [
        "  jsonrpc                                                  string          required  const='2.0'",
        "  params                                                   object          required  closed",
        "  params.uri                                               string          required  format=uri",
        "  params.caps{}.on                                         boolean         required",
        "  params.items[].n                                         integer         optional  const=1",
    ] {
        assert!(lines.contains(&want), "{want}\n{text}");
    }
    let json: serde_json::Value = serde_json::from_str(&cargo_protocolarc::render::describe::json(c)).unwrap();
    assert_eq!(json["closed"], true);
    assert_eq!(json["fields"][0]["const"], "2.0");
    assert_eq!(json["fields"][2]["closed"], true);
    assert_eq!(json["fields"][3]["format"], "uri");
    // Absent keys stay absent: the fields form's document is unchanged for contracts without them.
    assert!(json["fields"][1].get("const").is_none() && json["fields"][1].get("closed").is_none());
}
