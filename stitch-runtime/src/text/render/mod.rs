//! Which JSON a schema is: the writers that turn the IR into JSON Schema text. One enum says
//! which schema is rendered ([`Rendering`]): the *exact* one (tagged unions as `oneOf`), or the
//! *flat* one (every tagged union one object, by the collision rules of `union`) in a
//! [`Dialect`] (what differs per dialect is its row of `stitch_rules::DIALECTS`, read through
//! [`rules_of!`]; what needs several of its fields is `dialect_forms`); and one writer per kind
//! serves them all (`node`). The writers write into a `Sink`, in constant evaluation (see
//! `const_text` for how a `&'static str` comes of it, and for what the interpreter charges,
//! which shapes how these writers are written) and at run time for generic contracts and for
//! dialects ([`schema_string`], [`rendered`]). The `Mcp` path, which constant evaluation
//! runs, decides each dialect question by reading a field of its row rather than by a call.
//!
//! Files: `node` (one node's schema), `keywords` (a node's keywords, by the keyword table),
//! `description` (descriptions, hints and a dialect's notes), `object` (objects and the exact
//! schema's `oneOf`), `flat` (a flattened union), `merge` (a set of nodes as one schema: a merged key, a hull's
//! insides).

/// The row of the dialect a [`Rendering`] writes in (`&'static DialectRules`): the exact and
/// output schemas say everything as the default dialect does. A macro, not a function:
/// constant evaluation pays for every call, and this is read by every writer.
macro_rules! rules_of {
    ($rendering:expr) => {
        match $rendering {
            $crate::text::render::Rendering::Flat(dialect) => {
                &stitch_rules::DIALECTS[dialect as usize]
            }
            _ => &stitch_rules::DIALECTS[stitch_rules::Dialect::DEFAULT as usize],
        }
    };
}

mod description;
mod flat;
mod keywords;
mod merge;
mod node;
mod object;

pub(crate) use description::ends_closed;
pub(crate) use flat::is_unit;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use stitch_rules::Dialect;

use crate::ir::Node;
use crate::shape::Shape;
use crate::text::sink::Sink;

/// Which schema is rendered: the one answer to "which schema", read by the writers, the
/// guard's walk and the caches. [`schema_of`] renders a type's schema in one (kept);
/// [`render`](Rendering::render) a node built at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rendering {
    /// Tagged unions as `oneOf` of their operations.
    Exact,
    /// Tagged unions flattened into one object (what a model is shown), in a dialect.
    Flat(Dialect),
    /// An output schema as clients other than `Mcp` ones are shown it: flat and said as `Mcp`
    /// says it, except that `null` and divergent kinds are branches of an `anyOf`, one type
    /// each, never a `type` array. A client checks a result's structured content against it,
    /// so `null` must stay; a portable reader refuses `type` arrays.
    Output,
}

impl Rendering {
    /// The advertised schema: flat, in the `Mcp` dialect (the compile-time `INPUT_SCHEMA`).
    pub const ADVERTISED: Rendering = Rendering::Flat(Dialect::DEFAULT);

    /// A tool's output schema as a client shown `dialect` is listed it: the advertised schema
    /// for clients that take JSON Schema whole (`Mcp`), and for the others
    /// [`Output`](Rendering::Output).
    pub const fn output(dialect: Dialect) -> Rendering {
        if dialect.rules().whole_json_schema {
            Rendering::ADVERTISED
        } else {
            Rendering::Output
        }
    }

    /// What a client shown `dialect` is shown of a schema advertised as `advertised` (exact or
    /// flat, as its tool chooses): the tool's choice where the dialect takes JSON Schema whole,
    /// and the flat schema in the dialect everywhere else (no other dialect has composition
    /// keywords to say `oneOf` with).
    pub const fn shown_in(advertised: Rendering, dialect: Dialect) -> Rendering {
        if dialect.rules().whole_json_schema {
            advertised
        } else {
            Rendering::Flat(dialect)
        }
    }

    /// `node`'s schema in this rendering, written anew: for a node built at run time, which
    /// has no type for [`schema_of`] to name (and to keep its text under).
    pub fn render(self, node: &Node<'_>) -> String {
        schema_string(node, self)
    }
}

/// The length in bytes of a node's schema.
pub const fn schema_len<'a>(node: &'a Node<'a>, rendering: Rendering) -> usize {
    let mut sink = Sink::counter(&mut []);
    write_schema(&mut sink, node, rendering);
    sink.len()
}

/// Writes a node's schema, with the type's own description.
pub(crate) const fn write_schema<'a>(
    sink: &mut Sink<'_>,
    node: &'a Node<'a>,
    rendering: Rendering,
) {
    node::write_root(sink, node, rendering);
}

/// A node's schema as a `String`, rendered anew (what [`rendered`] keeps).
pub fn schema_string<'a>(node: &'a Node<'a>, rendering: Rendering) -> String {
    let mut counter = Sink::counter(&mut []);
    write_schema(&mut counter, node, rendering);
    let mut buf = vec![0u8; counter.len()];
    let mut sink = Sink::writer(&mut buf);
    write_schema(&mut sink, node, rendering);
    String::from_utf8(buf).expect("the renderer writes UTF-8 only")
}

/// A node's schema text, rendered at run time once per node and rendering, and kept for the
/// life of the process: generic contracts, dialects, output types.
///
/// Keyed by the node's address: two addresses of equal nodes render equal text, so the worst
/// case is one extra rendering, never a wrong one.
pub fn rendered(node: &'static Node<'static>, rendering: Rendering) -> &'static str {
    type Cache = Mutex<HashMap<(usize, Rendering), &'static str>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (std::ptr::from_ref(node) as usize, rendering);
    let cache = CACHE.get_or_init(Default::default);
    if let Some(text) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return text;
    }
    let text: &'static str = Box::leak(schema_string(node, rendering).into_boxed_str());
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert(text)
}

/// The schema of any type with a [`Shape`] (a tool's result type, a field's type) in a
/// rendering, rendered once per type and rendering, and kept. A contract's input has its own
/// names, which say which rendering a tool advertises (its `#[contract(flatten = false)]`
/// included): [`Contract::input_schema`](crate::Contract::input_schema) and
/// `input_schema_for`; this is for every other type, and for a rendering no tool advertises
/// (a contract's flat schema when it advertises the exact one).
///
/// ```
/// use stitch::{Dialect, Rendering};
///
/// assert_eq!(
///     stitch::schema_of::<Vec<u8>>(Rendering::ADVERTISED),
///     r#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":255}}"#
/// );
/// let strict = stitch::schema_of::<Option<u8>>(Rendering::Flat(Dialect::OpenAiStrict));
/// assert!(strict.contains("null"));
/// ```
pub fn schema_of<T: Shape + ?Sized>(rendering: Rendering) -> &'static str {
    rendered(T::SHAPE, rendering)
}
