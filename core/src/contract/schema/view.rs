//! A read-only view of a compiled [`Schema`], for code outside the core that
//! shows a contract of either form (`describe`): [`ContractSpec::graph`],
//! [`Schema::root`] and the [`SchemaNode`] accessors.
//!
//! The view borrows the node graph and never changes it. A `$ref` is an edge
//! ([`SchemaNode::reference`]), so a recursive schema is a graph with a cycle:
//! a caller that descends through references keeps the [`SchemaNode::id`]s it
//! is expanding and stops at one it meets again. Every accessor that follows
//! references itself ([`SchemaNode::resolved`]) is bounded.

use super::{Id, Literal, Node, Schema, Union};
use crate::contract::{Constraints, ContractSpec, Pattern, TypeSet};
use crate::keywords::name;

impl ContractSpec {
    /// The schema graph every engine reads: a schema-form contract's
    /// compiled schema, or a fields-form contract lowered into one (each
    /// declared field a node, [`SchemaNode::field_required`] set on it).
    pub fn graph(&self) -> &Schema {
        self.walked()
    }
}

impl Schema {
    /// The root subschema (the contract's `schema` member).
    pub fn root(&self) -> SchemaNode<'_> {
        SchemaNode { schema: self, id: Schema::ROOT }
    }
}

/// Appends `key` to a path as findings write it: `.key` for a plain key (no
/// dot at the start of an empty path), `["key"]` (a JSON string) for any
/// other.
///
/// ```
/// use protocolarc_core::contract::schema::push_key;
///
/// let mut path = String::new();
/// push_key(&mut path, "params");
/// push_key(&mut path, "_meta");
/// push_key(&mut path, "io.modelcontextprotocol/protocolVersion");
/// assert_eq!(path, r#"params._meta["io.modelcontextprotocol/protocolVersion"]"#);
/// ```
pub fn push_key(path: &mut String, key: &str) {
    if crate::contract::is_plain_key(key) {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    } else {
        crate::contract::push_bracketed(path, key);
    }
}

/// One subschema of a compiled [`Schema`], borrowed.
#[derive(Clone, Copy)]
pub struct SchemaNode<'s> {
    schema: &'s Schema,
    id: Id,
}

impl PartialEq for SchemaNode<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.schema, other.schema) && self.id == other.id
    }
}

impl Eq for SchemaNode<'_> {}

impl std::fmt::Debug for SchemaNode<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaNode").field("id", &self.id).field("label", &self.label()).finish()
    }
}

