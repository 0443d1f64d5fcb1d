//! Objects, the operations of a union, and the descriptions of both: named fields with their
//! wire names and requirements, and what rendering needs to know of a description without
//! reading its bytes again. The derive builds these with the constructors of `__private`,
//! which take the facts it computed at expansion; a hand-written `Shape` uses the public ones,
//! which compute them in constant evaluation.

use stitch_rules::doc::summary;
use stitch_rules::json::{fnv1a, is_plain};

use super::{Node, QuickCheck};
use crate::ir::key_table::{Described, Flat};

/// A description (`description = "..."` or a doc comment) with what rendering needs to know
/// of it without reading its bytes again: constant evaluation pays for every byte it looks
/// at, and a contract's descriptions are most of its text.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Doc<'a> {
    /// The text, unescaped.
    pub text: &'a str,
    /// How the text stands inside a JSON string.
    pub escape: Escape<'a>,
    /// The text's FNV-1a hash: two descriptions are the same when their lengths and hashes are
    /// (FNV-1a, 64 bits: two different texts of one length collide with a chance of 2⁻⁶⁴).
    pub hash: u64,
}

/// How a text stands inside a JSON string, as far as it is known before rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub enum Escape<'a> {
    /// As it is: the text needs no escape, and rendering copies it whole.
    Plain,
    /// As this escaped text, which rendering copies whole (the derive writes it).
    Escaped(&'a str),
    /// Not known: rendering escapes it byte by byte.
    Unknown,
}

impl<'a> Doc<'a> {
    /// A description, its facts computed in constant evaluation.
    pub const fn new(text: &'a str) -> Doc<'a> {
        let escape = if is_plain(text) {
            Escape::Plain
        } else {
            Escape::Unknown
        };
        Doc {
            text,
            escape,
            hash: fnv1a(text),
        }
    }

    /// A description whose facts were computed at expansion (the derive's).
    pub(crate) const fn declared(text: &'a str, escape: Escape<'a>, hash: u64) -> Doc<'a> {
        Doc { text, escape, hash }
    }

    /// An optional text as an optional description.
    pub const fn of(text: Option<&'a str>) -> Option<Doc<'a>> {
        match text {
            Some(text) => Some(Doc::new(text)),
            None => None,
        }
    }

    /// Whether two descriptions have the same text, judged without reading it.
    pub const fn same(&self, other: &Doc) -> bool {
        self.hash == other.hash && self.text.len() == other.text.len()
    }
}

impl<'a> Described<Doc<'a>> {
    /// What a set of fields says once one more of them describes it as `doc`: the one rule
    /// of agreement, for a key table's keys, a walked union's and any set's members.
    pub const fn and(self, doc: Doc<'a>) -> Described<Doc<'a>> {
        match self {
            Described::Nowhere => Described::Agreed(doc),
            Described::Agreed(seen) if !seen.same(&doc) => Described::Differently,
            said => said,
        }
    }
}

/// A field with its glance check given, as a struct literal ([`Field::checked`]'s body): the
/// one statement of when a field is required, for the columns of a union's fields too, where
/// constant evaluation would pay a call for each of hundreds of fields.
macro_rules! checked_field_literal {
    ($name:expr, $plain:expr, $node:expr, $has_default:expr, $description:expr, $quick:expr) => {{
        let node: &$crate::ir::Node = $node;
        let has_default: bool = $has_default;
        $crate::ir::Field {
            name: $name,
            aliases: &[],
            node,
            required: !node.omittable && !has_default,
            defaulted: has_default,
            description: $description,
            plain: $plain,
            quick: $quick,
            null_is_absence: false,
        }
    }};
}
pub(crate) use checked_field_literal;

/// A named field of an object.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Field<'a> {
    /// The wire name (after `rename`/`rename_all`).
    pub name: &'a str,
    /// Other names serde accepts (`alias`): accepted, not advertised.
    pub aliases: &'a [&'a str],
    /// The field's schema.
    pub node: &'a Node<'a>,
    /// Whether the key must be present (neither `Option` nor `default`).
    pub required: bool,
    /// Whether serde gives the field a default when its key is missing (`#[serde(default)]`):
    /// for an `Option`, that default need not be what `null` means (`None`).
    pub defaulted: bool,
    /// The description (`description = "..."` or the doc comment).
    pub description: Option<Doc<'a>>,
    /// Whether the name needs no JSON escape: then rendering copies it instead of scanning
    /// it byte by byte (constant evaluation pays for every byte it looks at).
    pub plain: bool,
    /// How the valid path judges the field's value at a glance (computed from `node`).
    pub(crate) quick: QuickCheck,
    /// Whether a `null` sent for the key is read as the key left out (a foreign schema's key
    /// with a default other than `null` whose description gives `null` no meaning): what a
    /// client that must send every key sends for "the default".
    pub(crate) null_is_absence: bool,
}

