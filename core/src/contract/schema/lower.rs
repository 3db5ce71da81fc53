//! The fields form lowered into the schema graph: a fields-form contract's
//! path tree (`contract/tree.rs`) becomes the [`Schema`] its JSON Schema
//! export describes, node by node, without writing or reading any text.
//!
//! Each declared or implied path node is one object, array or scalar node:
//! keys become `properties` (required when the field is, an implied parent
//! when any child is), an `[]` step `items`, a `{}` step
//! `additionalProperties`, and a `closed` object an `additionalProperties`
//! that is `false`. A field's `type` (none for `any`), `const` or `enum`,
//! `format`, constraint keywords and `doc` are carried as they are, numbers
//! as written. The contract's `strict` flag becomes the root's warning-only
//! [`Schema::strict`], which JSON Schema cannot say.

use super::{FieldMark, Id, Literal, Node, Schema};
use crate::contract::tree::Node as PathNode;
use crate::contract::{ContractSpec, FieldSpec, JsonType, Scalar, TypeSet};

/// The schema graph a fields-form contract describes.
pub(crate) fn lower(spec: &ContractSpec) -> Schema {
    let mut nodes = vec![Node::default()];
    let mut root = Node { description: spec.doc.as_deref().map(Into::into), ..Node::default() };
    root.label = spec.title.as_deref().map(Into::into);
    root.types = Some(TypeSet::of(JsonType::Object));
    below(&mut nodes, &spec.fields, &spec.tree, &mut root);
    if spec.closed {
        close(&mut nodes, &mut root);
    }
    nodes[Schema::ROOT as usize] = root;
    let mut schema = super::compile::finish(nodes, String::new());
    schema.strict = spec.strict;
    schema
}

/// The node for the path node `at` (pushed into `nodes`), its subtree first.
fn node(nodes: &mut Vec<Node>, fields: &[FieldSpec], at: &PathNode) -> Id {
    let id = nodes.len() as Id;
    nodes.push(Node::default());
    let mut n = match at.field.map(|i| &fields[i]) {
        Some(f) => declared(f),
        None => Node { types: Some(at.implied_types()), ..Node::default() },
    };
    n.field = Some(FieldMark { declared: at.field.is_some(), required: required(fields, at) });
    below(nodes, fields, at, &mut n);
    if at.field.is_some_and(|i| fields[i].closed) {
        close(nodes, &mut n);
    }
    nodes[id as usize] = n;
    id
}

/// A declared field's own keywords.
fn declared(f: &FieldSpec) -> Node {
    let mut n = Node { offset: f.offset, description: f.doc.as_deref().map(Into::into), ..Node::default() };
    n.types = (!f.types.is_any()).then_some(f.types);
    match (f.constant(), f.enum_values()) {
        (Some(c), _) => n.constant = Some(literal(c)),
        (None, Some(values)) => n.enum_values = Some(values.iter().map(literal).collect()),
        (None, None) => {}
    }
    n.format = f.format().and_then(|name| crate::format::ASSERTED.iter().copied().find(|a| *a == name));
    n.constraints = f.constraints.clone();
    n
}

/// `properties` and `required`, `items`, and a map's values.
fn below(nodes: &mut Vec<Node>, fields: &[FieldSpec], at: &PathNode, n: &mut Node) {
    for child in &at.keys {
        let id = node(nodes, fields, &child.node);
        n.properties.push((child.key.clone(), id));
        if required(fields, &child.node) {
            n.required.push(child.key.clone());
        }
    }
    if let Some(items) = &at.items {
        n.items = Some(node(nodes, fields, items));
    }
    if let Some(values) = &at.values {
        n.additional = Some(node(nodes, fields, values));
    }
}

/// Declared: the field's flag; implied: whether a key or the elements below
/// are required (a map's values never are: a map may be empty).
fn required(fields: &[FieldSpec], at: &PathNode) -> bool {
    match at.field {
        Some(i) => fields[i].required,
        None => {
            at.keys.iter().any(|c| required(fields, &c.node))
                || at.items.as_deref().is_some_and(|i| required(fields, i))
        }
    }
}

/// `additionalProperties: false`.
fn close(nodes: &mut Vec<Node>, n: &mut Node) {
    nodes.push(Node { never: true, ..Node::default() });
    n.additional = Some((nodes.len() - 1) as Id);
    n.closed = true;
}

