//! The rules a node's keywords state, by kind of value: a number's bounds and type, a
//! string's length, pattern and format, an array's items, a map's entries; and a keyword's
//! value as the IR holds it. Which keyword is which rule is `keyword_rules`'.

/// A numeric bound as the user wrote it: its JSON text (rendered verbatim) and its value.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Bound<'a> {
    /// The number as JSON text, normalised by the derive (`0`, `-3`, `0.5`, `1e300`).
    pub text: &'a str,
    /// The number's value, for run-time checks.
    pub value: f64,
    /// Whether the number is an integer (no fraction, no exponent).
    pub integral: bool,
}

impl<'a> Bound<'a> {
    /// A bound: its JSON text, its value, and whether it is an integer.
    pub const fn new(text: &'a str, value: f64, integral: bool) -> Bound<'a> {
        Bound {
            text,
            value,
            integral,
        }
    }

    /// An integral bound, for the ranges of the standard integer types.
    pub const fn int(text: &'a str, value: f64) -> Bound<'a> {
        Bound::new(text, value, true)
    }
}

/// Visible constraints on a number (`integer` or `number`), and the Rust type it is read into.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub struct NumberRules<'a> {
    /// `minimum`.
    pub minimum: Option<Bound<'a>>,
    /// `maximum`.
    pub maximum: Option<Bound<'a>>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: Option<Bound<'a>>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: Option<Bound<'a>>,
    /// `multipleOf`.
    pub multiple_of: Option<Bound<'a>>,
    /// The Rust type the number is read into (not advertised: `parse` checks that the value
    /// fits it).
    pub rust: NumberType,
}

impl<'a> NumberRules<'a> {
    /// No constraint.
    pub const NONE: NumberRules<'a> = NumberRules {
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
#[non_exhaustive]
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
    #[inline(always)]
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
            // `f32::MAX` as the shortest JSON text writes it: larger values up to it still
            // round to a finite `f32`.
            NumberType::F32 => Some(3.4028235e38),
            _ => None,
        }
    }
}

/// Visible constraints on a string.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub struct StringRules<'a> {
    /// `minLength`, in characters.
    pub min_length: Option<u64>,
    /// `maxLength`, in characters.
    pub max_length: Option<u64>,
    /// `pattern` (read alike by ECMA-262 and the `regex` crate; checked by the derive).
    pub pattern: Option<&'a str>,
    /// `format`.
    pub format: Option<&'a str>,
}

impl<'a> StringRules<'a> {
    /// No constraint.
    pub const NONE: StringRules<'a> = StringRules {
        min_length: None,
        max_length: None,
        pattern: None,
        format: None,
    };

    /// Exactly one character (a `char`).
    pub const ONE_CHARACTER: StringRules<'a> = StringRules {
        min_length: Some(1),
        max_length: Some(1),
        ..StringRules::NONE
    };
}

/// Visible constraints on an array.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
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

/// Visible constraints on a map.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub struct MapRules {
    /// `minProperties`.
    pub min_properties: Option<u64>,
    /// `maxProperties`.
    pub max_properties: Option<u64>,
}

impl MapRules {
    /// No constraint.
    pub const NONE: MapRules = MapRules {
        min_properties: None,
        max_properties: None,
    };
}

/// A keyword's value, as the IR holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub enum KeywordValue<'a> {
    /// A number (`minimum`, ...).
    Bound(Bound<'a>),
    /// A count (`minLength`, ...).
    Count(u64),
    /// A text (`pattern`, `format`).
    Text(&'a str),
    /// Set (`uniqueItems`).
    Flag,
}

impl<'a> KeywordValue<'a> {
    /// Whether two values of one keyword read the same (bounds by the text they are written
    /// in).
    pub const fn same(self, other: KeywordValue) -> bool {
        match (self, other) {
            (KeywordValue::Flag, KeywordValue::Flag) => true,
            (KeywordValue::Bound(x), KeywordValue::Bound(y)) => {
                stitch_rules::strings::str_eq(x.text, y.text)
            }
            (KeywordValue::Count(x), KeywordValue::Count(y)) => x == y,
            (KeywordValue::Text(x), KeywordValue::Text(y)) => stitch_rules::strings::str_eq(x, y),
            _ => false,
        }
    }
}
