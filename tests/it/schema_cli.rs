//! SPEC §10 from the command line, on real MCP data: `validate`, `diff`,
//! `generate` and `export` on schema-form contracts imported from the
//! official schemas, the fields form's `["key"]` names and `const` on a real
//! MCP 2026-07-28 request, and bad schemas refused with exit 3 and a
//! position. Exact bytes and exit codes.

use protocolarc_tests::{bin, run, run_in, scratch, write_files};

const CALL_TOOL_RESULT: &str = "tests/data/contracts/mcp/call_tool_result_2025.6.18.json";

/// The result of the MCP 2025-06-18 `tools/call` example
/// (`docs/specification/2025-06-18/server/tools.mdx`, line 124; provenance in
/// `tests/data/import/PROVENANCE.md`), then the same with an image block
/// that lacks its `data`, then with an unknown block type.
const RESULTS: &str = concat!(
    r#"{"contract": "mcp.call_tool_result", "data": {"content": [{"type": "text", "text": "Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy"}], "isError": false}}"#,
    "\n",
    r#"{"contract": "mcp.call_tool_result", "data": {"content": [{"type": "text", "text": "x"}, {"type": "image", "mimeType": "image/png"}], "isError": false}}"#,
    "\n",
    r#"{"contract": "mcp.call_tool_result", "data": {"content": [{"type": "video", "url": "x"}]}}"#,
    "\n",
);

#[test]
fn validate_judges_real_results_by_their_tagged_content_blocks() {
    let dir = scratch("schema-cli-validate");
    write_files(&dir, &[("results.jsonl", RESULTS.as_bytes())]);
    let contract = protocolarc_tests::root().join(CALL_TOOL_RESULT);
    let out = run_in(bin!(), &dir, &["validate", contract.to_str().unwrap(), "results.jsonl"]);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            1,
            "[PASS] mcp.call_tool_result@2025.6.18 <- results.jsonl:1\n\
             [FAIL] mcp.call_tool_result@2025.6.18 <- results.jsonl:2\n  \
             ERROR field.required content[1].data: required field is missing\n\
             [FAIL] mcp.call_tool_result@2025.6.18 <- results.jsonl:3\n  \
             ERROR field.enum content[0].type: value 'video' not in {'text', 'image', 'audio', 'resource_link', 'resource'}\n",
            ""
        )
    );
}

/// The `CallToolRequest` example of the MCP 2026-07-28 schema
/// (`schema/2026-07-28/examples/CallToolRequest/call-tool-request.json` of
/// `modelcontextprotocol/modelcontextprotocol` @ b0f60ba5; MIT / Apache-2.0,
/// see `tests/data/import/`): its `_meta` keys hold dots and a slash.
const REQUEST: &str = r#"{"jsonrpc": "2.0", "id": "call-tool-example", "method": "tools/call", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": {"name": "ExampleClient", "version": "1.0.0"}, "io.modelcontextprotocol/clientCapabilities": {}}, "name": "get_weather", "arguments": {"location": "New York"}}}"#;

const FIELDS_CONTRACT: &str = r#"{"name": "mcp.call_tool_request", "revision": "2026.7.28", "closed": true, "fields": [
  {"name": "jsonrpc", "type": "string", "const": "2.0"},
  {"name": "id", "type": ["string", "integer"]},
  {"name": "method", "type": "string", "const": "tools/call"},
  {"name": "params", "type": "object"},
  {"name": "params._meta", "type": "object", "closed": true},
  {"name": "params._meta[\"io.modelcontextprotocol/protocolVersion\"]", "type": "string", "const": "2026-07-28"},
  {"name": "params._meta[\"io.modelcontextprotocol/clientInfo\"].name", "type": "string"},
  {"name": "params._meta[\"io.modelcontextprotocol/clientCapabilities\"]", "type": "object"},
  {"name": "params.name", "type": "string"},
  {"name": "params.arguments", "type": "object", "required": false},
  {"name": "params.arguments{}", "type": ["string", "number", "boolean"]}
]}"#;

