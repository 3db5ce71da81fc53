//! The schema form of a contract (SPEC §10): a JSON Schema 2020-12 document
//! compiled into a graph of `Node`s that the schema walker
//! (`walk/schema/`) reads alongside the JSON bytes.
//!
//! Every subschema is one node in an arena, addressed by its `Id`; a
//! `$ref` is an edge to the node it names, so a recursive schema is a graph
//! with a cycle, compiled once. The compiler (`compile.rs`) refuses every
//! keyword outside the supported set, with its JSON position, and refuses a
//! reference cycle that never descends into the value (it would never end).
//!
//! A union (`anyOf`/`oneOf`) whose every member pins the same required
//! property to one constant is *tagged*: the compiler records the tag, and
//! the walker dispatches on it instead of trying every member.

pub(crate) mod compile;
pub(crate) mod lower;
pub mod uri;
#[doc(hidden)]
pub use lower::graph_shape;
mod view;
pub use view::{push_key, SchemaCondition, SchemaLiteral, SchemaNode, SchemaUnion};

pub(in crate::contract) use compile::compile;

use crate::contract::{Pattern, Sparse, TypeSet};
use crate::json::text::{key_head, same_bytes};
use crate::keywords::name;

/// Keywords kept and shown, never enforced: the annotations a schema may
/// carry (SPEC §10). Import and the compiler read this one list.
pub const ANNOTATIONS: &[&str] = &[
    name::TITLE,
    name::DESCRIPTION,
    name::DEFAULT,
    name::EXAMPLES,
    name::DEPRECATED,
    name::READ_ONLY,
    name::WRITE_ONLY,
    name::COMMENT,
    name::SCHEMA,
    name::ID,
    name::VOCABULARY,
    name::CONTENT_MEDIA_TYPE,
    name::CONTENT_ENCODING,
    name::CONTENT_SCHEMA,
];

/// A node's index in [`Schema::nodes`].
pub(crate) type Id = u32;

/// A compiled schema document.
#[derive(Debug, Clone)]
pub struct Schema {
    pub(crate) nodes: Vec<Node>,
    /// The schema's canonical JSON (RFC 8785 key order): two schemas with the
    /// same canonical text are the same contract shape. Empty for a lowered
    /// fields form, which has no schema text of its own.
    pub(crate) canonical: String,
    /// A fields-form contract's `strict` (its schema compiled for the finding
    /// walk): a warning, `field.unknown`, per undeclared key of the root
    /// object. JSON Schema has no warning, so a schema-form contract never
    /// sets it.
    pub(crate) strict: bool,
}

impl Schema {
    /// The root node.
    pub(crate) const ROOT: Id = 0;

    #[inline]
    pub(crate) fn node(&self, id: Id) -> &Node {
        &self.nodes[id as usize]
    }

    /// The schema as canonical JSON (RFC 8785 key order and number form);
    /// empty for a fields-form contract's lowered graph.
    pub fn canonical_json(&self) -> &str {
        &self.canonical
    }

    /// How many subschemas the document compiles to (`$ref` targets once).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }
}

