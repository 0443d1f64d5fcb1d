//! Code generation: the model becomes a `Shape` impl (the IR, built by calling the runtime's
//! `const fn`s), a `Contract` impl, and for non-generic types the compile-time schema consts.
//!
//! Each attribute becomes one call spanned at the attribute, so a misfit found in constant
//! evaluation (`min` on a string) is reported there. The generated code holds no logic: the
//! rules live in `stitch-runtime`, where they are unit-tested, and every path it names goes
//! through the runtime's hidden `__private` module (`__s` below).

use std::collections::HashMap;

use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::doc;
use crate::model::{
    Body, Contract, Count, Field, HiddenCheck, NumberBound, Object, Profile, Source, Step,
    StepKind, Union, Variant, VariantBody,
};

/// The generated items for a validated contract.
pub fn expand(contract: &Contract) -> TokenStream {
    let krate = &contract.krate;
    let ident = &contract.ident;
    let (impl_generics, ty_generics, _) = contract.generics.split_for_impl();
    let shape_where = where_with_bounds(&contract.generics, false);
    let contract_where = where_with_bounds(&contract.generics, true);
    let (union_consts, shape) = shape_expr(contract);
    let tool = tool_expr(contract);
    let refine = refine_items(contract);
    let generic = !contract.generics.params.is_empty();
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
                const SHAPE: &'static __s::Node = #shape;
                #refine
            }
            #[automatically_derived]
            impl #impl_generics __s::Contract for #ident #ty_generics #contract_where {
                const TOOL: __s::Tool = #tool;
                #schema_fn
            }
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
    let evaluated = contract
        .generics
        .params
        .is_empty()
        .then(|| quote!(const _: &__s::Node = <#ident as __s::Shape>::SHAPE;));
    quote! {
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            use #krate::__private as __s;
            #union_consts
            #[automatically_derived]
            impl #impl_generics __s::Shape for #ident #ty_generics #shape_where {
                const SHAPE: &'static __s::Node = #shape;
            }
            #evaluated
        };
    }
}

/// What only a non-generic contract has: its schemas as compile-time constants, the IR
/// evaluated where the type is declared, and the guard when the contract asks for it.
fn compile_time_items(contract: &Contract) -> TokenStream {
    let ident = &contract.ident;
    // The texts are `const fn` calls, evaluated only where read. The advertised schema is
    // always read (the tool shows it) and written once (`WrittenOnce`, which also names its
    // length); the exact one is rendered only where it is read (`exact_text`).
    let (written_once, input_text) = if contract.flatten {
        let written_once = quote! {
            #[automatically_derived]
            impl __s::WrittenOnce for #ident {
                const SCRATCH: &'static __s::AdvertisedScratch = &__s::AdvertisedScratch::write(
                    <#ident as __s::Shape>::SHAPE,
                    __s::Mode::Advertised,
                );
                const LEN: usize = Self::SCRATCH
                    .schema_len(<#ident as __s::Shape>::SHAPE, __s::Mode::Advertised);
            }
        };
        let text = quote!(__s::written_once::<#ident, { <#ident as __s::WrittenOnce>::LEN }>());
        (written_once, text)
    } else {
        (TokenStream::new(), quote!(__s::exact_text::<#ident>()))
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
    quote! {
        #written_once
        #[automatically_derived]
        impl #ident {
            /// The advertised JSON Schema of this contract's input (tagged unions flattened
            /// into one object), rendered at compile time: what a tool shows a model.
            pub const INPUT_SCHEMA: &'static str = #input_text;
            /// The exact JSON Schema of this contract's input (tagged unions as `oneOf`),
            /// rendered at compile time where it is read.
            pub const EXACT_SCHEMA: &'static str = __s::exact_text::<#ident>();
        }
        // Evaluate the schema IR now, so an attribute that does not fit its field fails the
        // build even when nothing uses this type yet.
        const _: &__s::Node = <#ident as __s::Shape>::SHAPE;
        #guard
    }
}

/// When the input had errors: the errors, and minimal `Shape` and `Contract` impls (with the
/// schema consts) so the user does not get a second wave of errors about what the derive
/// would have written.
pub fn fallback(
    ident: &syn::Ident,
    generics: &syn::Generics,
    krate: &syn::Path,
    errors: TokenStream,
) -> TokenStream {
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let shape_where = where_with_bounds(generics, false);
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
        #errors
        const _: () = {
            use #krate::__private as __s;
            impl #impl_generics __s::Shape for #ident #ty_generics #shape_where {
                const SHAPE: &'static __s::Node = &__s::Node::OPAQUE;
            }
            impl #impl_generics __s::Contract for #ident #ty_generics #contract_where {
                const TOOL: __s::Tool = __s::Tool {
                    name: "",
                    description: "",
                    input: &__s::Node::OPAQUE,
                    flatten: true,
                    profile: __s::SchemaProfile::new(),
                };
            }
            #consts
        };
    }
}

