//! Code generation: the model becomes a `Shape` impl (the IR, built by calling the runtime's
//! `const fn`s), a `Contract` impl, and for non-generic types the compile-time schema consts.
//! `shape` writes the IR, `refine` the walk of the hidden checks.
//!
//! Each attribute becomes one call spanned at the attribute, so a misfit found in constant
//! evaluation (`min` on a type alias of `String`) is reported there. The generated code holds
//! no logic: the rules live in `stitch-runtime` and `stitch-rules`, where they are
//! unit-tested, and every path it names goes through the runtime's hidden `__private` module
//! (`__s` below).

mod refine;
mod shape;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};

use crate::model::{Contract, Profile};
use crate::validate::Purpose;
use refine::{refine_items, standard_types_asserted};
use shape::{has_key_table, shape_expr, shape_source};

pub fn expand(contract: &Contract) -> TokenStream {
    let krate = &contract.krate;
    let ident = &contract.ident;
    let (impl_generics, ty_generics, _) = contract.generics.split_for_impl();
    let shape_where = where_with_bounds(&contract.generics, false);
    let contract_where = where_with_bounds(&contract.generics, true);
    let (union_consts, shape) = shape_expr(contract);
    let tool = tool_expr(contract);
    let refine = refine_items(contract);
    let standard_types = standard_types_asserted(contract);
    let generic = !contract.generics.params.is_empty();
    let operations_first = operations_first(contract);
    let schema_fn = (!generic).then(|| {
        quote!(
            fn input_schema() -> &'static str {
                Self::INPUT_SCHEMA
            }
        )
    });
    let compile_time = (!generic).then(|| compile_time_items(contract));
    quote! {
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            use #krate::__private as __s;
            #union_consts
            #[automatically_derived]
            impl #impl_generics __s::Shape for #ident #ty_generics #shape_where {
                const SHAPE: &'static __s::Node<'static> = #shape;
                #refine
            }
            // The shape, read by the tool and the texts through a call: a constant named in
            // a constant's body is evaluated by rustc's lint of known panics whenever that
            // body is checked (`cargo check` included), a call only where the constant is.
            // Generated here, so a shape that fails is reported at the contract (a union's
            // operations first, before its key table).
            const fn __stitch_shape<T: __s::Shape + ?Sized>() -> &'static __s::Node<'static> {
                #operations_first
                T::SHAPE
            }
            #[automatically_derived]
            impl #impl_generics __s::Contract for #ident #ty_generics #contract_where {
                const TOOL: __s::ContractTool = #tool;
                #schema_fn
            }
            #standard_types
            #compile_time
        };
    }
}

/// The generated items for an output type (`#[derive(Shape)]`): its schema IR, evaluated
/// where the type is declared when it is not generic.
pub fn expand_shape(contract: &Contract) -> TokenStream {
    let krate = &contract.krate;
    let ident = &contract.ident;
    let (impl_generics, ty_generics, _) = contract.generics.split_for_impl();
    let shape_where = where_with_bounds(&contract.generics, false);
    let (union_consts, shape) = shape_expr(contract);
    // As for a contract (`compile_time_items`).
    let evaluated = (contract.generics.params.is_empty() && !has_key_table(contract))
        .then(|| quote!(const _: &__s::Node = <#ident as __s::Shape>::SHAPE;));
    quote! {
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            use #krate::__private as __s;
            #union_consts
            #[automatically_derived]
            impl #impl_generics __s::Shape for #ident #ty_generics #shape_where {
                const SHAPE: &'static __s::Node<'static> = #shape;
            }
            #evaluated
        };
    }
}

/// A keyed union's operations evaluated first, where its shape or a text is read: a misfit in
/// them is reported before its key table is computed. Nothing for any other contract.
fn operations_first(contract: &Contract) -> Option<TokenStream> {
    has_key_table(contract).then(|| quote!(let _ = const { __s::total_fields(&__STITCH_RAW) };))
}