impl<'a> Field<'a> {
    /// A field; required unless its node is omittable (an `Option`) or it has a default.
    pub const fn new(
        name: &'a str,
        node: &'a Node<'a>,
        has_default: bool,
        description: Option<&'a str>,
    ) -> Field<'a> {
        Field::declared(
            name,
            is_plain(name),
            node,
            has_default,
            Doc::of(description),
        )
    }

    /// A field as the derive declares it: whether the name is [`plain`](Field::plain) was
    /// decided at expansion, so constant evaluation does not scan the name.
    pub(crate) const fn declared(
        name: &'a str,
        plain: bool,
        node: &'a Node<'a>,
        has_default: bool,
        description: Option<Doc<'a>>,
    ) -> Field<'a> {
        Field::checked(
            name,
            plain,
            node,
            has_default,
            description,
            QuickCheck::of(node),
        )
    }

    /// A field with its glance check given: `quick` must be `QuickCheck::of(node)`, which
    /// the derive computes once for every field of one node.
    pub(crate) const fn checked(
        name: &'a str,
        plain: bool,
        node: &'a Node<'a>,
        has_default: bool,
        description: Option<Doc<'a>>,
        quick: QuickCheck,
    ) -> Field<'a> {
        checked_field_literal!(name, plain, node, has_default, description, quick)
    }

    /// Which operations require the field, and what its `null` means: a field of one object.
    pub const fn requirement(&self) -> crate::ir::key_table::Requirement {
        crate::ir::key_table::Requirement::of_field(
            self.required,
            self.node.nullable,
            self.defaulted,
        )
    }

    /// The same field, also accepting these names.
    pub const fn with_aliases(self, aliases: &'a [&'a str]) -> Field<'a> {
        Field { aliases, ..self }
    }
}

/// An object with named fields (a struct, or the fields of one operation).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Object<'a> {
    /// Fields in declaration order.
    pub fields: &'a [Field<'a>],
    /// `#[serde(deny_unknown_fields)]`.
    pub deny_unknown: bool,
    /// What every other key holds: a flattened map's values (`#[serde(flatten)]` of a
    /// `HashMap<String, V>`), checked as `V`; `None` when other keys are ignored or refused.
    pub rest: Option<&'a Node<'a>>,
    /// The type's doc comment.
    pub description: Option<Doc<'a>>,
}

impl<'a> Object<'a> {
    /// An object of these fields; `deny_unknown` for `#[serde(deny_unknown_fields)]`.
    pub const fn new(
        fields: &'a [Field],
        deny_unknown: bool,
        description: Option<Doc<'a>>,
    ) -> Object<'a> {
        Object {
            fields,
            deny_unknown,
            rest: None,
            description,
        }
    }

    /// The same object, every other key holding a value of `node` (a flattened map).
    pub const fn with_rest(self, node: &'a Node<'a>) -> Object<'a> {
        Object {
            rest: Some(node),
            ..self
        }
    }

    /// The object with no field (a unit operation).
    pub const EMPTY: Object<'a> = Object {
        fields: &[],
        deny_unknown: false,
        rest: None,
        description: None,
    };

    /// Whether a hidden check sits in any field (or a flattened map's values), at any depth.
    pub const fn has_hidden_check(&self) -> bool {
        if let Some(rest) = self.rest
            && rest.has_hidden_check()
        {
            return true;
        }
        let mut i = 0;
        let field_count = self.fields.len();
        while i < field_count {
            if self.fields[i].node.has_hidden_check() {
                return true;
            }
            i += 1;
        }
        false
    }
}

