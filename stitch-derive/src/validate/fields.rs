//! A field: its wire name and aliases (serde's), its description, where its schema comes from,
//! and the attributes applied to it, each checked where the spelling of its type tells enough
//! (by the shared fit rule) and against the others (contradictions).

use darling::Error;
use darling::error::Accumulator;
use proc_macro2::Span;
use quote::ToTokens;
use serde_derive_internals::{ast, attr};
use stitch_rules::{Attribute, GivenValue, KNOWN_FORMATS, Keyword, check_fit};

use super::serde::{self as serde_view, Direction};
use super::written::{Written, holds_wide_integer, spelled};
use crate::doc;
use crate::model::{Field, Object, Source, Step, StepValue};
use crate::parse::{AttributeValue, FieldAttribute, FieldInput, serde_key_span};

/// The serde side of a list of fields: the container's attributes, and each field's.
pub struct SerdeFields<'s, 'a> {
    pub container: &'s attr::Container,
    pub fields: &'s [ast::Field<'a>],
    pub direction: Direction,
    /// The formats the contract allows beyond those stitch knows (`allow_formats`).
    pub allowed_formats: &'s [String],
    /// Whether the type is generic (its flattened fields could not be counted).
    pub generic: bool,
}

/// The fields of an object (a struct, or an operation), skipped ones left out.
pub fn object(
    inputs: Vec<FieldInput>,
    serde: SerdeFields<'_, '_>,
    deny_unknown: bool,
    errors: &mut Accumulator,
) -> Object {
    let mut fields: Vec<Field> = Vec::new();
    for (input, serde_field) in inputs.into_iter().zip(serde.fields) {
        if serde_view::field_skipped(&serde_field.attrs, serde.direction) {
            continue;
        }
        let wire = serde_view::name(serde_field.attrs.name(), serde.direction);
        let flatten = serde_field.attrs.flatten();
        if !flatten
            && fields
                .iter()
                .any(|field| !field.flatten && field.wire == wire)
        {
            let at = input
                .ident
                .as_ref()
                .map_or(Span::call_site(), syn::Ident::span);
            errors.push(
                Error::custom(format!("two fields are named `{wire}` on the wire")).with_span(&at),
            );
        }
        fields.push(field(input, serde_field, &serde, wire, errors));
    }
    Object {
        fields,
        deny_unknown,
    }
}

/// One field, on the wire as `wire`.
pub fn field(
    input: FieldInput,
    serde_field: &ast::Field<'_>,
    serde: &SerdeFields<'_, '_>,
    wire: String,
    errors: &mut Accumulator,
) -> Field {
    let attrs = &serde_field.attrs;
    let direction = serde.direction;
    reject_field_serde(&input, serde_field, direction, errors);
    if attrs.flatten() {
        check_flatten(&input, serde_field, serde, errors);
    }
    let source = source(&input, errors);
    if matches!(source, Source::Type)
        && let Some((feature, written)) =
            super::features::missing(&input.ty, &super::features::enabled)
    {
        errors
            .push(Error::custom(super::features::message(feature, &written)).with_span(&input.ty));
    }
    let mut steps = steps(&input, serde.allowed_formats, errors);
    steps.sort_by_key(|step| {
        Attribute::ALL
            .iter()
            .position(|attribute| *attribute == step.attribute)
    });
    check_fits(&source, &input, &steps, &wire, errors);
    super::fallback::check(&steps, errors);
    let description = match input.given.get(Attribute::Description) {
        Some(FieldAttribute {
            value: AttributeValue::Text(text),
            ..
        }) => Some(text.value()),
        _ => doc::description(&input.attrs),
    };
    let refine = match input.given.get(Attribute::Refine) {
        Some(FieldAttribute {
            value: AttributeValue::Path(path),
            ..
        }) => Some(path.clone()),
        _ => None,
    };
    // The field's own type is walked once for both facts.
    let (holds_no_wide_integer, type_is_standard) = match &source {
        Source::Type => {
            let spelled = spelled(&input.ty);
            (spelled.standard && !spelled.wide, spelled.standard)
        }
        Source::Via(ty) => (holds_wide_integer(ty) == Some(false), false),
        Source::Opaque => (true, false),
    };
    Field {
        member: serde_field.member.clone(),
        aliases: serde_view::aliases(attrs.name(), attrs.aliases(), direction),
        wire,
        ty_spelling: input.ty.to_token_stream().to_string(),
        ty: input.ty,
        description,
        has_default: serde_view::may_be_missing(attrs, serde.container, direction),
        source,
        steps,
        refine,
        flatten: attrs.flatten(),
        holds_no_wide_integer,
        type_is_standard,
    }
}

