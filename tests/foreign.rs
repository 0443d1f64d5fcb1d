//! Schemas stitch did not write: `flatten_tool_schema` and `tool_schema_for` over schemars'
//! output and over hostile documents.
//!
//! The differential proof: each contract here derives both `Contract` and schemars'
//! `JsonSchema` from one Rust type; schemars' document, flattened, must advertise the same
//! keys, kinds, requirements and enums as the derive (descriptions aside), and accept every
//! call serde accepts (values generated from the contract's IR, checked with the `jsonschema`
//! crate), in every dialect the guard reports nothing lost for.

mod common;

use std::collections::HashMap;

use common::{fill, json, summary, validator, values};
use proptest::prelude::*;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use stitch::{Contract, Dialect, Rendering, SchemaProfile};

/// Who receives a broadcast.
#[derive(Contract, JsonSchema, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
enum Audience {
    Everyone,
    Active,
    Dormant,
}

/// The incident's shape: `partIndex` shared by several operations, each an integer.
#[derive(Contract, JsonSchema, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Patch {
    /// The broadcast to edit.
    broadcast_id: String,
    /// The edits, in order.
    operations: Vec<PatchOp>,
}

/// One edit.
#[derive(Contract, JsonSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", rename_all = "camelCase", rename_all_fields = "camelCase")]
enum PatchOp {
    /// Replace the text of a part.
    SetText { part_index: i64, text: String },
    /// Set a button.
    SetButton {
        part_index: i64,
        button_index: i64,
        label: Option<String>,
    },
    /// Remove a part.
    RemovePart { part_index: i64 },
    /// Reorder the parts.
    Reorder { order: Vec<i64> },
    /// Choose who receives it.
    SetAudience { audience: Audience },
    /// Remove every part.
    Clear,
}

/// An issue tracker: a create/update pair sharing keys with different requirements.
#[derive(Contract, JsonSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "action", rename_all = "snake_case")]
enum Issues {
    /// Open an issue.
    Create {
        title: String,
        body: Option<String>,
        labels: Vec<String>,
    },
    /// Change an issue.
    Update {
        id: u32,
        title: Option<String>,
        labels: Option<Vec<String>>,
        state: Option<State>,
    },
    /// Close an issue.
    Close { id: u32, reason: Reason },
}

#[derive(Contract, JsonSchema, Deserialize, serde::Serialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum State {
    Open,
    Closed,
}

#[derive(Contract, JsonSchema, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Reason {
    Completed,
    NotPlanned,
}

/// Settings: maps, nested structs, an optional struct, a union inside a struct.
#[derive(Contract, JsonSchema, Deserialize, Debug, PartialEq)]
struct Settings {
    values: HashMap<String, i64>,
    inner: Inner,
    spare: Option<Inner>,
    action: Issues,
    flags: Vec<bool>,
    ratio: f64,
}

#[derive(Contract, JsonSchema, Deserialize, serde::Serialize, Debug, PartialEq)]
struct Inner {
    name: String,
    tags: Vec<String>,
}

/// An adjacently tagged enum: the operation's fields in one content key beside the tag.
#[derive(Contract, JsonSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "kind", content = "args", rename_all = "snake_case")]
enum Adjacent {
    /// Move a part.
    Move { from: u32, to: u32 },
    /// Rename a part.
    Rename { index: u32, name: String },
    /// Nothing.
    Noop,
}

/// A union inside an operation, a map and a tuple beside it.
#[derive(Contract, JsonSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "op")]
enum Nested {
    /// Change a setting.
    Set {
        change: Issues,
        weights: std::collections::BTreeMap<String, f64>,
    },
    /// Place a point.
    Place {
        at: (i32, i32),
        label: Option<String>,
    },
}

/// schemars' document for `T`.
fn schemars_of<T: JsonSchema>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).expect("schemars writes JSON")
}

