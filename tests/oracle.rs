//! The superset invariant, proven with the `jsonschema` crate as an independent oracle: every
//! value an operation accepts is accepted by the advertised schema.
//!
//! Two sources of contracts: the derived contracts of the test suite, and collision sets
//! generated at random over the IR (the projection rules are ordinary functions, so the test
//! builds unions at run time). The generated unions also prove that the key-table path
//! (non-generic unions) and the walking path (generic unions) render the same text, and that
//! the merge of a key does not depend on the order of the operations.

#[path = "../examples/contracts/broadcast_patch.rs"]
mod broadcast_patch;
mod common;

use std::collections::BTreeMap;

use common::{assert_portable, json, validator, values};
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::Value;
use stitch::__private as ir;
use stitch::__private::{Flat, flat_table, key_indices, total_fields};
use stitch::ir::{Field, Keyword, KeywordValue, Kind, Node, Object, Rendering, Union, Variant};
use stitch::{Contract, Shape};

/// For a derived contract: generated values are accepted by the exact schema (the generator
/// is right), by the advertised schema (the invariant), and by serde (the IR matches serde).
fn check_contract<T: Contract>(cases: u32) {
    let exact = validator(&json(T::exact_schema()));
    let advertised_schema = json(T::input_schema());
    assert_portable(&advertised_schema);
    let advertised = validator(&advertised_schema);
    let config = ProptestConfig::with_cases(cases);
    proptest!(config, |(value in values(T::SHAPE))| {
        prop_assert!(exact.is_valid(&value), "the exact schema rejects {value}");
        prop_assert!(advertised.is_valid(&value), "the advertised schema rejects {value}");
        prop_assert!(serde_json::from_value::<T>(value.clone()).is_ok(), "serde rejects {value}");
    });
}

#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Step {
    #[contract(min = 0, max = 9)]
    index: u8,
    note: Option<String>,
}

#[derive(Contract, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
#[allow(dead_code)]
enum Mixed {
    Put {
        key: String,
        value: serde_json::Value,
        #[contract(coerce)]
        ttl: Option<u32>,
    },
    Tag {
        #[contract(values("a", "b"))]
        key: String,
        steps: Vec<Step>,
    },
    Bump {
        #[contract(min = 1)]
        key: i64,
        #[contract(trim)]
        value: String,
        nested: Option<Box<Mixed2>>,
    },
    Clear,
}

#[derive(Contract, Deserialize)]
#[serde(tag = "kind")]
#[allow(dead_code)]
enum Mixed2 {
    One {
        n: f64,
        labels: BTreeMap<String, bool>,
    },
    Two {
        n: i8,
    },
}

/// A union with a newtype operation: its fields come from `Step`'s shape, so the key table
/// is indexed in constant evaluation rather than written out by the derive.
#[derive(Contract, Deserialize)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum Wrapped {
    Plain { index: u8, other: bool },
    Wrap(Step),
    Again { note: Option<String>, other: bool },
}

/// The derive writes out the key indices of a union whose names it knows; the table built
/// from them (or, with a newtype operation, from `key_indices`) renders what walking the
/// operations renders.
#[test]
fn derived_key_tables_render_what_the_walk_renders() {
    for node in [
        <broadcast_patch::PatchOp as Shape>::SHAPE,
        <Mixed as Shape>::SHAPE,
        <Mixed2 as Shape>::SHAPE,
        <Wrapped as Shape>::SHAPE,
    ] {
        let Kind::Union(union) = node.kind else {
            panic!("not a union")
        };
        assert!(
            union.has_key_table(),
            "a non-generic union carries its table"
        );
        let walked = union_node(Box::leak(Box::new(Union::new(
            union.tag,
            union.variants,
            union.description,
        ))));
        for mode in [Rendering::ADVERTISED, Rendering::Exact] {
            assert_eq!(
                stitch::ir::render(node, mode),
                stitch::ir::render(walked, mode)
            );
        }
    }
}

