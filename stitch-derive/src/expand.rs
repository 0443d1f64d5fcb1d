//! Code generation: the model becomes a `Shape` impl (the IR, built by calling the runtime's
//! `const fn`s), a `Contract` impl, and for non-generic types the compile-time schema consts.
//!
//! Each attribute becomes one call spanned at the attribute, so a misfit found in constant
//! evaluation (`min` on a string) is reported there. The generated code holds no logic: the
//! rules live in `stitch-runtime`, where they are unit-tested.

use std::collections::HashMap;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::doc;
use crate::model::{
    Body, Contract, Field, Object, Profile, Source, StepKind, Union, Variant, VariantBody,
};

/// The generated items for a validated contract.
pub fn expand(contract: &Contract) -> TokenStream {
    let krate = &contract.krate;
    let ident = &contract.ident;
    let generic = !contract.generics.params.is_empty();
    let (impl_generics, ty_generics, _) = contract.generics.split_for_impl();
    let shape_where = where_with_bounds(contract, quote!(#krate::Shape));
    let contract_where = {
        let mut clause = where_with_bounds(contract, quote!(#krate::Shape));
        clause
            .predicates
            .push(syn::parse_quote!(Self: #krate::__private::DeserializeOwned));
        clause
    };

    let (union_consts, shape) = shape_expr(contract, generic);
    let tool = tool_expr(contract);
    let refine = refine_fn(contract);

    let mut schema_fns = TokenStream::new();
    let mut inherent = TokenStream::new();
    if !generic {
        // The texts are `const fn` calls, evaluated only where read. The advertised schema is
        // always read (the tool shows it) and written once (`WrittenOnce`, which also names
        // its length); the exact one is rendered only where it is read (`exact_text`).
        let input_text = if contract.flatten {
            inherent.extend(quote! {
                impl __s::WrittenOnce for #ident {
                    const SCRATCH: &'static __s::AdvertisedScratch = &__s::AdvertisedScratch::write(
                        <#ident as __s::Shape>::SHAPE,
                        __s::Mode::Advertised,
                    );
                    const LEN: usize = Self::SCRATCH
                        .schema_len(<#ident as __s::Shape>::SHAPE, __s::Mode::Advertised);
                }
            });
            quote!(__s::written_once::<#ident, { <#ident as __s::WrittenOnce>::LEN }>())
        } else {
            quote!(__s::exact_text::<#ident>())
        };
        schema_fns = quote! {
            fn input_schema() -> &'static str { Self::INPUT_SCHEMA }
        };
        inherent.extend(quote! {
            impl #ident {
                /// The advertised (flattened) JSON Schema of this contract's input, rendered at
                /// compile time.
                pub const INPUT_SCHEMA: &'static str = #input_text;
                /// The exact JSON Schema of this contract's input (tagged unions as `oneOf`),
                /// rendered at compile time where it is read.
                pub const EXACT_SCHEMA: &'static str = __s::exact_text::<#ident>();
            }
            // Evaluate the schema IR now, so an attribute that does not fit its field fails
            // the build even when nothing uses this type yet.
            const _: &__s::Node = <#ident as #krate::Shape>::SHAPE;
        });
        if let Some(span) = contract.profile.check_span {
            // The guard, in constant evaluation: an untyped property fails the build here.
            inherent.extend(quote_spanned! {span=>
                const _: () = match __s::validate_mcp_schemas(
                    &[<#ident as __s::Contract>::TOOL],
                    &<#ident as __s::Contract>::TOOL.profile,
                ) {
                    ::core::result::Result::Ok(()) => (),
                    ::core::result::Result::Err(finding) => finding.message().fail(),
                };
            });
        }
    }

    quote! {
        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            use #krate::__private as __s;
            #union_consts
            impl #impl_generics #krate::Shape for #ident #ty_generics #shape_where {
                const SHAPE: &'static __s::Node = #shape;
                #refine
            }
            impl #impl_generics #krate::Contract for #ident #ty_generics #contract_where {
                const TOOL: #krate::Tool = #tool;
                #schema_fns
            }
            #inherent
        };
    }
}

/// When the input had errors: the errors, and a minimal `Shape` impl so the user does not get
/// a second wave of "`Shape` is not implemented" errors.
pub fn fallback(
    ident: &syn::Ident,
    generics: &syn::Generics,
    krate: &syn::Path,
    errors: TokenStream,
) -> TokenStream {
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #errors
        const _: () = {
            impl #impl_generics #krate::Shape for #ident #ty_generics #where_clause {
                const SHAPE: &'static #krate::Node = &#krate::__private::Node::OPAQUE;
            }
        };
    }
}

fn where_with_bounds(contract: &Contract, bound: TokenStream) -> syn::WhereClause {
    let mut clause = contract
        .generics
        .where_clause
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(where));
    for param in contract.generics.type_params() {
        let ident = &param.ident;
        clause.predicates.push(syn::parse_quote!(#ident: #bound));
    }
    clause
}

/// Whether a name or description needs no JSON escape: decided here, natively, so that
/// constant evaluation does not scan it (the test is `stitch_runtime::text::is_plain`'s).
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
    let krate = &contract.krate;
    let name = &contract.tool_name;
    let description = contract.description.clone().unwrap_or_default();
    let flatten = contract.flatten;
    let profile = profile_expr(krate, &contract.profile);
    quote! {
        #krate::Tool {
            name: #name,
            description: #description,
            input: <Self as #krate::Shape>::SHAPE,
            flatten: #flatten,
            profile: #profile,
        }
    }
}

fn profile_expr(krate: &syn::Path, profile: &Profile) -> TokenStream {
    let mut expr = quote!(#krate::SchemaProfile::new());
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
fn shape_expr(contract: &Contract, generic: bool) -> (TokenStream, TokenStream) {
    let description = contract.description.as_ref();
    match &contract.body {
        Body::Object(object) => {
            let object = object_expr(contract, object, description);
            (
                TokenStream::new(),
                quote!(&__s::Node::of(__s::Kind::Object(#object))),
            )
        }
        Body::Transparent { field, newtype } => {
            let node = field_node(contract, field);
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
        Body::Union(union) => union_shape(contract, union, generic),
    }
}

fn union_shape(contract: &Contract, union: &Union, generic: bool) -> (TokenStream, TokenStream) {
    let tag = &union.tag;
    let description = option_doc(contract.description.as_deref());
    let variants = union
        .variants
        .iter()
        .map(|v| variant_expr(contract, tag, v));
    let raw = quote!(__s::Union::new(#tag, &[#(#variants),*], #description));
    if generic {
        // A generic union cannot size its key table by a generic constant: it carries none,
        // and the runtime walks its operations instead (same rules, see `flatten.rs`).
        return (
            TokenStream::new(),
            quote!(&__s::Node::of(__s::Kind::Union(&#raw))),
        );
    }
    let indices = match key_indices(union) {
        // Every name is known here: the key indices are written out, not computed by
        // constant evaluation (hashing names there costs microseconds per byte).
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
/// and the number of keys, as `flatten::key_indices` computes them; `None` when an operation
/// is a newtype, whose fields only its type's shape knows.
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

fn variant_expr(contract: &Contract, tag: &str, variant: &Variant) -> TokenStream {
    let name = &variant.wire;
    let aliases = &variant.aliases;
    let description = option_doc(variant.description.as_deref());
    let summary = option_doc(variant.description.as_deref().and_then(doc::summary));
    let object = match &variant.body {
        VariantBody::Unit => quote!(&__s::Object::EMPTY),
        VariantBody::Struct(object) => object_expr(contract, object, None),
        VariantBody::Newtype(ty) => {
            let krate = &contract.krate;
            quote_spanned!(syn::spanned::Spanned::span(ty)=>
                __s::newtype_object(<#ty as #krate::Shape>::SHAPE, #name, #tag))
        }
    };
    let plain = is_plain(name);
    quote!(__s::Variant::declared(#name, #plain, &[#(#aliases),*], #description, #summary, #object))
}

fn object_expr(contract: &Contract, object: &Object, description: Option<&String>) -> TokenStream {
    let fields = object.fields.iter().map(|field| {
        let node = field_node(contract, field);
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
    let description = option_doc(description.map(String::as_str));
    quote! {
        &__s::Object {
            fields: &[#(#fields),*],
            deny_unknown: #deny_unknown,
            description: #description,
        }
    }
}

/// A field's node: its source's shape, then one spanned call per attribute.
fn field_node(contract: &Contract, field: &Field) -> TokenStream {
    let krate = &contract.krate;
    let mut node = match &field.source {
        Source::Type => {
            let ty = &field.ty;
            quote_spanned!(syn::spanned::Spanned::span(ty)=> <#ty as #krate::Shape>::SHAPE)
        }
        Source::Via(ty) => {
            quote_spanned!(syn::spanned::Spanned::span(ty)=> <#ty as #krate::Shape>::SHAPE)
        }
        // An `Option` may be missing, as serde reads it, whatever its value's schema.
        Source::Opaque if is_option(&field.ty) => quote!(&__s::Node::OPAQUE.nullable()),
        Source::Opaque => quote!(&__s::Node::OPAQUE),
    };
    let wire = &field.wire;
    for step in &field.steps {
        // The whole call carries the attribute's span, so a misfit found in constant
        // evaluation is reported at the attribute.
        let span = step.span;
        node = match &step.kind {
            StepKind::NumberBound {
                which,
                json,
                value,
                integral,
            } => {
                let which = format_ident!("{}", which, span = span);
                let value = Literal::f64_unsuffixed(*value);
                quote_spanned!(span=> &__s::number_bound(
                    #node,
                    __s::NumberBound::#which,
                    __s::Bound { text: #json, value: #value, integral: #integral },
                    #wire
                ))
            }
            StepKind::Count { which, value } => {
                let which = format_ident!("{}", which, span = span);
                quote_spanned!(span=> &__s::count(#node, __s::Count::#which, #value, #wire))
            }
            StepKind::UniqueItems => quote_spanned!(span=> &__s::unique_items(#node, #wire)),
            StepKind::Pattern(pattern) => {
                quote_spanned!(span=> &__s::pattern(#node, #pattern, #wire))
            }
            StepKind::Format(format) => quote_spanned!(span=> &__s::format(#node, #format, #wire)),
            StepKind::Values(values) => {
                quote_spanned!(span=> &__s::values(#node, &[#(#values),*], #wire))
            }
            StepKind::Hidden(flag) => {
                let flag = format_ident!("{}", flag, span = span);
                quote_spanned!(span=> &__s::hidden(#node, __s::checks::#flag, #wire))
            }
            StepKind::Coerce => quote_spanned!(span=> &__s::coerce(#node, #wire)),
            StepKind::Catch(catch) => {
                let ty = &field.ty;
                quote_spanned!(span=> &__s::catch(#node, || __s::fallback::<#ty>(#catch), #wire))
            }
        };
    }
    node
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

/// The `Shape::refine` method: the hidden checks of this type's fields (and of the type
/// itself), and the descent into every field whose type has its own. Empty when nothing in the
/// type can carry a check.
fn refine_fn(contract: &Contract) -> TokenStream {
    let krate = &contract.krate;
    let mut body = TokenStream::new();
    if let Some(check) = &contract.refine {
        body.extend(quote! {
            if let ::core::result::Result::Err(error) = #check(self) {
                issues.push(__s::refine_issue(pointer, error));
            }
        });
    }
    let fields_code = |fields: &[&Field], access: &dyn Fn(&Field) -> TokenStream, at_key: bool| {
        let mut code = TokenStream::new();
        for field in fields {
            let value = access(field);
            if at_key && field.refine.is_none() && matches!(field.source, Source::Type) {
                // The common field: one call (spanned at the type, like the `SHAPE` use).
                let ty = &field.ty;
                let wire = &field.wire;
                let (refines, refine) = (
                    quote_spanned!(syn::spanned::Spanned::span(ty)=> <#ty as #krate::Shape>::REFINES),
                    quote_spanned!(syn::spanned::Spanned::span(ty)=> <#ty as #krate::Shape>::refine),
                );
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
                // Spanned at the field's type, like the `SHAPE` use, so a type without a shape
                // is reported once, there.
                // Only the path carries the type's span: the arguments keep the method's own
                // hygiene, so they resolve even for types a `macro_rules!` wrote.
                let ty = &field.ty;
                let refine = quote_spanned!(syn::spanned::Spanned::span(ty)=>
                    <#ty as #krate::Shape>::refine);
                steps.extend(quote!(#refine(#value, pointer, issues);));
            }
            if at_key {
                let wire = &field.wire;
                code.extend(quote! {{
                    let mark = pointer.push_key(#wire);
                    #steps
                    pointer.truncate(mark);
                }});
            } else {
                code.extend(steps);
            }
        }
        code
    };
    match &contract.body {
        Body::Object(object) => {
            let fields: Vec<&Field> = object.fields.iter().collect();
            body.extend(fields_code(
                &fields,
                &|field: &Field| {
                    let member = &field.member;
                    quote!(&self.#member)
                },
                true,
            ));
        }
        Body::Transparent { field, .. } => {
            body.extend(fields_code(
                &[field],
                &|field: &Field| {
                    let member = &field.member;
                    quote!(&self.#member)
                },
                false,
            ));
        }
        Body::UnitEnum { .. } => {}
        Body::Union(union) => {
            let mut arms = TokenStream::new();
            for variant in &union.variants {
                let ident = &variant.ident;
                match &variant.body {
                    VariantBody::Unit => {}
                    VariantBody::Newtype(_) => arms.extend(quote! {
                        Self::#ident(inner) => #krate::Shape::refine(inner, pointer, issues),
                    }),
                    VariantBody::Struct(object) => {
                        let fields: Vec<&Field> = object.fields.iter().collect();
                        let binding = |field: &Field| match &field.member {
                            syn::Member::Named(name) => format_ident!("__stitch_{}", name),
                            syn::Member::Unnamed(index) => {
                                format_ident!("__stitch_{}", index.index)
                            }
                        };
                        let code = fields_code(
                            &fields,
                            &|field: &Field| {
                                let name = binding(field);
                                quote!(#name)
                            },
                            true,
                        );
                        if code.is_empty() {
                            continue;
                        }
                        let members = fields.iter().map(|field| &field.member);
                        let bindings = fields.iter().map(|field| binding(field));
                        arms.extend(quote! {
                            Self::#ident { #(#members: #bindings,)* .. } => { #code }
                        });
                    }
                }
            }
            if !arms.is_empty() {
                body.extend(quote! {
                    #[allow(unreachable_patterns, unused_variables)]
                    match self {
                        #arms
                        _ => {}
                    }
                });
            }
        }
    }
    if body.is_empty() {
        return TokenStream::new();
    }
    let refines = refines_expr(contract);
    quote! {
        const REFINES: bool = #refines;

        fn refine(&self, pointer: &mut #krate::JsonPointer, issues: &mut ::std::vec::Vec<#krate::Issue>) {
            #body
        }
    }
}

/// Whether the type can carry a `refine` check: its own, its fields', or any inside their
/// types (composed through `Shape::REFINES`, so walks skip what cannot have one).
fn refines_expr(contract: &Contract) -> TokenStream {
    let krate = &contract.krate;
    let mut parts = vec![if contract.refine.is_some() {
        quote!(true)
    } else {
        quote!(false)
    }];
    let field_parts = |field: &Field, parts: &mut Vec<TokenStream>| {
        if field.refine.is_some() {
            parts.push(quote!(true));
        }
        if matches!(field.source, Source::Type) {
            let ty = &field.ty;
            parts.push(quote!(<#ty as #krate::Shape>::REFINES));
        }
    };
    match &contract.body {
        Body::Object(object) => object
            .fields
            .iter()
            .for_each(|f| field_parts(f, &mut parts)),
        Body::Transparent { field, .. } => field_parts(field, &mut parts),
        Body::UnitEnum { .. } => {}
        Body::Union(union) => {
            for variant in &union.variants {
                match &variant.body {
                    VariantBody::Struct(object) => {
                        object
                            .fields
                            .iter()
                            .for_each(|f| field_parts(f, &mut parts));
                    }
                    VariantBody::Newtype(ty) => parts.push(quote!(<#ty as #krate::Shape>::REFINES)),
                    VariantBody::Unit => {}
                }
            }
        }
    }
    // A type named by many fields is asked once (big contracts repeat a few types).
    let mut seen = std::collections::HashSet::new();
    parts.retain(|part| seen.insert(part.to_string()));
    quote!(#(#parts)||*)
}
