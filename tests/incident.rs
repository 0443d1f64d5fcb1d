//! The incident contract: `partIndex` (integer, minimum 0, shared by 8 of 14 operations) must
//! reach the model typed, and the advertised schema must match its checked-in snapshot.

#[path = "../examples/contracts/broadcast_patch.rs"]
mod broadcast_patch;
mod common;

use broadcast_patch::{BroadcastPatch, PatchOp};
use common::{assert_portable, json, property_names, untyped_paths};
use serde_json::json;
use stitch::Contract;

/// Rendered at compile time (this line is the test that it is a const).
const INPUT: &str = BroadcastPatch::INPUT_SCHEMA;
const EXACT: &str = BroadcastPatch::EXACT_SCHEMA;

#[test]
fn part_index_stays_a_typed_integer_with_its_minimum() {
    let schema = json(INPUT);
    let part_index = &schema["properties"]["operations"]["items"]["properties"]["partIndex"];
    let mut without_description = part_index.clone();
    let description = without_description
        .as_object_mut()
        .unwrap()
        .remove("description")
        .unwrap();
    assert_eq!(
        without_description,
        json!({"type": "integer", "minimum": 0})
    );
    assert_eq!(
        description,
        "Which part (0 is the first). Required if op = setText | setButton | removePart | \
         movePart | setCaption | removeButton | setButtonUrl | duplicatePart"
    );
}

#[test]
fn no_property_is_untyped_at_any_depth() {
    let schema = json(INPUT);
    assert_eq!(untyped_paths(&schema), Vec::<String>::new());
    assert_portable(&schema);
}

#[test]
fn the_tag_comes_first_lists_every_operation_and_is_required_first() {
    let schema = json(INPUT);
    let items = &schema["properties"]["operations"]["items"];
    let properties = items["properties"].as_object().unwrap();
    assert_eq!(properties.keys().next().unwrap(), "op");
    assert_eq!(properties["op"]["enum"].as_array().unwrap().len(), 14);
    assert_eq!(items["required"], json!(["op"]));
    let description = properties["op"]["description"].as_str().unwrap();
    assert!(description.contains("setText \u{2014} Replace the text of a part"));
    assert!(description.contains("setMedia \u{2014} Attach a media item in a media slot"));
}

#[test]
fn keys_appear_in_order_of_first_appearance() {
    let schema = json(INPUT);
    let keys = property_names(&schema["properties"]["operations"]["items"]);
    assert_eq!(
        keys,
        [
            "op",
            "partIndex",
            "text",
            "buttonIndex",
            "label",
            "mediaIndex",
            "mediaId",
            "toIndex",
            "caption",
            "url",
            "sendAt",
            "audience",
            "title"
        ]
    );
}

#[test]
fn the_exact_schema_is_a_one_of_with_one_value_tags() {
    let schema = json(EXACT);
    let variants = schema["properties"]["operations"]["items"]["oneOf"]
        .as_array()
        .unwrap();
    assert_eq!(variants.len(), 14);
    assert_eq!(
        variants[0]["properties"]["op"],
        json!({"type": "string", "enum": ["setText"]})
    );
    assert_eq!(variants[0]["required"], json!(["op", "partIndex", "text"]));
    assert_eq!(variants[0]["description"], "Replace the text of a part.");
}

#[test]
fn trait_methods_return_the_compile_time_text() {
    assert_eq!(BroadcastPatch::input_schema(), INPUT);
    assert_eq!(BroadcastPatch::exact_schema(), EXACT);
    assert_eq!(BroadcastPatch::TOOL.name, "broadcast_patch");
    assert_eq!(
        BroadcastPatch::TOOL.description,
        "Edit a broadcast: apply the operations in order."
    );
    assert_eq!(PatchOp::TOOL.name, "patch_op");
}

#[test]
fn the_advertised_schema_matches_its_snapshot() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/snapshots/broadcast_patch.json"
    );
    let pretty = serde_json::to_string_pretty(&json(INPUT)).unwrap() + "\n";
    if std::env::var_os("STITCH_BLESS").is_some() {
        std::fs::write(path, &pretty).unwrap();
    }
    let snapshot = std::fs::read_to_string(path)
        .expect("the snapshot exists (run with STITCH_BLESS=1 to write it)");
    assert_eq!(
        pretty, snapshot,
        "the advertised schema changed; review it and run with STITCH_BLESS=1 to accept"
    );
}

#[test]
fn parse_deserializes_a_valid_call() {
    let call = json!({
        "broadcastId": "b1",
        "operations": [
            {"op": "setText", "partIndex": 1, "text": "Hello"},
            {"op": "removePart", "partIndex": 0}
        ]
    });
    let patch = BroadcastPatch::parse(call).unwrap();
    assert_eq!(patch.operations[1], PatchOp::RemovePart { part_index: 0 });
}

every_contract_here!(broadcast_patch::BroadcastPatch);
