//! (feature `codegen`) Typed Rust for a schema-form contract, from its
//! schema graph:
//! - an object with `properties` is a struct (required keys as values,
//!   optional ones as `Option`), keeping undeclared keys in
//!   `unknown_fields` unless it is closed;
//! - a typed map (`additionalProperties` or `patternProperties`, no
//!   `properties`) is a `BTreeMap<String, T>`;
//! - a tagged union is an `enum` with `#[serde(tag = ...)]`, one variant per
//!   member named after its tag (`ContentBlock::Text(TextContent)`); the
//!   member's struct leaves the tag to the enum;
//! - an untagged union is an untagged `enum`, one variant per member;
//! - each `$defs` entry is one named type, reused wherever it is
//!   referenced; a type that contains itself is boxed where it is used;
//! - an `allOf` of open objects is one struct with every member's fields;
//! - what a type cannot say exactly (another `allOf`, `not`, `if`, a `$ref`
//!   beside other keywords, `prefixItems`) is a `protocolarc::Value`: never
//!   stricter than the validator, so `from_json` is `Ok` exactly when the
//!   body is valid.
//!
//! A fields-form contract is generated from its lowered graph
//! (`ContractSpec::walked`), by the rules of its path tree: a struct per
//! object level (`ToolCall`, `ToolCallParams`) with a `new` of its required
//! fields, a string `enum` or `const` as an enum (one value also its
//! `Default`), several types as an untagged enum, an integer field with
//! bounds that fit as `u64` or `i64`, a `{}` step as a typed map, and docs
//! that name the contract path of what they document.
//!
//! Validation: `Contract::fast_path` is generated (`schema_check.rs`), the
//! schema walker specialised to the graph, an exact verdict; a body it fails
//! gets its findings from the runtime's walker.

use std::collections::{HashMap, HashSet};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::options::Naming;
use super::{docs, ident_of, pascal_case, snake_case, unique, Item, UNKNOWN_FIELDS};
use crate::contract::schema::{literal_label, Id, Literal, Node, Schema};
use crate::contract::{ContractSpec, JsonType, TypeSet};
use crate::keywords::name;

pub(super) fn expand(
    spec: &ContractSpec,
    schema: &Schema,
    item: &Item,
    text: TokenStream,
    path: &str,
    naming: &mut Naming,
) -> TokenStream {
    let mut shared = HashMap::new();
    let keys = HashMap::new();
    let mut g = Gen::new(spec, schema, item.vis.clone(), naming, &mut shared, &keys);
    let title = spec.title().map(str::to_string).unwrap_or_else(|| spec.name().to_string());
    let mut docs = vec![format!("{title} (`{}`).", spec.id())];
    docs.extend(spec.doc().map(str::to_string));
    g.root(&item.name, &docs, item.attrs.clone());
    let ident = format_ident!("{}", item.name);
    let items = g.out;
    let check = super::schema_check::fast_path(schema);
    let contract = super::contract_impl(spec, &ident, &text, path, check);
    quote! {
        #(#items)*

        #contract
    }
}

/// The types of one message of a catalog module: its own type `name` (not
/// yet taken in `naming`), and each `$defs` entry not generated before in
/// the module. `keys` gives each `$defs` name its identity (the entry and
/// every entry it reaches, as written): an entry whose identity another
/// message generated already is that type, shared.
pub(super) fn message(
    spec: &ContractSpec,
    schema: &Schema,
    item: &Item,
    naming: &mut Naming,
    shared: &mut HashMap<String, TokenStream>,
    keys: &HashMap<String, String>,
) -> Vec<TokenStream> {
    let mut g = Gen::new(spec, schema, item.vis.clone(), naming, shared, keys);
    let title = spec.title().map(str::to_string).unwrap_or_else(|| spec.name().to_string());
    let mut docs = vec![format!("{title} (`{}`).", spec.id())];
    docs.extend(spec.doc().map(str::to_string));
    g.root(&item.name, &docs, item.attrs.clone());
    g.out
}

struct Gen<'c> {
    spec: &'c ContractSpec,
    schema: &'c Schema,
    vis: TokenStream,
    out: Vec<TokenStream>,
    /// Every type name of the module, and the user's options.
    naming: &'c mut Naming,
    /// `$defs` entries generated so far: node -> type.
    defs: HashMap<Id, TokenStream>,
    /// `$defs` types of the whole module by identity key (see [`message`]).
    shared: &'c mut HashMap<String, TokenStream>,
    keys: &'c HashMap<String, String>,
    /// `$defs` entries whose type contains itself (boxed where used).
    recursive: HashSet<Id>,
    /// Members of tagged unions -> the tag key their struct leaves out.
    tagged: HashMap<Id, Box<str>>,
    /// A lowered fields form's contract path of each node (`params.name`,
    /// `items[]`, `map{}`); `None` for a schema form.
    paths: Option<HashMap<Id, String>>,
}

