//! The schema IR: plain, `Copy`, `const`-constructible data that describes a contract. What a
//! type's [`Shape::SHAPE`](crate::Shape::SHAPE) is made of, for a hand-written `Shape` impl:
//! `#[derive(Contract)]` writes these for you.
//!
//! Every schema stitch produces (the exact one, the advertised flat one, each dialect's), the
//! guard's view and the validation of a call are computed from these nodes, so no rule is
//! written twice. Nodes hold only shared references, of one lifetime `'a`: a contract's
//! nodes are `Node<'static>`, which lets `Shape::SHAPE` compose across crates in constant
//! evaluation; a foreign document's borrow their texts from it and live in an arena for one
//! call (`foreign`), so what arrives at run time is never kept.
//!
//! This file holds the node and its kinds; `value_rules` the visible rules of a kind;
//! `keyword_rules` where each keyword lives in them; `object` objects, unions and their descriptions; `quick` how the
//! valid path judges a field's value at a glance; `key_table` a flattened union's key table,
//! as data; `attributes` field attributes applied to nodes; `serde_flatten` and
//! `serde_buffer` what serde's `flatten` expands to and what its buffer cannot hold.

pub(crate) mod attributes;
pub(crate) mod key_table;
mod keyword_rules;
mod object;
mod quick;
pub(crate) mod serde_buffer;
pub(crate) mod serde_flatten;
mod value_rules;

pub use stitch_rules::Keyword;

/// Whether the kind bits name more than one kind.
pub(crate) const fn several(kind_bits: u8) -> bool {
    kind_bits & kind_bits.wrapping_sub(1) != 0
}

pub(crate) use object::checked_field_literal;
pub use object::{Doc, Escape, Field, Hints, Holds, Object, Tagging, Union, Variant};

pub use keyword_rules::KeywordSlots;
pub(crate) use keyword_rules::KeywordVisitor;
pub use quick::QuickCheck;
use stitch_rules::Class;
pub use value_rules::{
    ArrayRules, Bound, KeywordValue, MapRules, NumberRules, NumberType, StringRules,
};

/// The kinds that hold no node: every other kind holds nodes inside (items, fields,
/// branches), which a walk for hidden checks goes into. One list, which
/// [`Node::has_hidden_check`] matches exhaustively, so a new kind must be placed on one side.
macro_rules! leaf_kinds {
    () => {
        $crate::ir::Kind::Boolean
            | $crate::ir::Kind::Integer(_)
            | $crate::ir::Kind::Number(_)
            | $crate::ir::Kind::String(_)
            | $crate::ir::Kind::StringEnum(..)
            | $crate::ir::Kind::Any
            | $crate::ir::Kind::Kinds(_)
            | $crate::ir::Kind::Opaque
            | $crate::ir::Kind::Verbatim(_)
    };
}
pub(crate) use leaf_kinds;

/// Runs `$body` for each field of each operation of a union, in operation order, naming the
/// operation's index, the field's index and (when asked) the field: the loop every walk over a union's
/// fields makes, written once, as a macro because constant evaluation pays for every call.
/// The body must not `continue` (it would skip the increments); `return` is fine.
macro_rules! for_each_operation_field {
    ($union:expr, |$variant:ident, $index:ident| $body:block) => {{
        let union = $union;
        let mut $variant = 0;
        let variant_count = union.variants.len();
        while $variant < variant_count {
            let field_count = union.variants[$variant].object.fields.len();
            let mut $index = 0;
            while $index < field_count {
                $body
                $index += 1;
            }
            $variant += 1;
        }
    }};
    ($union:expr, |$variant:ident, $index:ident, $field:ident| $body:block) => {{
        let union = $union;
        let mut $variant = 0;
        let variant_count = union.variants.len();
        while $variant < variant_count {
            let fields = union.variants[$variant].object.fields;
            let mut $index = 0;
            let field_count = fields.len();
            while $index < field_count {
                let $field = &fields[$index];
                $body
                $index += 1;
            }
            $variant += 1;
        }
    }};
}
pub(crate) use for_each_operation_field;

