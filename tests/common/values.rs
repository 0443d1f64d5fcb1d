//! Values generated from the IR: a proptest strategy producing values the exact contract
//! accepts, for the oracle tests.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use stitch::ir::{
    ArrayRules, Holds, Kind, Node, NumberRules, StringRules, Tagging, Union, Variant,
};

/// Values the exact contract described by `node` accepts (its declared types: no hazard
/// leniency), for the oracle tests.
pub fn values(node: &'static Node<'static>) -> BoxedStrategy<Value> {
    let base = match node.kind {
        Kind::Boolean => any::<bool>().prop_map(Value::from).boxed(),
        Kind::Integer(rules) => integer_values(rules),
        Kind::Number(rules) => number_values(rules),
        Kind::String(rules) => string_values(rules),
        Kind::StringEnum(values, ..) => proptest::sample::select(values)
            .prop_map(Value::from)
            .boxed(),
        Kind::Array(item, rules) => array_values(item, rules),
        Kind::Tuple(elements) => {
            let parts: Vec<BoxedStrategy<Value>> = elements.iter().map(|e| values(e)).collect();
            parts.prop_map(Value::Array).boxed()
        }
        Kind::Map(value, rules) => {
            let low = rules.min_properties.unwrap_or(0).min(4) as usize;
            let high = rules
                .max_properties
                .map_or(low + 2, |most| most as usize)
                .max(low);
            proptest::collection::btree_map("[a-z]{1,6}", values(value), low..=high)
                .prop_map(|map| Value::Object(map.into_iter().collect()))
                .boxed()
        }
        Kind::Object(object) => object_values(object.fields, None),
        Kind::Union(union) => {
            let variants: Vec<BoxedStrategy<Value>> = union
                .variants
                .iter()
                .map(|variant| operation_values(union, variant))
                .collect();
            proptest::strategy::Union::new(variants).boxed()
        }
        Kind::AnyOf(branches) => {
            let each: Vec<BoxedStrategy<Value>> = branches.iter().map(|b| values(b)).collect();
            proptest::strategy::Union::new(each).boxed()
        }
        Kind::Any | Kind::Opaque => any_json(),
        other => panic!("no values generated for {other:?} yet"),
    };
    if node.nullable {
        prop_oneof![1 => Just(Value::Null), 3 => base].boxed()
    } else {
        base
    }
}

/// Integers within the rules' bounds (capped), multiples of their step.
fn integer_values(rules: NumberRules<'static>) -> BoxedStrategy<Value> {
    let low = rules
        .minimum
        .map(|b| b.value as i64)
        .or(rules.exclusive_minimum.map(|b| b.value as i64 + 1))
        .unwrap_or(-1_000_000)
        .max(-1_000_000_000_000);
    let high = rules
        .maximum
        .map(|b| b.value as i64)
        .or(rules.exclusive_maximum.map(|b| b.value as i64 - 1))
        .unwrap_or(1_000_000)
        .min(1_000_000_000_000);
    let step = rules.multiple_of.map(|b| b.value as i64).unwrap_or(1);
    (low..=high)
        .prop_map(move |n| Value::from(n - n.rem_euclid(step)))
        .prop_filter("in range", move |v| {
            v.as_i64().is_some_and(|n| n >= low && n <= high)
        })
        .boxed()
}

/// Numbers within the rules' bounds, exclusive ones excluded.
fn number_values(rules: NumberRules<'static>) -> BoxedStrategy<Value> {
    let low = rules
        .minimum
        .or(rules.exclusive_minimum)
        .map(|b| b.value)
        .unwrap_or(-1.0e6);
    let high = rules
        .maximum
        .or(rules.exclusive_maximum)
        .map(|b| b.value)
        .unwrap_or(1.0e6);
    let (exclusive_low, exclusive_high) = (
        rules.exclusive_minimum.map(|b| b.value),
        rules.exclusive_maximum.map(|b| b.value),
    );
    (low..=high)
        .prop_filter("exclusive bounds", move |n| {
            exclusive_low.is_none_or(|b| *n > b) && exclusive_high.is_none_or(|b| *n < b)
        })
        .prop_map(Value::from)
        .boxed()
}