impl<'c> Gen<'c> {
    fn new(
        spec: &'c ContractSpec,
        schema: &'c Schema,
        vis: TokenStream,
        naming: &'c mut Naming,
        shared: &'c mut HashMap<String, TokenStream>,
        keys: &'c HashMap<String, String>,
    ) -> Gen<'c> {
        naming.definitions(schema.nodes.iter().filter_map(|n| n.def.as_deref()).map(pascal_case));
        Gen {
            spec,
            schema,
            vis,
            out: Vec::new(),
            naming,
            defs: HashMap::new(),
            shared,
            keys,
            recursive: recursive_defs(schema),
            tagged: tagged_members(schema),
            paths: spec.schema().is_none().then(|| field_paths(schema)),
        }
    }
}

/// The contract path of each node of a lowered fields form, a tree.
fn field_paths(schema: &Schema) -> HashMap<Id, String> {
    let mut out = HashMap::from([(Schema::ROOT, String::new())]);
    let mut stack = vec![Schema::ROOT];
    while let Some(id) = stack.pop() {
        let (n, path) = (schema.node(id), out[&id].clone());
        let below = n.properties.iter().map(|(key, c)| (*c, crate::contract::join_key(&path, key)));
        let below = below
            .chain(n.items.map(|c| (c, format!("{path}[]"))))
            .chain(n.additional.filter(|_| !n.closed).map(|c| (c, format!("{path}{{}}"))));
        for (c, p) in below.collect::<Vec<_>>() {
            out.insert(c, p);
            stack.push(c);
        }
    }
    out
}

/// A node's `enum` members, or its `const` as the one member.
fn members(n: &Node) -> Option<Vec<&Literal>> {
    n.constant.as_ref().map(|c| vec![c]).or_else(|| n.enum_values.as_ref().map(|v| v.iter().collect()))
}

/// The node a chain of bare `$ref`s ends at.
fn resolve(schema: &Schema, mut id: Id) -> Id {
    for _ in 0..64 {
        match schema.node(id).bare {
            Some(to) => id = to,
            None => break,
        }
    }
    id
}

/// `TextResourceContents` -> `Text`, `Resource`, `Contents`.
fn pascal_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for c in name.chars() {
        match words.last_mut() {
            Some(w) if !c.is_ascii_uppercase() => w.push(c),
            _ => words.push(c.to_string()),
        }
    }
    words
}

/// The values of a string enum: an `enum` whose values are all strings.
fn string_enum(n: &Node) -> Option<Vec<Box<str>>> {
    let values = n.enum_values.as_ref().filter(|v| !v.is_empty())?;
    values.iter().map(|v| v.string.clone()).collect()
}

/// Every schema a node's type is built from.
fn children(n: &Node) -> Vec<Id> {
    let mut out: Vec<Id> = n.properties.iter().map(|(_, id)| *id).collect();
    out.extend(n.pattern_properties.iter().map(|(_, id)| *id));
    out.extend(n.additional);
    out.extend(n.items);
    out.extend(&n.prefix_items);
    out.extend(n.reference);
    out.extend(&n.all_of);
    for u in [&n.any_of, &n.one_of].into_iter().flatten() {
        out.extend(&u.members);
    }
    out
}

/// The `$defs` entries that reach themselves.
fn recursive_defs(schema: &Schema) -> HashSet<Id> {
    let mut out = HashSet::new();
    for (i, n) in schema.nodes.iter().enumerate() {
        if n.def.is_none() {
            continue;
        }
        let start = i as Id;
        let mut seen = HashSet::new();
        let mut stack = children(n);
        while let Some(id) = stack.pop() {
            if id == start {
                out.insert(start);
                break;
            }
            if seen.insert(id) {
                stack.extend(children(schema.node(id)));
            }
        }
    }
    out
}

fn tagged_members(schema: &Schema) -> HashMap<Id, Box<str>> {
    let mut out = HashMap::new();
    for n in &schema.nodes {
        for u in [&n.any_of, &n.one_of].into_iter().flatten() {
            if let Some(tag) = u.tag.as_ref().filter(|t| t.values.iter().all(|v| v.string.is_some())) {
                for &m in &u.members {
                    out.insert(resolve(schema, m), tag.key.clone());
                }
            }
        }
    }
    out
}

