//! Loss across formats on the bundled real tool
//! snapshots (`protocols/tools-list/`): the honesty checks (every major
//! loss has a witness the projection accepts and the original rejects,
//! checked with ProtocolArc's validator and with the `jsonschema` crate;
//! MCP to MCP loses nothing; A2A is a blocker for every tool), the
//! committed matrix in `docs/`, and the command's options and exit codes.

use std::path::PathBuf;

use protocolarc::{ContractDirection, ContractSpec};
use protocolarc_interop::import;
use protocolarc_interop::loss::{self, Format, Kind, Severity, Status, Tool};
use protocolarc_tests::{bin, root, run_in, scratch, write_files, Output};
use serde_json::Value;

fn cli(args: &[&str]) -> Output {
    run_in(bin!(), &root(), args)
}

fn captures() -> Vec<PathBuf> {
    let dir = root().join("protocols/tools-list");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("protocols/tools-list")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    out.sort();
    out
}

/// Every request tool of every bundled capture.
fn tools() -> Vec<Tool> {
    let mut out = Vec::new();
    for path in captures() {
        let doc: Value = serde_json::from_slice(&std::fs::read(&path).expect("capture")).expect("JSON");
        let (contracts, _) = import::tools_list_contracts(&doc, "s", "1.0.0").expect("imports");
        for (_, c) in contracts {
            let text = import::render(&c);
            let spec = ContractSpec::from_slice(text.as_bytes(), "capture").expect("loads");
            if spec.direction() == ContractDirection::Request {
                out.push(Tool::from_contract(text.as_bytes(), &spec).expect("crosses"));
            }
        }
    }
    out
}

fn reference(schema: &Value) -> jsonschema::Validator {
    jsonschema::options().should_validate_formats(true).build(schema).expect("the reference compiles")
}

fn ours(t: &Tool, schema: &Value) -> ContractSpec {
    let doc = serde_json::json!({ "name": t.name, "revision": t.revision, "schema": schema });
    ContractSpec::from_slice(doc.to_string().as_bytes(), "projection").expect("the projection loads")
}

#[test]
fn every_major_loss_on_the_real_tools_has_a_witness_both_validators_confirm() {
    let tools = tools();
    assert_eq!(tools.len(), 153, "the bundled captures' request tools");
    let (mut majors, mut checked) = (0, 0);
    for t in &tools {
        let original = t.schema.as_ref().expect("a schema");
        let (our_original, ref_original) = (ours(t, original), reference(original));
        for f in [Format::OpenAi, Format::OpenAiStrict, Format::Anthropic, Format::Gemini] {
            let hop = loss::hop(t, f).expect("projects");
            let kept = hop.kept.schema.as_ref().expect("a schema-carrying format keeps a schema");
            let (our_kept, ref_kept) = (ours(t, kept), reference(kept));
            for l in &hop.losses {
                if l.severity == Severity::Major {
                    majors += 1;
                    assert_eq!(l.kind, Kind::Relaxed, "{} {f}: {l:?}", t.name);
                }
                let Some(w) = &l.witness else {
                    assert_ne!(l.severity, Severity::Major, "{} {f}: a major loss without a witness: {l:?}", t.name);
                    continue;
                };
                let body: Value = serde_json::from_str(w).expect("a witness is JSON");
                assert!(our_kept.validate_json(w.as_bytes()).is_valid(), "{} {f}: the projection rejects {w}", t.name);
                assert!(ref_kept.is_valid(&body), "{} {f}: jsonschema: the projection rejects {w}", t.name);
                assert!(!our_original.validate_json(w.as_bytes()).is_valid(), "{} {f}: the tool accepts {w}", t.name);
                assert!(!ref_original.is_valid(&body), "{} {f}: jsonschema: the tool accepts {w}", t.name);
                checked += 1;
            }
        }
    }
    // The matrix's 359 major losses, each with its witness (and no other loss has one).
    assert_eq!((majors, checked), (359, 359));
}

#[test]
fn mcp_to_mcp_loses_nothing_on_any_real_tool() {
    for t in tools() {
        let hop = loss::hop(&t, Format::Mcp).expect("projects");
        assert_eq!(hop.status, Status::Carried);
        assert_eq!(hop.losses, Vec::new(), "{}", t.name);
        assert_eq!(hop.kept.schema, t.schema, "{}: MCP keeps the schema as written", t.name);
    }
}

