//! `#[derive(Contract)]` and `#[derive(Shape)]`: parse → validate → expand.
//!
//! The macro sees tokens, not types, so it does not compute a schema: it emits code that
//! builds the schema IR in constant evaluation, from the `Shape` of every field's type, and
//! lets the compiler render it. Errors in the input are collected and reported together,
//! each at its own span.
//!
//! `parse` reads `#[contract(...)]` with darling (a field's attributes by the shared table of
//! `stitch-rules`) and serde's attributes with `serde_derive_internals`, exactly as serde reads
//! them; `validate/` turns both into the `model`; `expand/` writes the code; `doc` makes doc
//! comments descriptions. Every rule the runtime applies too (tool names, summary lines,
//! escapes, hashes, key numbering, attribute fits, patterns) is `stitch-rules`'. syn 3 and
//! darling 0.24, as serde_derive and rmcp-macros use, so a user's build compiles one syn.
#![forbid(unsafe_code)]

mod doc;
mod expand;
mod model;
mod parse;
mod validate;

use darling::FromDeriveInput;
use proc_macro::TokenStream;
use validate::Invalid;

#[doc = include_str!("attributes.md")]
#[proc_macro_derive(Contract, attributes(contract))]
pub fn derive_contract(input: TokenStream) -> TokenStream {
    derive(input, validate::Purpose::Contract)
}

/// Derives `stitch::Shape` alone, for a type a tool returns (the result of
/// `Json<T>` from a tool's handler): its schema describes what `serde::Serialize` writes
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
    let parsed = parse::ContainerInput::from_derive_input(&input).map_err(Invalid::Errors);
    match parsed.and_then(|parsed| validate::validate(&input, parsed, purpose)) {
        Ok(contract) => match purpose {
            validate::Purpose::Contract => expand::expand(&contract).into(),
            validate::Purpose::Output => expand::expand_shape(&contract).into(),
        },
        Err(invalid) => {
            let errors = match invalid {
                Invalid::Errors(errors) => errors.write_errors(),
                // serde's derive reports its own errors; only the fallback impls are due.
                Invalid::Serde => proc_macro2::TokenStream::new(),
            };
            expand::fallback(&input.ident, &input.generics, &krate, errors, purpose).into()
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