/// What only a non-generic contract has: its schemas as compile-time constants, the IR
/// evaluated where the type is declared, and the guard when the contract asks for it.
fn compile_time_items(contract: &Contract) -> TokenStream {
    let ident = &contract.ident;
    let source = shape_source(contract, ident.to_token_stream());
    // The texts are `const fn` calls, each evaluated only where it is read (a function body
    // reading one costs `cargo check` nothing): the advertised schema, or the exact one for a
    // contract that advertises it.
    // Each names the IR first, so a misfit in it is reported at the contract, and the
    // renderer is never entered with it.
    let text = |rendered: TokenStream| {
        quote!({
            let _: &__s::Node = __stitch_shape::<#source>();
            #rendered
        })
    };
    let exact_text = text(quote!(__s::exact_text::<#source>()));
    let input_text = if contract.flatten && has_key_table(contract) {
        // A keyed union's advertised schema, from the scratch its table type writes: the
        // operations first, as `__stitch_shape` names them, but not the shape's constant (its
        // table is computed inside the scratch's evaluation, before the renderer is entered).
        let operations_first = operations_first(contract);
        quote!({
            #operations_first
            __s::keyed_advertised_text::<#source>()
        })
    } else if contract.flatten {
        text(quote!(__s::advertised_text::<#source>()))
    } else {
        exact_text.clone()
    };
    let guard = contract.profile.check_span.map(|span| {
        // The guard, in constant evaluation: an untyped property fails the build here.
        quote_spanned! {span=>
            const _: () = match __s::guard_report(
                &[<#ident as __s::Contract>::TOOL],
                &<#ident as __s::Contract>::TOOL.profile,
            ) {
                ::core::option::Option::None => (),
                ::core::option::Option::Some(report) => ::core::panic!("{}", report.as_str()),
            };
        }
    });
    let dialect_check = contract.profile.dialects_span.map(|span| {
        // Each dialect asked for, in constant evaluation: what one cannot say, or a schema
        // past its provider's budget, fails the build here.
        let dialects = contract.profile.dialects.iter().map(|dialect| {
            let variant = syn::Ident::new(dialect.rules().variant, span);
            quote_spanned!(span=> __s::Dialect::#variant)
        });
        quote_spanned! {span=>
            const _: () = match __s::dialect_report(
                &<#ident as __s::Contract>::TOOL,
                &[#(#dialects),*],
            ) {
                ::core::option::Option::None => (),
                ::core::option::Option::Some(report) => ::core::panic!("{}", report.as_str()),
            };
        }
    });
    // Evaluate the schema IR now, so an attribute that does not fit its field fails the
    // build even when nothing uses this type yet. A union with a key table has its operations
    // in a constant of their own, evaluated as every constant item is; its table, evaluated
    // where the shape is read, is left to then.
    let evaluated = (!has_key_table(contract))
        .then(|| quote!(const _: &__s::Node = <#ident as __s::Shape>::SHAPE;));
    quote! {
        #dialect_check
        impl #ident {
            /// The advertised JSON Schema of this contract's input (tagged unions flattened
            /// into one object), rendered at compile time: what a tool shows a model.
            pub const INPUT_SCHEMA: &'static str = #input_text;
            /// The exact JSON Schema of this contract's input (tagged unions as `oneOf`),
            /// rendered at compile time where it is read.
            pub const EXACT_SCHEMA: &'static str = #exact_text;
        }
        #evaluated
        #guard
    }
}

/// When the input had errors: the errors, and minimal impls — `Shape`, and for a contract
/// `Contract` and the schema consts — so the user does not get a second wave of errors about
/// what the derive would have written.
pub fn fallback(
    ident: &syn::Ident,
    generics: &syn::Generics,
    krate: &syn::Path,
    errors: TokenStream,
    purpose: Purpose,
) -> TokenStream {
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let shape_where = where_with_bounds(generics, false);
    let contract = (purpose == Purpose::Contract).then(|| {
        let contract_where = where_with_bounds(generics, true);
        let consts = generics.params.is_empty().then(|| {
            quote! {
                impl #ident {
                    pub const INPUT_SCHEMA: &'static str = "{}";
                    pub const EXACT_SCHEMA: &'static str = "{}";
                }
            }
        });
        quote! {
            impl #impl_generics __s::Contract for #ident #ty_generics #contract_where {
                const TOOL: __s::ContractTool =
                    __s::tool("", "", &__s::Node::OPAQUE, true, __s::SchemaProfile::new());
            }
            #consts
        }
    });
    quote! {
        #errors
        const _: () = {
            use #krate::__private as __s;
            impl #impl_generics __s::Shape for #ident #ty_generics #shape_where {
                const SHAPE: &'static __s::Node<'static> = &__s::Node::OPAQUE;
            }
            #contract
        };
    }
}

/// The generics' where clause, each type parameter bound by `Shape`, and `Self` by
/// `DeserializeOwned` for the `Contract` impl of a generic type.
fn where_with_bounds(generics: &syn::Generics, deserialize: bool) -> syn::WhereClause {
    let mut clause = generics
        .where_clause
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(where));
    for param in generics.type_params() {
        let ident = &param.ident;
        clause
            .predicates
            .push(syn::parse_quote!(#ident: __s::Shape));
    }
    // A generic contract is one where its parameters make it deserializable. A non-generic
    // one is bound by `Contract`'s own supertrait alone, whose error (serde's) says to derive
    // `Deserialize`; a where-clause would report a bare, trivially false bound instead.
    if deserialize && !generics.params.is_empty() {
        clause
            .predicates
            .push(syn::parse_quote!(Self: __s::DeserializeOwned));
    }
    clause
}

fn tool_expr(contract: &Contract) -> TokenStream {
    let name = &contract.tool_name;
    let description = contract.description.clone().unwrap_or_default();
    let flatten = contract.flatten;
    let profile = profile_expr(&contract.profile);
    let source = shape_source(contract, quote!(Self));
    quote!(__s::tool(#name, #description, __stitch_shape::<#source>(), #flatten, #profile))
}

fn profile_expr(profile: &Profile) -> TokenStream {
    let mut expr = quote!(__s::SchemaProfile::new());
    if profile.require_typed_properties {
        expr = quote!(#expr.require_typed_properties());
    }
    if !profile.allow_untyped.is_empty() {
        let paths = &profile.allow_untyped;
        expr = quote!(#expr.allow_untyped(&[#(#paths),*]));
    }
    if profile.require_portable_formats {
        expr = quote!(#expr.require_portable_formats());
    }
    if !profile.allow_formats.is_empty() {
        let formats = &profile.allow_formats;
        expr = quote!(#expr.allow_formats(&[#(#formats),*]));
    }
    expr
}
