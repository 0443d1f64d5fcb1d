//! Schemas stitch did not write (schemars' output, a hand-written tool, another server's),
//! flattened and shown in a dialect by the rules stitch's own contracts are, and a strict
//! client's arguments read back for them.
//!
//! What is read is bounded whatever the document: one nested deeper than [`MAX_DEPTH`] is not
//! read at all (it is returned as it is, and the guard reports it); a `$ref` read through
//! counts as a level of nesting, so a chain of definitions stops there and stays a `$ref`;
//! and definitions are read through within a budget of a few times the document's size, past
//! which a `$ref` stays too (with the definitions it names), so definitions that refer to
//! each other twice over do not grow exponentially. Nothing read from a document outlives the
//! call, and no cache holds one.

// Inside: the document is read into the IR (`lower`), then rendered by the same writers, so
// every discriminated union of objects becomes one object by the same collision rules, with
// the same hints, and each dialect says what it says of a contract. What the IR has no words
// for stays as it was written, and the guard reports it. Keywords of older drafts are read
// with their draft's meaning first (`drafts`). A document's IR lives in an arena for the
// length of one call and is dropped with it.

mod arguments;
mod beside;
mod drafts;
mod kinds;
mod lower;
mod readings;
mod schemas;

use std::borrow::Cow;
use std::collections::BTreeSet;

use bumpalo::Bump;

use serde_json::{Map, Value};
use stitch_rules::Dialect;

use crate::ir::Node;
use crate::text::render::{Rendering, schema_string};
pub use arguments::{arguments_for, strict_arguments_for};
use lower::lower;

/// How deeply a foreign document may nest (objects and arrays, counted as JSON nests them)
/// to be rebuilt: deeper ones are returned as they are. Tool schemas nest a few levels; the
/// limit keeps the recursive reading and rendering well inside a 2 MiB thread stack.
pub const MAX_DEPTH: usize = 128;

/// A foreign tool schema with every discriminated union of objects flattened into one object,
/// by the rules stitch's contracts are flattened by (advertised as `Mcp` clients are shown a
/// contract).
///
/// A union is flattened when it is a `oneOf` or `anyOf` of objects told apart by one key
/// holding string values no two branches share: the key `discriminator.propertyName` names,
/// else the first of the first branch's keys, in sorted order, that every branch requires,
/// else one every branch gives such values without requiring it (pydantic's defaulted
/// `Literal` tags). Its keys then merge by the collision rules, each optional key's
/// description says which operations require or accept it (and which take it as any other
/// key), and the result accepts every value some branch accepts but one: an open operation's
/// value of another kind under a key another operation types. Local `$ref`s are read through (as deep as nesting may go, and
/// within a budget of a few times the document's size) and `$defs` dropped when nothing
/// refers to them any more; a document written for draft-04, 06 or 07 is read as its draft
/// means it (a tuple's array of `items` as `prefixItems`, a boolean `exclusiveMinimum`,
/// `dependencies`), so what comes back is a 2020-12 schema; a `$ref` past those bounds, a
/// recursive one, a union without a discriminator and keywords
/// stitch does not rebuild (`not`, `if`, a number `enum`, ...) stay as they were written.
/// Annotations that restrict nothing (`title`, `default`, `examples`, a number's `format`)
/// are dropped; a short default is said in its key's description (`Default: 50.`). The source is not changed, and any JSON value is taken: what is no schema, or
/// is nested deeper than [`MAX_DEPTH`], comes back as it was.
///
/// ```
/// use serde_json::json;
///
/// let schemars_output = json!({
///     "oneOf": [
///         {"type": "object", "properties": {"op": {"const": "add"}, "value": {"type": "integer"}},
///          "required": ["op", "value"]},
///         {"type": "object", "properties": {"op": {"const": "clear"}}, "required": ["op"]}
///     ]
/// });
/// let flat = stitch::foreign::flatten_tool_schema(&schemars_output);
/// assert_eq!(flat["type"], "object");
/// assert_eq!(flat["properties"]["op"]["enum"], json!(["add", "clear"]));
/// assert_eq!(flat["properties"]["value"]["type"], "integer");
/// assert_eq!(flat["required"], json!(["op"]));
/// ```
pub fn flatten_tool_schema(schema: &Value) -> Value {
    tool_schema_for(schema, Dialect::Mcp)
}

/// A foreign tool schema flattened (see [`flatten_tool_schema`]) and said in a dialect, by the
/// rules a contract's schema is said in it. [`flatten_tool_schema`] is this in the default
/// dialect, `Mcp`: the name a server that serves one dialect writes.
pub fn tool_schema_for(schema: &Value, dialect: Dialect) -> Value {
    rebuilt(schema, Rendering::Flat(dialect))
}

/// A foreign output schema (what a tool's structured content is checked against) as a client
/// shown `dialect` is listed it: as it is for `Mcp` clients; for the others rebuilt as
/// [`flatten_tool_schema`] rebuilds an input, then said without `type` arrays (`null` and
/// divergent kinds as `anyOf` branches of one type each), since the client checks results
/// against it and a portable reader refuses `type` arrays.
pub fn output_schema_for(schema: &Value, dialect: Dialect) -> Value {
    match dialect {
        Dialect::Mcp if nested_deeper_than(schema, MAX_DEPTH) => clone_without_recursion(schema),
        Dialect::Mcp => schema.clone(),
        _ => rebuilt(schema, Rendering::Output),
    }
}

