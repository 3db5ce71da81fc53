//! Compiling a `schema` member: the positioned JSON tree of the contract
//! file -> the node arena of [`Schema`].
//!
//! Three passes: every subschema becomes a node (keywords checked, unknown
//! ones refused with their position), then every `$ref` is resolved, then
//! the graph is checked for reference cycles that never descend into the
//! value and its tagged unions are found.
//!
//! References resolve as JSON Schema 2020-12 says: the document root and
//! every subschema with an `$id` is a resource whose URI is that `$id`
//! resolved against the enclosing resource's ([`uri::resolve`]); a `$ref` is
//! resolved against the URI of the resource that holds it, and names that
//! resource's root (no fragment), a JSON Pointer from its root (`#/...`) or
//! one of its `$anchor`s (`#name`). A reference to a resource the document
//! does not hold is refused: a contract is one self-contained document
//! (`import schema --resolve` bundles other files into it).
//!
//! A `$dynamicRef` resolves as a `$ref` does; when its target declares the
//! `$dynamicAnchor` its fragment names, it is dynamic: it keeps every
//! resource that declares that anchor, and the walker picks the outermost
//! one in the dynamic scope. `$dynamicAnchor` is also a plain anchor.

use std::collections::{HashMap, HashSet};

use super::uri::{self, DEFAULT_BASE};
use super::{Condition, Id, Literal, Node, Resume, Schema, Tag, Union, ANNOTATIONS, PROPERTY_SCAN};
use crate::contract::load::{hint, multiple_of, pattern, ranges, Ctx};
use crate::contract::{Constraints, JsonType, Sparse, TypeSet};
use crate::json::canonical::canonical;
use crate::json::scan::Scanner;
use crate::json::text::{key_head, quote};
use crate::json::tree::{Node as Json, Value};
use crate::keywords::lengths;

/// The keywords that are validated, diffed and generated.
const SCHEMA_KEYWORDS: &str = "type, enum, const, properties, required, additionalProperties, patternProperties, \
     propertyNames, minProperties, maxProperties, dependentRequired, dependentSchemas, items, prefixItems, contains, \
     minContains, maxContains, minItems, maxItems, uniqueItems, anyOf, oneOf, allOf, not, if, then, else, $ref, \
     $defs, $anchor, unevaluatedProperties, unevaluatedItems, $dynamicRef, $dynamicAnchor, format, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength, \
     maxLength, pattern";

/// Draft-07 spellings, refused with a pointer to `import schema`.
const DRAFT_07: &[&str] = &["definitions", "dependencies", "additionalItems"];

/// How deep applicators (`$ref`, `allOf`, ...) may chain on one value before
/// the walker stops: far beyond any real schema, and a bound on a crafted one.
pub(crate) const MAX_CHAIN: usize = 64;

/// The URI a `$ref` to the JSON Schema 2020-12 meta-schema resolves to.
const METASCHEMA: &str = "https://json-schema.org/draft/2020-12/schema";

/// A schema resource: the document root or a subschema with an `$id`.
#[derive(Default)]
struct Resource {
    /// JSON Pointer from the resource's root (escaped segments joined by
    /// `/`, `""` for the root) -> node.
    pointers: HashMap<String, Id>,
    /// `$anchor` and `$dynamicAnchor` -> node, of this resource only.
    anchors: HashMap<String, Id>,
    /// `$dynamicAnchor` -> node, of this resource only.
    dynamic_anchors: HashMap<String, Id>,
}

/// A `$ref` to resolve.
struct Ref {
    node: Id,
    text: String,
    /// The URI of the resource that holds it.
    base: String,
    offset: usize,
    /// A `$dynamicRef`.
    dynamic: bool,
}

struct Compiler<'c, 'x> {
    cx: &'c mut Ctx<'x>,
    nodes: Vec<Node>,
    /// Every resource, the document root first.
    resources: Vec<Resource>,
    /// Resource URI (absolute, no fragment) -> index in `resources`.
    uris: HashMap<String, usize>,
    /// The resources enclosing the subschema being compiled, innermost last:
    /// its index, its URI and the length of the document pointer at its root.
    open: Vec<(usize, String, usize)>,
    refs: Vec<Ref>,
    /// `$defs` entries: node -> name, for messages.
    names: Vec<(Id, String)>,
}