/// The differential proof for one contract.
fn agrees<T: Contract + JsonSchema + std::fmt::Debug>() {
    let foreign = schemars_of::<T>();
    let before = foreign.clone();
    let flat = stitch::foreign::flatten_tool_schema(&foreign);
    assert_eq!(foreign, before, "the source document is not changed");
    assert_eq!(
        summary(&flat),
        summary(&json(T::input_schema())),
        "{}: schemars' document flattened, against the derive's\n{flat:#}",
        T::TOOL.name
    );
    let text = flat.to_string();
    assert!(
        !text.contains("oneOf") && !text.contains("$ref") && !text.contains("$defs"),
        "{text}"
    );
    for &dialect in Dialect::ALL {
        let shown = stitch::foreign::tool_schema_for(&foreign, dialect);
        let (mut foreign_summary, mut derived) = (
            summary(&shown),
            summary(&json(T::input_schema_for(dialect))),
        );
        if dialect == Dialect::AnthropicStrict {
            // serde reads an `Option`'s `null` as its absence, which the derive knows and a
            // document does not say: a foreign optional key that takes `null` shows it.
            for places in [&mut foreign_summary, &mut derived] {
                for (kinds, _, values) in places.values_mut() {
                    kinds.retain(|kind| kind != "\"null\"");
                    values.retain(|value| value != "null");
                }
            }
        }
        assert_eq!(
            foreign_summary,
            derived,
            "{}: schemars' document in {dialect}, against the derive's",
            T::TOOL.name
        );
    }
}

/// The oracle for one contract: every call serde accepts is accepted by schemars' document
/// flattened, in each dialect the guard reports nothing lost for.
fn accepts_every_call<T: Contract + JsonSchema>(cases: u32) {
    let foreign = schemars_of::<T>();
    for &dialect in Dialect::ALL {
        let lossless = common::inexpressible::<T>(dialect).is_empty();
        if !lossless {
            continue;
        }
        let shown = stitch::foreign::tool_schema_for(&foreign, dialect);
        let schema = validator(&shown);
        let config = ProptestConfig::with_cases(cases);
        proptest!(config, |(plain in values(T::SHAPE))| {
            if T::parse(plain.clone()).is_ok() {
                let filled = fill(T::SHAPE, &plain, dialect, &shown);
                prop_assert!(schema.is_valid(&filled), "{dialect}: {filled} is refused by {shown}");
            }
        });
    }
}

#[test]
fn schemars_documents_flatten_as_the_derive_does() {
    agrees::<Patch>();
    agrees::<PatchOp>();
    agrees::<Issues>();
    agrees::<Settings>();
    agrees::<Inner>();
    agrees::<Adjacent>();
    agrees::<Nested>();
}

#[test]
fn schemars_documents_flattened_accept_every_call() {
    accepts_every_call::<Patch>(64);
    accepts_every_call::<Issues>(64);
    accepts_every_call::<Settings>(64);
    accepts_every_call::<Adjacent>(64);
    accepts_every_call::<Nested>(64);
}

