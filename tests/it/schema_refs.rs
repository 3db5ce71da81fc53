//! References of JSON Schema 2020-12 in the schema form: embedded `$id`
//! resources (absolute, relative, URN, in `$defs`), `$anchor` per resource,
//! a reference to another document refused at its position, and
//! `import schema --resolve DIR` bundling the files of
//! `tests/data/resolve/` into one contract that validate, describe and
//! diff read like any other.

use std::path::Path;

use protocolarc::{ContractSpec, Value};
use protocolarc_tests::{bin, root, run, scratch, write_files};
use serde_json::json;

const DIR: &str = "tests/data/resolve";

fn contract(schema: Value) -> Result<ContractSpec, String> {
    let doc = json!({"name": "refs", "revision": "1.0.0", "schema": schema}).to_string();
    ContractSpec::from_slice(doc.as_bytes(), "refs.json").map_err(|e| e.to_string())
}

fn findings(c: &ContractSpec, data: Value) -> Vec<String> {
    c.validate_json(data.to_string().as_bytes()).findings().iter().map(|f| f.to_string()).collect()
}

/// `import schema DIR/order.json --resolve DIR`, written to `out`.
fn import_order(dir: &Path, revision: &str, out: &Path) {
    let order = dir.join("order.json");
    let args = [
        "import",
        "schema",
        order.to_str().expect("utf-8"),
        "--name",
        "shop.order",
        "--revision",
        revision,
        "--resolve",
        dir.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ];
    let o = run(bin!(), &args);
    assert_eq!((o.code, o.stdout, o.stderr), (0, format!("wrote {}\n", out.display()), String::new()));
}

#[test]
fn embedded_resources_resolve_by_every_form_of_uri() {
    let c = contract(json!({
        "$id": "https://example.com/schemas/root.json",
        "type": "object",
        "properties": {
            "by_relative": {"$ref": "item.json"},
            "by_absolute": {"$ref": "https://example.com/other/nested.json#/$defs/Even"},
            "by_urn": {"$ref": "urn:uuid:3e6d1a52-5b0a-4f3e-9b1e-7a3c2f0d4e11#tag"},
            "by_folder": {"$ref": "folder/leaf.json"}
        },
        "$defs": {
            "Item": {"$id": "item.json", "type": "string", "$anchor": "tag", "maxLength": 3},
            "Nested": {
                "$id": "../other/nested.json",
                "$defs": {"Even": {"type": "integer", "multipleOf": 2}}
            },
            "Urn": {
                "$id": "urn:uuid:3e6d1a52-5b0a-4f3e-9b1e-7a3c2f0d4e11",
                "$defs": {"T": {"$anchor": "tag", "enum": ["a", "b"]}}
            },
            "Folder": {"$id": "folder/", "$defs": {"Leaf": {"$id": "leaf.json", "type": "boolean"}}}
        }
    }))
    .expect("loads");
    let good = json!({"by_relative": "abc", "by_absolute": 4, "by_urn": "a", "by_folder": true});
    assert_eq!(findings(&c, good), Vec::<String>::new());
    let bad = json!({"by_relative": "abcd", "by_absolute": 3, "by_urn": "c", "by_folder": 1});
    // The same anchor name `tag` in two resources: each reference finds its own.
    assert_eq!(
        findings(&c, bad),
        [
            "ERROR field.multipleOf by_absolute: value 3 is not a multiple of 2",
            "ERROR field.type by_folder: expected boolean, found integer",
            "ERROR field.maxLength by_relative: length 4 is greater than maxLength 3",
            "ERROR field.enum by_urn: value 'c' not in {'a', 'b'}",
        ]
    );
}