#[test]
fn the_incident_contract_is_a_superset() {
    check_contract::<broadcast_patch::BroadcastPatch>(200);
}

#[test]
fn a_contract_with_every_rule_is_a_superset() {
    check_contract::<Mixed>(300);
}

/// The building blocks of generated collision sets.
fn pool() -> Vec<&'static Node> {
    fn leak(node: Node) -> &'static Node {
        Box::leak(Box::new(node))
    }
    fn applied<E: std::fmt::Debug>(node: Result<Node, E>) -> &'static Node {
        leak(node.expect("the attribute fits"))
    }
    let int = <i64 as Shape>::SHAPE;
    let string = <String as Shape>::SHAPE;
    let object = |fields: Vec<Field>| {
        leak(Node::of(Kind::Object(Box::leak(Box::new(Object::new(
            fields.leak(),
            false,
            None,
        ))))))
    };
    vec![
        int,
        applied(ir::keyword(
            int,
            Keyword::Minimum,
            KeywordValue::Bound(ir::Bound::int("0", 0.0)),
            "x",
        )),
        <u8 as Shape>::SHAPE,
        <f64 as Shape>::SHAPE,
        applied(ir::keyword(
            <f64 as Shape>::SHAPE,
            Keyword::Maximum,
            KeywordValue::Bound(ir::Bound::new("2.5", 2.5, false)),
            "x",
        )),
        string,
        applied(ir::keyword(
            string,
            Keyword::MaxLength,
            KeywordValue::Count(3),
            "x",
        )),
        applied(ir::keyword(
            string,
            Keyword::Pattern,
            KeywordValue::Text("^[a-z]+$"),
            "x",
        )),
        applied(ir::values(string, &["a", "b"], "x")),
        applied(ir::values(string, &["b", "c"], "x")),
        <bool as Shape>::SHAPE,
        <Option<i64> as Shape>::SHAPE,
        <Option<String> as Shape>::SHAPE,
        <Vec<i64> as Shape>::SHAPE,
        <Vec<String> as Shape>::SHAPE,
        <BTreeMap<String, i64> as Shape>::SHAPE,
        <Value as Shape>::SHAPE,
        &Node::OPAQUE,
        applied(ir::hidden(string, ir::Attribute::Trim, "x")),
        applied(ir::coerce(int, "x")),
        applied(ir::catch(int, || serde_json::json!(0), "x")),
        object(vec![Field::new("a", int, false, None)]),
        object(vec![Field::new("a", string, false, Some("doc"))]),
        object(vec![Field::new(
            "a",
            applied(ir::hidden(int, ir::Attribute::Refine, "a")),
            false,
            None,
        )]),
        <Mixed2 as Shape>::SHAPE,
        <Option<Mixed2> as Shape>::SHAPE,
    ]
}

/// One generated operation: the node of `x`, whether `x` has a default, and maybe a `y`.
type OperationSpec = (usize, bool, Option<usize>);

