//! The measure of a schema text (`stitch::measure::Measure::of`, the one `const fn` pass the budgets
//! and the sizes read) against an independent reading: the same figures counted by a plain
//! recursive walk over the parsed `serde_json::Value`, on generated schemas (properties,
//! definitions, enums, consts, unions, `type` arrays, `maxItems`, and values in keys no schema
//! lives under, which must not count), and on every schema of the incident contract.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use stitch::{Contract, Dialect, measure::Measure};

#[path = "../examples/contracts/broadcast_patch.rs"]
mod broadcast_patch;

/// The figures of a schema, counted over the parsed value.
#[derive(Debug, Default, PartialEq, Eq)]
struct Figures {
    properties: usize,
    nesting: usize,
    name_and_value_chars: usize,
    enum_values: usize,
    long_enum_chars: usize,
    optional_properties: usize,
    union_properties: usize,
    max_items: u64,
    longest_name: usize,
}

impl Figures {
    fn of_measure(m: &Measure) -> Figures {
        Figures {
            properties: m.properties,
            nesting: m.nesting,
            name_and_value_chars: m.name_and_value_chars,
            enum_values: m.enum_values,
            long_enum_chars: m.long_enum_chars,
            optional_properties: m.optional_properties,
            union_properties: m.union_properties,
            max_items: m.max_items,
            longest_name: m.longest_name,
        }
    }

    /// Counts a schema at `levels` enclosing `properties` maps; `property` when it is a
    /// property's schema.
    fn schema(&mut self, schema: &Value, levels: usize, property: bool) {
        let Value::Object(map) = schema else {
            return;
        };
        if property
            && (map.contains_key("anyOf")
                || map.contains_key("oneOf")
                || map.get("type").is_some_and(Value::is_array))
        {
            self.union_properties += 1;
        }
        for (key, value) in map {
            match key.as_str() {
                "properties" => {
                    if let Value::Object(properties) = value {
                        self.properties(properties, map, levels + 1);
                    }
                }
                "$defs" | "definitions" => {
                    if let Value::Object(definitions) = value {
                        for (name, definition) in definitions {
                            self.name_and_value_chars += name.chars().count();
                            self.schema(definition, levels, false);
                        }
                    }
                }
                "enum" => {
                    if let Value::Array(values) = value {
                        let chars: usize = values.iter().map(chars_of).sum();
                        self.enum_values += values.len();
                        self.name_and_value_chars += chars;
                        if values.len() > 250 {
                            self.long_enum_chars = self.long_enum_chars.max(chars);
                        }
                    }
                }
                "const" if !value.is_object() && !value.is_array() => {
                    self.name_and_value_chars += chars_of(value);
                }
                "maxItems" => self.max_items += value.as_u64().unwrap_or(0),
                "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                    for branch in value.as_array().into_iter().flatten() {
                        self.schema(branch, levels, false);
                    }
                }
                "items"
                | "additionalProperties"
                | "not"
                | "if"
                | "then"
                | "else"
                | "contains"
                | "propertyNames" => self.schema(value, levels, false),
                _ => {}
            }
        }
    }

    fn properties(
        &mut self,
        properties: &Map<String, Value>,
        owner: &Map<String, Value>,
        levels: usize,
    ) {
        self.nesting = self.nesting.max(levels);
        let required = owner
            .get("required")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        self.optional_properties += properties.len().saturating_sub(required);
        for (name, property) in properties {
            let chars = name.chars().count();
            self.properties += 1;
            self.name_and_value_chars += chars;
            self.longest_name = self.longest_name.max(chars);
            self.schema(property, levels, true);
        }
    }
}

/// A scalar's characters as the measure counts them: a string's characters, any other
/// value's JSON text.
fn chars_of(value: &Value) -> usize {
    match value {
        Value::String(text) => text.chars().count(),
        Value::Object(_) | Value::Array(_) => 0,
        other => other.to_string().len(),
    }
}

fn figures(schema: &Value) -> Figures {
    let mut figures = Figures::default();
    figures.schema(schema, 0, false);
    figures
}

/// Names and texts, with characters that need escapes and that take several bytes.
fn text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zA-Z0-9_ \"\\\\\n\u{e9}\u{2014}]{0,12}").unwrap()
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        text().prop_map(Value::String),
        any::<i32>().prop_map(|n| json!(n)),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
    ]
}

/// Schemas a few levels deep, with every key the measure reads and some it must not.
fn schema() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": ["integer", "null"]})),
        proptest::collection::vec(scalar(), 0..6).prop_map(|values| json!({"enum": values})),
        scalar().prop_map(|value| json!({"const": value})),
        (0u64..2000).prop_map(|n| json!({"type": "array", "maxItems": n})),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            (
                proptest::collection::btree_map(text(), inner.clone(), 0..5),
                proptest::collection::vec(text(), 0..3),
                text(),
            )
                .prop_map(|(properties, required, description)| {
                    json!({"type": "object", "description": description,
                           "properties": properties, "required": required,
                           "default": {"properties": {"not": "counted"}}})
                }),
            proptest::collection::vec(inner.clone(), 1..4)
                .prop_map(|branches| json!({"anyOf": branches})),
            inner
                .clone()
                .prop_map(|items| json!({"type": "array", "items": items})),
            (text(), inner.clone()).prop_map(|(name, definition)| {
                json!({"$defs": {name: definition}, "examples": [{"enum": [1, 2]}]})
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_measure_counts_what_a_walk_over_the_value_counts(schema in schema()) {
        let text = schema.to_string();
        let measure = Measure::of(&text);
        prop_assert_eq!(Figures::of_measure(&measure), figures(&schema), "{}", text);
        prop_assert_eq!(measure.bytes, text.len());
    }

    #[test]
    fn any_text_is_measured_without_a_panic(text in r#"[{}\[\]":,\\a-z0-9 é]{0,200}"#) {
        let measure = Measure::of(&text);
        prop_assert_eq!(measure.bytes, text.len());
    }
}

#[test]
fn every_schema_of_the_incident_contract_is_measured_as_walked() {
    let mut texts: Vec<&str> = Dialect::ALL
        .iter()
        .map(|dialect| broadcast_patch::BroadcastPatch::input_schema_for(*dialect))
        .collect();
    texts.push(broadcast_patch::BroadcastPatch::EXACT_SCHEMA);
    for text in texts {
        let schema: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            Figures::of_measure(&Measure::of(text)),
            figures(&schema),
            "{text}"
        );
    }
}

#[test]
fn a_long_enum_counts_its_characters() {
    let values: Vec<String> = (0..251).map(|i| format!("{i:03}")).collect();
    let schema = json!({"type": "object", "properties": {"e": {"enum": values}}});
    let measure = Measure::of(&schema.to_string());
    assert_eq!(measure.long_enum_chars, 251 * 3);
    assert_eq!(figures(&schema).long_enum_chars, 251 * 3);
}