/// schemars' documents in every dialect, each checked by the oracle's compiler, for the
/// providers' converters (`tests/e2e/dialects.py`) and the schema snapshot (each text).
#[test]
fn schemars_documents_in_every_dialect_are_exported() {
    let documents = [
        ("Patch", schemars_of::<Patch>()),
        ("PatchOp", schemars_of::<PatchOp>()),
        ("Issues", schemars_of::<Issues>()),
        ("Settings", schemars_of::<Settings>()),
        ("Inner", schemars_of::<Inner>()),
        ("Adjacent", schemars_of::<Adjacent>()),
        ("Nested", schemars_of::<Nested>()),
    ];
    let mut export = serde_json::Map::new();
    for (name, document) in documents {
        let mut schemas = serde_json::Map::new();
        let mut findings = serde_json::Map::new();
        let mut texts = serde_json::Map::new();
        for &dialect in Dialect::ALL {
            let shown = stitch::foreign::tool_schema_for(&document, dialect);
            validator(&shown);
            let profile = SchemaProfile::new()
                .require_typed_properties()
                .dialect(dialect);
            let reported: Vec<Value> = stitch::guard::check(
                &[stitch::guard::Checked::Listed {
                    name,
                    description: "",
                    input: &shown,
                }],
                &profile,
            )
            .iter()
            .map(|finding| Value::from(finding.to_string()))
            .collect();
            assert!(
                reported.is_empty(),
                "{name} in {dialect}: {reported:?}\n{shown:#}"
            );
            texts.insert(dialect.to_string(), Value::from(shown.to_string()));
            schemas.insert(dialect.to_string(), shown);
            findings.insert(dialect.to_string(), Value::Array(reported));
        }
        export.insert(
            format!("schemars {name}"),
            json!({"schemas": schemas, "findings": findings, "texts": texts}),
        );
    }
    common::export_dialects(file!(), "_schemars", export);
}

#[test]
fn the_incident_key_keeps_its_type() {
    let flat = stitch::foreign::flatten_tool_schema(&schemars_of::<Patch>());
    let operation = &flat["properties"]["operations"]["items"];
    assert_eq!(operation["properties"]["partIndex"]["type"], "integer");
    let hint = operation["properties"]["partIndex"]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        hint.contains("Required if op = setText | setButton | removePart"),
        "{hint}"
    );
}

#[test]
fn a_multi_value_discriminator_names_each_value() {
    let foreign = json!({
        "oneOf": [
            {"type": "object", "properties": {"kind": {"enum": ["a", "b"]}, "x": {"type": "string"}},
             "required": ["kind", "x"]},
            {"type": "object", "properties": {"kind": {"const": "c"}}, "required": ["kind"]}
        ]
    });
    let flat = stitch::foreign::flatten_tool_schema(&foreign);
    assert_eq!(flat["properties"]["kind"]["enum"], json!(["a", "b", "c"]));
    assert_eq!(flat["required"], json!(["kind"]));
    let hint = flat["properties"]["x"]["description"]
        .as_str()
        .unwrap_or("");
    assert!(hint.contains("a | b"), "{hint}");
}

