//! How a client sends what its tool takes, by the schema it was shown: keys left out or sent as
//! `null`, maps as entries, free values as JSON text, a defaulted tag filled in; and the test's
//! own reading of what came back (independent of stitch's).

use serde_json::{Map, Value, json};
use stitch::Dialect;

use crate::common;

/// Every `null` in a value, by JSON Pointer.
pub fn nulls(value: &Value, at: &str, found: &mut Vec<String>) {
    match value {
        Value::Null => found.push(at.to_owned()),
        Value::Object(map) => map
            .iter()
            .for_each(|(key, value)| nulls(value, &format!("{at}/{key}"), found)),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, value)| nulls(value, &format!("{at}/{i}"), found)),
        _ => {}
    }
}

/// The value as a model reading the flat object sends it: each union of operations whose tag
/// the source leaves out of `required` (it has a default: pydantic's `Literal["get"] = "get"`)
/// gets the tag of the branch the value is for (the one whose required keys it has, declaring
/// most of its keys). The flat object requires the tag, as pydantic does when it reads a call:
/// the one place it is narrower than such a source, by design.
pub fn with_tags(root: &Value, schema: &Value, value: &mut Value, depth: usize) {
    let resolve = |schema: &Value| -> Option<Value> {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => root.pointer(reference.strip_prefix('#')?).cloned(),
            None => Some(schema.clone()),
        }
    };
    let Some(schema) = resolve(schema) else {
        return;
    };
    if depth > 16 {
        return;
    }
    match value {
        Value::Array(items) => {
            if let Some(item) = schema.get("items").filter(|item| item.is_object()) {
                items
                    .iter_mut()
                    .for_each(|value| with_tags(root, item, value, depth + 1));
            }
        }
        Value::Object(map) => {
            if let Some(Value::Object(properties)) = schema.get("properties") {
                for (key, property) in properties {
                    if let Some(inner) = map.get_mut(key) {
                        with_tags(root, property, inner, depth + 1);
                    }
                }
            }
            let branches = schema
                .get("oneOf")
                .or_else(|| schema.get("anyOf"))
                .and_then(Value::as_array);
            let fitting = branches
                .into_iter()
                .flatten()
                .filter_map(resolve)
                .filter(|branch| {
                    branch["required"].as_array().is_none_or(|names| {
                        names
                            .iter()
                            .all(|name| name.as_str().is_some_and(|name| map.contains_key(name)))
                    })
                })
                .max_by_key(|branch| {
                    map.keys()
                        .filter(|key| branch["properties"].get(key.as_str()).is_some())
                        .count()
                });
            if let Some(branch) = fitting
                && let Some(Value::Object(properties)) = branch.get("properties")
            {
                for (key, property) in properties {
                    if let (Some(tag), Some(_)) = (property.get("const"), property.get("default"))
                        && !map.contains_key(key)
                    {
                        map.insert(key.clone(), tag.clone());
                    }
                }
                with_tags(root, &branch, value, depth + 1);
            }
        }
        _ => {}
    }
}

/// The keys whose schema, anywhere in the document, has a default other than `null`: a
/// `null` an OpenAI strict client sends there is read as the default (`strict_arguments_for`).
pub fn defaulted_keys(schema: &Value, found: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(properties)) = map.get("properties") {
                for (key, property) in properties {
                    if property
                        .get("default")
                        .is_some_and(|default| !default.is_null())
                    {
                        found.push(key.clone());
                    }
                }
            }
            map.values().for_each(|inner| defaulted_keys(inner, found));
        }
        Value::Array(items) => items.iter().for_each(|inner| defaulted_keys(inner, found)),
        _ => {}
    }
}

/// How a client shown a dialect sends a value its tool takes.
#[derive(Clone, Copy)]
pub struct Client {
    /// Keys a closed object does not name are left out (a strict dialect closes every object;
    /// the tool ignores or keeps what it is not sent).
    names_only: bool,
    /// Each key the object requires and the value lacks is sent as `null` (OpenAI's).
    every_key: bool,
    /// A `null` for a key the schema neither requires nor takes `null` for is left out: where
    /// a dialect cannot show `null` for an optional key, omitting it says the same (a `null`
    /// that means something else is the guard's to report).
    unshown_nulls_left_out: bool,
}