/// One subschema.
#[derive(Debug, Clone, Default)]
pub(crate) struct Node {
    /// `false`: no value is valid here. (`true` is a node with no keyword.)
    pub never: bool,
    /// `type`; `None` accepts every type.
    pub types: Option<TypeSet>,
    /// `enum` members as canonical JSON, with their display form.
    pub enum_values: Option<Vec<Literal>>,
    /// `const` as canonical JSON.
    pub constant: Option<Literal>,
    /// Numeric, string-length, `pattern` and item-count keywords.
    pub constraints: Sparse,
    /// `format`, when it is one that is asserted.
    pub format: Option<&'static str>,
    /// `properties`, in document order.
    pub properties: Vec<(Box<str>, Id)>,
    /// `patternProperties`, in document order.
    pub pattern_properties: Vec<(Pattern, Id)>,
    /// `additionalProperties`.
    pub additional: Option<Id>,
    /// Whether `additionalProperties` is the `false` schema (a closed
    /// object: an undeclared key is `field.additionalProperties`).
    pub closed: bool,
    /// `propertyNames`.
    pub property_names: Option<Id>,
    /// `required`, in document order.
    pub required: Vec<Box<str>>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    /// `dependentRequired`: when the key is present, these must be too.
    pub dependent_required: Vec<(Box<str>, Vec<Box<str>>)>,
    /// `dependentSchemas`: when the key is present, the object must also
    /// pass this schema.
    pub dependent_schemas: Vec<(Box<str>, Id)>,
    /// `prefixItems`.
    pub prefix_items: Vec<Id>,
    /// `items` (the elements after `prefixItems`).
    pub items: Option<Id>,
    pub contains: Option<Id>,
    pub min_contains: Option<u64>,
    pub max_contains: Option<u64>,
    /// In-place applicators: `$ref`, `allOf`, `anyOf`, `oneOf`, `not`,
    /// `if`/`then`/`else`.
    pub reference: Option<Id>,
    pub all_of: Vec<Id>,
    pub any_of: Option<Box<Union>>,
    pub one_of: Option<Box<Union>>,
    pub not: Option<Id>,
    pub condition: Option<Condition>,
    /// `unevaluatedProperties`: applied to each key of an object that no
    /// other keyword evaluated (here or in a passing in-place subschema).
    pub unevaluated_properties: Option<Id>,
    /// `unevaluatedItems`: applied to each element no other keyword
    /// evaluated.
    pub unevaluated_items: Option<Id>,
    /// `$dynamicRef`: its static target, and, when that target declares the
    /// `$dynamicAnchor` the reference names, every resource that declares
    /// it (resource index, node), in document order: the walker picks the
    /// outermost one in the dynamic scope.
    #[allow(clippy::type_complexity)]
    pub dynamic_ref: Option<Box<(Id, Vec<(u32, Id)>)>>,
    /// The index of the schema resource (the root or an `$id`) that holds
    /// the node: the dynamic scope is a list of these.
    pub resource: u32,
    /// Set on the root only: the schema has a `$dynamicRef` whose target is
    /// dynamic, so the walker keeps the dynamic scope.
    pub dynamic_scope: bool,
    /// How a message names this node as a union member: its `$defs` name
    /// (through a `$ref`), else its `title`.
    pub label: Option<Box<str>>,
    /// The node's name when it is a `$defs` entry (one named type in
    /// generated code).
    pub def: Option<Box<str>>,
    /// `default` (an annotation: never enforced, but a changed default
    /// changes what an omitted value means, so the diff compares it).
    pub default: Option<Box<Literal>>,
    /// `description`, for generated docs.
    pub description: Option<Box<str>>,
    /// Byte offset of the subschema in the contract file.
    pub offset: usize,
    /// Set for a lowered fields form only: whether a field declares this
    /// path and how its requiredness reads there (`lower.rs`).
    pub field: Option<FieldMark>,
    /// Set after compiling: the target, when the node is a bare `$ref`.
    pub bare: Option<Id>,
    /// Set after compiling: whether the node constrains nothing.
    pub trivial: bool,
    /// Set after compiling: whether the node's own keywords constrain
    /// nothing (it only applies other schemas: a union, a `$ref`, `allOf`).
    pub only_applies: bool,
    /// Set after compiling: for each of `properties`, its index in
    /// `required` (the walker marks a required key as it reads the property).
    pub property_required: Vec<Option<u32>>,
    /// Set after compiling: for each of `properties`, its first eight bytes
    /// ([`key_head`]) and its length: [`Node::property_at`] compares a key
    /// with a declared name in one word.
    pub property_heads: Vec<(u64, usize)>,
    /// Set after compiling, for a node of more than [`PROPERTY_SCAN`]
    /// properties: each name's index (a scan of the heads would cost a wide
    /// contract's every key the whole list). Boxed: one word in every node.
    #[allow(clippy::box_collection)]
    pub property_index: Option<Box<std::collections::HashMap<Box<[u8]>, usize>>>,
    /// Set after compiling: whether the node is read by its own keywords
    /// only (not a bare `$ref`, not `false` nor `true`, no applicator).
    pub plain: bool,
    /// Set after compiling: whether a string value has a keyword of its own
    /// to meet (`enum`, `const`, lengths, `pattern`, `format`).
    pub string_checks: bool,
    /// Set after compiling: whether some `required` name is not among
    /// `properties` (then every other key is looked up in `required`).
    pub required_elsewhere: bool,
    /// Set after compiling: [`Node::in_place`], read by the walker on every
    /// value.
    pub applies: bool,
    /// Set after compiling: whether an object value meets every keyword of
    /// the node once its type does (no object keyword but an
    /// `additionalProperties` that is absent or accepts anything, no
    /// applicator, no `enum`/`const`; keywords of other types never apply to
    /// an object): the walker
    /// then reads its members as it skips a value (repeated keys still
    /// found), with no schema per member. The common open map of MCP
    /// (`arguments`, `_meta`, `structuredContent`).
    pub any_object: bool,
    /// Set after compiling: whether an object value is judged by its
    /// members alone (declared, required and additional properties: no
    /// `patternProperties`, `propertyNames`, bounds on the count,
    /// `dependentRequired`, or required name outside `properties`).
    pub members_only: bool,
    /// Set after compiling: whether a plain node reads an object value
    /// straight into its members (its type allows an object; no `enum` or
    /// `const` to compare the whole value with).
    pub object_direct: bool,
}

