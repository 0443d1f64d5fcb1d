//! The runtime of [stitch](https://docs.rs/stitch): the traits `#[derive(Contract)]`
//! implements, the guard, the parsing of one call, and the `const` schema IR they all read.
//! Users depend on the `stitch` facade, which re-exports this crate's public API.
//!
//! Modules, from the bottom up: `strings`, `sink` and `message` (text in constant evaluation);
//! `table` and `node` (the IR); `flatten` (the collision rules); `dialect` (what each kind of
//! client is shown); `render` (which JSON a schema is); `attributes` (field attributes applied to nodes); `rejection`; `shape`; `const_text`
//! (how a `&'static str` comes out of constant evaluation, and what that costs); `format`,
//! `pattern`, `check` and `parse` (one call); `tool`, `guard` and `contract`. No module
//! imports from one above it.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod attributes;
mod check;
mod const_text;
mod contract;
mod dialect;
mod flatten;
mod format;
mod guard;
mod message;
mod node;
mod parse;
mod pattern;
mod rejection;
mod render;
mod shape;
mod sink;
mod strings;
mod table;
mod tool;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use contract::Contract;
pub use dialect::{Dialect, UnknownDialect};
pub use guard::{
    Finding, FindingKind, PORTABLE_FORMATS, all_findings, validate_mcp_schemas,
    validate_output_schema, validate_tool_schema,
};
pub use rejection::{Issue, JsonPointer, REJECTION_META_KEY, Rejection};
pub use render::Mode;
pub use shape::{Shape, StringKey};
pub use tool::{SchemaProfile, Tool};

/// The schema IR: what a type's [`Shape::SHAPE`] is made of, for a hand-written `Shape`
/// impl. `#[derive(Contract)]` writes these for you; every schema stitch renders, the guard's
/// walk and the validation of a call are computed from them.
pub mod ir {
    pub use crate::node::{
        ArrayRules, Bound, Doc, Escape, Fallback, Field, Hazard, Kind, Node, NumberRules,
        NumberType, Object, StringRules, Union, Variant, checks, kinds,
    };
}
