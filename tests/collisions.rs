//! One test per collision rule (the README's table), each asserting the merged property's exact JSON
//! for the operations written in both orders (the result must not depend on the order).

mod common;

use common::json;
use serde::Deserialize;
use serde_json::{Value, json};
use stitch::Contract;

/// Defines the same tagged enum twice: operations in the given order, and reversed.
macro_rules! both_orders {
    ($forward:ident, $reversed:ident, $([$($variant:tt)*]),+ $(,)?) => {
        operations!($forward, $([$($variant)*])+);
        reverse!($reversed, [$([$($variant)*])+]);
    };
}

macro_rules! operations {
    ($name:ident, $([$($variant:tt)*])+) => {
        #[derive(Contract, Deserialize)]
        #[serde(tag = "op")]
        #[allow(dead_code)]
        enum $name { $($($variant)*,)+ }
    };
}

macro_rules! reverse {
    ($name:ident, [] $($done:tt)*) => { operations!($name, $($done)*); };
    ($name:ident, [$head:tt $($tail:tt)*] $($done:tt)*) => {
        reverse!($name, [$($tail)*] $head $($done)*);
    };
}

/// The flat property `key` of both orders, without its description and with enum values
/// sorted; asserts both orders agree and returns the property.
fn merged<A: Contract, B: Contract>(key: &str) -> Value {
    let forward = normalized(&json(A::input_schema())["properties"][key]);
    let reversed = normalized(&json(B::input_schema())["properties"][key]);
    assert_eq!(
        forward, reversed,
        "the merge of `{key}` depends on the order"
    );
    forward
}

fn normalized(property: &Value) -> Value {
    let mut property = property.clone();
    let object = property.as_object_mut().expect("a property schema");
    object.remove("description");
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.sort_by_key(|v| v.to_string());
    }
    property
}

