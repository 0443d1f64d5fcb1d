//! The schema IR: plain, `Copy`, `const`-constructible data that describes a contract.
//!
//! Every schema stitch produces (the exact one, the advertised flat one, the guard's view and,
//! later, argument validation) is computed from these nodes, so no rule is written twice.
//! Nodes hold only `&'static` references, which lets `Shape::SHAPE` compose across crates in
//! constant evaluation.

use crate::strings::{hash, is_plain, summary};

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

/// A numeric bound as the user wrote it: its JSON text (rendered verbatim) and its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// The number as JSON text, normalised by the derive (`0`, `-3`, `0.5`, `1e300`).
    pub text: &'static str,
    /// The number's value, for run-time checks.
    pub value: f64,
    /// Whether the number is an integer (no fraction, no exponent).
    pub integral: bool,
}

impl Bound {
    /// An integral bound, for the ranges of the standard integer types.
    pub const fn int(text: &'static str, value: f64) -> Bound {
        Bound {
            text,
            value,
            integral: true,
        }
    }
}

/// Visible constraints on a number (`integer` or `number`), and the Rust type it is read into.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumberRules {
    /// `minimum`.
    pub minimum: Option<Bound>,
    /// `maximum`.
    pub maximum: Option<Bound>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: Option<Bound>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: Option<Bound>,
    /// `multipleOf`.
    pub multiple_of: Option<Bound>,
    /// The Rust type the number is read into (not advertised: `parse` checks that the value
    /// fits it).
    pub rust: NumberType,
}

impl NumberRules {
    /// No constraint.
    pub const NONE: NumberRules = NumberRules {
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        multiple_of: None,
        rust: NumberType::Json,
    };
}

/// The Rust type a number is read into: `parse` refuses a value the type cannot hold, which
/// serde would otherwise refuse without saying where (an `i64` sent `2^63`) or turn into
/// infinity (an `f32` sent `1e300`). The schema states a range only for integers narrower
/// than 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum NumberType {
    /// Any JSON number (`serde_json::Number`, or an IR built by hand).
    Json,
    I8,
    I16,
    I32,
    I64,
    I128,
    Isize,
    U8,
    U16,
    U32,
    U64,
    U128,
    Usize,
    F32,
    F64,
}

impl NumberType {
    /// The integers the type holds, as far as a JSON value can carry them (serde_json reads
    /// integers as `i64` or `u64`): `None` for floating-point types and `Json`.
    pub const fn integer_range(self) -> Option<(i128, i128)> {
        const JSON_MIN: i128 = i64::MIN as i128;
        const JSON_MAX: i128 = u64::MAX as i128;
        let (min, max) = match self {
            NumberType::I8 => (i8::MIN as i128, i8::MAX as i128),
            NumberType::I16 => (i16::MIN as i128, i16::MAX as i128),
            NumberType::I32 => (i32::MIN as i128, i32::MAX as i128),
            NumberType::I64 => (i64::MIN as i128, i64::MAX as i128),
            NumberType::Isize => (isize::MIN as i128, isize::MAX as i128),
            NumberType::U8 => (0, u8::MAX as i128),
            NumberType::U16 => (0, u16::MAX as i128),
            NumberType::U32 => (0, u32::MAX as i128),
            NumberType::U64 => (0, u64::MAX as i128),
            NumberType::Usize => (0, usize::MAX as i128),
            NumberType::I128 => (JSON_MIN, JSON_MAX),
            NumberType::U128 => (0, JSON_MAX),
            NumberType::Json | NumberType::F32 | NumberType::F64 => return None,
        };
        Some((min, max))
    }

    /// The largest magnitude the type holds finitely, for floating-point types narrower than
    /// a JSON number's `f64`.
    pub const fn float_limit(self) -> Option<f64> {
        match self {
            NumberType::F32 => Some(f32::MAX as f64),
            _ => None,
        }
    }
}

/// Visible constraints on a string.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StringRules {
    /// `minLength`, in characters.
    pub min_length: Option<u64>,
    /// `maxLength`, in characters.
    pub max_length: Option<u64>,
    /// `pattern` (valid for both the `regex` crate and ECMA-262; checked by the derive).
    pub pattern: Option<&'static str>,
    /// `format`.
    pub format: Option<&'static str>,
}

impl StringRules {
    /// No constraint.
    pub const NONE: StringRules = StringRules {
        min_length: None,
        max_length: None,
        pattern: None,
        format: None,
    };
}