#[test]
fn recursive_refs_stay_with_their_definitions_and_others_are_inlined() {
    let foreign = json!({
        "type": "object",
        "properties": {
            "tree": {"$ref": "#/$defs/Tree"},
            "point": {"$ref": "#/$defs/Point"}
        },
        "required": ["tree"],
        "$defs": {
            "Tree": {"type": "object", "properties": {
                "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}},
            "Point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]},
            "Unused": {"type": "string"}
        }
    });
    let flat = stitch::foreign::flatten_tool_schema(&foreign);
    assert_eq!(
        flat["properties"]["point"]["properties"]["x"]["type"],
        "number"
    );
    assert_eq!(
        flat["properties"]["tree"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Tree"})
    );
    let definitions = flat["$defs"]
        .as_object()
        .expect("Tree is still referred to");
    assert_eq!(definitions.keys().collect::<Vec<_>>(), ["Tree"]);
    // The rebuilt document is a schema the oracle compiles, and means what the source meant.
    let tree = json!({"tree": {"children": [{"children": []}]}, "point": {"x": 1.5}});
    assert!(validator(&flat).is_valid(&tree));
    assert!(validator(&foreign).is_valid(&tree));
}

#[test]
fn hostile_documents_come_back_without_a_panic() {
    let documents = [
        json!(null),
        json!(true),
        json!(false),
        json!(42),
        json!("a string"),
        json!([1, 2, 3]),
        json!({"$ref": "#"}),
        json!({"$ref": "#/$defs/missing"}),
        json!({"$ref": "https://example.invalid/schema.json"}),
        json!({"$ref": 7}),
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
        json!({"type": "object", "properties": {"x": false, "y": true, "z": 3}}),
        json!({"type": "object", "required": ["missing"], "properties": {}}),
        json!({"type": ["string", 3]}),
        json!({"type": "integer", "minimum": "zero"}),
        json!({"oneOf": []}),
        json!({"oneOf": "no"}),
        json!({"anyOf": [{"type": "null"}]}),
        json!({"enum": []}),
        json!({"type": "object", "x-vendor": {"anything": [1, {"$ref": "#/nowhere"}]}}),
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false, "minItems": 1}),
    ];
    for document in &documents {
        for &dialect in Dialect::ALL {
            let shown = stitch::foreign::tool_schema_for(document, dialect);
            let _ = stitch::guard::check(
                &[stitch::guard::Checked::Listed {
                    name: "hostile",
                    description: "",
                    input: &shown,
                }],
                &SchemaProfile::new().dialect(dialect),
            );
        }
    }
    // A lone tuple position keeps what it says exactly.
    let tuple = stitch::foreign::flatten_tool_schema(&documents[20]);
    assert_eq!(tuple["prefixItems"], json!([{"type": "string"}]));
}

/// `{"items": {"items": ...}}`, `depth` levels, built and dropped on a thread with room for
/// serde_json's recursive drop; only stitch runs on the 2 MiB stack.
#[test]
fn a_document_100_000_levels_deep_returns_on_a_2_mib_stack() {
    let big_stack = std::thread::Builder::new().stack_size(512 << 20);
    big_stack
        .spawn(|| {
            let mut document = json!({"type": "string"});
            for _ in 0..100_000 {
                // Not `json!`, which copies what it interpolates.
                let mut level = serde_json::Map::new();
                level.insert("type".to_owned(), Value::from("array"));
                level.insert("items".to_owned(), document);
                document = Value::Object(level);
            }
            let document = std::sync::Arc::new(document);
            let shared = std::sync::Arc::clone(&document);
            let rebuilt = std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn(move || {
                    let flat = stitch::foreign::flatten_tool_schema(&shared);
                    let findings = stitch::guard::check(
                        &[stitch::guard::Checked::Listed {
                            name: "deep",
                            description: "",
                            input: &flat,
                        }],
                        &SchemaProfile::new().require_typed_properties(),
                    );
                    (flat, findings.len())
                })
                .expect("a thread starts")
                .join()
                .expect("no stack overflow, no panic");
            assert_eq!(rebuilt.0, *document, "returned as it was");
        })
        .expect("a thread starts")
        .join()
        .expect("the document is built and dropped");
}

#[test]
fn a_10_mb_document_is_rebuilt() {
    let mut properties = serde_json::Map::new();
    for i in 0..50_000 {
        properties.insert(
            format!("key_{i:06}"),
            json!({"type": "string", "description": "x".repeat(150), "maxLength": i}),
        );
    }
    let document = json!({"type": "object", "properties": properties});
    assert!(document.to_string().len() > 10_000_000);
    let flat = stitch::foreign::flatten_tool_schema(&document);
    assert_eq!(
        flat["properties"].as_object().map(|p| p.len()),
        Some(50_000)
    );
    assert_eq!(flat["properties"]["key_049999"]["maxLength"], 49_999);
}

/// A tool's arguments as rmcp takes them: an object, its operations flattened into it.
#[derive(JsonSchema, Deserialize)]
#[allow(dead_code)]
struct Change {
    #[serde(flatten)]
    action: Action,
}

#[derive(JsonSchema, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code)]
enum Action {
    Create {
        title: String,
        body: Option<String>,
        #[serde(default)]
        labels: Vec<String>,
    },
    Close {
        id: u32,
    },
}

#[test]
fn a_strict_call_loses_the_nulls_that_mean_absence() {
    let schema = schemars_of::<Change>();
    let mut call =
        json!({"action": "create", "title": "t", "body": null, "labels": null, "id": null});
    stitch::foreign::strict_arguments_for(&schema, &mut call);
    // `id` is another operation's, `labels` takes no `null` (its default stands for it);
    // `body` takes `null` with no default: the source tells it apart from absence, so it stays.
    assert_eq!(
        call,
        json!({"action": "create", "title": "t", "body": null}),
        "{schema:#}"
    );
    assert!(serde_json::from_value::<Change>(call).is_ok());
}

/// A struct with its own fields beside a flattened enum, which schemars writes side by side.
#[derive(JsonSchema, Deserialize)]
#[allow(dead_code)]
struct Job {
    /// Which queue.
    queue: String,
    #[serde(flatten)]
    action: Action,
}

#[test]
fn keys_beside_a_union_are_every_operations_keys() {
    let schema = schemars_of::<Job>();
    let flat = stitch::foreign::flatten_tool_schema(&schema);
    assert!(flat.get("oneOf").is_none(), "{flat:#}");
    assert_eq!(flat["required"], json!(["action", "queue"]), "{flat:#}");
    assert_eq!(flat["properties"]["queue"]["type"], "string");
    assert_eq!(
        flat["properties"]["action"]["enum"],
        json!(["create", "close"])
    );
    let calls = [
        json!({"queue": "q", "action": "create", "title": "t"}),
        json!({"queue": "q", "action": "close", "id": 3}),
    ];
    let (source, rebuilt) = (validator(&schema), validator(&flat));
    for call in calls {
        assert!(
            serde_json::from_value::<Job>(call.clone()).is_ok(),
            "{call}"
        );
        assert!(source.is_valid(&call) && rebuilt.is_valid(&call), "{call}");
    }
}

/// A result type with every kind of `null`: a field's, an array item's, a free value's.
#[derive(stitch::Shape, serde::Serialize)]
struct Outcome {
    note: Option<String>,
    scores: Vec<Option<i64>>,
    extra: Value,
    nested: Option<Inner>,
}

#[derive(stitch::Shape, serde::Serialize)]
struct InnerOutcome {
    tag: Option<State>,
}

/// Output schemas for clients other than `mcp`: no `type` array anywhere, and every value the
/// result type writes, `null`s included, still accepted (a client checks structured content
/// against it).
#[test]
fn output_schemas_say_null_without_type_arrays_and_accept_every_result() {
    let results = [
        json!(Outcome {
            note: None,
            scores: vec![Some(1), None],
            extra: Value::Null,
            nested: None
        }),
        json!(Outcome {
            note: Some("n".into()),
            scores: vec![],
            extra: json!({"any": [1, "x", null]}),
            nested: Some(Inner {
                name: "i".into(),
                tags: vec!["t".into()]
            }),
        }),
        json!(InnerOutcome { tag: None }),
        json!(InnerOutcome {
            tag: Some(State::Closed)
        }),
    ];
    for &dialect in Dialect::ALL {
        let outcome = json(stitch::schema_of::<Outcome>(Rendering::output(dialect)));
        let inner = json(stitch::schema_of::<InnerOutcome>(Rendering::output(
            dialect,
        )));
        if dialect != Dialect::Mcp {
            for schema in [&outcome, &inner] {
                let mut arrays = Vec::new();
                common::walk(schema, "", &mut |path, node| {
                    if node.get("type").is_some_and(Value::is_array) {
                        arrays.push(path.to_owned());
                    }
                });
                assert!(
                    arrays.is_empty(),
                    "{dialect}: type arrays at {arrays:?} in {schema:#}"
                );
            }
        }
        for (schema, result) in [
            (&outcome, &results[0]),
            (&outcome, &results[1]),
            (&inner, &results[2]),
            (&inner, &results[3]),
        ] {
            assert!(
                validator(schema).is_valid(result),
                "{dialect}: {result} refused by {schema:#}"
            );
        }
    }
}

every_contract_here!(
    Audience, Patch, PatchOp, Issues, State, Reason, Settings, Inner, Adjacent, Nested
);
