//! The type mapping and the serde attributes stitch follows, one assertion per rule,
//! on the exact JSON stitch renders.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use common::{json, property_names};
use serde::Deserialize;
use serde_json::{Value, json};
use stitch::{Contract, Shape};

fn schema_of<T: Shape>() -> Value {
    json(stitch::schema_of::<T>(stitch::Rendering::ADVERTISED))
}

#[test]
fn scalars() {
    assert_eq!(schema_of::<bool>(), json!({"type": "boolean"}));
    assert_eq!(schema_of::<i64>(), json!({"type": "integer"}));
    assert_eq!(schema_of::<u64>(), json!({"type": "integer", "minimum": 0}));
    assert_eq!(
        schema_of::<usize>(),
        json!({"type": "integer", "minimum": 0})
    );
    assert_eq!(
        schema_of::<u8>(),
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        schema_of::<i32>(),
        json!({"type": "integer", "minimum": -2147483648i64, "maximum": 2147483647})
    );
    assert_eq!(
        schema_of::<std::num::NonZeroU64>(),
        json!({"type": "integer", "minimum": 1})
    );
    assert_eq!(
        schema_of::<f32>(),
        json!({"type": "number", "minimum": -3.4028235e38, "maximum": 3.4028235e38}),
        "an f32 advertises its finite range"
    );
    assert_eq!(schema_of::<f64>(), json!({"type": "number"}));
    assert_eq!(schema_of::<String>(), json!({"type": "string"}));
    assert_eq!(
        schema_of::<std::borrow::Cow<'static, str>>(),
        json!({"type": "string"})
    );
    assert_eq!(
        schema_of::<char>(),
        json!({"type": "string", "minLength": 1, "maxLength": 1})
    );
}

#[test]
fn containers() {
    assert_eq!(
        schema_of::<Option<u64>>(),
        json!({"type": ["integer", "null"], "minimum": 0})
    );
    assert_eq!(
        schema_of::<Vec<bool>>(),
        json!({"type": "array", "items": {"type": "boolean"}})
    );
    assert_eq!(schema_of::<VecDeque<bool>>(), schema_of::<Vec<bool>>());
    assert_eq!(
        schema_of::<[bool; 3]>(),
        json!({"type": "array", "items": {"type": "boolean"}, "minItems": 3, "maxItems": 3})
    );
    let unique = json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true});
    assert_eq!(schema_of::<HashSet<String>>(), unique);
    assert_eq!(schema_of::<BTreeSet<String>>(), unique);
    let map = json!({"type": "object", "additionalProperties": {"type": "number"}});
    assert_eq!(schema_of::<HashMap<String, f64>>(), map);
    assert_eq!(schema_of::<BTreeMap<String, f64>>(), map);
    assert_eq!(schema_of::<Box<f64>>(), json!({"type": "number"}));
    assert_eq!(
        schema_of::<std::sync::Arc<f64>>(),
        json!({"type": "number"})
    );
    assert_eq!(schema_of::<std::rc::Rc<f64>>(), json!({"type": "number"}));
    assert_eq!(
        schema_of::<serde_json::Value>(),
        json!({"type": ["string", "number", "boolean", "object", "array", "null"]})
    );
}

/// A struct with every field attribute that JSON Schema can show.
#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Visible {
    #[contract(min = -3, max = 7.5, multiple_of = 0.5)]
    number: f64,
    #[contract(exclusive_min = 0, exclusive_max = 10)]
    between: i32,
    #[contract(min_length = 2, max_length = 5, pattern = "^[a-z]+$")]
    word: String,
    #[contract(format = "email")]
    email: Option<String>,
    #[contract(min_items = 1, max_items = 3, unique_items)]
    tags: Vec<String>,
    #[contract(values("s", "m", "l"))]
    size: String,
    /// From the doc comment.
    #[contract(description = "Given explicitly.")]
    described: bool,
}

#[test]
fn visible_constraints_are_rendered() {
    let schema = json(Visible::INPUT_SCHEMA);
    let p = &schema["properties"];
    assert_eq!(
        p["number"],
        json!({"type": "number", "minimum": -3, "maximum": 7.5, "multipleOf": 0.5})
    );
    assert_eq!(
        p["between"],
        json!({"type": "integer", "minimum": -2147483648i64, "maximum": 2147483647,
               "exclusiveMinimum": 0, "exclusiveMaximum": 10})
    );
    assert_eq!(
        p["word"],
        json!({"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-z]+$"})
    );
    assert_eq!(
        p["email"],
        json!({"type": ["string", "null"], "format": "email"})
    );
    assert_eq!(
        p["tags"],
        json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3,
               "uniqueItems": true})
    );
    assert_eq!(
        p["size"],
        json!({"type": "string", "enum": ["s", "m", "l"]})
    );
    assert_eq!(
        p["described"],
        json!({"type": "boolean", "description": "Given explicitly."})
    );
    assert_eq!(
        schema["required"],
        json!(["number", "between", "word", "tags", "size", "described"])
    );
}

