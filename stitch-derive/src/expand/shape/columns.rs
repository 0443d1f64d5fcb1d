//! A keyed union's operations as columns: every field of every operation in one static of
//! one call, with the objects and the operations over it, written where every field is an
//! object's with its node's check at a glance (the common union).

use proc_macro2::TokenStream;
use quote::quote;
use stitch_rules::{doc, json};

use super::fields::{FieldCode, FieldParts, field_code};
use super::{Consts, escaped_doc};
use crate::model::{Union, VariantBody};

/// A keyed union's operations as columns, where every operation is an object whose fields
/// all have their nodes' checks at a glance, and no field or operation has an alias (the
/// common union): every field of every operation in one static (`__s::field_columns`), the
/// objects over it (`objects_over`) and the operations over those (`operations_over`), each
/// one call of array literals. Written as one array of operations, each with its object and
/// fields, a 60 × 12 union's static made 180 calls and 720 tuples (and, documented, 840
/// calls more for its descriptions), each a temporary that every rustc pass over the
/// static's body pays for. `None` for any other union.
pub(super) fn operation_columns(union: &Union, consts: &mut Consts) -> Option<Columns> {
    let mut objects = Vec::with_capacity(union.variants.len());
    for variant in &union.variants {
        let VariantBody::Struct(object) = &variant.body else {
            return None;
        };
        if !variant.aliases.is_empty() || object.fields.iter().any(|field| field.flatten) {
            return None;
        }
        objects.push(object);
    }
    let deny_unknown = objects.first().is_some_and(|object| object.deny_unknown);
    if objects
        .iter()
        .any(|object| object.deny_unknown != deny_unknown)
    {
        return None;
    }
    let mut fields = Vec::new();
    for object in &objects {
        for field in &object.fields {
            match field_code(field, consts) {
                FieldCode::Parts(parts) => fields.push(parts),
                FieldCode::Call(_) => return None,
            }
        }
    }
    let field_count = fields.len();
    let names = fields.iter().map(|field| &field.wire);
    let escaped = positions(fields.iter().map(|field| !field.plain));
    // Each field's node as its place in the union's few distinct nodes (with their checks at
    // a glance): a column of 720 numbers costs rustc less to check and evaluate than two
    // columns of 720 constants' names.
    let mut node_places = std::collections::HashMap::new();
    let mut nodes = Vec::new();
    let node_of: Vec<u32> = fields
        .iter()
        .map(|field| {
            *node_places.entry(field.shared.number).or_insert_with(|| {
                nodes.push((&field.node, &field.shared.quick));
                (nodes.len() - 1) as u32
            })
        })
        .collect();
    let nodes = nodes.iter().map(|(node, quick)| quote!((#node, #quick)));
    let defaults = positions(fields.iter().map(|field| field.has_default));
    let field_docs = doc_column(fields.iter().map(|field| field.description.as_deref()));
    let counts = objects.iter().map(|object| object.fields.len() as u32);
    let operation_count = union.variants.len();
    let operation_names = union.variants.iter().map(|variant| &variant.wire);
    let operations_escaped = positions(
        union
            .variants
            .iter()
            .map(|variant| !json::is_plain(&variant.wire)),
    );
    let operation_docs = || {
        union
            .variants
            .iter()
            .map(|variant| variant.description.as_deref())
    };
    let descriptions = doc_column(operation_docs());
    let summaries = doc_column(operation_docs().map(|text| text.and_then(doc::summary)));
    let items = quote! {
        static __STITCH_FIELD_COLUMN: [__s::Field<'static>; #field_count] =
            __s::field_columns(
                [#(#names),*],
                &[#(#escaped),*],
                &[#(#nodes),*],
                [#(#node_of),*],
                &[#(#defaults),*],
                #field_docs,
            );
        static __STITCH_OBJECTS: [__s::Object<'static>; #operation_count] =
            __s::objects_over(&__STITCH_FIELD_COLUMN, [#(#counts),*], #deny_unknown);
        static __STITCH_OPERATIONS: [__s::Variant<'static>; #operation_count] =
            __s::operations_over(
                [#(#operation_names),*],
                &[#(#operations_escaped),*],
                #descriptions,
                #summaries,
                &__STITCH_OBJECTS,
            );
    };
    Some(Columns {
        items,
        sameness: fields.iter().map(FieldParts::sameness).collect(),
    })
}

/// A keyed union's operations as columns: their items, and what each field, every
/// operation's in order, must share with another under its key to repeat it.
pub(super) struct Columns {
    pub(super) items: TokenStream,
    pub(super) sameness: Vec<String>,
}

/// A column's descriptions (`__s::DocColumn`): the positions that have one, their texts and
/// hashes, and the escaped texts of those that need a JSON escape, each computed here by the
/// shared rules, as [`option_doc`] computes one.
fn doc_column<'a>(texts: impl Iterator<Item = Option<&'a str>>) -> TokenStream {
    let described: Vec<(u32, &str)> = texts
        .enumerate()
        .filter_map(|(position, text)| Some((position as u32, text?)))
        .collect();
    if described.is_empty() {
        return quote!(__s::DocColumn::NONE);
    }
    let at = described.iter().map(|(position, _)| position);
    let texts = described.iter().map(|(_, text)| text);
    let hashes = described.iter().map(|(_, text)| json::fnv1a(text));
    let escaped = described
        .iter()
        .enumerate()
        .filter_map(|(index, (_, text))| {
            let escaped = escaped_doc(text)?;
            let index = index as u32;
            Some(quote!((#index, #escaped)))
        });
    quote!(__s::DocColumn {
        at: &[#(#at),*],
        texts: &[#(#texts),*],
        hashes: &[#(#hashes),*],
        escaped: &[#(#escaped),*],
    })
}

/// The positions, in order, of the places that are marked.
fn positions(marked: impl Iterator<Item = bool>) -> Vec<u32> {
    marked
        .enumerate()
        .filter(|(_, marked)| *marked)
        .map(|(position, _)| position as u32)
        .collect()
}