fn description<T: Contract>(key: &str) -> String {
    json(T::input_schema())["properties"][key]["description"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

both_orders!(
    SameA,
    SameB,
    [A {
        #[contract(min = 0)]
        x: i64
    }],
    [B {
        #[contract(min = 0)]
        x: i64
    }],
    [C {
        #[contract(min = 0)]
        x: i64,
        y: bool
    }],
);

#[test]
fn same_shape_keeps_every_visible_constraint() {
    assert_eq!(
        merged::<SameA, SameB>("x"),
        json!({"type": "integer", "minimum": 0})
    );
    assert_eq!(json(SameA::INPUT_SCHEMA)["required"], json!(["op", "x"]));
}

both_orders!(
    EnumsA,
    EnumsB,
    [A {
        #[contract(values("red", "green"))]
        x: String
    }],
    [B { x: Shade }],
);

#[derive(Contract, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
enum Shade {
    Green,
    Blue,
}

#[test]
fn string_enums_merge_into_one_enum() {
    assert_eq!(
        merged::<EnumsA, EnumsB>("x"),
        json!({"type": "string", "enum": ["blue", "green", "red"]})
    );
    let forward = json(EnumsA::INPUT_SCHEMA);
    assert_eq!(
        forward["properties"]["x"]["enum"],
        json!(["red", "green", "blue"]),
        "values in order of first appearance, each once"
    );
}

both_orders!(NullEnumA, NullEnumB,
    [A { x: Option<Shade> }],
    [B { #[contract(values("red"))] x: String }],
);

#[test]
fn string_enums_carry_null() {
    assert_eq!(
        merged::<NullEnumA, NullEnumB>("x"),
        json!({"type": ["string", "null"], "enum": ["blue", "green", "red", null]})
    );
}

fn no_blank(text: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        Err("must not be blank".into())
    } else {
        Ok(())
    }
}

both_orders!(
    HiddenA,
    HiddenB,
    [A {
        #[contract(trim, max_length = 3)]
        x: String
    }],
    [B {
        #[contract(max_length = 3)]
        x: String
    }],
);

#[test]
fn a_hidden_check_projects_to_the_base_type() {
    assert_eq!(merged::<HiddenA, HiddenB>("x"), json!({"type": "string"}));
}

#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Checked {
    #[contract(refine = no_blank)]
    name: String,
}

#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Plain {
    name: String,
}

both_orders!(DeepA, DeepB,
    [A { x: Vec<Checked> }],
    [B { x: Vec<Checked> }],
);

both_orders!(
    DeepObjectA,
    DeepObjectB,
    [A { x: Checked }],
    [B { x: Plain }],
);

#[test]
fn a_hidden_check_at_any_depth_counts() {
    assert_eq!(
        merged::<DeepA, DeepB>("x"),
        json!({"type": "array", "items": {}})
    );
    assert_eq!(
        merged::<DeepObjectA, DeepObjectB>("x"),
        json!({"type": "object", "additionalProperties": {}})
    );
}

both_orders!(HiddenNullA, HiddenNullB,
    [A { #[contract(min = 0, refine = positive_part)] x: Option<i64> }],
    [B { #[contract(min = 0)] x: i64 }],
);

fn positive_part(value: &Option<i64>) -> Result<(), &'static str> {
    match value {
        Some(n) if *n < 0 => Err("negative"),
        _ => Ok(()),
    }
}

#[test]
fn a_hidden_projection_carries_null() {
    assert_eq!(
        merged::<HiddenNullA, HiddenNullB>("x"),
        json!({"type": ["integer", "null"]})
    );
}

both_orders!(
    OpaqueA,
    OpaqueB,
    [A {
        #[contract(opaque)]
        x: std::time::Duration
    }],
    [B { x: i64 }],
);

#[test]
fn an_opaque_value_makes_the_key_free() {
    assert_eq!(merged::<OpaqueA, OpaqueB>("x"), json!({}));
}

both_orders!(
    MixedHazardA,
    MixedHazardB,
    [A {
        #[contract(coerce)]
        x: i64
    }],
    [B { x: i64 }],
);

both_orders!(
    SameHazardA,
    SameHazardB,
    [A {
        #[contract(coerce, min = 0)]
        x: i64
    }],
    [B {
        #[contract(coerce)]
        x: i64
    }],
);

both_orders!(
    OtherHazardA,
    OtherHazardB,
    [A {
        #[contract(coerce)]
        x: i64
    }],
    [B {
        #[contract(catch = 0)]
        x: i64
    }],
);

#[test]
fn hazards_are_scanned_over_the_whole_set() {
    assert_eq!(merged::<MixedHazardA, MixedHazardB>("x"), json!({}));
    assert_eq!(
        merged::<SameHazardA, SameHazardB>("x"),
        json!({"type": "integer"})
    );
    assert_eq!(merged::<OtherHazardA, OtherHazardB>("x"), json!({}));
}

both_orders!(
    BoundsA,
    BoundsB,
    [A {
        #[contract(min = 0)]
        x: i64
    }],
    [B {
        #[contract(max = 9)]
        x: i64
    }],
);

both_orders!(
    NumbersA,
    NumbersB,
    [A {
        #[contract(min = 0)]
        x: i64
    }],
    [B { x: f64 }],
);

both_orders!(
    EnumStringA,
    EnumStringB,
    [A { x: Shade }],
    [B { x: String }],
);

both_orders!(ObjectsA, ObjectsB,
    [A { x: Checked }],
    [B { x: std::collections::BTreeMap<String, i64> }],
);

#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Other {
    count: u8,
}

both_orders!(TwoObjectsA, TwoObjectsB,
    [A { x: Plain }],
    [B { x: Option<Other> }],
);

/// A bound only one operation states is no bound of the key: the other operation accepts
/// values past it.
#[test]
fn one_kind_bounded_differently_keeps_what_every_operation_bounds() {
    assert_eq!(merged::<BoundsA, BoundsB>("x"), json!({"type": "integer"}));
    assert_eq!(merged::<NumbersA, NumbersB>("x"), json!({"type": "number"}));
    assert_eq!(
        merged::<EnumStringA, EnumStringB>("x"),
        json!({"type": "string"})
    );
    assert_eq!(
        merged::<TwoObjectsA, TwoObjectsB>("x"),
        json!({
            "type": ["object", "null"],
            "properties": {
                "name": {"type": "string"},
                "count": {"type": "integer", "minimum": 0, "maximum": 255}
            },
            "required": []
        })
    );
}

both_orders!(PerPageA, PerPageB,
    [List {
        #[contract(min = 1, max = 100)]
        per_page: u32
    }],
    [Search {
        #[contract(min = 1, max = 50)]
        per_page: Option<u32>
    }],
);

both_orders!(LabelsA, LabelsB,
    [List { labels: Option<Vec<String>> }],
    [Create { labels: Vec<String> }],
    [AddLabels {
        #[contract(min_items = 1, max_items = 10, unique_items)]
        labels: Vec<String>
    }],
);

both_orders!(BoundedLabelsA, BoundedLabelsB,
    [Create {
        #[contract(min_items = 1, max_items = 20)]
        labels: Vec<String>
    }],
    [AddLabels {
        #[contract(min_items = 2, max_items = 10, unique_items)]
        labels: Vec<String>
    }],
);

both_orders!(FormatsA, FormatsB,
    [Schedule {
        #[contract(format = "date-time", max_length = 40)]
        at: String
    }],
    [Move {
        #[contract(format = "date-time")]
        at: Option<String>
    }],
);

both_orders!(WidthsA, WidthsB,
    [Small { n: u8 }],
    [Large {
        #[contract(exclusive_min = 0)]
        n: u32
    }],
    [Medium { n: Option<u16> }],
);

/// What every operation agrees on is kept, merged recursively; each limit every operation
/// states is advertised at its loosest.
#[test]
fn one_kind_advertises_the_hull_of_its_operations() {
    assert_eq!(
        merged::<PerPageA, PerPageB>("per_page"),
        json!({"type": ["integer", "null"], "minimum": 1, "maximum": 100})
    );
    assert_eq!(
        merged::<LabelsA, LabelsB>("labels"),
        json!({"type": ["array", "null"], "items": {"type": "string"}})
    );
    assert_eq!(
        merged::<BoundedLabelsA, BoundedLabelsB>("labels"),
        json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 20})
    );
    assert_eq!(
        merged::<FormatsA, FormatsB>("at"),
        json!({"type": ["string", "null"], "format": "date-time"})
    );
    // `minimum: 0` admits 0, which `exclusiveMinimum: 0` does not: it is the looser limit.
    assert_eq!(
        merged::<WidthsA, WidthsB>("n"),
        json!({"type": ["integer", "null"], "minimum": 0, "maximum": 4294967295u64})
    );
}

both_orders!(KindsA, KindsB,
    [A { x: bool }],
    [B { x: Option<u8> }],
    [C { x: String }],
    [D { x: Vec<String> }],
);

#[test]
fn different_kinds_become_a_type_array_in_fixed_order() {
    assert_eq!(
        merged::<KindsA, KindsB>("x"),
        json!({"type": ["string", "integer", "boolean", "array", "null"]})
    );
}

both_orders!(
    AnyA,
    AnyB,
    [A {
        x: serde_json::Value
    }],
    [B { x: u8 }],
);

#[test]
fn any_json_is_typed_as_every_kind() {
    assert_eq!(
        merged::<AnyA, AnyB>("x"),
        json!({"type": ["string", "number", "boolean", "object", "array", "null"]})
    );
}

#[derive(Contract, Deserialize)]
#[serde(tag = "op", deny_unknown_fields)]
#[allow(dead_code)]
enum Strict {
    A { x: i64 },
    B { y: bool },
}

/// serde ignores other keys beside a unit operation's tag, even under
/// `deny_unknown_fields`: so must the schemas and `parse`.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", deny_unknown_fields)]
enum StrictWithUnit {
    A { x: i64 },
    B,
}

#[derive(Contract, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct StrictArgs {
    x: i64,
}

