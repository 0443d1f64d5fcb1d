//! Validation: turns the parsed attributes into the [`model`](crate::model), checking every
//! rule a schema depends on (serde attributes stitch cannot follow, enums that are not
//! internally tagged, tool names, patterns, duplicate wire names, conflicting attributes,
//! types that contain themselves). Every error is collected at its own span and reported
//! together.
//!
//! Checks that need the field's *type* (`min` on a string, `catch` on an `Option`) cannot be
//! made here, since a macro sees tokens, not types: they run in constant evaluation and fail
//! the build at the attribute's span (see `expand.rs`).

use darling::error::Accumulator;
use darling::util::{Flag, SpannedValue};
use darling::{Error, ast};
use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::case::{RenameRule, snake_case};
use crate::doc;
use crate::model::{
    Body, Contract, Count, Field, HiddenCheck, NumberBound, Object, Profile, Source, Step,
    StepKind, Union, Variant, VariantBody,
};
use crate::parse::{ContainerInput, Direction, FieldInput, NumberLit, SerdeAttrs, VariantInput};
use crate::pattern::check_pattern;

/// What a derive makes of a type: a contract (a tool's input, read by `Deserialize`), or the
/// shape of an output (written by `Serialize`, with `#[derive(Shape)]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Contract,
    Output,
}

/// Validates a parsed input, returning the model or every error found.
pub fn validate(input: ContainerInput, purpose: Purpose) -> Result<Contract, Error> {
    let mut errors = Error::accumulator();
    let direction = match purpose {
        Purpose::Contract => Direction::Deserialize,
        Purpose::Output => Direction::Serialize,
    };
    let serde = SerdeAttrs::read(&input.attrs, direction, &mut errors);
    reject_container_serde(&serde, &mut errors);
    let tool_name = match purpose {
        Purpose::Contract => tool_name(&input, &mut errors),
        Purpose::Output => {
            reject_contract_attributes(&input, &mut errors);
            snake_case(&input.ident.to_string())
        }
    };
    let profile = profile(&input, &tool_name, &mut errors);
    let body = match input.data {
        ast::Data::Struct(fields) => {
            struct_body(fields, &serde, direction, &input.ident, &mut errors)
        }
        ast::Data::Enum(variants) => {
            enum_body(variants, &serde, direction, &input.ident, &mut errors)
        }
    };
    reject_self_reference(&body, &input.ident, &mut errors);
    let contract = Contract {
        description: input
            .description
            .clone()
            .or_else(|| doc::description(&input.attrs)),
        krate: input.krate.unwrap_or_else(|| syn::parse_quote!(::stitch)),
        ident: input.ident,
        generics: input.generics,
        tool_name,
        flatten: input.flatten.unwrap_or(true),
        profile,
        refine: input.refine,
        body,
    };
    errors.finish_with(contract)
}

