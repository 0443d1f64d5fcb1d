//! The keyword table from outside, through `minProperties`/`maxProperties`: the keyword added
//! through the table alone, advertised, checked by `parse` as the oracle judges it, said in
//! each dialect, and merged in collisions.

mod common;

use std::collections::{BTreeMap, HashMap};

use common::{json, validator};
use serde::Deserialize;
use serde_json::json;
use stitch::{Contract, Dialect, IssueCode};

/// Labels of a record.
#[derive(Contract, Deserialize, Debug)]
#[allow(dead_code)]
struct Labels {
    #[contract(min_properties = 1, max_properties = 3)]
    labels: BTreeMap<String, String>,
    #[contract(max_properties = 0)]
    none: Option<HashMap<String, u8>>,
}

/// Two operations declaring the same bounded map, and one declaring it differently.
#[derive(Contract, Deserialize, Debug)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum Tagging {
    Set {
        #[contract(min_properties = 1)]
        tags: BTreeMap<String, u8>,
    },
    Merge {
        #[contract(min_properties = 1)]
        tags: BTreeMap<String, u8>,
    },
    Replace {
        #[contract(min_properties = 2)]
        tags: BTreeMap<String, u8>,
    },
}

#[test]
fn map_bounds_are_advertised() {
    let schema = json(Labels::INPUT_SCHEMA);
    assert_eq!(
        schema["properties"]["labels"],
        json!({
            "type": "object",
            "additionalProperties": {"type": "string"},
            "minProperties": 1,
            "maxProperties": 3
        })
    );
    assert_eq!(schema["properties"]["none"]["maxProperties"], 0);
    validator(&schema);
}

#[test]
fn map_bounds_are_checked_by_parse() {
    let ok = Labels::parse(json!({"labels": {"a": "x"}}));
    assert!(ok.is_ok(), "{ok:?}");
    let empty = Labels::parse(json!({"labels": {}})).unwrap_err();
    assert_eq!(empty.issues[0].pointer, "/labels");
    assert_eq!(empty.issues[0].code, IssueCode::MinProperties);
    assert_eq!(
        empty.issues[0].message,
        "must have at least 1 property, got 0"
    );
    let many = Labels::parse(
        json!({"labels": {"a": "1", "b": "2", "c": "3", "d": "4"}, "none": {"x": 1}}),
    )
    .unwrap_err();
    let codes: Vec<&str> = many.issues.iter().map(|i| i.code.as_str()).collect();
    assert_eq!(codes, ["max_properties", "max_properties"]);
    assert_eq!(
        many.issues[0].message,
        "must have at most 3 properties, got 4"
    );
}

#[test]
fn map_bounds_are_judged_by_the_oracle_as_parse_judges_them() {
    let schema = validator(&json(Labels::EXACT_SCHEMA));
    for (call, valid) in [
        (json!({"labels": {"a": "x"}}), true),
        (json!({"labels": {"a": "x", "b": "y", "c": "z"}}), true),
        (json!({"labels": {}}), false),
        (
            json!({"labels": {"a": "1", "b": "2", "c": "3", "d": "4"}}),
            false,
        ),
        (json!({"labels": {"a": "x"}, "none": {}}), true),
        (json!({"labels": {"a": "x"}, "none": {"b": 1}}), false),
    ] {
        assert_eq!(schema.is_valid(&call), valid, "{call}");
        assert_eq!(Labels::parse(call.clone()).is_ok(), valid, "{call}");
    }
}

#[test]
fn map_bounds_are_said_in_each_dialect() {
    let labels = |dialect| json(Labels::input_schema_for(dialect))["properties"]["labels"].clone();
    for dialect in [Dialect::Mcp, Dialect::Portable] {
        assert_eq!(labels(dialect)["minProperties"], 1, "{dialect}");
        assert_eq!(labels(dialect)["maxProperties"], 3, "{dialect}");
    }
    for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
        let property = labels(dialect);
        // A strict mode closes the map into an empty object: a bound on its entries moves
        // into the description, where it cannot contradict the schema.
        assert!(property.get("minProperties").is_none(), "{dialect}");
        let description = property["description"].as_str().unwrap();
        assert!(
            description.ends_with("{minProperties: 1, maxProperties: 3}"),
            "{dialect}: {description}"
        );
        validator(&json(Labels::input_schema_for(dialect)));
    }
}

#[test]
fn map_bounds_take_part_in_collisions() {
    let schema = json(Tagging::INPUT_SCHEMA);
    let tags = &schema["properties"]["tags"];
    // The operations disagree on the bound: the loosest one, which every operation's maps
    // meet, and the values they agree on.
    assert_eq!(
        *tags,
        json!({
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 255},
            "minProperties": 1
        })
    );
    let call = json!({"op": "Set", "tags": {"a": 1}});
    assert!(validator(&schema).is_valid(&call));
    assert!(Tagging::parse(call).is_ok());
    let too_few = Tagging::parse(json!({"op": "Replace", "tags": {"a": 1}})).unwrap_err();
    assert_eq!(too_few.issues[0].code, IssueCode::MinProperties);
}

every_contract_here!(Labels, Tagging);