#[test]
fn bracketed_names_const_closed_and_maps_judge_a_real_2026_request() {
    let dir = scratch("schema-cli-fields");
    let wrong = REQUEST
        .replace("\"2026-07-28\"", "\"2025-06-18\"")
        .replace("\"location\": \"New York\"", "\"location\": {\"city\": \"New York\"}")
        .replace(
            "\"io.modelcontextprotocol/clientCapabilities\": {}",
            "\"io.modelcontextprotocol/clientCapabilities\": {}, \"x\": 1",
        );
    let envelopes = format!(
        "{{\"contract\": \"mcp.call_tool_request\", \"data\": {REQUEST}}}\n{{\"contract\": \"mcp.call_tool_request\", \"data\": {wrong}}}\n"
    );
    write_files(&dir, &[("c.json", FIELDS_CONTRACT.as_bytes()), ("e.jsonl", envelopes.as_bytes())]);
    let out = run_in(bin!(), &dir, &["validate", "c.json", "e.jsonl"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            1,
            "[PASS] mcp.call_tool_request@2026.7.28 <- e.jsonl:1\n\
             [FAIL] mcp.call_tool_request@2026.7.28 <- e.jsonl:2\n  \
             ERROR field.additionalProperties params._meta.x: key is not allowed: the object is closed (additionalProperties: false)\n  \
             ERROR field.const params._meta[\"io.modelcontextprotocol/protocolVersion\"]: value '2025-06-18' is not '2026-07-28'\n  \
             ERROR field.type params.arguments.location: expected string|number|boolean, found object\n"
        )
    );
}

#[test]
fn diff_classifies_a_schema_change_with_a_witness_and_exits_2() {
    let dir = scratch("schema-cli-diff");
    let old = r#"{"name": "t.s", "revision": "1.0.0", "schema": {"type": "object", "properties": {"a": {"type": "string"}}}}"#;
    let new = r#"{"name": "t.s", "revision": "1.1.0", "schema": {"type": "object", "properties": {"a": {"type": "string", "format": "uri"}}}}"#;
    write_files(&dir, &[("old.json", old.as_bytes()), ("new.json", new.as_bytes())]);
    let out = run_in(bin!(), &dir, &["diff", "old.json", "new.json", "--witnesses"]);
    // "" is no URI (RFC 3986 needs a scheme): 1.0.0 accepts it, 1.1.0 does not.
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            2,
            "t.s: 1.0.0 -> 1.1.0\ncompatibility: BREAKING\n  breaking field.format.tightened a: no format -> format uri\n    witness: {\"a\":\"\"}\n"
        )
    );
}

#[test]
fn a_bad_schema_is_an_input_error_with_its_position() {
    let dir = scratch("schema-cli-bad");
    let bad = "{\"name\": \"t\", \"revision\": \"1.0.0\",\n \"schema\": {\"type\": \"object\", \"propertis\": {}}}";
    write_files(&dir, &[("bad.json", bad.as_bytes())]);
    let out = run_in(bin!(), &dir, &["describe", "bad.json"]);
    assert_eq!(out.code, 3);
    assert!(
        out.stderr.starts_with(
            "error: bad.json:2:31: unsupported keyword 'propertis' at the schema root: did you mean 'properties'?"
        ),
        "{}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
}

#[test]
fn generate_and_export_carry_the_real_call_tool_result() {
    let out = run(bin!(), &["generate", CALL_TOOL_RESULT, "--name", "CallToolResult"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for want in [
        "pub struct CallToolResult {",
        "#[serde(tag = \"type\")]\npub enum ContentBlock {",
        "    Text(TextContent),",
        "    ResourceLink(ResourceLink),",
    ] {
        assert!(out.stdout.contains(want), "{want}");
    }
    let out = run(bin!(), &["export", CALL_TOOL_RESULT]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let schema: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(schema["properties"]["content"]["items"]["$ref"], "#/$defs/ContentBlock");
}
