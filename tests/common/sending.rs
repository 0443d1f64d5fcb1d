//! A call as each client sends it: what it leaves out, what it sends as `null`, maps as
//! entries and free objects and arrays as JSON text where the dialect shows them so.

use serde_json::{Map, Value, json};
use stitch::Dialect;
use stitch::ir::{Holds, Kind, Node, Object, Tagging};

/// A call filled the way a client shown `dialect` fills it, from a plain valid call: an
/// optional key sent as `null` is left out (a client leaves out what it does not send), but
/// in OpenAI's strict dialect, whose client sends every key the schema lists, `null` for
/// those it leaves out.
pub fn fill(
    node: &'static Node<'static>,
    value: &Value,
    dialect: Dialect,
    schema: &Value,
) -> Value {
    let left_out = leave_out_nulls(node, value);
    match dialect {
        Dialect::OpenAiStrict => send_every_key(schema, &entries_where_shown(schema, &left_out)),
        Dialect::AnthropicStrict => entries_where_shown(schema, &left_out),
        _ => left_out,
    }
}

/// Whether a schema shows a map as an array of `{"key", "value"}` entries (a strict
/// dialect's form of a map).
pub fn shows_entries(schema: &Value) -> bool {
    schema["items"]["required"] == json!(["key", "value"])
        && schema["items"]["properties"]["key"]["type"] == "string"
}

/// Whether a schema's description says that an object or array is sent as its JSON text (a
/// strict dialect's free value): what a model reading it does.
pub fn sends_json_text(schema: &Value) -> bool {
    schema["description"]
        .as_str()
        .is_some_and(|text| text.contains("an object or array is sent as its JSON text"))
}

/// The call with each map sent as an array of `{"key", "value"}` entries where the schema
/// shows one so (a strict dialect), and each object or array of a free value as its JSON text
/// where the schema says so, at every depth.
pub fn entries_where_shown(schema: &Value, value: &Value) -> Value {
    match value {
        Value::Object(_) | Value::Array(_) if sends_json_text(schema) => {
            Value::String(value.to_string())
        }
        Value::Object(map) if shows_entries(schema) => {
            let inner = &schema["items"]["properties"]["value"];
            Value::Array(
                map.iter()
                    .map(|(key, value)| json!({"key": key, "value": entries_where_shown(inner, value)}))
                    .collect(),
            )
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| {
                    let inner = schema["properties"]
                        .get(key)
                        .or_else(|| schema.get("additionalProperties"))
                        .unwrap_or(&Value::Null);
                    (key.clone(), entries_where_shown(inner, value))
                })
                .collect(),
        ),
        Value::Array(items) => {
            let item = schema.get("items").unwrap_or(&Value::Null);
            Value::Array(items.iter().map(|v| entries_where_shown(item, v)).collect())
        }
        _ => value.clone(),
    }
}

/// The call with each optional key whose value is `null` left out, as the exact contract
/// declares the keys.
fn leave_out_nulls(node: &'static Node<'static>, value: &Value) -> Value {
    match (&node.kind, value) {
        (Kind::Object(object), Value::Object(map)) => leave_out_in(object, map),
        (Kind::Union(union), Value::Object(map)) if union.tagging == Tagging::External => {
            let Some((name, held)) = map.iter().next() else {
                return value.clone();
            };
            let variant = union.variants.iter().find(|v| v.name == name);
            let held = match (variant.map(|v| v.holds), held) {
                (Some(Holds::Fields), Value::Object(fields)) => {
                    leave_out_in(variant.expect("found").object, fields)
                }
                (Some(Holds::Value(node)), held) => leave_out_nulls(node, held),
                // A unit operation: a client that does not show `null` sends an empty object.
                (Some(Holds::Nothing), _) => json!({}),
                _ => held.clone(),
            };
            json!({ name: held })
        }
        (Kind::Union(union), Value::Object(map)) => {
            let chosen = map.get(union.tag).and_then(Value::as_str);
            let Some(variant) = union.variants.iter().find(|v| Some(v.name) == chosen) else {
                return value.clone();
            };
            match (union.tagging, variant.holds) {
                (Tagging::Adjacent(content), Holds::Fields) => {
                    let mut kept = map.clone();
                    if let Some(Value::Object(fields)) = map.get(content) {
                        kept.insert(content.to_owned(), leave_out_in(variant.object, fields));
                    }
                    Value::Object(kept)
                }
                (Tagging::Adjacent(_), _) => value.clone(),
                _ => leave_out_in(variant.object, map),
            }
        }
        (Kind::Array(item, _), Value::Array(items)) => {
            Value::Array(items.iter().map(|v| leave_out_nulls(item, v)).collect())
        }
        (Kind::Map(item, _), Value::Object(map)) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), leave_out_nulls(item, v)))
                .collect(),
        ),
        _ => value.clone(),
    }
}

fn leave_out_in(object: &'static Object<'static>, map: &Map<String, Value>) -> Value {
    let mut kept = Map::new();
    for (key, value) in map {
        match object.fields.iter().find(|f| f.name == key) {
            Some(field) if value.is_null() && !field.required => {}
            Some(field) => {
                kept.insert(key.clone(), leave_out_nulls(field.node, value));
            }
            None => {
                kept.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(kept)
}

/// The call with every key the schema requires and the call leaves out sent as `null`, at
/// every depth: what a strict OpenAI client sends.
pub fn send_every_key(schema: &Value, value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut sent = Map::new();
            let properties = schema.get("properties");
            for (key, value) in map {
                let inner = properties
                    .and_then(|p| p.get(key))
                    .or_else(|| schema.get("additionalProperties"))
                    .unwrap_or(&Value::Null);
                sent.insert(key.clone(), send_every_key(inner, value));
            }
            if let Some(Value::Array(required)) = schema.get("required") {
                for key in required.iter().filter_map(Value::as_str) {
                    sent.entry(key.to_owned()).or_insert(Value::Null);
                }
            }
            Value::Object(sent)
        }
        Value::Array(items) => {
            let item = schema.get("items").unwrap_or(&Value::Null);
            Value::Array(items.iter().map(|v| send_every_key(item, v)).collect())
        }
        _ => value.clone(),
    }
}
