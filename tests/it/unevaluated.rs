//! `unevaluatedProperties`, `unevaluatedItems` and `$dynamicRef` in the
//! schema form (SPEC §10): the exact findings of each, the first-fault
//! check (what generated code hands these nodes over to) agreeing with the
//! report on every suite instance, the generated code handing them over,
//! the diff judging a change in or beside them `schema.undecided`, and
//! export writing them back.

use protocolarc::diff::{diff, Impact};
use protocolarc::ContractSpec;

fn contract(schema: &str) -> ContractSpec {
    let doc = format!(r#"{{"name": "t.u", "revision": "1.0.0", "schema": {schema}}}"#);
    ContractSpec::from_slice(doc.as_bytes(), "u.json").unwrap_or_else(|e| panic!("{schema}: {e}"))
}

/// `(rule, field, message)` of every finding of `data`, after checking that
/// the first-fault check agrees with the report.
fn findings(c: &ContractSpec, data: &str) -> Vec<(String, String, String)> {
    let report = c.validate_json(data.as_bytes());
    assert_eq!(c.passes(data.as_bytes()), report.is_valid(), "{data}");
    report.findings().iter().map(|f| (f.rule().to_string(), f.field().to_string(), f.message().to_string())).collect()
}

fn one(rule: &str, field: &str, message: &str) -> Vec<(String, String, String)> {
    vec![(rule.to_string(), field.to_string(), message.to_string())]
}

const NOT_EVALUATED: &str = "key is not allowed: no keyword evaluates it (unevaluatedProperties: false)";

#[test]
fn unevaluated_properties_see_through_all_of_any_of_and_if() {
    let all_of = contract(
        r#"{"type": "object", "properties": {"a": {"type": "string"}},
            "allOf": [{"properties": {"b": {"type": "integer"}}}], "unevaluatedProperties": false}"#,
    );
    assert_eq!(findings(&all_of, r#"{"a": "x", "b": 1}"#), []);
    assert_eq!(
        findings(&all_of, r#"{"a": "x", "b": 1, "c": true}"#),
        one("field.additionalProperties", "c", NOT_EVALUATED)
    );
    // A failing allOf member evaluates nothing: `b` is its type fault and unevaluated.
    assert_eq!(
        findings(&all_of, r#"{"b": "no"}"#),
        [
            ("field.additionalProperties".to_string(), "b".to_string(), NOT_EVALUATED.to_string()),
            ("field.type".to_string(), "b".to_string(), "expected integer, found string".to_string()),
        ]
    );

    // Only the passing members of anyOf evaluate.
    let any_of = contract(
        r#"{"anyOf": [{"properties": {"a": {"const": 1}}, "required": ["a"]},
                      {"properties": {"b": {"const": 2}}, "required": ["b"]}],
            "unevaluatedProperties": false}"#,
    );
    assert_eq!(findings(&any_of, r#"{"a": 1, "b": 2}"#), []);
    assert_eq!(findings(&any_of, r#"{"a": 1, "b": 3}"#), one("field.additionalProperties", "b", NOT_EVALUATED));

    // `if` evaluates when it passes, and so does the branch taken.
    let conditional = contract(
        r#"{"if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
            "then": {"properties": {"x": {"type": "string"}}},
            "else": {"properties": {"y": {"type": "string"}}},
            "unevaluatedProperties": false}"#,
    );
    assert_eq!(findings(&conditional, r#"{"kind": "a", "x": "s"}"#), []);
    assert_eq!(
        findings(&conditional, r#"{"kind": "a", "y": "s"}"#),
        one("field.additionalProperties", "y", NOT_EVALUATED)
    );
    assert_eq!(
        findings(&conditional, r#"{"kind": "b", "y": "s"}"#),
        one("field.additionalProperties", "kind", NOT_EVALUATED)
    );

    // A schema for the unevaluated keys: their values' own findings.
    let typed = contract(r#"{"properties": {"a": true}, "unevaluatedProperties": {"type": "integer"}}"#);
    assert_eq!(findings(&typed, r#"{"a": "x", "n": 1}"#), []);
    assert_eq!(findings(&typed, r#"{"n": "x"}"#), one("field.type", "n", "expected integer, found string"));
    // `not` evaluates nothing; a nested `unevaluatedProperties` that passes evaluates everything.
    let not = contract(r#"{"not": {"not": {"properties": {"a": true}}}, "unevaluatedProperties": false}"#);
    assert_eq!(findings(&not, r#"{"a": 1}"#), one("field.additionalProperties", "a", NOT_EVALUATED));
    let nested = contract(r#"{"allOf": [{"unevaluatedProperties": true}], "unevaluatedProperties": false}"#);
    assert_eq!(findings(&nested, r#"{"a": 1}"#), []);
}

#[test]
fn unevaluated_items_see_prefix_items_and_contains() {
    let prefix = contract(
        r#"{"prefixItems": [{"type": "string"}], "allOf": [{"prefixItems": [true, {"type": "integer"}]}], "unevaluatedItems": false}"#,
    );
    assert_eq!(findings(&prefix, r#"["a", 1]"#), []);
    assert_eq!(
        findings(&prefix, r#"["a", 1, null]"#),
        one("field.items", "[2]", "element 2 is not allowed: no keyword evaluates it (unevaluatedItems: false)")
    );
    let contains = contract(r#"{"contains": {"type": "string"}, "unevaluatedItems": {"type": "integer"}}"#);
    assert_eq!(findings(&contains, r#"["a", 1, "b", 2]"#), []);
    assert_eq!(findings(&contains, r#"["a", null]"#), one("field.type", "[1]", "expected integer, found null"));
    // Not an array: unevaluatedItems says nothing.
    assert_eq!(findings(&contains, r#"{"a": null}"#), []);
}

/// The suite's tree and strict tree: `$dynamicRef` resolves to the
/// outermost resource in the dynamic scope that declares the anchor.
const TREE: &str = r##"{"$id": "https://example.com/strict-tree", "$dynamicAnchor": "node",
    "$ref": "tree", "unevaluatedProperties": false,
    "$defs": {"tree": {"$id": "tree", "$dynamicAnchor": "node", "type": "object",
        "properties": {"data": true, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}}}}"##;

#[test]
fn a_dynamic_ref_extends_the_tree_to_a_strict_tree() {
    let strict = contract(TREE);
    assert_eq!(findings(&strict, r#"{"children": [{"data": 1}]}"#), []);
    // The misspelt key deep in the tree is refused by the outer (strict)
    // node the `$dynamicRef` leads to; the `tree` that holds it then fails,
    // so it evaluates nothing at the root either (2020-12: a failing
    // subschema's annotations are dropped).
    assert_eq!(
        findings(&strict, r#"{"children": [{"daat": 1}]}"#),
        [
            ("field.additionalProperties".to_string(), "children".to_string(), NOT_EVALUATED.to_string()),
            ("field.additionalProperties".to_string(), "children[0].daat".to_string(), NOT_EVALUATED.to_string()),
        ]
    );
    // The plain tree on its own takes it.
    let tree = contract(
        r##"{"$id": "https://example.com/tree", "$dynamicAnchor": "node", "type": "object",
            "properties": {"data": true, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}}"##,
    );
    assert_eq!(findings(&tree, r#"{"children": [{"daat": 1}]}"#), []);
}

/// A deep tree costs each level once: the evaluated keys of a node are
/// worked out from memoised verdicts, never by reading the subtree again
/// per level (which would cost the square of the depth, or worse).
#[test]
fn a_deep_strict_tree_is_judged_once_per_level() {
    let strict = contract(TREE);
    let deep = |leaf: &str| {
        let mut data = format!(r#"{{"{leaf}": 1}}"#);
        for _ in 0..60 {
            data = format!(r#"{{"data": [1, 2], "children": [{data}, {{"data": 0}}]}}"#);
        }
        data
    };
    let started = std::time::Instant::now();
    assert_eq!(findings(&strict, &deep("data")), []);
    // Each of the 60 levels fails its `tree`, whose keys are then
    // unevaluated (`children` and `data`), and the leaf's misspelt key.
    let found = findings(&strict, &deep("daat"));
    assert_eq!(found.len(), 121);
    assert!(found.iter().all(|f| f.0 == "field.additionalProperties" && f.2 == NOT_EVALUATED));
    let leaf = format!("{}daat", "children[0].".repeat(60));
    assert!(found.iter().any(|f| f.1 == leaf));
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
}

/// Every instance of the suite's files for these keywords that loads on its
/// own: the first-fault walk and the finding walk agree.
#[test]
fn the_first_fault_check_agrees_with_the_report_on_every_suite_instance() {
    let dir = protocolarc_tests::data("json-schema-test-suite");
    let mut judged = 0;
    for file in ["unevaluatedProperties.json", "unevaluatedItems.json", "dynamicRef.json"] {
        let groups: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(file)).expect("read")).expect("json");
        for group in groups.as_array().expect("groups") {
            let doc = format!(r#"{{"name": "t.u", "revision": "1.0.0", "schema": {}}}"#, group["schema"]);
            let Ok(c) = ContractSpec::from_slice(doc.as_bytes(), file) else { continue };
            for t in group["tests"].as_array().expect("tests") {
                let data = t["data"].to_string();
                let report = c.validate_json(data.as_bytes());
                assert_eq!(report.is_valid(), t["valid"].as_bool().expect("valid"), "{file}: {}", t["description"]);
                assert_eq!(c.passes(data.as_bytes()), report.is_valid(), "{file}: {}", t["description"]);
                judged += 1;
            }
        }
    }
    assert_eq!(judged, 231);
}

/// Generated code hands a node with these keywords to the walker (its
/// verdict is then the runtime's by construction).
#[test]
fn generated_code_hands_these_nodes_to_the_walker() {
    let item = |name: &str| protocolarc_core::codegen::Item {
        vis: Default::default(),
        attrs: Default::default(),
        name: name.to_string(),
    };
    for (schema, handed) in [
        (
            r#"{"type": "object", "properties": {"a": {"type": "string"}}, "unevaluatedProperties": false}"#,
            "c . node (0 , 0usize , 0usize)",
        ),
        (
            r#"{"type": "object", "properties": {"a": {"unevaluatedItems": false}}}"#,
            "c . node (1 , depth + 1 , 0usize)",
        ),
        (TREE, "c . node (0u32 , 0usize , 0usize)"),
    ] {
        let spec = contract(schema);
        let code = protocolarc_core::codegen::expand(&spec, &item("U"), "u.json").expect("expands").to_string();
        assert!(code.contains(handed), "{schema}: {code}");
    }
}

#[test]
fn a_change_in_or_beside_these_keywords_is_undecided() {
    let undecided = |a: &str, b: &str| {
        let doc = |rev: &str, s: &str| {
            let text = format!(r#"{{"name": "t.u", "revision": "{rev}", "schema": {s}}}"#);
            ContractSpec::from_slice(text.as_bytes(), "u.json").expect("loads")
        };
        let d = diff(&doc("1.0.0", a), &doc("2.0.0", b)).expect("same name");
        let changes: Vec<(Impact, String, String, String)> = d
            .changes()
            .iter()
            .map(|c| (c.impact(), c.rule().to_string(), c.field().to_string(), c.message().to_string()))
            .collect();
        (d.compatibility(), changes)
    };
    let closed = r#"{"type": "object", "properties": {"a": {"type": "string"}}, "unevaluatedProperties": false}"#;
    // An allOf member that declares `b`: `b` was refused and is now taken.
    let beside = r#"{"type": "object", "properties": {"a": {"type": "string"}}, "allOf": [{"properties": {"b": true}}], "unevaluatedProperties": false}"#;
    let (verdict, changes) = undecided(closed, beside);
    assert_eq!(verdict, Impact::Breaking);
    let message = "unevaluatedProperties, unevaluatedItems or $dynamicRef, or what they see beside them, changed: not compared (judged breaking)";
    let guard = (Impact::Breaking, "schema.undecided".to_string(), "<data>".to_string(), message.to_string());
    let added = (Impact::Forward, "field.added.optional".to_string(), "b".to_string(), "added any".to_string());
    assert_eq!(changes, [guard, added]);
    // Removing the keyword itself.
    let open = r#"{"type": "object", "properties": {"a": {"type": "string"}}}"#;
    let (verdict, changes) = undecided(closed, open);
    assert_eq!(
        (verdict, changes),
        (Impact::Breaking, vec![(Impact::Breaking, "schema.undecided".into(), "<data>".into(), message.into())])
    );
    // The same schema: no change at all.
    assert_eq!(undecided(closed, closed), (Impact::Compatible, vec![]));
    // Any change of a schema with a dynamic `$dynamicRef`.
    let (verdict, changes) = undecided(TREE, &TREE.replace(r#""data": true"#, r#""data": {"type": "string"}"#));
    assert_eq!(verdict, Impact::Breaking);
    let at = |field: &str, message: &str| {
        let message = format!("{message}: not compared (judged breaking)");
        (Impact::Breaking, "schema.undecided".to_string(), field.to_string(), message)
    };
    assert_eq!(
        changes,
        [
            at("<data>", "a schema with a dynamic $dynamicRef changed"),
            (Impact::Breaking, "schema.undecided".to_string(), "<data>".to_string(), message.to_string()),
            (Impact::Breaking, "schema.undecided".to_string(), "children[]".to_string(), message.to_string()),
            (Impact::Breaking, "field.type.narrowed".to_string(), "data".to_string(), "any -> string".to_string()),
        ]
    );
}

/// Export writes the keywords back, and the exported schema loads to a
/// contract that judges as the original does.
#[test]
fn export_writes_them_back() {
    let doc = format!(r#"{{"name": "t.u", "revision": "1.0.0", "schema": {TREE}}}"#);
    let exported = protocolarc_interop::export::json_schema(doc.as_bytes(), "u.json").expect("exports").schema();
    let text = exported.to_string();
    for keyword in ["\"unevaluatedProperties\":false", "\"$dynamicRef\":\"#node\"", "\"$dynamicAnchor\":\"node\""] {
        assert!(text.contains(keyword), "{keyword}: {text}");
    }
    let again = contract(&text);
    for data in [r#"{"children": [{"data": 1}]}"#, r#"{"children": [{"daat": 1}]}"#] {
        assert_eq!(
            again.validate_json(data.as_bytes()).is_valid(),
            contract(TREE).validate_json(data.as_bytes()).is_valid()
        );
    }
}

#[test]
fn describe_shows_them_on_their_rows() {
    let dir = protocolarc_tests::scratch("unevaluated-describe");
    let tree = br##"{"name": "t.tree", "revision": "1.0.0", "schema": {"$id": "https://example.com/strict-tree",
        "$dynamicAnchor": "node", "$ref": "tree", "unevaluatedProperties": false,
        "$defs": {"tree": {"$id": "tree", "$dynamicAnchor": "node", "type": "object", "properties": {"data": true,
            "children": {"type": "array", "items": {"$dynamicRef": "#node"}, "unevaluatedItems": {"type": "string"}}}}}}}"##;
    protocolarc_tests::write_files(&dir, &[("tree.json", tree)]);
    // The input is what the test says: a strict tree (a misspelt key below
    // the root is refused: the `$dynamicRef` reaches the root's
    // `unevaluatedProperties`).
    let spec = ContractSpec::from_path(dir.join("tree.json")).expect("loads");
    assert!(spec.validate_json(br#"{"children": [{"data": 1, "children": []}]}"#).is_valid());
    assert!(!spec.validate_json(br#"{"children": [{"daat": 1}]}"#).is_valid());
    let out = protocolarc_tests::run_in(protocolarc_tests::bin!(), &dir, &["describe", "tree.json"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            0,
            "t.tree@1.0.0\nkind: -, strict: false, direction: request, schema: 5 rows\n\n  \
             PATH                           TYPE    REQUIRED  KEYWORDS\n  \
             <data>                         object  -         -> tree; unevaluatedProperties=false\n  \
             data                           any     optional\n  \
             children                       array   optional\n  \
             children[]                     any     -         $dynamicRef tree\n  \
             children[] (unevaluatedItems)  string  -\n"
        )
    );
}