/// Compiles the `schema` member; `None` after reporting every problem.
pub(in crate::contract) fn compile(cx: &mut Ctx<'_>, root: &Json<'_>) -> Option<Schema> {
    let before = cx.diags_len();
    let mut c = Compiler {
        cx,
        nodes: Vec::new(),
        resources: Vec::new(),
        uris: HashMap::new(),
        open: Vec::new(),
        refs: Vec::new(),
        names: Vec::new(),
    };
    c.node(root, &mut String::new());
    c.resolve();
    for (id, name) in std::mem::take(&mut c.names) {
        let node = &mut c.nodes[id as usize];
        node.def = Some(name.clone().into_boxed_str());
        node.label.get_or_insert_with(|| name.into_boxed_str());
    }
    if c.cx.diags_len() == before {
        c.cycles();
    }
    if c.cx.diags_len() > before {
        return None;
    }
    let mut canon = String::new();
    let mut s = Scanner::new(c.cx.bytes);
    s.seek(root.offset);
    canonical(&mut s, &mut canon).ok()?;
    Some(finish(c.nodes, canon))
}

/// The graph made ready for the walker, the generated code and the diff:
/// tagged unions found and every flag derived from a node's keywords set.
/// Both forms end here: a compiled `schema` and a lowered fields form.
pub(super) fn finish(mut nodes: Vec<Node>, canonical: String) -> Schema {
    tags(&mut nodes);
    for n in &mut nodes {
        n.trivial = n.is_trivial();
        n.applies = n.in_place();
        n.only_applies = n.applies && n.has_no_own_keyword();
        n.bare = if n.is_bare_ref() { n.reference } else { None };
        // By hash: a node may declare a million properties.
        let required: HashMap<&str, u32> = n.required.iter().enumerate().map(|(i, r)| (&**r, i as u32)).collect();
        n.property_required = n.properties.iter().map(|(name, _)| required.get(&**name).copied()).collect();
        let declared: HashSet<&str> = n.properties.iter().map(|(name, _)| &**name).collect();
        n.required_elsewhere = n.required.iter().any(|r| !declared.contains(&**r));
        n.property_index = (n.properties.len() > PROPERTY_SCAN).then(|| {
            Box::new(n.properties.iter().enumerate().rev().map(|(i, (name, _))| (name.as_bytes().into(), i)).collect())
        });
        n.property_heads = n.properties.iter().map(|(name, _)| (key_head(name.as_bytes()), name.len())).collect();
        n.plain = n.bare.is_none() && !n.never && !n.trivial && !n.applies;
        n.members_only = n.pattern_properties.is_empty()
            && n.property_names.is_none()
            && n.min_properties.is_none()
            && n.max_properties.is_none()
            && n.dependent_required.is_empty()
            && !n.required_elsewhere;
        n.object_direct = n.plain
            && n.enum_values.is_none()
            && n.constant.is_none()
            && n.types.is_none_or(|t| t.contains(JsonType::Object));
        n.string_checks = n.enum_values.is_some()
            || n.constant.is_some()
            || lengths::any(&n.constraints)
            || n.constraints.pattern.is_some()
            || n.format.is_some();
    }
    let trivial: Vec<bool> = nodes.iter().map(|n| n.trivial).collect();
    for n in &mut nodes {
        n.any_object = n.plain
            && n.members_only
            && n.enum_values.is_none()
            && n.constant.is_none()
            && n.properties.is_empty()
            && n.required.is_empty()
            // (A closed object's `additionalProperties` is `false`: not trivial.)
            && n.additional.is_none_or(|id| trivial[id as usize]);
    }
    if nodes.first().is_some_and(|root| root.dynamic_scope) {
        // Every node is read through `value`, which keeps the dynamic scope.
        for n in &mut nodes {
            n.plain = false;
            n.any_object = false;
            n.object_direct = false;
        }
    }
    resumes(&mut nodes);
    Schema { nodes, canonical, strict: false }
}

