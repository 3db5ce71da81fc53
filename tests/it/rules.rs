//! Every validation rule of SPEC §4: an envelope that triggers it, with the
//! exact severity, rule, field and message, and one that does not. The
//! envelopes are the bundled fixtures `contracts/fixtures/rules/<rule>.jsonl`
//! (line 1 passes, the lines after it fail), so the docs' examples are the
//! tests' inputs.

use std::path::PathBuf;

use protocolarc::envelope::{read_file, EnvelopeFile};
use protocolarc::{Catalog, ContractSpec, Envelope, InputError, Report, Severity};
use protocolarc_tests::root;

fn catalog() -> Catalog {
    Catalog::load(&[root().join("contracts")]).expect("bundled contracts load")
}

fn envelopes(rule: &str) -> Vec<Envelope> {
    let path = root().join(format!("contracts/fixtures/rules/{rule}.jsonl"));
    let file = EnvelopeFile { path, label: format!("{rule}.jsonl") };
    let mut out = Vec::new();
    read_file(&file, |e| {
        out.push(e);
        Ok::<(), InputError>(())
    })
    .expect("fixture reads");
    out
}

type Row<'a> = (&'a str, &'a str, &'a str, &'a str);

fn rows(report: &Report) -> Vec<(String, String, String, String)> {
    report
        .findings()
        .iter()
        .map(|f| (f.severity().to_string(), f.rule().to_string(), f.field().to_string(), f.message().to_string()))
        .collect()
}

fn owned(expect: &[Row<'_>]) -> Vec<(String, String, String, String)> {
    expect.iter().map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string())).collect()
}

