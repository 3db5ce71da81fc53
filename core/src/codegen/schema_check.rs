//! (feature `codegen`) The generated check of a contract, either form:
//! `Contract::fast_path`, the schema walker (`walk/schema/`) specialised
//! to one schema graph (a fields form's lowering).
//!
//! One function per schema node the value can reach, recursion allowed (a
//! `$ref` is a call). The generated code reads what gives the walker its
//! cost itself:
//! - an object: its keys matched by a compiled `match` on their raw bytes,
//!   seen-bits for repeats and required keys, `additionalProperties` (closed,
//!   a typed map or open) and `minProperties`/`maxProperties` as constants;
//! - an array: `items`, `minItems`/`maxItems` as constants, `uniqueItems`
//!   by the walker's own check;
//! - a tagged union (`anyOf`/`oneOf` whose members are told apart by a
//!   string `const`): the tag is found (straight from the bytes when it is
//!   the first key, else by the scanner from the object's start), then only
//!   the member it picks reads the object: from its start, or, after a
//!   first-key tag whose property asks nothing but that value, on from the
//!   tag (`node_N_after_I`: the tag is not read twice);
//! - an untagged union: each member tried on the same bytes (`anyOf` stops at
//!   the first that passes, `oneOf` needs exactly one); one that contains
//!   itself is left to the walker, whose memo bounds nested membership tests;
//! - a bare `$ref`: a call to the target's function.
//!
//! Scalars (strings, numbers, booleans, null) are judged by the walker's own
//! code for the node (`SchemaCursor::scalar`: type, enum, const, bounds,
//! lengths, pattern, format), or read inline when only their type matters,
//! or, for a string whose keywords are string `enum`/`const` members and a
//! byte-level format (and, in a fields form, lengths), judged in code by the
//! same checks
//! (`SchemaCursor::string_where`, `fast::formats`). Every other schema (`allOf`, `not`, `if`,
//! `dependentSchemas`, `$ref` beside other keywords, `patternProperties`,
//! `propertyNames`, `dependentRequired`, `prefixItems`, `contains`,
//! `unevaluatedProperties`, `unevaluatedItems`, `$dynamicRef`, `enum` or
//! `const` on a container) is handed to the walker for that subtree
//! (`SchemaCursor::node`), as is an object with an escaped key
//! (`SchemaCursor::object_again`). The cursor runs the walker in its
//! first-fault mode, which never gives up, so every generated function is an
//! exact verdict: `Some` exactly when the runtime finds nothing. That is
//! what lets an untagged `oneOf` count its passing members. A body the check
//! fails goes to the finding engine for its findings.

use std::collections::{BTreeMap, HashSet};

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::contract::schema::compile::MAX_CHAIN;
use crate::contract::schema::{Id, Node, Resume, Schema};
use crate::contract::JsonType;

