//! Maps from strict clients: a strict dialect closes every object, so a map is shown as an
//! array of `{"key", "value"}` entries, both required; `parse_for` reads the entries back
//! into the map (a repeated key, a malformed entry and a bad value each an issue where it was
//! sent), and `strict_arguments_for` does the same for a foreign tool.

mod common;

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};
use stitch::{Contract, Dialect};

/// Labels on a broadcast.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Labelled {
    /// Each label's weight.
    #[contract(max_properties = 8)]
    labels: BTreeMap<String, u8>,
    /// Nested maps too.
    groups: Option<BTreeMap<String, Vec<String>>>,
}

const STRICT: [Dialect; 2] = [Dialect::OpenAiStrict, Dialect::AnthropicStrict];

fn entries(map: &BTreeMap<String, u8>) -> Value {
    Value::Array(
        map.iter()
            .map(|(key, value)| json!({"key": key, "value": value}))
            .collect(),
    )
}

#[test]
fn a_strict_dialect_shows_a_map_as_its_entries() {
    for dialect in STRICT {
        let schema: Value = serde_json::from_str(Labelled::input_schema_for(dialect)).unwrap();
        let labels = &schema["properties"]["labels"];
        assert_eq!(labels["type"], "array", "{dialect}: {labels}");
        assert_eq!(
            labels["items"]["required"],
            json!(["key", "value"]),
            "{dialect}"
        );
        assert_eq!(labels["items"]["additionalProperties"], false);
        assert_eq!(labels["items"]["properties"]["key"]["type"], "string");
        assert_eq!(
            labels["items"]["properties"]["value"]["type"],
            json!("integer"),
            "{dialect}: {labels}"
        );
        // Nothing is lost: the guard has nothing to say of the maps.
        let profile = stitch::SchemaProfile::new().dialect(dialect);
        assert!(
            stitch::guard::check(&[Labelled::TOOL.into()], &profile).is_empty(),
            "{dialect}"
        );
    }
    // The other dialects keep the object.
    let mcp: Value = serde_json::from_str(Labelled::INPUT_SCHEMA).unwrap();
    assert_eq!(mcp["properties"]["labels"]["type"], "object");
}

#[test]
fn entries_are_read_back_into_the_map() {
    let call = json!({
        "labels": [{"key": "urgent", "value": 3}, {"key": "late", "value": 1}],
        "groups": [{"key": "team", "value": ["ada", "bob"]}],
    });
    for dialect in STRICT {
        let parsed = Labelled::parse_for(call.clone(), dialect).expect("entries are a map");
        assert_eq!(parsed.labels["urgent"], 3);
        assert_eq!(parsed.groups.unwrap()["team"], ["ada", "bob"]);
    }
    // A strict client may still send the object, which serde reads.
    let object = json!({"labels": {"a": 1}, "groups": null});
    assert!(Labelled::parse_for(object, Dialect::OpenAiStrict).is_ok());
    // A client shown the object is held to it.
    let rejection = Labelled::parse(call).unwrap_err();
    assert_eq!(rejection.issues[0].pointer, "/labels");
}

#[test]
fn a_bad_entry_is_an_issue_where_it_was_sent() {
    let call = json!({"labels": [
        {"key": "a", "value": 1},
        {"key": "a", "value": 2},
        {"key": 7, "value": 3},
        {"key": "b", "value": 300},
        {"key": "c"},
    ]});
    let rejection = Labelled::parse_for(call, Dialect::OpenAiStrict).unwrap_err();
    let found: Vec<(&str, &str)> = rejection
        .issues
        .iter()
        .map(|issue| (issue.pointer.as_str(), issue.code.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("/labels/1/key", "duplicate_key"),
            ("/labels/2", "invalid_type"),
            ("/labels/3/value", "maximum"),
            ("/labels/4", "invalid_type"),
        ],
        "{rejection}"
    );
    // The bound on the map's entries counts the entries.
    let many: BTreeMap<String, u8> = (0..9).map(|i| (format!("k{i}"), i)).collect();
    let rejection =
        Labelled::parse_for(json!({"labels": entries(&many)}), Dialect::AnthropicStrict)
            .unwrap_err();
    assert_eq!(rejection.issues[0].code.as_str(), "max_properties");
}

#[test]
fn a_foreign_tools_map_comes_back_from_a_strict_client() {
    let schema = json!({
        "type": "object",
        "properties": {
            "headers": {"type": "object", "additionalProperties": {"type": "string"}},
            "nested": {"type": "object", "properties": {
                "env": {"type": "object", "additionalProperties": {"type": "integer"}}}},
        },
        "required": ["headers"],
    });
    let shown = stitch::foreign::tool_schema_for(&schema, Dialect::OpenAiStrict);
    assert_eq!(shown["properties"]["headers"]["type"], "array", "{shown:#}");
    let mut call = json!({
        "headers": [{"key": "accept", "value": "json"}],
        "nested": {"env": [{"key": "PORT", "value": 80}]},
    });
    let sent = call.clone();
    assert!(
        jsonschema::draft202012::new(&shown)
            .unwrap()
            .is_valid(&sent)
    );
    stitch::foreign::strict_arguments_for(&schema, &mut call);
    assert_eq!(
        call,
        json!({"headers": {"accept": "json"}, "nested": {"env": {"PORT": 80}}})
    );
    assert!(
        jsonschema::draft202012::new(&schema)
            .unwrap()
            .is_valid(&call)
    );
    // A repeated key is left as it came, for the tool to refuse.
    let mut repeated = json!({"headers": [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]});
    let before = repeated.clone();
    stitch::foreign::strict_arguments_for(&schema, &mut repeated);
    assert_eq!(repeated, before);
}

proptest! {
    /// Every map, sent as entries, is accepted by the strict schema and read back whole.
    #[test]
    fn every_map_round_trips_through_its_entries(
        labels in prop::collection::btree_map("[a-z]{1,6}", any::<u8>(), 0..8),
    ) {
        let call = json!({"labels": entries(&labels)});
        for dialect in STRICT {
            let schema: Value = serde_json::from_str(Labelled::input_schema_for(dialect)).unwrap();
            let mut sent = call.clone();
            if dialect == Dialect::OpenAiStrict {
                sent["groups"] = Value::Null;
            }
            prop_assert!(jsonschema::draft202012::new(&schema).unwrap().is_valid(&sent));
            let parsed = Labelled::parse_for(sent, dialect).unwrap();
            prop_assert_eq!(&parsed.labels, &labels);
        }
    }
}

every_contract_here!(Labelled);
