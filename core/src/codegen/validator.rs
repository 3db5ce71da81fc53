//! The generated validator: `Contract::fast_path`, the walk of `walk.rs` in
//! quick mode, specialised to one contract.
//!
//! It is emitted from the plan the walker walks, the contract's path tree:
//! each object level becomes a function that reads the object once and
//! matches its keys with a compiled `match` on their bytes; a seen-bit per
//! declared key finds repeats and missing required keys. This module writes
//! that structure (objects, arrays, the `match` on the value's kind, as
//! `Walk::value`, `Walk::object` and `Walk::array` read them); every rule on
//! a value is emitted by its keyword in `keywords/`, next to the runtime
//! check it compiles. The code calls into `fast.rs` (the walker's own
//! primitives and keyword checks) and only answers "certainly no finding":
//! anything else hands the body to the finding engine, so the findings are
//! the runtime's for every input, and a valid body costs one pass and no
//! allocation.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use crate::contract::tree::Node;
use crate::contract::{ContractSpec, FieldSpec, JsonType};
use crate::keywords::{enums, format, items, lengths, numbers, pattern, unique};

/// The `fast_path` method of `impl Contract for #ty`.
pub fn fast_path(spec: &ContractSpec, ty: &Ident) -> TokenStream {
    let mut g = Validator { spec, ty, fns: Vec::new() };
    let root = g.object_fn(&spec.tree, spec.strict);
    let fns = g.fns;
    quote! {
        /// The generated validator: one pass with the contract compiled in.
        fn fast_path(bytes: &[u8]) -> bool {
            // Hygiene: the user's module may define its own `Option`, `Some`...
            use ::std::option::Option::{self, None, Some};
            use ::protocolarc::__private::fast::{self, Cursor, Kind};
            #(#fns)*
            fast::run(bytes, |c| match c.kind()? {
                Kind::Object => #root(c, 0),
                _ => None,
            })
        }
    }
}

struct Validator<'c> {
    spec: &'c ContractSpec,
    ty: &'c Ident,
    /// The object functions written so far.
    fns: Vec<TokenStream>,
}

