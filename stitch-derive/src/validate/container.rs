//! What is decided of the type as a whole: the tool's name (the shared rule), the checks the
//! guard makes at compile time, what only a tool's input can ask for, and the serde shapes of
//! a type no schema can follow.

use darling::Error;
use darling::error::Accumulator;
use darling::util::Flag;
use proc_macro2::Span;
use serde_derive_internals::attr;
use stitch_rules::{Dialect, NameProblem, name_problem};
use syn::LitStr;
use syn::spanned::Spanned;

use super::serde::Direction;
use crate::model::{Body, Profile, Tagging};
use crate::parse::{ContainerInput, serde_key_span};

/// The tool's name, as written or derived from the type's, checked either way (at the span
/// of what produced it).
pub fn tool_name(input: &ContainerInput, errors: &mut Accumulator) -> String {
    if let Some(name) = &input.name {
        let value = name.value();
        if let Err(why) = check_tool_name(&value) {
            errors.push(Error::custom(why).with_span(name));
        }
        return value;
    }
    let value = default_tool_name(&input.ident);
    if let Err(why) = check_tool_name(&value) {
        errors.push(
            Error::custom(format!(
                "{why}; this name is derived from the type's name: name the tool with \
                 `#[contract(name = \"...\")]`"
            ))
            .with_span(&input.ident),
        );
    }
    value
}

/// The type's name in snake_case, as serde's `rename_all = "snake_case"` writes a variant.
pub fn default_tool_name(ident: &syn::Ident) -> String {
    let name = ident.to_string();
    attr::RenameRule::SnakeCase.apply_to_variant(name.trim_start_matches("r#"))
}

/// The tool-name rule (`stitch_rules::name_problem`), said with the name and what breaks it.
fn check_tool_name(name: &str) -> Result<(), String> {
    match name_problem(name) {
        None => Ok(()),
        Some(problem @ NameProblem::Length) => Err(format!(
            "the tool name `{name}` {} (it has {})",
            problem.requirement(),
            name.len()
        )),
        Some(problem @ NameProblem::Character { at }) => {
            let found = name[at..].chars().next().unwrap_or_default();
            Err(format!(
                "the tool name `{name}` {} (found {found:?}): MCP clients reject other names",
                problem.requirement()
            ))
        }
    }
}

/// The checks the contract asks of the guard, at compile time.
pub fn profile(input: &ContainerInput, tool_name: &str, errors: &mut Accumulator) -> Profile {
    let check_span = flag_span(&input.require_typed_properties)
        .or_else(|| flag_span(&input.require_portable_formats));
    let dialects_span = (!input.check_dialects.is_empty()).then(|| input.check_dialects.span());
    for span in [check_span, dialects_span].into_iter().flatten() {
        if !input.generics.params.is_empty() {
            errors.push(
                Error::custom(
                    "the compile-time guard needs a non-generic contract: check a generic one \
                     at run time with `stitch::guard::check` when the server mounts it",
                )
                .with_span(&span),
            );
        }
    }
    let dialects = input
        .check_dialects
        .iter()
        .filter_map(|name| match Dialect::named(&name.value()) {
            Some(dialect) => Some(dialect),
            None => {
                let known: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
                errors.push(
                    Error::custom(format!(
                        "unknown dialect `{}`: the dialects are {}",
                        name.value(),
                        known.join(", ")
                    ))
                    .with_span(name),
                );
                None
            }
        })
        .collect();
    Profile {
        require_typed_properties: input.require_typed_properties.is_present(),
        allow_untyped: input
            .allow_untyped
            .iter()
            .map(|path| format!("{tool_name}.{}", path.value()))
            .collect(),
        require_portable_formats: input.require_portable_formats.is_present(),
        allow_formats: input.allow_formats.iter().map(|f| f.value()).collect(),
        check_span,
        dialects,
        dialects_span,
    }
}