impl<'s> SchemaNode<'s> {
    fn node(&self) -> &'s Node {
        self.schema.node(self.id)
    }

    fn at(&self, id: Id) -> SchemaNode<'s> {
        SchemaNode { schema: self.schema, id }
    }

    /// The node's index in its schema: every subschema of the document has
    /// one, and a `$ref` target is one node however many references name it
    /// (what a caller keeps to notice recursion).
    pub fn id(&self) -> usize {
        self.id as usize
    }

    /// Whether this is the schema's root.
    pub fn is_root(&self) -> bool {
        self.id == Schema::ROOT
    }

    /// Byte offset of the subschema in the contract file.
    pub fn offset(&self) -> usize {
        self.node().offset
    }

    /// In a fields-form contract's graph, `Some` with the field's `required`
    /// when a field declares this exact path; `None` for a parent that a
    /// dotted path only implies, and for every node of a schema form.
    pub fn field_required(&self) -> Option<bool> {
        self.declared().map(|f| f.required)
    }

    /// In a fields-form contract's graph, the 1-based line of the field
    /// that declares this exact path; `None` wherever
    /// [`SchemaNode::field_required`] is.
    pub fn field_line(&self) -> Option<usize> {
        self.declared().map(|f| f.line)
    }

    /// In a fields-form contract's graph, the `format` of the field that
    /// declares this exact path as written, asserted or not (a name the
    /// validator does not assert is only an annotation, which
    /// [`SchemaNode::format`] leaves out); `None` without one.
    pub fn field_format(&self) -> Option<&'s str> {
        let declared = self.declared()?;
        self.node().format.or(declared.format.as_deref())
    }

    fn declared(&self) -> Option<&'s super::FieldMark> {
        self.node().field.as_ref().filter(|f| f.declared)
    }

    /// Whether the subschema is `false`: no value is valid here.
    pub fn is_false(&self) -> bool {
        self.node().never
    }

    /// Whether the subschema constrains nothing (`true`, `{}`, or
    /// annotations only).
    pub fn is_trivial(&self) -> bool {
        self.node().trivial
    }

    /// `type`; `None` when the keyword is absent (every type).
    pub fn types(&self) -> Option<TypeSet> {
        self.node().types
    }

    /// `const`; `None` when absent.
    pub fn const_value(&self) -> Option<SchemaLiteral<'s>> {
        self.node().constant.as_ref().map(SchemaLiteral)
    }

    /// `enum` members in document order; `None` when absent.
    pub fn enum_values(&self) -> Option<Vec<SchemaLiteral<'s>>> {
        self.node().enum_values.as_ref().map(|v| v.iter().map(SchemaLiteral).collect())
    }

    /// `{'a', 'b'}`: the `enum` members as findings show them; `None` when
    /// absent.
    pub fn enum_label(&self) -> Option<String> {
        self.node().enum_values.as_deref().map(super::literal_label)
    }

    /// `format`, when it is one the validator asserts (another format name
    /// is an annotation and is not kept).
    pub fn format(&self) -> Option<&'static str> {
        self.node().format
    }

    /// The numeric, string-length, `pattern` and item-count keywords.
    pub fn constraints(&self) -> &'s Constraints {
        &self.node().constraints
    }

    /// [`SchemaNode::constraints`] as `keyword=value` texts, in keyword order.
    pub fn describe_constraints(&self) -> Vec<String> {
        self.node().constraints.describe()
    }

    /// `properties`, in document order.
    pub fn properties(&self) -> impl Iterator<Item = (&'s str, SchemaNode<'s>)> + 's {
        let schema = self.schema;
        self.node().properties.iter().map(move |(k, id)| (&**k, SchemaNode { schema, id: *id }))
    }

    /// `required`, in document order.
    pub fn required(&self) -> impl Iterator<Item = &'s str> + 's {
        self.node().required.iter().map(|k| &**k)
    }

    /// Whether `key` is listed in this subschema's `required`.
    pub fn is_required(&self, key: &str) -> bool {
        self.node().required.iter().any(|k| &**k == key)
    }

    /// `patternProperties`, in document order.
    pub fn pattern_properties(&self) -> impl Iterator<Item = (&'s Pattern, SchemaNode<'s>)> + 's {
        let schema = self.schema;
        self.node().pattern_properties.iter().map(move |(p, id)| (p, SchemaNode { schema, id: *id }))
    }

    /// `additionalProperties` (the `false` schema when the object is
    /// closed); `None` when absent.
    pub fn additional_properties(&self) -> Option<SchemaNode<'s>> {
        self.node().additional.map(|id| self.at(id))
    }

    /// Whether `additionalProperties` is `false`: an undeclared key is an
    /// error (`closed`).
    pub fn is_closed(&self) -> bool {
        self.node().closed
    }

    /// `propertyNames`.
    pub fn property_names(&self) -> Option<SchemaNode<'s>> {
        self.node().property_names.map(|id| self.at(id))
    }

    /// `minProperties`.
    pub fn min_properties(&self) -> Option<u64> {
        self.node().min_properties
    }

    /// `maxProperties`.
    pub fn max_properties(&self) -> Option<u64> {
        self.node().max_properties
    }

    /// `dependentRequired`: when the key is present, the listed keys must be
    /// too; in document order.
    pub fn dependent_required(&self) -> impl Iterator<Item = (&'s str, Vec<&'s str>)> + 's {
        self.node().dependent_required.iter().map(|(k, v)| (&**k, v.iter().map(|s| &**s).collect()))
    }

    /// `dependentSchemas`: when the key is present, the object must also pass
    /// the schema; in document order.
    pub fn dependent_schemas(&self) -> impl Iterator<Item = (&'s str, SchemaNode<'s>)> + 's {
        let schema = self.schema;
        self.node().dependent_schemas.iter().map(move |(k, id)| (&**k, SchemaNode { schema, id: *id }))
    }

    /// `prefixItems`, in order.
    pub fn prefix_items(&self) -> impl Iterator<Item = SchemaNode<'s>> + 's {
        let schema = self.schema;
        self.node().prefix_items.iter().map(move |id| SchemaNode { schema, id: *id })
    }

    /// `items`: the schema of every element after the `prefixItems`.
    pub fn items(&self) -> Option<SchemaNode<'s>> {
        self.node().items.map(|id| self.at(id))
    }

    /// `contains`.
    pub fn contains(&self) -> Option<SchemaNode<'s>> {
        self.node().contains.map(|id| self.at(id))
    }

    /// `minContains`.
    pub fn min_contains(&self) -> Option<u64> {
        self.node().min_contains
    }

    /// `maxContains`.
    pub fn max_contains(&self) -> Option<u64> {
        self.node().max_contains
    }

    /// `unevaluatedProperties`: the schema of every key no other keyword
    /// evaluated.
    pub fn unevaluated_properties(&self) -> Option<SchemaNode<'s>> {
        self.node().unevaluated_properties.map(|id| self.at(id))
    }

    /// `unevaluatedItems`: the schema of every element no other keyword
    /// evaluated.
    pub fn unevaluated_items(&self) -> Option<SchemaNode<'s>> {
        self.node().unevaluated_items.map(|id| self.at(id))
    }

    /// The subschema a `$dynamicRef` names before the dynamic scope is
    /// consulted (its static target); `None` without one.
    pub fn dynamic_reference(&self) -> Option<SchemaNode<'s>> {
        self.node().dynamic_ref.as_ref().map(|d| self.at(d.0))
    }

    /// The subschema `$ref` names; `None` without a `$ref`.
    pub fn reference(&self) -> Option<SchemaNode<'s>> {
        self.node().reference.map(|id| self.at(id))
    }

    /// Whether the subschema is a `$ref` and nothing else (annotations
    /// aside).
    pub fn is_bare_ref(&self) -> bool {
        self.node().bare.is_some()
    }

    /// The node a chain of bare `$ref`s ends at (this node when it is not a
    /// bare `$ref`); bounded, so a chain that loops ends.
    pub fn resolved(&self) -> SchemaNode<'s> {
        let mut n = *self;
        for _ in 0..super::compile::MAX_CHAIN {
            match n.node().bare {
                Some(to) => n = n.at(to),
                None => break,
            }
        }
        n
    }

    /// The name of the `$defs` entry this subschema is; `None` for any other.
    pub fn def_name(&self) -> Option<&'s str> {
        self.node().def.as_deref()
    }

    /// How a message names this subschema: its `$defs` name, else its
    /// `title`.
    pub fn label(&self) -> Option<&'s str> {
        self.node().label.as_deref()
    }

    /// `description`.
    pub fn description(&self) -> Option<&'s str> {
        self.node().description.as_deref()
    }

    /// `anyOf`.
    pub fn any_of(&self) -> Option<SchemaUnion<'s>> {
        self.node().any_of.as_deref().map(|u| SchemaUnion { schema: self.schema, union: u, keyword: name::ANY_OF })
    }

    /// `oneOf`.
    pub fn one_of(&self) -> Option<SchemaUnion<'s>> {
        self.node().one_of.as_deref().map(|u| SchemaUnion { schema: self.schema, union: u, keyword: name::ONE_OF })
    }

    /// `allOf`, in order (empty when absent).
    pub fn all_of(&self) -> impl Iterator<Item = SchemaNode<'s>> + 's {
        let schema = self.schema;
        self.node().all_of.iter().map(move |id| SchemaNode { schema, id: *id })
    }

    /// `not`.
    pub fn not(&self) -> Option<SchemaNode<'s>> {
        self.node().not.map(|id| self.at(id))
    }

    /// `if`, with its `then` and `else`; `None` without an `if` (a `then` or
    /// `else` alone has no effect and is not kept).
    pub fn condition(&self) -> Option<SchemaCondition<'s>> {
        self.node().condition.as_ref().map(|c| SchemaCondition {
            test: self.at(c.test),
            then: c.then.map(|id| self.at(id)),
            otherwise: c.otherwise.map(|id| self.at(id)),
        })
    }
}