#[test]
fn a2a_is_a_blocker_for_every_real_tool_and_a_later_hop_has_nothing_left() {
    for t in tools() {
        let p = loss::path(&t, &[Format::A2a, Format::Anthropic]).expect("carries");
        assert_eq!(p.hops[0].status, Status::Destroyed, "{}", t.name);
        let rules: Vec<&str> = p.hops[0].losses.iter().map(|l| l.rule.as_str()).collect();
        assert_eq!(rules, [loss::SCHEMA_ABSENT], "{}", t.name);
        assert_eq!(p.hops[0].losses[0].severity, Severity::Blocker);
        assert_eq!(p.hops[0].artifact["id"], t.name.as_str());
        assert!(p.hops[0].artifact.get("inputSchema").is_none() && p.hops[0].artifact.get("input_schema").is_none());
        // The hop after the blocker is not a clean hop: it was handed nothing.
        assert_eq!(p.hops[1].status, Status::NothingLeft(1), "{}", t.name);
        assert!(p.hops[1].artifact.is_null());
        assert_eq!(p.overall, p.hops[0].losses);
    }
}

/// The matrix in `docs/loss-matrix.md` is the command's output, byte for
/// byte, below its introduction.
#[test]
fn the_committed_matrix_is_what_the_command_prints() {
    let out = cli(&["loss", "--matrix", "--format", "markdown"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc = std::fs::read_to_string(root().join("docs/loss-matrix.md")).expect("docs/loss-matrix.md");
    let marker = "<!-- generated: cargo protocolarc loss --matrix --format markdown -->\n";
    let (_, generated) = doc.split_once(marker).expect("the marker line");
    assert_eq!(generated, out.stdout, "regenerate the part below the marker of docs/loss-matrix.md");
}

#[test]
fn fail_on_names_the_severity_that_fails_the_run() {
    let fetch = "protocols/tools-list/mcp-proxy-snapshot-mcp-server-fetch.json";
    let strict = cli(&["loss", fetch, "--to", "openai-strict", "--fail-on", "major"]);
    assert_eq!(strict.code, 1, "{}", strict.stdout);
    let strict_blocker = cli(&["loss", fetch, "--to", "openai-strict", "--fail-on", "blocker"]);
    assert_eq!(strict_blocker.code, 0, "{}", strict_blocker.stdout);
    let a2a = cli(&["loss", fetch, "--to", "a2a", "--fail-on", "blocker"]);
    assert_eq!(a2a.code, 1);
    let mcp = cli(&["loss", fetch, "--to", "mcp", "--fail-on", "major"]);
    assert_eq!((mcp.code, mcp.stdout.as_str()), (0, "mcp-proxy-snapshot-mcp-server-fetch.fetch -> mcp: intact\nloss: 1 tool(s) into mcp: 0 blocker, 0 major, 0 minor\n"));
}

#[test]
fn text_output_names_each_loss_and_its_witness() {
    let out = cli(&["loss", "protocols/tools-list/mcp-proxy-snapshot-mcp-server-fetch.json", "--to", "gemini"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "mcp-proxy-snapshot-mcp-server-fetch.fetch -> gemini: 3 major\n\
         \x20 major   field.maximum.relaxed max_length: exclusiveMaximum 1000000 -> (none)\n\
         \x20         witness (the target accepts, the tool rejects): {\"url\":\"https://example.com\",\"max_length\":1000000}\n\
         \x20 major   field.minimum.relaxed max_length: exclusiveMinimum 0 -> (none)\n\
         \x20         witness (the target accepts, the tool rejects): {\"url\":\"https://example.com\",\"max_length\":0}\n\
         \x20 major   field.format.relaxed url: format uri -> no format\n\
         \x20         witness (the target accepts, the tool rejects): {\"url\":\"x\"}\n\
         loss: 1 tool(s) into gemini: 0 blocker, 3 major, 0 minor\n"
    );
}

#[test]
fn a_chain_reports_each_hop_and_the_whole_path() {
    let out = cli(&[
        "loss",
        "protocols/tools-list/agent-loss-map-deepwiki-mcp.capture.json",
        "--chain",
        "mcp,a2a,anthropic,openai",
        "--format",
        "json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("{\n  \"format_version\": 1,\n"), "{}", out.stdout);
    let doc: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    let keys: Vec<&String> = doc.as_object().expect("an object").keys().collect();
    assert_eq!(keys, ["direction", "format_version", "formats", "matrix", "mode", "most_common", "sources", "summary"]);
    assert_eq!(doc["mode"], "chain");
    let paths = doc["sources"][0]["paths"].as_array().expect("paths");
    assert_eq!(paths.len(), 3, "three DeepWiki tools");
    for p in paths {
        let status: Vec<&str> = p["hops"].as_array().unwrap().iter().map(|h| h["status"].as_str().unwrap()).collect();
        assert_eq!(status, ["carried", "destroyed", "nothing-left", "nothing-left"]);
        assert_eq!(p["hops"][2]["lost_at_hop"], 2);
        assert_eq!(p["overall"]["counts"], serde_json::json!({ "blocker": 1, "major": 0, "minor": 0 }));
    }
}

#[test]
fn a_fields_form_contract_crosses_too() {
    let out = cli(&["loss", "contracts/mcp_tool_call_1.1.0.json", "--to", "openai-strict", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let hop = &doc["sources"][0]["paths"][0]["hops"][0];
    let majors: Vec<(&str, &str, &str)> = hop["losses"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["severity"] == "major")
        .map(|l| (l["rule"].as_str().unwrap(), l["field"].as_str().unwrap(), l["witness"].as_str().unwrap()))
        .collect();
    assert_eq!(
        majors,
        [
            (
                "field.type.widened",
                "params.arguments",
                r#"{"id":"","jsonrpc":"2.0","method":"tools/call","params":{"name":"","timeout_ms":0,"arguments":null}}"#
            ),
            (
                "field.type.widened",
                "params.timeout_ms",
                r#"{"id":"","jsonrpc":"2.0","method":"tools/call","params":{"arguments":{},"name":"","timeout_ms":null}}"#
            ),
        ]
    );
    // The witness really is accepted by the projection and rejected by the contract.
    let bytes = std::fs::read(root().join("contracts/mcp_tool_call_1.1.0.json")).unwrap();
    let contract = ContractSpec::from_slice(&bytes, "mcp_tool_call_1.1.0.json").unwrap();
    let kept = hop["artifact"]["function"]["parameters"].clone();
    let t = Tool::from_contract(&bytes, &contract).unwrap();
    for (_, _, w) in &majors {
        assert!(!contract.validate_json(w.as_bytes()).is_valid());
        assert!(ours(&t, &kept).validate_json(w.as_bytes()).is_valid());
    }
}

#[test]
fn bad_input_is_an_input_error() {
    let dir = scratch("loss-bad");
    write_files(&dir, &[("bad.json", b"{\"tools\": 1}"), ("broken.json", b"{\"name\": ")]);
    let unknown = run_in(bin!(), &dir, &["loss", "bad.json", "--to", "bedrock"]);
    assert_eq!(unknown.code, 3);
    assert!(
        unknown
            .stderr
            .contains("--to: unknown format 'bedrock' (known: mcp, openai, openai-strict, anthropic, gemini, a2a)"),
        "{}",
        unknown.stderr
    );
    let not_tools = run_in(bin!(), &dir, &["loss", "bad.json"]);
    assert_eq!(not_tools.code, 3);
    assert!(not_tools.stderr.contains("bad.json:1:"), "{}", not_tools.stderr);
    let broken = run_in(bin!(), &dir, &["loss", "broken.json"]);
    assert_eq!(broken.code, 3);
    assert!(broken.stderr.contains("broken.json:1:"), "{}", broken.stderr);
    write_files(
        &dir,
        &[(
            "typo.json",
            b"{\"name\": \"t.x\", \"revision\": \"1.0.0\",\n \"schema\": {\"type\": \"object\", \"propertees\": {}}}\n",
        )],
    );
    let typo = run_in(bin!(), &dir, &["loss", "typo.json"]);
    assert_eq!(typo.code, 3);
    assert!(
        typo.stderr.starts_with(
            "error: typo.json:2:31: unsupported keyword 'propertees' at the schema root: did you mean 'properties'?"
        ),
        "{}",
        typo.stderr
    );
    let one_hop = run_in(bin!(), &dir, &["loss", "bad.json", "--chain", "mcp"]);
    assert_eq!(one_hop.code, 3);
    assert!(one_hop.stderr.contains("--chain needs at least two formats"), "{}", one_hop.stderr);
}

#[test]
fn the_dialect_tables_cite_their_sources() {
    let out = cli(&["loss", "--dialects"]);
    assert_eq!(out.code, 0);
    for url in [
        "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
        "https://ai.google.dev/api/caching#Schema",
        "https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use",
        "https://github.com/a2aproject/A2A/blob/v0.3.0/specification/json/a2a.json",
    ] {
        assert!(out.stdout.contains(url), "{url}");
    }
    assert!(
        out.stdout.contains("  oneOf                  as anyOf               [so] only anyOf is supported"),
        "{}",
        out.stdout
    );
    // The rules only `loss` reports are records `rules` explains.
    for id in [loss::SCHEMA_ABSENT, loss::ANNOTATION_DROPPED] {
        let explained = cli(&["rules", id]);
        assert_eq!(explained.code, 0, "{id}: {}", explained.stderr);
        assert!(explained.stdout.starts_with(&format!("{id} [loss]\n")), "{}", explained.stdout);
    }
}