/// JSON kinds as bits, in the order a `type` array lists them.
pub mod kinds {
    /// `string`.
    pub const STRING: u8 = 1;
    /// `number`.
    pub const NUMBER: u8 = 1 << 1;
    /// `integer`.
    pub const INTEGER: u8 = 1 << 2;
    /// `boolean`.
    pub const BOOLEAN: u8 = 1 << 3;
    /// `object`.
    pub const OBJECT: u8 = 1 << 4;
    /// `array`.
    pub const ARRAY: u8 = 1 << 5;
    /// `null`.
    pub const NULL: u8 = 1 << 6;
    /// Every JSON kind (`integer` is part of `number`).
    pub const ANY: u8 = STRING | NUMBER | BOOLEAN | OBJECT | ARRAY | NULL;
    /// The names, in bit order.
    pub const NAMES: [&str; 7] = [
        "string", "number", "integer", "boolean", "object", "array", "null",
    ];
    /// The names as JSON strings, in bit order: what a `type` array lists, copied rather than
    /// escaped (a test holds them to [`NAMES`]).
    pub(crate) const QUOTED: [&str; 7] = [
        "\"string\"",
        "\"number\"",
        "\"integer\"",
        "\"boolean\"",
        "\"object\"",
        "\"array\"",
        "\"null\"",
    ];

    /// The name of the lowest kind among `bits` (the one kind of a base type).
    pub const fn name(bits: u8) -> &'static str {
        NAMES[(bits.trailing_zeros() as usize) % NAMES.len()]
    }
}