impl Validator<'_> {
    /// `&spec().fields()[index]`, for the checks that live in the runtime
    /// (patterns, exact decimal arithmetic).
    fn field_ref(&self, index: usize) -> TokenStream {
        let ty = self.ty;
        quote! { &<#ty as ::protocolarc::Contract>::spec().fields()[#index] }
    }

    /// A function that reads one object at `node`; returns its name.
    fn object_fn(&mut self, node: &Node, strict: bool) -> Ident {
        let name = format_ident!("object_{}", self.fns.len());
        self.fns.push(TokenStream::new());
        let slot = self.fns.len() - 1;
        let words = node.keys.len().div_ceil(64).max(1);
        let mut arms = Vec::new();
        let mut required = vec![0u64; words];
        let words_lit = Literal::usize_unsuffixed(words);
        for (i, child) in node.keys.iter().enumerate() {
            let (word, bit) = (i / 64, 1u64 << (i % 64));
            if child.node.required {
                required[word] |= bit;
            }
            let (w, bit) = (Literal::usize_unsuffixed(word), Literal::u64_unsuffixed(bit));
            let key = Literal::byte_string(child.key.as_bytes());
            let check = self.value(Some(&child.node), quote! { depth + 1 });
            arms.push(quote! {
                #key => {
                    if seen[#w] & #bit != 0 {
                        return None;
                    }
                    seen[#w] |= #bit;
                    #check
                }
            });
        }
        let values = node.values.as_deref().map(|v| self.value(Some(v), quote! { depth + 1 }));
        let other = if let Some(check) = &values {
            // A map's undeclared key: its value is checked as the map's values.
            quote! {
                _ => {
                    c.entry(base, key)?;
                    #check
                }
            }
        } else if strict || node.closed {
            // An undeclared key of a strict contract is a warning; of a
            // closed object, an error.
            quote! { _ => return None, }
        } else {
            quote! { _ => c.other(base, key, depth + 1)?, }
        };
        let checks = required.iter().enumerate().filter(|(_, &r)| r != 0).map(|(w, &r)| {
            let (w, r) = (Literal::usize_unsuffixed(w), Literal::u64_unsuffixed(r));
            quote! {
                if seen[#w] & #r != #r {
                    return None;
                }
            }
        });
        if node.keys.is_empty() {
            // No declared key: every key is undeclared.
            let each = if let Some(check) = &values {
                quote! {
                    while let Some(key) = c.key(&mut first)? {
                        c.entry(base, key)?;
                        #check
                    }
                }
            } else if strict || node.closed {
                quote! {
                    if c.key(&mut first)?.is_some() {
                        return None;
                    }
                }
            } else {
                quote! {
                    while let Some(key) = c.key(&mut first)? {
                        c.other(base, key, depth + 1)?;
                    }
                }
            };
            self.fns[slot] = quote! {
                fn #name(c: &mut Cursor<'_>, depth: usize) -> Option<()> {
                    let base = c.object(depth)?;
                    let mut first = true;
                    #each
                    c.end_object(base);
                    Some(())
                }
            };
            return name;
        }
        self.fns[slot] = quote! {
            fn #name(c: &mut Cursor<'_>, depth: usize) -> Option<()> {
                let base = c.object(depth)?;
                let mut seen = [0u64; #words_lit];
                let mut first = true;
                while let Some(key) = c.key(&mut first)? {
                    match key {
                        #(#arms)*
                        #other
                    }
                }
                c.end_object(base);
                #(#checks)*
                Some(())
            }
        };
        name
    }

    /// Reads one value at `node` (`None`: undeclared) at depth `depth`.
    fn value(&mut self, node: Option<&Node>, depth: TokenStream) -> TokenStream {
        let Some(node) = node else {
            return quote! { c.skip(#depth)?; };
        };
        let Some(index) = node.field else {
            return self.implied(node, depth);
        };
        let spec = self.spec;
        let f = &spec.fields[index];
        let t = f.types;
        let members = f.enum_values.as_deref();
        let mut arms = Vec::new();
        if t.accepts(JsonType::String) {
            let checks = self.string(f, &self.field_ref(index));
            let read = if checks.is_empty() {
                quote! { c.string()?; }
            } else {
                quote! { let s = c.string()?; }
            };
            arms.push(quote! { Kind::String => { #read #checks } });
        }
        if t.accepts(JsonType::Integer) {
            let integer_only = !t.contains(JsonType::Number);
            let checks = numbers::emit(f.enum_values.is_some(), &f.constraints, &self.field_ref(index));
            let read = match (integer_only, checks.is_empty()) {
                (false, true) => quote! { c.any_number()?; },
                (true, true) => quote! {
                    if !c.integer()? {
                        return None;
                    }
                },
                (false, false) => quote! { let n = c.number()?; },
                (true, false) => quote! {
                    let n = c.number()?;
                    if !n.is_integer() {
                        return None;
                    }
                },
            };
            arms.push(quote! { Kind::Number => { #read #checks } });
        }
        if t.accepts(JsonType::Boolean) {
            let check = match enums::bools(members).as_slice() {
                [] => quote! { c.literal()?; return None; },
                [only] => quote! {
                    if c.literal()? != Some(#only) {
                        return None;
                    }
                },
                _ => quote! { c.literal()?; },
            };
            arms.push(quote! { Kind::Bool => { #check } });
        }
        if t.accepts(JsonType::Null) {
            // The literal after an `n` is `null` or a syntax fault.
            let allowed = members.is_none_or(|values| enums::has_literal(values, None));
            let check = if allowed {
                quote! { c.literal()?; }
            } else {
                quote! { c.literal()?; return None; }
            };
            arms.push(quote! { Kind::Null => { #check } });
        }
        if t.accepts(JsonType::Object) {
            let read = if members.is_some() {
                // An enum lists scalars only.
                quote! { return None; }
            } else if node.keys.is_empty() && node.values.is_none() && !node.closed {
                quote! { c.skip(#depth)?; }
            } else {
                let name = self.object_fn(node, false);
                quote! { #name(c, #depth)?; }
            };
            arms.push(quote! { Kind::Object => { #read } });
        }
        if t.accepts(JsonType::Array) {
            let read = if members.is_some() {
                quote! { return None; }
            } else {
                self.array(node, Some(f), &depth)
            };
            arms.push(quote! { Kind::Array => { #read } });
        }
        self.dispatch(arms)
    }

    /// A parent no field declares: an object with its keys, or an array.
    fn implied(&mut self, node: &Node, depth: TokenStream) -> TokenStream {
        let mut arms = Vec::new();
        if !node.keys.is_empty() || node.values.is_some() {
            let name = self.object_fn(node, false);
            arms.push(quote! { Kind::Object => { #name(c, #depth)?; } });
        }
        if node.items.is_some() {
            let read = self.array(node, None, &depth);
            arms.push(quote! { Kind::Array => { #read } });
        }
        self.dispatch(arms)
    }

    /// `match` on the next value's kind; the kinds without an arm give up.
    fn dispatch(&self, arms: Vec<TokenStream>) -> TokenStream {
        let rest = (arms.len() < 6).then(|| quote! { _ => return None, });
        quote! {
            match c.kind()? {
                #(#arms)*
                #rest
            }
        }
    }

    /// Reads an array at `node`, with the field's item constraints.
    fn array(&mut self, node: &Node, f: Option<&FieldSpec>, depth: &TokenStream) -> TokenStream {
        let element = self.value(node.items.as_deref(), quote! { #depth + 1 });
        let c = f.map(|f| (*f.constraints).clone()).unwrap_or_default();
        let [base, at, span, distinct] = unique::emit(&c);
        let counts = items::emit(&c);
        quote! {
            c.array(#depth)?;
            #base
            let mut count = 0usize;
            while c.next(count)? {
                #at
                #element
                #span
                count += 1;
            }
            #counts
            #distinct
        }
    }

    /// The checks on a string `s` (nothing when the field has none), in
    /// the walker's order: enum, lengths, pattern.
    fn string(&self, f: &FieldSpec, field: &TokenStream) -> TokenStream {
        let mut out = TokenStream::new();
        if let Some(values) = &f.enum_values {
            out.extend(enums::emit_string(values));
        }
        out.extend(lengths::emit(&f.constraints));
        out.extend(pattern::emit(&f.constraints, field));
        out.extend(format::emit(f.format.is_some(), field));
        out
    }
}