#[derive(Contract, Deserialize)]
#[serde(tag = "op", deny_unknown_fields)]
#[allow(dead_code)]
enum PartlyStrict {
    A { x: i64 },
    B(Plain),
    C(StrictArgs),
}

#[test]
fn unknown_keys_are_denied_only_when_every_operation_denies_them() {
    assert_eq!(
        json(Strict::INPUT_SCHEMA)["additionalProperties"],
        json!(false)
    );
    assert_eq!(
        json(PartlyStrict::INPUT_SCHEMA).get("additionalProperties"),
        None
    );
}

#[test]
fn a_unit_operation_accepts_other_keys_as_serde_does() {
    let call = json!({"op": "B", "extra": 1});
    assert_eq!(
        serde_json::from_value::<StrictWithUnit>(call.clone()).ok(),
        Some(StrictWithUnit::B),
        "serde's reading"
    );
    assert_eq!(StrictWithUnit::parse(call.clone()), Ok(StrictWithUnit::B));
    let exact = json(StrictWithUnit::EXACT_SCHEMA);
    assert!(common::validator(&exact).is_valid(&call), "{exact}");
    assert_eq!(
        json(StrictWithUnit::INPUT_SCHEMA).get("additionalProperties"),
        None,
        "the flat object cannot deny what the unit operation accepts"
    );
    let strict = json!({"op": "A", "x": 1, "extra": 1});
    assert!(StrictWithUnit::parse(strict).is_err(), "A still denies");
}

every_contract_here!(
    SameA,
    SameB,
    EnumsA,
    EnumsB,
    HiddenA,
    HiddenB,
    DeepObjectA,
    DeepObjectB,
    OpaqueA,
    OpaqueB,
    MixedHazardA,
    MixedHazardB,
    SameHazardA,
    SameHazardB,
    OtherHazardA,
    OtherHazardB,
    BoundsA,
    BoundsB,
    NumbersA,
    NumbersB,
    PerPageA,
    PerPageB,
    LabelsA,
    LabelsB,
    BoundedLabelsA,
    BoundedLabelsB,
    FormatsA,
    FormatsB,
    WidthsA,
    WidthsB,
    EnumStringA,
    EnumStringB,
    AnyA,
    AnyB,
    Shade,
    NullEnumA,
    NullEnumB,
    Checked,
    Plain,
    DeepA,
    DeepB,
    HiddenNullA,
    HiddenNullB,
    ObjectsA,
    ObjectsB,
    Other,
    TwoObjectsA,
    TwoObjectsB,
    KindsA,
    KindsB,
    Strict,
    StrictWithUnit,
    StrictArgs,
    PartlyStrict
);

#[path = "collisions/descriptions.rs"]
mod descriptions;

#[path = "collisions/alike.rs"]
mod alike;
