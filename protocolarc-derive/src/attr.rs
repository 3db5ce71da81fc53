//! The macro's arguments: `"path.json"` and an optional
//! `compatible_with = "older.json"`; anything else is an error on its tokens.

use proc_macro2::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token};

pub(crate) struct Args {
    pub path: LitStr,
    pub compatible_with: Option<LitStr>,
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
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let name: syn::Ident = input.parse()?;
            if name != "compatible_with" {
                return Err(syn::Error::new(
                    name.span(),
                    format!("unknown argument `{name}` (expected `compatible_with`)"),
                ));
            }
            input.parse::<Token![=]>()?;
            if compatible_with.is_some() {
                return Err(syn::Error::new(name.span(), "`compatible_with` is given more than once"));
            }
            compatible_with = Some(input.parse()?);
        }
        Ok(Args { path, compatible_with })
    }
}

pub(crate) fn parse(tokens: TokenStream) -> syn::Result<Args> {
    syn::parse2(tokens)
}
