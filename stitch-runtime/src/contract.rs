//! The trait `#[derive(Contract)]` implements: a tool's input, its schemas and the parsing of
//! one call.

use stitch_rules::Dialect;

use crate::call::parse;
use crate::call::rejection::Rejection;
use crate::shape::Shape;
use crate::text::measure::Measure;
use crate::text::render::{Rendering, rendered};
use crate::tool::ContractTool;

/// A tool's input contract: its schemas, computed at compile time, and the parsing of one
/// call. Implemented by `#[derive(Contract)]` (with `#[derive(serde::Deserialize)]`).
///
/// A non-generic contract also has its schemas as inherent constants, rendered by the
/// compiler: `INPUT_SCHEMA` (the advertised schema, what [`input_schema`](Self::input_schema)
/// returns) and `EXACT_SCHEMA` (the exact one, rendered only where it is read). A generic
/// contract renders them at run time, once per type.
///
/// ```
/// use serde::Deserialize;
/// use stitch::Contract;
///
/// #[derive(Contract, Deserialize)]
/// struct GetBroadcast {
///     broadcast_id: String,
/// }
///
/// const SCHEMA: &str = GetBroadcast::INPUT_SCHEMA;
/// assert_eq!(
///     SCHEMA,
///     r#"{"type":"object","properties":{"broadcast_id":{"type":"string"}},"required":["broadcast_id"]}"#
/// );
/// assert_eq!(GetBroadcast::input_schema(), SCHEMA);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a stitch contract (it does not implement `Contract`)",
    label = "a tool's arguments must be a stitch contract",
    note = "derive it: `#[derive(stitch::Contract, serde::Deserialize)]` on `{Self}`"
)]
pub trait Contract: Shape + serde::de::DeserializeOwned {
    /// The tool: name, description, schema IR and declared profile.
    const TOOL: ContractTool;

    /// What the advertised input schema weighs in each dialect, in the order of
    /// [`Dialect::ALL`]: bytes, a token estimate, a digest and the figures providers limit.
    /// Computed by the compiler where it is read (a crate that never reads it pays nothing):
    /// `const PORTABLE_BYTES: usize = MyTool::MEASURES[Dialect::Portable as usize].bytes;`.
    const MEASURES: &'static [Measure] = &Self::TOOL.measures();

    /// What the advertised input schema weighs in `dialect` ([`MEASURES`](Self::MEASURES)).
    fn measure_in(dialect: Dialect) -> Measure {
        Self::MEASURES[dialect as usize]
    }

    /// The advertised, flattened JSON Schema text of the input. A non-generic contract also
    /// has it as the constant `INPUT_SCHEMA`, the same text, for a `const` item; this is for
    /// code generic over `C: Contract`, where no inherent constant can be named.
    fn input_schema() -> &'static str {
        Self::TOOL.input_schema()
    }

    /// The exact JSON Schema text of the input: tagged unions as `oneOf`. Rendered on the
    /// first call and kept; a non-generic contract also has it as the compile-time const
    /// `EXACT_SCHEMA`, which costs its crate nothing until read (the exact schema is often
    /// never read, and rendering it in every build would).
    fn exact_schema() -> &'static str {
        rendered(Self::SHAPE, Rendering::Exact)
    }

    /// The advertised input schema in a dialect: `Mcp` is
    /// [`input_schema`](Self::input_schema) itself; the others are rendered from the same IR
    /// on the first call and kept (so a crate that never asks for one pays nothing at compile
    /// time).
    fn input_schema_for(dialect: Dialect) -> &'static str {
        match dialect {
            Dialect::Mcp => Self::input_schema(),
            dialect => Self::TOOL.input_schema_for(dialect),
        }
    }

    /// Parses one call's arguments into the contract's type: validation against the exact
    /// contract with every issue at its JSON Pointer, then `catch`, `coerce` and the
    /// transforms, then serde, then the `refine` checks. Never panics, on any value.
    fn parse(args: serde_json::Value) -> Result<Self, Rejection> {
        Self::parse_for(args, Dialect::Mcp)
    }

    /// Parses one call from a client shown the schema of `dialect`. The same as
    /// [`parse`](Self::parse), but for [`Dialect::OpenAiStrict`], whose clients send every
    /// key: there a `null` for a key the chosen operation does not declare, or for one it may
    /// omit, means the key is absent (a non-null value for a key an operation denies is
    /// still refused).
    fn parse_for(args: serde_json::Value, dialect: Dialect) -> Result<Self, Rejection> {
        parse::parse(args, dialect)
    }
}
