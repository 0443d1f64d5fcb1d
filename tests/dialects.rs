//! Dialects: one contract shown to each kind of client in the schema that client takes.
//!
//! The invariant, proven with the `jsonschema` crate as the oracle over generated calls: a
//! call valid for an operation, filled the way a client of the dialect fills it (a strict
//! OpenAI client sends every key, `null` for those it leaves out; a portable or Anthropic
//! client leaves out an optional key rather than sending `null`), parses under that dialect to
//! the same value as the plain call, and the dialect's schema accepts it wherever the guard
//! reports nothing the dialect cannot say. The providers' own converters judge the schemas in
//! `tests/e2e/dialects.py`.

#[path = "../examples/contracts/broadcast_patch.rs"]
mod broadcast_patch;
mod common;

use std::collections::BTreeMap;

use broadcast_patch::BroadcastPatch;
use common::{holds_in_every_dialect, inexpressible, json};

use serde::Deserialize;
use serde_json::{Value, json};
use stitch::{Contract, Dialect, SchemaProfile};

/// One step of a plan: a nested object with optional keys.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Step {
    #[contract(min = 0, max = 9)]
    index: u8,
    note: Option<String>,
    #[serde(default)]
    #[contract(max_length = 8)]
    label: String,
}

/// An id that must be sent, possibly as `null` (a newtype over an `Option`).
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct MaybeId(Option<String>);

#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Shade {
    Light,
    Dark,
}

/// Replace the steps (no other key).
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct SetSteps {
    #[contract(min_items = 1, max_items = 3)]
    steps: Vec<Step>,
    shade: Option<Shade>,
}

/// Weigh the plan (no other key).
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Weigh {
    #[contract(exclusive_min = 0, multiple_of = 0.5)]
    weight: f64,
    #[contract(unique_items)]
    tags: Option<Vec<String>>,
}

/// Edit a plan.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", rename_all = "camelCase")]
enum PlanOp {
    /// Replace the steps.
    SetSteps(SetSteps),
    /// Rename the plan.
    Rename {
        #[contract(min_length = 1, max_length = 40)]
        name: String,
        shade: Option<Shade>,
        owner: MaybeId,
    },
    /// Weigh the plan.
    Weigh(Weigh),
    /// Clear it.
    Clear,
}

/// Edit plans: operations applied in order.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct EditPlans {
    #[contract(pattern = "^p_[a-z]+$")]
    plan_id: String,
    operations: Vec<PlanOp>,
    dry_run: Option<bool>,
}

/// Keys whose operations disagree on the kind, a free value and a map: what the strict and
/// portable dialects cannot say.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(tag = "op")]
enum Loose {
    Text {
        value: String,
    },
    Count {
        value: u32,
    },
    Blob {
        data: serde_json::Value,
        labels: BTreeMap<String, u8>,
    },
}

#[test]
fn the_incident_holds_in_every_dialect() {
    assert_eq!(holds_in_every_dialect::<BroadcastPatch>(64), Dialect::ALL);
}

#[test]
fn a_contract_with_every_dialect_rule_holds_in_every_dialect() {
    let judged = holds_in_every_dialect::<EditPlans>(128);
    let all_but_portable = [
        Dialect::Mcp,
        Dialect::OpenAiStrict,
        Dialect::AnthropicStrict,
    ];
    assert_eq!(judged, all_but_portable);
}

#[test]
fn what_no_dialect_but_mcp_can_say_still_parses_the_same() {
    assert_eq!(holds_in_every_dialect::<Loose>(64), [Dialect::Mcp]);
}

#[test]
fn the_dialects_are_named_as_clients_name_them() {
    let names: Vec<String> = Dialect::ALL.iter().map(ToString::to_string).collect();
    assert_eq!(
        names,
        [
            "mcp",
            "portable",
            "openai-strict",
            "anthropic-strict",
            "gemini"
        ]
    );
    for &dialect in Dialect::ALL {
        assert_eq!(dialect.to_string().parse::<Dialect>(), Ok(dialect));
    }
    assert_eq!(Dialect::default(), Dialect::Mcp);
    let unknown = "strict".parse::<Dialect>().unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "unknown dialect \"strict\"; known: mcp, portable, openai-strict, anthropic-strict, gemini"
    );
}

