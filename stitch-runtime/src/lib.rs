//! The runtime of [stitch](https://docs.rs/stitch): the `const` schema IR, its rendering into
//! the exact and the advertised (flat) JSON Schema, and the traits `#[derive(Contract)]`
//! implements. Users depend on the `stitch` facade, which re-exports this crate.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod check;
pub mod flatten;
mod format;
pub mod guard;
pub mod node;
pub mod parse;
mod pattern;
mod rejection;
pub mod render;
mod shape;
pub mod text;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use guard::{
    Finding, FindingKind, all_findings, validate_mcp_schemas, validate_output_schema,
    validate_tool_schema,
};
pub use node::Node;
pub use rejection::{Issue, JsonPointer, REJECTION_META_KEY, Rejection};
pub use render::Mode;
pub use shape::{Shape, StringKey};

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// An MCP tool: what a server advertises for one contract.
#[derive(Clone, Copy, Debug)]
pub struct Tool {
    /// The tool's name (`^[a-zA-Z0-9_-]{1,64}$`).
    pub name: &'static str,
    /// The tool's description (the type's doc comment).
    pub description: &'static str,
    /// The schema IR of the tool's input.
    pub input: &'static Node,
    /// Whether the advertised input flattens tagged unions (`#[contract(flatten = false)]`
    /// advertises the exact schema instead).
    pub flatten: bool,
    /// The checks the contract declared for itself.
    pub profile: SchemaProfile,
}

impl Tool {
    /// The mode of the advertised input schema.
    pub const fn advertised_mode(&self) -> Mode {
        if self.flatten {
            Mode::Advertised
        } else {
            Mode::Exact
        }
    }

    /// The advertised input schema, rendered (once per node and mode) at run time.
    pub fn input_schema(&self) -> &'static str {
        rendered(self.input, self.advertised_mode())
    }
}

/// What the guard requires of the tools' schemas. Every builder method is a `const fn`.
#[derive(Clone, Copy, Debug, Default)]
pub struct SchemaProfile {
    /// Every advertised property must carry type information.
    pub typed_properties: bool,
    /// Property paths (`tool.dotted.path`) allowed to stay untyped.
    pub untyped_allowed: &'static [&'static str],
    /// Every `format` must be portable (or listed in `formats_allowed`).
    pub portable_formats: bool,
    /// Formats allowed beyond the portable ones.
    pub formats_allowed: &'static [&'static str],
}

impl SchemaProfile {
    /// A profile that requires nothing.
    pub const fn new() -> SchemaProfile {
        SchemaProfile {
            typed_properties: false,
            untyped_allowed: &[],
            portable_formats: false,
            formats_allowed: &[],
        }
    }

    /// Requires every advertised property to carry type information.
    pub const fn require_typed_properties(self) -> SchemaProfile {
        SchemaProfile {
            typed_properties: true,
            ..self
        }
    }

    /// Allows these property paths (`tool.dotted.path`) to stay untyped.
    pub const fn allow_untyped(self, paths: &'static [&'static str]) -> SchemaProfile {
        SchemaProfile {
            untyped_allowed: paths,
            ..self
        }
    }

    /// Requires every `format` to be a portable one.
    pub const fn require_portable_formats(self) -> SchemaProfile {
        SchemaProfile {
            portable_formats: true,
            ..self
        }
    }

    /// Allows these formats beyond the portable ones.
    pub const fn allow_formats(self, formats: &'static [&'static str]) -> SchemaProfile {
        SchemaProfile {
            formats_allowed: formats,
            ..self
        }
    }
}

/// A tool's input contract: its schemas, computed at compile time, and the parsing of one
/// call. Implemented by `#[derive(Contract)]`.
pub trait Contract: Shape + serde::de::DeserializeOwned {
    /// The tool: name, description, schema IR and declared profile.
    const TOOL: Tool;

    /// Whether serde can reject arguments validation accepted (computed from the IR at
    /// compile time): `parse` then tracks serde's path to report where.
    #[doc(hidden)]
    const SERDE_MAY_REJECT: bool = parse::serde_may_reject(Self::SHAPE);

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

    /// Parses one call's arguments into the contract's type (SPEC §6): validation against
    /// the exact contract with every issue at its JSON Pointer, then `catch`, `coerce` and the
    /// transforms, then serde, then the `refine` checks.
    fn parse(args: serde_json::Value) -> Result<Self, Rejection> {
        parse::parse(args)
    }
}

/// A node's schema text, rendered at run time once per node and mode and kept for the life of
/// the process. Generic contracts use it; non-generic ones have their text as consts.
///
/// Keyed by the node's address: two addresses of equal nodes render equal text, so the worst
/// case is one extra rendering, never a wrong one.
pub fn rendered(node: &'static Node, mode: Mode) -> &'static str {
    type Cache = Mutex<HashMap<(usize, Mode), &'static str>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (std::ptr::from_ref(node) as usize, mode);
    let cache = CACHE.get_or_init(Default::default);
    if let Some(text) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return text;
    }
    let text: &'static str = Box::leak(render::schema_string(node, mode).into_boxed_str());
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert(text)
}
