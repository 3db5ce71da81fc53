//! `#[protocolarc::catalog(...)]`: a module filled with one protocol
//! revision's typed messages. The bundled catalogs are compiled into this
//! crate (`build.rs`), so a crate using the published macro needs no
//! checkout; `dir = "..."` reads a directory of the user's own contracts.

use proc_macro2::TokenStream;
use protocolarc_core::codegen::{self, Message};
use protocolarc_core::ContractSpec;
use quote::quote;

use crate::attr::{self, Source};

include!(concat!(env!("OUT_DIR"), "/catalog_index.rs"));

/// A directory of contracts is read up to this many files: a module is
/// compiled into every build of the crate, so its size stays bounded.
const MAX_FILES: usize = 1000;

pub(crate) fn expand(args: TokenStream, item: TokenStream) -> Result<TokenStream, TokenStream> {
    let module: syn::ItemMod = syn::parse2(item).map_err(|e| e.to_compile_error())?;
    let args = attr::parse_catalog(args).map_err(|e| e.to_compile_error())?;
    let fail = |e: syn::Error| {
        let error = e.to_compile_error();
        quote! { #error }
    };
    let (messages, what, span) = match &args.source {
        Source::Bundled(lit) => (bundled(lit).map_err(fail)?, lit.value(), lit.span()),
        Source::Dir(lit) => (directory(lit).map_err(fail)?, lit.value(), lit.span()),
    };
    let vis = quote! { pub };
    let items = codegen::expand_catalog(&messages, &vis, &args.options, &what)
        .map_err(|message| fail(syn::Error::new(span, message)))?;
    let syn::ItemMod { attrs, vis, unsafety, mod_token, ident, content, .. } = module;
    let own = content.map(|(_, items)| items).unwrap_or_default();
    Ok(quote! {
        #(#attrs)*
        #vis #unsafety #mod_token #ident {
            #(#own)*
            #items
        }
    })
}

/// The contracts of the bundled catalog `protocol@revision`.
fn bundled(lit: &syn::LitStr) -> Result<Vec<Message>, syn::Error> {
    let wanted = lit.value();
    let dir = wanted.replacen('@', "/", 1) + "/";
    let mut messages = Vec::new();
    for (path, text) in FILES.iter().filter(|(path, _)| path.starts_with(&dir)) {
        let label = format!("{wanted}/{}", &path[dir.len()..]);
        let spec = ContractSpec::from_slice(text.as_bytes(), &label)
            .map_err(|e| syn::Error::new(lit.span(), e.to_string()))?;
        messages.push(Message { spec, json: text.to_string(), text: quote! { #text }, label });
    }
    if messages.is_empty() || !wanted.contains('@') {
        let mut known: Vec<String> = FILES
            .iter()
            .filter_map(|(path, _)| path.rsplit_once('/'))
            .map(|(dir, _)| dir.replacen('/', "@", 1))
            .collect();
        known.dedup();
        let msg = format!("no bundled catalog `{wanted}` (bundled: {})", known.join(", "));
        return Err(syn::Error::new(lit.span(), msg));
    }
    Ok(messages)
}

/// Every `*.json` contract directly in a directory relative to
/// `CARGO_MANIFEST_DIR`, each compiled in with `include_str!`.
fn directory(lit: &syn::LitStr) -> Result<Vec<Message>, syn::Error> {
    let rel = lit.value();
    let base = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let full = std::path::Path::new(&base).join(&rel);
    let err = |msg: String| syn::Error::new(lit.span(), msg);
    let reason = |e: std::io::Error| err(format!("cannot read directory {rel}: {}", protocolarc_core::io_reason(&e)));
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&full).map_err(reason)? {
        let path = entry.map_err(reason)?.path();
        if path.extension().is_some_and(|e| e == "json") && path.is_file() {
            files.push(path);
        }
        if files.len() > MAX_FILES {
            return Err(err(format!("{rel} holds more than {MAX_FILES} contracts")));
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(err(format!("{rel} holds no contract (`*.json`)")));
    }
    let mut messages = Vec::new();
    for path in files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let label = format!("{}/{name}", rel.trim_end_matches('/'));
        let json = std::fs::read_to_string(&path)
            .map_err(|e| err(format!("cannot read contract {label}: {}", protocolarc_core::io_reason(&e))))?;
        let spec = ContractSpec::from_slice(json.as_bytes(), &label).map_err(|e| err(e.to_string()))?;
        let text = codegen::include_text(&label);
        messages.push(Message { spec, json, text, label });
    }
    Ok(messages)
}