/// Serde attributes that change names, presence and strictness.
#[derive(Contract, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[allow(dead_code)]
struct Renamed {
    first_name: String,
    #[serde(rename = "LAST")]
    last_name: String,
    #[serde(alias = "years")]
    age: u8,
    #[serde(default)]
    nickname: String,
    #[serde(skip)]
    cache: Vec<u8>,
    #[serde(skip_deserializing)]
    computed: u32,
    r#type: String,
}

#[test]
fn serde_names_defaults_and_skips_are_followed() {
    let schema = json(Renamed::INPUT_SCHEMA);
    let keys: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["first-name", "LAST", "age", "nickname", "type"]);
    assert_eq!(
        schema["required"],
        json!(["first-name", "LAST", "age", "type"])
    );
    assert_eq!(schema["additionalProperties"], json!(false));
    let parsed: Renamed =
        serde_json::from_value(json!({"first-name": "a", "LAST": "b", "years": 3, "type": "t"}))
            .unwrap();
    assert_eq!(parsed.age, 3, "aliases are accepted though not advertised");
}

#[derive(Contract, Deserialize)]
#[serde(default)]
#[allow(dead_code)]
struct AllDefault {
    a: u8,
    b: String,
}

impl Default for AllDefault {
    fn default() -> Self {
        AllDefault {
            a: 1,
            b: String::new(),
        }
    }
}

#[derive(Contract, Deserialize)]
#[serde(transparent)]
#[allow(dead_code)]
struct Wrapper {
    #[contract(min = 1)]
    inner: u32,
}

#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Newtype(#[contract(max_length = 4)] String);

#[test]
fn container_default_transparent_and_newtype_structs() {
    assert_eq!(json(AllDefault::INPUT_SCHEMA)["required"], json!([]));
    assert_eq!(
        json(Wrapper::INPUT_SCHEMA),
        json!({"type": "integer", "minimum": 1, "maximum": 4294967295u32})
    );
    assert_eq!(
        json(Newtype::INPUT_SCHEMA),
        json!({"type": "string", "maxLength": 4})
    );
}

#[derive(Contract, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[allow(dead_code)]
enum Level {
    /// Low.
    LowPriority,
    #[serde(rename = "hi")]
    High,
    #[serde(skip)]
    Hidden,
}

#[test]
fn unit_only_enums_are_string_enums() {
    assert_eq!(
        json(Level::INPUT_SCHEMA),
        json!({
            "description": "LOW_PRIORITY: Low.",
            "type": "string",
            "enum": ["LOW_PRIORITY", "hi"]
        })
    );
}

#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct MoveArgs {
    /// How far.
    steps: u16,
}

/// Nested operations.
#[derive(Contract, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code)]
enum Inner {
    /// Move by some steps.
    MoveBy(MoveArgs),
    /// Stop.
    Stop,
    #[serde(rename_all = "camelCase")]
    Turn { left_degrees: u16 },
}

#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Outer {
    first: Inner,
    maybe: Option<Inner>,
    many: Vec<Inner>,
    keyed: BTreeMap<String, Inner>,
}

#[test]
fn nested_unions_are_flattened_everywhere_they_occur() {
    let schema = json(Outer::INPUT_SCHEMA);
    common::assert_portable(&schema);
    let flat = json!({
        "description": "Nested operations.",
        "type": "object",
        "properties": {
            "action": {
                "description": "The operation: move_by \u{2014} Move by some steps; stop \u{2014} Stop; turn.",
                "type": "string",
                "enum": ["move_by", "stop", "turn"]
            },
            "steps": {"description": "How far. Required if action = move_by", "type": "integer", "minimum": 0, "maximum": 65535},
            "leftDegrees": {"description": "Required if action = turn", "type": "integer", "minimum": 0, "maximum": 65535}
        },
        "required": ["action"]
    });
    let p = &schema["properties"];
    assert_eq!(p["first"], flat);
    let mut nullable = flat.clone();
    nullable["type"] = json!(["object", "null"]);
    assert_eq!(p["maybe"], nullable);
    assert_eq!(p["many"]["items"], flat);
    assert_eq!(p["keyed"]["additionalProperties"], flat);
}

#[test]
fn nested_unions_are_one_of_in_the_exact_schema() {
    let schema = json(Outer::EXACT_SCHEMA);
    let branches = schema["properties"]["maybe"]["oneOf"].as_array().unwrap();
    assert_eq!(branches.len(), 4, "three operations and null");
    assert_eq!(branches[3], json!({"type": "null"}));
    assert_eq!(
        branches[0]["properties"]["action"],
        json!({"type": "string", "enum": ["move_by"]})
    );
    assert_eq!(branches[0]["required"], json!(["action", "steps"]));
}

#[derive(Contract, Deserialize)]
#[contract(flatten = false, name = "exact-only")]
#[allow(dead_code)]
struct ExactOnly {
    op: Inner,
}

#[derive(Contract, Deserialize)]
#[contract(flatten = false)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum ExactRoot {
    Start { at: u32 },
    Stop,
}