/// What only a contract (a tool's input) can ask for, on a type deriving `Shape` alone.
fn reject_contract_attributes(input: &ContainerInput, errors: &mut Accumulator) {
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
fn reject_container_serde(serde: &SerdeAttrs, errors: &mut Accumulator) {
    reject_unsupported(serde, errors);
    if let Some(span) = serde.untagged {
        errors.push(
            Error::custom(
                "stitch cannot describe `#[serde(untagged)]`: a model needs a tag to choose the \
                 operation; use `#[serde(tag = \"op\")]`",
            )
            .with_span(&span),
        );
    }
    if let Some(span) = serde.content {
        errors.push(
            Error::custom(
                "stitch cannot describe adjacently tagged enums (`#[serde(content = ...)]`): \
                 remove `content` to make the enum internally tagged",
            )
            .with_span(&span),
        );
    }
}

fn reject_unsupported(serde: &SerdeAttrs, errors: &mut Accumulator) {
    for (key, span) in &serde.unsupported {
        errors.push(
            Error::custom(format!(
                "stitch cannot describe `#[serde({key})]`: it changes the wire shape in a way \
                 the schema cannot follow"
            ))
            .with_span(span),
        );
    }
}

/// The tool's name, as written or derived from the type's, checked either way (at the span
/// of what produced it).
fn tool_name(input: &ContainerInput, errors: &mut Accumulator) -> String {
    if let Some(name) = &input.name {
        let value = name.value();
        if let Err(why) = check_tool_name(&value) {
            errors.push(Error::custom(why).with_span(name));
        }
        return value;
    }
    let value = snake_case(&input.ident.to_string());
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

/// The tool name rule, `^[a-zA-Z0-9_-]{1,64}$`: the runtime guard's `name_problem` checks
/// the same, and `tests/guard.rs` holds both to the same names.
fn check_tool_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > 64 {
        return Err(format!(
            "the tool name `{name}` must be 1 to 64 characters long (it has {})",
            name.len()
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(format!(
            "the tool name `{name}` may only contain ASCII letters, digits, `_` and `-` \
             (found {bad:?}): MCP clients reject other names"
        ));
    }
    Ok(())
}

/// The checks the contract asks of the guard, at compile time.
fn profile(input: &ContainerInput, tool_name: &str, errors: &mut Accumulator) -> Profile {
    let check_span = flag_span(&input.require_typed_properties)
        .or_else(|| flag_span(&input.require_portable_formats));
    if let (Some(span), false) = (check_span, input.generics.params.is_empty()) {
        errors.push(
            Error::custom(
                "the compile-time guard needs a non-generic contract: check a generic one at \
                 run time with `stitch::validate_mcp_schemas` when the server mounts it",
            )
            .with_span(&span),
        );
    }
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
    }
}

/// A field whose type names the contract itself (`Box<Node>` in `Node`): the schema would
/// be infinite without `$ref`, which clients fail to resolve. (An indirect cycle through
/// another type is reported by rustc as a cycle in `SHAPE`.)
fn reject_self_reference(body: &Body, ident: &syn::Ident, errors: &mut Accumulator) {
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

/// The rule a `rename_all` names; an unknown one is left to serde, which reports it.
fn rename_rule(rule: Option<&String>) -> Option<RenameRule> {
    RenameRule::from_name(rule?)
}

/// A body that stands in where the input had errors (never expanded: the errors are).
fn no_body() -> Body {
    Body::Object(Object {
        fields: Vec::new(),
        deny_unknown: false,
    })
}

fn struct_body(
    fields: ast::Fields<FieldInput>,
    serde: &SerdeAttrs,
    direction: Direction,
    ident: &syn::Ident,
    errors: &mut Accumulator,
) -> Body {
    let rename_all = rename_rule(serde.rename_all.as_ref());
    match fields.style {
        ast::Style::Struct => {
            let object = object(
                fields.fields,
                rename_all,
                serde.default.is_some(),
                serde.deny_unknown_fields,
                direction,
                errors,
            );
            if serde.transparent.is_none() {
                return Body::Object(object);
            }
            let mut fields = object.fields.into_iter();
            if let (Some(only), None) = (fields.next(), fields.next()) {
                return Body::Transparent {
                    field: Box::new(only),
                    newtype: false,
                };
            }
            errors.push(
                Error::custom("`#[serde(transparent)]` needs exactly one field").with_span(ident),
            );
            no_body()
        }
        ast::Style::Tuple if fields.fields.len() == 1 => {
            let field = fields.fields.into_iter().next().expect("one field");
            let field_serde = SerdeAttrs::read(&field.attrs, direction, errors);
            let member = syn::Member::Unnamed(syn::Index::from(0));
            let field = self::field(field, field_serde, member, String::new(), false, errors);
            Body::Transparent {
                field: Box::new(field),
                // A newtype struct is transparent on the wire, except that serde requires its
                // key even when it wraps an `Option`; `#[serde(transparent)]` does not.
                newtype: serde.transparent.is_none(),
            }
        }
        _ => {
            errors.push(
                Error::custom(
                    "stitch describes structs with named fields and newtype structs; a tuple or \
                     unit struct has no object shape a model can fill",
                )
                .with_span(ident),
            );
            no_body()
        }
    }
}

fn object(
    inputs: Vec<FieldInput>,
    rename_all: Option<RenameRule>,
    container_default: bool,
    deny_unknown: bool,
    direction: Direction,
    errors: &mut Accumulator,
) -> Object {
    let mut fields: Vec<Field> = Vec::new();
    for input in inputs {
        let serde = SerdeAttrs::read(&input.attrs, direction, errors);
        if serde.skip.is_some() {
            continue;
        }
        let ident = input.ident.clone().expect("named field");
        let name = ident.to_string().trim_start_matches("r#").to_owned();
        let wire = match (&serde.rename, rename_all) {
            (Some(rename), _) => rename.clone(),
            (None, Some(rule)) => rule.apply_to_field(&name),
            (None, None) => name,
        };
        if fields.iter().any(|field| field.wire == wire) {
            errors.push(
                Error::custom(format!("two fields are named `{wire}` on the wire"))
                    .with_span(&ident),
            );
        }
        let has_default = container_default || serde.default.is_some();
        let member = syn::Member::Named(ident);
        fields.push(field(input, serde, member, wire, has_default, errors));
    }
    Object {
        fields,
        deny_unknown,
    }
}

fn field(
    input: FieldInput,
    serde: SerdeAttrs,
    member: syn::Member,
    wire: String,
    has_default: bool,
    errors: &mut Accumulator,
) -> Field {
    reject_field_serde(&serde, &input, errors);
    let source = source(&input, errors);
    let mut steps = Vec::new();
    number_steps(&input, &mut steps);
    count_steps(&input, &mut steps);
    string_steps(&input, &mut steps, errors);
    hidden_steps(&input, &mut steps, errors);
    hazard_steps(&input, &mut steps);
    let written = match &source {
        Source::Type => WrittenKind::of(&input.ty),
        Source::Via(ty) => WrittenKind::of(ty),
        Source::Opaque => None,
    };
    if let Some(written) = written {
        for step in &steps {
            if let Err(why) = written.accepts(&step.kind, &wire) {
                errors.push(Error::custom(why).with_span(&step.span));
            }
        }
    }
    if matches!(source, Source::Opaque) {
        for step in steps
            .iter()
            .filter(|s| !matches!(s.kind, StepKind::Hidden(_)))
        {
            errors.push(
                Error::custom(
                    "an `opaque` field is advertised as `{}`: it cannot carry visible \
                     constraints or hazards",
                )
                .with_span(&step.span),
            );
        }
    }
    Field {
        member,
        wire,
        aliases: serde.aliases,
        description: input
            .description
            .clone()
            .or_else(|| doc::description(&input.attrs)),
        ty: input.ty,
        has_default,
        source,
        steps,
        refine: input.refine,
    }
}

/// The serde attributes of a field that change its wire shape in a way no schema follows.
fn reject_field_serde(serde: &SerdeAttrs, input: &FieldInput, errors: &mut Accumulator) {
    reject_unsupported(serde, errors);
    if let Some(span) = serde.flatten {
        errors.push(
            Error::custom(
                "stitch cannot describe `#[serde(flatten)]`: the flattened keys are only known to \
                 serde at run time; declare the fields here, or make the inner type a newtype \
                 operation of a tagged enum",
            )
            .with_span(&span),
        );
    }
    if let (Some(span), None) = (serde.deserialize_with, &input.via) {
        errors.push(
            Error::custom(
                "`deserialize_with`/`with` changes what JSON this field reads, which stitch cannot \
                 see: add `#[contract(via = Type)]` naming the type the JSON has",
            )
            .with_span(&span),
        );
    }
}

/// What a field's type is, as far as its spelling tells: the standard scalars, strings,
/// sequences and maps, through `Option`, `Box`, `Rc` and `Arc`. The derive refuses an
/// attribute that does not fit such a type itself, with every other error of the input; for
/// any other type only its shape knows, and constant evaluation refuses the misfit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WrittenKind {
    kind: Written,
    /// Written as `Option<...>`.
    optional: bool,
}

/// A kind the spelling of a type tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Written {
    Integer,
    Number,
    String,
    Boolean,
    Array,
    Map,
}

impl WrittenKind {
    fn of(ty: &syn::Type) -> Option<WrittenKind> {
        let kind = match ty {
            syn::Type::Reference(reference) => return WrittenKind::of(&reference.elem),
            syn::Type::Group(group) => return WrittenKind::of(&group.elem),
            syn::Type::Paren(paren) => return WrittenKind::of(&paren.elem),
            syn::Type::Array(_) | syn::Type::Slice(_) => Written::Array,
            syn::Type::Path(path) if path.qself.is_none() => {
                let (name, argument) = standard_name(&path.path)?;
                match name.as_str() {
                    "Option" => {
                        let inner = WrittenKind::of(argument?)?;
                        return Some(WrittenKind {
                            optional: true,
                            ..inner
                        });
                    }
                    "Box" | "Rc" | "Arc" => return WrittenKind::of(argument?),
                    _ => Written::named(&name)?,
                }
            }
            _ => return None,
        };
        Some(WrittenKind {
            kind,
            optional: false,
        })
    }

    /// Whether an attribute fits the field; else the error, worded as constant evaluation
    /// words it for the types only it can see.
    fn accepts(self, step: &StepKind, field: &str) -> Result<(), String> {
        let kind = self.kind;
        let (attribute, applies_to, fits) = match step {
            StepKind::NumberBound {
                bound,
                integral,
                json,
                ..
            } => {
                if kind == Written::Integer && !integral {
                    return Err(format!(
                        "`{}` on the integer field `{field}` must be an integer, not {json}",
                        bound.attribute()
                    ));
                }
                let fits = matches!(kind, Written::Integer | Written::Number);
                (bound.attribute(), "numbers", fits)
            }
            StepKind::Count { count, .. } => match count {
                Count::MinLength | Count::MaxLength => {
                    (count.attribute(), "strings", kind == Written::String)
                }
                Count::MinItems | Count::MaxItems => {
                    (count.attribute(), "arrays", kind == Written::Array)
                }
            },
            StepKind::UniqueItems => ("unique_items", "arrays", kind == Written::Array),
            StepKind::Pattern(_) => ("pattern", "strings", kind == Written::String),
            StepKind::Format(_) => ("format", "strings", kind == Written::String),
            StepKind::Values(_) => ("values", "strings", kind == Written::String),
            StepKind::Hidden(check) => match check.text_attribute() {
                Some(attribute) => (attribute, "strings", kind == Written::String),
                None => return Ok(()),
            },
            StepKind::Coerce => (
                "coerce",
                "numbers and booleans",
                matches!(kind, Written::Integer | Written::Number | Written::Boolean),
            ),
            StepKind::Catch(_) if self.optional => {
                return Err(format!(
                    "`catch` on the optional field `{field}`: an `Option` already accepts a \
                     missing value; declare the field without `Option` or drop `catch`"
                ));
            }
            StepKind::Catch(_) => return Ok(()),
        };
        if fits {
            return Ok(());
        }
        Err(format!(
            "`{attribute}` applies to {applies_to}, but field `{field}` is {}",
            kind.described()
        ))
    }
}

impl Written {
    fn named(name: &str) -> Option<Written> {
        Some(match name {
            "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64"
            | "u128" | "usize" => Written::Integer,
            "f32" | "f64" => Written::Number,
            "String" | "str" | "char" => Written::String,
            "bool" => Written::Boolean,
            "Vec" | "VecDeque" | "LinkedList" | "HashSet" | "BTreeSet" => Written::Array,
            "HashMap" | "BTreeMap" => Written::Map,
            _ => return None,
        })
    }

    /// As the runtime's messages name the kind (its `attributes::kind_name`).
    fn described(self) -> &'static str {
        match self {
            Written::Integer => "an integer",
            Written::Number => "a number",
            Written::String => "a string",
            Written::Boolean => "a boolean",
            Written::Array => "an array",
            Written::Map => "a map",
        }
    }
}

