//! The rules [stitch](https://docs.rs/stitch)'s derive and runtime both need, in one home:
//! `const fn`s and tables that `stitch-derive` calls natively while it expands a contract and
//! `stitch-runtime` calls in constant evaluation (and at run time), so that no rule is written
//! twice on the two sides of the proc-macro boundary. Users reach what is public of it through
//! the `stitch` facade.
//!
//! Modules: `strings`, `text` and `json` (text in constant evaluation: comparison, bounded
//! messages, JSON escapes and the hash two texts are compared by); `doc` (a description's
//! summary line); `name` (the tool-name rule); `keys` and `hint` (numbering a flattened union's
//! keys, and how a key names its operations); `class`, `keyword` and `attribute` (the values
//! attributes apply to, the keyword table, the field attributes and their misfits); `dialect`,
//! `format` and `issue` (the dialects, the formats, the codes of a rejection's issues);
//! `pattern` (feature `pattern`: how a pattern reads in ECMA-262 and in the `regex` crate).
#![forbid(unsafe_code)]
// A public type that may grow is `#[non_exhaustive]`; one that may not says why.
#![warn(clippy::exhaustive_enums, clippy::exhaustive_structs)]
#![deny(missing_docs)]

pub mod attribute;
pub mod class;
pub mod dialect;
pub mod doc;
pub mod format;
pub mod hint;
pub mod issue;
pub mod json;
pub mod keys;
pub mod keyword;
pub mod name;
#[cfg(feature = "pattern")]
pub mod pattern;
pub mod strings;
pub mod text;

pub use attribute::{Attribute, GivenValue, Misfit, Said, Takes, check_fit};
pub use class::{Class, Fit};
pub use dialect::{
    AnyOf, DIALECTS, Dialect, DialectRules, FreeValues, Maps, NameRule, NullSaid, Omitted,
    Provider, SeveralKinds, Taken, Tuples, UnknownDialect,
};
pub use format::{Format, KNOWN_FORMATS, PORTABLE_FORMATS};
pub use issue::IssueCode;
pub use keyword::{Check, Counted, Given, KEYWORDS, Keyword, KeywordSpec, Limit, Relation};
pub use name::{NAME_PATTERN, NameProblem, name_problem};
pub use text::{Message, Text};