/// Visible constraints on an array.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ArrayRules {
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems: true`.
    pub unique_items: bool,
}

impl ArrayRules {
    /// No constraint.
    pub const NONE: ArrayRules = ArrayRules {
        min_items: None,
        max_items: None,
        unique_items: false,
    };
}

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

    /// The name of the lowest kind among `bits` (the one kind of a base type).
    pub const fn name(bits: u8) -> &'static str {
        NAMES[(bits.trailing_zeros() as usize) % NAMES.len()]
    }
}

/// What JSON a node describes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// `true` or `false`.
    Boolean,
    /// An integer.
    Integer(NumberRules),
    /// Any number.
    Number(NumberRules),
    /// A string.
    String(StringRules),
    /// A string limited to the first list of values (unit-only enums, `values(...)`); the
    /// second list holds other names serde accepts (`alias`), accepted but not advertised.
    StringEnum(&'static [&'static str], &'static [&'static str]),
    /// An array of the item node.
    Array(&'static Node, ArrayRules),
    /// An object with string keys and values of the node (`HashMap`, `BTreeMap`).
    Map(&'static Node),
    /// An object with named fields (a struct).
    Object(&'static Object),
    /// An internally tagged union (an enum of operations).
    Union(&'static Union),
    /// Any JSON value (`serde_json::Value`): typed on purpose as every JSON kind.
    Any,
    /// A value JSON Schema cannot describe (`#[contract(opaque)]`): advertised as `{}`.
    Opaque,
}

impl Kind {
    /// The JSON kinds this kind's base type covers (bits of [`kinds`]; `null` from
    /// nullability aside): what a `type` names.
    pub const fn json_kinds(&self) -> u8 {
        match self {
            Kind::Boolean => kinds::BOOLEAN,
            Kind::Integer(_) => kinds::INTEGER,
            Kind::Number(_) => kinds::NUMBER,
            Kind::String(_) | Kind::StringEnum(..) => kinds::STRING,
            Kind::Array(..) => kinds::ARRAY,
            Kind::Map(_) | Kind::Object(_) | Kind::Union(_) => kinds::OBJECT,
            Kind::Any => kinds::ANY,
            Kind::Opaque => 0,
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
}

/// A hazard: the value accepts more than its type says.
#[derive(Clone, Copy, Debug)]
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
pub struct Fallback(pub fn() -> serde_json::Value);

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

/// One node of the IR: a kind plus what every kind can carry.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// What JSON the node describes.
    pub kind: Kind,
    /// Whether `null` is accepted (an `Option`).
    pub nullable: bool,
    /// Whether serde accepts the key missing (an `Option`, or a type transparent over one;
    /// not a newtype struct over one): such a field is not required.
    pub omittable: bool,
    /// Hidden checks at this node (bit flags of [`checks`]).
    pub checks: u8,
    /// The hazard of this node.
    pub hazard: Hazard,
}

impl Node {
    /// A node of this kind with nothing else.
    pub const fn of(kind: Kind) -> Node {
        Node {
            kind,
            nullable: false,
            omittable: false,
            checks: 0,
            hazard: Hazard::None,
        }
    }

    /// The opaque node: `{}`.
    pub const OPAQUE: Node = Node {
        kind: Kind::Opaque,
        nullable: false,
        omittable: false,
        checks: checks::OPAQUE,
        hazard: Hazard::None,
    };

    /// The same node, also accepting `null` and a missing key (an `Option`).
    pub const fn nullable(&self) -> Node {
        Node {
            nullable: true,
            omittable: true,
            ..*self
        }
    }

    /// The same node, its key required even when it accepts `null` (a newtype struct over an
    /// `Option`: serde reads a missing key as an error there).
    pub const fn required(&self) -> Node {
        Node {
            omittable: false,
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
        if self.checks != 0 {
            return true;
        }
        match self.kind {
            Kind::Array(item, _) | Kind::Map(item) => item.has_hidden_check(),
            Kind::Object(object) => object.has_hidden_check(),
            Kind::Union(union) => {
                for_each_operation_field!(union, |_operation, _index, field| {
                    if field.node.has_hidden_check() {
                        return true;
                    }
                });
                false
            }
            _ => false,
        }
    }
}

/// A description (`description = "..."` or a doc comment) with what rendering needs to know
/// of it without reading its bytes again: constant evaluation pays for every byte it looks
/// at, and a contract's descriptions are most of its text.
#[derive(Clone, Copy, Debug)]
pub struct Doc {
    /// The text, unescaped.
    pub text: &'static str,
    /// How the text stands inside a JSON string.
    pub escape: Escape,
    /// The text's FNV-1a hash: two descriptions are the same when their lengths and hashes are
    /// (FNV-1a, 64 bits: two different texts of one length collide with a chance of 2⁻⁶⁴).
    pub hash: u64,
}

/// How a text stands inside a JSON string, as far as it is known before rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Escape {
    /// As it is: the text needs no escape, and rendering copies it whole.
    Plain,
    /// As this escaped text, which rendering copies whole (the derive writes it).
    Escaped(&'static str),
    /// Not known: rendering escapes it byte by byte.
    Unknown,
}

impl Doc {
    /// A description, its facts computed in constant evaluation.
    pub const fn new(text: &'static str) -> Doc {
        let escape = if is_plain(text) {
            Escape::Plain
        } else {
            Escape::Unknown
        };
        Doc::declared(text, escape, hash(text))
    }

