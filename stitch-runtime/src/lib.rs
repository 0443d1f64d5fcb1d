//! The runtime of [stitch](https://docs.rs/stitch): the traits `#[derive(Contract)]`
//! implements, the guard, the parsing of one call, and the `const` schema IR they all read.
//! Users depend on the `stitch` facade, which re-exports this crate's public API. The rules
//! the derive applies too (names, escapes, the keyword table, attribute fits, patterns) live
//! in `stitch-rules`, called here in constant evaluation.
//!
//! The stages, from the bottom up, each a folder that imports only from those before it
//! (`tests/stages.rs` fails on an import from a later stage): `ir` (the schema IR), `shape`
//! (the `Shape` trait and the type mapping), `union` (flattening a tagged union: the key
//! table and the collision rules), `text` (writing JSON text: rendering, constant text,
//! measures, digests), `call` (checking and parsing one call), `foreign` (schemas stitch did
//! not write), then `tool` (the tool a contract is), `guard/` (its budgets included) and
//! `contract`.
#![forbid(unsafe_code)]
// A public type that may grow is `#[non_exhaustive]`; one that may not says why.
#![warn(clippy::exhaustive_enums, clippy::exhaustive_structs)]
// docs.rs builds with every feature and marks what each item needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]

mod call;
mod contract;
mod foreign;
mod guard;
pub mod ir;
mod shape;
mod text;
mod tool;
mod union;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use call::rejection::{Issue, JsonPointer, REJECTION_META_KEY, Rejection};
pub use contract::Contract;
pub use foreign::{
    MAX_DEPTH as MAX_FOREIGN_DEPTH, arguments_for, flatten_tool_schema, output_schema_for,
    strict_arguments_for, tool_schema_for,
};
pub use guard::{
    Checked, Finding, FindingKind, Limit, PORTABLE_FORMATS, budget_use, check, over_budget,
    validate_mcp_schemas,
};
pub use shape::{Shape, StringKey};
pub use stitch_rules::{
    AnyOf, DIALECTS, Dialect, DialectRules, FreeValues, IssueCode, Maps, NameRule, NullSaid,
    Omitted, Provider, SeveralKinds, Taken, Tuples, UnknownDialect,
};
pub use text::digest::{catalog_stamp, text_digest};
pub use text::measure::Measure;
pub use text::render::{Rendering, schema_of};
pub use text::tokens::estimate_tokens;
pub use tool::{SchemaProfile, Tool};