/// What JSON a node describes.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Kind<'a> {
    /// `true` or `false`.
    Boolean,
    /// An integer.
    Integer(NumberRules<'a>),
    /// Any number.
    Number(NumberRules<'a>),
    /// A string.
    String(StringRules<'a>),
    /// A string limited to the first list of values (unit-only enums, `values(...)`); the
    /// second pairs each other spelling serde reads (an `alias`, chrono's `"Monday"`) with
    /// the value it stands for. No schema states those spellings, so a call is refused
    /// for one, with the value to send instead. The third says what the values mean (a unit
    /// enum's variant docs, `gray: A light shade; black: The darkest.`): a description
    /// says it wherever the enum is written, whatever else it says.
    StringEnum(&'a [&'a str], &'a [(&'a str, &'a str)], Option<Doc<'a>>),
    /// An array of the item node.
    Array(&'a Node<'a>, ArrayRules),
    /// An array of exactly these nodes, position by position (a tuple).
    Tuple(&'a [&'a Node<'a>]),
    /// An object with string keys and values of the node (`HashMap`, `BTreeMap`).
    Map(&'a Node<'a>, MapRules),
    /// An object with named fields (a struct).
    Object(&'a Object<'a>),
    /// An internally tagged union (an enum of operations).
    Union(&'a Union<'a>),
    /// Any JSON value (`serde_json::Value`): typed on purpose as every JSON kind.
    Any,
    /// A value of any of these JSON kinds (bits of [`kinds`], `null` apart: nullability says
    /// it), and nothing more said of it: a foreign schema's `"type": ["string", "number"]`.
    /// Each dialect says it as it says operations that disagree on a key's kind (a `type`
    /// array, `{}` naming them, or `anyOf` of one type each). Only
    /// `stitch::foreign::flatten_tool_schema` builds one.
    Kinds(u8),
    /// A value any of these nodes describes (a foreign schema's `anyOf`, or a `oneOf` with no
    /// discriminator): each dialect that takes `anyOf` is shown each branch in its own words,
    /// and `portable` the tightest schema every branch's values meet, by the collision rules.
    /// Only `stitch::foreign::flatten_tool_schema` builds one.
    AnyOf(&'a [&'a Node<'a>]),
    /// A value JSON Schema cannot describe (`#[contract(opaque)]`): advertised as `{}`.
    Opaque,
    /// A part of a foreign schema kept as it was written (see [`Verbatim`]): only
    /// `stitch::foreign::flatten_tool_schema` builds one.
    Verbatim(Verbatim<'a>),
}

/// A part of a foreign JSON Schema that the IR has no words for (a `not`, an `if`, a number
/// `enum`, a recursive `$ref`, a union without a discriminator): kept as it was written,
/// advertised so in every dialect, and reported by the guard where a dialect may not take it.
/// Its fields are private: contracts never hold one, and `parse` never checks one (a foreign
/// tool checks its own arguments).
#[derive(Clone, Copy, Debug)]
pub struct Verbatim<'a> {
    /// The schema's members as JSON text, without the braces and without `description`.
    pub(crate) body: &'a str,
    /// The JSON kinds its `type` (or its values) names, every kind when it names none.
    pub(crate) kinds: u8,
    /// Its `description`.
    pub(crate) description: Option<Doc<'a>>,
}

impl<'a> Verbatim<'a> {
    /// The schema's members as JSON text, without the braces and without `description`.
    pub const fn body(&self) -> &'a str {
        self.body
    }
}

impl<'a> Kind<'a> {
    /// The JSON kinds this kind's base type covers (bits of [`kinds`]; `null` from
    /// nullability aside): what a `type` names.
    pub const fn json_kinds(&self) -> u8 {
        match self {
            Kind::Boolean => kinds::BOOLEAN,
            Kind::Integer(_) => kinds::INTEGER,
            Kind::Number(_) => kinds::NUMBER,
            Kind::String(_) | Kind::StringEnum(..) => kinds::STRING,
            Kind::Array(..) | Kind::Tuple(_) => kinds::ARRAY,
            Kind::Map(..) | Kind::Object(_) | Kind::Union(_) => kinds::OBJECT,
            Kind::Any => kinds::ANY,
            Kind::Kinds(bits) => *bits,
            Kind::AnyOf(branches) => {
                let mut bits = 0;
                let mut i = 0;
                while i < branches.len() {
                    bits |= branches[i].kind.json_kinds();
                    if branches[i].nullable {
                        bits |= kinds::NULL;
                    }
                    i += 1;
                }
                bits
            }
            Kind::Opaque => 0,
            Kind::Verbatim(verbatim) => verbatim.kinds,
        }
    }

    /// The class of values this kind is, as attributes see it.
    pub const fn class(&self) -> Class {
        match self {
            Kind::Boolean => Class::Boolean,
            Kind::Integer(_) => Class::Integer,
            Kind::Number(_) => Class::Number,
            Kind::String(_) => Class::String,
            Kind::StringEnum(..) => Class::StringEnum,
            Kind::Array(..) => Class::Array,
            Kind::Tuple(_) => Class::Tuple,
            Kind::Map(..) => Class::Map,
            Kind::Object(_) => Class::Object,
            Kind::Union(_) => Class::Union,
            Kind::Any | Kind::Kinds(_) | Kind::AnyOf(_) | Kind::Verbatim(_) => Class::Any,
            Kind::Opaque => Class::Opaque,
        }
    }
}

/// Checks JSON Schema cannot show, as bit flags (see the `Node::checks` field).
pub mod checks {
    /// `refine = path`: a custom check.
    pub const REFINE: u8 = 1;
    /// `trim`: the value is trimmed.
    pub const TRIM: u8 = 1 << 1;
    /// `lowercase`: the value is lowercased.
    pub const LOWERCASE: u8 = 1 << 2;
    /// `uppercase`: the value is uppercased.
    pub const UPPERCASE: u8 = 1 << 3;
    /// `via = Type`: a conversion the schema cannot show.
    pub const VIA: u8 = 1 << 4;
    /// `opaque`: a value JSON Schema cannot describe.
    pub const OPAQUE: u8 = 1 << 5;
    /// A type whose deserialization may refuse a rare value its schema admits (an address
    /// past what its pattern can say, a date-time past its type's range): not a hidden check,
    /// since the schema says what the type takes, but `parse` reports where serde refuses.
    pub const CONVERTED: u8 = 1 << 6;
    /// The text transforms (`trim`, `lowercase`, `uppercase`).
    pub const TRANSFORMS: u8 = TRIM | LOWERCASE | UPPERCASE;
    /// The checks a schema cannot show.
    pub const HIDDEN: u8 = REFINE | TRIM | LOWERCASE | UPPERCASE | VIA | OPAQUE;
}

/// Whether a hidden check sits in any of the nodes.
const fn any_hidden_check(nodes: &[&Node]) -> bool {
    let mut i = 0;
    while i < nodes.len() {
        if nodes[i].has_hidden_check() {
            return true;
        }
        i += 1;
    }
    false
}

/// A hazard: the value accepts more than its type says.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Hazard {
    /// None.
    None,
    /// `coerce`: the string form of a number or boolean is accepted too.
    Coerce,
    /// `catch = expr`: an invalid (or missing) value is replaced by this JSON.
    Catch(Fallback),
}

/// The JSON an invalid value is replaced with (`catch = expr`, serialized when needed).
#[derive(Clone, Copy, Debug)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub struct Fallback(pub fn() -> serde_json::Value);

/// How a type reads a value and writes it back (its own serde, both ways): the spelling it
/// writes of one it also reads, which `parse` names where the schema refuses the one sent
/// (`"+1"` is sent as `"1"`, `"9:44:55"` as `"09:44:55"`, time's `[0]` as `"+00:00:00"`).
/// `None` where the type does not read the value.
#[derive(Clone, Copy, Debug)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the shapes of other crates' types build in constants, by struct literal"
)]
pub struct Respell(pub fn(&serde_json::Value) -> Option<String>);

