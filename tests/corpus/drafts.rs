//! An older draft's document in 2020-12's words, rewritten by the test itself: the twin each
//! real older-draft tool must render as.

use serde_json::{Map, Value};

/// An older draft's document in 2020-12's words, rewritten by this test (independent of
/// stitch's reading): no `$schema`; an array of `items` as `prefixItems` (`additionalItems` as
/// `items`); a boolean `exclusiveMinimum`/`exclusiveMaximum` as the number it qualifies;
/// `dependencies` as `dependentRequired`/`dependentSchemas`; root `definitions` as `$defs`.
pub fn hand_upgraded(document: &Value) -> Value {
    fn upgrade(value: &mut Value) {
        match value {
            Value::Object(map) => {
                if let Some(Value::Array(_)) = map.get("items") {
                    let positions = map.remove("items").unwrap_or_default();
                    map.insert("prefixItems".to_owned(), positions);
                    if let Some(rest) = map.remove("additionalItems") {
                        map.insert("items".to_owned(), rest);
                    }
                } else {
                    map.remove("additionalItems");
                }
                for (flag, bound) in [
                    ("exclusiveMinimum", "minimum"),
                    ("exclusiveMaximum", "maximum"),
                ] {
                    if let Some(Value::Bool(set)) = map.get(flag).cloned() {
                        map.remove(flag);
                        if set && let Some(at) = map.remove(bound) {
                            map.insert(flag.to_owned(), at);
                        }
                    }
                }
                if let Some(Value::Object(dependencies)) = map.remove("dependencies") {
                    let (required, schemas): (Map<String, Value>, Map<String, Value>) =
                        dependencies.into_iter().partition(|(_, on)| on.is_array());
                    if !required.is_empty() {
                        map.insert("dependentRequired".to_owned(), Value::Object(required));
                    }
                    if !schemas.is_empty() {
                        map.insert("dependentSchemas".to_owned(), Value::Object(schemas));
                    }
                }
                if let Some(Value::String(reference)) = map.get_mut("$ref")
                    && let Some(name) = reference.strip_prefix("#/definitions/")
                {
                    *reference = format!("#/$defs/{name}");
                }
                map.values_mut().for_each(upgrade);
            }
            Value::Array(items) => items.iter_mut().for_each(upgrade),
            _ => {}
        }
    }
    let mut twin = document.clone();
    if let Value::Object(root) = &mut twin {
        root.remove("$schema");
        if !root.contains_key("$defs")
            && let Some(definitions) = root.remove("definitions")
        {
            root.insert("$defs".to_owned(), definitions);
        }
    }
    upgrade(&mut twin);
    twin
}

/// Whether a document says it is written for draft-04, 06 or 07.
pub fn names_an_older_draft(document: &Value) -> bool {
    document["$schema"].as_str().is_some_and(|uri| {
        ["draft-04", "draft-06", "draft-07"]
            .iter()
            .any(|d| uri.contains(d))
    })
}