/// Whether each attribute fits the field's type as written (the rule the runtime applies to
/// the types only a shape knows), and that an `opaque` field carries nothing visible: each
/// misfit an error at its attribute.
fn check_fits(
    source: &Source,
    input: &FieldInput,
    steps: &[Step],
    wire: &str,
    errors: &mut Accumulator,
) {
    let written = match source {
        Source::Type => Written::of(&input.ty),
        Source::Via(ty) => Written::of(ty),
        Source::Opaque => None,
    };
    if let Some(written) = written {
        for step in steps {
            let given = match &step.value {
                StepValue::Bound {
                    json,
                    value,
                    integral,
                } => GivenValue::Bound {
                    text: json,
                    value: *value,
                    integral: *integral,
                },
                _ => GivenValue::Other,
            };
            let fit = check_fit(step.attribute, written.class, written.optional, given, wire);
            if let Err(misfit) = fit {
                errors.push(Error::custom(misfit.message().as_str()).with_span(&step.span));
            }
        }
    }
    if matches!(source, Source::Opaque) {
        for step in steps.iter().filter(|step| !is_hidden(step.attribute)) {
            errors.push(
                Error::custom(
                    "an `opaque` field is advertised as `{}`: it cannot carry visible \
                     constraints or hazards",
                )
                .with_span(&step.span),
            );
        }
    }
}

/// What a flattened field may not be: in a generic type (constant evaluation counts the keys
/// it brings, which a generic type's cannot be), beside `deny_unknown_fields` (serde then
/// refuses every key), or given attributes of its own (its keys are its type's).
fn check_flatten(
    input: &FieldInput,
    serde_field: &ast::Field<'_>,
    serde: &SerdeFields<'_, '_>,
    errors: &mut Accumulator,
) {
    let at = serde_key_span(&serde_field.original.attrs, "flatten").unwrap_or_else(|| {
        input
            .ident
            .as_ref()
            .map_or(Span::call_site(), syn::Ident::span)
    });
    if serde.generic {
        errors.push(
            Error::custom(
                "stitch cannot flatten a field of a generic type: the keys it brings are \
                 counted at compile time, which a generic type's cannot be; declare the \
                 fields here, or flatten in a type without generic parameters",
            )
            .with_span(&at),
        );
    }
    if serde.container.deny_unknown_fields() {
        errors.push(
            Error::custom(
                "serde refuses every key of a flattened field under `deny_unknown_fields`: \
                 remove one of the two",
            )
            .with_span(&at),
        );
    }
    for given in &input.given.0 {
        if given.attribute != Attribute::Refine && given.attribute != Attribute::Description {
            errors.push(
                Error::custom(
                    "a flattened field takes no `#[contract(...)]` of its own: its keys are \
                     its type's; put the attributes on that type's fields",
                )
                .with_span(&given.span),
            );
        }
    }
}

/// A check JSON Schema cannot show: the only attributes an `opaque` field may carry.
fn is_hidden(attribute: Attribute) -> bool {
    matches!(
        attribute,
        Attribute::Trim
            | Attribute::Lowercase
            | Attribute::Uppercase
            | Attribute::Refine
            | Attribute::Via
    )
}