fn union_of(specs: &[OperationSpec], pool: &[&'static Node]) -> &'static Union {
    let variants: Vec<Variant> = specs
        .iter()
        .enumerate()
        .map(|(i, (x, x_default, y))| {
            let mut fields = vec![Field::new("x", pool[*x], *x_default, None)];
            if let Some(y) = y {
                fields.push(Field::new("y", pool[*y], false, Some("the y")));
            }
            Variant::new(
                Box::leak(format!("v{i}").into_boxed_str()),
                &[],
                None,
                Box::leak(Box::new(Object::new(fields.leak(), false, None))),
            )
        })
        .collect();
    Box::leak(Box::new(Union::new("op", variants.leak(), None)))
}

/// The same union with the key table generated code would build for it.
fn with_table(union: &'static Union) -> &'static Union {
    /// The most fields the generated unions have.
    const MOST_FIELDS: usize = 8;
    let fields = total_fields(union);
    assert!(fields <= MOST_FIELDS);
    let keys = key_indices::<MOST_FIELDS, 32>(union).keys;
    macro_rules! build {
        ($($keys:literal, $fields:literal);*) => {
            match (keys, fields) {
                $(($keys, $fields) => {
                    let indices = key_indices::<$fields, 32>(union);
                    let table = Box::leak(Box::new(flat_table::<$keys, $fields>(union, &indices)));
                    Flat { keys: &table.keys, slots: &table.slots }
                })*
                other => unreachable!("no table size for {other:?}"),
            }
        };
    }
    let flat = build!(1, 2; 1, 3; 1, 4; 2, 3; 2, 4; 2, 5; 2, 6; 2, 7; 2, 8);
    Box::leak(Box::new(ir::with_key_table(
        *union,
        Box::leak(Box::new(flat)),
    )))
}

fn union_node(union: &'static Union) -> &'static Node {
    Box::leak(Box::new(Node::of(Kind::Union(union))))
}

fn spec() -> impl Strategy<Value = Vec<OperationSpec>> {
    let size = pool().len();
    proptest::collection::vec(
        (0..size, any::<bool>(), proptest::option::of(0..size)),
        2..=4,
    )
}

fn sorted_without_description(property: &Value) -> Value {
    let mut property = property.clone();
    if let Some(object) = property.as_object_mut() {
        object.remove("description");
        if let Some(Value::Array(values)) = object.get_mut("enum") {
            values.sort_by_key(|v| v.to_string());
        }
    }
    property
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_collision_sets_are_supersets(
        (specs, samples) in spec().prop_flat_map(|specs| {
            let union = union_of(&specs, &pool());
            (Just(specs), proptest::collection::vec(values(union_node(union)), 6))
        })
    ) {
        let pool = pool();
        let union = union_node(union_of(&specs, &pool));
        let exact = validator(&json(&stitch::ir::render(union, Rendering::Exact)));
        let advertised_schema = json(&stitch::ir::render(union, Rendering::ADVERTISED));
        assert_portable(&advertised_schema);
        let advertised = validator(&advertised_schema);
        for sample in samples {
            prop_assert!(exact.is_valid(&sample), "the exact schema rejects {sample}");
            prop_assert!(
                advertised.is_valid(&sample),
                "{advertised_schema} rejects {sample}"
            );
        }
    }

    #[test]
    fn the_key_table_and_the_walk_render_the_same(specs in spec()) {
        let pool = pool();
        let walked = union_of(&specs, &pool);
        let tabled = with_table(walked);
        for mode in [Rendering::ADVERTISED, Rendering::Exact] {
            prop_assert_eq!(
                stitch::ir::render(union_node(walked), mode),
                stitch::ir::render(union_node(tabled), mode)
            );
        }
    }

    #[test]
    fn the_merge_does_not_depend_on_operation_order(specs in spec()) {
        let pool = pool();
        let mut reversed = specs.clone();
        reversed.reverse();
        let forward = json(&stitch::ir::render(union_node(union_of(&specs, &pool)), Rendering::ADVERTISED));
        let backward =
            json(&stitch::ir::render(union_node(union_of(&reversed, &pool)), Rendering::ADVERTISED));
        for key in ["x", "y"] {
            prop_assert_eq!(
                sorted_without_description(&forward["properties"][key]),
                sorted_without_description(&backward["properties"][key]),
                "key {}", key
            );
        }
        prop_assert_eq!(&forward["required"], &backward["required"]);
    }
}

#[test]
fn the_guards_agree_on_every_contract_here() {
    common::assert_guards_agree(&[
        broadcast_patch::BroadcastPatch::TOOL,
        broadcast_patch::PatchOp::TOOL,
        broadcast_patch::Audience::TOOL,
        Step::TOOL,
        Mixed::TOOL,
        Mixed2::TOOL,
    ]);
}

#[test]
fn every_contract_here_holds_in_every_dialect() {
    common::check_dialects(file!(), contracts![Step, Mixed, Mixed2, Wrapped]);
}