#[test]
fn references_that_name_nothing_in_the_document_are_refused_at_their_position() {
    let refused = |schema: &str| {
        let doc = format!("{{\"name\": \"refs\", \"revision\": \"1.0.0\", \"schema\": {schema}}}");
        ContractSpec::from_slice(doc.as_bytes(), "refs.json").map(|_| ()).unwrap_err().to_string()
    };
    assert_eq!(
        refused(r#"{"$id": "https://example.com/a.json", "$ref": "b.json#/x"}"#),
        "refs.json:1:95: $ref 'b.json#/x' (resolved: 'https://example.com/b.json#/x') is not local: it names a \
         document that is not in this contract (`cargo protocolarc import schema FILE --resolve DIR` bundles the \
         files a schema references)"
    );
    assert_eq!(
        refused(r#"{"$ref": "https://json-schema.org/draft/2020-12/schema"}"#),
        "refs.json:1:58: $ref 'https://json-schema.org/draft/2020-12/schema' is the JSON Schema meta-schema, which a \
         contract does not carry"
    );
    // An anchor belongs to its resource: the root does not see the embedded one's.
    assert_eq!(
        refused(r##"{"$ref": "#tag", "$defs": {"A": {"$id": "a.json", "$anchor": "tag"}}}"##),
        "refs.json:1:58: $ref '#tag' names no schema in this document"
    );
    assert_eq!(
        refused(r#"{"$defs": {"A": {"$id": "a.json#frag"}}}"#),
        "refs.json:1:73: $id 'a.json#frag' at /$defs/A has a fragment: in 2020-12 an $id names a resource, and \
         '$anchor' names a place in it"
    );
    assert_eq!(
        refused(r#"{"$defs": {"A": {"$id": "a.json"}, "B": {"$id": "a.json"}}}"#),
        "refs.json:1:97: $id 'a.json' at /$defs/B names a resource that an earlier $id names"
    );
}

#[test]
fn an_unresolvable_reference_exits_3_naming_file_position_and_reference() {
    let dir = scratch("schema_refs_unresolvable");
    let text = "{\"name\": \"x\", \"revision\": \"1.0.0\", \"schema\": {\n  \"properties\": {\"a\": {\"$ref\": \"other.json#/$defs/A\"}}}}\n";
    write_files(&dir, &[("c.json", text.as_bytes())]);
    // Line 2, column 32 is the reference's string.
    assert_eq!(&text.lines().nth(1).unwrap()[31..52], "\"other.json#/$defs/A\"");
    let file = dir.join("c.json");
    for command in ["describe", "validate"] {
        let o = run(bin!(), &[command, file.to_str().unwrap()]);
        assert_eq!(
            (o.code, o.stdout.as_str(), o.stderr),
            (
                3,
                "",
                format!(
                    "error: {}:2:32: $ref 'other.json#/$defs/A' is not local: it names a document that is not in this \
                     contract (`cargo protocolarc import schema FILE --resolve DIR` bundles the files a schema \
                     references)\n",
                    file.display()
                )
            ),
            "{command}"
        );
    }
    // `import schema` without --resolve says what would bundle it.
    let o = run(bin!(), &["import", "schema", &format!("{DIR}/order.json"), "--name", "a.b", "--revision", "1.0.0"]);
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr.as_str()),
        (
            3,
            "",
            "error: tests/data/resolve/order.json:6:13: $ref 'common.json#/$defs/OrderId' at /properties/id/$ref \
             names another document: a contract holds one (--resolve DIR bundles the local files a schema \
             references)\n"
        )
    );
}

#[test]
fn resolve_bundles_the_files_and_refuses_one_outside_the_directory() {
    let args = ["import", "schema", "tests/data/resolve/order.json", "--name", "shop.order", "--revision", "1.0.0"];
    let o = run(bin!(), &[&args[..], &["--resolve", DIR]].concat());
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    let written: Value = serde_json::from_str(&o.stdout).expect("a contract");
    // Each file is a `$defs` entry with its path under DIR as `$id`; the
    // references to it name that `$id`; its own references stay as written.
    assert_eq!(
        written["schema"],
        json!({
            "$defs": {
                "address": {
                    "$defs": {"Country": {"enum": ["DE", "FR", "US"]}},
                    "$id": "json-schema:///address.json",
                    "properties": {"country": {"$ref": "#/$defs/Country"}, "street": {"type": "string"}},
                    "required": ["street", "country"],
                    "type": "object"
                },
                "common": {
                    "$defs": {
                        "Line": {
                            "$anchor": "line",
                            "properties": {"qty": {"minimum": 1, "type": "integer"}, "sku": {"type": "string"}},
                            "required": ["sku", "qty"],
                            "type": "object"
                        },
                        "OrderId": {"pattern": "^ord_[0-9]+$", "type": "string"}
                    },
                    "$id": "json-schema:///common.json"
                }
            },
            "properties": {
                "id": {"$ref": "json-schema:///common.json#/$defs/OrderId"},
                "lines": {"items": {"$ref": "json-schema:///common.json#line"}, "type": "array"},
                "ship_to": {"$ref": "json-schema:///address.json"}
            },
            "required": ["id", "ship_to"],
            "title": "Order",
            "type": "object"
        })
    );
    // The input holds the reference the error names, where it says (line
    // 5, column 15: its `$ref` key).
    let leaky = std::fs::read_to_string(root().join(DIR).join("leaky.json")).expect("read");
    assert_eq!(&leaky.lines().nth(4).unwrap()[14..], "\"$ref\": \"../outside.json\" }");
    let o = run(
        bin!(),
        &[
            "import",
            "schema",
            "tests/data/resolve/leaky.json",
            "--name",
            "a.b",
            "--revision",
            "1.0.0",
            "--resolve",
            DIR,
        ],
    );
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr.as_str()),
        (
            3,
            "",
            "error: tests/data/resolve/leaky.json:5:15: $ref '../outside.json' at /properties/note/$ref: it resolves \
             to tests/data/resolve/../outside.json, outside the --resolve directory tests/data/resolve\n"
        )
    );
    // A file a bundled file references and that is missing: the error is in
    // the file that holds the reference.
    let dir = scratch("schema_refs_missing");
    write_files(
        &dir,
        &[
            ("root.json", br#"{"properties": {"a": {"$ref": "sub/b.json"}}}"#),
            ("sub/b.json", b"{\n  \"properties\": {\"c\": {\"$ref\": \"../gone.json\"}}\n}\n"),
        ],
    );
    let d = dir.to_str().unwrap();
    let o = run(
        bin!(),
        &["import", "schema", &format!("{d}/root.json"), "--name", "a.b", "--revision", "1.0.0", "--resolve", d],
    );
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr),
        (
            3,
            "",
            format!(
                "error: {d}/sub/b.json:2:24: $ref '../gone.json' at /properties/c/$ref: {d}/gone.json: cannot read: no \
                 such file or directory\n"
            )
        )
    );
    // A URL is not a file.
    write_files(&dir, &[("root.json", br#"{"$ref": "https://example.com/x.json"}"#)]);
    let o = run(
        bin!(),
        &["import", "schema", &format!("{d}/root.json"), "--name", "a.b", "--revision", "1.0.0", "--resolve", d],
    );
    assert_eq!(
        (o.code, o.stderr),
        (
            3,
            format!(
                "error: {d}/root.json:1:2: $ref 'https://example.com/x.json' at /$ref: it names \
                 'https://example.com/x.json', which is not a file: --resolve reads files under {d} only\n"
            )
        )
    );
}

#[test]
fn a_bundled_contract_validates_describes_and_diffs() {
    let dir = scratch("schema_refs_bundled");
    let v1 = dir.join("order_1.0.0.json");
    import_order(&root().join(DIR), "1.0.0", &v1);
    let envelope = json!({"contract": "shop.order", "data": {
        "id": "ord_12",
        "ship_to": {"street": "Main", "country": "IT"},
        "lines": [{"sku": "a", "qty": 0}, {"qty": 2}]
    }});
    write_files(&dir, &[("bad.json", envelope.to_string().as_bytes())]);
    let o = run(bin!(), &["validate", v1.to_str().unwrap(), dir.join("bad.json").to_str().unwrap()]);
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr.as_str()),
        (
            1,
            "[FAIL] shop.order@1.0.0 <- bad.json:1\n  \
             ERROR field.minimum lines[0].qty: value 0 is less than minimum 1\n  \
             ERROR field.required lines[1].sku: required field is missing\n  \
             ERROR field.enum ship_to.country: value 'IT' not in {'DE', 'FR', 'US'}\n",
            ""
        )
    );
    let o = run(bin!(), &["describe", v1.to_str().unwrap()]);
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr.as_str()),
        (
            0,
            "shop.order@1.0.0\n\
             kind: -, strict: false, direction: request, schema: 9 rows\n\n  \
             PATH             TYPE     REQUIRED  KEYWORDS\n  \
             <data>           object   -\n  \
             id               string   required  -> OrderId; pattern='^ord_[0-9]+$'\n  \
             lines            array    optional\n  \
             lines[]          object   -         -> Line\n  \
             lines[].qty      integer  required  minimum=1\n  \
             lines[].sku      string   required\n  \
             ship_to          object   required  -> address\n  \
             ship_to.country  string   required  -> Country; enum={'DE', 'FR', 'US'}\n  \
             ship_to.street   string   required\n",
            ""
        )
    );
    // Generated code: one named type per referenced definition, the bundled
    // file's root by its `$defs` name.
    let o = run(bin!(), &["generate", v1.to_str().unwrap()]);
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    let declared: Vec<&str> = o
        .stdout
        .lines()
        .filter(|l| l.starts_with("pub struct") || l.starts_with("pub type") || l.starts_with("pub enum"))
        .collect();
    assert_eq!(
        declared,
        [
            "pub struct ShopOrder {",
            "pub type OrderId = ::std::string::String;",
            "pub struct Line {",
            "pub struct Address {",
            "pub enum Country {"
        ]
    );
    assert!(o.stdout.contains("    pub ship_to: Address,\n"), "{}", o.stdout);
    // The next revision of two of the files: a country dropped, a bound added.
    let next = dir.join("next");
    let read = |name: &str| std::fs::read_to_string(root().join(DIR).join(name)).expect("read");
    let address = read("address.json").replace(r#""DE", "FR", "US""#, r#""DE", "FR""#);
    let common = read("common.json").replace(r#""minimum": 1 }"#, r#""minimum": 1, "maximum": 99 }"#);
    assert!(address.contains(r#"["DE", "FR"]"#) && common.contains(r#""maximum": 99"#), "the edits applied");
    write_files(
        &next,
        &[
            ("order.json", read("order.json").as_bytes()),
            ("address.json", address.as_bytes()),
            ("common.json", common.as_bytes()),
        ],
    );
    let v2 = dir.join("order_1.1.0.json");
    import_order(&next, "1.1.0", &v2);
    let o = run(bin!(), &["diff", v1.to_str().unwrap(), v2.to_str().unwrap()]);
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr.as_str()),
        (
            2,
            "shop.order: 1.0.0 -> 1.1.0\n\
             compatibility: BREAKING\n  \
             breaking field.maximum.tightened lines[].qty: (none) -> maximum 99\n  \
             breaking field.enum.restricted ship_to.country: dropped {'US'}\n",
            ""
        )
    );
}

#[test]
fn import_keeps_references_between_the_resources_of_one_document() {
    let doc = json!({
        "$id": "https://example.com/root.json",
        "properties": {"a": {"$ref": "item.json"}, "b": {"$ref": "item.json#/$defs/Inner"}},
        "$defs": {"Item": {"$id": "item.json", "type": "object", "$defs": {"Inner": {"$ref": "#/$defs/Leaf"}, "Leaf": {"type": "integer"}}}}
    });
    let (c, notes) = protocolarc_interop::import::schema_contract(&doc, "a.b", "1.0.0", None, None).expect("imports");
    assert!(notes.is_empty());
    assert_eq!(c["schema"], doc);
    let spec = contract(c["schema"].clone()).expect("loads");
    assert_eq!(findings(&spec, json!({"a": {}, "b": "x"})), ["ERROR field.type b: expected integer, found string"]);
}

#[test]
fn resolve_reads_a_published_id_from_the_schema_folder() {
    // A published set: the root's `$id` is a URL, its references relative
    // to it; the files lie side by side, and keep their URLs in the bundle.
    let dir = scratch("schema_refs_published");
    write_files(
        &dir,
        &[
            (
                "tool.json",
                br#"{"$id": "https://example.com/schemas/tool.json", "properties": {"n": {"$ref": "defs/num.json#/$defs/N"}}}"#,
            ),
            ("defs/num.json", br#"{"$defs": {"N": {"type": "integer"}}}"#),
        ],
    );
    let d = dir.to_str().unwrap();
    let o = run(
        bin!(),
        &["import", "schema", &format!("{d}/tool.json"), "--name", "a.b", "--revision", "1.0.0", "--resolve", d],
    );
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    let written: Value = serde_json::from_str(&o.stdout).expect("a contract");
    assert_eq!(
        written["schema"],
        json!({
            "$id": "https://example.com/schemas/tool.json",
            "properties": {"n": {"$ref": "https://example.com/schemas/defs/num.json#/$defs/N"}},
            "$defs": {"https://example.com/schemas/defs/num.json": {
                "$id": "https://example.com/schemas/defs/num.json",
                "$defs": {"N": {"type": "integer"}}
            }}
        })
    );
    let spec = contract(written["schema"].clone()).expect("loads");
    assert_eq!(findings(&spec, json!({"n": "x"})), ["ERROR field.type n: expected integer, found string"]);
}

#[test]
fn resolve_refuses_a_reference_to_nothing_in_another_file_at_its_position() {
    let dir = scratch("schema_refs_nothing");
    write_files(
        &dir,
        &[
            ("root.json", br#"{"properties": {"a": {"$ref": "b.json#/$defs/A"}}}"#),
            ("b.json", b"{\n  \"$defs\": {\"A\": {\"$ref\": \"root.json#/nope\"}}\n}\n"),
        ],
    );
    let d = dir.to_str().unwrap();
    let o = run(
        bin!(),
        &["import", "schema", &format!("{d}/root.json"), "--name", "a.b", "--revision", "1.0.0", "--resolve", d],
    );
    assert_eq!(
        (o.code, o.stdout.as_str(), o.stderr),
        (
            3,
            "",
            format!(
                "error: {d}/b.json:2:19: $ref 'root.json#/nope' at /$defs/A/$ref points to nothing in \
                 'json-schema:///root.json'\n"
            )
        )
    );
    write_files(&dir, &[("root.json", br#"{"properties": {"a": {"$ref": "b.json#Missing"}}}"#)]);
    let o = run(
        bin!(),
        &["import", "schema", &format!("{d}/root.json"), "--name", "a.b", "--revision", "1.0.0", "--resolve", d],
    );
    assert_eq!(
        (o.code, o.stderr),
        (
            3,
            format!(
                "error: {d}/root.json:1:23: $ref 'b.json#Missing' at /properties/a/$ref points to nothing in \
                 'json-schema:///b.json'\n"
            )
        )
    );
}