#[test]
fn mcp_is_the_compile_time_schema() {
    assert_eq!(
        BroadcastPatch::input_schema_for(Dialect::Mcp),
        BroadcastPatch::INPUT_SCHEMA
    );
    assert!(std::ptr::eq(
        BroadcastPatch::input_schema_for(Dialect::Portable),
        BroadcastPatch::input_schema_for(Dialect::Portable)
    ));
}

fn item_property(dialect: Dialect, key: &str) -> Value {
    json(EditPlans::input_schema_for(dialect))["properties"]["operations"]["items"]["properties"]
        [key]
        .clone()
}

#[test]
fn the_incident_keys_in_each_dialect() {
    let property = |dialect: Dialect, key: &str| {
        let schema = json(BroadcastPatch::input_schema_for(dialect));
        let mut property = schema["properties"]["operations"]["items"]["properties"][key].clone();
        let description = property["description"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        property.as_object_mut().unwrap().remove("description");
        (property, description)
    };
    let expected = [
        (
            Dialect::Mcp,
            json!({"type": "integer", "minimum": 0}),
            json!({"type": ["string", "null"], "maxLength": 200}),
        ),
        (
            Dialect::Portable,
            json!({"type": "integer", "minimum": 0}),
            json!({"type": "string", "maxLength": 200}),
        ),
        (
            Dialect::OpenAiStrict,
            json!({"type": ["integer", "null"], "minimum": 0}),
            json!({"type": ["string", "null"]}),
        ),
        (
            Dialect::AnthropicStrict,
            json!({"type": "integer"}),
            json!({"type": "string"}),
        ),
    ];
    for (dialect, part_index, caption) in expected {
        assert_eq!(property(dialect, "partIndex").0, part_index, "{dialect}");
        assert_eq!(property(dialect, "caption").0, caption, "{dialect}");
    }
    // What a dialect does not take moves into the description, as Anthropic's SDK writes it.
    assert!(
        property(Dialect::AnthropicStrict, "partIndex")
            .1
            .ends_with("\n\n{minimum: 0}")
    );
    assert!(
        property(Dialect::OpenAiStrict, "caption")
            .1
            .ends_with("\n\n{maxLength: 200}")
    );
    assert!(!property(Dialect::Mcp, "caption").1.contains('{'));
}

#[test]
fn openai_strict_requires_every_key_and_closes_every_object() {
    let schema = json(EditPlans::input_schema_for(Dialect::OpenAiStrict));
    let items = &schema["properties"]["operations"]["items"];
    let keys: Vec<&String> = items["properties"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["op", "steps", "shade", "name", "owner", "weight", "tags"]
    );
    assert_eq!(items["required"], json!(keys));
    assert_eq!(items["additionalProperties"], false);
    // A key only some operations declare may be sent as null; the shade enum says so too.
    assert_eq!(
        item_property(Dialect::OpenAiStrict, "name")["type"],
        json!(["string", "null"])
    );
    assert_eq!(
        item_property(Dialect::OpenAiStrict, "shade")["enum"],
        json!(["light", "dark", null])
    );
    // A nested object's optional keys too.
    let step = &item_property(Dialect::OpenAiStrict, "steps")["items"];
    assert_eq!(step["required"], json!(["index", "note", "label"]));
    assert_eq!(
        step["properties"]["label"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(step["additionalProperties"], false);
    // uniqueItems is not OpenAI's: it is in the description, and parse still enforces it.
    let tags = item_property(Dialect::OpenAiStrict, "tags");
    assert!(tags.get("uniqueItems").is_none());
    assert!(
        tags["description"]
            .as_str()
            .unwrap()
            .ends_with("{uniqueItems: true}")
    );
}

#[test]
fn openai_strict_reads_null_as_absence_but_refuses_a_foreign_value() {
    let call =
        |operation: Value| json!({"planId": "p_a", "operations": [operation], "dryRun": null});
    let weigh = json!({
        "op": "weigh", "weight": 1.5, "tags": null,
        "steps": null, "shade": null, "name": null, "owner": null,
    });
    let parsed = EditPlans::parse_for(call(weigh.clone()), Dialect::OpenAiStrict).unwrap();
    assert_eq!(
        parsed.operations,
        [PlanOp::Weigh(Weigh {
            weight: 1.5,
            tags: None
        })]
    );
    assert_eq!(parsed.dry_run, None);
    // The plain dialect reads the same call as serde does: `weigh` denies the other keys.
    let plain = EditPlans::parse(call(weigh.clone())).unwrap_err();
    assert!(
        plain.issues.iter().any(|i| i.code == "unknown_key"),
        "{plain:?}"
    );
    // A value for a key `weigh` does not declare is still refused under the strict dialect.
    let mut foreign = weigh.clone();
    foreign["name"] = json!("x");
    let refused = EditPlans::parse_for(call(foreign), Dialect::OpenAiStrict).unwrap_err();
    assert_eq!(refused.issues[0].pointer, "/operations/0/name");
    assert_eq!(refused.issues[0].code, "unknown_key");
    // A key the operation requires keeps its null: `owner` is sent, as null.
    let rename = json!({
        "op": "rename", "name": "n", "shade": null, "owner": null,
        "steps": null, "weight": null, "tags": null,
    });
    let parsed = EditPlans::parse_for(call(rename), Dialect::OpenAiStrict).unwrap();
    assert_eq!(
        parsed.operations,
        [PlanOp::Rename {
            name: "n".into(),
            shade: None,
            owner: MaybeId(None)
        }]
    );
    // And a required key sent as null is refused, not read as absent.
    let missing = json!({"op": "weigh", "weight": null, "tags": null});
    let refused = EditPlans::parse_for(call(missing), Dialect::OpenAiStrict).unwrap_err();
    assert_eq!(refused.issues[0].pointer, "/operations/0/weight");
}

#[test]
fn portable_and_anthropic_say_null_only_where_an_operation_requires_it() {
    // `owner` is required by `rename` and may be null: Anthropic says so with anyOf; Portable
    // cannot, and its guard says so.
    let owner = item_property(Dialect::AnthropicStrict, "owner");
    assert_eq!(
        owner["anyOf"],
        json!([{"type": "string"}, {"type": "null"}])
    );
    assert_eq!(item_property(Dialect::Portable, "owner")["type"], "string");
    assert_eq!(
        inexpressible::<EditPlans>(Dialect::Portable),
        ["operations.owner"]
    );
    // `shade` is optional wherever it appears: shown without null, omitted to mean null.
    assert_eq!(item_property(Dialect::Portable, "shade")["type"], "string");
    assert_eq!(
        item_property(Dialect::AnthropicStrict, "shade")["enum"],
        json!(["light", "dark"])
    );
    // Gemini's subset lacks these: Portable moves them into the description.
    let weight = item_property(Dialect::Portable, "weight");
    assert!(weight.get("multipleOf").is_none());
    assert!(
        weight["description"]
            .as_str()
            .unwrap()
            .ends_with("{exclusiveMinimum: 0, multipleOf: 0.5}")
    );
}

#[test]
fn the_guard_names_what_each_dialect_cannot_say() {
    assert!(inexpressible::<Loose>(Dialect::Mcp).is_empty());
    assert_eq!(inexpressible::<Loose>(Dialect::Portable), ["value", "data"]);
    // A map is shown as its entries there (`tests/strict_maps.rs`): nothing lost.
    assert_eq!(inexpressible::<Loose>(Dialect::OpenAiStrict), ["data"]);
    assert_eq!(inexpressible::<Loose>(Dialect::AnthropicStrict), ["data"]);
    let profile = SchemaProfile::new().dialect(Dialect::Portable);
    let findings = stitch::guard::check(&[Loose::TOOL.into()], &profile);
    assert_eq!(
        findings[0].to_string(),
        "stitch guard: property \"loose.value\" cannot be advertised as it is: in the portable \
         dialect, its operations declare it with different kinds, which one type cannot name \
         without a `type` array: it is advertised as `{}`, its kinds in its description. Parse \
         still holds calls to the contract; to show it whole, serve this client another \
         dialect, or give the property a type the dialect can say."
    );
    let portable = json(Loose::input_schema_for(Dialect::Portable));
    assert_eq!(
        portable["properties"]["value"]["description"],
        "Required if op = Text | Count. One of: string, integer."
    );
    assert!(portable["properties"]["value"].get("type").is_none());
    let strict = json(Loose::input_schema_for(Dialect::OpenAiStrict));
    assert_eq!(
        strict["properties"]["value"]["type"],
        json!(["string", "integer", "null"])
    );
    assert_eq!(
        strict["properties"]["labels"],
        json!({
            "description": "Required if op = Blob",
            "type": ["array", "null"],
            "items": {
                "type": "object",
                "properties": {
                    "key": {"type": "string"},
                    "value": {"type": "integer", "minimum": 0, "maximum": 255}
                },
                "required": ["key", "value"], "additionalProperties": false
            }
        })
    );
}

/// The create/update pattern: a key required and never `null` for one operation, optional
/// and `null` for another (its `null` is its omission).
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", rename_all = "camelCase")]
enum Crud {
    Create { title: String },
    Update { id: u32, title: Option<String> },
}

#[test]
fn the_crud_pattern_loses_nothing_in_portable() {
    for &dialect in Dialect::ALL {
        assert!(inexpressible::<Crud>(dialect).is_empty(), "{dialect}");
    }
    let portable = json(Crud::input_schema_for(Dialect::Portable));
    assert_eq!(portable["properties"]["title"]["type"], "string");
    // Update leaves it out for `None`, as serde reads it.
    let update = Crud::parse_for(json!({"op": "update", "id": 1}), Dialect::Portable);
    assert_eq!(update.unwrap(), Crud::Update { id: 1, title: None });
    assert_eq!(holds_in_every_dialect::<Crud>(64), Dialect::ALL);
}

/// An issue tracker's filter when listing.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct ListFilter {
    author: Option<String>,
    #[contract(max = 10)]
    limit: u8,
}

/// Its filter when searching.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct SearchFilter {
    author: String,
    #[contract(min_length = 1)]
    query: String,
}

/// Keys whose operations declare one kind differently: each advertised as the hull of its
/// operations, merged recursively.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Tracker {
    List {
        #[contract(min = 1, max = 100)]
        per_page: Option<u32>,
        labels: Option<Vec<String>>,
        filter: Option<ListFilter>,
    },
    Search {
        #[contract(min = 1, max = 50)]
        per_page: u32,
        filter: SearchFilter,
    },
    AddLabels {
        #[contract(min_items = 1, max_items = 10, unique_items)]
        labels: Vec<String>,
    },
}