impl Hazard {
    /// Whether two hazards are the same kind of hazard.
    pub const fn same(self, other: Hazard) -> bool {
        matches!(
            (self, other),
            (Hazard::None, Hazard::None)
                | (Hazard::Coerce, Hazard::Coerce)
                | (Hazard::Catch(_), Hazard::Catch(_))
        )
    }
}

/// One node of the IR: a kind plus what every kind can carry. Built with [`Node::of`] and
/// the methods that return a changed node.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Node<'a> {
    /// What JSON the node describes.
    pub kind: Kind<'a>,
    /// Whether `null` is accepted (an `Option`).
    pub nullable: bool,
    /// Whether serde accepts the key missing (an `Option`, or a type transparent over one;
    /// not a newtype struct over one): such a field is not required.
    pub omittable: bool,
    /// Hidden checks at this node (bit flags of [`checks`]).
    pub checks: u8,
    /// The hazard of this node.
    pub hazard: Hazard,
    /// The spelling the node's type writes of a text it reads in another, for `parse`'s
    /// message (see [`Respell`]); `None` for a type whose schema states every spelling.
    pub respell: Option<Respell>,
}

impl<'a> Node<'a> {
    /// A node of this kind with nothing else.
    pub const fn of(kind: Kind<'a>) -> Node<'a> {
        Node {
            kind,
            nullable: false,
            omittable: false,
            checks: 0,
            hazard: Hazard::None,
            respell: None,
        }
    }

    /// The opaque node: `{}`.
    pub const OPAQUE: Node<'a> = Node {
        kind: Kind::Opaque,
        nullable: false,
        omittable: false,
        checks: checks::OPAQUE,
        hazard: Hazard::None,
        respell: None,
    };

    /// The same node, also accepting `null` and a missing key (an `Option`).
    pub const fn nullable(&self) -> Node<'a> {
        Node {
            nullable: true,
            omittable: true,
            ..*self
        }
    }

    /// The same node, its key required even when it accepts `null` (a newtype struct over an
    /// `Option`: serde reads a missing key as an error there).
    pub const fn required(&self) -> Node<'a> {
        Node {
            omittable: false,
            ..*self
        }
    }

    /// The same node, `parse` naming the spelling `respell` gives of a text it refuses.
    pub const fn respelled_by(&self, respell: Respell) -> Node<'a> {
        Node {
            respell: Some(respell),
            ..*self
        }
    }

    /// Whether the schema of this node says nothing of its type (`{}`): an opaque value. The
    /// renderer writes it so, and the guard reports it.
    pub const fn advertises_no_type(&self) -> bool {
        matches!(self.kind, Kind::Opaque)
    }

    /// Whether a hidden check (refine, trim, case, via, opaque) sits here or anywhere inside.
    pub const fn has_hidden_check(&self) -> bool {
        if self.checks & checks::HIDDEN != 0 {
            return true;
        }
        match self.kind {
            Kind::Array(item, _) | Kind::Map(item, _) => item.has_hidden_check(),
            Kind::Tuple(elements) | Kind::AnyOf(elements) => any_hidden_check(elements),
            Kind::Object(object) => object.has_hidden_check(),
            Kind::Union(union) => {
                for_each_operation_field!(union, |_operation, _index, field| {
                    if field.node.has_hidden_check() {
                        return true;
                    }
                });
                let mut v = 0;
                while v < union.variants.len() {
                    if let Some(value) = union.variants[v].value()
                        && value.has_hidden_check()
                    {
                        return true;
                    }
                    v += 1;
                }
                false
            }
            leaf_kinds!() => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::kinds;

    #[test]
    fn quoted_kind_names_are_the_names_as_json_strings() {
        for (name, quoted) in kinds::NAMES.iter().zip(kinds::QUOTED) {
            assert_eq!(serde_json::to_string(name).unwrap(), quoted);
        }
    }
}
