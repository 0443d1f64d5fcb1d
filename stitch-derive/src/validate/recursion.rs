//! A type that contains itself: its schema would be infinite without `$ref`, which clients
//! fail to resolve.

use darling::Error;
use darling::error::Accumulator;

use crate::model::{Body, Source};

/// A field whose type names the contract itself (`Box<Node>` in `Node`). (An indirect cycle
/// through another type is reported by rustc as a cycle in `SHAPE`.)
pub fn reject_self_reference(body: &Body, ident: &syn::Ident, errors: &mut Accumulator) {
    let fields = body.fields().filter_map(|field| match &field.source {
        Source::Type => Some(&field.ty),
        Source::Via(ty) => Some(&**ty),
        Source::Opaque => None,
    });
    for ty in fields.chain(body.newtypes()) {
        if let Some(itself) = self_reference(ty, ident) {
            errors.push(
                Error::custom(format!(
                    "`{ident}` contains itself here: a recursive type cannot be advertised \
                     without `$ref`, which MCP clients fail to resolve; give each level of \
                     nesting its own type, or mark the field `#[contract(opaque)]`"
                ))
                .with_span(&itself),
            );
        }
    }
}

/// Where a type names `ident` (or `Self`) as a single-segment path, at any depth of its
/// generic arguments.
fn self_reference<'t>(ty: &'t syn::Type, ident: &syn::Ident) -> Option<&'t syn::Ident> {
    match ty {
        syn::Type::Path(path) if path.qself.is_none() => {
            let segments = &path.path.segments;
            let first = &segments.first()?.ident;
            if first == "Self" || (segments.len() == 1 && first == ident) {
                return Some(first);
            }
            segments
                .iter()
                .find_map(|segment| match &segment.arguments {
                    syn::PathArguments::AngleBracketed(arguments) => {
                        arguments.args.iter().find_map(|argument| match argument {
                            syn::GenericArgument::Type(inner) => self_reference(inner, ident),
                            _ => None,
                        })
                    }
                    _ => None,
                })
        }
        syn::Type::Reference(reference) => self_reference(&reference.elem, ident),
        syn::Type::Slice(slice) => self_reference(&slice.elem, ident),
        syn::Type::Array(array) => self_reference(&array.elem, ident),
        syn::Type::Paren(paren) => self_reference(&paren.elem, ident),
        syn::Type::Group(group) => self_reference(&group.elem, ident),
        syn::Type::Tuple(tuple) => tuple.elems.iter().find_map(|e| self_reference(e, ident)),
        _ => None,
    }
}
