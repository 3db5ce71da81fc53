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
