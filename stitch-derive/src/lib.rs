//! `#[derive(Contract)]`: parse → validate → expand, one file each.
//!
//! The macro sees tokens, not types, so it does not compute a schema: it emits code that
//! builds the schema IR in constant evaluation, from the `Shape` of every field's type, and
//! lets the compiler render it. Errors in the input are collected and reported together,
//! each at its own span.
//!
//! It uses darling 0.23 with syn 2 rather than darling 0.24: 0.24 moved to syn 3, which
//! would compile a second `syn` beside the syn 2 that `serde_derive` (in every user's
//! build) already compiles.
#![forbid(unsafe_code)]

mod case;
mod doc;
mod expand;
mod model;
mod parse;
mod pattern;
mod validate;

use darling::FromDeriveInput;
use proc_macro::TokenStream;

#[doc = include_str!("attributes.md")]
#[proc_macro_derive(Contract, attributes(contract))]
pub fn derive_contract(input: TokenStream) -> TokenStream {
    derive(input, validate::Purpose::Contract)
}

/// Derives `stitch::Shape` alone, for a type a tool returns (the result of
/// `Toolbox::tool_with_output`): its schema describes what `serde::Serialize` writes
/// (`rename(serialize = ...)`, `skip_serializing`; a field with `skip_serializing_if` may be
/// missing). The field attributes of `#[derive(Contract)]` apply; what only a tool's input has
/// (a tool name, the guard, `refine`) does not.
#[proc_macro_derive(Shape, attributes(contract))]
pub fn derive_shape(input: TokenStream) -> TokenStream {
    derive(input, validate::Purpose::Output)
}

fn derive(input: TokenStream, purpose: validate::Purpose) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    let krate = crate_path(&input);
    let parsed = parse::ContainerInput::from_derive_input(&input);
    match parsed.and_then(|parsed| validate::validate(parsed, purpose)) {
        Ok(contract) => match purpose {
            validate::Purpose::Contract => expand::expand(&contract).into(),
            validate::Purpose::Output => expand::expand_shape(&contract).into(),
        },
        Err(errors) => {
            let errors = errors.write_errors();
            match purpose {
                validate::Purpose::Contract => {
                    expand::fallback(&input.ident, &input.generics, &krate, errors).into()
                }
                validate::Purpose::Output => {
                    expand::fallback_shape(&input.ident, &input.generics, &krate, errors).into()
                }
            }
        }
    }
}

/// The `crate = "..."` path, read leniently so the fallback impl names the right crate.
fn crate_path(input: &syn::DeriveInput) -> syn::Path {
    let mut krate: syn::Path = syn::parse_quote!(::stitch);
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("contract")) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                let lit: syn::LitStr = meta.value()?.parse()?;
                krate = lit.parse()?;
            } else if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                let _content;
                syn::parenthesized!(_content in meta.input);
            }
            Ok(())
        });
    }
    krate
}