/// `/a~1b/c` in JSON Pointer form, for messages.
fn pointer_text(path: &str) -> String {
    if path.is_empty() {
        return "the schema root".into();
    }
    format!("/{path}")
}

fn escape_segment(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl Compiler<'_, '_> {
    fn at(&mut self, offset: usize, message: String) {
        self.cx.at(offset, None, message);
    }

    /// Opens the resource whose root is the subschema at `path` (the
    /// document root, or a subschema whose `$id` is `id`): `None` when the
    /// `$id` cannot name one, reported.
    fn open_resource(&mut self, id: Option<&Json<'_>>, path: &str) -> Option<()> {
        let uri = match id {
            None => DEFAULT_BASE.to_string(),
            Some(value) => {
                let Value::String(text) = &value.value else {
                    let msg = format!("'$id' must be a string, found {}", value.value.type_name());
                    self.at(value.offset, msg);
                    return None;
                };
                let enclosing = self.open.last().map_or(DEFAULT_BASE, |(_, u, _)| u.as_str());
                let resolved = uri::resolve(enclosing, text);
                let (absolute, fragment) = uri::split_fragment(&resolved);
                if fragment.is_some_and(|f| !f.is_empty()) {
                    let msg = format!(
                        "$id {} at {} has a fragment: in 2020-12 an $id names a resource, and '$anchor' names a place in it",
                        quote(text, 120),
                        pointer_text(path)
                    );
                    self.at(value.offset, msg);
                    return None;
                }
                absolute.to_string()
            }
        };
        let index = self.resources.len();
        if let Some(value) = id.filter(|_| self.uris.contains_key(&uri)) {
            let written = match &value.value {
                Value::String(text) => quote(text, 120),
                _ => String::new(),
            };
            let msg = format!("$id {written} at {} names a resource that an earlier $id names", pointer_text(path));
            self.at(value.offset, msg);
            return None;
        }
        self.uris.entry(uri.clone()).or_insert(index);
        self.resources.push(Resource::default());
        self.open.push((index, uri, path.len()));
        Some(())
    }

    /// Records that `id` is at `path`: for the document root's resource by
    /// its whole pointer, and for the innermost resource by the pointer from
    /// its root.
    fn place(&mut self, id: Id, path: &str) {
        self.resources[0].pointers.insert(path.to_string(), id);
        if let Some(&(index, _, root)) = self.open.last().filter(|(index, _, _)| *index != 0) {
            let rel = path[root..].strip_prefix('/').unwrap_or(&path[root..]);
            self.resources[index].pointers.insert(rel.to_string(), id);
        }
    }

    /// Compiles the subschema at `json`, whose pointer is `path`.
    fn node(&mut self, json: &Json<'_>, path: &mut String) -> Id {
        let id = self.nodes.len() as Id;
        self.nodes.push(Node { offset: json.offset, ..Node::default() });
        let declared = match &json.value {
            Value::Object(members) => members.iter().find(|(k, _)| &*k.name == "$id").map(|(_, v)| v),
            _ => None,
        };
        let opened = if path.is_empty() {
            // The root is a resource even when its `$id` is refused.
            self.open_resource(declared, path).or_else(|| self.open_resource(None, path)).is_some()
        } else {
            declared.is_some() && self.open_resource(declared, path).is_some()
        };
        self.place(id, path);
        let id = self.body(id, json, path);
        self.nodes[id as usize].resource = self.open.last().map_or(0, |(i, _, _)| *i) as u32;
        if opened {
            self.open.pop();
        }
        id
    }

    /// The keywords of the subschema at `json` into node `id`.
    fn body(&mut self, id: Id, json: &Json<'_>, path: &mut String) -> Id {
        let members = match &json.value {
            Value::Bool(true) => return id,
            Value::Bool(false) => {
                self.nodes[id as usize].never = true;
                return id;
            }
            Value::Object(members) => members,
            other => {
                let msg = format!(
                    "a schema must be an object or a boolean, found {} at {}",
                    other.type_name(),
                    pointer_text(path)
                );
                self.at(json.offset, msg);
                return id;
            }
        };
        let mut n = Node { offset: json.offset, ..Node::default() };
        let mut c = Constraints::default();
        let mut test = None;
        let (mut then, mut otherwise) = (None, None);
        let len = path.len();
        for (key, value) in members {
            let k = &*key.name;
            match k {
                "type" => n.types = self.types(value),
                "enum" => n.enum_values = self.enum_values(value),
                "const" => n.constant = self.literal(value),
                "format" => {
                    if let Some(name) = self.cx.string(value, None, "format") {
                        n.format = crate::format::ASSERTED.iter().copied().find(|f| *f == name);
                    }
                }
                "minimum" => c.minimum = self.cx.number(value, None, k),
                "maximum" => c.maximum = self.cx.number(value, None, k),
                "exclusiveMinimum" => c.exclusive_minimum = self.cx.number(value, None, k),
                "exclusiveMaximum" => c.exclusive_maximum = self.cx.number(value, None, k),
                "multipleOf" => c.multiple_of = multiple_of(self.cx, value, None),
                "minLength" => c.min_length = self.cx.count(value, None, k),
                "maxLength" => c.max_length = self.cx.count(value, None, k),
                "minItems" => c.min_items = self.cx.count(value, None, k),
                "maxItems" => c.max_items = self.cx.count(value, None, k),
                "uniqueItems" => c.unique_items = self.cx.boolean(value, None, k).unwrap_or(false),
                "pattern" => {
                    c.pattern = self.cx.string(value, None, k).and_then(|p| pattern(self.cx, value, None, p));
                }
                "minProperties" => n.min_properties = self.cx.count(value, None, k),
                "maxProperties" => n.max_properties = self.cx.count(value, None, k),
                "minContains" => n.min_contains = self.cx.count(value, None, k),
                "maxContains" => n.max_contains = self.cx.count(value, None, k),
                "required" => n.required = self.names(value, k),
                "properties" | "$defs" | "patternProperties" | "dependentSchemas" => {
                    let Some(entries) = self.object(value, k) else { continue };
                    for (name, v) in entries {
                        let id = self.sub(path, &format!("{k}/{}", escape_segment(name)), v);
                        match k {
                            "properties" => n.properties.push((name.into(), id)),
                            "$defs" => self.names.push((id, name.to_string())),
                            "dependentSchemas" => n.dependent_schemas.push((name.into(), id)),
                            _ => {
                                let compiled = pattern(self.cx, v, None, name.to_string());
                                if let Some(p) = compiled {
                                    n.pattern_properties.push((p, id));
                                }
                            }
                        }
                    }
                }
                "dependentRequired" => {
                    let Some(entries) = self.object(value, k) else { continue };
                    for (name, v) in entries {
                        let required = self.names(v, "dependentRequired");
                        n.dependent_required.push((name.into(), required));
                    }
                }
                "additionalProperties" => {
                    n.closed = matches!(value.value, Value::Bool(false));
                    n.additional = Some(self.sub(path, k, value));
                }
                "propertyNames" => n.property_names = Some(self.sub(path, k, value)),
                "items" => {
                    if let Value::Array(_) = value.value {
                        let msg = format!(
                            "'items' as an array is the draft-07 form at {}: write 'prefixItems' (`cargo protocolarc import schema` converts it)",
                            pointer_text(&path[..len])
                        );
                        self.at(value.offset, msg);
                        continue;
                    }
                    n.items = Some(self.sub(path, k, value));
                }
                "contains" => n.contains = Some(self.sub(path, k, value)),
                "unevaluatedProperties" => n.unevaluated_properties = Some(self.sub(path, k, value)),
                "unevaluatedItems" => n.unevaluated_items = Some(self.sub(path, k, value)),
                "not" => n.not = Some(self.sub(path, k, value)),
                "if" => test = Some(self.sub(path, k, value)),
                "then" => then = Some(self.sub(path, k, value)),
                "else" => otherwise = Some(self.sub(path, k, value)),
                "prefixItems" | "allOf" | "anyOf" | "oneOf" => {
                    let Some(items) = self.list(value, k) else { continue };
                    let ids: Vec<Id> =
                        items.iter().enumerate().map(|(i, v)| self.sub(path, &format!("{k}/{i}"), v)).collect();
                    match k {
                        "prefixItems" => n.prefix_items = ids,
                        "allOf" => n.all_of = ids,
                        "anyOf" => n.any_of = Some(Box::new(Union { members: ids, tag: None })),
                        _ => n.one_of = Some(Box::new(Union { members: ids, tag: None })),
                    }
                }
                "$ref" | "$dynamicRef" => {
                    if let Some(text) = self.cx.string(value, None, k) {
                        let base = self.open.last().map_or_else(|| DEFAULT_BASE.to_string(), |(_, u, _)| u.clone());
                        let dynamic = k == "$dynamicRef";
                        self.refs.push(Ref { node: id, text, base, offset: value.offset, dynamic });
                    }
                }
                "$anchor" | "$dynamicAnchor" => {
                    if let Some(a) = self.cx.string(value, None, k) {
                        let index = self.open.last().map_or(0, |(i, _, _)| *i);
                        let resource = &mut self.resources[index];
                        if k == "$dynamicAnchor" {
                            resource.dynamic_anchors.insert(a.clone(), id);
                        }
                        if resource.anchors.insert(a.clone(), id).is_some_and(|other| other != id) {
                            self.at(value.offset, format!("{k} {} is declared twice", quote(&a, 80)));
                        }
                    }
                }
                "title" => {
                    if let Value::String(t) = &value.value {
                        n.label = Some(t.as_ref().into());
                    }
                }
                "description" => {
                    if let Value::String(t) = &value.value {
                        n.description = Some(t.as_ref().into());
                    }
                }
                "default" => n.default = self.literal(value).map(Box::new),
                _ if ANNOTATIONS.contains(&k) => {}
                _ if DRAFT_07.contains(&k) => {
                    let msg = format!(
                        "'{k}' at {} is a draft-07 keyword: `cargo protocolarc import schema` converts a draft-07 schema to 2020-12",
                        pointer_text(&path[..len])
                    );
                    self.at(key.offset, msg);
                }
                other => {
                    let msg = format!(
                        "unsupported keyword {} at {}{} (supported: {SCHEMA_KEYWORDS}; annotations: {})",
                        quote(other, 80),
                        pointer_text(&path[..len]),
                        hint(other, SCHEMA_KEYWORDS),
                        ANNOTATIONS.join(", ")
                    );
                    self.at(key.offset, msg);
                }
            }
        }
        ranges(self.cx, json, None, &c);
        if let Some(test) = test {
            n.condition = Some(Condition { test, then, otherwise });
        }
        n.constraints = Sparse::new(c);
        self.nodes[id as usize] = n;
        id
    }

    /// Compiles the subschema `v` found at `suffix` below `path`.
    fn sub(&mut self, path: &mut String, suffix: &str, v: &Json<'_>) -> Id {
        let len = path.len();
        if len > 0 {
            path.push('/');
        }
        path.push_str(suffix);
        let id = self.node(v, path);
        path.truncate(len);
        id
    }

    fn types(&mut self, value: &Json<'_>) -> Option<TypeSet> {
        let one = |this: &mut Self, v: &Json<'_>| -> Option<JsonType> {
            let Value::String(name) = &v.value else {
                this.at(v.offset, format!("'type' must name a type, found {}", v.value.type_name()));
                return None;
            };
            let t = JsonType::from_name(name);
            if t.is_none() {
                let known = "string, integer, number, boolean, object, array, null";
                let msg = format!("unknown type {}{} (expected one of: {known})", quote(name, 80), hint(name, known));
                this.at(v.offset, msg);
            }
            t
        };
        match &value.value {
            Value::Array(items) => {
                let mut set = TypeSet::EMPTY;
                for item in items {
                    set = set.with(one(self, item)?);
                }
                Some(set)
            }
            _ => one(self, value).map(TypeSet::of),
        }
    }

    fn literal(&mut self, value: &Json<'_>) -> Option<Literal> {
        let mut canon = String::new();
        let mut s = Scanner::new(self.cx.bytes);
        s.seek(value.offset);
        if let Err(e) = canonical(&mut s, &mut canon) {
            self.at(e.offset, e.kind.message().to_string());
            return None;
        }
        let string = match &value.value {
            Value::String(text) => Some(text.as_ref().into()),
            _ => None,
        };
        // The value as written, compact: the span the scanner just read.
        let raw = &self.cx.bytes[value.offset..s.offset()];
        let shown = match &value.value {
            Value::Number(d) => d.raw().to_string(),
            _ => serde_json::from_slice::<serde_json::Value>(raw)
                .map(|v| v.to_string())
                .unwrap_or_else(|_| String::from_utf8_lossy(raw).into_owned()),
        };
        let shown = crate::json::text::one_line(&shown).into_owned().into_boxed_str();
        Some(Literal { canonical: canon.into_boxed_str(), string, shown })
    }

    fn enum_values(&mut self, value: &Json<'_>) -> Option<Vec<Literal>> {
        let Value::Array(items) = &value.value else {
            self.at(value.offset, format!("'enum' must be an array, found {}", value.value.type_name()));
            return None;
        };
        items.iter().map(|item| self.literal(item)).collect()
    }

    fn names(&mut self, value: &Json<'_>, key: &str) -> Vec<Box<str>> {
        let Value::Array(items) = &value.value else {
            self.at(value.offset, format!("'{key}' must be an array of strings, found {}", value.value.type_name()));
            return Vec::new();
        };
        let mut out: Vec<Box<str>> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for item in items {
            match &item.value {
                Value::String(s) if !seen.insert(s.as_ref()) => {
                    self.at(item.offset, format!("'{key}' lists {} twice", quote(s, 80)));
                }
                Value::String(s) => out.push(s.as_ref().into()),
                other => self.at(item.offset, format!("'{key}' must list strings, found {}", other.type_name())),
            }
        }
        out
    }

    fn object<'j, 'a>(&mut self, value: &'j Json<'a>, key: &str) -> Option<Vec<(&'j str, &'j Json<'a>)>> {
        match &value.value {
            Value::Object(members) => Some(members.iter().map(|(k, v)| (&*k.name, v)).collect()),
            other => {
                self.at(value.offset, format!("'{key}' must be an object, found {}", other.type_name()));
                None
            }
        }
    }

    fn list<'j, 'a>(&mut self, value: &'j Json<'a>, key: &str) -> Option<&'j [Json<'a>]> {
        match &value.value {
            Value::Array(items) if !items.is_empty() => Some(items),
            Value::Array(_) => {
                self.at(value.offset, format!("'{key}' must list at least one schema"));
                None
            }
            other => {
                self.at(value.offset, format!("'{key}' must be an array of schemas, found {}", other.type_name()));
                None
            }
        }
    }

    /// Resolves every `$ref` within the document.
    fn resolve(&mut self) {
        for r in std::mem::take(&mut self.refs) {
            let resolved = uri::resolve(&r.base, &r.text);
            let (resource, fragment) = uri::split_fragment(&resolved);
            // How the message names the reference: as written, and as
            // resolved when that says more.
            let named = if resolved == r.text || resolved.starts_with(DEFAULT_BASE) {
                quote(&r.text, 120)
            } else {
                format!("{} (resolved: {})", quote(&r.text, 120), quote(&resolved, 160))
            };
            let Some(&index) = self.uris.get(resource) else {
                let msg = if resource == METASCHEMA || resource == METASCHEMA.replacen("https:", "http:", 1) {
                    format!("$ref {named} is the JSON Schema meta-schema, which a contract does not carry")
                } else {
                    format!(
                        "$ref {named} is not local: it names a document that is not in this contract (`cargo protocolarc import schema FILE --resolve DIR` bundles the files a schema references)"
                    )
                };
                self.at(r.offset, msg);
                continue;
            };
            let table = &self.resources[index];
            let target = match fragment.map(percent_decode) {
                None => table.pointers.get("").copied(),
                Some(None) => None,
                Some(Some(f)) if f.is_empty() || f.starts_with('/') => {
                    let segments: Option<Vec<String>> = f
                        .split('/')
                        .skip(1)
                        .map(|s| if s.contains('~') { unescape(s) } else { Some(s.to_string()) })
                        .collect();
                    segments.and_then(|segs| {
                        let key: Vec<String> = segs.iter().map(|s| escape_segment(s)).collect();
                        table.pointers.get(&key.join("/")).copied()
                    })
                }
                Some(Some(f)) => table.anchors.get(&f).copied(),
            };
            match target {
                Some(t) if r.dynamic => {
                    // Dynamic only when the target itself declares the
                    // `$dynamicAnchor` the fragment names (2020-12's bookend).
                    let name = fragment.and_then(percent_decode).filter(|f| !f.is_empty() && !f.starts_with('/'));
                    let bookended =
                        name.as_ref().filter(|f| self.resources[index].dynamic_anchors.get(f.as_str()) == Some(&t));
                    let candidates: Vec<(u32, Id)> = match bookended {
                        Some(f) => (0..self.resources.len())
                            .filter_map(|i| self.resources[i].dynamic_anchors.get(f.as_str()).map(|&n| (i as u32, n)))
                            .collect(),
                        None => Vec::new(),
                    };
                    if !candidates.is_empty() {
                        self.nodes[0].dynamic_scope = true;
                    }
                    self.nodes[r.node as usize].dynamic_ref = Some(Box::new((t, candidates)));
                }
                Some(t) => {
                    self.nodes[r.node as usize].reference = Some(t);
                }
                None => {
                    let keyword = if r.dynamic { "$dynamicRef" } else { "$ref" };
                    let msg = format!("{keyword} {named} names no schema in this document");
                    self.at(r.offset, msg);
                }
            }
        }
    }

    /// Refuses a cycle of in-place applicators: it would apply a schema to
    /// the same value forever.
    fn cycles(&mut self) {
        // 0 unvisited, 1 on the stack, 2 done.
        let mut state = vec![0u8; self.nodes.len()];
        for start in 0..self.nodes.len() {
            if state[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            state[start] = 1;
            while let Some(&mut (n, ref mut next)) = stack.last_mut() {
                let edges = in_place_edges(&self.nodes[n]);
                if let Some(&to) = edges.get(*next) {
                    *next += 1;
                    match state[to as usize] {
                        0 => {
                            state[to as usize] = 1;
                            stack.push((to as usize, 0));
                        }
                        1 => {
                            let offset = self.nodes[to as usize].offset;
                            self.at(
                                offset,
                                "this schema applies itself to the same value through $ref or allOf/anyOf/oneOf/not/if without descending into a property or element: the check would never end".into(),
                            );
                            return;
                        }
                        _ => {}
                    }
                } else {
                    state[n] = 2;
                    stack.pop();
                }
            }
        }
    }
}

