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
//! as written; a `format` that is not asserted, and the field's line, are
//! kept on the node's [`FieldMark`] for `describe` and `export`. The
//! contract's `title` and `doc` stay on the contract (the export writes them
//! at the root). Its `strict` flag becomes the root's warning-only
//! [`Schema::strict`], which JSON Schema cannot say.

use super::{FieldMark, Id, Literal, Node, Schema};
use crate::contract::tree::Node as PathNode;
use crate::contract::{ContractSpec, FieldSpec, JsonType, Scalar, TypeSet};

/// The schema graph a fields-form contract describes.
pub(crate) fn lower(spec: &ContractSpec) -> Schema {
    let mut nodes = vec![Node::default()];
    // (The contract's own `title` and `doc` stay with the contract: the
    // root is the data body, which a fields form does not describe.)
    let mut root = Node { types: Some(TypeSet::of(JsonType::Object)), ..Node::default() };
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
    n.field = Some(mark(at.field.map(|i| &fields[i]), required(fields, at)));
    below(nodes, fields, at, &mut n);
    if at.field.is_some_and(|i| fields[i].closed) {
        close(nodes, &mut n);
    }
    nodes[id as usize] = n;
    id
}

/// What the fields form says of a path node beyond its schema: the
/// declaring field's line and a `format` that is only an annotation.
fn mark(declared: Option<&FieldSpec>, required: bool) -> FieldMark {
    let Some(f) = declared else { return FieldMark { declared: false, required, line: 0, format: None } };
    let format = f.format().filter(|name| !crate::format::ASSERTED.contains(name)).map(Into::into);
    FieldMark { declared: true, required, line: f.line, format }
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

/// Each node of the graph a contract judges with, as text, without what
/// only places a node in its file (offset) or indexes it: for comparing a
/// fields form's lowering with the compiled JSON Schema of its export, which
/// lives in another crate (`protocolarc-interop`). A schema-form contract's
/// root loses its title and description (a fields form keeps them on the
/// contract) and takes `strict`.
#[doc(hidden)]
pub fn graph_shape(spec: &ContractSpec, strict: bool) -> Vec<String> {
    let mut schema = match spec.schema() {
        Some(s) => {
            let mut s = s.clone();
            let root = &mut s.nodes[Schema::ROOT as usize];
            (root.label, root.description) = (None, None);
            s
        }
        None => lower(spec),
    };
    schema.strict = strict;
    let plain = |n: &Node| Node { offset: 0, property_index: None, field: None, ..n.clone() };
    let mut out: Vec<String> = schema.nodes.iter().map(|n| format!("{:?}", plain(n))).collect();
    out.push(format!("strict {}", schema.strict));
    out
}
