//! The schemas a document holds, by the keywords that hold them (`properties`, `items`,
//! `anyOf`, `$defs`, ...), walked without recursion: what the rewritings made before a
//! document is read (`drafts`, `beside`) visit, and nothing else (a `const`, a `default` or
//! an `enum` holds data, not schemas).

use serde_json::{Map, Value};

/// Keywords whose value is one schema.
const ONE_SCHEMA: [&str; 11] = [
    "items",
    "additionalItems",
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Keywords whose value is an array of schemas.
const SCHEMA_LISTS: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// Keywords whose value maps names to schemas.
const SCHEMA_MAPS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// Calls `visit` on every schema object of the document, each before the schemas it holds
/// (so what `visit` writes is what is walked next).
pub(super) fn each_schema_mut(
    document: &mut Value,
    mut visit: impl FnMut(&mut Map<String, Value>),
) {
    let mut pending = vec![document];
    while let Some(schema) = pending.pop() {
        let Value::Object(map) = schema else {
            continue;
        };
        visit(map);
        for (key, value) in map.iter_mut() {
            match (key.as_str(), value) {
                (key, value @ Value::Object(_)) if ONE_SCHEMA.contains(&key) => pending.push(value),
                (key, Value::Array(schemas)) if SCHEMA_LISTS.contains(&key) => {
                    pending.extend(schemas.iter_mut());
                }
                (key, Value::Object(schemas)) if SCHEMA_MAPS.contains(&key) => {
                    pending.extend(schemas.values_mut());
                }
                _ => {}
            }
        }
    }
}

/// Whether some schema object of the document passes `test`.
pub(super) fn any_schema(document: &Value, test: impl Fn(&Map<String, Value>) -> bool) -> bool {
    let mut pending = vec![document];
    while let Some(schema) = pending.pop() {
        let Value::Object(map) = schema else {
            continue;
        };
        if test(map) {
            return true;
        }
        for (key, value) in map {
            match (key.as_str(), value) {
                (key, value @ Value::Object(_)) if ONE_SCHEMA.contains(&key) => pending.push(value),
                (key, Value::Array(schemas)) if SCHEMA_LISTS.contains(&key) => {
                    pending.extend(schemas);
                }
                (key, Value::Object(schemas)) if SCHEMA_MAPS.contains(&key) => {
                    pending.extend(schemas.values());
                }
                _ => {}
            }
        }
    }
    false
}