/// The last segment of a path naming a standard type (one segment, or under `std`, `core` or
/// `alloc`), with its first type argument if it has one.
fn standard_name(path: &syn::Path) -> Option<(String, Option<&syn::Type>)> {
    let segments = &path.segments;
    let first = segments.first()?.ident.to_string();
    if segments.len() > 1 && !matches!(first.as_str(), "std" | "core" | "alloc") {
        return None;
    }
    let last = segments.last()?;
    let argument = match &last.arguments {
        syn::PathArguments::AngleBracketed(arguments) => {
            arguments.args.iter().find_map(|argument| match argument {
                syn::GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
        }
        _ => None,
    };
    Some((last.ident.to_string(), argument))
}

/// Where the field's schema comes from: its type, `via = Type`, or `opaque`.
fn source(input: &FieldInput, errors: &mut Accumulator) -> Source {
    match (&input.via, input.opaque.is_present()) {
        (Some(via), true) => {
            errors.push(
                Error::custom("`via` and `opaque` contradict each other: choose one")
                    .with_span(&via.span()),
            );
            Source::Opaque
        }
        (Some(via), false) => Source::Via(Box::new(via.0.clone())),
        (None, true) => Source::Opaque,
        (None, false) => Source::Type,
    }
}

fn number_steps(input: &FieldInput, steps: &mut Vec<Step>) {
    let bounds: [(NumberBound, &Option<SpannedValue<NumberLit>>); 5] = [
        (NumberBound::Min, &input.min),
        (NumberBound::Max, &input.max),
        (NumberBound::ExclusiveMin, &input.exclusive_min),
        (NumberBound::ExclusiveMax, &input.exclusive_max),
        (NumberBound::MultipleOf, &input.multiple_of),
    ];
    for (bound, literal) in bounds {
        if let Some(literal) = literal {
            steps.push(Step {
                span: literal.span(),
                kind: StepKind::NumberBound {
                    bound,
                    json: literal.json.clone(),
                    value: literal.value,
                    integral: literal.integral,
                },
            });
        }
    }
}

fn count_steps(input: &FieldInput, steps: &mut Vec<Step>) {
    let counts: [(Count, &Option<SpannedValue<u64>>); 4] = [
        (Count::MinLength, &input.min_length),
        (Count::MaxLength, &input.max_length),
        (Count::MinItems, &input.min_items),
        (Count::MaxItems, &input.max_items),
    ];
    for (count, value) in counts {
        if let Some(value) = value {
            steps.push(Step {
                span: value.span(),
                kind: StepKind::Count {
                    count,
                    value: **value,
                },
            });
        }
    }
    if let Some(span) = flag_span(&input.unique_items) {
        steps.push(Step {
            span,
            kind: StepKind::UniqueItems,
        });
    }
}

/// `pattern` (checked here), `format` and `values(...)`.
fn string_steps(input: &FieldInput, steps: &mut Vec<Step>, errors: &mut Accumulator) {
    if let Some(pattern) = &input.pattern {
        match check_pattern(&pattern.value()) {
            Ok(()) => steps.push(Step {
                span: pattern.span(),
                kind: StepKind::Pattern(pattern.value()),
            }),
            Err(why) => errors.push(Error::custom(why).with_span(pattern)),
        }
    }
    if let Some(format) = &input.format {
        steps.push(Step {
            span: format.span(),
            kind: StepKind::Format(format.value()),
        });
    }
    if !input.values.is_empty() {
        steps.push(Step {
            span: input.values.span(),
            kind: StepKind::Values(input.values.iter().map(|v| v.value()).collect()),
        });
    }
}

/// The checks JSON Schema cannot show: `trim`, `lowercase`, `uppercase`, `refine`, `via`.
fn hidden_steps(input: &FieldInput, steps: &mut Vec<Step>, errors: &mut Accumulator) {
    let hidden = [
        (HiddenCheck::Trim, flag_span(&input.trim)),
        (HiddenCheck::Lowercase, flag_span(&input.lowercase)),
        (HiddenCheck::Uppercase, flag_span(&input.uppercase)),
        (
            HiddenCheck::Refine,
            input.refine.as_ref().map(Spanned::span),
        ),
        (HiddenCheck::Via, input.via.as_ref().map(|via| via.span())),
    ];
    for (check, span) in hidden {
        if let Some(span) = span {
            steps.push(Step {
                span,
                kind: StepKind::Hidden(check),
            });
        }
    }
    if let (true, Some(span)) = (input.lowercase.is_present(), flag_span(&input.uppercase)) {
        errors.push(
            Error::custom("`lowercase` and `uppercase` contradict each other: choose one")
                .with_span(&span),
        );
    }
}

/// What makes a field accept more than its type says: `coerce`, `catch = expr`.
fn hazard_steps(input: &FieldInput, steps: &mut Vec<Step>) {
    if let Some(span) = flag_span(&input.coerce) {
        steps.push(Step {
            span,
            kind: StepKind::Coerce,
        });
    }
    if let Some(catch) = &input.catch {
        steps.push(Step {
            span: catch.span(),
            kind: StepKind::Catch(catch.clone()),
        });
    }
}

fn enum_body(
    variants: Vec<VariantInput>,
    serde: &SerdeAttrs,
    direction: Direction,
    ident: &syn::Ident,
    errors: &mut Accumulator,
) -> Body {
    let all_unit = variants
        .iter()
        .all(|variant| variant.fields.style == ast::Style::Unit);
    match &serde.tag {
        Some(tag) => Body::Union(operations(
            variants,
            serde,
            tag.clone(),
            direction,
            ident,
            errors,
        )),
        None if all_unit => unit_enum(&variants, serde, direction, ident, errors),
        None => {
            if serde.untagged.is_none() && serde.content.is_none() {
                errors.push(
                    Error::custom(
                        "stitch describes an enum with data only when it is internally tagged: \
                         add `#[serde(tag = \"op\")]` (the tag names the operation)",
                    )
                    .with_span(ident),
                );
            }
            no_body()
        }
    }
}

/// A unit-only enum: a string limited to its variants' names (aliases accepted too).
fn unit_enum(
    variants: &[VariantInput],
    serde: &SerdeAttrs,
    direction: Direction,
    ident: &syn::Ident,
    errors: &mut Accumulator,
) -> Body {
    let rename_all = rename_rule(serde.rename_all.as_ref());
    let mut names: Vec<String> = Vec::new();
    let mut aliases: Vec<String> = Vec::new();
    for variant in variants {
        let variant_serde = SerdeAttrs::read(&variant.attrs, direction, errors);
        if variant_serde.skip.is_some() {
            continue;
        }
        let wire = variant_name(variant, &variant_serde, rename_all);
        push_unique_tag(&mut names, wire, &variant.ident, errors);
        aliases.extend(variant_serde.aliases);
    }
    if names.is_empty() {
        errors.push(
            Error::custom(
                "an enum without variants accepts no value, and its schema could not be \
                 written: give it a variant",
            )
            .with_span(ident),
        );
    }
    Body::UnitEnum { names, aliases }
}

/// An internally tagged enum: its operations.
fn operations(
    variants: Vec<VariantInput>,
    serde: &SerdeAttrs,
    tag: String,
    direction: Direction,
    ident: &syn::Ident,
    errors: &mut Accumulator,
) -> Union {
    let mut out: Vec<Variant> = Vec::new();
    let mut tags: Vec<String> = Vec::new();
    for variant in variants {
        let variant_serde = SerdeAttrs::read(&variant.attrs, direction, errors);
        reject_unsupported(&variant_serde, errors);
        if variant_serde.skip.is_some() {
            continue;
        }
        let wire = variant_name(
            &variant,
            &variant_serde,
            rename_rule(serde.rename_all.as_ref()),
        );
        push_unique_tag(&mut tags, wire.clone(), &variant.ident, errors);
        let description = variant
            .description
            .clone()
            .or_else(|| doc::description(&variant.attrs));
        let ident = variant.ident.clone();
        let body = operation_body(variant, &variant_serde, serde, &tag, direction, errors);
        out.push(Variant {
            ident,
            wire,
            aliases: variant_serde.aliases,
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
            .with_span(ident),
        );
    }
    Union { tag, variants: out }
}

/// One operation's fields: none (a unit), its own, or a newtype's struct.
fn operation_body(
    variant: VariantInput,
    variant_serde: &SerdeAttrs,
    serde: &SerdeAttrs,
    tag: &str,
    direction: Direction,
    errors: &mut Accumulator,
) -> VariantBody {
    match variant.fields.style {
        ast::Style::Struct => {
            let field_rule = match &variant_serde.rename_all {
                Some(rule) => rename_rule(Some(rule)),
                None => rename_rule(serde.rename_all_fields.as_ref()),
            };
            let object = object(
                variant.fields.fields,
                field_rule,
                variant_serde.default.is_some(),
                serde.deny_unknown_fields,
                direction,
                errors,
            );
            if object.fields.iter().any(|field| field.wire == tag) {
                errors.push(
                    Error::custom(format!(
                        "a field of `{}` is named `{tag}`, like the tag",
                        variant.ident
                    ))
                    .with_span(&variant.ident),
                );
            }
            VariantBody::Struct(object)
        }
        ast::Style::Tuple if variant.fields.fields.len() == 1 => {
            let field = variant.fields.fields.into_iter().next().expect("one field");
            VariantBody::Newtype(field.ty)
        }
        // A tuple variant in a tagged enum: serde reports it, stitch has nothing to add.
        ast::Style::Unit | ast::Style::Tuple => VariantBody::Unit,
    }
}

fn variant_name(variant: &VariantInput, serde: &SerdeAttrs, rule: Option<RenameRule>) -> String {
    match (&serde.rename, rule) {
        (Some(rename), _) => rename.clone(),
        (None, Some(rule)) => rule.apply_to_variant(&variant.ident.to_string()),
        (None, None) => variant.ident.to_string(),
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

fn flag_span(flag: &Flag) -> Option<Span> {
    flag.is_present().then(|| flag.span())
}