/// Line 1 of the rule's fixture passes with no finding; the next lines give
/// exactly `fails` (one list per line).
fn check(rule: &str, fails: &[&[Row<'_>]]) {
    let catalog = catalog();
    let envs = envelopes(rule);
    assert_eq!(envs.len(), 1 + fails.len(), "{rule}: fixture line count");
    let judge = |e: &Envelope| {
        let c = catalog.for_envelope(e.contract(), e.revision()).expect("fixture targets a bundled contract");
        c.validate_envelope(e)
    };
    let pass = judge(&envs[0]);
    assert_eq!(rows(&pass), owned(&[]), "{rule}: line 1 must pass with no finding");
    for (e, want) in envs[1..].iter().zip(fails) {
        let report = judge(e);
        assert_eq!(rows(&report), owned(want), "{rule}: {}", e.source());
        let errors = want.iter().any(|w| w.0 == "error");
        assert_eq!(report.is_valid(), !errors, "{rule}: errors fail, warnings do not");
    }
}

#[test]
fn revision_hint() {
    check(
        "revision.hint",
        &[&[("warning", "revision.hint", "<envelope>", "envelope declares revision 0.9.0, contract is 1.0.0")]],
    );
}

#[test]
fn field_required() {
    check("field.required", &[&[("error", "field.required", "params.maxTokens", "required field is missing")]]);
}

#[test]
fn field_type_on_a_field_and_on_an_implied_parent() {
    check(
        "field.type",
        &[
            &[("error", "field.type", "id", "expected string|integer, found boolean")],
            &[("error", "field.type", "params", "expected object, found string")],
        ],
    );
}

#[test]
fn field_enum_inside_array_elements() {
    check(
        "field.enum",
        &[&[("error", "field.enum", "params.messages[0].role", "value 'system' not in {'user', 'assistant'}")]],
    );
}

#[test]
fn field_minimum() {
    check(
        "field.minimum",
        &[&[("error", "field.minimum", "params.modelPreferences.costPriority", "value -0.5 is less than minimum 0")]],
    );
}

#[test]
fn field_maximum() {
    check(
        "field.maximum",
        &[&[("error", "field.maximum", "params.modelPreferences.costPriority", "value 1.5 is greater than maximum 1")]],
    );
}

#[test]
fn field_exclusive_minimum() {
    check(
        "field.exclusiveMinimum",
        &[&[("error", "field.exclusiveMinimum", "params.maxTokens", "value 0 is not greater than exclusiveMinimum 0")]],
    );
}

#[test]
fn field_exclusive_maximum() {
    check(
        "field.exclusiveMaximum",
        &[&[("error", "field.exclusiveMaximum", "params.temperature", "value 2 is not less than exclusiveMaximum 2")]],
    );
}

#[test]
fn field_multiple_of_on_decimals() {
    check(
        "field.multipleOf",
        &[&[("error", "field.multipleOf", "params.temperature", "value 0.705 is not a multiple of 0.01")]],
    );
}

#[test]
fn field_min_length_on_an_array_element() {
    check(
        "field.minLength",
        &[&[("error", "field.minLength", "params.stopSequences[1]", "length 0 is less than minLength 1")]],
    );
}

#[test]
fn field_max_length_in_nested_array_objects() {
    check(
        "field.maxLength",
        &[&[(
            "error",
            "field.maxLength",
            "params.modelPreferences.hints[1].name",
            "length 65 is greater than maxLength 64",
        )]],
    );
}

#[test]
fn field_pattern() {
    check(
        "field.pattern",
        &[&[(
            "error",
            "field.pattern",
            "params.message.messageId",
            "value 'msg-0001' does not match pattern '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'",
        )]],
    );
}

#[test]
fn field_min_items() {
    check(
        "field.minItems",
        &[&[("error", "field.minItems", "params.messages", "array has 0 items, fewer than minItems 1")]],
    );
}

#[test]
fn field_max_items() {
    check(
        "field.maxItems",
        &[&[("error", "field.maxItems", "params.stopSequences", "array has 5 items, more than maxItems 4")]],
    );
}

#[test]
fn field_unique_items() {
    check(
        "field.uniqueItems",
        &[&[("error", "field.uniqueItems", "params.configuration.acceptedOutputModes", "items 0 and 2 are equal")]],
    );
}

#[test]
fn field_unknown_is_a_warning() {
    check("field.unknown", &[&[("warning", "field.unknown", "trace", "key is not declared by the strict contract")]]);
}

#[test]
fn json_duplicate_key() {
    check(
        "json.duplicate_key",
        &[&[("error", "json.duplicate_key", "id", "key appears more than once in its object")]],
    );
}

#[test]
fn json_depth() {
    let field = format!("params.metadata{}", ".n".repeat(126));
    check("json.depth", &[&[("error", "json.depth", &field, "objects and arrays nest deeper than 128 levels")]]);
}

#[test]
fn contract_match() {
    let c = ContractSpec::from_path(root().join("contracts/mcp_tool_call_1.1.0.json")).unwrap();
    let env = Envelope::new(
        "t:1",
        "mcp.tool_call",
        None,
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#.to_vec(),
    );
    assert_eq!(rows(&c.validate_envelope(&env)), owned(&[]));
    let other = Envelope::new("t:2", "a2a.task_send", Some("1.1.0".into()), env.data().to_vec());
    assert_eq!(
        rows(&c.validate_envelope(&other)),
        owned(&[("error", "contract.match", "<envelope>", "envelope targets 'a2a.task_send', not 'mcp.tool_call'")])
    );
}

#[test]
fn every_rule_has_a_fixture_or_a_test() {
    // contract.match cannot occur in the default run (each fixture is checked
    // against the contract it names) and json.syntax cannot occur in a file
    // that parses; both are covered above and in tests/api.rs.
    let dir = root().join("contracts/fixtures/rules");
    for rule in protocolarc::rules::VALIDATION_RULES {
        let fixture: PathBuf = dir.join(format!("{}.jsonl", rule.id));
        // The schema form's rules: one exact case each in `schema_form.rs`.
        let schema_form = crate::schema_form::RULE_CASES.iter().any(|(id, ..)| *id == rule.id);
        // The traffic rules judge raw JSON-RPC lines, not envelopes: `traffic.rs`.
        let traffic = protocolarc::traffic::TRAFFIC_RULES.iter().any(|r| r.id == rule.id);
        // The pinned-tool rules judge a live tools/list: `proxy.rs`.
        let proxy = ["tool.changed", "tool.unpinned"].contains(&rule.id);
        let covered_elsewhere =
            ["contract.match", "json.syntax", "data.envelope"].contains(&rule.id) || schema_form || traffic || proxy;
        assert!(fixture.is_file() || covered_elsewhere, "no fixture for {}", rule.id);
    }
}

#[test]
fn severities_follow_the_rule_table() {
    for rule in protocolarc::rules::VALIDATION_RULES {
        let want = if ["revision.hint", "field.unknown", "data.envelope", "route.id", "route.tool", "route.ambiguous"]
            .contains(&rule.id)
        {
            Severity::Warning
        } else {
            Severity::Error
        };
        assert_eq!(rule.severity, want, "{}", rule.id);
    }
}
