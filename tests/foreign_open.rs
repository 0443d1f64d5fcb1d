//! Unions whose operations a flat object cannot simply merge: operations open to other
//! keys, and branches no key tells apart.
//!
//! Operations open to other keys. A foreign union's operation that says outright that it
//! takes other keys (`additionalProperties: true`, zod's `.passthrough()`) is read as a
//! contract's operation with a flattened map is: a key another operation types keeps that
//! type, and its description names the open operation as one that takes it as any other key.
//! The flat object accepts everything else such an operation takes (keys no operation names,
//! any values). Proven over generated unions with the `jsonschema` crate as the oracle.

mod common;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use stitch::{Dialect, SchemaProfile};

/// An operation: its name, its keys with their kinds, and whether it takes other keys.
type Operation<'a> = (&'a str, Vec<(&'a str, &'a str)>, bool);

fn union(operations: &[Operation<'_>]) -> Value {
    let branches: Vec<Value> = operations
        .iter()
        .map(|(name, keys, open)| {
            let mut properties = Map::new();
            properties.insert("op".to_owned(), json!({"const": name}));
            for (key, kind) in keys {
                properties.insert((*key).to_owned(), json!({"type": kind}));
            }
            let mut branch =
                json!({"type": "object", "properties": properties, "required": ["op"]});
            if *open {
                branch["additionalProperties"] = json!(true);
            }
            branch
        })
        .collect();
    json!({"type": "object", "properties": {"action": {"oneOf": branches}}, "required": ["action"]})
}

#[test]
fn a_passthrough_operation_leaves_a_key_the_type_another_gives_it() {
    let open = union(&[("a", vec![("x", "integer")], false), ("b", vec![], true)]);
    for &dialect in Dialect::ALL {
        let shown = stitch::foreign::tool_schema_for(&open, dialect);
        let x = &shown["properties"]["action"]["properties"]["x"];
        let kinds = x["type"].to_string();
        assert!(
            kinds.contains("integer") && !kinds.contains("string"),
            "{dialect}: {x}"
        );
        assert!(
            x["description"]
                .as_str()
                .unwrap_or_default()
                .contains("op = b takes it as any other key"),
            "{dialect}: {x}"
        );
    }
    // What the open operation takes under keys no operation names, the flat object takes.
    let call = json!({"action": {"op": "b", "note": "hello", "n": [1]}});
    assert!(jsonschema::validator_for(&open).unwrap().is_valid(&call));
    let flat = stitch::foreign::flatten_tool_schema(&open);
    assert!(jsonschema::validator_for(&flat).unwrap().is_valid(&call));
    // The key is typed in every dialect: nothing for the guard to report.
    for &dialect in Dialect::ALL {
        let findings = stitch::guard::check(
            &[stitch::guard::Checked::Listed {
                name: "t",
                description: "",
                input: &open,
            }],
            &SchemaProfile::new().dialect(dialect),
        );
        assert!(
            !findings.iter().any(|f| f.path() == "action.x"),
            "{dialect}: {findings:?}"
        );
    }
}

/// A contract whose operation takes other keys through a flattened map.
#[derive(stitch::Contract, serde::Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
#[allow(dead_code, reason = "only deserialized")]
enum Tagging {
    /// Tag one item.
    Tag {
        #[contract(min = 0)]
        x: i64,
    },
    /// Anything else, passed through.
    Pass {
        #[serde(flatten)]
        extra: std::collections::HashMap<String, serde_json::Value>,
    },
}

#[test]
fn a_contract_operation_with_a_flattened_map_is_said_by_the_same_rule() {
    use stitch::Contract;
    for &dialect in Dialect::ALL {
        let shown: Value = serde_json::from_str(Tagging::input_schema_for(dialect)).unwrap();
        let x = &shown["properties"]["x"];
        assert!(x["type"].to_string().contains("integer"), "{dialect}: {x}");
        assert!(
            x["description"]
                .as_str()
                .unwrap_or_default()
                .contains("Required if op = tag; op = pass takes it as any other key"),
            "{dialect}: {x}"
        );
    }
}

#[test]
fn an_operation_that_says_nothing_of_other_keys_keeps_the_key_typed() {
    let closed = union(&[("a", vec![("x", "integer")], false), ("b", vec![], false)]);
    let flat = stitch::foreign::flatten_tool_schema(&closed);
    assert_eq!(
        flat["properties"]["action"]["properties"]["x"]["type"],
        "integer"
    );
}

#[test]
fn a_union_without_a_discriminator_is_each_branch_or_what_they_meet() {
    // No discriminator: the values overlap. Each branch is read as a node of its own, shown
    // as `anyOf` where a dialect takes it, and in `portable` as the hull of the branches.
    let overlapping = json!({"type": "object", "properties": {"v": {"oneOf": [
        {"type": "object", "properties": {"k": {"const": "a"}, "n": {"type": "integer"}}, "required": ["k"]},
        {"type": "object", "properties": {"k": {"const": "a"}, "s": {"type": "string"}}, "required": ["k"]}
    ]}}});
    let flat = stitch::foreign::flatten_tool_schema(&overlapping);
    let branches = flat["properties"]["v"]["anyOf"].as_array().expect("anyOf");
    assert_eq!(branches.len(), 2);
    assert_eq!(branches[0]["properties"]["n"], json!({"type": "integer"}));
    let portable = stitch::foreign::tool_schema_for(&overlapping, Dialect::Portable);
    let v = &portable["properties"]["v"];
    assert_eq!(v["type"], "object", "{v}");
    assert_eq!(v["properties"]["n"]["type"], "integer", "{v}");
    assert_eq!(v["properties"]["s"]["type"], "string", "{v}");
    // Every value a branch takes, each dialect's schema takes.
    for call in [
        json!({"v": {"k": "a", "n": 1}}),
        json!({"v": {"k": "a", "s": "x"}}),
    ] {
        for dialect in [Dialect::Mcp, Dialect::Portable] {
            let shown = stitch::foreign::tool_schema_for(&overlapping, dialect);
            assert!(
                jsonschema::validator_for(&shown).unwrap().is_valid(&call),
                "{dialect}: {call} by {shown}"
            );
        }
    }
}

fn kind_value(kind: &str, seed: u8) -> Value {
    match kind {
        "integer" => json!(seed as i64 - 100),
        "string" => json!(format!("s{seed}")),
        _ => json!(seed.is_multiple_of(2)),
    }
}

const KEYS: [&str; 4] = ["k0", "k1", "k2", "k3"];
const KINDS: [&str; 3] = ["integer", "string", "boolean"];

proptest! {
    /// Every call an operation accepts (its own keys of their kinds; when it is open, any
    /// values under keys no operation names, and values of the declared kind under keys other
    /// operations declare) is accepted by the flat schema in `mcp`, and in `portable` unless
    /// the guard reports the key; and every key some operation declares keeps a type in `mcp`
    /// (its kinds, never every kind).
    #[test]
    fn the_flat_schema_accepts_what_each_operation_accepts(
        shapes in prop::collection::vec(
            (prop::collection::vec((0..4usize, 0..3usize), 0..4), any::<bool>()), 2..5),
        chosen in 0..4usize,
        seeds in prop::collection::vec(any::<u8>(), 8),
    ) {
        let names = ["a", "b", "c", "d"];
        let operations: Vec<Operation<'_>> = shapes
            .iter()
            .enumerate()
            .map(|(i, (keys, open))| {
                let mut declared: Vec<(&str, &str)> = Vec::new();
                for (key, kind) in keys {
                    if !declared.iter().any(|(k, _)| *k == KEYS[*key]) {
                        declared.push((KEYS[*key], KINDS[*kind]));
                    }
                }
                (names[i], declared, *open)
            })
            .collect();
        let source = union(&operations);
        let (name, declared, open) = &operations[chosen % operations.len()];
        let mut call = Map::new();
        call.insert("op".to_owned(), json!(name));
        for (i, (key, kind)) in declared.iter().enumerate() {
            call.insert((*key).to_owned(), kind_value(kind, seeds[i]));
        }
        if *open {
            for (i, key) in KEYS.iter().enumerate() {
                let declared_by_another = operations
                    .iter()
                    .find_map(|(_, keys, _)| keys.iter().find(|(k, _)| k == key).map(|(_, kind)| *kind));
                if let Some(kind) = declared_by_another {
                    call.entry((*key).to_owned()).or_insert_with(|| kind_value(kind, seeds[i]));
                }
            }
            for (i, key) in ["x0", "x1"].iter().enumerate() {
                call.insert((*key).to_owned(), kind_value(KINDS[seeds[4 + i] as usize % 3], seeds[i]));
            }
        }
        let mcp = stitch::foreign::flatten_tool_schema(&source);
        for (_, keys, _) in &operations {
            for (key, _) in keys {
                let kinds = mcp["properties"]["action"]["properties"][key]["type"].to_string();
                prop_assert!(
                    !kinds.contains("object") && !kinds.contains("array"),
                    "{key} lost its type: {mcp}"
                );
            }
        }
        let call = json!({"action": call});
        prop_assert!(jsonschema::validator_for(&source).unwrap().is_valid(&call));
        for dialect in [Dialect::Mcp, Dialect::Portable] {
            let shown = stitch::foreign::tool_schema_for(&source, dialect);
            let validator = jsonschema::validator_for(&shown).unwrap();
            if let Some(error) = validator.iter_errors(&call).next() {
                let path = error.instance_path().to_string().trim_start_matches('/').replace('/', ".");
                let findings = stitch::guard::check(&[stitch::guard::Checked::Listed { name: "t", description: "", input: &source }], &SchemaProfile::new().dialect(dialect));
                prop_assert!(
                    findings.iter().any(|f| f.path() == path),
                    "{dialect}: {call} refused at {path} by {shown}; findings {findings:?}"
                );
            }
        }
    }
}

every_contract_here!(Tagging);