impl Client {
    pub fn of(dialect: Dialect) -> Client {
        // As its dialect's row says: closed objects, omitted keys sent as `null`, `null` shown
        // in the type or not.
        let rules = dialect.rules();
        Client {
            names_only: rules.objects_closed,
            every_key: rules.omitted == stitch::dialect::Omitted::SentAsNull,
            unshown_nulls_left_out: rules.null != stitch::dialect::NullSaid::InType,
        }
    }

    /// The value as this client sends it by the shown schema: a map as its entries where the
    /// schema shows entries, a free object or array as its JSON text where the schema says
    /// so; in an `anyOf`, as the first branch that takes it so.
    pub fn sends(self, schema: &Value, value: &Value) -> Value {
        if let Some(Value::Array(branches)) = schema.get("anyOf") {
            return branches
                .iter()
                .map(|branch| (branch, self.sends(branch, value)))
                .find(|(branch, sent)| {
                    jsonschema::validator_for(branch).is_ok_and(|v| v.is_valid(sent))
                })
                .map_or_else(|| value.clone(), |(_, sent)| sent);
        }
        match value {
            Value::Object(_) | Value::Array(_) if common::sends_json_text(schema) => {
                Value::String(value.to_string())
            }
            Value::Object(map) if common::shows_entries(schema) => {
                let inner = &schema["items"]["properties"]["value"];
                Value::Array(
                    map.iter()
                        .map(|(key, value)| json!({"key": key, "value": self.sends(inner, value)}))
                        .collect(),
                )
            }
            Value::Object(map) => self.object(schema, map),
            Value::Array(items) => {
                let item = schema.get("items").unwrap_or(&Value::Null);
                Value::Array(items.iter().map(|value| self.sends(item, value)).collect())
            }
            _ => value.clone(),
        }
    }

    fn object(self, schema: &Value, map: &Map<String, Value>) -> Value {
        let properties = schema.get("properties").and_then(Value::as_object);
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
        let mut sent = Map::new();
        for (key, value) in map {
            let inner = properties.and_then(|named| named.get(key));
            if self.names_only && closed && inner.is_none() {
                continue;
            }
            let takes_null = inner.is_none_or(|inner| {
                jsonschema::validator_for(inner).is_ok_and(|v| v.is_valid(&Value::Null))
            });
            if self.unshown_nulls_left_out
                && value.is_null()
                && !takes_null
                && !required.contains(&key.as_str())
            {
                continue;
            }
            sent.insert(
                key.clone(),
                self.sends(inner.unwrap_or(&Value::Null), value),
            );
        }
        if self.every_key {
            for key in required {
                sent.entry(key.to_owned()).or_insert(Value::Null);
            }
        }
        Value::Object(sent)
    }
}

/// Every array of `{"key", "value"}` entries read back into an object (the test's own
/// reading, independent of stitch's).
pub fn read_back_entries(value: &mut Value) {
    match value {
        Value::Array(items) => {
            let all_entries =
                !items.is_empty() && items.iter().all(|item| entry_key(item).is_some());
            items.iter_mut().for_each(read_back_entries);
            if all_entries {
                let map = items
                    .drain(..)
                    .filter_map(|mut entry| {
                        let key = entry["key"].as_str()?.to_owned();
                        Some((key, entry["value"].take()))
                    })
                    .collect();
                *value = Value::Object(map);
            }
        }
        Value::Object(map) => map.values_mut().for_each(read_back_entries),
        _ => {}
    }
}

/// An entry's key, when the value is a map's entry as a strict client sends it: an object of
/// exactly a string `key` and a `value`.
pub fn entry_key(item: &Value) -> Option<&str> {
    let entry = item.as_object().filter(|entry| entry.len() == 2)?;
    entry.contains_key("value").then_some(())?;
    entry.get("key")?.as_str()
}
