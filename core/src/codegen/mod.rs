//! Code generation: a contract becomes Rust types. One struct per
//! object level (`ToolCall`, `ToolCallParams`), string enums as Rust enums,
//! several types as an untagged enum, optional fields as `Option`, arrays as
//! `Vec`, and every struct keeps its undeclared keys in `unknown_fields`, so a
//! round trip loses nothing. Both forms are generated from the schema graph
//! (`schema.rs`; a fields form from its lowering). The types implement
//! `protocolarc::Contract` with a check generated for the graph
//! (`schema_check.rs`), which hands every body it fails to the runtime
//! engine, so the findings are the same by construction.
//!
//! Shared by the proc-macro crate (which compiles this file into itself) and
//! `cargo protocolarc generate`; it knows nothing of `proc_macro` or `syn`.

use std::collections::HashSet;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::contract::ContractSpec;

mod catalog;
mod options;
mod schema;
mod schema_check;

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
pub fn expand(spec: &ContractSpec, item: &Item, path: &str) -> Result<TokenStream, String> {
    expand_with(spec, item, path, &Options::default())
}

/// [`expand`] with the attribute's `rename`, `replace` and `derives`.
/// `replace` names `$defs` types, which only the schema form has.
pub fn expand_with(spec: &ContractSpec, item: &Item, path: &str, opts: &Options) -> Result<TokenStream, String> {
    let text = include_text(path);
    let mut naming = Naming::new(opts.clone(), [item.name.clone()]);
    if let Some((name, _)) = opts.replace.first().filter(|_| spec.schema().is_none()) {
        return Err(format!(
            "replace({name} = ...): {path} is a fields-form contract, which has no `$defs` types to replace"
        ));
    }
    let out = schema::expand(spec, spec.walked(), item, text, path, &mut naming);
    naming.unused(path)?;
    Ok(out)
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
    // Rust's strict and reserved keywords, one string: several are JSON
    // Schema keywords too (`const`, `enum`, `if`, `type`), which the schema
    // code spells through `keywords::name` alone.
    const KEYWORDS: &str = "as async await break const continue crate dyn else enum extern false fn \
        for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type \
        unsafe use where while abstract become box do final gen macro override priv try typeof unsized virtual yield";
    KEYWORDS.split_ascii_whitespace().any(|k| k == name)
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
