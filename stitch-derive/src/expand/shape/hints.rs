//! A keyed union's lists of operations, written where the derive numbers its keys: for each
//! key, the operations its hint names by the shared rule (`stitch_rules::hint`), as expected
//! from the fields' spelling, and every operation with its summary line for the tag's
//! description, so that rendering copies each list whole. Whether a field is required depends
//! on its type's shape, which only constant evaluation sees: each field's expectation goes with
//! the lists, and the key table writes a key whose fields differ from it name by name.

use proc_macro2::TokenStream;
use quote::quote;
use stitch_rules::doc::summary;
use stitch_rules::hint::{names_operation, operation_list, summary_list};
use stitch_rules::json;

use super::fields::is_option;
use crate::model::{Field, Source, Union, VariantBody};

/// The `__STITCH_NAMES` static of a union whose fields' key indices are `of_field` (every
/// struct operation's fields in order, as `key_indices` numbers them) over `keys` keys.
pub(super) fn name_lists(union: &Union, of_field: &[u32], keys: usize) -> TokenStream {
    let mut members: Vec<Vec<(&str, bool)>> = vec![Vec::new(); keys];
    let mut required = vec![0u64; of_field.len().div_ceil(64)];
    let fields = union.variants.iter().flat_map(|variant| {
        let fields: &[Field] = match &variant.body {
            VariantBody::Struct(object) => &object.fields,
            VariantBody::Unit | VariantBody::Newtype(_) => &[],
        };
        fields
            .iter()
            .map(move |field| (variant.wire.as_str(), field))
    });
    for (at, ((operation, field), &key)) in fields.zip(of_field).enumerate() {
        let expected = expected_required(field);
        members[key as usize].push((operation, expected));
        required[at / 64] |= u64::from(expected) << (at % 64);
    }
    let lists = members.iter().map(|members| {
        let some_require = members.iter().any(|&(_, required)| required);
        operation_list(
            members
                .iter()
                .filter(|&&(_, required)| names_operation(some_require, required))
                .map(|&(operation, _)| operation),
        )
    });
    let operations = summary_list(union.variants.iter().map(|variant| {
        let line = variant.description.as_deref().and_then(summary);
        (variant.wire.as_str(), line)
    }));
    let names = union
        .variants
        .iter()
        .map(|variant| format!("\"{}\"", json::escaped(&variant.wire)))
        .collect::<Vec<_>>()
        .join(",");
    quote! {
        static __STITCH_NAMES: __s::NameLists<'static> = __s::NameLists {
            required: &[#(#required),*],
            lists: &[#(#lists),*],
            operations: #operations,
            names: #names,
        };
    }
}

/// Whether a field is required, as far as its spelling tells: it has no default and its type
/// is not written `Option<T>` (a type alias or a shape of its own may say otherwise, which
/// the key table finds).
fn expected_required(field: &Field) -> bool {
    let spelled_option = matches!(field.source, Source::Type) && is_option(&field.ty);
    !field.has_default && !spelled_option
}