/// Marks the unions whose members are all pinned by one required
/// property's constant.
fn tags(nodes: &mut [Node]) {
    for i in 0..nodes.len() {
        for which in [false, true] {
            let union = if which { &nodes[i].one_of } else { &nodes[i].any_of };
            let Some(union) = union else { continue };
            let tag = tag(nodes, &union.members);
            let slot = if which { &mut nodes[i].one_of } else { &mut nodes[i].any_of };
            if let Some(u) = slot {
                u.tag = tag;
            }
        }
    }
}

fn tag(nodes: &[Node], members: &[Id]) -> Option<Tag> {
    let first = target(nodes, members[0]);
    'key: for (key, _) in &first.properties {
        let mut values: Vec<Literal> = Vec::with_capacity(members.len());
        for &m in members {
            let node = target(nodes, m);
            if !node.required.iter().any(|r| r == key) {
                continue 'key;
            }
            let Some(&(_, p)) = node.properties.iter().find(|(k, _)| k == key) else { continue 'key };
            let p = target(nodes, p);
            let value = match (&p.constant, &p.enum_values) {
                (Some(c), _) => c.clone(),
                (None, Some(e)) if e.len() == 1 => e[0].clone(),
                _ => continue 'key,
            };
            if values.contains(&value) {
                continue 'key;
            }
            values.push(value);
        }
        return Some(Tag { key: key.clone(), values, resume: Vec::new() });
    }
    None
}

