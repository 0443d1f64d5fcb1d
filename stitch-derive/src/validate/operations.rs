//! Enums: a unit-only enum is a string limited to its variants' names; a tagged enum is a
//! union of operations, each a unit, a struct, or a newtype (of a struct, but in an externally
//! tagged enum, whose operations hold any value). An untagged enum is refused, at the
//! attribute that chose it: a model needs a tag to choose the operation.

use darling::error::Accumulator;
use darling::{Error, ast as darling_ast};
use serde_derive_internals::{ast, attr};

use super::container::unsupported_serde;
use super::fields::{SerdeFields, object};
use super::serde::{self as serde_view, Direction};
use super::written::holds_wide_integer;
use crate::doc;
use crate::model::{Body, Source, Tagging, Union, Variant, VariantBody};
use crate::parse::{VariantInput, serde_key_span};

/// An enum's body, by serde's representation of it.
pub fn enum_body(
    inputs: Vec<VariantInput>,
    variants: &[ast::Variant<'_>],
    container: &attr::Container,
    input: &syn::DeriveInput,
    (direction, allowed_formats): (Direction, &[String]),
    errors: &mut Accumulator,
) -> Option<Body> {
    let refuse = |key: &str, why: &str| {
        let span = serde_key_span(&input.attrs, key).unwrap_or(input.ident.span());
        Error::custom(why).with_span(&span)
    };
    let tagging = match container.tag() {
        attr::TagType::Internal { tag } => Tagging::Internal {
            tag: tag.to_owned(),
        },
        attr::TagType::External
            if variants
                .iter()
                .all(|variant| matches!(variant.style, ast::Style::Unit)) =>
        {
            return Some(unit_enum(&inputs, variants, input, direction, errors));
        }
        attr::TagType::External => Tagging::External,
        attr::TagType::Adjacent { tag, content } => Tagging::Adjacent {
            tag: tag.to_owned(),
            content: content.to_owned(),
        },
        attr::TagType::None => {
            errors.push(refuse(
                "untagged",
                "stitch cannot describe `#[serde(untagged)]`: a model needs a tag to choose the \
                 operation; use `#[serde(tag = \"op\")]`",
            ));
            return None;
        }
    };
    Some(Body::Union(operations(
        inputs,
        variants,
        container,
        tagging,
        input,
        (direction, allowed_formats),
        errors,
    )))
}

/// A unit-only enum: a string limited to its variants' names, with the aliases serde reads
/// for each (which parse refuses, naming the value to send), and what each documented value
/// means (`gray: A light shade; black: The darkest.`: each variant's summary line).
fn unit_enum(
    inputs: &[VariantInput],
    variants: &[ast::Variant<'_>],
    input: &syn::DeriveInput,
    direction: Direction,
    errors: &mut Accumulator,
) -> Body {
    let mut names: Vec<String> = Vec::new();
    let mut aliases: Vec<(String, String)> = Vec::new();
    let mut meanings: Vec<String> = Vec::new();
    for (variant_input, variant) in inputs.iter().zip(variants) {
        if serde_view::variant_skipped(&variant.attrs, direction) {
            continue;
        }
        let wire = serde_view::name(variant.attrs.name(), direction);
        let description = variant_input
            .description
            .clone()
            .or_else(|| doc::description(&variant_input.attrs));
        if let Some(meaning) = description.as_deref().and_then(stitch_rules::doc::summary) {
            meanings.push(format!("{wire}: {meaning}"));
        }
        let spellings =
            serde_view::aliases(variant.attrs.name(), variant.attrs.aliases(), direction);
        aliases.extend(spellings.into_iter().map(|alias| (alias, wire.clone())));
        push_unique_tag(&mut names, wire, &variant.ident, errors);
    }
    if names.is_empty() {
        errors.push(
            Error::custom(
                "an enum without variants accepts no value, and its schema could not be \
                 written: give it a variant",
            )
            .with_span(&input.ident),
        );
    }
    let meanings = (!meanings.is_empty()).then(|| format!("{}.", meanings.join("; ")));
    Body::UnitEnum {
        names,
        aliases,
        meanings,
    }
}

/// What one operation holds: its fields (an object), a newtype's type, or nothing.
fn body(
    variant_input: VariantInput,
    variant: &ast::Variant<'_>,
    wire: &str,
    (container, tagging, generic, direction, allowed_formats): (
        &attr::Container,
        &Tagging,
        bool,
        Direction,
        &[String],
    ),
    errors: &mut Accumulator,
) -> VariantBody {
    match variant.style {
        ast::Style::Struct => {
            let serde = SerdeFields {
                container,
                fields: &variant.fields,
                direction,
                allowed_formats,
                generic,
            };
            let fields = match variant_input.fields.style {
                darling_ast::Style::Struct => variant_input.fields.fields,
                _ => Vec::new(),
            };
            let deny_unknown = container.deny_unknown_fields();
            let object = object(fields, serde, deny_unknown, errors);
            if !matches!(tagging, Tagging::External) {
                refuse_wide_integers(&object, wire, errors);
            }
            VariantBody::Struct(object)
        }
        ast::Style::Newtype => VariantBody::Newtype(Box::new(variant.fields[0].ty.clone())),
        // A tuple operation in an internally tagged enum: serde reports it.
        ast::Style::Tuple if matches!(tagging, Tagging::Internal { .. }) => VariantBody::Unit,
        ast::Style::Tuple => {
            errors.push(
                Error::custom(
                    "stitch cannot describe a tuple operation (serde reads it as an array \
                     of unnamed values a model cannot tell apart): name its fields, or \
                     wrap them in a struct",
                )
                .with_span(&variant.ident),
            );
            VariantBody::Unit
        }
        ast::Style::Unit => VariantBody::Unit,
    }
}

/// A tagged enum: its operations.
fn operations(
    inputs: Vec<VariantInput>,
    variants: &[ast::Variant<'_>],
    container: &attr::Container,
    tagging: Tagging,
    input: &syn::DeriveInput,
    (direction, allowed_formats): (Direction, &[String]),
    errors: &mut Accumulator,
) -> Union {
    let mut out: Vec<Variant> = Vec::new();
    let mut tags: Vec<String> = Vec::new();
    for (variant_input, variant) in inputs.into_iter().zip(variants) {
        reject_variant_serde(variant, direction, errors);
        if serde_view::variant_skipped(&variant.attrs, direction) {
            continue;
        }
        let wire = serde_view::name(variant.attrs.name(), direction);
        push_unique_tag(&mut tags, wire.clone(), &variant.ident, errors);
        let description = variant_input
            .description
            .clone()
            .or_else(|| doc::description(&variant_input.attrs));
        let generic = !input.generics.params.is_empty();
        let context = (container, &tagging, generic, direction, allowed_formats);
        let body = body(variant_input, variant, &wire, context, errors);
        out.push(Variant {
            ident: variant.ident.clone(),
            aliases: serde_view::aliases(variant.attrs.name(), variant.attrs.aliases(), direction),
            wire,
            description,
            body,
        });
    }
    if out.is_empty() {
        errors.push(
            Error::custom(
                "an enum of operations without an operation accepts no call, and its schema \
                 could not be written: give it an operation",
            )
            .with_span(&input.ident),
        );
    }
    Union {
        tagging,
        variants: out,
        hints_by_operation: false,
    }
}

/// The serde attributes of an operation that change its wire shape in a way no schema
/// follows.
fn reject_variant_serde(
    variant: &ast::Variant<'_>,
    direction: Direction,
    errors: &mut Accumulator,
) {
    let attrs = &variant.original.attrs;
    let at = variant.ident.span();
    if variant.attrs.other() {
        errors.push(unsupported_serde("other", attrs, at));
    }
    if variant.attrs.untagged() {
        errors.push(unsupported_serde("untagged", attrs, at));
    }
    if serde_view::variant_converted(&variant.attrs, direction) {
        let key = ["deserialize_with", "serialize_with", "with"]
            .into_iter()
            .find(|key| serde_key_span(attrs, key).is_some())
            .unwrap_or("with");
        errors.push(unsupported_serde(key, attrs, at));
    }
}

/// serde reads an internally or adjacently tagged operation through a buffer that holds no
/// 128-bit integer: a field whose type's spelling names one is refused here (constant
/// evaluation checks the types only their shapes know).
fn refuse_wide_integers(object: &crate::model::Object, operation: &str, errors: &mut Accumulator) {
    for field in &object.fields {
        let ty = match &field.source {
            Source::Type => &field.ty,
            Source::Via(ty) => ty,
            Source::Opaque => continue,
        };
        if holds_wide_integer(ty) == Some(true) {
            errors.push(
                Error::custom(format!(
                    "operation `{operation}` holds a 128-bit integer in `{}`: serde reads a \
                     tagged operation through a buffer that holds no 128-bit integer, so every \
                     call would fail; use `u64` or `i64` (JSON carries no wider integer), or \
                     `#[contract(via = String)]` with serde's conversion",
                    field.wire
                ))
                .with_span(ty),
            );
        }
    }
}

fn push_unique_tag(
    tags: &mut Vec<String>,
    wire: String,
    ident: &syn::Ident,
    errors: &mut Accumulator,
) {
    if tags.contains(&wire) {
        errors.push(
            Error::custom(format!("two operations are named `{wire}` on the wire"))
                .with_span(ident),
        );
    }
    tags.push(wire);
}