/// Strings of the rules' length, matching their pattern or of their format.
fn string_values(rules: StringRules<'static>) -> BoxedStrategy<Value> {
    let min = rules.min_length.unwrap_or(0) as usize;
    let limit = rules.max_length.map_or(usize::MAX, |m| m as usize);
    let max = limit.min(24).max(min);
    let strategy = match (rules.pattern, rules.format) {
        (Some(pattern), _) => {
            // JSON Schema patterns are unanchored: a string matching the whole pattern
            // matches the anchored one too.
            let body = pattern.strip_prefix('^').unwrap_or(pattern);
            let body = body.strip_suffix('$').unwrap_or(body);
            proptest::string::string_regex(body)
                .expect("the pattern compiles")
                .boxed()
        }
        (None, Some(format)) => Just(format_sample(format).to_owned()).boxed(),
        (None, None) => {
            proptest::string::string_regex(&format!("[a-zA-Z0-9 _é\"\\\\]{{{min},{max}}}"))
                .expect("a valid regex")
                .boxed()
        }
    };
    strategy
        .prop_filter("length", move |s| {
            let n = s.chars().count();
            n >= min && n <= limit
        })
        .prop_map(Value::from)
        .boxed()
}

/// Arrays of `item`'s values, as many as the rules allow (a few at most), unique if asked.
fn array_values(item: &'static Node<'static>, rules: ArrayRules) -> BoxedStrategy<Value> {
    let min = rules.min_items.unwrap_or(0) as usize;
    let max = rules
        .max_items
        .map(|m| m as usize)
        .unwrap_or(3)
        .min(4)
        .max(min);
    let unique = rules.unique_items;
    proptest::collection::vec(values(item), min..=max)
        .prop_filter("unique items", move |items| {
            !unique
                || items
                    .iter()
                    .enumerate()
                    .all(|(i, a)| !items[..i].contains(a))
        })
        .prop_map(Value::Array)
        .boxed()
}

/// Calls of one operation, as its union's tagging places it.
fn operation_values(
    union: &'static Union<'static>,
    variant: &'static Variant<'static>,
) -> BoxedStrategy<Value> {
    let held = match variant.holds {
        Holds::Fields => Some(object_values(variant.object.fields, None)),
        Holds::Value(node) => Some(values(node)),
        Holds::Nothing => None,
        _ => unreachable!("an operation holds its fields, nothing or a value"),
    };
    let (tag, name) = (union.tag, variant.name);
    match (union.tagging, held) {
        (Tagging::Adjacent(content), Some(held)) => held
            .prop_map(move |held| json!({ tag: name, content: held }))
            .boxed(),
        (Tagging::Adjacent(_), None) => Just(json!({ tag: name })).boxed(),
        (Tagging::External, Some(held)) => held.prop_map(move |held| json!({ name: held })).boxed(),
        (Tagging::External, None) => {
            prop_oneof![Just(json!({ name: null })), Just(json!({ name: {} }))].boxed()
        }
        _ => object_values(variant.object.fields, Some((tag, name))),
    }
}

fn object_values(
    fields: &'static [stitch::ir::Field],
    tag: Option<(&'static str, &'static str)>,
) -> BoxedStrategy<Value> {
    let parts: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
        .iter()
        .map(|field| {
            let name = field.name.to_owned();
            let value = values(field.node).prop_map(move |v| Some((name.clone(), v)));
            if field.required {
                value.boxed()
            } else {
                prop_oneof![Just(None), value].boxed()
            }
        })
        .collect();
    parts
        .prop_map(move |entries| {
            let mut object = Map::new();
            if let Some((tag, name)) = tag {
                object.insert(tag.to_owned(), Value::from(name));
            }
            for (key, value) in entries.into_iter().flatten() {
                object.insert(key, value);
            }
            Value::Object(object)
        })
        .boxed()
}

fn any_json() -> BoxedStrategy<Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        "[a-z]{0,4}".prop_map(Value::from),
        Just(json!([1, "a"])),
        Just(json!({"k": [true]})),
    ]
    .boxed()
}

fn format_sample(format: &str) -> &'static str {
    match format {
        "date-time" => "2026-12-02T17:00:00Z",
        "date" => "2026-12-02",
        "time" => "17:00:00Z",
        "uri" => "https://example.com/a",
        "email" => "a@example.com",
        "uuid" => "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
        _ => "sample",
    }
}