/// `#[contract(hints = "...")]`: where a union's flat schema says which operations take which
/// key. Only a union whose operations share one object of keys has hints to place.
pub fn hints(hints: &LitStr, body: Option<&mut Body>, errors: &mut Accumulator) {
    let by_operation = match hints.value().as_str() {
        "by_key" => false,
        "by_operation" => true,
        other => {
            errors.push(
                Error::custom(format!(
                    "unknown hints `{other}`: `by_key` (the default: each key names the \
                     operations that take it) or `by_operation` (each operation names its keys, \
                     once, in the tag's description)"
                ))
                .with_span(hints),
            );
            return;
        }
    };
    match body {
        Some(Body::Union(union)) if !matches!(union.tagging, Tagging::External) => {
            union.hints_by_operation = by_operation;
        }
        // The body's own errors are reported already.
        None => {}
        Some(_) => errors.push(
            Error::custom(
                "`hints` places the hints of a tagged enum's flat schema (`#[serde(tag = \
                 \"op\")]`); this type has none: each operation of an externally tagged enum \
                 is its own key, and a struct's keys are its own",
            )
            .with_span(hints),
        ),
    }
}

/// What only a contract (a tool's input) can ask for, on a type deriving `Shape` alone.
pub fn reject_contract_attributes(input: &ContainerInput, errors: &mut Accumulator) {
    let contract_only = [
        ("name", input.name.as_ref().map(|name| name.span())),
        (
            "require_typed_properties",
            flag_span(&input.require_typed_properties),
        ),
        (
            "require_portable_formats",
            flag_span(&input.require_portable_formats),
        ),
        ("refine", input.refine.as_ref().map(|path| path.span())),
        (
            "check_dialects",
            (!input.check_dialects.is_empty()).then(|| input.check_dialects.span()),
        ),
    ];
    for (attribute, span) in contract_only {
        if let Some(span) = span {
            errors.push(
                Error::custom(format!(
                    "`{attribute}` is for a tool's input: derive `stitch::Contract` (with \
                     `serde::Deserialize`) for it; `#[derive(stitch::Shape)]` describes an \
                     output"
                ))
                .with_span(&span),
            );
        }
    }
}

/// The serde attributes of a type that change its wire shape in a way no schema follows.
pub fn reject_container_serde(
    serde: &attr::Container,
    input: &syn::DeriveInput,
    direction: Direction,
    errors: &mut Accumulator,
) {
    let reading = direction == Direction::Deserialize;
    let converting = [
        ("from", reading && serde.type_from().is_some()),
        ("try_from", reading && serde.type_try_from().is_some()),
        ("into", !reading && serde.type_into().is_some()),
        ("remote", serde.remote().is_some()),
        (
            "field_identifier",
            matches!(serde.identifier(), attr::Identifier::Field),
        ),
        (
            "variant_identifier",
            matches!(serde.identifier(), attr::Identifier::Variant),
        ),
    ];
    for (key, present) in converting {
        if present {
            errors.push(unsupported_serde(key, &input.attrs, input.ident.span()));
        }
    }
    if !reading && let Some(key) = super::serde::container_read_only_when_deserializing(serde) {
        let span = crate::parse::serde_key_span(&input.attrs, key).unwrap_or(input.ident.span());
        errors.push(Error::custom(super::serde::read_only_message(key)).with_span(&span));
    }
}

/// `#[serde(key)]` changes the wire shape in a way the schema cannot follow.
pub fn unsupported_serde(key: &str, attrs: &[syn::Attribute], fallback: Span) -> Error {
    Error::custom(format!(
        "stitch cannot describe `#[serde({key})]`: it changes the wire shape in a way the \
         schema cannot follow"
    ))
    .with_span(&serde_key_span(attrs, key).unwrap_or(fallback))
}

pub fn flag_span(flag: &Flag) -> Option<Span> {
    flag.is_present().then(|| flag.span())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_break_the_rule_in_words_that_show_where() {
        assert_eq!(
            check_tool_name("broadcast patch!").unwrap_err(),
            "the tool name `broadcast patch!` may only contain ASCII letters, digits, `_` and \
             `-` (found ' '): MCP clients reject other names"
        );
        assert_eq!(
            check_tool_name("").unwrap_err(),
            "the tool name `` must be 1 to 64 characters long (it has 0)"
        );
        assert!(check_tool_name("broadcast_patch").is_ok());
    }

    #[test]
    fn the_default_name_is_the_type_name_in_snake_case() {
        let name = |ident: &str| default_tool_name(&syn::Ident::new(ident, Span::call_site()));
        assert_eq!(name("BroadcastPatch"), "broadcast_patch");
        assert_eq!(name("Größe"), "größe");
    }
}
