//! A foreign document's meaning, kept: keywords of older drafts read as their draft reads them
//! (zod-to-json-schema writes draft-07), so that every dialect's output is a valid 2020-12
//! schema that means what the source meant; and a `null` the source tells apart from absence
//! never read as absence.

use serde_json::{Value, json};
use stitch::Dialect;

/// zod-to-json-schema's output for a tool taking a point and a range: draft-07, a tuple as an
/// array of `items`.
fn zod_tuple() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "point": {"type": "array", "minItems": 2, "maxItems": 2,
                      "items": [{"type": "number"}, {"type": "number"}]},
            "limit": {"type": "integer", "exclusiveMinimum": 0},
        },
        "required": ["point"],
        "additionalProperties": false,
    })
}

#[test]
fn every_dialect_of_an_older_draft_is_a_valid_2020_12_schema_that_means_the_same() {
    let document = zod_tuple();
    let source = jsonschema::draft7::new(&document).expect("the source is a draft-07 schema");
    for &dialect in Dialect::ALL {
        let shown = stitch::foreign::tool_schema_for(&document, dialect);
        assert!(
            jsonschema::meta::is_valid(&shown),
            "{dialect}: {shown:#} is no 2020-12 schema"
        );
        assert!(!shown.to_string().contains("allOf"), "{dialect}: {shown}");
        if dialect == Dialect::Mcp {
            let advertised =
                jsonschema::draft202012::new(&shown).expect("the output is a 2020-12 schema");
            for call in [
                json!({"point": [1, 2]}),
                json!({"point": [1.5, -2], "limit": 1}),
                json!({"point": [1, "2"]}),
                json!({"point": [1, 2], "limit": 0}),
                json!({"point": [1]}),
            ] {
                assert_eq!(
                    advertised.is_valid(&call),
                    source.is_valid(&call),
                    "{call} against {shown:#}"
                );
            }
        }
    }
    let flat = stitch::foreign::flatten_tool_schema(&document);
    assert_eq!(
        flat["properties"]["point"]["prefixItems"],
        json!([{"type": "number"}, {"type": "number"}])
    );
    assert_eq!(flat["properties"]["limit"]["exclusiveMinimum"], 0);
}

#[test]
fn draft_04_bounds_and_dependencies_keep_their_meaning() {
    let document = json!({
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "properties": {
            "ratio": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 1},
            "a": {"type": "string"},
            "b": {"type": "string"},
        },
        "dependencies": {"a": ["b"]},
    });
    let source = jsonschema::draft4::new(&document).expect("the source is a draft-04 schema");
    for &dialect in Dialect::ALL {
        let shown = stitch::foreign::tool_schema_for(&document, dialect);
        assert!(jsonschema::meta::is_valid(&shown), "{dialect}: {shown:#}");
    }
    let shown = stitch::foreign::flatten_tool_schema(&document);
    let advertised = jsonschema::draft202012::new(&shown).expect("a 2020-12 schema");
    for call in [
        json!({"ratio": 0}),
        json!({"ratio": 0.5}),
        json!({"ratio": 1}),
        json!({"a": "x"}),
        json!({"a": "x", "b": "y"}),
    ] {
        assert_eq!(
            advertised.is_valid(&call),
            source.is_valid(&call),
            "{call} against {shown:#}"
        );
    }
}

#[test]
fn a_null_with_a_meaning_is_never_read_as_absence() {
    // GitHub's issue_write: "pass null to remove the current type"; and a required nullable key.
    let schema = json!({
        "type": "object",
        "properties": {
            "method": {"type": "string", "enum": ["update"]},
            "type": {"type": ["string", "null"], "description": "Pass null to remove the current type."},
            "issue_type": {"type": ["string", "null"]},
            "state": {"type": ["string", "null"], "default": null},
        },
        "required": ["method", "issue_type"],
    });
    let mut call =
        json!({"method": "update", "type": null, "issue_type": null, "state": null, "other": null});
    stitch::foreign::strict_arguments_for(&schema, &mut call);
    assert_eq!(
        call,
        json!({"method": "update", "type": null, "issue_type": null, "state": null, "other": null}),
        "every null a key takes stays, and so does one under a key the schema leaves open"
    );
    // Anthropic's strict dialect shows the nulls with a meaning (as `anyOf` with `null`): the
    // required one, and the one whose description speaks of it.
    let shown = stitch::foreign::tool_schema_for(&schema, Dialect::AnthropicStrict);
    for key in ["type", "issue_type"] {
        assert!(
            shown["properties"][key].to_string().contains("\"null\""),
            "{key}: {shown:#}"
        );
    }
}

