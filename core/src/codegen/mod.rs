//! Code generation: a contract becomes Rust types. One struct per
//! object level (`ToolCall`, `ToolCallParams`), string enums as Rust enums,
//! several types as an untagged enum, optional fields as `Option`, arrays as
//! `Vec`, and every struct keeps its undeclared keys in `unknown_fields`, so a
//! round trip loses nothing. The types implement `protocolarc::Contract` with
//! a validator generated for the contract (`validator.rs`), which hands every
//! body it cannot pass to the runtime engine, so the findings are the same by
//! construction.
//!
//! Shared by the proc-macro crate (which compiles this file into itself) and
//! `cargo protocolarc generate`; it knows nothing of `proc_macro` or `syn`.

use std::collections::HashSet;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::contract::tree::Node;
use crate::contract::{ContractSpec, FieldSpec, JsonType, Scalar};

mod catalog;
mod options;
mod schema;
mod schema_check;
mod validator;

pub use catalog::{expand_catalog, Message};
pub use options::{Naming, Options};

/// The item the attribute sits on.
pub struct Item {
    /// Its visibility (`pub`, `pub(crate)`, nothing).
    pub vis: TokenStream,
    /// Its other attributes, kept on the generated struct.
    pub attrs: TokenStream,
    /// Its name: the top-level struct's name.
    pub name: String,
}

/// The name of the map that keeps undeclared keys, in every struct.
pub const UNKNOWN_FIELDS: &str = "unknown_fields";

/// The generated items for the contract at `path` (relative to the using
/// crate's `CARGO_MANIFEST_DIR`, as written in the attribute). The text is
/// compiled in with `include_str!`, so editing the file rebuilds the crate.
/// A schema-form contract's types come from `schema.rs`.
pub fn expand(spec: &ContractSpec, item: &Item, path: &str) -> Result<TokenStream, String> {
    expand_with(spec, item, path, &Options::default())
}

/// [`expand`] with the attribute's `rename`, `replace` and `derives`.
/// `replace` names `$defs` types, which only the schema form has.
pub fn expand_with(spec: &ContractSpec, item: &Item, path: &str, opts: &Options) -> Result<TokenStream, String> {
    let text = include_text(path);
    let mut naming = Naming::new(opts.clone(), [item.name.clone()]);
    if let Some(schema) = spec.schema() {
        let out = schema::expand(spec, schema, item, text, path, &mut naming);
        naming.unused(path)?;
        return Ok(out);
    }
    if let Some((name, _)) = opts.replace.first() {
        return Err(format!(
            "replace({name} = ...): {path} is a fields-form contract, which has no `$defs` types to replace"
        ));
    }
    let name = item.name.clone();
    let mut g = Gen { spec, vis: item.vis.clone(), out: Vec::new(), naming };
    let title = spec.title().map(str::to_string).unwrap_or_else(|| spec.name().to_string());
    let mut docs = vec![format!("{title} (`{}`).", spec.id())];
    docs.extend(spec.doc().map(str::to_string));
    g.object(&spec.tree, &name, &docs, item.attrs.clone(), "");
    g.naming.unused(path)?;
    let ident = format_ident!("{}", name);
    let items = g.out;
    let validate = validator::fast_path(spec, &ident);
    let contract = contract_impl(spec, &ident, &text, path, validate);
    Ok(quote! {
        #(#items)*

        #contract
    })
}

/// `impl Contract for #ident`: the identity, the contract loaded once from
/// its compiled-in text, and `extra` items (the generated fast path).
pub(crate) fn contract_impl(
    spec: &ContractSpec,
    ident: &Ident,
    text: &TokenStream,
    path: &str,
    extra: TokenStream,
) -> TokenStream {
    let (contract, revision) = (spec.name(), spec.revision().to_string());
    quote! {
        impl ::protocolarc::Contract for #ident {
            const NAME: &'static str = #contract;
            const REVISION: &'static str = #revision;

            fn spec() -> &'static ::protocolarc::ContractSpec {
                static SPEC: ::std::sync::OnceLock<::protocolarc::ContractSpec> = ::std::sync::OnceLock::new();
                ::protocolarc::__private::spec(&SPEC, #text, #path)
            }

            #extra
        }
    }
}

