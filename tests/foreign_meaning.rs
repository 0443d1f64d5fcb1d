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
    for dialect in Dialect::ALL {
        let shown = stitch::tool_schema_for(&document, dialect);
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
    let flat = stitch::flatten_tool_schema(&document);
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
    for dialect in Dialect::ALL {
        let shown = stitch::tool_schema_for(&document, dialect);
        assert!(jsonschema::meta::is_valid(&shown), "{dialect}: {shown:#}");
    }
    let shown = stitch::flatten_tool_schema(&document);
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
    let mut call = json!({"method": "update", "type": null, "issue_type": null, "state": null});
    stitch::strict_arguments_for(&schema, &mut call);
    assert_eq!(
        call,
        json!({"method": "update", "type": null, "issue_type": null}),
        "only the null whose default is null means absence"
    );
    // Anthropic's strict dialect shows the meaningful nulls (as `anyOf` with `null`).
    let shown = stitch::tool_schema_for(&schema, Dialect::AnthropicStrict);
    for key in ["type", "issue_type"] {
        assert!(
            shown["properties"][key].to_string().contains("\"null\""),
            "{key}: {shown:#}"
        );
    }
}