/// The node a chain of bare `$ref`s ends at.
fn target(nodes: &[Node], mut id: Id) -> &Node {
    for _ in 0..MAX_CHAIN {
        let n = &nodes[id as usize];
        match n.reference {
            Some(to) if n.is_bare_ref() => id = to,
            _ => return n,
        }
    }
    &nodes[id as usize]
}

/// Sets each tagged union's [`Resume`]s (the nodes' flags set first): one
/// per member, none when the tag's key needs escapes in JSON.
fn resumes(nodes: &mut [Node]) {
    for i in 0..nodes.len() {
        for which in [false, true] {
            let union = if which { &nodes[i].one_of } else { &nodes[i].any_of };
            let Some(u) = union.as_deref().filter(|u| u.tag.is_some()) else { continue };
            let tag = u.tag.as_ref().expect("filtered");
            // Empty for a key the bytes spell otherwise: no first-key tag is read.
            let resume = if crate::json::text::plain_key(tag.key.as_bytes()) {
                u.members.iter().zip(&tag.values).map(|(&m, v)| resume(nodes, m, &tag.key, v)).collect()
            } else {
                Vec::new()
            };
            let slot = if which { &mut nodes[i].one_of } else { &mut nodes[i].any_of };
            if let Some(tag) = slot.as_mut().and_then(|u| u.tag.as_mut()) {
                tag.resume = resume;
            }
        }
    }
}