/// One operation of a union.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Variant<'a> {
    /// The tag value (after `rename`/`rename_all`).
    pub name: &'a str,
    /// Other tag values serde accepts (`alias`).
    pub aliases: &'a [&'a str],
    /// The operation's doc comment.
    pub description: Option<Doc<'a>>,
    /// The first line of the description, without its final period: how the tag's
    /// description names the operation.
    pub summary: Option<Doc<'a>>,
    /// The operation's fields (a struct variant, a newtype of a struct, or empty for a unit).
    pub object: &'a Object<'a>,
    /// What the operation holds: its fields, nothing, or a newtype's value (see [`Holds`]).
    pub holds: Holds<'a>,
    /// Whether the name needs no JSON escape (see [`Field::plain`]).
    pub plain: bool,
}

impl<'a> Variant<'a> {
    /// An operation.
    pub const fn new(
        name: &'a str,
        aliases: &'a [&'a str],
        description: Option<&'a str>,
        object: &'a Object<'a>,
    ) -> Variant<'a> {
        let summary = match description {
            Some(text) => Doc::of(summary(text)),
            None => None,
        };
        Variant::declared(
            name,
            is_plain(name),
            aliases,
            Doc::of(description),
            summary,
            object,
        )
    }

    /// An operation as the derive declares it (see [`Field::declared`]); the derive finds
    /// the summary line too, so constant evaluation never scans a description for it.
    pub(crate) const fn declared(
        name: &'a str,
        plain: bool,
        aliases: &'a [&'a str],
        description: Option<Doc<'a>>,
        summary: Option<Doc<'a>>,
        object: &'a Object<'a>,
    ) -> Variant<'a> {
        Variant {
            name,
            aliases,
            description,
            summary,
            object,
            holds: Holds::Fields,
            plain,
        }
    }

    /// The same operation, holding nothing (a unit operation: in an adjacently tagged union
    /// it has no content key, in an externally tagged one its key holds `null`).
    pub const fn unit(self) -> Variant<'a> {
        Variant {
            holds: Holds::Nothing,
            ..self
        }
    }

    /// The same operation, holding a value of `node` (a newtype operation of anything but a
    /// struct, in an externally tagged union).
    pub const fn holding(self, node: &'a Node<'a>) -> Variant<'a> {
        Variant {
            holds: Holds::Value(node),
            ..self
        }
    }

    /// The node of what the operation holds, where it is one value (a newtype's).
    pub const fn value(&self) -> Option<&'a Node<'a>> {
        match self.holds {
            Holds::Value(node) => Some(node),
            Holds::Fields | Holds::Nothing => None,
        }
    }
}

/// What an operation holds.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Holds<'a> {
    /// Its fields (the variant's `object`): a struct operation, or a newtype of a struct.
    Fields,
    /// Nothing: a unit operation.
    Nothing,
    /// A value of this node: a newtype operation of anything but a struct (externally tagged
    /// unions only).
    Value(&'a Node<'a>),
}

/// Where a union's operation sits in the JSON, as serde writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Tagging<'a> {
    /// The tag beside the operation's fields (`#[serde(tag = "op")]`).
    Internal,
    /// The tag beside one key holding the operation's fields (`#[serde(tag = "op", content =
    /// "args")]`): the content key.
    Adjacent(&'a str),
    /// One key, the operation's name, holding what the operation holds (serde's default).
    External,
}

