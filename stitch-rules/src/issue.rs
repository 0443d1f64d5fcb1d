//! What kind of problem an issue of a rejected call is: a stable code a client can branch on,
//! beside the message written for a model.

use core::fmt;

/// What kind of problem an [`Issue`](https://docs.rs/stitch/latest/stitch/struct.Issue.html)
/// is. [`as_str`](Self::as_str) gives its stable snake_case code, which is what a rejection's
/// structured content carries. New codes may be added: match with a `_` arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IssueCode {
    /// `invalid_type`: the value is of another JSON type than the contract's (a string where
    /// a number goes).
    InvalidType,
    /// `missing_required`: a key the operation requires is missing.
    MissingRequired,
    /// `unknown_key`: a key the object does not declare, where it denies unknown keys.
    UnknownKey,
    /// `duplicate_key`: a key given twice, under its name and an alias, or in two of a map's
    /// entries.
    DuplicateKey,
    /// `missing_operation`: a tagged union's tag is missing.
    MissingOperation,
    /// `unknown_operation`: a tagged union's tag names no operation, or is not a string.
    UnknownOperation,
    /// `enum`: a string outside the values it is limited to.
    Enum,
    /// `minimum`: a number below `minimum`.
    Minimum,
    /// `maximum`: a number above `maximum`.
    Maximum,
    /// `exclusive_minimum`: a number not above `exclusiveMinimum`.
    ExclusiveMinimum,
    /// `exclusive_maximum`: a number not below `exclusiveMaximum`.
    ExclusiveMaximum,
    /// `multiple_of`: a number that is not a multiple of `multipleOf`.
    MultipleOf,
    /// `min_length`: a string shorter than `minLength` characters.
    MinLength,
    /// `max_length`: a string longer than `maxLength` characters.
    MaxLength,
    /// `pattern`: a string that does not match `pattern`.
    Pattern,
    /// `format`: a string that is not of its `format`.
    Format,
    /// `min_items`: an array of fewer than `minItems` items.
    MinItems,
    /// `max_items`: an array of more than `maxItems` items.
    MaxItems,
    /// `unique_items`: an array whose items repeat, where `uniqueItems` forbids it.
    UniqueItems,
    /// `min_properties`: a map of fewer than `minProperties` entries.
    MinProperties,
    /// `max_properties`: a map of more than `maxProperties` entries.
    MaxProperties,
    /// `out_of_range`: a number the field's Rust type cannot hold (`300` for a `u8`).
    OutOfRange,
    /// `too_deep`: a free value nested deeper than 128 levels.
    TooDeep,
    /// `invalid_value`: a value serde refused after validation (through `via`, or an opaque
    /// field).
    InvalidValue,
    /// `refine`: a `refine` check failed.
    Refine,
}

impl IssueCode {
    /// The stable snake_case code (`invalid_type`).
    pub const fn as_str(self) -> &'static str {
        match self {
            IssueCode::InvalidType => "invalid_type",
            IssueCode::MissingRequired => "missing_required",
            IssueCode::UnknownKey => "unknown_key",
            IssueCode::DuplicateKey => "duplicate_key",
            IssueCode::MissingOperation => "missing_operation",
            IssueCode::UnknownOperation => "unknown_operation",
            IssueCode::Enum => "enum",
            IssueCode::Minimum => "minimum",
            IssueCode::Maximum => "maximum",
            IssueCode::ExclusiveMinimum => "exclusive_minimum",
            IssueCode::ExclusiveMaximum => "exclusive_maximum",
            IssueCode::MultipleOf => "multiple_of",
            IssueCode::MinLength => "min_length",
            IssueCode::MaxLength => "max_length",
            IssueCode::Pattern => "pattern",
            IssueCode::Format => "format",
            IssueCode::MinItems => "min_items",
            IssueCode::MaxItems => "max_items",
            IssueCode::UniqueItems => "unique_items",
            IssueCode::MinProperties => "min_properties",
            IssueCode::MaxProperties => "max_properties",
            IssueCode::OutOfRange => "out_of_range",
            IssueCode::TooDeep => "too_deep",
            IssueCode::InvalidValue => "invalid_value",
            IssueCode::Refine => "refine",
        }
    }
}

impl fmt::Display for IssueCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for IssueCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<IssueCode> for &str {
    fn eq(&self, other: &IssueCode) -> bool {
        *self == other.as_str()
    }
}
