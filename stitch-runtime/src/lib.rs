//! The runtime of [stitch](https://docs.rs/stitch): the traits `#[derive(Contract)]`
//! implements, the guard, the parsing of one call, and the `const` schema IR they all read.
//! Users depend on the `stitch` facade, which re-exports this crate's public tree whole: the
//! root's types and the modules `guard`, `foreign`, `dialect`, `measure` and `ir`, at the
//! paths users write. So the examples here are written as a user writes them (`stitch::…`)
//! and run against the facade, a dev-dependency of this crate. The rules
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
pub mod foreign;
pub mod guard;
pub mod ir;
mod shape;
mod text;
mod tool;
mod union;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

// What a contract is and what using one meets: the product's own types, at the root.
pub use call::rejection::{Issue, JsonPointer, REJECTION_META_KEY, Rejection};
pub use contract::Contract;
pub use guard::compile_time::validate_mcp_schemas;
pub use guard::finding::Finding;
pub use shape::{Shape, StringKey};
pub use stitch_rules::{Dialect, IssueCode, UnknownDialect};
pub use text::render::{Rendering, schema_of};
pub use tool::{ContractTool, SchemaProfile, Tool};

pub mod dialect {
    //! The dialects as one table: each [`Dialect`](crate::Dialect)'s row of named rules
    //! ([`DialectRules`]), which the renderer, the guard and `parse_for` read: closed objects,
    //! how `null`, several kinds, a free value, a tuple, a foreign `anyOf` and a map are said,
    //! the keywords taken, the names and the budgets that bind its clients. `Dialect` itself is
    //! at the crate's root, where every contract's user meets it.
    pub use stitch_rules::{
        AnyOf, DIALECTS, DialectRules, FreeValues, Maps, NameRule, NullSaid, Omitted, Provider,
        SeveralKinds, Taken, Tuples,
    };
}

pub mod measure {
    //! What a schema text weighs (bytes, tokens, what providers limit) and the digests that
    //! identify what a client was listed.
    pub use crate::text::digest::{catalog_stamp, text_digest};
    pub use crate::text::measure::Measure;
    pub use crate::text::tokens::estimate_tokens;
}