/// A scalar as the schema graph holds a literal: canonical JSON for
/// equality, the decoded text of a string, the spelling of anything else.
fn literal(value: &Scalar) -> Literal {
    let shown = value.json();
    let mut canonical = String::new();
    match value {
        Scalar::Number(d) => d.dec().canonical(&mut canonical),
        Scalar::String(s) => crate::json::canonical::string(s, &mut canonical),
        Scalar::Null | Scalar::Bool(_) => canonical.push_str(&shown),
    }
    let string = match value {
        Scalar::String(s) => Some(s.as_str().into()),
        _ => None,
    };
    let shown = crate::json::text::one_line(&shown).into_owned().into_boxed_str();
    Literal { canonical: canonical.into_boxed_str(), string, shown }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::load::Ctx;

    /// The graph the fields form's JSON Schema export compiles to: what the
    /// lowering must equal.
    fn through_export(spec: &ContractSpec) -> Schema {
        let text = crate::export::from_spec(spec).text;
        let root = crate::json::tree::parse_within(text.as_bytes(), 4 * crate::json::MAX_DEPTH).expect("export parses");
        let mut cx = Ctx::over(text.as_bytes());
        let mut schema = super::super::compile(&mut cx, &root).expect("export compiles");
        schema.strict = spec.strict;
        schema
    }

    /// Each node as text, without what only positions it in a file (its
    /// offset) or indexes it (a hash map's order).
    fn shape(schema: &Schema) -> Vec<String> {
        let plain = |n: &Node| Node { offset: 0, property_index: None, field: None, ..n.clone() };
        let mut out: Vec<String> = schema.nodes.iter().map(|n| format!("{:?}", plain(n))).collect();
        out.push(format!("strict {}", schema.strict));
        out
    }

    fn same(text: &str) {
        let spec = ContractSpec::from_slice(text.as_bytes(), "c.json").expect("loads");
        assert!(spec.schema.is_none(), "a fields-form contract");
        let (lowered, exported) = (shape(&lower(&spec)), shape(&through_export(&spec)));
        assert_eq!(lowered.len(), exported.len(), "{text}");
        for (i, (a, b)) in lowered.iter().zip(&exported).enumerate() {
            assert_eq!(a, b, "node {i} of {text}");
        }
    }

    #[test]
    fn lowering_equals_the_exported_schema_compiled() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut seen = 0;
        for dir in ["contracts", "docs/examples", "tests/data", "tests/ui/contracts", "contracts/fixtures"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
            let mut paths: Vec<_> = entries.map(|e| e.expect("entry").path()).collect();
            paths.sort();
            for p in paths.iter().filter(|p| p.extension().is_some_and(|x| x == "json")) {
                let text = std::fs::read_to_string(p).expect("read");
                if ContractSpec::from_slice(text.as_bytes(), "c.json").is_ok_and(|c| c.schema.is_none()) {
                    same(&text);
                    seen += 1;
                }
            }
        }
        assert!(seen >= 10, "{seen} fields-form contracts of the repository");
        for text in [
            r#"{"name": "a", "revision": "1.0.0", "title": "T", "doc": "D", "strict": true, "closed": true,
                "fields": [{"name": "x", "type": ["string", "null"], "enum": ["a", null, "b"], "doc": "x"},
                           {"name": "n", "type": "number", "minimum": 1.50, "exclusiveMaximum": 1e2, "multipleOf": 0.01},
                           {"name": "k", "const": 2.0, "type": "integer", "required": false},
                           {"name": "s", "type": "string", "format": "uri", "pattern": "^a", "minLength": 1},
                           {"name": "f", "type": "string", "format": "not-asserted"},
                           {"name": "o", "type": "object", "closed": true, "required": false},
                           {"name": "o.p[].q", "type": "any"},
                           {"name": "m{}.v", "type": "boolean"},
                           {"name": "t[]", "type": "array", "uniqueItems": true, "minItems": 1},
                           {"name": "t[][]", "type": "string", "required": false},
                           {"name": "w[\"a.b\"].c", "type": "null"}]}"#,
            r#"{"name": "b", "revision": "1.0.0", "fields": [{"name": "only.deep.down", "required": false, "type": "string"}]}"#,
        ] {
            same(text);
        }
    }
}