/// A foreign schema read into the IR and rendered so.
fn rebuilt(schema: &Value, rendering: Rendering) -> Value {
    if nested_deeper_than(schema, MAX_DEPTH) {
        return clone_without_recursion(schema);
    }
    let document = readable(schema);
    let arena = Bump::new();
    let lowered = lower(&document, &arena, MAX_DEPTH);
    let text = schema_string(lowered.root, rendering);
    let Ok(mut rebuilt) = serde_json::from_str::<Value>(&text) else {
        // The renderer writes JSON; this branch exists so that no input can make it panic.
        return schema.clone();
    };
    keep_definitions(&document, &lowered.kept_refs, &mut rebuilt);
    rebuilt
}

/// `inspect` given the foreign schema read into the IR, as [`tool_schema_for`] reads it (the
/// IR lives for this call only). A schema nested deeper than [`MAX_DEPTH`] is not read:
/// `None`.
pub(crate) fn with_ir<R>(schema: &Value, inspect: impl FnOnce(&Node<'_>) -> R) -> Option<R> {
    if nested_deeper_than(schema, MAX_DEPTH) {
        return None;
    }
    let document = readable(schema);
    let arena = Bump::new();
    Some(inspect(lower(&document, &arena, MAX_DEPTH).root))
}

/// The document as it is read: older drafts' keywords in 2020-12's words, and keys beside a
/// union spread into its branches.
fn readable(schema: &Value) -> Cow<'_, Value> {
    beside::spread(drafts::upgraded(schema))
}

/// Copies into the rebuilt document the definitions its verbatim parts still refer to, at the
/// places they had (`/$defs/Node`); the others are dropped with their containers.
fn keep_definitions(source: &Value, kept_refs: &BTreeSet<String>, rebuilt: &mut Value) {
    for pointer in kept_refs {
        let mut segments = pointer.split('/').skip(1);
        let (Some(container), Some(name), None) =
            (segments.next(), segments.next(), segments.next())
        else {
            continue;
        };
        if container != "$defs" && container != "definitions" {
            continue;
        }
        let (Some(definition), Value::Object(root)) = (source.pointer(pointer), &mut *rebuilt)
        else {
            continue;
        };
        let name = name.replace("~1", "/").replace("~0", "~");
        let definitions = root
            .entry(container)
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(definitions) = definitions {
            definitions.insert(name, definition.clone());
        }
    }
}

/// Whether a value nests objects and arrays deeper than `limit` (walked without recursion).
pub(crate) fn nested_deeper_than(value: &Value, limit: usize) -> bool {
    let mut pending: Vec<(&Value, usize)> = vec![(value, 1)];
    while let Some((value, depth)) = pending.pop() {
        match value {
            Value::Array(items) if !items.is_empty() => {
                if depth > limit {
                    return true;
                }
                pending.extend(items.iter().map(|child| (child, depth + 1)));
            }
            Value::Object(map) if !map.is_empty() => {
                if depth > limit {
                    return true;
                }
                pending.extend(map.values().map(|child| (child, depth + 1)));
            }
            _ => {}
        }
    }
    false
}

/// A copy of a value of any depth, made without recursion (`Value::clone` recurses).
fn clone_without_recursion(value: &Value) -> Value {
    /// A container being copied: the source's children still to visit, and the copies made.
    enum Open<'v> {
        Array(std::slice::Iter<'v, Value>, Vec<Value>),
        Object(
            serde_json::map::Iter<'v>,
            Map<String, Value>,
            Option<&'v String>,
        ),
    }
    fn open(value: &Value) -> Result<Open<'_>, Value> {
        match value {
            Value::Array(items) => Ok(Open::Array(items.iter(), Vec::with_capacity(items.len()))),
            Value::Object(map) => Ok(Open::Object(map.iter(), Map::new(), None)),
            scalar => Err(scalar.clone()),
        }
    }
    let mut stack = match open(value) {
        Ok(container) => vec![container],
        Err(scalar) => return scalar,
    };
    loop {
        let top = stack
            .last_mut()
            .expect("the stack holds the container being copied");
        let next = match top {
            Open::Array(items, _) => items.next(),
            Open::Object(entries, _, key) => entries.next().map(|(name, child)| {
                *key = Some(name);
                child
            }),
        };
        let done = match next {
            Some(child) => match open(child) {
                Ok(container) => {
                    stack.push(container);
                    continue;
                }
                Err(scalar) => scalar,
            },
            None => match stack
                .pop()
                .expect("the stack holds the container being copied")
            {
                Open::Array(_, copies) => Value::Array(copies),
                Open::Object(_, copies, _) => Value::Object(copies),
            },
        };
        match stack.last_mut() {
            None => return done,
            Some(Open::Array(_, copies)) => copies.push(done),
            Some(Open::Object(_, copies, key)) => {
                let key = key
                    .take()
                    .expect("an object's child is copied under its key");
                copies.insert(key.clone(), done);
            }
        }
    }
}