/// What the fields form says of a path that its schema does not: the diff
/// reports a fields-form change at the fields a contract declares, never at
/// a parent that a dotted path only implies; `describe` lists a field at
/// its line, and `describe` and `export` show a `format` the validator does
/// not assert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldMark {
    /// A field names this exact path (else a child's path implies it).
    pub declared: bool,
    /// Declared: the field's own `required`; implied: whether a child
    /// below it is required.
    pub required: bool,
    /// Declared: the 1-based line of the field in the contract file; 0 for
    /// an implied path.
    pub line: usize,
    /// Declared: the field's `format` when it is only an annotation (a
    /// format that is asserted is the node's own [`Node::format`]).
    pub format: Option<Box<str>>,
}

/// Declared properties a node scans (by head word and length) before it
/// looks its keys up in a hash index instead.
pub(crate) const PROPERTY_SCAN: usize = 32;

impl Node {
    /// The index in `properties` of the unescaped key `raw`.
    #[inline(always)]
    pub(crate) fn property_at(&self, raw: &[u8]) -> Option<usize> {
        if let Some(index) = &self.property_index {
            return index.get(raw).copied();
        }
        let (head, n) = (key_head(raw), raw.len());
        for (i, &(h, len)) in self.property_heads.iter().enumerate() {
            // Past eight bytes, the rest compared too.
            if h == head && len == n && (n <= 8 || same_bytes(&self.properties[i].0.as_bytes()[8..], &raw[8..])) {
                return Some(i);
            }
        }
        None
    }

    /// Whether the node applies other schemas to the same value, so that
    /// the walker must read the value more than once.
    pub(crate) fn in_place(&self) -> bool {
        self.reference.is_some()
            || !self.all_of.is_empty()
            || self.any_of.is_some()
            || self.one_of.is_some()
            || self.not.is_some()
            || self.condition.is_some()
            || !self.dependent_schemas.is_empty()
            || self.unevaluated_properties.is_some()
            || self.unevaluated_items.is_some()
            || self.dynamic_ref.is_some()
    }

    /// Whether the node is a bare `$ref` (annotations aside): the walker
    /// then simply reads the value with the target.
    pub(crate) fn is_bare_ref(&self) -> bool {
        self.reference.is_some() && {
            let mut rest = self.clone();
            rest.reference = None;
            rest.is_trivial()
        }
    }

    /// Whether the node constrains nothing (the `true` schema).
    pub(crate) fn is_trivial(&self) -> bool {
        self.has_no_own_keyword() && !self.in_place()
    }

    /// Whether none of the keywords that judge the value itself is set
    /// (applicators aside).
    pub(crate) fn has_no_own_keyword(&self) -> bool {
        !self.never
            && self.types.is_none()
            && self.enum_values.is_none()
            && self.constant.is_none()
            && self.constraints.is_empty()
            && self.format.is_none()
            && self.properties.is_empty()
            && self.pattern_properties.is_empty()
            && self.additional.is_none()
            && self.property_names.is_none()
            && self.required.is_empty()
            && self.min_properties.is_none()
            && self.max_properties.is_none()
            && self.dependent_required.is_empty()
            && self.prefix_items.is_empty()
            && self.items.is_none()
            && self.contains.is_none()
    }

