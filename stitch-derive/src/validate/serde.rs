//! serde's attributes as `serde_derive_internals` reads them (exactly as serde does, with
//! serde's own errors left to serde), for the side of serde a schema describes: what
//! `Deserialize` reads (a contract) or what `Serialize` writes (an output's shape).

use proc_macro2::Span;
use serde_derive_internals::name::{MultiName, Name};
use serde_derive_internals::{Ctxt, Derive, ast, attr};

/// Which side of serde a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Deserialize,
    Serialize,
}

/// The input as serde reads it; `None` when serde refuses its attributes, which serde's own
/// derive reports (a `#[serde(...)]` attribute exists only beside a serde derive).
pub fn read(input: &syn::DeriveInput, direction: Direction) -> Option<ast::Container<'_>> {
    let cx = Ctxt::new();
    let derive = match direction {
        Direction::Deserialize => Derive::Deserialize,
        Direction::Serialize => Derive::Serialize,
    };
    let private = syn::Ident::new("__private", Span::call_site());
    let container = ast::Container::from_ast(&cx, input, derive, &private);
    cx.check().ok().and(container)
}

/// A name on the wire, after `rename` and `rename_all`.
pub fn name(name: &MultiName, direction: Direction) -> String {
    match direction {
        Direction::Deserialize => name.deserialize_name().value.clone(),
        Direction::Serialize => name.serialize_name().value.clone(),
    }
}

/// The other names serde reads for one (`alias`); none when serializing.
pub fn aliases(
    name: &MultiName,
    all: &std::collections::BTreeSet<Name>,
    direction: Direction,
) -> Vec<String> {
    if direction == Direction::Serialize {
        return Vec::new();
    }
    let own = &name.deserialize_name().value;
    all.iter()
        .map(|alias| alias.value.clone())
        .filter(|alias| alias != own)
        .collect()
}

/// Whether serde leaves the field out on this side.
pub fn field_skipped(field: &attr::Field, direction: Direction) -> bool {
    match direction {
        Direction::Deserialize => field.skip_deserializing(),
        Direction::Serialize => field.skip_serializing(),
    }
}

/// Whether serde leaves the operation out on this side.
pub fn variant_skipped(variant: &attr::Variant, direction: Direction) -> bool {
    match direction {
        Direction::Deserialize => variant.skip_deserializing(),
        Direction::Serialize => variant.skip_serializing(),
    }
}

/// Whether the key may be missing: a default when reading (the field's or the container's),
/// `skip_serializing_if` when writing.
pub fn may_be_missing(
    field: &attr::Field,
    container: &attr::Container,
    direction: Direction,
) -> bool {
    match direction {
        Direction::Deserialize => !field.default().is_none() || !container.default().is_none(),
        Direction::Serialize => field.skip_serializing_if().is_some(),
    }
}

/// Whether the user wrote a conversion of the field's JSON (`deserialize_with`, `with`,
/// `serialize_with`); serde's own borrowing helpers (paths under `_serde`) are not one.
pub fn converted(field: &attr::Field, direction: Direction) -> bool {
    let with = match direction {
        Direction::Deserialize => field.deserialize_with(),
        Direction::Serialize => field.serialize_with(),
    };
    with.is_some_and(|path| {
        path.path
            .segments
            .first()
            .is_none_or(|first| first.ident != "_serde")
    })
}

/// Whether the operation converts its whole content (`deserialize_with` on a variant).
pub fn variant_converted(variant: &attr::Variant, direction: Direction) -> bool {
    match direction {
        Direction::Deserialize => variant.deserialize_with().is_some(),
        Direction::Serialize => variant.serialize_with().is_some(),
    }
}

/// What `#[derive(Shape)]` cannot describe: an attribute of a field that only `Deserialize`
/// reads, and that says the type is read (`default`, `alias`, `skip_deserializing`,
/// `deserialize_with`), which a schema of what `Serialize` writes would silently ignore. (A
/// `rename(serialize = ..., deserialize = ...)` names both sides, and is taken.)
pub fn read_only_when_deserializing(field: &attr::Field) -> Option<&'static str> {
    if !field.default().is_none() {
        return Some("default");
    }
    if field.aliases().len() > 1 {
        return Some("alias");
    }
    if field.skip_deserializing() && !field.skip_serializing() {
        return Some("skip_deserializing");
    }
    if field.deserialize_with().is_some() && field.serialize_with().is_none() {
        return Some("deserialize_with");
    }
    None
}

/// The same for a container (`default`, `deny_unknown_fields`).
pub fn container_read_only_when_deserializing(container: &attr::Container) -> Option<&'static str> {
    if !container.default().is_none() {
        return Some("default");
    }
    if container.deny_unknown_fields() {
        return Some("deny_unknown_fields");
    }
    None
}

/// Why an attribute only `Deserialize` reads is refused on a `Shape`.
pub fn read_only_message(key: &str) -> String {
    format!(
        "`#[serde({key})]` is read only when deserializing, and `#[derive(stitch::Shape)]` \
         describes what `Serialize` writes, so its schema would silently leave it out. A type a \
         tool takes, or one inside it, derives `stitch::Contract` (which reads it as serde \
         does); `Shape` is for what a tool returns"
    )
}