/// The serde attributes of a field that change its wire shape in a way no schema follows.
fn reject_field_serde(
    input: &FieldInput,
    serde_field: &ast::Field<'_>,
    direction: Direction,
    errors: &mut Accumulator,
) {
    let (attrs, written) = (&serde_field.attrs, &serde_field.original.attrs);
    let at = input
        .ident
        .as_ref()
        .map_or(Span::call_site(), syn::Ident::span);
    if direction == Direction::Serialize
        && let Some(key) = serde_view::read_only_when_deserializing(attrs)
    {
        let span = serde_key_span(written, key).unwrap_or(at);
        errors.push(Error::custom(serde_view::read_only_message(key)).with_span(&span));
    }
    if serde_view::converted(attrs, direction) && !input.given.has(Attribute::Via) {
        let span = ["deserialize_with", "serialize_with", "with"]
            .into_iter()
            .find_map(|key| serde_key_span(written, key))
            .unwrap_or(at);
        errors.push(
            Error::custom(
                "`deserialize_with`/`with` changes what JSON this field reads, which stitch \
                 cannot see: add `#[contract(via = Type)]` naming the type the JSON has",
            )
            .with_span(&span),
        );
    }
}

/// A format stitch knows or the contract allows; else the error, naming the closest known.
fn known_format(format: &str, allowed: &[String]) -> Result<(), String> {
    if KNOWN_FORMATS.contains(&format) || allowed.iter().any(|name| name == format) {
        return Ok(());
    }
    let closest = KNOWN_FORMATS
        .iter()
        .map(|known| (strsim::jaro_winkler(format, known), *known))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .filter(|(likeness, _)| *likeness > 0.8)
        .map(|(_, known)| format!(" (did you mean `{known}`?)"))
        .unwrap_or_default();
    Err(format!(
        "`{format}` is not a format stitch knows{closest}. A format of your own is advertised \
         as it is and checked by nothing: list it in the contract's \
         `allow_formats(\"{format}\")` (known: {})",
        KNOWN_FORMATS.join(", ")
    ))
}

/// Where the field's schema comes from: its type, `via = Type`, or `opaque`.
fn source(input: &FieldInput, errors: &mut Accumulator) -> Source {
    let via = input.given.get(Attribute::Via);
    match (via, input.given.has(Attribute::Opaque)) {
        (Some(via), true) => {
            errors.push(
                Error::custom("`via` and `opaque` contradict each other: choose one")
                    .with_span(&via.span),
            );
            Source::Opaque
        }
        (
            Some(FieldAttribute {
                value: AttributeValue::Type(ty),
                ..
            }),
            false,
        ) => Source::Via(Box::new(ty.clone())),
        (_, true) => Source::Opaque,
        _ => Source::Type,
    }
}

/// The attributes that shape the field's schema, as steps.
fn steps(input: &FieldInput, allowed_formats: &[String], errors: &mut Accumulator) -> Vec<Step> {
    let mut steps = Vec::new();
    for given in &input.given.0 {
        let value = match &given.value {
            AttributeValue::Bound(number) => StepValue::Bound {
                json: number.json.clone(),
                value: number.value,
                integral: number.integral,
            },
            AttributeValue::Count(count) => StepValue::Count(*count),
            AttributeValue::Text(text) => match given.attribute {
                Attribute::Keyword(Keyword::Pattern) => {
                    match stitch_rules::pattern::compiled(&text.value()) {
                        Ok(_) => StepValue::Text(text.value()),
                        Err(why) => {
                            errors.push(Error::custom(why).with_span(text));
                            continue;
                        }
                    }
                }
                Attribute::Keyword(Keyword::Format) => {
                    let format = text.value();
                    if let Err(why) = known_format(&format, allowed_formats) {
                        errors.push(Error::custom(why).with_span(text));
                        continue;
                    }
                    StepValue::Text(format)
                }
                Attribute::Keyword(_) => StepValue::Text(text.value()),
                _ => continue,
            },
            AttributeValue::Texts(texts) => {
                StepValue::Texts(texts.iter().map(syn::LitStr::value).collect())
            }
            AttributeValue::Flag | AttributeValue::Path(_) | AttributeValue::Type(_) => {
                if given.attribute == Attribute::Opaque {
                    continue;
                }
                StepValue::Flag
            }
            AttributeValue::Expr(expr) => StepValue::Catch(expr.clone()),
        };
        steps.push(Step {
            span: given.span,
            attribute: given.attribute,
            value,
        });
    }
    if let (true, Some(upper)) = (
        input.given.has(Attribute::Lowercase),
        input.given.get(Attribute::Uppercase),
    ) {
        errors.push(
            Error::custom("`lowercase` and `uppercase` contradict each other: choose one")
                .with_span(&upper.span),
        );
    }
    steps
}
