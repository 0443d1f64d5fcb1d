//! A free value (`serde_json::Value`) and a flattened map in the strict dialects: a free value
//! is typed as the scalars and takes an object or array as its JSON text, which `parse_for`
//! reads back to serde's value; a flattened map's other keys, which a closed object cannot
//! take, are said in the description. The guard reports both, as what the dialect cannot say
//! whole.

mod common;

use std::collections::BTreeMap;

use common::{json, sends_json_text, validator};
use serde::Deserialize;
use serde_json::{Value, json};
use stitch::{Contract, Dialect};

// A free value beside a flattened map (no doc comment: the description is the dialect's).
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Note {
    data: Value,
    #[serde(flatten)]
    extra: BTreeMap<String, u32>,
}

const STRICT: [Dialect; 2] = [Dialect::OpenAiStrict, Dialect::AnthropicStrict];

#[test]
fn a_free_value_takes_an_object_and_an_array_from_a_strict_client_as_json_text() {
    for dialect in STRICT {
        let schema = json(Note::input_schema_for(dialect));
        let data = &schema["properties"]["data"];
        assert!(sends_json_text(data), "{dialect}: {data}");
        let oracle = validator(&schema);
        for sent in [
            json!({"a": [1, {"b": null}], "c": "d"}),
            json!([1, "x", {"e": true}]),
        ] {
            let call = json!({ "data": sent.to_string() });
            assert!(oracle.is_valid(&call), "{dialect}: {schema} rejects {call}");
            let read = Note::parse_for(call, dialect).expect("read back");
            assert_eq!(read.data, sent, "{dialect}");
            // Sent as itself, the schema refuses it: the text is what the model must write.
            assert!(!oracle.is_valid(&json!({ "data": sent })), "{dialect}");
        }
        // A string that is not JSON text stays a string.
        let read = Note::parse_for(json!({"data": "{not json"}), dialect).expect("a string");
        assert_eq!(read.data, json!("{not json"));
        let found = common::inexpressible::<Note>(dialect);
        assert!(
            found.contains(&"data".to_owned()),
            "{dialect}: the guard still reports what the schema says only in words: {found:?}"
        );
    }
}

#[test]
fn a_flattened_maps_other_keys_are_said_where_a_strict_dialect_closes_the_object() {
    let mcp = json(Note::input_schema_for(Dialect::Mcp));
    assert_eq!(
        mcp["additionalProperties"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295u32})
    );
    assert!(mcp.get("description").is_none(), "{mcp}");
    for dialect in STRICT {
        let schema = json(Note::input_schema_for(dialect));
        assert_eq!(schema["additionalProperties"], false, "{dialect}");
        let description = schema["description"].as_str().unwrap_or_default();
        assert!(
            description.contains("cannot send them"),
            "{dialect}: {schema}"
        );
        assert!(
            common::inexpressible::<Note>(dialect)
                .iter()
                .any(String::is_empty),
            "{dialect}: {:?}",
            common::inexpressible::<Note>(dialect)
        );
    }
}

every_contract_here!(Note);