/// An `anyOf` or `oneOf` of a [`SchemaNode`].
#[derive(Clone, Copy)]
pub struct SchemaUnion<'s> {
    schema: &'s Schema,
    union: &'s Union,
    keyword: &'static str,
}

impl<'s> SchemaUnion<'s> {
    /// `anyOf` or `oneOf`.
    pub fn keyword(&self) -> &'static str {
        self.keyword
    }

    /// The members, in document order.
    pub fn members(&self) -> impl Iterator<Item = SchemaNode<'s>> + 's {
        let schema = self.schema;
        self.union.members.iter().map(move |id| SchemaNode { schema, id: *id })
    }

    /// The property whose constant picks the member, when the union is
    /// tagged (every member pins the same required property to a distinct
    /// constant).
    pub fn tag_key(&self) -> Option<&'s str> {
        self.union.tag.as_ref().map(|t| &*t.key)
    }

    /// Each member's tag value, in member order; `None` when untagged.
    pub fn tag_values(&self) -> Option<Vec<SchemaLiteral<'s>>> {
        self.union.tag.as_ref().map(|t| t.values.iter().map(SchemaLiteral).collect())
    }
}

/// `if`/`then`/`else` of a [`SchemaNode`].
#[derive(Clone, Copy, Debug)]
pub struct SchemaCondition<'s> {
    /// `if`.
    pub test: SchemaNode<'s>,
    /// `then`, when present.
    pub then: Option<SchemaNode<'s>>,
    /// `else`, when present.
    pub otherwise: Option<SchemaNode<'s>>,
}

/// A JSON value the schema names: a `const`, an `enum` member, a union tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchemaLiteral<'s>(&'s Literal);

impl<'s> SchemaLiteral<'s> {
    /// The value as canonical JSON (RFC 8785: keys sorted, numbers by value).
    pub fn canonical_json(&self) -> &'s str {
        &self.0.canonical
    }

    /// The decoded text when the value is a string.
    pub fn as_str(&self) -> Option<&'s str> {
        self.0.string.as_deref()
    }

    /// How findings show the value: a string quoted (`'text'`), anything
    /// else as its JSON on one line.
    pub fn display(&self) -> String {
        self.0.display()
    }
}
