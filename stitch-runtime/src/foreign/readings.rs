//! The small readings of a foreign schema that its lowering (`lower`) and its reading by kind
//! (`kinds`) share: which keys are annotations, a `null` schema, string literals, a schema
//! that says anything, a `type` name's bit, a description.

use serde_json::{Map, Value};

use crate::ir::{Doc, kinds};

/// Keys that say nothing a value must be: read past, and dropped from a rebuilt node.
const ANNOTATIONS: [&str; 14] = [
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$schema",
    "$id",
    "$anchor",
    "$defs",
    "definitions",
    "nullable",
];

/// Whether every key of the schema is an annotation or one of `known`.
pub(super) fn only_keys(map: &Map<String, Value>, known: &[&str]) -> bool {
    map.keys()
        .all(|key| ANNOTATIONS.contains(&key.as_str()) || known.contains(&key.as_str()))
}

/// `{"type": "null"}`, annotations aside.
pub(super) fn is_null_schema(schema: &Value) -> bool {
    schema.as_object().is_some_and(|map| {
        map.get("type") == Some(&Value::from("null")) && only_keys(map, &["type"])
    })
}

/// The string values a schema of literals takes (`const`, or an `enum` of strings), when
/// that is all it says.
pub(super) fn string_literals(map: &Map<String, Value>) -> Option<Vec<&str>> {
    if map.get("type").is_some_and(|kind| kind != "string") {
        return None;
    }
    let values = string_literals_or_null(map)?;
    values.into_iter().collect()
}

/// The values of `const` or `enum`, each a string or `null` (`None`), when that is all the
/// schema says (besides `type`).
pub(super) fn string_literals_or_null(map: &Map<String, Value>) -> Option<Vec<Option<&str>>> {
    let values: Vec<&Value> = match (map.get("const"), map.get("enum")) {
        (Some(value), None) => vec![value],
        (None, Some(Value::Array(values))) if !values.is_empty() => values.iter().collect(),
        _ => return None,
    };
    if !only_keys(map, &["type", "const", "enum"]) {
        return None;
    }
    values
        .into_iter()
        .map(|value| match value {
            Value::String(text) => Some(Some(text.as_str())),
            Value::Null => Some(None),
            _ => None,
        })
        .collect()
}

/// Whether a schema takes any value: `true` or `{}`.
pub(super) fn says_anything(schema: &Value) -> bool {
    matches!(schema, Value::Bool(true)) || schema.as_object().is_some_and(Map::is_empty)
}

/// Whether a `propertyNames` schema says no more than that keys are strings.
pub(super) fn says_only_strings(schema: &Value) -> bool {
    says_anything(schema) || schema == &serde_json::json!({"type": "string"})
}

/// Whether a description gives `null` a meaning of its own: it names it.
pub(super) fn speaks_of_null(text: &str) -> bool {
    text.to_ascii_lowercase().contains("null")
}

/// A `type` name's bit.
pub(super) fn kind_bit(name: &str) -> Option<u8> {
    kinds::NAMES
        .iter()
        .position(|known| *known == name)
        .map(|bit| 1 << bit)
}

/// The `description` of a schema.
pub(super) fn description(map: &Map<String, Value>) -> Option<Doc<'_>> {
    let text = map.get("description")?.as_str()?;
    Some(Doc::new(text))
}
