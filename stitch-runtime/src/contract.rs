//! The trait `#[derive(Contract)]` implements: a tool's input, its schemas and the parsing of
//! one call.

use crate::parse;
use crate::rejection::Rejection;
use crate::render::{Mode, rendered};
use crate::shape::Shape;
use crate::tool::Tool;

/// A tool's input contract: its schemas, computed at compile time, and the parsing of one
/// call. Implemented by `#[derive(Contract)]`.
pub trait Contract: Shape + serde::de::DeserializeOwned {
    /// The tool: name, description, schema IR and declared profile.
    const TOOL: Tool;

    /// The advertised, flattened JSON Schema text of the input.
    fn input_schema() -> &'static str {
        Self::TOOL.input_schema()
    }

    /// The exact JSON Schema text of the input: tagged unions as `oneOf`. Rendered on the
    /// first call and kept; a non-generic contract also has it as the compile-time const
    /// `EXACT_SCHEMA`, which costs its crate nothing until read (the exact schema is often
    /// never read, and rendering it in every build would).
    fn exact_schema() -> &'static str {
        rendered(Self::SHAPE, Mode::Exact)
    }

    /// Parses one call's arguments into the contract's type: validation against the exact
    /// contract with every issue at its JSON Pointer, then `catch`, `coerce` and the
    /// transforms, then serde, then the `refine` checks. Never panics, on any value.
    fn parse(args: serde_json::Value) -> Result<Self, Rejection> {
        parse::parse(args)
    }
}
