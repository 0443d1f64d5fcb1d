#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
// A public type that may grow is `#[non_exhaustive]`; one that may not says why.
#![warn(clippy::exhaustive_enums, clippy::exhaustive_structs)]
// docs.rs builds with every feature and marks what each item needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use stitch_derive::{Contract, Shape};
// The runtime's public tree, whole: the root's types and the modules `guard`, `foreign`,
// `dialect`, `measure` and `ir`, each defined (and documented) once, there.
pub use stitch_runtime::{
    Contract, ContractTool, Dialect, Finding, Issue, IssueCode, JsonPointer, REJECTION_META_KEY,
    Rejection, Rendering, SchemaProfile, Shape, StringKey, Tool, UnknownDialect, dialect, foreign,
    guard, ir, measure, schema_of, validate_mcp_schemas,
};

#[doc(hidden)]
pub use stitch_runtime::__private;

#[cfg(feature = "rmcp")]
pub mod mcp;
