//! The macros' arguments. `contract`: `"path.json"`, then optional
//! `compatible_with = "older.json"`; `catalog`: `"mcp@2025-11-25"` or
//! `dir = "contracts/x"`. Both then take `rename(Old = New, ...)`,
//! `replace(Def = path::To, ...)` and `derives(Trait, ...)`. Anything else is
//! an error on its tokens.

use proc_macro2::TokenStream;
use protocolarc_core::codegen::Options;
use quote::ToTokens;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, LitStr, Token};

pub(crate) struct Args {
    pub path: LitStr,
    pub compatible_with: Option<LitStr>,
    pub options: Options,
}

/// Where a catalog module's contracts come from.
pub(crate) enum Source {
    /// A bundled catalog: `"mcp@2025-11-25"`.
    Bundled(LitStr),
    /// A directory of contracts relative to `CARGO_MANIFEST_DIR`.
    Dir(LitStr),
}

pub(crate) struct CatalogArgs {
    pub source: Source,
    pub options: Options,
}

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.is_empty() {
            return Err(
                input.error("expected the contract file: #[protocolarc::contract(\"contracts/name_1.0.0.json\")]")
            );
        }
        let path: LitStr = input.parse()?;
        let mut compatible_with = None;
        let mut options = Options::default();
        while next_argument(input)? {
            let name: Ident = input.parse()?;
            if name == "compatible_with" {
                input.parse::<Token![=]>()?;
                if compatible_with.is_some() {
                    return Err(syn::Error::new(name.span(), "`compatible_with` is given more than once"));
                }
                compatible_with = Some(input.parse()?);
            } else if !option(&name, input, &mut options)? {
                let msg =
                    format!("unknown argument `{name}` (expected `compatible_with`, `rename`, `replace` or `derives`)");
                return Err(syn::Error::new(name.span(), msg));
            }
        }
        Ok(Args { path, compatible_with, options })
    }
}

impl Parse for CatalogArgs {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        const EXPECTED: &str =
            "expected a bundled catalog or a directory: #[protocolarc::catalog(\"mcp@2025-11-25\")] or #[protocolarc::catalog(dir = \"contracts\")]";
        let source = if input.peek(LitStr) {
            Source::Bundled(input.parse()?)
        } else if input.peek(Ident) && input.peek2(Token![=]) {
            let name: Ident = input.parse()?;
            if name != "dir" {
                return Err(syn::Error::new(name.span(), EXPECTED));
            }
            input.parse::<Token![=]>()?;
            Source::Dir(input.parse()?)
        } else {
            return Err(input.error(EXPECTED));
        };
        let mut options = Options::default();
        while next_argument(input)? {
            let name: Ident = input.parse()?;
            if !option(&name, input, &mut options)? {
                let msg = format!("unknown argument `{name}` (expected `rename`, `replace` or `derives`)");
                return Err(syn::Error::new(name.span(), msg));
            }
        }
        Ok(CatalogArgs { source, options })
    }
}

/// Eats the comma before the next argument; `false` at the end.
fn next_argument(input: ParseStream<'_>) -> syn::Result<bool> {
    if input.is_empty() {
        return Ok(false);
    }
    input.parse::<Token![,]>()?;
    Ok(!input.is_empty())
}

/// Parses the option named `name` into `options`; `false` when `name` is not
/// an option.
fn option(name: &Ident, input: ParseStream<'_>, options: &mut Options) -> syn::Result<bool> {
    let content;
    match name.to_string().as_str() {
        "rename" => {
            syn::parenthesized!(content in input);
            for pair in Punctuated::<Pair<Ident>, Token![,]>::parse_terminated(&content)? {
                push_once(&mut options.rename, pair.from, pair.to.to_string(), "rename")?;
            }
        }
        "replace" => {
            syn::parenthesized!(content in input);
            for pair in Punctuated::<Pair<syn::Type>, Token![,]>::parse_terminated(&content)? {
                push_once(&mut options.replace, pair.from, pair.to.to_token_stream(), "replace")?;
            }
        }
        "derives" => {
            syn::parenthesized!(content in input);
            let paths = Punctuated::<syn::Path, Token![,]>::parse_terminated(&content)?;
            options.derives.extend(paths.into_iter().map(|p| p.to_token_stream()));
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn push_once<T>(list: &mut Vec<(String, T)>, from: Ident, to: T, option: &str) -> syn::Result<()> {
    let key = from.to_string();
    if list.iter().any(|(k, _)| *k == key) {
        return Err(syn::Error::new(from.span(), format!("{option} names `{key}` more than once")));
    }
    list.push((key, to));
    Ok(())
}

/// `Name = T` inside `rename(...)` or `replace(...)`.
struct Pair<T> {
    from: Ident,
    to: T,
}

impl<T: Parse> Parse for Pair<T> {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let from = input.parse()?;
        input.parse::<Token![=]>()?;
        Ok(Pair { from, to: input.parse()? })
    }
}

pub(crate) fn parse(tokens: TokenStream) -> syn::Result<Args> {
    syn::parse2(tokens)
}

pub(crate) fn parse_catalog(tokens: TokenStream) -> syn::Result<CatalogArgs> {
    syn::parse2(tokens)
}
