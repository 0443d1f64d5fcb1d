//! The [`Shape`] trait, and its implementations for the types servers hold: the type mapping
//! the README lists (`bool` is a boolean, `Option<T>` is `T` or null and may be missing, ...),
//! each type advertised as its serde form is (a format, a pattern, bounds) and checked so by
//! `parse`. Files: `primitives` (numbers, strings, `Option`, pointers), `collections`
//! (sequences, sets, maps, JSON values), `standard` (addresses, paths, durations, tuples,
//! ranges, wrappers), `ecosystem` (other crates' types, behind features named as schemars
//! names them).

mod address;
mod collections;
mod ecosystem;
pub(crate) mod issue;
mod primitives;
mod standard;

use crate::ir::{Kind, Node, StringRules, checks};
use crate::shape::issue::{Issue, JsonPointer};

/// The compile-time schema of a type.
///
/// Implemented for the standard types and by `#[derive(Contract)]`. Composition happens in
/// constant evaluation: `Vec<T>`'s shape refers to `T::SHAPE`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no stitch schema (it does not implement `Shape`)",
    label = "stitch cannot describe this type",
    note = "a type of your own: derive it, `#[derive(stitch::Contract, serde::Deserialize)]` on a tool's input and every type inside it (read as serde reads it), `#[derive(stitch::Shape)]` on a type a tool returns",
    note = "another crate's type: turn on the stitch feature that describes it (`uuid1`, `chrono04`, `time03`, `jiff02`, `url2`, `rust_decimal1`, `bigdecimal04`, `indexmap2`, `smallvec1`, `semver1`, `bytes1`), or say its serde form on the field: `#[contract(via = String, format = \"uuid\")]`",
    note = "or, when JSON Schema cannot describe a field's value, mark the field `#[contract(opaque)]`"
)]
pub trait Shape {
    /// The type's schema node.
    const SHAPE: &'static Node<'static>;

    /// Whether this type, or anything inside it, has a `refine` check: walks skip the
    /// values that cannot have one.
    const REFINES: bool = false;

    /// Runs the hidden `refine` checks of this value and of everything inside it, pushing an
    /// issue at `pointer` for each one that fails. Most types have none.
    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        let _ = (pointer, issues);
    }
}

/// A map key that is a string on the wire.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a string map key stitch can describe",
    note = "JSON object keys are strings: use `String` keys"
)]
pub trait StringKey: AsRef<str> {}

impl StringKey for String {}
impl StringKey for Box<str> {}
impl StringKey for std::rc::Rc<str> {}
impl StringKey for std::sync::Arc<str> {}
impl StringKey for std::borrow::Cow<'_, str> {}

/// Refines every element of a sequence, each at its index.
pub(crate) fn refine_elements<'a, T: Shape + 'a>(
    elements: impl IntoIterator<Item = &'a T>,
    pointer: &mut JsonPointer,
    issues: &mut Vec<Issue>,
) {
    if !T::REFINES {
        return;
    }
    for (index, element) in elements.into_iter().enumerate() {
        let mark = pointer.push_index(index);
        element.refine(pointer, issues);
        pointer.truncate(mark);
    }
}

/// Refines every value of a map, each at its key.
pub(crate) fn refine_entries<'a, K: AsRef<str> + 'a, V: Shape + 'a>(
    entries: impl IntoIterator<Item = (&'a K, &'a V)>,
    pointer: &mut JsonPointer,
    issues: &mut Vec<Issue>,
) {
    if !V::REFINES {
        return;
    }
    for (key, value) in entries {
        let mark = pointer.push_key(key.as_ref());
        value.refine(pointer, issues);
        pointer.truncate(mark);
    }
}

/// A string of this `format` and `pattern`; `converted` when serde may refuse a rare value the
/// two admit (see [`checks::CONVERTED`]).
pub(crate) const fn text(
    format: Option<&'static str>,
    pattern: Option<&'static str>,
    converted: bool,
) -> Node<'static> {
    let mut node = Node::of(Kind::String(StringRules {
        format,
        pattern,
        ..StringRules::NONE
    }));
    if converted {
        node.checks = checks::CONVERTED;
    }
    node
}

/// The same node, `parse` reporting where serde refuses a rare value it admits.
pub(crate) const fn converted<'a>(node: &'a Node<'a>) -> Node<'a> {
    let mut node = *node;
    node.checks |= checks::CONVERTED;
    node
}

#[cfg(test)]
mod tests {
    use stitch_rules::pattern::compiled;

    #[test]
    fn every_pattern_of_a_described_type_reads_alike_in_ecma_262_and_regex() {
        for pattern in super::address::PATTERNS
            .iter()
            .chain(super::ecosystem::PATTERNS)
        {
            if let Err(error) = compiled(pattern) {
                panic!("{pattern}: {error}");
            }
        }
    }
}
