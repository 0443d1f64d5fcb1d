//! The IR of a type, as code: nodes built by the runtime's `const fn`s, one call per attribute
//! at the attribute's span; and, for a non-generic union, its key table. The facts rendering
//! needs of a text (its escape, its hash, its summary line) and the numbering of a union's
//! keys are computed here, natively, by the shared rules, so that constant evaluation never
//! scans a text for them.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use stitch_rules::{Attribute, doc, json, keys};
use syn::spanned::Spanned;

use crate::model::{
    Body, Contract, Field, Object, Source, Step, StepValue, Tagging, Union, Variant, VariantBody,
};

/// The `SHAPE` expression, and the consts it needs: a non-generic union's key table, and the
/// expanded fields of an object that flattens some.
pub fn shape_expr(contract: &Contract) -> (TokenStream, TokenStream) {
    // A non-generic union's operations are written in a constant outside the impl, where
    // a node can be a constant too; elsewhere the nodes stay where they are written, so an
    // attribute's expression may name `Self` and the type's parameters.
    let shared_nodes = has_key_table(contract);
    let mut consts = Consts {
        shared_nodes,
        ..Consts::default()
    };
    let (union_consts, expr) = match &contract.body {
        Body::Object(object) => {
            let object = object_expr(object, contract.description.as_deref(), &mut consts);
            (
                TokenStream::new(),
                quote!(&__s::Node::of(__s::Kind::Object(#object))),
            )
        }
        Body::Transparent { field, newtype } => {
            let node = field_node(field, &mut consts).node;
            let node = if *newtype {
                quote!(&#node.required())
            } else {
                node
            };
            (TokenStream::new(), node)
        }
        Body::UnitEnum {
            names,
            aliases,
            meanings,
        } => {
            let (spellings, values): (Vec<_>, Vec<_>) = aliases.iter().cloned().unzip();
            let meanings = option_doc(meanings.as_deref());
            (
                TokenStream::new(),
                quote!(&__s::Node::of(__s::Kind::StringEnum(
                    &[#(#names),*],
                    &[#((#spellings, #values)),*],
                    #meanings,
                ))),
            )
        }
        Body::Union(union) => union_shape(contract, union, &mut consts),
    };
    let mut items = consts.items;
    items.extend(union_consts);
    (items, expr)
}

/// Whether the type is a non-generic union with keys to merge (internally or adjacently
/// tagged): its operations are a constant of their own, and its key table is computed by
/// constant evaluation where its shape is read.
pub fn has_key_table(contract: &Contract) -> bool {
    contract.generics.params.is_empty()
        && matches!(&contract.body, Body::Union(union) if !matches!(union.tagging, Tagging::External))
}

/// Consts an expression refers to, each named by a number of its own.
#[derive(Default)]
struct Consts {
    items: TokenStream,
    count: usize,
    /// Whether field nodes are constants shared by code (below), or written where they are
    /// used (with attributes, as inline constants).
    shared_nodes: bool,
    /// Each field node, by its code (type and attributes), with the constant of its check at
    /// a glance: the fields of one type and attributes, under one key (`partIndex`,
    /// `min = 0`, in eight operations of fourteen) or under many (`min = 0` on every count),
    /// are one constant, checked and evaluated once. The key a node names is only a misfit's
    /// message's.
    nodes: std::collections::HashMap<String, (TokenStream, syn::Ident)>,
}

fn union_shape(
    contract: &Contract,
    union: &Union,
    consts: &mut Consts,
) -> (TokenStream, TokenStream) {
    let description = option_doc(contract.description.as_deref());
    let variants: Vec<TokenStream> = union
        .variants
        .iter()
        .map(|v| variant_expr(&union.tagging, v, consts))
        .collect();
    let raw = match &union.tagging {
        Tagging::Internal { tag } => quote!(__s::Union::new(#tag, &[#(#variants),*], #description)),
        Tagging::Adjacent { tag, content } => quote!(
            __s::Union::new(#tag, &[#(#variants),*], #description).adjacent(#content)
        ),
        Tagging::External => quote!(__s::Union::external(&[#(#variants),*], #description)),
    };
    let raw = if union.hints_by_operation {
        quote!(#raw.hints(__s::Hints::ByOperation))
    } else {
        raw
    };
    if !contract.generics.params.is_empty() || matches!(union.tagging, Tagging::External) {
        // A generic union cannot size its key table by a generic constant: it carries none,
        // and the runtime walks its operations instead (the same rules). An externally tagged
        // union has no keys to merge: each operation is its own key.
        return (
            TokenStream::new(),
            quote!(&__s::Node::of(__s::Kind::Union(&#raw))),
        );
    }
    let buffered = buffered_check(union);
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
        // A newtype operation's fields come from its type's shape: the same numbering, in
        // constant evaluation.
        None => quote! {
            const __STITCH_FIELDS: usize = __s::total_fields(&__STITCH_RAW);
            const __STITCH_INDICES: __s::KeyIndices<__STITCH_FIELDS> =
                __s::key_indices::<__STITCH_FIELDS, { __s::slots_for(__STITCH_FIELDS) }>(
                    &__STITCH_RAW,
                );
        },
    };
    let consts = quote! {
        static __STITCH_RAW: __s::Union<'static> = #raw;
        #buffered
        #indices
        const __STITCH_KEYS: usize = __STITCH_INDICES.keys;
        // The key table, in a trait's constants (`KeyTable`): computed only where the
        // shape is read. The operations above are a constant item, evaluated now, and with
        // them every attribute's fit.
        struct __StitchKeyTable;
        impl __s::KeyTable<__STITCH_KEYS, __STITCH_FIELDS> for __StitchKeyTable {
            const RAW: &'static __s::Union<'static> = &__STITCH_RAW;
            const TABLE: __s::FlatTable<__STITCH_KEYS, __STITCH_FIELDS> =
                __s::flat_table::<__STITCH_KEYS, __STITCH_FIELDS>(
                    &__STITCH_RAW,
                    &__STITCH_INDICES,
                );
        }
    };
    (
        consts,
        quote!(__s::keyed_shape::<
            __STITCH_KEYS,
            __STITCH_FIELDS,
            __StitchKeyTable,
        >()),
    )
}

/// serde reads an internally or adjacently tagged operation through a buffer that holds no
/// 128-bit integer: the check of the fields whose types only their shapes can tell of (the
/// validation refused those whose spelling names one, and left out those whose spelling names
/// only standard types without one), each type once.
fn buffered_check(union: &Union) -> TokenStream {
    if matches!(union.tagging, Tagging::External) {
        return TokenStream::new();
    }
    let mut seen = std::collections::HashSet::new();
    let mut fields = Vec::new();
    for variant in &union.variants {
        let operation = &variant.wire;
        let mut unknown = |ty: &syn::Type, field: &str| {
            if seen.insert(ty.to_token_stream().to_string()) {
                // One check per type, at the type: the error points there.
                fields.push(quote_spanned! {ty.span()=>
                    const _: () = if let ::core::option::Option::Some(why) =
                        __s::unbufferable(&[__s::Buffered {
                            operation: #operation,
                            field: #field,
                            node: <#ty as __s::Shape>::SHAPE,
                        }])
                    {
                        ::core::panic!("{}", why.as_str())
                    };
                });
            }
        };
        match &variant.body {
            VariantBody::Unit => {}
            VariantBody::Newtype(ty) => unknown(ty, ""),
            VariantBody::Struct(object) => {
                for field in object.fields.iter().filter(|f| !f.holds_no_wide_integer) {
                    match &field.source {
                        Source::Type => unknown(&field.ty, &field.wire),
                        Source::Via(ty) => unknown(ty, &field.wire),
                        Source::Opaque => {}
                    }
                }
            }
        }
    }
    fields.into_iter().collect()
}

/// Every field's key index and the number of keys (`stitch_rules::keys`, the numbering
/// constant evaluation makes too); `None` when an operation is a newtype, whose fields only
/// its type's shape knows.
fn key_indices(union: &Union) -> Option<(Vec<u32>, usize)> {
    let mut names: Vec<&str> = Vec::new();
    for variant in &union.variants {
        match &variant.body {
            VariantBody::Unit => {}
            // A flattened field's keys only its type's shape knows.
            VariantBody::Struct(object) if object.fields.iter().any(|field| field.flatten) => {
                return None;
            }
            VariantBody::Struct(object) => {
                names.extend(object.fields.iter().map(|field| field.wire.as_str()));
            }
            VariantBody::Newtype(_) => return None,
        }
    }
    Some(keys::numbered(&names))
}

fn variant_expr(tagging: &Tagging, variant: &Variant, consts: &mut Consts) -> TokenStream {
    let name = &variant.wire;
    let aliases = &variant.aliases;
    let description = option_doc(variant.description.as_deref());
    let summary = option_doc(variant.description.as_deref().and_then(doc::summary));
    let plain = json::is_plain(name);
    // A field of an internally tagged operation must not be named like the tag; in an
    // adjacently tagged one, its fields sit in the content key.
    let tag = match tagging {
        Tagging::Internal { tag } => tag.as_str(),
        Tagging::Adjacent { .. } | Tagging::External => "",
    };
    let object = match &variant.body {
        VariantBody::Unit => {
            return quote!(
                __s::variant(#name, #plain, &[#(#aliases),*], #description, #summary, &__s::Object::EMPTY)
                    .unit()
            );
        }
        // An externally tagged operation's key holds the newtype's value, whatever it is.
        VariantBody::Newtype(ty) if matches!(tagging, Tagging::External) => {
            return quote_spanned!(ty.span()=>
                __s::variant(#name, #plain, &[#(#aliases),*], #description, #summary, &__s::Object::EMPTY)
                    .holding(<#ty as __s::Shape>::SHAPE)
            );
        }
        VariantBody::Struct(object) => object_expr(object, None, consts),
        VariantBody::Newtype(ty) => {
            let object = quote_spanned!(ty.span()=>
                __s::applied(__s::newtype_object(<#ty as __s::Shape>::SHAPE, #name, #tag))
            );
            // An inline constant, so the operation's list stays promotable to `'static`.
            quote_spanned!(ty.span()=> const { #object })
        }
    };
    quote!(__s::variant(#name, #plain, &[#(#aliases),*], #description, #summary, #object))
}

/// An object's expression: inline, or, when it flattens fields, a const of the fields
/// constant evaluation expands (their number is only known there).
fn object_expr(object: &Object, description: Option<&str>, consts: &mut Consts) -> TokenStream {
    let fields: Vec<FieldCode> = object
        .fields
        .iter()
        .filter(|field| !field.flatten)
        .map(|field| field_code(field, consts))
        .collect();
    let deny_unknown = object.deny_unknown;
    let description = option_doc(description);
    let flattens = object.fields.iter().any(|field| field.flatten);
    let bare: Option<Vec<&TokenStream>> = fields.iter().map(FieldCode::bare_parts).collect();
    if let (false, Some(bare)) = (flattens, bare) {
        // The common object, its fields in one call of one array literal: a call per field
        // costs rustc a basic block, which every pass over the operations' body pays for.
        return quote!(
            &__s::object(&__s::bare_fields([#(#bare),*]), #deny_unknown, #description)
        );
    }
    let fields: Vec<TokenStream> = fields.iter().map(FieldCode::call).collect();
    if !flattens {
        return quote!(&__s::object(&[#(#fields),*], #deny_unknown, #description));
    }
    let mut own = 0usize;
    let mut flattened = Vec::new();
    for field in &object.fields {
        if !field.flatten {
            own += 1;
            continue;
        }
        let ty = &field.ty;
        let name = field.member.to_token_stream().to_string();
        flattened.push(quote_spanned!(ty.span()=> __s::Flattened {
            at: #own,
            name: #name,
            node: <#ty as __s::Shape>::SHAPE,
        }));
    }
    let n = consts.count;
    consts.count += 1;
    let [own, flat, count, expanded, object_name] =
        ["OWN", "FLATTENED", "COUNT", "FIELDS", "OBJECT"]
            .map(|part| format_ident!("__STITCH_{}_{}", part, n));
    let flattened_types: Vec<&syn::Type> = object
        .fields
        .iter()
        .filter(|field| field.flatten)
        .map(|field| &field.ty)
        .collect();
    let at = flattened_types
        .first()
        .map_or_else(Span::call_site, |ty| ty.span());
    // What serde could not read as described is refused at the flattened field it is of (the
    // last check, of the object as a whole, at the first).
    let misfits = flattened_types
        .iter()
        .map(|ty| ty.span())
        .chain([at])
        .enumerate()
        .map(|(which, span)| {
            quote_spanned! {span=>
                const _: () = if let ::core::option::Option::Some(why) =
                    __s::flatten_misfit(#own, #flat, #which)
                {
                    ::core::panic!("{}", why.as_str())
                };
            }
        });
    consts.items.extend(quote_spanned! {at=>
        const #own: &[__s::Field] = &[#(#fields),*];
        const #flat: &[__s::Flattened] = &[#(#flattened),*];
        #(#misfits)*
        const #count: usize = __s::flattened_count(#own, #flat);
        const #expanded: [__s::Field; #count] = __s::flattened_fields::<#count>(#own, #flat);
        const #object_name: __s::Object = __s::with_flattened_rest(
            __s::Object::new(&#expanded, #deny_unknown, #description),
            #flat,
        );
    });
    quote!(&#object_name)
}

/// A field as code: the common bare field (no default, description or alias, its node's
/// check at a glance computed beside the node) as its parts, any other as its call.
enum FieldCode {
    Bare(TokenStream),
    Call(TokenStream),
}

impl FieldCode {
    /// A bare field's parts, as `bare_fields` takes them.
    fn bare_parts(&self) -> Option<&TokenStream> {
        match self {
            FieldCode::Bare(parts) => Some(parts),
            FieldCode::Call(_) => None,
        }
    }

    /// The field as one call.
    fn call(&self) -> TokenStream {
        match self {
            FieldCode::Bare(parts) => quote!(__s::bare_field #parts),
            FieldCode::Call(call) => call.clone(),
        }
    }
}

fn field_code(field: &Field, consts: &mut Consts) -> FieldCode {
    let FieldNode { node, quick } = field_node(field, consts);
    let wire = &field.wire;
    let has_default = field.has_default;
    let plain = json::is_plain(wire);
    let description = || option_doc(field.description.as_deref());
    let call = match quick {
        None => {
            let description = description();
            quote!(__s::field(#wire, #plain, #node, #has_default, #description))
        }
        Some(quick) if has_default || field.description.is_some() => {
            let description = description();
            quote!(__s::checked_field(
                #wire, #plain, #node, #has_default, #description, #quick
            ))
        }
        // The common field, in the fewest tokens: each costs the macro and rustc.
        Some(quick) if field.aliases.is_empty() => {
            return FieldCode::Bare(quote!((#wire, #plain, #node, #quick)));
        }
        Some(quick) => quote!(__s::bare_field(#wire, #plain, #node, #quick)),
    };
    if field.aliases.is_empty() {
        return FieldCode::Call(call);
    }
    let aliases = &field.aliases;
    FieldCode::Call(quote!(#call.with_aliases(&[#(#aliases),*])))
}

/// An optional description as the IR's `Option<Doc>`, its escape and hash computed here.
fn option_doc(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => {
            let escaped = json::escaped(text);
            let hash = json::fnv1a(text);
            if escaped == text {
                quote!(__s::plain_doc(#text, #hash))
            } else {
                quote!(__s::escaped_doc(#text, #escaped, #hash))
            }
        }
        None => quote!(::core::option::Option::None),
    }
}

/// A field's node: its source's shape, then one spanned call per attribute, all in one
/// constant (so the node is promoted to `'static` as the shape alone is), shared by every
/// field of the same code: each constant costs rustc a body to check and evaluate, and a
/// contract has hundreds. A misfit is then reported once, at the first such field, naming
/// it. (The derive itself refuses a misfit on a type whose spelling tells its kind, at every
/// field; constant evaluation finds only those behind an alias or a type of the user's.)
fn field_node(field: &Field, consts: &mut Consts) -> FieldNode {
    let unshared = |node| FieldNode { node, quick: None };
    if !consts.shared_nodes {
        if field.steps.is_empty() {
            return unshared(source_node(field));
        }
        let (value, span) = applied_steps(field);
        return unshared(quote_spanned!(span=> &const { #value }));
    }
    if field.steps.is_empty() {
        let Source::Type = field.source else {
            return unshared(source_node(field));
        };
        // A field type's shape is a constant each type has once: a contract names a few
        // types in hundreds of fields.
        let ty = &field.ty;
        let code = ty.to_token_stream().to_string();
        return consts.shared(code, |ident| {
            let item =
                quote!(const #ident: &'static __s::Node<'static> = <#ty as __s::Shape>::SHAPE;);
            (ty.span(), item, quote!(#ident))
        });
    }
    // The code is told from the model, not from the tokens: printing a token stream is
    // most of what a proc macro built without optimization spends on a contract.
    // The steps are written once for each code, not for each field.
    consts.shared(node_code(field), |ident| {
        let (value, span) = applied_steps(field);
        (
            span,
            quote!(const #ident: __s::Node<'static> = #value;),
            quote!(&#ident),
        )
    })
}

/// A field's node, and where the union's nodes are shared constants, the constant of its
/// check at a glance.
struct FieldNode {
    node: TokenStream,
    quick: Option<syn::Ident>,
}

impl Consts {
    /// The shared constant of a node of this code, written by `write` (given its name: the
    /// span to report a misfit at, the item, and the node's expression) the first time, with
    /// the constant of its check at a glance (`quick_check`, computed once for every field of
    /// the node).
    fn shared(
        &mut self,
        code: String,
        write: impl FnOnce(&syn::Ident) -> (Span, TokenStream, TokenStream),
    ) -> FieldNode {
        let count = self.nodes.len();
        let (node, quick) = self
            .nodes
            .entry(code)
            .or_insert_with(|| {
                let ident = format_ident!("__STITCH_NODE_{}", count);
                let quick = format_ident!("__STITCH_QUICK_{}", count);
                let (span, item, node) = write(&ident);
                self.items.extend(quote_spanned! {span=>
                    #item
                    const #quick: __s::QuickCheck = __s::quick_check(#node);
                });
                (node, quick)
            })
            .clone();
        FieldNode {
            node,
            quick: Some(quick),
        }
    }
}

/// The node a field's schema starts from: its source's shape.
fn source_node(field: &Field) -> TokenStream {
    match &field.source {
        Source::Type => {
            let ty = &field.ty;
            quote_spanned!(ty.span()=> <#ty as __s::Shape>::SHAPE)
        }
        Source::Via(ty) => quote_spanned!(ty.span()=> <#ty as __s::Shape>::SHAPE),
        // An `Option` may be missing, as serde reads it, whatever its value's schema.
        Source::Opaque if is_option(&field.ty) => quote!(&__s::Node::OPAQUE.nullable()),
        Source::Opaque => quote!(&__s::Node::OPAQUE),
    }
}

/// The source's node with every attribute applied, and the last attribute's span.
fn applied_steps(field: &Field) -> (TokenStream, Span) {
    let mut node = source_node(field);
    let mut last = None;
    for step in &field.steps {
        let value = step_call(step, node, field);
        node = quote!(&#value);
        last = Some((value, step.span));
    }
    last.expect("a field with attributes")
}

/// What the code of a field's node is made of, as text: its type and source, and each
/// attribute with its value. Two fields of one text have the same node, whatever their keys.
fn node_code(field: &Field) -> String {
    use std::fmt::Write;
    let mut code = field.ty.to_token_stream().to_string();
    match &field.source {
        Source::Type => {}
        Source::Via(ty) => write!(code, " via {}", ty.to_token_stream()).expect("to a string"),
        Source::Opaque => code.push_str(" opaque"),
    }
    for step in &field.steps {
        write!(code, " {:?}=", step.attribute).expect("to a string");
        match &step.value {
            StepValue::Bound {
                json,
                value,
                integral,
            } => write!(code, "{json}/{value}/{integral}"),
            StepValue::Count(count) => write!(code, "{count}"),
            StepValue::Text(text) => write!(code, "{text:?}"),
            StepValue::Texts(texts) => write!(code, "{texts:?}"),
            StepValue::Flag => write!(code, "flag"),
            StepValue::Catch(expr) => write!(code, "{}", expr.to_token_stream()),
        }
        .expect("to a string");
    }
    code
}

/// One attribute applied to a node: a call that carries the attribute's span, and a misfit
/// it returns fails the build right there (`applied`), so constant evaluation reports it at
/// the attribute with nothing of the runtime in the error.
fn step_call(step: &Step, node: TokenStream, field: &Field) -> TokenStream {
    let span = step.span;
    let wire = &field.wire;
    let call = match (step.attribute, &step.value) {
        (Attribute::Keyword(keyword), value) => {
            // The keyword's variant, by its name: the enum is the one list of keywords.
            let keyword = syn::Ident::new(&format!("{keyword:?}"), span);
            let value = match value {
                StepValue::Bound {
                    json,
                    value,
                    integral,
                } => {
                    let value = Literal::f64_unsuffixed(*value);
                    quote_spanned!(span=> __s::KeywordValue::Bound(
                        __s::Bound::new(#json, #value, #integral)
                    ))
                }
                StepValue::Count(count) => quote_spanned!(span=> __s::KeywordValue::Count(#count)),
                StepValue::Text(text) => quote_spanned!(span=> __s::KeywordValue::Text(#text)),
                _ => quote_spanned!(span=> __s::KeywordValue::Flag),
            };
            quote_spanned!(span=> __s::keyword(#node, __s::Keyword::#keyword, #value, #wire))
        }
        (Attribute::Values, StepValue::Texts(values)) => {
            quote_spanned!(span=> __s::values(#node, &[#(#values),*], #wire))
        }
        (Attribute::Coerce, _) => quote_spanned!(span=> __s::coerce(#node, #wire)),
        (Attribute::Catch, StepValue::Catch(catch)) => {
            let ty = &field.ty;
            quote_spanned!(span=> __s::catch(#node, || __s::fallback::<#ty>(#catch), #wire))
        }
        (attribute, _) => {
            // A check JSON Schema cannot show (`trim`, `refine`, `via`, ...).
            let attribute = syn::Ident::new(&format!("{attribute:?}"), span);
            quote_spanned!(span=> __s::hidden(#node, __s::Attribute::#attribute, #wire))
        }
    };
    quote_spanned!(span=> __s::applied(#call))
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