impl Gen<'_> {
    fn type_name(&mut self, wanted: &str) -> String {
        self.naming.name(wanted)
    }

    /// The contract's own type, named as the item.
    fn root(&mut self, name: &str, doc: &[String], attrs: TokenStream) {
        let id = resolve(self.schema, Schema::ROOT);
        let node = self.schema.node(id);
        let vis = self.vis.clone();
        let ident = format_ident!("{}", name);
        if self.paths.is_some() || self.is_struct(node) {
            self.object(id, name, doc, attrs);
        } else if self.union_of(node).is_some() {
            self.union(id, name, doc, attrs);
        } else {
            let ty = self.ty(id, &format!("{name}Value"), false);
            let derives = self.naming.derives();
            let doc = docs(doc);
            self.out.push(quote! {
                #doc
                #attrs
                #derives
                #[serde(transparent)]
                #vis struct #ident(
                    /// The value itself.
                    #vis #ty,
                );
            });
        }
    }

    fn is_struct(&self, n: &Node) -> bool {
        n.types.is_none_or(|t| t == crate::TypeSet::of(JsonType::Object))
            && self.fields(n).is_some_and(|f| !f.is_empty())
    }

    /// The properties a struct for `n` declares, each with whether it is
    /// required: the node's own, then those of its `allOf` members (a result
    /// merged with a task: every member an open object a struct carries
    /// whole, no key declared twice); `None` when a struct cannot say the
    /// node exactly.
    fn fields(&self, n: &Node) -> Option<Vec<(Box<str>, Id, bool)>> {
        let mut fields: Vec<(Box<str>, Id, bool)> = n
            .properties
            .iter()
            .zip(&n.property_required)
            .map(|((key, id), required)| (key.clone(), *id, required.is_some()))
            .collect();
        if self.exact(n) {
            return Some(fields);
        }
        let mut merged = n.clone();
        merged.all_of = Vec::new();
        let plain = self.exact(&merged)
            && n.any_of.is_none()
            && n.one_of.is_none()
            && n.enum_values.is_none()
            && n.constant.is_none();
        if !plain {
            return None;
        }
        for &member in &n.all_of {
            let m = self.schema.node(resolve(self.schema, member));
            let object = m.types.is_none_or(|t| t == crate::TypeSet::of(JsonType::Object));
            if !object || m.closed || m.any_of.is_some() || m.one_of.is_some() || m.trivial || m.never {
                return None;
            }
            for field in self.fields(m)? {
                if fields.iter().any(|(key, _, _)| *key == field.0) {
                    return None;
                }
                fields.push(field);
            }
        }
        Some(fields)
    }

    /// Whether the node's own keywords are all a type can carry.
    fn exact(&self, n: &Node) -> bool {
        n.all_of.is_empty()
            && n.not.is_none()
            && n.condition.is_none()
            && n.dependent_schemas.is_empty()
            && n.reference.is_none()
            && n.prefix_items.is_empty()
    }

    fn union_of<'n>(&self, n: &'n Node) -> Option<&'n crate::contract::schema::Union> {
        let u = n.any_of.as_deref().or(n.one_of.as_deref())?;
        let alone = n.any_of.is_none() || n.one_of.is_none();
        (alone && self.exact(n) && n.properties.is_empty() && n.types.is_none()).then_some(u)
    }

    /// The Rust type of the value at `id`; `direct` when it sits in a struct
    /// field or enum variant (a recursive type is boxed there).
    fn ty(&mut self, id: Id, name: &str, direct: bool) -> TokenStream {
        if self.paths.is_some() {
            return self.field_value(id, name);
        }
        let target = resolve(self.schema, id);
        let node = self.schema.node(target);
        if let Some(def) = node.def.clone() {
            let ident = self.def_type(target, &def);
            return if direct && self.recursive.contains(&target) {
                quote! { ::std::boxed::Box<#ident> }
            } else {
                ident
            };
        }
        self.shape(target, name)
    }

    /// The named type of a `$defs` entry, generated once (once per module
    /// when another message generated the same entry), or the user's
    /// `replace` for it.
    fn def_type(&mut self, id: Id, def: &str) -> TokenStream {
        if let Some(ty) = self.defs.get(&id) {
            return ty.clone();
        }
        let key = self.keys.get(def).cloned();
        if let Some(ty) = key.as_ref().and_then(|k| self.shared.get(k)) {
            self.defs.insert(id, ty.clone());
            return ty.clone();
        }
        let wanted = pascal_case(def);
        if let Some(ty) = self.naming.replacement(&wanted) {
            self.defs.insert(id, ty.clone());
            self.shared.extend(key.map(|k| (k, ty.clone())));
            return ty;
        }
        let name = self.type_name(&wanted);
        let ident = format_ident!("{}", name);
        self.defs.insert(id, quote! { #ident });
        self.shared.extend(key.map(|k| (k, quote! { #ident })));
        let node = self.schema.node(id);
        let mut doc = vec![node
            .description
            .as_deref()
            .map_or_else(|| format!("`{def}` of `{}`.", self.spec.id()), str::to_string)];
        if let Some(tag) = self.tagged.get(&id) {
            doc.push(format!("Its `{tag}` is written by the union that holds it."));
        }
        if self.is_struct(node) {
            self.object(id, &name, &doc, TokenStream::new());
        } else if self.union_of(node).is_some() {
            self.union(id, &name, &doc, TokenStream::new());
        } else if !self.named_shape(id, &name, &doc) {
            let ty = self.shape(id, &format!("{name}Value"));
            let vis = self.vis.clone();
            let doc = docs(&doc);
            self.out.push(quote! { #doc #vis type #ident = #ty; });
        }
        quote! { #ident }
    }

    /// The name a union of `$defs` entries takes from them: the words their
    /// names end with in common (`TextResourceContents`,
    /// `BlobResourceContents` -> `ResourceContents`), unless a definition or
    /// another type has that name.
    fn common_name(&self, defs: &[String]) -> Option<String> {
        let words: Vec<Vec<String>> = defs.iter().map(|d| pascal_words(&pascal_case(d))).collect();
        let shortest = words.iter().map(Vec::len).min()?;
        let common = (0..shortest)
            .take_while(|&i| words.iter().all(|w| w[w.len() - 1 - i] == words[0][words[0].len() - 1 - i]))
            .count();
        if common == 0 || common == shortest {
            return None;
        }
        let name: String = words[0][words[0].len() - common..].concat();
        let free = !self.naming.is_taken(&name) && !self.naming.is_definition(&name);
        free.then_some(name)
    }

    /// Generates the enum `name` when the node is a string enum or a union
    /// of JSON types; `false` (nothing generated) otherwise.
    fn named_shape(&mut self, id: Id, name: &str, doc: &[String]) -> bool {
        let node = self.schema.node(id);
        if node.trivial || node.never || !self.exact(node) || node.any_of.is_some() || node.one_of.is_some() {
            return false;
        }
        if let Some(values) = string_enum(node) {
            self.string_enum(name, &values, docs(doc));
            return true;
        }
        let Some(types) = node.types.filter(|_| node.enum_values.is_none() && node.constant.is_none()) else {
            return false;
        };
        let kinds: Vec<JsonType> =
            types.iter().filter(|t| !(*t == JsonType::Integer && types.contains(JsonType::Number))).collect();
        if kinds.len() < 2 {
            return false;
        }
        self.type_union(id, name, &kinds, docs(doc));
        true
    }

    /// A Rust enum for a string enum, one variant per value.
    fn string_enum(&mut self, name: &str, values: &[Box<str>], doc: TokenStream) {
        let ident = format_ident!("{}", name);
        let vis = self.vis.clone();
        let mut taken = HashSet::new();
        let variants = values.iter().map(|text| {
            let variant = format_ident!("{}", unique(pascal_case(text), &mut taken));
            let doc = super::doc_line(&format!("`{}`.", text.escape_debug()));
            let text = &**text;
            quote! { #[doc = #doc] #[serde(rename = #text)] #variant, }
        });
        let variants: Vec<TokenStream> = variants.collect();
        let derives = self.naming.derives();
        self.out.push(quote! { #doc #derives #vis enum #ident { #(#variants)* } });
    }

    /// An untagged enum with one variant per JSON type (`RequestId::{String,
    /// Integer}`). A lowered fields form's enum follows the types of its
    /// variants and names its path in their docs.
    fn type_union(&mut self, id: Id, name: &str, kinds: &[JsonType], doc: TokenStream) {
        let slot = self.paths.is_none().then_some(self.out.len());
        let what = match self.paths {
            Some(_) => format!("`{}`", self.path(id)),
            None => "The value".to_string(),
        };
        let ident = format_ident!("{}", name);
        let vis = self.vis.clone();
        let mut variants = Vec::new();
        for &t in kinds {
            let v = format_ident!("{}", pascal_case(t.name()));
            let article = if t == JsonType::Integer { "an" } else { "a" };
            let line = super::doc_line(&format!("{what} as {article} {}.", t.name()));
            if t == JsonType::Null {
                variants.push(quote! { #[doc = #line] #v, });
            } else {
                let name = format!("{name}{}", pascal_case(t.name()));
                let ty = match self.paths {
                    Some(_) => self.field_single(id, t, &name),
                    None => self.single(id, t, &name),
                };
                variants.push(quote! { #[doc = #line] #v(#ty), });
            }
        }
        let derives = self.naming.derives();
        let item = quote! { #doc #derives #[serde(untagged)] #vis enum #ident { #(#variants)* } };
        self.out.insert(slot.unwrap_or(self.out.len()), item);
    }

    /// The type of a node that is not a `$defs` entry.
    fn shape(&mut self, id: Id, name: &str) -> TokenStream {
        let node = self.schema.node(id);
        if !node.all_of.is_empty() && self.is_struct(node) {
            return self.object_type(id, name);
        }
        if node.trivial || node.never || !self.exact(node) {
            return quote! { ::protocolarc::Value };
        }
        if let Some(u) = self.union_of(node) {
            let members: Option<Vec<String>> = u
                .members
                .iter()
                .map(|&m| self.schema.node(resolve(self.schema, m)).def.as_deref().map(str::to_string))
                .collect();
            let key = members.as_ref().map(|defs| {
                let keys: Vec<&str> =
                    defs.iter().map(|d| self.keys.get(d).map_or(d.as_str(), String::as_str)).collect();
                format!("union of {}", keys.join(" "))
            });
            if let Some(ty) = key.as_ref().and_then(|k| self.shared.get(k)) {
                return ty.clone();
            }
            let wanted = members.as_deref().and_then(|defs| self.common_name(defs)).unwrap_or_else(|| name.to_string());
            let name = self.type_name(&wanted);
            let doc = vec![format!("A union in `{}`.", self.spec.id())];
            self.union(id, &name, &doc, TokenStream::new());
            let ident = format_ident!("{}", name);
            self.shared.extend(key.map(|k| (k, quote! { #ident })));
            return quote! { #ident };
        }
        if node.any_of.is_some() || node.one_of.is_some() {
            return quote! { ::protocolarc::Value };
        }
        if string_enum(node).is_some() || node.types.is_some_and(|t| t.iter().count() > 1) {
            let name = self.type_name(name);
            let doc = vec![node
                .description
                .as_deref()
                .map_or_else(|| format!("A value in `{}`.", self.spec.id()), str::to_string)];
            if self.named_shape(id, &name, &doc) {
                let ident = format_ident!("{}", name);
                return quote! { #ident };
            }
        }
        let types = match node.types {
            Some(t) => t,
            None if !node.properties.is_empty() || node.additional.is_some() || !node.pattern_properties.is_empty() => {
                crate::TypeSet::of(JsonType::Object)
            }
            None if node.items.is_some() => crate::TypeSet::of(JsonType::Array),
            None => return quote! { ::protocolarc::Value },
        };
        let kinds: Vec<JsonType> =
            types.iter().filter(|t| !(*t == JsonType::Integer && types.contains(JsonType::Number))).collect();
        if kinds.len() == 1 {
            return self.single(id, kinds[0], name);
        }
        quote! { ::protocolarc::Value }
    }

    fn single(&mut self, id: Id, t: JsonType, name: &str) -> TokenStream {
        let node = self.schema.node(id);
        match t {
            JsonType::String => quote! { ::std::string::String },
            JsonType::Integer | JsonType::Number => quote! { ::protocolarc::Number },
            JsonType::Boolean => quote! { bool },
            JsonType::Null => quote! { () },
            JsonType::Object if !node.properties.is_empty() => self.object_type(id, name),
            JsonType::Object => {
                let values: Vec<Id> = node
                    .pattern_properties
                    .iter()
                    .map(|(_, id)| *id)
                    .chain(node.additional.filter(|_| !node.closed))
                    .collect();
                let value = match values.as_slice() {
                    [one] => self.ty(*one, &format!("{name}Value"), false),
                    _ => quote! { ::protocolarc::Value },
                };
                quote! { ::std::collections::BTreeMap<::std::string::String, #value> }
            }
            JsonType::Array => {
                let element = match node.items {
                    Some(items) if node.prefix_items.is_empty() => self.ty(items, &format!("{name}Item"), false),
                    _ => quote! { ::protocolarc::Value },
                };
                quote! { ::std::vec::Vec<#element> }
            }
        }
    }

    /// The struct named after `name` for the object node `id`, documented
    /// by its description.
    fn object_type(&mut self, id: Id, name: &str) -> TokenStream {
        let name = self.type_name(name);
        let node = self.schema.node(id);
        let doc = vec![node
            .description
            .as_deref()
            .map_or_else(|| format!("An object in `{}`.", self.spec.id()), str::to_string)];
        self.object(id, &name, &doc, TokenStream::new());
        let ident = format_ident!("{}", name);
        quote! { #ident }
    }

    /// A struct for the object node `id`.
    fn object(&mut self, id: Id, name: &str, doc: &[String], attrs: TokenStream) {
        let slot = self.out.len();
        self.out.push(TokenStream::new());
        let node = self.schema.node(id);
        let ident = format_ident!("{}", name);
        let vis = self.vis.clone();
        let tag = self.tagged.get(&id).cloned();
        let mut taken = HashSet::from([UNKNOWN_FIELDS.to_string()]);
        let mut fields = Vec::new();
        // `new` of a fields form: the required fields as arguments, the
        // optional ones `None`.
        let (mut args, mut inits) = (Vec::new(), Vec::new());
        for (key, prop, required) in self.fields(node).unwrap_or_default() {
            let (key, prop) = (&key, &prop);
            if tag.as_deref() == Some(&**key) || self.schema.node(resolve(self.schema, *prop)).never {
                continue;
            }
            let field_name = unique(snake_case(key), &mut taken);
            let field_ident = ident_of(&field_name);
            // A bounded (or unbounded) integer field is a Rust integer.
            let int = self.integer_type(*prop);
            let ty = match &int {
                Some(int) => int.clone(),
                None => self.ty(*prop, &format!("{name}{}", pascal_case(key)), true),
            };
            let described = self.schema.node(*prop).description.clone();
            let sentence = described.map_or_else(
                || match self.paths {
                    Some(_) => self.shape_sentence(*prop),
                    None => format!("`{key}`, {}.", requiredness(required)),
                },
                String::from,
            );
            let field_docs = docs(&[sentence]);
            let rename = (field_name != **key).then(|| {
                let key = &**key;
                quote! { #[serde(rename = #key)] }
            });
            if required {
                args.push(quote! { #field_ident: #ty });
                inits.push(quote! { #field_ident });
            } else {
                inits.push(quote! { #field_ident: ::std::option::Option::None });
            }
            let (ty, optional) = match (required, int.is_some()) {
                (true, false) => (ty, quote! {}),
                (true, true) => (ty, quote! { #[serde(deserialize_with = "::protocolarc::__private::integer")] }),
                // Absent is `None`; a present `null` is `Some` of the type's
                // null, so the round trip keeps it.
                (false, int) => {
                    let with = if int {
                        "::protocolarc::__private::present_integer"
                    } else {
                        "::protocolarc::__private::present"
                    };
                    (
                        quote! { ::std::option::Option<#ty> },
                        quote! {
                            #[serde(default, deserialize_with = #with, skip_serializing_if = "::std::option::Option::is_none")]
                        },
                    )
                }
            };
            fields.push(quote! {
                #field_docs
                #rename
                #optional
                #vis #field_ident: #ty,
            });
        }
        let keep_unknown = !node.closed || tag.is_some();
        let unknown = format_ident!("{}", UNKNOWN_FIELDS);
        // A fields form's `{}` beside declared keys: the other keys' values.
        let map = node.additional.filter(|_| keep_unknown && self.paths.is_some());
        let map = map.map(|values| self.field_value(values, &format!("{name}Value")));
        if let Some(ty) = map {
            fields.push(quote! {
                /// The map's other keys (`{}` in the contract), with their values.
                #[serde(flatten)]
                #vis #unknown: ::std::collections::BTreeMap<::std::string::String, #ty>,
            });
        } else if keep_unknown {
            let doc = match self.paths {
                Some(_) => quote! { /// Keys the contract does not declare, kept for the round trip.
                },
                None => quote! { /// Keys the schema does not declare, kept for the round trip.
                },
            };
            fields.push(quote! {
                #doc
                #[serde(flatten)]
                #vis #unknown: ::protocolarc::Map<::std::string::String, ::protocolarc::Value>,
            });
        }
        let deny = (!keep_unknown).then(|| quote! { #[serde(deny_unknown_fields)] });
        let derives = self.naming.derives();
        let doc = docs(doc);
        let new = self.paths.is_some().then(|| {
            let rest = keep_unknown.then(|| quote! { #unknown: ::std::default::Default::default() });
            quote! {
                impl #ident {
                    /// A value with every required field given, every optional one
                    /// absent (`None`) and no undeclared key. Unchecked, like any
                    /// value built by hand: `Contract::validate` judges it.
                    #[allow(clippy::too_many_arguments, clippy::new_without_default)]
                    #vis fn new(#(#args),*) -> Self {
                        #ident { #(#inits,)* #rest }
                    }
                }
            }
        });
        self.out[slot] = quote! {
            #doc
            #attrs
            #derives
            #deny
            #vis struct #ident {
                #(#fields)*
            }

            #new
        };
    }

    /// A lowered fields form's contract path of node `id`.
    fn path(&self, id: Id) -> &str {
        self.paths.as_ref().and_then(|p| p.get(&id)).map_or("", String::as_str)
    }

    /// The Rust type of a lowered fields form's value at `id`, by the rules
    /// of its path tree; nested types are named `name`.
    fn field_value(&mut self, id: Id, name: &str) -> TokenStream {
        let Some(types) = self.schema.node(id).types else {
            return quote! { ::protocolarc::Value };
        };
        let kinds: Vec<JsonType> =
            types.iter().filter(|t| !(*t == JsonType::Integer && types.contains(JsonType::Number))).collect();
        if let [one] = kinds[..] {
            return self.field_single(id, one, name);
        }
        // Several types: an untagged enum with a variant per type.
        let name = self.type_name(name);
        let label = super::doc_line(&format!("`{}`: one of the types {}.", self.path(id), types.label()));
        self.type_union(id, &name, &kinds, quote! { #[doc = #label] });
        let ident = format_ident!("{}", name);
        quote! { #ident }
    }

    /// The Rust type of one JSON type `t` at a lowered fields form's `id`.
    fn field_single(&mut self, id: Id, t: JsonType, name: &str) -> TokenStream {
        let node = self.schema.node(id);
        match t {
            JsonType::String => {
                let strings: Option<Vec<Box<str>>> =
                    members(node).and_then(|m| m.iter().map(|l| l.string.clone()).collect());
                let Some(values) = strings else { return quote! { ::std::string::String } };
                let ident = format_ident!("{}", self.type_name(name));
                let doc = super::doc_line(&format!("The values of `{}` in `{}`.", self.path(id), self.spec.id()));
                self.string_enum(&ident.to_string(), &values, quote! { #[doc = #doc] });
                if let [only] = &values[..] {
                    let only = format_ident!("{}", pascal_case(only));
                    self.out.push(quote! {
                        impl ::std::default::Default for #ident {
                            fn default() -> Self { #ident::#only }
                        }
                    });
                }
                quote! { #ident }
            }
            JsonType::Integer | JsonType::Number => quote! { ::protocolarc::Number },
            JsonType::Boolean => quote! { bool },
            JsonType::Null => quote! { () },
            JsonType::Object if node.properties.is_empty() && !node.closed && node.additional.is_some() => {
                let values = node.additional.unwrap_or(id);
                let ty = self.field_value(values, &format!("{name}Value"));
                quote! { ::std::collections::BTreeMap<::std::string::String, #ty> }
            }
            JsonType::Object if !node.properties.is_empty() || node.closed => {
                let name = self.type_name(name);
                let doc = format!("The object at `{}` in `{}`.", self.path(id), self.spec.id());
                self.object(id, &name, &[doc], TokenStream::new());
                let ident = format_ident!("{}", name);
                quote! { #ident }
            }
            JsonType::Object => quote! { ::protocolarc::Map<::std::string::String, ::protocolarc::Value> },
            JsonType::Array => {
                let element = match node.items {
                    Some(items) => self.field_value(items, &format!("{name}Item")),
                    None => quote! { ::protocolarc::Value },
                };
                quote! { ::std::vec::Vec<#element> }
            }
        }
    }

    /// `u64` or `i64` for a lowered fields form's field whose only type is
    /// `integer` and whose bounds fit that type (`u64` when the lower bound
    /// is at least 0), else `None` (the field stays a `Number`).
    fn integer_type(&self, id: Id) -> Option<TokenStream> {
        let n = self.schema.node(id);
        if self.paths.is_none() || n.types != Some(TypeSet::of(JsonType::Integer)) {
            return None;
        }
        let c = &n.constraints;
        let parse = |t: &str| crate::json::number::Decimal::parse(t);
        let (zero, i64_min, i64_max, u64_max) = (
            parse("0")?,
            parse("-9223372036854775808")?,
            parse("9223372036854775807")?,
            parse("18446744073709551615")?,
        );
        let lower = [&c.minimum, &c.exclusive_minimum].into_iter().flatten().max_by(|a, b| a.dec().compare(&b.dec()));
        let upper = [&c.maximum, &c.exclusive_maximum].into_iter().flatten().min_by(|a, b| a.dec().compare(&b.dec()));
        let at_most =
            |limit: &crate::json::number::Decimal| upper.is_none_or(|u| u.dec().compare(&limit.dec()).is_le());
        if lower.is_some_and(|l| l.dec().compare(&zero.dec()).is_ge()) && at_most(&u64_max) {
            return Some(quote! { u64 });
        }
        let lower_fits = lower.is_none_or(|l| l.dec().compare(&i64_min.dec()).is_ge());
        (lower_fits && at_most(&i64_max)).then(|| quote! { i64 })
    }

    /// What a fields form's field without a `doc` is documented with: its
    /// contract path, types, requiredness and constraints, e.g.
    /// "`params.name`: string, required, maxLength=128."
    fn shape_sentence(&self, id: Id) -> String {
        let n = self.schema.node(id);
        let required = n.field.as_ref().is_some_and(|m| m.required);
        let types = n.types.unwrap_or(TypeSet::ANY).label();
        let mut parts = vec![types, requiredness(required).into()];
        if let Some(values) = members(n) {
            let values: Vec<Literal> = values.into_iter().cloned().collect();
            parts.push(format!("one of {}", literal_label(&values)));
        }
        parts.extend(n.constraints.describe());
        format!("`{}`: {}.", self.path(id), parts.join(", "))
    }

    /// An enum for the union at node `id`: tagged when its tag values are
    /// strings and every member is a struct, else untagged.
    fn union(&mut self, id: Id, name: &str, doc: &[String], attrs: TokenStream) {
        let slot = self.out.len();
        self.out.push(TokenStream::new());
        let node = self.schema.node(id);
        let Some(u) = self.union_of(node) else { return };
        let ident = format_ident!("{}", name);
        let vis = self.vis.clone();
        let tag = u.tag.as_ref().filter(|t| {
            t.values.iter().all(|v| v.string.is_some())
                && u.members.iter().all(|&m| self.is_struct(self.schema.node(resolve(self.schema, m))))
        });
        let mut taken = HashSet::new();
        let mut variants = Vec::new();
        for (i, &m) in u.members.iter().enumerate() {
            let target = resolve(self.schema, m);
            let member = self.schema.node(target);
            let wanted = match (tag, &member.def, member.types) {
                (Some(t), _, _) => pascal_case(t.values[i].string.as_deref().unwrap_or_default()),
                (None, Some(def), _) => pascal_case(def),
                (None, None, Some(types)) if types.iter().count() == 1 => pascal_case(&types.label()),
                _ => format!("Member{}", i + 1),
            };
            let variant = format_ident!("{}", unique(wanted.clone(), &mut taken));
            let ty = self.ty(m, &format!("{name}{wanted}"), true);
            match tag {
                Some(t) => {
                    let value = t.values[i].string.as_deref().unwrap_or_default();
                    let doc = super::doc_line(&format!("`{}: {value:?}`.", t.key));
                    variants.push(quote! { #[doc = #doc] #[serde(rename = #value)] #variant(#ty), });
                }
                None => {
                    let doc = format!(" Member {} of the union.", i + 1);
                    variants.push(quote! { #[doc = #doc] #variant(#ty), });
                }
            }
        }
        let derives = self.naming.derives();
        let doc = docs(doc);
        let how = match tag {
            Some(t) => {
                let key = &*t.key;
                quote! { #[serde(tag = #key)] }
            }
            None => quote! { #[serde(untagged)] },
        };
        self.out[slot] = quote! {
            #doc
            #attrs
            #derives
            #how
            #vis enum #ident { #(#variants)* }
        };
    }
}

/// How a field's doc sentence says whether the field must be there.
fn requiredness(required: bool) -> &'static str {
    if required {
        name::REQUIRED
    } else {
        "optional"
    }
}
