#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
// A public type that may grow is `#[non_exhaustive]`; one that may not says why.
#![warn(clippy::exhaustive_enums, clippy::exhaustive_structs)]
// docs.rs builds with every feature and marks what each item needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use stitch_derive::{Contract, Shape};
// What a contract is and what using one meets: the product's own types, at the root.
pub use stitch_runtime::{
    Contract, Dialect, Finding, Issue, IssueCode, JsonPointer, Rejection, Rendering, SchemaProfile,
    Shape, StringKey, Tool, UnknownDialect, ir, schema_of, validate_mcp_schemas,
};

#[doc(hidden)]
pub use stitch_runtime::__private;

/// The guard: what a list of tools advertises, held to a [`SchemaProfile`] at compile time
/// (a contract's own profile) and at run time (every tool a server mounts, stitch's or
/// another's), with the limits of the providers each dialect is written for.
///
/// [`check`](guard::check) is its one run-time entry point, over any mix of contracts and
/// listed tools; [`validate_mcp_schemas`] is the `const fn` a contract's own profile is
/// checked with at compile time; [`over_budget`](guard::over_budget) measures schema texts
/// as a listing sends them against the providers' limits, and
/// [`budget_use`](guard::budget_use) says how much of each limit a listing uses.
pub mod guard {
    pub use stitch_runtime::{
        Checked, Finding, FindingKind, Limit, PORTABLE_FORMATS, budget_use, check, over_budget,
        validate_mcp_schemas,
    };
}

/// The dialects as one table: each [`Dialect`]'s row of named rules ([`DialectRules`](dialect::DialectRules)), which
/// the renderer, the guard and `parse_for` read: closed objects, how `null`, several kinds, a
/// free value, a tuple, a foreign `anyOf` and a map are said, the keywords taken, the names
/// and the budgets that bind its clients.
pub mod dialect {
    pub use stitch_runtime::{
        AnyOf, DIALECTS, Dialect, DialectRules, FreeValues, Maps, NameRule, NullSaid, Omitted,
        Provider, SeveralKinds, Taken, Tuples,
    };
}

/// Schemas stitch did not write (schemars' output, a hand-written tool, another server's),
/// flattened and shown in a dialect by the rules stitch's own contracts are, and a strict
/// client's arguments read back for them.
pub mod foreign {
    pub use stitch_runtime::{
        MAX_FOREIGN_DEPTH as MAX_DEPTH, arguments_for, flatten_tool_schema, output_schema_for,
        strict_arguments_for, tool_schema_for,
    };
}

/// What a schema text weighs (bytes, tokens, what providers limit) and the digests that
/// identify what a client was listed.
pub mod measure {
    pub use stitch_runtime::{Measure, catalog_stamp, estimate_tokens, text_digest};
}

#[cfg(feature = "rmcp")]
pub mod mcp;
