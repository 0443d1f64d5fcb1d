//! A call from a client shown a strict dialect of a foreign schema, read back as the tool that
//! wrote the schema reads it: each map sent as its entries made a map again, each free value
//! sent as JSON text made the object or array it holds, and each `null` that can only mean
//! absence left out, walking the call as the schema's IR describes it.

use bumpalo::Bump;
use serde_json::Value;
use stitch_rules::Dialect;

use super::lower::lower;
use super::{MAX_DEPTH, nested_deeper_than, readable};
use crate::call::check::entries::{entry_key, map_of_entries};
use crate::call::check::free::free_value_in_text;
use crate::ir::{Kind, Node, Object, Union, kinds};

/// A call from a client shown a strict dialect of a foreign schema, as the tool that wrote
/// the schema reads it: [`arguments_for`] as an OpenAI strict client sends it, the dialect
/// whose client sends the most on its own (every key). For a client whose dialect is known,
/// call [`arguments_for`]: an Anthropic strict client's `null` for a key with another default
/// is its own, and is kept.
pub fn strict_arguments_for(schema: &Value, arguments: &mut Value) {
    arguments_for(schema, arguments, Dialect::OpenAiStrict);
}

/// A call from a client shown `dialect` of a foreign schema, as the tool that wrote the schema
/// reads it. A client shown a strict dialect sends a map as an array of `{"key", "value"}`
/// entries (a strict dialect closes every object): each is read back into the map, when every
/// entry is one and no key repeats; and a free value (any JSON) as scalars, an object or array
/// as its JSON text: each is read back into what the text holds. A `null` that can only mean
/// absence is left out: one under a key another operation declares, or one whose schema takes
/// no `null`; and, from an OpenAI strict client, which sends every key of the flat object,
/// `null` for each it leaves out, one whose key has a default other than `null` and whose
/// description gives `null` no meaning of its own (the client asked for the default). A `null`
/// the key takes as a value stays (the source may give it a meaning: "pass null to remove"),
/// and so does every `null` under a key the flat object does not list: in an object open to
/// other keys it is a value like any other. Everything else is left as it came; a call from a
/// client shown `mcp` or `portable` is left as it came.
pub fn arguments_for(schema: &Value, arguments: &mut Value, dialect: Dialect) {
    if !dialect.is_strict()
        || nested_deeper_than(schema, MAX_DEPTH)
        || nested_deeper_than(arguments, MAX_DEPTH)
    {
        return;
    }
    let document = readable(schema);
    let arena = Bump::new();
    let reading = Reading {
        defaults_asked_by_null: matches!(
            dialect.rules().omitted,
            stitch_rules::Omitted::SentAsNull
        ),
    };
    reading.read(lower(&document, &arena, MAX_DEPTH).root, arguments);
}

/// How a dialect's client says what it sends.
#[derive(Clone, Copy)]
struct Reading {
    /// Whether a `null` for a key with another default asks for that default (a client that
    /// must send every key).
    defaults_asked_by_null: bool,
}

impl Reading {
    /// Leaves out each `null` that means absence, and reads each map sent as entries back into
    /// the map, walking the value as the node describes it.
    fn read(self, node: &Node<'_>, value: &mut Value) {
        if let (Kind::Any, Value::String(text)) = (node.kind, &*value)
            && let Some(parsed) = free_value_in_text(text)
        {
            *value = parsed;
            return;
        }
        if let Kind::AnyOf(branches) = node.kind {
            if let Some(branch) = branch_for(branches, value) {
                self.read(branch, value);
            }
            return;
        }
        if let (Kind::Map(..), Value::Array(_)) = (node.kind, &*value)
            && let Some(map) = map_of_entries(value)
        {
            *value = Value::Object(map);
        }
        let (object, union, map) = match (node.kind, value) {
            (Kind::Object(object), Value::Object(map)) => (object, None, map),
            (Kind::Union(union), Value::Object(map)) => {
                let chosen = map
                    .get(union.tag)
                    .and_then(Value::as_str)
                    .and_then(|name| union.variants.iter().find(|variant| variant.name == name));
                match chosen {
                    Some(variant) => (variant.object, Some(union), map),
                    None => return,
                }
            }
            (Kind::Array(item, _), Value::Array(items)) => {
                items
                    .iter_mut()
                    .for_each(|element| self.read(item, element));
                return;
            }
            (Kind::Map(entry, _), Value::Object(map)) => {
                map.values_mut()
                    .for_each(|element| self.read(entry, element));
                return;
            }
            _ => return,
        };
        map.retain(|key, value| !value.is_null() || !self.null_is_absence(object, union, key));
        for field in object.fields {
            if let Some(element) = map.get_mut(field.name) {
                self.read(field.node, element);
            }
        }
    }

    /// Whether a `null` sent under `key` of `object` (the operation chosen of `union`, if any) can
    /// only mean that the key was left out, and is so read. It is where the flat object lists the
    /// key, so that a client that must send every key sent it, and:
    /// - the object declares the key and its schema takes no `null`, or reads it as its default
    ///   and the client asks for a default so ([`Field::null_is_absence`](crate::ir::Field));
    /// - the object does not declare it, but another operation of the union does: the `null` was
    ///   sent for that operation's sake, even to an operation that takes other keys.
    ///
    /// A `null` under a key the flat object does not list is the client's own (in an object open
    /// to other keys, a value like any other): it stays, as does one the key takes as a value.
    fn null_is_absence(self, object: &Object<'_>, union: Option<&Union<'_>>, key: &str) -> bool {
        if let Some(field) = object.fields.iter().find(|field| field.name == key) {
            let takes_null = field.node.nullable || field.node.kind.json_kinds() & kinds::NULL != 0;
            return !takes_null || field.null_is_absence && self.defaults_asked_by_null;
        }
        union.is_some_and(|union| {
            union.tag != key
                && union
                    .variants
                    .iter()
                    .any(|variant| variant.object.fields.iter().any(|field| field.name == key))
        })
    }
}
/// The branch of several a value was sent for, as far as its shape tells: a map's for an
/// array of entries; an object's whose fields are the value's keys (a union's whose tag names
/// one of its operations); else the first of the value's JSON kind.
fn branch_for<'n>(branches: &[&'n Node<'n>], value: &Value) -> Option<&'n Node<'n>> {
    let fits = |branch: &&&Node<'_>| match (branch.kind, value) {
        (Kind::Map(..), Value::Array(items)) => items.iter().all(|item| entry_key(item).is_some()),
        (Kind::Object(object), Value::Object(map)) => map.iter().all(|(key, element)| {
            element.is_null() || object.fields.iter().any(|field| field.name == key)
        }),
        (Kind::Union(union), Value::Object(map)) => map
            .get(union.tag)
            .and_then(Value::as_str)
            .is_some_and(|name| union.variants.iter().any(|variant| variant.name == name)),
        _ => false,
    };
    let kind = match value {
        Value::Null => kinds::NULL,
        Value::Bool(_) => kinds::BOOLEAN,
        Value::Number(_) => kinds::NUMBER | kinds::INTEGER,
        Value::String(_) => kinds::STRING,
        Value::Array(_) => kinds::ARRAY,
        Value::Object(_) => kinds::OBJECT,
    };
    branches
        .iter()
        .find(fits)
        .or_else(|| {
            branches
                .iter()
                .find(|branch| branch.kind.json_kinds() & kind != 0)
        })
        .copied()
}
