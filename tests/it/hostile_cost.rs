//! Hostile contracts against the commands' cost (SPEC §15): definitions
//! that each use the next twice, wide objects, wide enums. Each test shows
//! its input is what it claims and asserts the verdict, with the work
//! counted in steps (never in time) where a step counter exists.

use proptest::prelude::*;
use protocolarc::ContractSpec;
use protocolarc_tests::{bin, git, run_in, scratch, write_files};

/// `levels` definitions, each applying the next twice through `how`
/// (`allOf`, `anyOf`, `oneOf`, or `$ref` beside an `allOf`); the last is a
/// string of at most `max` characters. Expanded per use: 2^levels leaves.
pub(super) fn doubling(levels: usize, how: &str, max: usize, revision: &str) -> String {
    let mut defs = Vec::new();
    for k in 0..levels {
        let next = format!(r##"{{"$ref": "#/$defs/L{}"}}"##, k + 1);
        let body = match how {
            "ref" => format!(r##"{{"$ref": "#/$defs/L{}", "allOf": [{next}]}}"##, k + 1),
            union => format!(r#"{{"{union}": [{next}, {next}]}}"#),
        };
        defs.push(format!(r#""L{k}": {body}"#));
    }
    defs.push(format!(r#""L{levels}": {{"type": "string", "maxLength": {max}}}"#));
    format!(
        r##"{{"name": "t.double", "revision": "{revision}", "direction": "request", "schema": {{"$ref": "#/$defs/L0", "$defs": {{{}}}}}}}"##,
        defs.join(", ")
    )
}

fn spec(text: &str) -> ContractSpec {
    ContractSpec::from_slice(text.as_bytes(), "d.json").expect("loads")
}

/// `diff` of two revisions whose definitions double at every level: the
/// same verdict at 12, 24 and 40 levels, and the node pairs compared grow
/// with the levels (at most as their square), not as 2^levels.
#[test]
fn diff_of_doubling_definitions_is_polynomial_in_steps() {
    for how in ["allOf", "anyOf", "oneOf", "ref"] {
        let mut costs = Vec::new();
        for levels in [12, 24, 40] {
            let (old, new) = (doubling(levels, how, 5, "1.0.0"), doubling(levels, how, 3, "2.0.0"));
            assert!(new.len() < 5000, "{how} {levels}: a small contract ({} bytes)", new.len());
            let (a, b) = (spec(&old), spec(&new));
            let d = protocolarc::diff::diff(&a, &b).expect("same name");
            let found: Vec<(&str, &str)> = d.changes().iter().map(|c| (c.rule(), c.field())).collect();
            let want = match how {
                "oneOf" => ("schema.undecided", "<data>"),
                _ => ("field.maxLength.tightened", "<data>"),
            };
            assert_eq!(found, [want], "{how} {levels}");
            assert_eq!(d.compatibility().to_string(), "breaking", "{how} {levels}");
            costs.push(protocolarc::diff::comparison_cost(&a, &b));
        }
        // Per use, 40 levels would be 2^28 times the work of 12. Fresh
        // comparisons (each pair once per nesting depth) grow linearly;
        // the pairs each walks at most with the square of the levels.
        let [(steps12, fresh12), _, (steps40, fresh40)] = costs[..] else { unreachable!() };
        assert!(fresh40 * 12 <= fresh12 * 40 * 2, "{how}: {costs:?}");
        assert!(steps40 * 144 <= steps12 * 1600 * 2, "{how}: {costs:?}");
    }
}

/// The CLI on the 40-level pair: the breaking change, exit 2; `check` on a
/// repository holding both revisions finishes with the semver verdict.
#[test]
fn diff_and_check_finish_on_forty_doubling_levels() {
    let dir = scratch("hostile-cost-check");
    let manifest: &[u8] = b"[workspace]\nmembers = []\n\n[workspace.metadata.protocolarc]\ncontracts = \"contracts\"\n";
    let old = doubling(40, "anyOf", 5, "1.0.0");
    let new = doubling(40, "anyOf", 3, "1.1.0");
    write_files(
        &dir,
        &[
            ("Cargo.toml", manifest),
            ("contracts/d_1.0.0.json", old.as_bytes()),
            ("contracts/d_1.1.0.json", new.as_bytes()),
        ],
    );
    let out = run_in(bin!(), &dir, &["diff", "contracts/d_1.0.0.json", "contracts/d_1.1.0.json"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            2,
            "t.double: 1.0.0 -> 1.1.0\ncompatibility: BREAKING\n  breaking field.maxLength.tightened <data>: maxLength 5 \
             -> maxLength 3 (in member 'L40') (no witness found)\n"
        ),
        "{}",
        out.stderr
    );
    git(&dir, &["init", "-q"]);
    assert_eq!(run_in(bin!(), &dir, &["lock"]).code, 0);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "both"]);
    let out = run_in(bin!(), &dir, &["check"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            1,
            "error[revision.bump.insufficient] contracts/d_1.1.0.json:1: t.double@1.1.0: 1.0.0 -> 1.1.0 is breaking \
             (field.maxLength.tightened <data>), which needs a major bump; found a minor bump\ncheck: 1 problem\n"
        ),
        "{}",
        out.stderr
    );
}

/// `loss` on contracts that load reports their loss, never exit 3: a
/// 63-deep `anyOf` (the deepest nesting the reader takes).
#[test]
fn loss_reports_on_the_deepest_anyof_that_loads() {
    let dir = scratch("hostile-cost-loss-deep");
    let mut schema = r#"{"type": "string"}"#.to_string();
    for _ in 0..63 {
        schema = format!(r#"{{"anyOf": [{schema}, {{"type": "null"}}]}}"#);
    }
    let text = format!(r#"{{"name": "t.d", "revision": "1.0.0", "direction": "request", "schema": {schema}}}"#);
    assert_eq!(text.matches("anyOf").count(), 63);
    spec(&text);
    write_files(&dir, &[("d.json", text.as_bytes())]);
    let out = run_in(bin!(), &dir, &["loss", "d.json", "--to", "openai"]);
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (
            0,
            "t.d -> openai: 1 minor\n  minor   field.type.narrowed <data>: any -> object\nloss: 1 tool(s) into openai: 0 blocker, 0 major, 1 minor\n",
            ""
        )
    );
}

/// `generate` on 100,000 properties with 50,000 required: each property's
/// required-ness looked up once (by hash), so every field is written, the
/// required ones as values, the others optional.
#[test]
fn generate_writes_a_hundred_thousand_fields_with_the_right_requiredness() {
    let dir = scratch("hostile-cost-generate-wide");
    let props: Vec<String> = (0..100_000).map(|i| format!(r#""p{i}": {{"type": "string"}}"#)).collect();
    let required: Vec<String> = (0..50_000).map(|i| format!(r#""p{}""#, i * 2)).collect();
    let text = format!(
        r#"{{"name": "t.w", "revision": "1.0.0", "schema": {{"type": "object", "properties": {{{}}}, "required": [{}]}}}}"#,
        props.join(","),
        required.join(",")
    );
    let loaded = spec(&text);
    let root = loaded.schema().expect("schema form").root();
    assert_eq!((root.properties().count(), root.required().count()), (100_000, 50_000));
    write_files(&dir, &[("w.json", text.as_bytes())]);
    let out = run_in(bin!(), &dir, &["generate", "w.json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value = out.stdout.matches(": ::std::string::String,\n").count();
    let optional = out.stdout.matches(": ::std::option::Option<::std::string::String>,\n").count();
    assert_eq!((value, optional), (50_000, 50_000));
    assert!(out.stdout.contains("    /// `p0`, required.\n    pub p0: ::std::string::String,\n"));
    assert!(out.stdout.contains("    pub p99999: ::std::option::Option<::std::string::String>,\n"));
    assert_eq!(out.stdout.matches("`, required.\n").count(), 50_000);
}

/// `describe` on the same wide object: the required keys it declares no
/// property for are found by hash (one here, `extra`).
#[test]
fn describe_finds_undeclared_required_keys_of_a_wide_object() {
    let dir = scratch("hostile-cost-describe-wide");
    let props: Vec<String> = (0..100_000).map(|i| format!(r#""p{i}": {{"type": "string"}}"#)).collect();
    let mut required: Vec<String> = (0..50_000).map(|i| format!(r#""p{}""#, i * 2)).collect();
    required.push(r#""extra""#.into());
    let text = format!(
        r#"{{"name": "t.w", "revision": "1.0.0", "schema": {{"type": "object", "properties": {{{}}}, "required": [{}]}}}}"#,
        props.join(","),
        required.join(",")
    );
    write_files(&dir, &[("w.json", text.as_bytes())]);
    let out = run_in(bin!(), &dir, &["describe", "w.json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.matches("requires 'extra'").count(), 1, "{}", &out.stdout[..400]);
    assert_eq!(out.stdout.lines().filter(|l| l.contains("requires")).count(), 1);
}

/// `diff` of two 200,000-value enums (one value dropped, one added): the
/// two changes, each naming the one value.
#[test]
fn diff_of_two_wide_enums_names_the_values_that_changed() {
    let values = |skip: usize, extra: &str| -> String {
        let mut all: Vec<String> = (skip..200_000).map(|i| format!(r#""v{i}""#)).collect();
        if !extra.is_empty() {
            all.push(format!(r#""{extra}""#));
        }
        assert_eq!(all.len(), 200_000);
        all.join(",")
    };
    let contract = |revision: &str, list: String| {
        format!(
            r#"{{"name": "t.e", "revision": "{revision}", "direction": "request", "schema": {{"type": "object", "properties": {{"e": {{"enum": [{list}]}}}}}}}}"#
        )
    };
    let (a, b) = (spec(&contract("1.0.0", values(0, ""))), spec(&contract("2.0.0", values(1, "w"))));
    let d = protocolarc::diff::diff(&a, &b).expect("same name");
    let found: Vec<(&str, &str, &str, Option<&str>)> =
        d.changes().iter().map(|c| (c.rule(), c.field(), c.message(), c.witness())).collect();
    assert_eq!(
        found,
        [
            ("field.enum.restricted", "e", "dropped {'v0'}", Some(r#"{"e":"v0"}"#)),
            ("field.enum.expanded", "e", "added {'w'}", None)
        ]
    );
}

/// `export` and `generate` on doubling definitions write each definition
/// once, where it is defined: exit 0, the same lines at 40 levels whatever
/// the applicator's use, and each ten levels more add the same number of
/// lines (per use, ten levels would multiply the output by 1,024).
#[test]
fn export_and_generate_write_doubling_definitions_once_each() {
    let dir = scratch("hostile-cost-export-generate");
    // (applicator, export lines, generate lines) at 40 levels.
    let want = [("allOf", 410, 51), ("anyOf", 410, 2332), ("oneOf", 410, 2652), ("ref", 330, 51)];
    for (how, export_lines, generate_lines) in want {
        let mut lines = Vec::new();
        for levels in [20, 30, 40] {
            let text = doubling(levels, how, 3, "1.0.0");
            assert!(text.len() < 5000, "{how} {levels}: a small contract ({} bytes)", text.len());
            assert_eq!(text.matches(r##""$ref": "#/$defs/L"##).count(), 2 * levels + 1, "{how} {levels}");
            write_files(&dir, &[("d.json", text.as_bytes())]);
            let export = run_in(bin!(), &dir, &["export", "d.json"]);
            assert_eq!((export.code, export.stderr.as_str()), (0, ""), "{how} {levels}");
            let doc: serde_json::Value = serde_json::from_str(&export.stdout).expect("JSON");
            let defs = doc["$defs"].as_object().expect("the definitions, kept");
            assert_eq!(defs.len(), levels + 1, "{how} {levels}: each definition once");
            assert_eq!(export.stdout.matches(r##""$ref": "#/$defs/L"##).count(), 2 * levels + 1, "{how} {levels}");
            let generate = run_in(bin!(), &dir, &["generate", "d.json"]);
            assert_eq!((generate.code, generate.stderr.as_str()), (0, ""), "{how} {levels}");
            assert!(generate.stdout.len() < 100_000, "{how} {levels}: {} bytes", generate.stdout.len());
            let types = ["pub enum ", "pub struct ", "pub type "];
            let items = generate.stdout.lines().filter(|l| types.iter().any(|t| l.starts_with(t))).count();
            assert!(items <= levels + 2, "{how} {levels}: {items} types");
            lines.push((export.stdout.lines().count(), generate.stdout.lines().count()));
        }
        let [(e20, g20), (e30, g30), (e40, g40)] = lines[..] else { unreachable!() };
        assert_eq!((e40, g40), (export_lines, generate_lines), "{how}: {lines:?}");
        assert_eq!((e40 - e30, g40 - g30), (e30 - e20, g30 - g20), "{how}: linear in the levels: {lines:?}");
    }
}

/// One definition of a random contract with shared references: `Lk`
/// uses only later definitions, so the graph is acyclic but any definition
/// may be reached along many paths.
#[derive(Debug, Clone)]
enum Def {
    /// A string of at most this many characters.
    Leaf(u8),
    /// An object whose `a` and `b` are the two definitions (offsets ahead).
    Object(u8, u8),
    /// A combinator (`allOf`, `anyOf`, `oneOf`, `$ref` beside `allOf`) of the two.
    Applies(&'static str, u8, u8),
}

fn def() -> impl Strategy<Value = Def> {
    prop_oneof![
        (0u8..4).prop_map(Def::Leaf),
        (1u8..4, 1u8..4).prop_map(|(a, b)| Def::Object(a, b)),
        (prop::sample::select(vec!["allOf", "anyOf", "oneOf", "ref"]), 1u8..4, 1u8..4)
            .prop_map(|(k, a, b)| Def::Applies(k, a, b)),
    ]
}

/// The contract text of `defs` (a reference past the last definition
/// names the last, a string).
fn shared(defs: &[Def], revision: &str) -> String {
    let last = defs.len();
    let to = |k: usize, ahead: u8| format!(r##"{{"$ref": "#/$defs/L{}"}}"##, (k + ahead as usize).min(last));
    let mut out = Vec::new();
    for (k, d) in defs.iter().enumerate() {
        let body = match d {
            Def::Leaf(n) => format!(r#"{{"type": "string", "maxLength": {n}}}"#),
            Def::Object(a, b) => {
                format!(r#"{{"type": "object", "properties": {{"a": {}, "b": {}}}}}"#, to(k, *a), to(k, *b))
            }
            Def::Applies("ref", a, b) => {
                format!(r##"{{"$ref": "#/$defs/L{}", "allOf": [{}]}}"##, (k + *a as usize).min(last), to(k, *b))
            }
            Def::Applies(how, a, b) => format!(r#"{{"{how}": [{}, {}]}}"#, to(k, *a), to(k, *b)),
        };
        out.push(format!(r#""L{k}": {body}"#));
    }
    out.push(format!(r#""L{last}": {{"type": "string"}}"#));
    format!(
        r##"{{"name": "t.shared", "revision": "{revision}", "direction": "request", "schema": {{"$ref": "#/$defs/L0", "$defs": {{{}}}}}}}"##,
        out.join(", ")
    )
}

/// A JSON value `depth` deep: objects of `a` and `b`, strings at the leaves.
fn body() -> impl Strategy<Value = serde_json::Value> {
    let leaf = "[a-c]{0,5}".prop_map(serde_json::Value::from);
    leaf.prop_recursive(6, 64, 2, |inner| (inner.clone(), inner).prop_map(|(a, b)| serde_json::json!({"a": a, "b": b})))
}

/// The JSON values in `v`, itself included.
fn values(v: &serde_json::Value) -> usize {
    1 + v.as_object().map_or(0, |o| o.values().map(values).sum())
}

proptest! {
    #![proptest_config(crate::strategies::config(200))]

    /// Random contracts with shared references validate, describe and diff
    /// within a step budget proportional to their size: a (node, value)
    /// pair visited a bounded number of times, a description within its
    /// row budget or refused at it, a diff's node pairs bounded by the pairs
    /// of nodes times the nesting depths. Expanded per use, a chain of
    /// doubling definitions passes each budget.
    #[test]
    fn shared_references_cost_steps_proportional_to_size(
        defs in prop::collection::vec(def(), 1..16),
        data in body(),
        tighter in 0usize..16,
    ) {
        let text = shared(&defs, "1.0.0");
        let spec = ContractSpec::from_slice(text.as_bytes(), "s.json").expect("an acyclic contract loads");
        let nodes = text.matches('{').count();
        let bytes = serde_json::to_vec(&data).unwrap();
        let (report, steps) = spec.validate_json_counted(&bytes).expect("schema form");
        prop_assert_eq!(report.is_valid(), spec.validate_json(&bytes).is_valid());
        prop_assert!(steps <= 4 * nodes * values(&data), "{} steps, {} nodes, {} values", steps, nodes, values(&data));

        match cargo_protocolarc::render::describe::within_budget(&spec) {
            Ok(()) => {
                let rows = cargo_protocolarc::render::describe::text(&spec).lines().count();
                prop_assert!(rows <= (8 * nodes).max(100_000) + 8, "{} rows", rows);
            }
            Err(e) => prop_assert!(e.contains("the description expands past"), "{}", e),
        }

        // The new revision tightens one leaf (or none): still a diff to walk.
        let mut changed = defs.clone();
        if let Some(Def::Leaf(n)) = changed.get_mut(tighter % defs.len()) {
            *n = n.saturating_sub(1);
        }
        let new = ContractSpec::from_slice(shared(&changed, "2.0.0").as_bytes(), "n.json").expect("loads");
        protocolarc::diff::diff(&spec, &new).expect("same name");
        let (pairs, fresh) = protocolarc::diff::comparison_cost(&spec, &new);
        prop_assert!(pairs <= 9 * nodes * nodes + 16, "{} pairs compared, {} nodes", pairs, nodes);
        prop_assert!(fresh <= 9 * nodes * nodes, "{} fresh comparisons", fresh);
    }
}