/// When an output type's input had errors: the errors, and a minimal `Shape` impl.
pub fn fallback_shape(
    ident: &syn::Ident,
    generics: &syn::Generics,
    krate: &syn::Path,
    errors: TokenStream,
) -> TokenStream {
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let shape_where = where_with_bounds(generics, false);
    quote! {
        #errors
        const _: () = {
            use #krate::__private as __s;
            impl #impl_generics __s::Shape for #ident #ty_generics #shape_where {
                const SHAPE: &'static __s::Node = &__s::Node::OPAQUE;
            }
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

/// Whether a name needs no JSON escape: decided here, natively, so that constant evaluation
/// does not scan it (the runtime's `strings::is_plain`; `tests/mapping.rs` holds the two to
/// the same names).
fn is_plain(text: &str) -> bool {
    !text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\')
}

/// An optional description as the IR's `Option<Doc>`, its escape and hash found here.
fn option_doc(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => {
            let escaped = doc::json_escaped(text);
            let escape = if escaped == text {
                quote!(__s::Escape::Plain)
            } else {
                quote!(__s::Escape::Escaped(#escaped))
            };
            let hash = doc::fnv1a(text);
            quote!(::core::option::Option::Some(__s::Doc::declared(#text, #escape, #hash)))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn tool_expr(contract: &Contract) -> TokenStream {
    let name = &contract.tool_name;
    let description = contract.description.clone().unwrap_or_default();
    let flatten = contract.flatten;
    let profile = profile_expr(&contract.profile);
    quote! {
        __s::Tool {
            name: #name,
            description: #description,
            input: <Self as __s::Shape>::SHAPE,
            flatten: #flatten,
            profile: #profile,
        }
    }
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

/// The `SHAPE` expression, and the consts a non-generic union's key table needs.
fn shape_expr(contract: &Contract) -> (TokenStream, TokenStream) {
    match &contract.body {
        Body::Object(object) => {
            let object = object_expr(object, contract.description.as_deref());
            (
                TokenStream::new(),
                quote!(&__s::Node::of(__s::Kind::Object(#object))),
            )
        }
        Body::Transparent { field, newtype } => {
            let node = field_node(field);
            let node = if *newtype {
                quote!(&#node.required())
            } else {
                node
            };
            (TokenStream::new(), node)
        }
        Body::UnitEnum { names, aliases } => (
            TokenStream::new(),
            quote!(&__s::Node::of(__s::Kind::StringEnum(&[#(#names),*], &[#(#aliases),*]))),
        ),
        Body::Union(union) => union_shape(contract, union),
    }
}

fn union_shape(contract: &Contract, union: &Union) -> (TokenStream, TokenStream) {
    let tag = &union.tag;
    let description = option_doc(contract.description.as_deref());
    let variants = union.variants.iter().map(|v| variant_expr(tag, v));
    let raw = quote!(__s::Union::new(#tag, &[#(#variants),*], #description));
    if !contract.generics.params.is_empty() {
        // A generic union cannot size its key table by a generic constant: it carries none,
        // and the runtime walks its operations instead (same rules, see `flatten.rs`).
        return (
            TokenStream::new(),
            quote!(&__s::Node::of(__s::Kind::Union(&#raw))),
        );
    }
    let indices = match key_indices(union) {
        // Every name is known here: the key indices are written out, not computed by
        // constant evaluation, which pays for every byte of every name it hashes.
        Some((of_field, keys)) => {
            let fields = of_field.len();
            quote! {
                const __STITCH_FIELDS: usize = #fields;
                const __STITCH_INDICES: __s::KeyIndices<__STITCH_FIELDS> =
                    __s::KeyIndices { of_field: [#(#of_field),*], keys: #keys };
            }
        }
        // A newtype operation's fields come from its type's shape.
        None => quote! {
            const __STITCH_FIELDS: usize = __s::total_fields(&__STITCH_RAW);
            const __STITCH_SLOTS: usize = __s::slots_for(__STITCH_FIELDS);
            const __STITCH_INDICES: __s::KeyIndices<__STITCH_FIELDS> =
                __s::key_indices::<__STITCH_FIELDS, __STITCH_SLOTS>(&__STITCH_RAW);
        },
    };
    let consts = quote! {
        const __STITCH_RAW: __s::Union = #raw;
        #indices
        const __STITCH_KEYS: usize = __STITCH_INDICES.keys;
        const __STITCH_TABLE: __s::FlatTable<__STITCH_KEYS, __STITCH_FIELDS> =
            __s::flat_table::<__STITCH_KEYS, __STITCH_FIELDS>(&__STITCH_RAW, &__STITCH_INDICES);
        const __STITCH_FLAT: __s::Flat = __s::Flat {
            keys: &__STITCH_TABLE.keys,
            slots: &__STITCH_TABLE.slots,
        };
        const __STITCH_UNION: __s::Union = __STITCH_RAW.with_flat(&__STITCH_FLAT);
    };
    (
        consts,
        quote!(&__s::Node::of(__s::Kind::Union(&__STITCH_UNION))),
    )
}

/// Every field's key index (fields in operation order; keys numbered by first appearance)
/// and the number of keys, as the runtime's `key_indices` computes them (`tests/oracle.rs`
/// holds the two to the same tables); `None` when an operation is a newtype, whose fields
/// only its type's shape knows.
fn key_indices(union: &Union) -> Option<(Vec<u32>, usize)> {
    let mut keys: HashMap<&str, u32> = HashMap::new();
    let mut of_field = Vec::new();
    for variant in &union.variants {
        let fields = match &variant.body {
            VariantBody::Unit => &[][..],
            VariantBody::Struct(object) => &object.fields[..],
            VariantBody::Newtype(_) => return None,
        };
        for field in fields {
            let next = keys.len() as u32;
            of_field.push(*keys.entry(field.wire.as_str()).or_insert(next));
        }
    }
    Some((of_field, keys.len()))
}

fn variant_expr(tag: &str, variant: &Variant) -> TokenStream {
    let name = &variant.wire;
    let aliases = &variant.aliases;
    let description = option_doc(variant.description.as_deref());
    let summary = option_doc(variant.description.as_deref().and_then(doc::summary));
    let object = match &variant.body {
        VariantBody::Unit => quote!(&__s::Object::EMPTY),
        VariantBody::Struct(object) => object_expr(object, None),
        VariantBody::Newtype(ty) => {
            let object = fits(
                quote_spanned!(ty.span()=> __s::newtype_object(<#ty as __s::Shape>::SHAPE, #name, #tag)),
                ty.span(),
            );
            // An inline constant, so the operation's list stays promotable to `'static`.
            quote_spanned!(ty.span()=> const { #object })
        }
    };
    let plain = is_plain(name);
    quote!(__s::Variant::declared(#name, #plain, &[#(#aliases),*], #description, #summary, #object))
}

fn object_expr(object: &Object, description: Option<&str>) -> TokenStream {
    let fields = object.fields.iter().map(|field| {
        let node = field_node(field);
        let wire = &field.wire;
        let has_default = field.has_default;
        let description = option_doc(field.description.as_deref());
        let plain = is_plain(wire);
        let mut expr =
            quote!(__s::Field::declared(#wire, #plain, #node, #has_default, #description));
        if !field.aliases.is_empty() {
            let aliases = &field.aliases;
            expr = quote!(#expr.with_aliases(&[#(#aliases),*]));
        }
        expr
    });
    let deny_unknown = object.deny_unknown;
    let description = option_doc(description);
    quote! {
        &__s::Object {
            fields: &[#(#fields),*],
            deny_unknown: #deny_unknown,
            description: #description,
        }
    }
}

/// A field's node: its source's shape, then one spanned call per attribute.
fn field_node(field: &Field) -> TokenStream {
    let mut node = match &field.source {
        Source::Type => {
            let ty = &field.ty;
            quote_spanned!(ty.span()=> <#ty as __s::Shape>::SHAPE)
        }
        Source::Via(ty) => quote_spanned!(ty.span()=> <#ty as __s::Shape>::SHAPE),
        // An `Option` may be missing, as serde reads it, whatever its value's schema.
        Source::Opaque if is_option(&field.ty) => quote!(&__s::Node::OPAQUE.nullable()),
        Source::Opaque => quote!(&__s::Node::OPAQUE),
    };
    for step in &field.steps {
        node = step_call(step, node, field);
    }
    node
}

/// One attribute applied to a node: a call that carries the attribute's span, and a misfit
/// it returns panics right there, so constant evaluation reports it at the attribute with
/// nothing of the runtime in the error.
fn step_call(step: &Step, node: TokenStream, field: &Field) -> TokenStream {
    let span = step.span;
    let wire = &field.wire;
    let call = match &step.kind {
        StepKind::NumberBound {
            bound,
            json,
            value,
            integral,
        } => {
            let value = Literal::f64_unsuffixed(*value);
            let bound = AtSpan(*bound, span);
            quote_spanned!(span=> __s::number_bound(
                #node,
                #bound,
                __s::Bound { text: #json, value: #value, integral: #integral },
                #wire
            ))
        }
        StepKind::Count { count, value } => {
            let count = AtSpan(*count, span);
            quote_spanned!(span=> __s::count(#node, #count, #value, #wire))
        }
        StepKind::UniqueItems => quote_spanned!(span=> __s::unique_items(#node, #wire)),
        StepKind::Pattern(pattern) => quote_spanned!(span=>
            __s::string_rule(#node, __s::StringRule::Pattern(#pattern), #wire)),
        StepKind::Format(format) => quote_spanned!(span=>
            __s::string_rule(#node, __s::StringRule::Format(#format), #wire)),
        StepKind::Values(values) => {
            quote_spanned!(span=> __s::values(#node, &[#(#values),*], #wire))
        }
        StepKind::Hidden(check) => {
            let check = AtSpan(*check, span);
            quote_spanned!(span=> __s::hidden(#node, #check, #wire))
        }
        StepKind::Coerce => quote_spanned!(span=> __s::coerce(#node, #wire)),
        StepKind::Catch(catch) => {
            let ty = &field.ty;
            quote_spanned!(span=> __s::catch(#node, || __s::fallback::<#ty>(#catch), #wire))
        }
    };
    // An inline constant, so the node is promoted to `'static` as the call alone was.
    let applied = fits(call, span);
    quote_spanned!(span=> &const { #applied })
}

/// The value of an `Applied` call, or a compile error at `span` saying why it does not fit.
fn fits(call: TokenStream, span: Span) -> TokenStream {
    quote_spanned! {span=>
        match #call {
            ::core::result::Result::Ok(applied) => applied,
            ::core::result::Result::Err(misfit) => ::core::panic!("{}", misfit.message().as_str()),
        }
    }
}

/// A model value written as the runtime's name for it, at a span.
struct AtSpan<T>(T, Span);

/// A model enum whose values the runtime names under a path (`__s::NumberBound::Min`,
/// `__s::checks::TRIM`). A name that drifts from the runtime's fails to compile in every
/// contract that uses it, the test suite's included.
trait RuntimeName: Copy {
    const PATH: &'static str;
    fn name(self) -> &'static str;
}

impl<T: RuntimeName> ToTokens for AtSpan<T> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let path = syn::Ident::new(T::PATH, self.1);
        let name = syn::Ident::new(self.0.name(), self.1);
        tokens.extend(quote_spanned!(self.1=> __s::#path::#name));
    }
}

impl RuntimeName for NumberBound {
    const PATH: &'static str = "NumberBound";
    fn name(self) -> &'static str {
        match self {
            NumberBound::Min => "Min",
            NumberBound::Max => "Max",
            NumberBound::ExclusiveMin => "ExclusiveMin",
            NumberBound::ExclusiveMax => "ExclusiveMax",
            NumberBound::MultipleOf => "MultipleOf",
        }
    }
}

impl RuntimeName for Count {
    const PATH: &'static str = "Count";
    fn name(self) -> &'static str {
        match self {
            Count::MinLength => "MinLength",
            Count::MaxLength => "MaxLength",
            Count::MinItems => "MinItems",
            Count::MaxItems => "MaxItems",
        }
    }
}

impl RuntimeName for HiddenCheck {
    const PATH: &'static str = "checks";
    fn name(self) -> &'static str {
        match self {
            HiddenCheck::Trim => "TRIM",
            HiddenCheck::Lowercase => "LOWERCASE",
            HiddenCheck::Uppercase => "UPPERCASE",
            HiddenCheck::Refine => "REFINE",
            HiddenCheck::Via => "VIA",
        }
    }
}

/// Whether a type is written as `Option<T>` (or a path ending in it).
fn is_option(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(path) => path.path.segments.last().is_some_and(|last| {
            last.ident == "Option"
                && matches!(last.arguments, syn::PathArguments::AngleBracketed(_))
        }),
        syn::Type::Group(group) => is_option(&group.elem),
        syn::Type::Paren(paren) => is_option(&paren.elem),
        _ => false,
    }
}

/// The `Shape::refine` method and `REFINES`: the hidden checks of this type's fields (and of
/// the type itself), and the descent into every field whose type has its own. Nothing when
/// nothing in the type can carry a check.
fn refine_items(contract: &Contract) -> TokenStream {
    let mut body = TokenStream::new();
    if let Some(check) = &contract.refine {
        body.extend(quote! {
            if let ::core::result::Result::Err(error) = #check(self) {
                issues.push(__s::refine_issue(pointer, error));
            }
        });
    }
    let of_self = |field: &Field| {
        let member = &field.member;
        quote!(&self.#member)
    };
    match &contract.body {
        Body::Object(object) => body.extend(refine_fields(&object.fields, &of_self, true)),
        Body::Transparent { field, .. } => {
            body.extend(refine_fields(std::slice::from_ref(field), &of_self, false));
        }
        Body::UnitEnum { .. } => {}
        Body::Union(union) => body.extend(refine_operations(union)),
    }
    if body.is_empty() {
        return TokenStream::new();
    }
    let refines = refines_expr(contract);
    quote! {
        const REFINES: bool = #refines;

        fn refine(&self, pointer: &mut __s::JsonPointer, issues: &mut ::std::vec::Vec<__s::Issue>) {
            #body
        }
    }
}

/// The refine code of each operation, as the arms of a `match self`.
fn refine_operations(union: &Union) -> TokenStream {
    let mut arms = TokenStream::new();
    for variant in &union.variants {
        let ident = &variant.ident;
        match &variant.body {
            VariantBody::Unit => {}
            VariantBody::Newtype(_) => arms.extend(quote! {
                Self::#ident(inner) => __s::Shape::refine(inner, pointer, issues),
            }),
            VariantBody::Struct(object) => {
                let binding = |field: &Field| match &field.member {
                    syn::Member::Named(name) => format_ident!("__stitch_{}", name),
                    syn::Member::Unnamed(index) => format_ident!("__stitch_{}", index.index),
                };
                let code = refine_fields(
                    &object.fields,
                    &|field| binding(field).into_token_stream(),
                    true,
                );
                if code.is_empty() {
                    continue;
                }
                let members = object.fields.iter().map(|field| &field.member);
                let bindings = object.fields.iter().map(binding);
                arms.extend(quote! {
                    Self::#ident { #(#members: #bindings,)* .. } => { #code }
                });
            }
        }
    }
    if arms.is_empty() {
        return arms;
    }
    quote! {
        #[allow(unreachable_patterns, unused_variables)]
        match self {
            #arms
            _ => {}
        }
    }
}

/// The refine code of some fields, each reached by `value`; `at_key` when each sits at its
/// own key (not a transparent field).
fn refine_fields(
    fields: &[Field],
    value: &dyn Fn(&Field) -> TokenStream,
    at_key: bool,
) -> TokenStream {
    let mut code = TokenStream::new();
    for field in fields {
        let value = value(field);
        let ty = &field.ty;
        let wire = &field.wire;
        if at_key && field.refine.is_none() && matches!(field.source, Source::Type) {
            // The common field: one call, spanned at the type like the `SHAPE` use, so a type
            // without a shape is reported once, there.
            let refines = quote_spanned!(ty.span()=> <#ty as __s::Shape>::REFINES);
            let refine = quote_spanned!(ty.span()=> <#ty as __s::Shape>::refine);
            code.extend(quote! {
                __s::refine_field(#value, #wire, #refines, #refine, pointer, issues);
            });
            continue;
        }
        let mut steps = TokenStream::new();
        if let Some(check) = &field.refine {
            steps.extend(quote! {
                if let ::core::result::Result::Err(error) = #check(#value) {
                    issues.push(__s::refine_issue(pointer, error));
                }
            });
        }
        if matches!(field.source, Source::Type) {
            // Only the path carries the type's span: the arguments keep the method's own
            // hygiene, so they resolve even for types a `macro_rules!` wrote.
            let refine = quote_spanned!(ty.span()=> <#ty as __s::Shape>::refine);
            steps.extend(quote!(#refine(#value, pointer, issues);));
        }
        code.extend(if at_key {
            quote! {{
                let mark = pointer.push_key(#wire);
                #steps
                pointer.truncate(mark);
            }}
        } else {
            steps
        });
    }
    code
}

/// Whether the type can carry a `refine` check: its own, its fields', or any inside their
/// types (composed through `Shape::REFINES`, so walks skip what cannot have one).
fn refines_expr(contract: &Contract) -> TokenStream {
    let mut parts = vec![if contract.refine.is_some() {
        quote!(true)
    } else {
        quote!(false)
    }];
    for field in contract.body.fields() {
        if field.refine.is_some() {
            parts.push(quote!(true));
        }
        if matches!(field.source, Source::Type) {
            let ty = &field.ty;
            parts.push(quote!(<#ty as __s::Shape>::REFINES));
        }
    }
    for ty in contract.body.newtypes() {
        parts.push(quote!(<#ty as __s::Shape>::REFINES));
    }
    // A type named by many fields is asked once (big contracts repeat a few types).
    let mut seen = std::collections::HashSet::new();
    parts.retain(|part| seen.insert(part.to_string()));
    quote!(#(#parts)||*)
}