/// The `fast_path` method of `impl Contract for #ty`.
pub(super) fn fast_path(schema: &Schema) -> TokenStream {
    let mut g =
        Check { schema, fns: BTreeMap::new(), queued: HashSet::new(), pending: Vec::new(), after_tag: BTreeMap::new() };
    // A schema with a dynamic `$dynamicRef` is read by the walker whole: a
    // reference's target depends on the resources entered on the way, which
    // only the walker keeps.
    let root = if schema.node(Schema::ROOT).dynamic_scope {
        quote! { c.node(0u32, 0usize, 0usize) }
    } else {
        g.call(Schema::ROOT, quote! { 0usize }, quote! { 0usize })
    };
    let lowered = schema.canonical_json().is_empty();
    let loops = if lowered { loops(schema) } else { HashSet::new() };
    while let Some(id) = g.pending.pop() {
        let body = g.body(id);
        let name = fn_name(id);
        let chain_max = Literal::usize_unsuffixed(MAX_CHAIN);
        // A lowered fields form is a tree, each node read from one place:
        // a scalar is read in its parent's code, and so is a container
        // without a loop over elements or values (the loop's code is kept
        // apart from the code around it).
        let n = schema.node(id);
        let scalar = !n.accepts(JsonType::Object) && !n.accepts(JsonType::Array);
        let inline = (lowered && (scalar || !loops.contains(&id))).then(|| quote! { #[inline(always)] });
        g.fns.insert(
            id,
            quote! {
                #[allow(unused, clippy::all, clippy::pedantic)]
                #inline
                fn #name(c: &mut SchemaCursor<'_, '_>, depth: usize, chain: usize) -> Option<()> {
                    if chain > #chain_max {
                        return None;
                    }
                    #body
                }
            },
        );
    }
    let fns = g.fns.values().chain(g.after_tag.values());
    // A strict fields form's root hands an escaped key (and a root too wide
    // for code) to the runtime's check, which sees the warning of an
    // undeclared key: the verdict stays exact.
    let spec = quote! { <Self as ::protocolarc::Contract>::spec() };
    let again = match (schema.strict, keys_in_code(schema.node(Schema::ROOT))) {
        (false, _) => TokenStream::new(),
        (true, true) => quote! { || (bytes.contains(&b'\\') && #spec.passes(bytes)) },
        (true, false) => quote! { || #spec.passes(bytes) },
    };
    quote! {
        /// The generated check: the schema walker with the schema compiled in.
        fn fast_path(bytes: &[u8]) -> bool {
            // Hygiene: the user's module may define its own `Option`, `Some`...
            use ::std::option::Option::{self, None, Some};
            use ::protocolarc::__private::fast::{self, Kind, NextKey, SchemaCursor};
            #(#fns)*
            fast::run_schema(#spec, bytes, |c| #root) #again
        }
    }
}

fn fn_name(id: Id) -> proc_macro2::Ident {
    format_ident!("node_{}", id)
}

struct Check<'s> {
    schema: &'s Schema,
    /// The functions written so far, by node.
    fns: BTreeMap<Id, TokenStream>,
    queued: HashSet<Id>,
    pending: Vec<Id>,
    /// The object functions entered after a first-key tag, by node and the
    /// tag's property index.
    after_tag: BTreeMap<(Id, usize), TokenStream>,
}

impl Check<'_> {
    /// An expression of type `Option<()>` that reads the next value with
    /// node `id`: its function, or the walker when it is not compiled.
    fn call(&mut self, id: Id, depth: TokenStream, chain: TokenStream) -> TokenStream {
        if !self.compiled(self.schema.node(id)) {
            let id = Literal::u32_unsuffixed(id);
            return quote! { c.node(#id, #depth, #chain) };
        }
        if self.queued.insert(id) {
            self.pending.push(id);
        }
        let name = fn_name(id);
        quote! { #name(c, #depth, #chain) }
    }

    /// Whether the node gets a function of its own.
    fn compiled(&self, n: &Node) -> bool {
        if n.bare.is_some() || n.never || n.trivial {
            return true;
        }
        if n.only_applies {
            // An untagged union that contains itself goes to the walker, whose
            // memo bounds nested membership tests; tried member by member in
            // code, their cost could multiply with the nesting of the data.
            return union_only(n) && !(self.untagged(n) && self.on_cycle(n));
        }
        !n.in_place()
    }

    /// Whether `id` is the root of a strict fields form, whose undeclared
    /// keys are warnings: the body then goes to the finding walk.
    fn strict_root(&self, id: Id) -> bool {
        self.schema.strict && id == Schema::ROOT
    }

    fn untagged(&self, n: &Node) -> bool {
        n.any_of.as_deref().or(n.one_of.as_deref()).is_some_and(|u| u.tag.is_none())
    }

    /// Whether the node can reach itself (through any subschema).
    fn on_cycle(&self, n: &Node) -> bool {
        let target: *const Node = n;
        let mut seen = HashSet::new();
        let mut stack = subschemas(n);
        while let Some(id) = stack.pop() {
            let m = self.schema.node(id);
            if std::ptr::eq(m, target) {
                return true;
            }
            if seen.insert(id) {
                stack.extend(subschemas(m));
            }
        }
        false
    }

    fn body(&mut self, id: Id) -> TokenStream {
        let n = self.schema.node(id);
        if let Some(to) = n.bare {
            return self.call(to, quote! { depth }, quote! { chain + 1 });
        }
        if n.never {
            return quote! { None };
        }
        if n.trivial {
            return quote! { c.skip(depth) };
        }
        if n.only_applies {
            return self.union(id);
        }
        let lit = Literal::u32_unsuffixed(id);
        let object = self.object(id);
        let array = self.array(id);
        let n = self.schema.node(id);
        let plain = n.enum_values.is_none() && n.constant.is_none() && n.format.is_none() && n.constraints.is_empty();
        if !plain {
            // A string judged in code when its keywords allow (every other
            // kind, and every other string, by the walker's own code).
            let string = match string_keywords(n, self.schema.canonical_json().is_empty()) {
                Some(check) => quote! { Kind::String => c.string_where(|s| #check), },
                None => TokenStream::new(),
            };
            return quote! {
                match c.kind()? {
                    Kind::Object => { #object }
                    Kind::Array => { #array }
                    #string
                    _ => c.scalar(#lit, depth),
                }
            };
        }
        // Only the type judges a scalar here: read it inline.
        let string = if n.accepts(JsonType::String) {
            quote! { c.any_string() }
        } else {
            quote! { None }
        };
        let number = if n.accepts(JsonType::Number) {
            quote! { c.any_number() }
        } else if n.accepts(JsonType::Integer) {
            quote! { if c.integer()? { Some(()) } else { None } }
        } else {
            quote! { None }
        };
        let (boolean, null) = (n.accepts(JsonType::Boolean), n.accepts(JsonType::Null));
        quote! {
            match c.kind()? {
                Kind::Object => { #object }
                Kind::Array => { #array }
                Kind::String => #string,
                Kind::Number => #number,
                Kind::Bool | Kind::Null => {
                    let v = c.literal()?;
                    if (v.is_some() && #boolean) || (v.is_none() && #null) { Some(()) } else { None }
                }
            }
        }
    }

    /// A union node (nothing else): dispatch on its tag, or try its members.
    fn union(&mut self, id: Id) -> TokenStream {
        let n = self.schema.node(id);
        let lit = Literal::u32_unsuffixed(id);
        let (u, one) = match (&n.any_of, &n.one_of) {
            (Some(u), None) => (u, false),
            (None, Some(u)) => (u, true),
            _ => unreachable!("union_only"),
        };
        if u.tag.as_ref().is_some_and(|t| t.values.iter().any(|v| v.string.is_none())) {
            // A tag that is not a string: the walker matches it canonically.
            return quote! { c.node(#lit, depth, chain) };
        }
        let members = u.members.clone();
        let tag = u.tag.clone();
        let untagged = if one {
            let tries = members.iter().map(|&m| {
                let call = self.call(m, quote! { depth }, quote! { chain + 1 });
                quote! {
                    if c.attempt(start, |c| #call) {
                        if end.is_some() {
                            return None;
                        }
                        end = Some(c.offset());
                    }
                }
            });
            let tries: Vec<TokenStream> = tries.collect();
            quote! {
                let mut end: Option<usize> = None;
                #(#tries)*
                c.seek(end?);
                Some(())
            }
        } else {
            let tries: Vec<TokenStream> = members
                .iter()
                .map(|&m| {
                    let call = self.call(m, quote! { depth }, quote! { chain + 1 });
                    quote! {
                        if c.attempt(start, |c| #call) {
                            return Some(());
                        }
                    }
                })
                .collect();
            quote! {
                #(#tries)*
                None
            }
        };
        let Some(tag) = tag else {
            return quote! {
                c.kind()?;
                let start = c.offset();
                #untagged
            };
        };
        let key = Literal::byte_string(tag.key.as_bytes());
        let mut arms = Vec::new();
        let mut first_arms = Vec::new();
        let mut taken = HashSet::new();
        for (i, &m) in members.iter().enumerate() {
            let text = tag.values[i].string.as_deref().unwrap_or_default().to_string();
            if !taken.insert(text.clone()) {
                // Two members with one tag value: the walker picks the first.
                continue;
            }
            let value = Literal::byte_string(text.as_bytes());
            if let Some((f, hops)) = self.after_tag(tag.resume.get(i).copied().flatten()) {
                let hops = Literal::usize_unsuffixed(hops + 1);
                first_arms.push(quote! {
                    #value => {
                        c.seek(start);
                        return #f(c, depth, chain + #hops, start, after);
                    }
                });
            }
            let call = self.call(m, quote! { depth }, quote! { chain + 1 });
            arms.push(quote! {
                Some(#value) => {
                    c.seek(start);
                    #call
                }
            });
        }
        // The tag as the first key: the member reads on after it.
        let first = if first_arms.is_empty() {
            TokenStream::new()
        } else {
            quote! {
                if let Some((tag, after)) = c.first_tag(start, #key) {
                    match tag {
                        #(#first_arms)*
                        _ => {}
                    }
                }
            }
        };
        quote! {
            if c.kind()? != Kind::Object {
                // Not an object: the walker tries every member.
                return c.node(#lit, depth, chain);
            }
            let start = c.offset();
            #first
            match c.tag(start, #key, depth) {
                #(#arms)*
                // A tag no member has: `field.enum`.
                Some(_) => None,
                // Missing, escaped, not a string: the walker decides.
                None => {
                    c.seek(start);
                    c.node(#lit, depth, chain)
                }
            }
        }
    }

    /// The `Kind::Object` arm of a node with own keywords.
    fn object(&mut self, id: Id) -> TokenStream {
        let n = self.schema.node(id);
        let lit = Literal::u32_unsuffixed(id);
        if !n.accepts(JsonType::Object) {
            return quote! { None };
        }
        let strict = self.strict_root(id);
        if !keys_in_code(n) {
            // The walker's first-fault mode sees no warning.
            return if strict {
                quote! { None }
            } else {
                quote! { c.node(#lit, depth, chain) }
            };
        }
        if no_object_keyword(n) && !strict {
            return quote! { c.skip(depth) };
        }
        self.key_loop(id, None)
    }

    /// A tagged union's member that reads its object on after a first-key
    /// tag (`resume`, set when the schema compiled: `Resume`), when its keys
    /// are read by code too: its function for that (entered with the
    /// object's `start` and the offset `after` the tag's value) and the
    /// `$ref` hops to it. `first_tag` checked the `{`, the key, the `:` and
    /// the quotes, and the tag value has no control character, so the bytes
    /// are a JSON string equal to it.
    fn after_tag(&mut self, resume: Option<Resume>) -> Option<(proc_macro2::Ident, usize)> {
        let r = resume?;
        let (id, i) = (r.node, r.property as usize);
        let n = self.schema.node(id);
        if !self.compiled(n) || !keys_in_code(n) || no_object_keyword(n) {
            return None;
        }
        let name = format_ident!("node_{}_after_{}", id, i);
        if !self.after_tag.contains_key(&(id, i)) {
            self.after_tag.insert((id, i), TokenStream::new());
            let body = self.key_loop(id, Some(i));
            let chain_max = Literal::usize_unsuffixed(MAX_CHAIN);
            self.after_tag.insert(
                (id, i),
                quote! {
                    #[allow(unused, clippy::all, clippy::pedantic)]
                    fn #name(c: &mut SchemaCursor<'_, '_>, depth: usize, chain: usize, start: usize, after: usize) -> Option<()> {
                        if chain > #chain_max {
                            return None;
                        }
                        #body
                    }
                },
            );
        }
        Some((name, r.hops as usize))
    }

    /// The key loop of an object node (`keys_in_code`); with `tag`, entered
    /// after the first key (that property, already judged), at `after`.
    fn key_loop(&mut self, id: Id, tag: Option<usize>) -> TokenStream {
        let n = self.schema.node(id);
        let lit = Literal::u32_unsuffixed(id);
        let words = n.properties.len().div_ceil(64).max(1);
        let words_lit = Literal::usize_unsuffixed(words);
        let mut arms = Vec::new();
        let props = n.properties.clone();
        let mut names = HashSet::new();
        for (i, (name, prop)) in props.iter().enumerate() {
            if !names.insert(name.clone()) {
                continue;
            }
            let (w, bit) = (Literal::usize_unsuffixed(i / 64), Literal::u64_unsuffixed(1u64 << (i % 64)));
            let key = Literal::byte_string(name.as_bytes());
            let call = self.call(*prop, quote! { depth + 1 }, quote! { 0usize });
            arms.push(quote! {
                #key => {
                    if seen[#w] & #bit != 0 {
                        return None;
                    }
                    seen[#w] |= #bit;
                    #call?;
                }
            });
        }
        let n = self.schema.node(id);
        let other = match n.additional {
            Some(_) if n.closed => quote! { _ => return None, },
            // A strict fields form's undeclared root key is a warning.
            None if self.strict_root(id) => quote! { _ => return None, },
            Some(extra) => {
                let call = self.call(extra, quote! { depth + 1 }, quote! { 0usize });
                quote! {
                    _ => {
                        c.entry(base, key)?;
                        #call?;
                    }
                }
            }
            None => quote! {
                _ => {
                    c.entry(base, key)?;
                    c.skip(depth + 1)?;
                }
            },
        };
        let n = self.schema.node(id);
        let mut required = vec![0u64; words];
        for r in n.property_required.iter().enumerate().filter_map(|(i, r)| r.map(|_| i)) {
            required[r / 64] |= 1 << (r % 64);
        }
        let checks = required.iter().enumerate().filter(|(_, &r)| r != 0).map(|(w, &r)| {
            let (w, r) = (Literal::usize_unsuffixed(w), Literal::u64_unsuffixed(r));
            quote! {
                if seen[#w] & #r != #r {
                    return None;
                }
            }
        });
        let min = n.min_properties.map(|m| {
            let m = Literal::u64_unsuffixed(m);
            quote! {
                if count < #m {
                    return None;
                }
            }
        });
        let max = n.max_properties.map(|m| {
            let m = Literal::u64_unsuffixed(m);
            quote! {
                if count > #m {
                    return None;
                }
            }
        });
        // The walker's first-fault mode sees no warning.
        let escaped = if self.strict_root(id) {
            quote! { return None }
        } else {
            quote! { return c.object_again(#lit, start, base, depth) }
        };
        let enter = match tag {
            None => quote! {
                let start = c.offset();
                let base = c.object(depth)?;
                let mut seen = [0u64; #words_lit];
                let mut first = true;
                let mut count = 0u64;
            },
            Some(i) => {
                let (w, bit) = (Literal::usize_unsuffixed(i / 64), Literal::u64_unsuffixed(1u64 << (i % 64)));
                quote! {
                    let base = c.object(depth)?;
                    c.seek(after);
                    let mut seen = [0u64; #words_lit];
                    seen[#w] |= #bit;
                    let mut first = false;
                    let mut count = 1u64;
                }
            }
        };
        quote! {
            #enter
            loop {
                let key = match c.key(&mut first) {
                    NextKey::Plain(key) => key,
                    // An escaped key: the walker reads the object again.
                    NextKey::Escaped => #escaped,
                    NextKey::End => break,
                    NextKey::Syntax => return None,
                };
                count += 1;
                match key {
                    #(#arms)*
                    #other
                }
            }
            c.end_object(base);
            #(#checks)*
            #min
            #max
            Some(())
        }
    }

    /// The `Kind::Array` arm of a node with own keywords.
    fn array(&mut self, id: Id) -> TokenStream {
        let n = self.schema.node(id);
        let lit = Literal::u32_unsuffixed(id);
        if !n.accepts(JsonType::Array) {
            return quote! { None };
        }
        if n.enum_values.is_some() || n.constant.is_some() || !n.prefix_items.is_empty() || n.contains.is_some() {
            return quote! { c.node(#lit, depth, chain) };
        }
        let c = &n.constraints;
        let unique = c.unique_items;
        if n.items.is_none() && c.min_items.is_none() && c.max_items.is_none() && !unique {
            return quote! { c.skip(depth) };
        }
        let min = c.min_items.map(|m| {
            let m = Literal::u64_unsuffixed(m);
            quote! {
                if (count as u64) < #m {
                    return None;
                }
            }
        });
        let max = c.max_items.map(|m| {
            let m = Literal::u64_unsuffixed(m);
            quote! {
                if (count as u64) > #m {
                    return None;
                }
            }
        });
        let element = match n.items {
            Some(items) => {
                let call = self.call(items, quote! { depth + 1 }, quote! { 0usize });
                quote! { #call?; }
            }
            None => quote! { c.skip(depth + 1)?; },
        };
        let (open, each, close) = if unique {
            (
                quote! { let spans = c.spans(); },
                quote! {
                    c.kind()?;
                    let at = c.offset();
                    #element
                    c.span(at);
                },
                quote! { c.distinct(spans)?; },
            )
        } else {
            (TokenStream::new(), element, TokenStream::new())
        };
        quote! {
            c.array(depth)?;
            #open
            let mut count = 0usize;
            while c.next(count)? {
                #each
                count += 1;
            }
            #min
            #max
            #close
            Some(())
        }
    }
}

/// The nodes of a lowered fields form (a tree) whose code loops over an
/// array's elements or a map's values, or holds such a node below it.
fn loops(schema: &Schema) -> HashSet<Id> {
    let mut out = HashSet::new();
    // Children come after their parent in the lowered arena: one pass from
    // the end sees every subtree before its root.
    for id in (0..schema.nodes.len() as Id).rev() {
        let n = schema.node(id);
        let values = n.additional.filter(|_| !n.closed);
        let mut below = n.properties.iter().map(|(_, c)| *c).chain(n.items).chain(values);
        if n.items.is_some() || values.is_some() || below.any(|c| out.contains(&c)) {
            out.insert(id);
        }
    }
    out
}

/// Every subschema a node applies to its value or to its children.
fn subschemas(n: &Node) -> Vec<Id> {
    let mut out: Vec<Id> = n.properties.iter().map(|(_, id)| *id).collect();
    out.extend(n.pattern_properties.iter().map(|(_, id)| *id));
    out.extend(n.additional);
    out.extend(n.property_names);
    out.extend(&n.prefix_items);
    out.extend(n.items);
    out.extend(n.contains);
    out.extend(crate::contract::schema::compile::in_place_edges(n));
    out
}

/// The most `enum` members compared as one `||` chain; more are a list.
const ENUM_CHAIN_MAX: usize = 16;

/// The string keywords of a node as one `bool` expression over `s: &Str`,
/// when code can judge a string exactly as the walker's `own` does: the node
/// accepts strings, its `enum` and `const` (if any) are strings (compared by
/// `Str::eq_str`, as the walker compares them), its format (if any) is a
/// byte-level one (`fast::formats`), and no pattern applies (lengths, read
/// in code for a lowered fields form, are `Str::char_count`, as the walker
/// counts).
/// `None` otherwise: the walker judges the string.
fn string_keywords(n: &Node, lengths: bool) -> Option<TokenStream> {
    let c = &n.constraints;
    if !n.accepts(JsonType::String) || c.pattern.is_some() || (!lengths && !c.is_empty()) {
        return None;
    }
    let mut checks = Vec::new();
    // Lengths in characters, as the walker counts them.
    let (min, max) = (c.min_length.map(Literal::u64_unsuffixed), c.max_length.map(Literal::u64_unsuffixed));
    if min.is_some() || max.is_some() {
        let min = min.map(|m| quote! { && n >= #m });
        let max = max.map(|m| quote! { && n <= #m });
        checks.push(quote! { { let n = s.char_count() as u64; true #min #max } });
    }
    if let Some(values) = &n.enum_values {
        let texts = values.iter().map(|v| v.string.as_deref()).collect::<Option<Vec<&str>>>()?;
        checks.push(if texts.is_empty() {
            quote! { false }
        } else if texts.len() <= ENUM_CHAIN_MAX {
            quote! { (#(s.eq_str(#texts))||*) }
        } else {
            // A long `||` chain nests one expression per member: parsing
            // and compiling it recurses that deep. A list does not.
            quote! { {
                const MEMBERS: &[&str] = &[#(#texts),*];
                MEMBERS.iter().any(|t| s.eq_str(t))
            } }
        });
    }
    if let Some(c) = &n.constant {
        let text = c.string.as_deref()?;
        checks.push(quote! { s.eq_str(#text) });
    }
    if let Some(name) = n.format {
        let (_, f) = crate::fast::formats::NAMES.iter().find(|(known, _)| *known == name)?;
        let f = format_ident!("{}", f);
        checks.push(quote! { fast::formats::#f(s) });
    }
    if checks.is_empty() {
        return None;
    }
    Some(quote! { #(#checks)&&* })
}

/// Whether an object's keys can be read by code (a key `match` and
/// seen-bits); else the walker reads the object.
fn keys_in_code(n: &Node) -> bool {
    n.enum_values.is_none()
        && n.constant.is_none()
        && n.pattern_properties.is_empty()
        && n.property_names.is_none()
        && n.dependent_required.is_empty()
        && !n.required_elsewhere
        && n.properties.len() <= 256
}

/// Whether no keyword constrains an object's keys or values.
fn no_object_keyword(n: &Node) -> bool {
    n.properties.is_empty()
        && n.required.is_empty()
        && n.additional.is_none()
        && n.min_properties.is_none()
        && n.max_properties.is_none()
}

/// Whether the node's only keyword is one `anyOf` or one `oneOf`.
fn union_only(n: &Node) -> bool {
    n.reference.is_none()
        && n.all_of.is_empty()
        && n.not.is_none()
        && n.condition.is_none()
        && n.dependent_schemas.is_empty()
        && n.unevaluated_properties.is_none()
        && n.unevaluated_items.is_none()
        && n.dynamic_ref.is_none()
        && (n.any_of.is_some() != n.one_of.is_some())
}