#[test]
fn hulls_hold_in_every_dialect() {
    for &dialect in Dialect::ALL {
        assert!(inexpressible::<Tracker>(dialect).is_empty(), "{dialect}");
    }
    let strict = json(Tracker::input_schema_for(Dialect::OpenAiStrict));
    let filter = &strict["properties"]["filter"];
    assert_eq!(filter["required"], json!(["author", "limit", "query"]));
    assert_eq!(filter["additionalProperties"], false);
    assert_eq!(holds_in_every_dialect::<Tracker>(128), Dialect::ALL);
}

fn five() -> Option<u8> {
    Some(5)
}

/// `null` that cannot be left out: items and map values, and an `Option` whose default is
/// not `None`.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Sparse {
    readings: Vec<Option<i64>>,
    levels: std::collections::HashMap<String, Option<u8>>,
    #[serde(default = "five")]
    limit: Option<u8>,
}

#[test]
fn a_null_that_cannot_be_left_out_is_said_or_reported() {
    // Portable shows no `null`: each place where a client could not mean it by omission is
    // reported.
    assert_eq!(
        inexpressible::<Sparse>(Dialect::Portable),
        ["readings", "levels", "limit"]
    );
    // Anthropic says it with anyOf, OpenAI in the type; neither loses it.
    let anthropic = json(Sparse::input_schema_for(Dialect::AnthropicStrict));
    assert_eq!(
        anthropic["properties"]["limit"]["anyOf"],
        json!([{"type": "integer"}, {"type": "null"}])
    );
    assert_eq!(
        anthropic["properties"]["readings"]["items"]["anyOf"],
        json!([{"type": "integer"}, {"type": "null"}])
    );
    assert!(!inexpressible::<Sparse>(Dialect::AnthropicStrict).contains(&"limit".to_owned()));
    // Strict OpenAI sends every key: `null` is `None`, not the default, and the default it
    // cannot ask for is reported.
    let call = json!({"readings": [1, null], "levels": {}, "limit": null});
    let parsed = Sparse::parse_for(call, Dialect::OpenAiStrict).unwrap();
    assert_eq!(parsed.limit, None);
    assert_eq!(parsed.readings, [Some(1), None]);
    assert!(inexpressible::<Sparse>(Dialect::OpenAiStrict).contains(&"limit".to_owned()));
    // Leaving it out, where a dialect can, gives the default.
    let omitted = Sparse::parse(json!({"readings": [], "levels": {}})).unwrap();
    assert_eq!(omitted.limit, Some(5));
}

every_contract_here!(
    Step,
    MaybeId,
    Shade,
    SetSteps,
    Weigh,
    PlanOp,
    EditPlans,
    Loose,
    BroadcastPatch,
    Crud,
    Sparse,
    ListFilter,
    SearchFilter,
    Tracker
);
