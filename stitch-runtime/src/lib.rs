//! The runtime of [stitch](https://docs.rs/stitch): the traits `#[derive(Contract)]`
//! implements, the guard, the parsing of one call, and the `const` schema IR they all read.
//! Users depend on the `stitch` facade, which re-exports this crate's public API. The rules
//! the derive applies too (names, escapes, the keyword table, attribute fits, patterns) live
//! in `stitch-rules`, called here in constant evaluation.
//!
//! Modules, from the bottom up: `sink` (text in constant evaluation); `measure` (what a
//! schema text weighs); `table` and `node` (the IR, with each keyword's slot); `flatten/` (the
//! key table and the collision rules); `dialect` (what each kind of client is shown);
//! `render/` (which JSON a schema is); `attributes` (field attributes applied to nodes);
//! `rejection`; `shape`; `const_text` (how a `&'static str` comes out of constant evaluation,
//! and what that costs); `format`, `pattern`, `check/` and `parse` (one call); `catalog` (the
//! digest of what a client was listed); `tool`, `guard/` (its budgets included) and
//! `contract`. No module imports from one above it.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod attributes;
mod buffered;
mod catalog;
mod check;
mod const_text;
mod contract;
mod dialect;
mod flatten;
mod flattened;
mod foreign;
mod format;
mod guard;
mod measure;
mod node;
mod parse;
mod pattern;
mod rejection;
mod render;
mod shape;
mod sink;
mod table;
mod tool;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use catalog::{catalog_stamp, text_digest, tool_digest};
pub use contract::Contract;
pub use foreign::{
    MAX_DEPTH as MAX_FOREIGN_DEPTH, flatten_tool_schema, output_schema_for, strict_arguments_for,
    tool_schema_for,
};
pub use guard::{
    Finding, FindingKind, Limit, PORTABLE_FORMATS, all_findings, over_budget, validate_mcp_schemas,
    validate_output_schema, validate_tool_schema,
};
pub use measure::{Measure, estimate_tokens};
pub use rejection::{Issue, JsonPointer, REJECTION_META_KEY, Rejection};
pub use render::{exact_schema_of, output_schema_of_in, schema_of, schema_of_in};
pub use shape::{Shape, StringKey};
pub use stitch_rules::{Dialect, IssueCode, UnknownDialect};
pub use tool::{SchemaProfile, Tool};

/// The schema IR: what a type's [`Shape::SHAPE`] is made of, for a hand-written `Shape`
/// impl. `#[derive(Contract)]` writes these for you; every schema stitch renders, the guard's
/// walk and the validation of a call are computed from them.
pub mod ir {
    pub use crate::node::{
        ArrayRules, Bound, Doc, Escape, Fallback, Field, Hazard, Hints, Holds, KeywordSlots,
        KeywordValue, Kind, MapRules, Node, NumberRules, NumberType, Object, StringRules, Tagging,
        Union, Variant, Verbatim, checks, kinds,
    };
    pub use crate::render::Rendering;
    pub use stitch_rules::Keyword;

    /// A node's schema, rendered anew: the text `Contract`'s schemas and [`schema_of`]
    /// return, for a node built at run time.
    ///
    /// [`schema_of`]: crate::schema_of
    pub fn render(node: &'static Node<'static>, rendering: Rendering) -> String {
        crate::render::schema_string(node, rendering)
    }
}
