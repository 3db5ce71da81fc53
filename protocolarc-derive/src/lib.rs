//! The proc-macro half of ProtocolArc: `#[protocolarc::contract("...json")]`
//! turns a contract file into typed serde structs implementing
//! `protocolarc::Contract`. Users depend on `protocolarc`, which
//! re-exports it.
//!
//! The macro is a shim over `protocolarc-core`: loading, checking and
//! generating are the core's (the runtime facade re-exports the same crate),
//! so a contract means the same thing at compile time and at run time. A bad contract is a compile error naming the file, the
//! JSON line and column, and the problem, and the struct is still emitted so
//! that no cascade of "cannot find type" errors follows.

#![deny(missing_docs)]

extern crate proc_macro;

mod attr;
mod catalog;

use proc_macro2::{Span, TokenStream};
use protocolarc_core::codegen;
use protocolarc_core::{chain, diff, ContractSpec};
use quote::quote;
use syn::spanned::Spanned;

/// `#[protocolarc::contract("contracts/tool_1.0.0.json")] pub struct Tool;`
///
/// Generates `Tool` from the contract file: one type per object level (one
/// per `$defs` entry in the schema form), optional fields as `Option`, string
/// enums and tagged unions as Rust enums, and an implementation of
/// `protocolarc::Contract` whose `validate_json` is compiled for the contract.
/// The path is relative to `CARGO_MANIFEST_DIR`. With
/// `compatible_with = "contracts/tool_0.9.0.json"`, compilation fails when the
/// change from that revision is breaking without a major version bump.
///
/// Fields form (`contracts/tool_1.0.0.json` lists paths):
///
/// ```ignore
/// #[protocolarc::contract("contracts/mcp_tool_call_1.0.0.json")]
/// pub struct ToolCall;
///
/// let call = ToolCall::from_json(bytes)?;            // Err(report) when the validator finds an error
/// if call.method == ToolCallMethod::ToolsCall { /* ... */ }
/// ```
///
/// Schema form (a JSON Schema 2020-12 document under `schema`):
///
/// ```ignore
/// #[protocolarc::contract("contracts/call_tool_result_2025.6.18.json")]
/// pub struct CallToolResult;
///
/// for block in &CallToolResult::from_json(bytes)?.content {
///     if let ContentBlock::Text(t) = block { println!("{}", t.text) }
/// }
/// ```
///
/// Both examples are doctested on the `protocolarc` crate's re-export
/// (`protocolarc::contract`), which is how users reach this macro.
#[proc_macro_attribute]
pub fn contract(args: proc_macro::TokenStream, item: proc_macro::TokenStream) -> proc_macro::TokenStream {
    expand(args.into(), item.into()).unwrap_or_else(|e| e).into()
}

