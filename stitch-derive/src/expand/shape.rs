//! The IR of a type, as code: nodes built by the runtime's `const fn`s, one call per attribute
//! at the attribute's span; and, for a non-generic union, its key table. The facts rendering
//! needs of a text (its escape, its hash, its summary line), the numbering of a union's keys
//! and the lists of operations its schema names are computed here, natively, by the shared
//! rules, so that constant evaluation never scans or assembles a text for them.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use stitch_rules::{doc, json, keys};
use syn::spanned::Spanned;

mod columns;
mod fields;
mod hints;
mod layout;
use columns::operation_columns;
use fields::{FieldCode, SharedNode, field_code, field_node};

use crate::model::{Body, Contract, Object, Source, Tagging, Union, Variant, VariantBody};

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
    nodes: std::collections::HashMap<String, (TokenStream, SharedNode)>,
}

fn union_shape(
    contract: &Contract,
    union: &Union,
    consts: &mut Consts,
) -> (TokenStream, TokenStream) {
    let description = option_doc(contract.description.as_deref());
    let keyed = has_key_table(contract);
    // A keyed union's operations are a static array of their own, and its union a static
    // pointing at it: evaluated and interned once, not copied into every constant built on
    // it (for a 60 × 12 union read in a constant, 0.03G of rustc's 8.2G instructions).
    // rustc still validates each such constant's value through every reference, into
    // statics too, so those constants are as few as the key table allows (`KeyTable`).
    let columns = if keyed {
        operation_columns(union, consts)
    } else {
        None
    };
    let mut variants = || -> Vec<TokenStream> {
        union
            .variants
            .iter()
            .map(|v| variant_expr(&union.tagging, v, consts))
            .collect()
    };
    let sameness = columns.as_ref().map(|columns| columns.sameness.as_slice());
    let (indices, names) = key_table_items(union, sameness);
    let (operations, operations_static) = match (keyed, columns) {
        (true, Some(columns)) => (quote!(&__STITCH_OPERATIONS), columns.items),
        (true, None) => {
            let variants = variants();
            let operation_count = union.variants.len();
            (
                quote!(&__STITCH_OPERATIONS),
                quote! {
                    static __STITCH_OPERATIONS: [__s::Variant<'static>; #operation_count] =
                        [#(#variants),*];
                },
            )
        }
        (false, _) => {
            let variants = variants();
            (quote!(&[#(#variants),*]), TokenStream::new())
        }
    };
    let raw = match &union.tagging {
        Tagging::Internal { tag } => quote!(__s::Union::new(#tag, #operations, #description)),
        Tagging::Adjacent { tag, content } => quote!(
            __s::Union::new(#tag, #operations, #description).adjacent(#content)
        ),
        Tagging::External => quote!(__s::Union::external(#operations, #description)),
    };
    let raw = if union.hints_by_operation {
        quote!(#raw.hints(__s::Hints::ByOperation))
    } else {
        raw
    };
    if !keyed {
        // A generic union cannot size its key table by a generic constant: it carries none,
        // and the runtime walks its operations instead (the same rules). An externally tagged
        // union has no keys to merge: each operation is its own key.
        return (
            TokenStream::new(),
            quote!(&__s::Node::of(__s::Kind::Union(&#raw))),
        );
    }
    let buffered = buffered_check(union);
    let table_type_items = key_table_type(&names);
    let consts = quote! {
        #operations_static
        static __STITCH_RAW: __s::Union<'static> = #raw;
        #buffered
        #indices
        const __STITCH_KEYS: usize = __STITCH_INDICES.keys;
        #table_type_items
    };
    let table_type = keyed_shape_type();
    (consts, quote!(__s::keyed_shape::<#table_type>()))
}

/// The type carrying a keyed union's table, shape and advertised scratch (`__StitchKeyTable`),
/// with its hint lists `names`.
fn key_table_type(names: &TokenStream) -> TokenStream {
    quote! {
        // The key table and the shape of the union with it, in the constants of a generic
        // impl (`KeyTable`): computed only where the shape is read. The operations above
        // are a constant item, evaluated now, and with them every attribute's fit.
        struct __StitchKeyTable<X: ?Sized>(::core::marker::PhantomData<X>);
        impl<X: ?Sized> __s::KeyTable<__STITCH_KEYS, __STITCH_FIELDS> for __StitchKeyTable<X> {
            const NAMES: ::core::option::Option<&'static __s::NameLists<'static>> = #names;
            const TABLE: __s::FlatTable<__STITCH_KEYS, __STITCH_FIELDS> =
                __s::flat_table::<__STITCH_KEYS, __STITCH_FIELDS>(
                    &__STITCH_RAW,
                    &__STITCH_INDICES,
                    Self::NAMES,
                );
        }
        // The union with its table, through a call, so that it is a promoted of the shape
        // (promoteds may not name a static; a call's body may): rustc validates a promoted
        // without walking the statics it points to, a constant with.
        const fn __stitch_union(flat: &'static __s::Flat<'static>) -> __s::Union<'static> {
            __s::keyed_union(&__STITCH_RAW, flat)
        }
        impl<X: ?Sized> __s::Shape for __StitchKeyTable<X> {
            const SHAPE: &'static __s::Node<'static> = &__s::Node::of(__s::Kind::Union(
                &__stitch_union(&<Self as __s::KeyTable<__STITCH_KEYS, __STITCH_FIELDS>>::FLAT),
            ));
        }
        // The advertised schema written from the union as a promoted too, not from the shape's
        // constant, whose value rustc would validate through every field again.
        impl<X: ?Sized> __s::AdvertisedScratchOf for __StitchKeyTable<X> {
            const SCRATCH: &'static __s::AdvertisedScratch = &__s::advertised_scratch(
                &__s::Node::of(__s::Kind::Union(&__stitch_union(
                    &<Self as __s::KeyTable<__STITCH_KEYS, __STITCH_FIELDS>>::FLAT,
                ))),
            );
        }
    }
}

/// The type whose `Shape` is a keyed union's shape with its key table (`__s::KeyTable`): the
/// texts and the tool read it there, not through the union's own `Shape::SHAPE`, which is a
/// constant more for rustc to validate.
fn keyed_shape_type() -> TokenStream {
    quote!(__StitchKeyTable<()>)
}

/// The type the texts and the tool read a contract's shape from: a union's key table type
/// where it has one, the contract itself (`itself`, as the caller names it) otherwise.
pub fn shape_source(contract: &Contract, itself: TokenStream) -> TokenStream {
    if has_key_table(contract) {
        keyed_shape_type()
    } else {
        itself
    }
}

/// The items a keyed union's table is computed from (its field count, every field's key
/// index, which fields repeat an earlier one of their key where `sameness` says what each
/// field must share to, and where the derive can write them, its lists of operations), and
/// the expression of those lists (`None` where constant evaluation numbers the keys).
fn key_table_items(union: &Union, sameness: Option<&[String]>) -> (TokenStream, TokenStream) {
    match key_indices(union) {
        // Every name is known here: the key indices are written out, not computed by
        // constant evaluation, which pays for every byte of every name it hashes; and so
        // are the keys' hint lists.
        Some((of_field, keys)) => {
            let fields = of_field.len();
            let names = hints::name_lists(union, &of_field, keys);
            let repeats = sameness.map_or_else(Vec::new, |sameness| {
                layout::repeated_fields(&of_field, sameness)
            });
            let slot_positions = layout::slot_positions(&of_field, keys);
            (
                quote! {
                    const __STITCH_FIELDS: usize = #fields;
                    const __STITCH_INDICES: __s::KeyIndices<__STITCH_FIELDS> = __s::KeyIndices {
                        of_field: [#(#of_field),*],
                        keys: #keys,
                        repeats: &[#(#repeats),*],
                        positions: &[#(#slot_positions),*],
                    };
                    #names
                },
                quote!(::core::option::Option::Some(&__STITCH_NAMES)),
            )
        }
        // A newtype operation's fields come from its type's shape: the same numbering, in
        // constant evaluation, and its hints written name by name.
        None => (
            quote! {
                const __STITCH_FIELDS: usize = __s::total_fields(&__STITCH_RAW);
                const __STITCH_INDICES: __s::KeyIndices<__STITCH_FIELDS> =
                    __s::key_indices::<__STITCH_FIELDS, { __s::slots_for(__STITCH_FIELDS) }>(
                        &__STITCH_RAW,
                    );
            },
            quote!(::core::option::Option::None),
        ),
    }
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
    let bare: Option<Vec<TokenStream>> = fields.iter().map(FieldCode::bare_tuple).collect();
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

/// An optional description as the IR's `Option<Doc>`, its escape and hash computed here.
fn option_doc(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => {
            let hash = json::fnv1a(text);
            match escaped_doc(text) {
                None => quote!(__s::plain_doc(#text, #hash)),
                Some(escaped) => quote!(__s::escaped_doc(#text, #escaped, #hash)),
            }
        }
        None => quote!(::core::option::Option::None),
    }
}

/// A description's JSON escape, computed at expansion so that rendering copies it whole;
/// `None` where the text needs none.
pub(super) fn escaped_doc(text: &str) -> Option<String> {
    let escaped = json::escaped(text);
    (escaped != text).then_some(escaped)
}
