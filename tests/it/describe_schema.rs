//! `describe` of schema-form contracts (SPEC §10: "describe shows the new
//! shapes readably"): golden text and JSON on a real MCP contract, a
//! recursive schema, and a schema with maps, closed objects and every
//! applicator; a fields-form contract read from its lowered graph; and the
//! core's read-only schema view the renderer is built on.

use protocolarc::contract::schema::push_key;
use protocolarc::ContractSpec;
use protocolarc_tests::{bin, data, golden, run};
use serde_json::Value;

/// (golden name, contract path relative to the workspace root).
const CASES: &[(&str, &str)] = &[
    ("call_tool_result_2025.6.18", "tests/data/contracts/mcp/call_tool_result_2025.6.18.json"),
    ("tree_1.0.0", "tests/data/contracts/describe/tree_1.0.0.json"),
    ("settings_1.0.0", "tests/data/contracts/describe/settings_1.0.0.json"),
];

#[test]
fn describe_golden_text_and_json_of_schema_form_contracts() {
    for (name, path) in CASES {
        let text = run(bin!(), &["describe", path]);
        assert_eq!((text.code, text.stderr.as_str()), (0, ""), "{path}");
        golden(&format!("describe_schema_{name}.txt"), &text.stdout);
        let json = run(bin!(), &["describe", path, "--format", "json"]);
        assert_eq!((json.code, json.stderr.as_str()), (0, ""), "{path}");
        golden(&format!("describe_schema_{name}.json"), &json.stdout);

        // Deterministic, and the JSON has one row per table line.
        assert_eq!(run(bin!(), &["describe", path]).stdout, text.stdout, "{path}");
        assert_eq!(run(bin!(), &["describe", path, "--format", "json"]).stdout, json.stdout, "{path}");
        let doc: Value = serde_json::from_str(&json.stdout).expect("describe --format json is JSON");
        assert_eq!(doc["format_version"], 1);
        let rows = doc["paths"].as_array().expect("paths").len();
        let table = text.stdout.split("\n\n").nth(1).expect("table").lines().count();
        assert_eq!(rows + 1, table, "{path}: one JSON row per table row");
        assert!(text.stdout.contains(&format!("schema: {rows} rows\n")), "{path}");
    }
}

#[test]
fn a_tagged_union_lists_its_members_and_shows_each_under_its_tag() {
    let out = run(bin!(), &["describe", CASES[0].1]).stdout;
    assert!(out.contains(
        "  content[]                             object   -         -> ContentBlock; one of (by type) 'text' TextContent | 'image' ImageContent | 'audio' AudioContent | 'resource_link' ResourceLink | 'resource' EmbeddedResource\n  content[] (type 'text')               object   -         -> TextContent\n    content[]._meta                     object   optional\n    content[]._meta{}                   any      -\n"
    ));
    // An untagged union inside a member: numbered members, one level deeper.
    assert!(out.contains("    content[].resource                  object   required  any of TextResourceContents | BlobResourceContents\n    content[].resource (any of #1)      object   -         -> TextResourceContents\n      content[].resource._meta          object   optional\n"));
    assert!(out
        .starts_with("mcp.call_tool_result@2025.6.18\nkind: -, strict: false, direction: response, schema: 77 rows\n"));
}

#[test]
fn a_recursive_reference_is_named_once_and_not_expanded() {
    let out = run(bin!(), &["describe", CASES[1].1]).stdout;
    assert!(out.contains("  root             object   required  -> Node; closed\n"), "{out}");
    assert!(out.contains("  root.children[]  object   -         -> Node (recursive)\n"), "{out}");
    assert!(out.contains("  root.parent      object   optional  -> # (recursive)\n"), "{out}");
    assert!(!out.contains("root.children[].label"), "{out}");
    let json: Value = serde_json::from_str(&run(bin!(), &["describe", CASES[1].1, "--format", "json"]).stdout).unwrap();
    let row = json["paths"].as_array().unwrap().iter().find(|r| r["path"] == "root.children[]").unwrap();
    assert_eq!((&row["ref"], &row["recursive"]), (&Value::from("Node"), &Value::Bool(true)));
}

#[test]
fn maps_closed_objects_and_odd_keys_read_as_findings_write_them() {
    let out = run(bin!(), &["describe", CASES[2].1]).stdout;
    for line in [
        "  <data>                   object          -         closed\n",
        "  limits{}                 integer         -         minimum=0\n",
        "  headers                  object          optional  closed\n",
        "  [\"io.example/flag\"]      boolean|null    optional\n",
        "  version                  integer         required  const=2\n",
        "  window[2..]              none            -         false\n",
    ] {
        assert!(out.contains(line), "{line:?} in\n{out}");
    }
}

