//! Keys beside a union, spread into its branches: schemars writes a struct with its own fields
//! beside a flattened enum as one schema holding `properties` and `required` next to a
//! `oneOf`. Every operation holds those keys too, so before the document is read each
//! branch is given them (a branch that is a `$ref` is read through, once, into a copy),
//! and the union is read as any other. A branch that declares one of those keys itself
//! clashes with it: that schema is left as it was written.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::readings::only_keys;
use super::schemas::{any_schema, each_schema_mut};

/// The document with the keys beside each union spread into its branches: borrowed when no
/// union has keys beside it.
pub(crate) fn spread(document: Cow<'_, Value>) -> Cow<'_, Value> {
    if !has_keys_beside_a_union(&document) {
        return document;
    }
    let source = document.clone().into_owned();
    let mut document = document.into_owned();
    each_schema_mut(&mut document, |map| spread_here(map, &source));
    Cow::Owned(document)
}

/// The union of a schema with keys beside it: its branches, and the keys.
fn union_with_keys_beside(map: &Map<String, Value>) -> Option<&str> {
    let union = ["oneOf", "anyOf"]
        .into_iter()
        .find(|keyword| matches!(map.get(*keyword), Some(Value::Array(_))))?;
    let beside = map.contains_key("properties") || map.contains_key("required");
    let only = only_keys(map, &["oneOf", "anyOf", "type", "properties", "required"]);
    (beside && only && map.get("type").is_none_or(|kind| kind == "object")).then_some(union)
}

fn has_keys_beside_a_union(document: &Value) -> bool {
    any_schema(document, |map| union_with_keys_beside(map).is_some())
}

/// Spreads the keys beside this schema's union into its branches, when none clashes.
fn spread_here(map: &mut Map<String, Value>, source: &Value) {
    let Some(union) = union_with_keys_beside(map) else {
        return;
    };
    let Some(Value::Array(branches)) = map.get(union) else {
        return;
    };
    let spread: Option<Vec<Value>> = branches
        .iter()
        .map(|branch| with_keys(resolved(branch, source)?, map))
        .collect();
    if let Some(spread) = spread {
        map.insert(union.to_owned(), Value::Array(spread));
        map.remove("properties");
        map.remove("required");
    }
}

/// A branch as an object schema, read through a local `$ref` or a lone `allOf`.
fn resolved<'v>(branch: &'v Value, source: &'v Value) -> Option<&'v Map<String, Value>> {
    let map = branch.as_object()?;
    if let Some(Value::String(reference)) = map.get("$ref") {
        if !only_keys(map, &["$ref"]) {
            return None;
        }
        return source.pointer(reference.strip_prefix('#')?)?.as_object();
    }
    if let Some(Value::Array(all)) = map.get("allOf")
        && let [only] = all.as_slice()
    {
        return only.as_object();
    }
    Some(map)
}

/// An operation's object schema with the keys beside its union added; `None` when they clash.
fn with_keys(object: &Map<String, Value>, union: &Map<String, Value>) -> Option<Value> {
    let mut merged = object.clone();
    if let Some(Value::Object(shared)) = union.get("properties") {
        let properties = merged
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()))
            .as_object_mut()?;
        for (key, schema) in shared {
            if properties.insert(key.clone(), schema.clone()).is_some() {
                return None;
            }
        }
    }
    if let Some(Value::Array(shared)) = union.get("required") {
        let required = merged
            .entry("required")
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()?;
        required.extend(shared.iter().cloned());
    }
    Some(Value::Object(merged))
}