#[test]
fn flatten_false_advertises_the_exact_schema() {
    assert_eq!(ExactOnly::INPUT_SCHEMA, ExactOnly::EXACT_SCHEMA);
    assert_eq!(ExactOnly::TOOL.name, "exact-only");
    assert!(json(ExactOnly::INPUT_SCHEMA)["properties"]["op"]["oneOf"].is_array());
    // An exact root is an object still, as MCP asks of a tool's input.
    let root = json(ExactRoot::INPUT_SCHEMA);
    assert_eq!(root["type"], "object", "{root}");
    assert_eq!(root["oneOf"].as_array().map(Vec::len), Some(2), "{root}");
    let op = &json(ExactOnly::INPUT_SCHEMA)["properties"]["op"];
    assert_eq!(op["type"], "object", "{op}");
}

/// A generic page of items.
#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Page<T> {
    items: Vec<T>,
    #[contract(min = 1)]
    size: u32,
}

#[derive(Contract, Deserialize)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum GenericOp<T> {
    Put {
        value: T,
    },
    Drop {
        #[contract(min = 0)]
        value: i64,
    },
}

#[test]
fn generic_contracts_render_at_run_time_once_per_instantiation() {
    let bools = json(Page::<bool>::input_schema());
    let strings = json(Page::<String>::input_schema());
    assert_eq!(
        bools["properties"]["items"]["items"],
        json!({"type": "boolean"})
    );
    assert_eq!(
        strings["properties"]["items"]["items"],
        json!({"type": "string"})
    );
    assert!(std::ptr::eq(
        Page::<bool>::input_schema(),
        Page::<bool>::input_schema()
    ));
    let ints = json(GenericOp::<i64>::input_schema());
    assert_eq!(ints["properties"]["value"]["type"], "integer");
    let texts = json(GenericOp::<String>::input_schema());
    assert_eq!(
        texts["properties"]["value"]["type"],
        json!(["string", "integer"])
    );
}

#[test]
fn the_default_tool_name_is_the_type_name_in_snake_case() {
    assert_eq!(Outer::TOOL.name, "outer");
    assert_eq!(AllDefault::TOOL.name, "all_default");
}

#[test]
fn renderings_are_valid_json_schema() {
    for text in [
        Visible::INPUT_SCHEMA,
        Renamed::INPUT_SCHEMA,
        Outer::INPUT_SCHEMA,
        Outer::EXACT_SCHEMA,
    ] {
        common::validator(&json(text));
    }
}

fn parse_csv<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    let text = String::deserialize(deserializer)?;
    Ok(text.split(',').map(str::to_owned).collect())
}

#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Piped {
    /// Comma-separated names.
    #[serde(deserialize_with = "parse_csv")]
    #[contract(via = String)]
    names: Vec<String>,
    #[contract(opaque)]
    elapsed: std::time::Duration,
}

#[test]
fn via_advertises_the_json_type_and_opaque_is_free() {
    let schema = json(Piped::INPUT_SCHEMA);
    assert_eq!(
        schema["properties"]["names"],
        json!({"type": "string", "description": "Comma-separated names."})
    );
    assert_eq!(schema["properties"]["elapsed"], json!({}));
    let parsed: Piped =
        serde_json::from_value(json!({"names": "a,b", "elapsed": {"secs": 1, "nanos": 0}}))
            .unwrap();
    assert_eq!(parsed.names, ["a", "b"]);
}

mod renamed {
    pub use stitch as engine;
}

#[derive(Contract, Deserialize)]
#[contract(crate = "renamed::engine")]
#[allow(dead_code)]
struct ThroughAnotherPath {
    flag: bool,
}

#[test]
fn the_crate_path_can_be_overridden() {
    assert_eq!(
        json(ThroughAnotherPath::INPUT_SCHEMA),
        json!({"type": "object", "properties": {"flag": {"type": "boolean"}}, "required": ["flag"]})
    );
}

every_contract_here!(
    Visible,
    Renamed,
    AllDefault,
    Wrapper,
    Newtype,
    Level,
    MoveArgs,
    Inner,
    Outer,
    ExactOnly,
    ExactRoot,
    Page<u32>,
    GenericOp<String>,
    Piped,
    ThroughAnotherPath,
    Page::<bool>,
    Page::<Inner>,
    GenericOp::<String>
);

/// An output type describes what `Serialize` writes: serialize names, fields it skips, and
/// fields it may leave out (`skip_serializing_if`).
#[derive(serde::Serialize, stitch::Shape)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct Receipt {
    order_id: String,
    #[serde(rename(serialize = "total", deserialize = "amount"))]
    amount_due: u32,
    #[serde(skip_serializing)]
    internal_note: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    coupon: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    lines: Vec<String>,
}

#[test]
fn an_output_type_is_described_as_serde_writes_it() {
    let schema = schema_of::<Receipt>();
    let keys = property_names(&schema);
    assert_eq!(keys, ["orderId", "total", "coupon", "lines"]);
    assert_eq!(schema["required"], json!(["orderId", "total"]));
    let written = serde_json::to_value(Receipt {
        order_id: "o1".into(),
        amount_due: 3,
        internal_note: "never shown".into(),
        coupon: None,
        lines: Vec::new(),
    })
    .unwrap();
    let validator = common::validator(&schema);
    assert!(validator.is_valid(&written), "{written}");
}