    /// A description as the derive declares it, its facts computed at expansion.
    pub const fn declared(text: &'static str, escape: Escape, hash: u64) -> Doc {
        Doc { text, escape, hash }
    }

    /// An optional text as an optional description.
    pub const fn of(text: Option<&'static str>) -> Option<Doc> {
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

/// A named field of an object.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// The wire name (after `rename`/`rename_all`).
    pub name: &'static str,
    /// Other names serde accepts (`alias`): accepted, not advertised.
    pub aliases: &'static [&'static str],
    /// The field's schema.
    pub node: &'static Node,
    /// Whether the key must be present (neither `Option` nor `default`).
    pub required: bool,
    /// The description (`description = "..."` or the doc comment).
    pub description: Option<Doc>,
    /// Whether the name needs no JSON escape: then rendering copies it instead of scanning
    /// it byte by byte (constant evaluation pays for every byte it looks at).
    pub plain: bool,
}

impl Field {
    /// A field; required unless its node is omittable (an `Option`) or it has a default.
    pub const fn new(
        name: &'static str,
        node: &'static Node,
        has_default: bool,
        description: Option<&'static str>,
    ) -> Field {
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
    pub const fn declared(
        name: &'static str,
        plain: bool,
        node: &'static Node,
        has_default: bool,
        description: Option<Doc>,
    ) -> Field {
        Field {
            name,
            aliases: &[],
            node,
            required: !node.omittable && !has_default,
            description,
            plain,
        }
    }

    /// The same field, also accepting these names.
    pub const fn with_aliases(self, aliases: &'static [&'static str]) -> Field {
        Field { aliases, ..self }
    }
}

/// An object with named fields (a struct, or the fields of one operation).
#[derive(Clone, Copy, Debug)]
pub struct Object {
    /// Fields in declaration order.
    pub fields: &'static [Field],
    /// `#[serde(deny_unknown_fields)]`.
    pub deny_unknown: bool,
    /// The type's doc comment.
    pub description: Option<Doc>,
}

impl Object {
    /// The object with no field (a unit operation).
    pub const EMPTY: Object = Object {
        fields: &[],
        deny_unknown: false,
        description: None,
    };

    /// Whether a hidden check sits in any field, at any depth.
    pub const fn has_hidden_check(&self) -> bool {
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
pub struct Variant {
    /// The tag value (after `rename`/`rename_all`).
    pub name: &'static str,
    /// Other tag values serde accepts (`alias`).
    pub aliases: &'static [&'static str],
    /// The operation's doc comment.
    pub description: Option<Doc>,
    /// The first line of the description, without its final period: how the tag's
    /// description names the operation.
    pub summary: Option<Doc>,
    /// The operation's fields (a struct variant, a newtype of a struct, or empty for a unit).
    pub object: &'static Object,
    /// Whether the name needs no JSON escape (see [`Field::plain`]).
    pub plain: bool,
}

impl Variant {
    /// An operation.
    pub const fn new(
        name: &'static str,
        aliases: &'static [&'static str],
        description: Option<&'static str>,
        object: &'static Object,
    ) -> Variant {
        let summary = match description {
            Some(text) => Some(Doc::new(summary(text))),
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
    pub const fn declared(
        name: &'static str,
        plain: bool,
        aliases: &'static [&'static str],
        description: Option<Doc>,
        summary: Option<Doc>,
        object: &'static Object,
    ) -> Variant {
        Variant {
            name,
            aliases,
            description,
            summary,
            object,
            plain,
        }
    }
}

/// An internally tagged union: the tag names the operation, the operation's fields sit
/// beside it.
#[derive(Clone, Copy, Debug)]
pub struct Union {
    /// The tag's key (`#[serde(tag = "op")]`).
    pub tag: &'static str,
    /// The operations in declaration order.
    pub variants: &'static [Variant],
    /// The enum's doc comment.
    pub description: Option<Doc>,
    /// The flattened key table, computed once in constant evaluation for non-generic unions
    /// by the derive. `None` for generic and hand-built unions: the same rules then run over
    /// the variants directly.
    pub(crate) flat: Option<&'static crate::table::Flat>,
}

impl Union {
    /// A union without a precomputed key table.
    pub const fn new(
        tag: &'static str,
        variants: &'static [Variant],
        description: Option<Doc>,
    ) -> Union {
        Union {
            tag,
            variants,
            description,
            flat: None,
        }
    }

    /// Whether the union carries a key table (the derive's; not a public API).
    #[doc(hidden)]
    pub const fn has_key_table(&self) -> bool {
        self.flat.is_some()
    }

    /// The same union with its key table (the derive's; not a public API).
    #[doc(hidden)]
    pub const fn with_flat(self, flat: &'static crate::table::Flat) -> Union {
        Union {
            flat: Some(flat),
            ..self
        }
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