/// `include_str!` of a contract file named as in the attribute: the file's
/// text, and a dependency of the using crate (editing it rebuilds the crate).
pub fn include_text(path: &str) -> TokenStream {
    if std::path::Path::new(path).is_absolute() {
        quote! { include_str!(#path) }
    } else {
        let rel = format!("/{path}");
        quote! { include_str!(concat!(env!("CARGO_MANIFEST_DIR"), #rel)) }
    }
}

struct Gen<'c> {
    spec: &'c ContractSpec,
    vis: TokenStream,
    out: Vec<TokenStream>,
    /// Every type name generated so far: two paths that spell the same
    /// name (`params.x` and `params_x`) get `Name` and `Name2`.
    naming: Naming,
}

/// Doc attributes, one per line of `lines` (a text's own line breaks kept
/// as lines), each made inert by [`doc_line`].
fn docs(lines: &[String]) -> TokenStream {
    let lines = lines.iter().flat_map(|l| l.split('\n')).map(doc_line);
    quote! { #(#[doc = #lines])* }
}

/// One line of a doc comment, made inert: contract text (a title, a
/// description, a key) comes from whoever wrote the contract, and rustdoc
/// compiles and runs a fenced or indented code block in a doc comment as a
/// doctest. So every run of three or more backticks or tildes (a fence,
/// even after a list or quote marker) is escaped, every run of four or more
/// spaces (an indented block) is one space, and control, line-separator and
/// bidi characters are escaped (a tab among them, so it indents nothing).
/// Each line is its own `#[doc]` string: no text can end the comment.
pub(crate) fn doc_line(line: &str) -> String {
    let text = crate::json::text::one_line(line.trim_end());
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 1);
    out.push(' ');
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let run = chars[i..].iter().take_while(|&&d| d == c).count();
        match c {
            '`' | '~' if run >= 3 => (0..run).for_each(|_| {
                out.push('\\');
                out.push(c);
            }),
            ' ' if run >= 4 => out.push(' '),
            _ => (0..run).for_each(|_| out.push(c)),
        }
        i += run;
    }
    out
}

impl Gen<'_> {
    /// `wanted`, or `wanted2`, `wanted3`... when another type has it.
    fn type_name(&mut self, wanted: &str) -> String {
        self.naming.name(wanted)
    }

    fn field(&self, node: &Node) -> Option<&FieldSpec> {
        node.field.map(|i| &self.spec.fields[i])
    }

    /// A struct for an object node at contract path `path`, named `name`.
    fn object(&mut self, node: &Node, name: &str, doc: &[String], attrs: TokenStream, path: &str) {
        // The struct comes before the types of its fields.
        let slot = self.out.len();
        self.out.push(TokenStream::new());
        let ident = format_ident!("{}", name);
        let vis = self.vis.clone();
        let mut taken = HashSet::from([UNKNOWN_FIELDS.to_string()]);
        let mut fields = Vec::new();
        // `new`: the required fields as arguments, the optional ones `None`.
        let (mut args, mut inits) = (Vec::new(), Vec::new());
        for child in &node.keys {
            let key = child.key.to_string();
            let field_name = unique(snake_case(&key), &mut taken);
            let field_ident = ident_of(&field_name);
            let type_name = format!("{name}{}", pascal_case(&key));
            let child_path = crate::contract::join_key(path, &key);
            // A bounded (or unbounded) integer field is a Rust integer.
            let int = self.integer_type(&child.node);
            let ty = match &int {
                Some(int) => int.clone(),
                None => self.value_type(&child.node, &type_name, &child_path),
            };
            let declared = self.field(&child.node);
            let required = child.node.required;
            let field_docs = docs(&[declared
                .and_then(|f| f.doc.clone())
                .unwrap_or_else(|| self.shape_sentence(&child.node, &child_path))]);
            let rename = (field_name != key).then(|| quote! { #[serde(rename = #key)] });
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
                (false, false) => (
                    quote! { ::std::option::Option<#ty> },
                    quote! {
                        #[serde(default, deserialize_with = "::protocolarc::__private::present", skip_serializing_if = "::std::option::Option::is_none")]
                    },
                ),
                (false, true) => (
                    quote! { ::std::option::Option<#ty> },
                    quote! {
                        #[serde(default, deserialize_with = "::protocolarc::__private::present_integer", skip_serializing_if = "::std::option::Option::is_none")]
                    },
                ),
            };
            fields.push(quote! {
                #field_docs
                #rename
                #optional
                #vis #field_ident: #ty,
            });
        }
        let unknown = format_ident!("{}", UNKNOWN_FIELDS);
        let derives = self.naming.derives();
        let doc = docs(doc);
        // A closed object has no undeclared key to keep: the parse refuses one.
        let map_values =
            node.values.as_deref().map(|v| self.value_type(v, &format!("{name}Value"), &format!("{path}{{}}")));
        let (deny, extra, extra_init) = if node.closed {
            (quote! { #[serde(deny_unknown_fields)] }, quote! {}, quote! {})
        } else if let Some(ty) = map_values {
            (
                quote! {},
                quote! {
                    /// The map's other keys (`{}` in the contract), with their values.
                    #[serde(flatten)]
                    #vis #unknown: ::std::collections::BTreeMap<::std::string::String, #ty>,
                },
                quote! { #unknown: ::std::default::Default::default() },
            )
        } else {
            (
                quote! {},
                quote! {
                    /// Keys the contract does not declare, kept for the round trip.
                    #[serde(flatten)]
                    #vis #unknown: ::protocolarc::Map<::std::string::String, ::protocolarc::Value>,
                },
                quote! { #unknown: ::std::default::Default::default() },
            )
        };
        self.out[slot] = quote! {
            #doc
            #attrs
            #derives
            #deny
            #vis struct #ident {
                #(#fields)*
                #extra
            }

            impl #ident {
                /// A value with every required field given, every optional one
                /// absent (`None`) and no undeclared key. Unchecked, like any
                /// value built by hand: `Contract::validate` judges it.
                #[allow(clippy::too_many_arguments, clippy::new_without_default)]
                #vis fn new(#(#args),*) -> Self {
                    #ident { #(#inits,)* #extra_init }
                }
            }
        };
    }

    /// `u64` or `i64` for a field whose only type is `integer` and whose
    /// bounds fit that type (`u64` when the lower bound is at least 0), else
    /// `None` (the field stays a `Number`).
    fn integer_type(&self, node: &Node) -> Option<TokenStream> {
        let f = self.field(node)?;
        if f.types.iter().ne([JsonType::Integer]) {
            return None;
        }
        let c = &f.constraints;
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

    /// What a field without a `doc` is documented with: its contract path,
    /// types, requiredness and constraints, e.g. "`params.name`: string,
    /// required, maxLength=128."
    fn shape_sentence(&self, node: &Node, path: &str) -> String {
        let field = self.field(node);
        let types = field.map_or_else(|| node.implied_types(), |f| f.types);
        let mut parts = vec![types.label(), if node.required { "required".into() } else { "optional".into() }];
        if let Some(f) = field {
            if let Some(values) = f.enum_values.as_deref() {
                parts.push(format!("one of {}", crate::contract::enum_label(values)));
            }
            parts.extend(f.constraints.describe());
        }
        format!("`{path}`: {}.", parts.join(", "))
    }

    /// The Rust type of a value at `node` (contract path `path`); nested
    /// types are named `name`.
    fn value_type(&mut self, node: &Node, name: &str, path: &str) -> TokenStream {
        let field = self.field(node);
        let types = field.map_or_else(|| node.implied_types(), |f| f.types);
        if types.is_any() {
            return quote! { ::protocolarc::Value };
        }
        let kinds: Vec<JsonType> =
            types.iter().filter(|t| !(*t == JsonType::Integer && types.contains(JsonType::Number))).collect();
        if kinds.len() == 1 {
            return self.single(node, kinds[0], name, path);
        }
        // Several types: an untagged enum with a variant per type.
        let name = &self.type_name(name);
        let ident = format_ident!("{}", name);
        let vis = self.vis.clone();
        let variants: Vec<TokenStream> = kinds
            .iter()
            .map(|&t| {
                let v = format_ident!("{}", pascal_case(t.name()));
                let doc =
                    doc_line(&format!("`{path}` as {} {}.", if t == JsonType::Integer { "an" } else { "a" }, t.name()));
                if t == JsonType::Null {
                    quote! { #[doc = #doc] #v, }
                } else {
                    let ty = self.single(node, t, &format!("{name}{}", pascal_case(t.name())), path);
                    quote! { #[doc = #doc] #v(#ty), }
                }
            })
            .collect();
        let derives = self.naming.derives();
        let label = doc_line(&format!("`{path}`: one of the types {}.", types.label()));
        self.out.push(quote! {
            #[doc = #label]
            #derives
            #[serde(untagged)]
            #vis enum #ident { #(#variants)* }
        });
        quote! { #ident }
    }

    /// The Rust type of one JSON type at `node` (contract path `path`).
    fn single(&mut self, node: &Node, t: JsonType, name: &str, path: &str) -> TokenStream {
        match t {
            JsonType::String => match self.field(node).and_then(|f| f.enum_values.clone()) {
                Some(values) if values.iter().all(|v| matches!(v, Scalar::String(_))) => {
                    self.string_enum(&values, name, path)
                }
                _ => quote! { ::std::string::String },
            },
            JsonType::Integer | JsonType::Number => quote! { ::protocolarc::Number },
            JsonType::Boolean => quote! { bool },
            JsonType::Null => quote! { () },
            JsonType::Object if node.keys.is_empty() && node.values.is_some() => {
                let values = node.values.as_deref().unwrap_or(node);
                let ty = self.value_type(values, &format!("{name}Value"), &format!("{path}{{}}"));
                quote! { ::std::collections::BTreeMap<::std::string::String, #ty> }
            }
            JsonType::Object if !node.keys.is_empty() || node.closed => {
                let name = &self.type_name(name);
                let doc = format!("The object at `{path}` in `{}`.", self.spec.id());
                self.object(node, name, &[doc], quote! {}, path);
                let ident = format_ident!("{}", name);
                quote! { #ident }
            }
            JsonType::Object => quote! {
                ::protocolarc::Map<::std::string::String, ::protocolarc::Value>
            },
            JsonType::Array => {
                let element = match node.items.as_deref() {
                    Some(items) => self.value_type(items, &format!("{name}Item"), &format!("{path}[]")),
                    None => quote! { ::protocolarc::Value },
                };
                quote! { ::std::vec::Vec<#element> }
            }
        }
    }

    /// A Rust enum for a string enum; a single value also implements `Default`.
    fn string_enum(&mut self, values: &[Scalar], name: &str, path: &str) -> TokenStream {
        let ident = format_ident!("{}", self.type_name(name));
        let vis = self.vis.clone();
        let mut taken = HashSet::new();
        let mut variants = Vec::new();
        let mut first = None;
        for v in values {
            let Scalar::String(text) = v else { continue };
            let variant = unique(pascal_case(text), &mut taken);
            let variant = format_ident!("{}", variant);
            first.get_or_insert(variant.clone());
            let doc = doc_line(&format!("`{}`.", text.escape_debug()));
            variants.push(quote! { #[doc = #doc] #[serde(rename = #text)] #variant, });
        }
        let derives = self.naming.derives();
        let doc = doc_line(&format!("The values of `{path}` in `{}`.", self.spec.id()));
        self.out.push(quote! {
            #[doc = #doc]
            #derives
            #vis enum #ident { #(#variants)* }
        });
        if let (1, Some(only)) = (variants.len(), first) {
            self.out.push(quote! {
                impl ::std::default::Default for #ident {
                    fn default() -> Self { #ident::#only }
                }
            });
        }
        quote! { #ident }
    }
}

/// `camelCase`, `kebab-case`, `dotted.name` -> `camel_case`, `kebab_case`.
pub fn snake_case(key: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !out.ends_with('_') {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    let trimmed = out.trim_matches('_').to_string();
    let mut name = if trimmed.is_empty() { "field".to_string() } else { trimmed };
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    if is_keyword(&name) {
        name.push('_');
    }
    name
}

/// `tools/call`, `user`, `2.0` -> `ToolsCall`, `User`, `V2_0`.
pub fn pascal_case(text: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if upper {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c);
            }
            upper = false;
        } else {
            upper = true;
            if c == '.' && out.ends_with(|d: char| d.is_ascii_digit()) {
                out.push('_');
            }
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    if is_keyword(&out) {
        out.push('_');
    }
    out
}

fn unique(name: String, taken: &mut HashSet<String>) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{name}{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

fn ident_of(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

fn is_keyword(name: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn",
        "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self",
        "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract",
        "become", "box", "do", "final", "gen", "macro", "override", "priv", "try", "typeof", "unsized", "virtual",
        "yield",
    ];
    KEYWORDS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_rust_names() {
        assert_eq!(snake_case("camelCase"), "camel_case");
        assert_eq!(snake_case("kebab-case"), "kebab_case");
        assert_eq!(snake_case("type"), "type_");
        assert_eq!(snake_case("self"), "self_");
        assert_eq!(snake_case("maxTokens"), "max_tokens");
        assert_eq!(snake_case("_meta"), "meta");
        assert_eq!(snake_case("2fa"), "_2fa");
        assert_eq!(pascal_case("tools/call"), "ToolsCall");
        assert_eq!(pascal_case("2.0"), "V2_0");
        assert_eq!(pascal_case("user"), "User");
        assert_eq!(pascal_case(""), "V");
    }
}
