//! Where a flat schema says which operations take which key: on each key (`Required if op =
//! a | b`, the default) or, `#[contract(hints = "by_operation")]`, once per operation in the
//! tag's description (`a(x, y?)`). Both say the same facts: read back from either schema, in
//! every dialect, they are equal, and nothing else in the schema differs.

mod common;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;
use stitch::ir::{Hints, Kind, Node, Union};
use stitch::{Contract, Dialect, Shape};

#[path = "../examples/contracts/broadcast_patch.rs"]
mod broadcast_patch;

/// Edit an entry.
#[allow(dead_code, reason = "its fields are deserialized, never read")]
#[derive(Contract, Deserialize, Debug)]
#[serde(tag = "op")]
#[contract(name = "edit", hints = "by_operation")]
enum Edit {
    /// Move an entry.
    Move { id: u32, to: u32 },
    Rename {
        id: u32,
        name: String,
        note: Option<String>,
    },
    /// Leave a note.
    Note { note: Option<String> },
    /// Clear everything.
    Clear,
}

/// `Edit`, its hints on each key: its union's IR, the placement changed back.
#[derive(Contract, Deserialize, Debug)]
#[serde(transparent)]
#[contract(name = "edit")]
struct EditByKey(ByKey);

#[derive(Deserialize, Debug)]
#[serde(transparent)]
struct ByKey(#[allow(dead_code, reason = "only its schema is read")] Edit);

const BY_KEY: Union = match <Edit as Shape>::SHAPE.kind {
    Kind::Union(union) => union.hints(Hints::ByKey),
    _ => panic!("Edit is a union"),
};

impl Shape for ByKey {
    const SHAPE: &'static Node<'static> = &Node::of(Kind::Union(&BY_KEY));
}

/// The incident contract with its hints by operation: its union's IR, the placement changed.
#[allow(dead_code, reason = "its fields are deserialized, never read")]
#[derive(Contract, Deserialize)]
#[contract(name = "broadcast_patch")]
#[serde(rename_all = "camelCase")]
struct PatchByOperation {
    /// The broadcast to edit.
    #[contract(min_length = 1)]
    broadcast_id: String,
    /// The edits, applied in order.
    #[contract(min_items = 1, max_items = 32)]
    operations: Vec<OperationByOperation>,
}

#[derive(Deserialize)]
#[serde(transparent)]
struct OperationByOperation(
    #[allow(dead_code, reason = "only its schema is read")] broadcast_patch::PatchOp,
);

const BY_OPERATION: Union = match <broadcast_patch::PatchOp as Shape>::SHAPE.kind {
    Kind::Union(union) => union.hints(Hints::ByOperation),
    _ => panic!("PatchOp is a union"),
};

impl Shape for OperationByOperation {
    const SHAPE: &'static Node<'static> = &Node::of(Kind::Union(&BY_OPERATION));
}

/// A type alias the derive reads as required: `Option` behind another name.
type Maybe<T> = Option<T>;

/// A type the derive reads as optional, spelled `Option<T>`, that is required.
mod spelled {
    use serde::Deserialize;
    use stitch::Shape;
    use stitch::ir::Node;

    /// A value that must be sent.
    #[derive(Deserialize, Debug)]
    #[serde(transparent)]
    pub struct Always<T>(#[allow(dead_code, reason = "only its schema is read")] pub T);

    impl<T: Shape> Shape for Always<T> {
        const SHAPE: &'static Node<'static> = T::SHAPE;
    }

    pub type Option<T> = Always<T>;
}

/// Count things.
#[allow(dead_code, reason = "its fields are deserialized, never read")]
#[derive(Contract, Deserialize, Debug)]
#[serde(tag = "op")]
#[contract(name = "count")]
enum Count {
    Add {
        by: u32,
        to: Option<u32>,
    },
    Reset {
        by: Maybe<u32>,
        to: spelled::Option<u32>,
    },
    Scale {
        by: u32,
        to: u32,
    },
}

/// The derive writes each key's hint list from the fields' spelling; the key table checks
/// each field's requirement against it, so a spelling that misleads costs the list, not the
/// truth: `Maybe<u32>` is optional, `spelled::Option<u32>` required.
#[test]
fn a_hint_names_the_operations_as_the_fields_types_say_whatever_their_spelling() {
    let schema: Value = serde_json::from_str(Count::INPUT_SCHEMA).unwrap();
    let hint = |key: &str| schema["properties"][key]["description"].clone();
    assert_eq!(hint("by"), "Required if op = Add | Scale");
    assert_eq!(hint("to"), "Required if op = Reset | Scale");
}

#[test]
fn each_operation_names_its_keys_once() {
    let schema: Value = serde_json::from_str(Edit::INPUT_SCHEMA).unwrap();
    assert_eq!(
        schema["properties"]["op"]["description"],
        "The operation, with its keys (? optional): Move(id, to) \u{2014} Move an entry; \
         Rename(id, name, note?); Note(note?) \u{2014} Leave a note; Clear \u{2014} Clear \
         everything."
    );
    for (key, property) in schema["properties"].as_object().unwrap() {
        let description = property["description"].as_str().unwrap_or_default();
        assert!(
            key == "op" || !description.contains(" if op = "),
            "{key}: {description}"
        );
    }
}

/// Which keys each operation takes, read from a flat schema's hints, whichever way they are
/// placed: (operation, key, required).
fn facts(schema: &Value) -> BTreeMap<(String, String), bool> {
    let properties = &schema["properties"];
    let tag = properties["op"]["description"].as_str().unwrap();
    let mut facts = BTreeMap::new();
    if let Some(list) = tag.strip_prefix("The operation, with its keys (? optional): ") {
        for entry in list.trim_end_matches('.').split("; ") {
            let head = entry.split(" \u{2014} ").next().unwrap();
            let Some((operation, keys)) = head.split_once('(') else {
                continue;
            };
            for key in keys.trim_end_matches(')').split(", ") {
                let (key, required) = match key.strip_suffix('?') {
                    Some(key) => (key, false),
                    None => (key, true),
                };
                facts.insert((operation.to_owned(), key.to_owned()), required);
            }
        }
        return facts;
    }
    for (key, property) in properties.as_object().unwrap() {
        let description = property["description"].as_str().unwrap_or_default();
        for (marker, required) in [("Required if op = ", true), ("Available if op = ", false)] {
            if let Some(at) = description.find(marker) {
                let operations = description[at + marker.len()..].lines().next().unwrap();
                for operation in operations.split(" | ") {
                    facts.insert((operation.to_owned(), key.clone()), required);
                }
            }
        }
    }
    facts
}

/// The schema without its descriptions.
fn undescribed(mut schema: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.remove("description");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut schema);
    schema
}

/// The flat union of a schema: the root, or the items of its `operations`.
fn union_of(schema: &Value) -> &Value {
    if schema["properties"]["op"].is_object() {
        schema
    } else {
        &schema["properties"]["operations"]["items"]
    }
}

fn same_facts(by_operation: &str, by_key: &str, what: &str) {
    let (a, b): (Value, Value) = (
        serde_json::from_str(by_operation).unwrap(),
        serde_json::from_str(by_key).unwrap(),
    );
    let facts_a = facts(union_of(&a));
    assert!(!facts_a.is_empty(), "{what}");
    assert_eq!(facts_a, facts(union_of(&b)), "{what}");
    assert_eq!(
        undescribed(a),
        undescribed(b),
        "{what}: only descriptions differ"
    );
}

#[test]
fn both_placements_say_the_same_facts_in_every_dialect() {
    for &dialect in Dialect::ALL {
        same_facts(
            Edit::input_schema_for(dialect),
            EditByKey::input_schema_for(dialect),
            &format!("edit, {dialect}"),
        );
        same_facts(
            PatchByOperation::input_schema_for(dialect),
            broadcast_patch::BroadcastPatch::input_schema_for(dialect),
            &format!("broadcast_patch, {dialect}"),
        );
    }
}

#[test]
fn by_operation_is_shorter_when_operations_share_keys() {
    for &dialect in Dialect::ALL {
        let by_operation = PatchByOperation::MEASURES[dialect as usize];
        let by_key = broadcast_patch::BroadcastPatch::MEASURES[dialect as usize];
        assert!(by_operation.tokens < by_key.tokens, "{dialect}");
    }
}

#[test]
fn parse_is_the_same_either_way() {
    let call = serde_json::json!({"op": "Rename", "id": 1, "name": "n"});
    assert!(Edit::parse(call.clone()).is_ok() && EditByKey::parse(call).is_ok());
    let bad = serde_json::json!({"op": "Move", "id": "1"});
    let (a, b) = (
        Edit::parse(bad.clone()).unwrap_err(),
        EditByKey::parse(bad).unwrap_err(),
    );
    assert_eq!(a.to_string(), b.to_string());
}

every_contract_here!(Edit, EditByKey, PatchByOperation, Count);
