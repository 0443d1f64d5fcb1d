//! Validation: our attributes (parsed by darling) and serde's (read by
//! `serde_derive_internals`) become the [`model`](crate::model), every rule a schema depends on
//! checked — serde shapes stitch cannot follow, tool names, patterns, duplicate wire names,
//! attributes that do not fit their field or contradict each other, types that contain
//! themselves. Every error is collected at its own span and reported together.
//!
//! Checks that need a field's *type* when its spelling does not tell (`min` on a type alias of
//! `String`) cannot be made here, since a macro sees tokens, not types: constant evaluation
//! makes them with the same shared rule (see `expand`).
//!
//! One file per part of the input: `container` (the type as a whole), `fields`, `operations`
//! (enums), `written` (what a type's spelling tells), `recursion`, and `serde` (serde's view).

mod container;
mod fallback;
mod features;
mod fields;
mod operations;
mod recursion;
mod serde;
mod written;

use darling::{Error, ast};

use crate::doc;
use crate::model::{Body, Contract, Object};
use crate::parse::ContainerInput;
use fields::SerdeFields;
pub use serde::Direction;

/// What a derive makes of a type: a contract (a tool's input, read by `Deserialize`), or the
/// shape of an output (written by `Serialize`, with `#[derive(Shape)]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Contract,
    Output,
}

impl Purpose {
    fn direction(self) -> Direction {
        match self {
            Purpose::Contract => Direction::Deserialize,
            Purpose::Output => Direction::Serialize,
        }
    }
}

/// Why a derive input has no model.
pub enum Invalid {
    /// Errors of ours, each at its span.
    Errors(Error),
    /// serde refuses the input's serde attributes, and its own derive says why.
    Serde,
}

/// Validates a parsed input, returning the model or every error found.
pub fn validate(
    input: &syn::DeriveInput,
    parsed: ContainerInput,
    purpose: Purpose,
) -> Result<Contract, Invalid> {
    let direction = purpose.direction();
    let serde = serde::read(input, direction).ok_or(Invalid::Serde)?;
    let mut errors = Error::accumulator();
    container::reject_container_serde(&serde.attrs, input, direction, &mut errors);
    let tool_name = match purpose {
        Purpose::Contract => container::tool_name(&parsed, &mut errors),
        Purpose::Output => {
            container::reject_contract_attributes(&parsed, &mut errors);
            container::default_tool_name(&parsed.ident)
        }
    };
    let profile = container::profile(&parsed, &tool_name, &mut errors);
    let body = match (parsed.data, &serde.data) {
        (
            ast::Data::Struct(fields),
            serde_derive_internals::ast::Data::Struct(style, serde_fields),
        ) => {
            let serde_fields = SerdeFields {
                container: &serde.attrs,
                fields: serde_fields,
                direction,
                allowed_formats: &profile.allow_formats,
                generic: !input.generics.params.is_empty(),
            };
            struct_body(fields, *style, serde_fields, input, &mut errors)
        }
        (ast::Data::Enum(variants), serde_derive_internals::ast::Data::Enum(serde_variants)) => {
            operations::enum_body(
                variants,
                serde_variants,
                &serde.attrs,
                input,
                (direction, &profile.allow_formats),
                &mut errors,
            )
        }
        _ => None,
    };
    let mut body = body;
    if let Some(hints) = &parsed.hints {
        container::hints(hints, body.as_mut(), &mut errors);
    }
    let body = body.unwrap_or(Body::Object(Object {
        fields: Vec::new(),
        deny_unknown: false,
    }));
    recursion::reject_self_reference(&body, &parsed.ident, &mut errors);
    let contract = Contract {
        description: parsed
            .description
            .clone()
            .or_else(|| doc::description(&parsed.attrs)),
        krate: parsed.krate.unwrap_or_else(|| syn::parse_quote!(::stitch)),
        ident: parsed.ident,
        generics: parsed.generics,
        tool_name,
        flatten: parsed.flatten.unwrap_or(true),
        profile,
        refine: parsed.refine,
        body,
    };
    errors.finish_with(contract).map_err(Invalid::Errors)
}

/// A struct: an object of named fields, or a newtype's (or a transparent struct's) one field.
fn struct_body(
    fields: ast::Fields<crate::parse::FieldInput>,
    style: serde_derive_internals::ast::Style,
    serde: SerdeFields<'_, '_>,
    input: &syn::DeriveInput,
    errors: &mut darling::error::Accumulator,
) -> Option<Body> {
    use serde_derive_internals::ast::Style;
    let transparent = serde.container.transparent();
    let reading = serde.direction == Direction::Deserialize;
    match style {
        Style::Struct => {
            let deny_unknown = reading && serde.container.deny_unknown_fields();
            let object = fields::object(fields.fields, serde, deny_unknown, errors);
            if !transparent {
                return Some(Body::Object(object));
            }
            // serde holds a transparent struct to one field that is not skipped.
            let field = object.fields.into_iter().next()?;
            Some(Body::Transparent {
                field: Box::new(field),
                newtype: false,
            })
        }
        Style::Newtype => {
            let input_field = fields.fields.into_iter().next()?;
            let serde_field = serde.fields.first()?;
            let field = fields::field(input_field, serde_field, &serde, String::new(), errors);
            Some(Body::Transparent {
                field: Box::new(field),
                // A newtype struct is transparent on the wire, except that serde requires its
                // key even when it wraps an `Option`; `#[serde(transparent)]` does not.
                newtype: !transparent,
            })
        }
        Style::Tuple | Style::Unit => {
            errors.push(
                Error::custom(
                    "stitch describes structs with named fields and newtype structs; a tuple or \
                     unit struct has no object shape a model can fill",
                )
                .with_span(&input.ident),
            );
            None
        }
    }
}