fn expand(args: TokenStream, item: TokenStream) -> Result<TokenStream, TokenStream> {
    let item: syn::ItemStruct = syn::parse2(item).map_err(|e| e.to_compile_error())?;
    let stub = stub(&item);
    let fail = |e: syn::Error| {
        let error = e.to_compile_error();
        quote! { #error #stub }
    };
    let args = attr::parse(args).map_err(fail)?;
    if !matches!(item.fields, syn::Fields::Unit) || !item.generics.params.is_empty() {
        return Err(fail(syn::Error::new(
            item.span(),
            "#[protocolarc::contract] goes on a unit struct: `pub struct Name;`",
        )));
    }
    let spec = load(&args.path).map_err(fail)?;
    // The older revision is a dependency too: editing it re-runs the gate.
    let mut older_text = TokenStream::new();
    if let Some(older) = &args.compatible_with {
        let old = load(older).map_err(fail)?;
        gate(&old, &spec, older).map_err(fail)?;
        let text = codegen::include_text(&older.value());
        older_text = quote! { const _: &str = #text; };
    }
    let vis = &item.vis;
    let attrs = &item.attrs;
    let target = codegen::Item { vis: quote! { #vis }, attrs: quote! { #(#attrs)* }, name: item.ident.to_string() };
    let items = codegen::expand_with(&spec, &target, &args.path.value(), &args.options)
        .map_err(|message| fail(syn::Error::new(args.path.span(), message)))?;
    Ok(quote! { #items #older_text })
}

/// `#[protocolarc::catalog("mcp@2025-11-25")] pub mod mcp {}`
///
/// Fills the module with one protocol revision's typed messages: one type
/// per message, implementing `protocolarc::Contract` for its contract
/// (`mcp::ToolsCallRequest`, `mcp::InitializeResponse`), and one type per
/// `$defs` definition, shared by every message that uses it and named after
/// it (`mcp::ContentBlock`, `mcp::RequestId`). A string enum is a Rust enum,
/// a union of JSON types an enum with a variant per type
/// (`RequestId::{String, Integer}`). No two items collide.
///
/// The bundled catalogs are `mcp@2024-11-05`, `mcp@2025-03-26`,
/// `mcp@2025-06-18`, `mcp@2025-11-25`, `mcp@2026-07-28`, `a2a@0.2.6`,
/// `a2a@0.3.0` and `a2a@1.0.1`; `catalog(dir = "contracts/github")` reads
/// every `*.json` contract of a directory relative to `CARGO_MANIFEST_DIR`.
/// Both this macro and `contract` take `rename(Old = New)`,
/// `replace(Definition = path::To)` (your own type, used wherever the
/// definition is; write its path from inside the module: `super::`,
/// `crate::`) and `derives(Trait, ...)`. An option naming no generated type
/// is a compile error.
///
/// Doctested on the `protocolarc` crate's re-export (`protocolarc::catalog`).
#[proc_macro_attribute]
pub fn catalog(args: proc_macro::TokenStream, item: proc_macro::TokenStream) -> proc_macro::TokenStream {
    catalog::expand(args.into(), item.into()).unwrap_or_else(|e| e).into()
}

/// What to emit beside an error: the struct as written, implementing
/// `Contract`, so that uses of it (`T::from_json(bytes)?`, `T::NAME`) do not
/// fail too and the one real error stands alone. The `compile_error!` beside
/// it means this code is never built into a program.
fn stub(item: &syn::ItemStruct) -> TokenStream {
    let (vis, ident) = (&item.vis, &item.ident);
    if !matches!(item.fields, syn::Fields::Unit) || !item.generics.params.is_empty() {
        return quote! { #vis struct #ident; };
    }
    quote! {
        #[derive(::protocolarc::__private::serde::Serialize, ::protocolarc::__private::serde::Deserialize)]
        #[serde(crate = "::protocolarc::__private::serde")]
        #vis struct #ident;
        impl ::protocolarc::Contract for #ident {
            const NAME: &'static str = "";
            const REVISION: &'static str = "";
            fn spec() -> &'static ::protocolarc::ContractSpec {
                ::core::unreachable!("the contract did not load: see the compile error")
            }
        }
    }
}

/// Loads a contract named by a literal, relative to `CARGO_MANIFEST_DIR`.
fn load(lit: &syn::LitStr) -> Result<ContractSpec, syn::Error> {
    let rel = lit.value();
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let full = std::path::Path::new(&dir).join(&rel);
    let bytes = std::fs::read(&full).map_err(|e| {
        syn::Error::new(lit.span(), format!("cannot read contract {rel}: {}", protocolarc_core::io_reason(&e)))
    })?;
    ContractSpec::from_slice(&bytes, &rel).map_err(|e| syn::Error::new(lit.span(), e.to_string()))
}

/// Fails when `old` -> `new` is breaking without the bump it needs.
fn gate(old: &ContractSpec, new: &ContractSpec, older: &syn::LitStr) -> Result<(), syn::Error> {
    if old.revision() > new.revision() {
        let msg = format!(
            "compatible_with names {} {}, which is newer than this contract's {}",
            old.name(),
            old.revision(),
            new.revision()
        );
        return Err(syn::Error::new(older.span(), msg));
    }
    let d = diff::diff(old, new).map_err(|e| syn::Error::new(older.span(), format!("{}: {e}", older.value())))?;
    if d.compatibility() != diff::Impact::Breaking {
        return Ok(());
    }
    let bump = chain::Bump::between(old.revision(), new.revision());
    let needed = chain::Bump::needed(d.compatibility(), old.revision());
    if bump >= needed {
        return Ok(());
    }
    let changes: Vec<String> = d
        .changes()
        .iter()
        .filter(|c| c.impact() == d.compatibility())
        .map(|c| format!("  {} {}: {}", c.rule(), c.field(), c.message()))
        .collect();
    let sentence = chain::bump_message(old.revision(), new.revision(), d.compatibility(), &[], needed, bump);
    let msg = format!("{} {sentence}:\n{}", new.name(), changes.join("\n"));
    Err(syn::Error::new(Span::call_site(), msg))
}