#[test]
fn the_schema_view_reads_the_compiled_graph() {
    let c = ContractSpec::from_path(data("contracts/describe/tree_1.0.0.json")).unwrap();
    let root = c.schema().expect("schema form").root();
    assert!(root.is_root());
    assert_eq!(root.required().collect::<Vec<_>>(), ["root"]);
    let (key, r) = root.properties().next().unwrap();
    assert_eq!(key, "root");
    assert!(r.is_bare_ref());
    let node = r.resolved();
    assert_eq!((node.def_name(), node.is_closed()), (Some("Node"), true));
    let children = node.properties().find(|(k, _)| *k == "children").unwrap().1;
    // Recursion: the element's reference leads back to the same node.
    assert_eq!(children.items().unwrap().reference(), Some(node));
    let parent = node.properties().find(|(k, _)| *k == "parent").unwrap().1;
    assert_eq!(parent.reference(), Some(root));

    let mcp = ContractSpec::from_path(data("contracts/mcp/call_tool_result_2025.6.18.json")).unwrap();
    let content = mcp.schema().unwrap().root().properties().find(|(k, _)| *k == "content").unwrap().1;
    let block = content.items().unwrap().resolved();
    let union = block.any_of().expect("anyOf");
    assert_eq!((union.keyword(), union.tag_key()), ("anyOf", Some("type")));
    let tags: Vec<String> = union.tag_values().unwrap().iter().map(|v| v.display()).collect();
    assert_eq!(tags, ["'text'", "'image'", "'audio'", "'resource_link'", "'resource'"]);
    let labels: Vec<Option<&str>> = union.members().map(|m| m.resolved().def_name()).collect();
    assert_eq!(labels[0], Some("TextContent"));
    assert!(fields_form_has_no_schema());

    let mut path = String::new();
    for key in ["params", "_meta", "io.modelcontextprotocol/protocolVersion"] {
        push_key(&mut path, key);
    }
    assert_eq!(path, r#"params._meta["io.modelcontextprotocol/protocolVersion"]"#);
}

fn fields_form_has_no_schema() -> bool {
    let c = ContractSpec::from_path(protocolarc_tests::root().join("contracts/mcp_tool_call_1.0.0.json")).unwrap();
    c.schema().is_none()
}

/// The fields form is described from its lowered graph: its declared fields
/// in contract order (a later field may extend an earlier parent), each with
/// the type it declares (`any`, even with an enum of strings and numbers).
#[test]
fn a_fields_form_is_described_from_its_graph_in_contract_order() {
    let c = ContractSpec::from_slice(
        br#"{"name": "d", "revision": "1.0.0", "fields": [
            {"name": "a.b", "type": "string", "doc": "first"},
            {"name": "<data>.x", "type": "integer", "required": false},
            {"name": "a.c", "type": "any", "enum": [1, "one"]}]}"#,
        "d.json",
    )
    .unwrap();
    assert_eq!(
        cargo_protocolarc::render::describe::text(&c),
        "d@1.0.0\nkind: -, strict: false, 3 fields\n\n  FIELD     TYPE     REQUIRED  CONSTRAINTS\n  a.b       string   required\n      first\n  <data>.x  integer  optional\n  a.c       any      required  enum={1, 'one'}\n"
    );
    // Declared nodes carry their field's `required`; an implied parent none.
    let root = c.graph().root();
    let a = root.properties().find(|(k, _)| *k == "a").unwrap().1;
    assert_eq!(a.field_required(), None);
    let flags: Vec<Option<bool>> = a.properties().map(|(_, n)| n.field_required()).collect();
    assert_eq!(flags, [Some(true), Some(true)]);
    let data = root.properties().find(|(k, _)| *k == "<data>").unwrap().1;
    assert_eq!(data.properties().next().unwrap().1.field_required(), Some(false));
}

/// A key spelled like the root's name is a key: its rows are below it.
#[test]
fn a_key_named_like_the_root_keeps_its_place() {
    let c = ContractSpec::from_slice(
        br#"{"name": "s", "revision": "1.0.0", "schema": {"type": "object",
            "properties": {"<data>": {"type": "object", "properties": {"x": {"type": "integer"}}}}}}"#,
        "s.json",
    )
    .unwrap();
    assert_eq!(c.graph().root().properties().next().unwrap().1.field_required(), None);
    assert!(cargo_protocolarc::render::describe::text(&c).ends_with(
        "  PATH      TYPE     REQUIRED  KEYWORDS\n  <data>    object   -\n  <data>    object   optional\n  <data>.x  integer  optional\n"
    ));
}