/// Where a flattened union says which operations take which key (internally and adjacently
/// tagged unions; `#[contract(hints = "by_operation")]` on the enum).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Hints {
    /// On each key that not every operation requires: `Required if op = a | b` (or
    /// `Available if`, when none requires it). A model reading a key sees when to send it.
    #[default]
    ByKey,
    /// Once, in the tag's description: each operation with the keys it requires and, marked
    /// `?`, those it may send that no operation requires (`a(x, y?) — Adds`). The same facts,
    /// each said once: shorter when many operations share keys.
    ByOperation,
}

/// A tagged union of operations: internally tagged (the tag names the operation, the
/// operation's fields sit beside it), adjacently (they sit in one content key beside it), or
/// externally (the operation's name is the one key).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Union<'a> {
    /// The tag's key (`#[serde(tag = "op")]`; empty when externally tagged).
    pub tag: &'a str,
    /// Where the operation sits.
    pub tagging: Tagging<'a>,
    /// The operations in declaration order.
    pub variants: &'a [Variant<'a>],
    /// The enum's doc comment.
    pub description: Option<Doc<'a>>,
    /// Where its flat schema says which operations take which key.
    pub hints: Hints,
    /// The flattened key table, computed once in constant evaluation for non-generic unions
    /// by the derive. `None` for generic and hand-built unions: the same rules then run over
    /// the variants directly.
    pub(crate) flat: Option<&'a Flat<'a>>,
}

impl<'a> Union<'a> {
    /// An internally tagged union, without a precomputed key table.
    pub const fn new(
        tag: &'a str,
        variants: &'a [Variant],
        description: Option<Doc<'a>>,
    ) -> Union<'a> {
        Union {
            tag,
            tagging: Tagging::Internal,
            variants,
            description,
            hints: Hints::ByKey,
            flat: None,
        }
    }

    /// The same union, saying which operations take which key as `hints` says.
    pub const fn hints(self, hints: Hints) -> Union<'a> {
        Union { hints, ..self }
    }

    /// The same union, its operations' fields in the `content` key beside the tag (a
    /// [`unit`](Variant::unit) operation has none).
    pub const fn adjacent(self, content: &'a str) -> Union<'a> {
        Union {
            tagging: Tagging::Adjacent(content),
            ..self
        }
    }

    /// An externally tagged union: each operation's name is a key holding what the operation
    /// holds ([`Holds`]).
    pub const fn external(variants: &'a [Variant], description: Option<Doc<'a>>) -> Union<'a> {
        Union {
            tag: "",
            tagging: Tagging::External,
            variants,
            description,
            hints: Hints::ByKey,
            flat: None,
        }
    }

    /// Whether serde reads an operation through a buffer before it knows which one it is
    /// (internally and adjacently tagged unions).
    pub const fn buffered(&self) -> bool {
        !matches!(self.tagging, Tagging::External)
    }

    /// Whether the union carries a key table (the derive writes one for a non-generic
    /// union; a hand-built union's keys are found by walking its operations).
    pub const fn has_key_table(&self) -> bool {
        self.flat.is_some()
    }

    /// The same union with its key table (the derive's).
    pub(crate) const fn with_flat(self, flat: &'a Flat) -> Union<'a> {
        Union {
            flat: Some(flat),
            ..self
        }
    }

    /// Whether some operation takes keys it does not name (a flattened map's, or a foreign
    /// schema's open object): such an operation takes any key another operation types, as
    /// one of its own others, and the flat object names it beside the key's type.
    pub const fn takes_other_keys(&self) -> bool {
        let mut i = 0;
        while i < self.variants.len() {
            if self.variants[i].object.rest.is_some() {
                return true;
            }
            i += 1;
        }
        false
    }

    /// Whether every operation denies unknown keys.
    pub const fn all_deny_unknown(&self) -> bool {
        let mut i = 0;
        let variant_count = self.variants.len();
        while i < variant_count {
            if !self.variants[i].object.deny_unknown {
                return false;
            }
            i += 1;
        }
        !self.variants.is_empty()
    }
}
