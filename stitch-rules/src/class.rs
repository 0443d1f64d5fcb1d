//! The classes of values an attribute may apply to: what a field is, as the spelling of its
//! type tells the derive, or as its shape tells constant evaluation.

/// What a field's value is, for the attributes that apply to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_enums,
    reason = "the rules stitch-derive and stitch-runtime read and build, released with them at one version: a new variant is a rule each must implement"
)]
pub enum Class {
    /// `true` or `false`.
    Boolean,
    /// An integer.
    Integer,
    /// Any number.
    Number,
    /// A string.
    String,
    /// A string limited to some values.
    StringEnum,
    /// An array.
    Array,
    /// An array of fixed length, each position of its own type (a tuple).
    Tuple,
    /// An object of string keys and values of one type.
    Map,
    /// An object of named fields.
    Object,
    /// A tagged union of operations.
    Union,
    /// Any JSON value.
    Any,
    /// A value JSON Schema cannot describe.
    Opaque,
}

impl Class {
    /// How a message names a value of this class ("a string").
    pub const fn described(self) -> &'static str {
        match self {
            Class::Boolean => "a boolean",
            Class::Integer => "an integer",
            Class::Number => "a number",
            Class::String => "a string",
            Class::StringEnum => "a string enum",
            Class::Array => "an array",
            Class::Tuple => "a tuple",
            Class::Map => "a map",
            Class::Object => "an object",
            Class::Union => "a tagged union",
            Class::Any => "any JSON value",
            Class::Opaque => "an opaque value",
        }
    }

    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// The classes an attribute applies to, and how a message names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fit {
    classes: u16,
    /// How a message names the classes ("numbers").
    pub says: &'static str,
}

impl Fit {
    /// Integers and numbers.
    pub const NUMBERS: Fit = Fit {
        classes: Class::Integer.bit() | Class::Number.bit(),
        says: "numbers",
    };
    /// Free strings (not those already limited to values).
    pub const STRINGS: Fit = Fit {
        classes: Class::String.bit(),
        says: "strings",
    };
    /// Every string, those limited to values too.
    pub const TEXTS: Fit = Fit {
        classes: Class::String.bit() | Class::StringEnum.bit(),
        says: "strings",
    };
    /// Arrays.
    pub const ARRAYS: Fit = Fit {
        classes: Class::Array.bit(),
        says: "arrays",
    };
    /// Maps.
    pub const MAPS: Fit = Fit {
        classes: Class::Map.bit(),
        says: "maps",
    };
    /// What a string can spell: numbers and booleans.
    pub const NUMBERS_AND_BOOLEANS: Fit = Fit {
        classes: Class::Integer.bit() | Class::Number.bit() | Class::Boolean.bit(),
        says: "numbers and booleans",
    };
    /// Every value.
    pub const ANY: Fit = Fit {
        classes: u16::MAX,
        says: "any value",
    };

    /// Whether a value of `class` takes the attribute.
    pub const fn admits(self, class: Class) -> bool {
        self.classes & class.bit() != 0
    }
}