/// Every `type` in a schema that is an array, by JSON Pointer.
fn type_arrays(schema: &Value, at: &str, found: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                if key == "type" && value.is_array() {
                    found.push(at.to_owned());
                }
                type_arrays(value, &format!("{at}/{key}"), found);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                type_arrays(item, &format!("{at}/{i}"), found);
            }
        }
        _ => {}
    }
}

#[test]
fn type_arrays_are_said_in_each_dialects_words() {
    // sequential-thinking's, Sentry's and GitHub's.
    let schema = json!({
        "type": "object",
        "properties": {
            "needsMoreThoughts": {"type": ["boolean", "string"], "description": "Whether more are needed."},
            "issueId": {"type": ["string", "number"]},
            "value": {"type": ["string", "number", "boolean"]},
            "label": {"type": ["string", "null"]},
        },
        "required": ["needsMoreThoughts", "issueId"],
    });
    // Every dialect whose row says several kinds otherwise than by `type` arrays.
    let described = Dialect::ALL
        .iter()
        .filter(|d| d.rules().kinds != stitch::dialect::SeveralKinds::TypeArray);
    for &dialect in described {
        let shown = stitch::foreign::tool_schema_for(&schema, dialect);
        let mut found = Vec::new();
        type_arrays(&shown, "", &mut found);
        assert!(
            found.is_empty(),
            "{dialect}: type arrays at {found:?} in {shown:#}"
        );
        assert!(jsonschema::meta::is_valid(&shown), "{dialect}: {shown:#}");
    }
    let mcp = stitch::foreign::flatten_tool_schema(&schema);
    assert_eq!(
        mcp["properties"]["needsMoreThoughts"],
        json!({"description": "Whether more are needed.", "type": ["string", "boolean"]})
    );
    let anthropic = stitch::foreign::tool_schema_for(&schema, Dialect::AnthropicStrict);
    assert_eq!(
        anthropic["properties"]["issueId"]["anyOf"],
        json!([{"type": "string"}, {"type": "number"}])
    );
    // Portable says the kinds in words, and the guard says what was lost.
    let portable = stitch::foreign::tool_schema_for(&schema, Dialect::Portable);
    let value = &portable["properties"]["value"];
    assert!(value.get("type").is_none(), "{value}");
    let text = value["description"].as_str().unwrap_or_default();
    assert!(
        text.contains("string") && text.contains("number") && text.contains("boolean"),
        "{value}"
    );
    // Every value the source accepts, each dialect that can say it accepts too.
    let source = jsonschema::draft202012::new(&schema).expect("a schema");
    for &dialect in Dialect::ALL {
        let shown = stitch::foreign::tool_schema_for(&schema, dialect);
        let advertised = jsonschema::draft202012::new(&shown).expect("a schema");
        for call in [
            json!({"needsMoreThoughts": true, "issueId": "A-1"}),
            json!({"needsMoreThoughts": "yes", "issueId": 7, "value": false}),
            json!({"needsMoreThoughts": false, "issueId": 7.5, "value": "x"}),
        ] {
            assert!(source.is_valid(&call));
            let call = if dialect == Dialect::OpenAiStrict {
                let mut call = call;
                for key in ["value", "label"] {
                    call.as_object_mut()
                        .expect("an object")
                        .entry(key)
                        .or_insert(Value::Null);
                }
                call
            } else {
                call
            };
            assert!(
                advertised.is_valid(&call),
                "{dialect}: {call} against {shown:#}"
            );
        }
    }
}