/// How member `m` reads its object on from a first-key tag `key` whose
/// value is `value`, when it can ([`Resume`]).
fn resume(nodes: &[Node], m: Id, key: &str, value: &Literal) -> Option<Resume> {
    let text = value.string.as_deref().filter(|t| !t.bytes().any(|c| c < 0x20))?;
    let (mut id, mut hops) = (m, 0u32);
    while let Some(to) = nodes[id as usize].bare {
        if hops as usize >= MAX_CHAIN {
            return None;
        }
        (id, hops) = (to, hops + 1);
    }
    let n = &nodes[id as usize];
    let reads_own_keys = n.plain
        && n.accepts(JsonType::Object)
        && n.enum_values.is_none()
        && n.constant.is_none()
        && n.pattern_properties.is_empty()
        && n.property_names.is_none();
    if !reads_own_keys {
        return None;
    }
    let property = n.properties.iter().position(|(name, _)| **name == *key)?;
    let pinned = nodes[n.properties[property].1 as usize].pins(text);
    pinned.then_some(Resume { node: id, hops, property: property as u32 })
}

/// The nodes applied to the same value as `n`.
pub(crate) fn in_place_edges(n: &Node) -> Vec<Id> {
    let mut out: Vec<Id> = n.reference.into_iter().collect();
    out.extend(&n.all_of);
    for u in [&n.any_of, &n.one_of].into_iter().flatten() {
        out.extend(&u.members);
    }
    out.extend(n.not);
    if let Some(c) = &n.condition {
        out.push(c.test);
        out.extend(c.then);
        out.extend(c.otherwise);
    }
    out.extend(n.dependent_schemas.iter().map(|(_, id)| *id));
    if let Some(d) = &n.dynamic_ref {
        out.push(d.0);
        out.extend(d.1.iter().map(|(_, id)| *id));
    }
    out
}

/// `~1` -> `/`, `~0` -> `~`; `None` for any other `~` sequence.
fn unescape(segment: &str) -> Option<String> {
    let mut out = String::with_capacity(segment.len());
    let mut chars = segment.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// A URI fragment's `%XX` escapes decoded; `None` when they do not form UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_string());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}