    /// Whether the node's `type` (if any) takes values of JSON type `t`.
    pub(crate) fn accepts(&self, t: crate::contract::JsonType) -> bool {
        self.types.is_none_or(|set| set.accepts(t))
    }

    /// Whether a string equal to `value` passes this node, and the node asks
    /// nothing else of a string: what the walker's `own` checks (type,
    /// `enum`, `const`, lengths, pattern, format), nothing applied in place,
    /// not `false`. A tag property that pins its value so needs no second
    /// reading ([`Resume`]).
    pub(crate) fn pins(&self, value: &str) -> bool {
        if self.trivial {
            return true;
        }
        let member = |l: &Literal| l.string.as_deref() == Some(value);
        self.bare.is_none()
            && !self.never
            && !self.only_applies
            && !self.in_place()
            && self.accepts(crate::contract::JsonType::String)
            && self.constraints.is_empty()
            && self.format.is_none()
            && self.constant.as_ref().is_none_or(member)
            && self.enum_values.as_ref().is_none_or(|e| e.iter().any(member))
    }
}

/// An `anyOf`/`oneOf`.
#[derive(Debug, Clone)]
pub(crate) struct Union {
    pub members: Vec<Id>,
    /// Set when every member pins the same required property to a constant.
    pub tag: Option<Tag>,
}

/// The property that picks a tagged union's member.
#[derive(Debug, Clone)]
pub(crate) struct Tag {
    pub key: Box<str>,
    /// Each member's tag value as canonical JSON, in member order.
    pub values: Vec<Literal>,
    /// Set after compiling, in member order: how the member reads its
    /// object on from a tag that is the object's first key, when it can.
    /// Empty when the key needs escapes in JSON (its bytes are never the
    /// key's own): the tag is then always looked for by the scanner.
    pub resume: Vec<Option<Resume>>,
}

/// A tagged union's member that reads its object on from the tag when the
/// tag is the object's first key (`fast::first_key_tag` reads it straight
/// from the bytes), so that the tag is not read twice: the object node its
/// bare `$ref`s end at, how many `$ref`s that is, and the tag's index in
/// the node's `properties`. Set only when the node is read by its own
/// keywords alone, takes an object, has no `enum`, `const`,
/// `patternProperties` nor `propertyNames` (nothing else reads a key), and
/// its tag property [pins](Node::pins) the member's tag value, a string
/// without control characters (so bytes equal to it are that JSON string).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Resume {
    pub node: Id,
    pub hops: u32,
    pub property: u32,
}

/// `if`/`then`/`else`.
#[derive(Debug, Clone)]
pub(crate) struct Condition {
    pub test: Id,
    pub then: Option<Id>,
    pub otherwise: Option<Id>,
}

/// A JSON value a schema names (`const`, `enum` members, tags): compared by
/// its canonical JSON, shown as the contract wrote it.
#[derive(Debug, Clone)]
pub(crate) struct Literal {
    /// RFC 8785 form: key order sorted, numbers by value (`1.0` is `1`).
    pub canonical: Box<str>,
    /// The decoded text when the value is a string (the common case, matched
    /// without canonicalising the data).
    pub string: Option<Box<str>>,
    /// Any other value as compact JSON, as the contract writes it (numbers
    /// keep their spelling: `2`, `1.50`).
    pub shown: Box<str>,
}

impl PartialEq for Literal {
    /// JSON equality: by canonical form, whatever the spelling.
    fn eq(&self, other: &Self) -> bool {
        self.canonical == other.canonical
    }
}

impl Eq for Literal {}

impl Literal {
    /// How a message shows the value: a string quoted as messages quote
    /// them, anything else as its JSON.
    pub(crate) fn display(&self) -> String {
        match &self.string {
            Some(s) => crate::json::text::quote(s, crate::keywords::QUOTE_MAX),
            None => self.shown.to_string(),
        }
    }
}

/// `{'a', 'b'}`: members as messages show them.
pub(crate) fn literal_label(values: &[Literal]) -> String {
    let inner: Vec<String> = values.iter().map(Literal::display).collect();
    format!("{{{}}}", inner.join(", "))
}
