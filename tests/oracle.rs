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

use common::{assert_portable, fill, json, validator, values};
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::Value;
use stitch::__private as ir;
use stitch::__private::{Flat, flat_table, key_indices, total_fields};
use stitch::Rendering;
use stitch::ir::{Field, Keyword, KeywordValue, Kind, Node, Object, Union, Variant};
use stitch::{Contract, Dialect, SchemaProfile, Shape, Tool, guard::FindingKind};

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
            assert_eq!(mode.render(node), mode.render(walked));
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

/// The building blocks of generated collision sets (their order is what a saved case
/// indexes).
fn pool() -> Vec<&'static Node<'static>> {
    let mut pool = scalar_pool();
    pool.extend(structure_pool());
    pool
}

/// Scalars, collections and free values, with and without keywords.
fn scalar_pool() -> Vec<&'static Node<'static>> {
    let (int, string) = (<i64 as Shape>::SHAPE, <String as Shape>::SHAPE);
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
    ]
}

/// Hazards, hidden checks, objects and nested contracts.
fn structure_pool() -> Vec<&'static Node<'static>> {
    let (int, string) = (<i64 as Shape>::SHAPE, <String as Shape>::SHAPE);
    vec![
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
        <Vec<u8> as Shape>::SHAPE,
        <Option<Vec<String>> as Shape>::SHAPE,
        applied(ir::keyword(
            <Vec<String> as Shape>::SHAPE,
            Keyword::MinItems,
            KeywordValue::Count(1),
            "x",
        )),
        applied(ir::keyword(
            <Vec<String> as Shape>::SHAPE,
            Keyword::MinItems,
            KeywordValue::Count(3),
            "x",
        )),
        applied(ir::keyword(
            int,
            Keyword::Minimum,
            KeywordValue::Bound(ir::Bound::int("-5", -5.0)),
            "x",
        )),
        applied(ir::keyword(
            string,
            Keyword::Format,
            KeywordValue::Text("date"),
            "x",
        )),
        <BTreeMap<String, u8> as Shape>::SHAPE,
        object(vec![
            Field::new("a", <Option<u8> as Shape>::SHAPE, false, None),
            Field::new("b", string, true, None),
        ]),
        leak(Node::of(Kind::Object(Box::leak(Box::new(Object::new(
            vec![Field::new("b", <Vec<u8> as Shape>::SHAPE, true, None)].leak(),
            true,
            None,
        )))))),
    ]
}

fn leak(node: Node<'static>) -> &'static Node<'static> {
    Box::leak(Box::new(node))
}

/// The node an attribute makes, which must fit.
fn applied<E: std::fmt::Debug>(node: Result<Node<'static>, E>) -> &'static Node<'static> {
    leak(node.expect("the attribute fits"))
}

/// An object of these fields.
fn object(fields: Vec<Field<'static>>) -> &'static Node<'static> {
    leak(Node::of(Kind::Object(Box::leak(Box::new(Object::new(
        fields.leak(),
        false,
        None,
    ))))))
}

/// One generated operation: the node of `x`, whether `x` has a default, and maybe a `y`.
type OperationSpec = (usize, bool, Option<usize>);

fn union_of(specs: &[OperationSpec], pool: &[&'static Node<'static>]) -> &'static Union<'static> {
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
fn with_table(union: &'static Union<'static>) -> &'static Union<'static> {
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
                    let table = Box::leak(Box::new(flat_table::<$keys, $fields>(union, &indices, None)));
                    Flat { keys: &table.keys, slots: &table.slots, names: None }
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

fn union_node(union: &'static Union<'static>) -> &'static Node<'static> {
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

/// In every dialect the guard finds nothing it cannot say of `union`, what a client of the
/// dialect sends for each sample is accepted by the schema that client is shown.
fn superset_in_every_lossless_dialect(
    union: &'static Node<'static>,
    samples: &[Value],
) -> Result<(), TestCaseError> {
    let tool = Tool::new("generated", "", union);
    for &dialect in Dialect::ALL {
        let profile = SchemaProfile::new().dialect(dialect);
        if stitch::guard::check(&[tool.into()], &profile)
            .iter()
            .any(|finding| finding.kind() == FindingKind::Inexpressible)
        {
            continue;
        }
        let shown = json(&Rendering::Flat(dialect).render(union));
        let schema = validator(&shown);
        for sample in samples {
            let sent = fill(union, sample, dialect, &shown);
            prop_assert!(schema.is_valid(&sent), "{dialect}: {shown} rejects {sent}");
        }
    }
    Ok(())
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
        let exact = validator(&json(&Rendering::Exact.render(union)));
        let advertised_schema = json(&Rendering::ADVERTISED.render(union));
        assert_portable(&advertised_schema);
        let advertised = validator(&advertised_schema);
        for sample in &samples {
            prop_assert!(exact.is_valid(sample), "the exact schema rejects {sample}");
            prop_assert!(
                advertised.is_valid(sample),
                "{advertised_schema} rejects {sample}"
            );
        }
        // In every dialect that the guard finds nothing it cannot say, what a client of the
        // dialect sends for each sample.
        superset_in_every_lossless_dialect(union, &samples)?;
    }

    #[test]
    fn the_key_table_and_the_walk_render_the_same(specs in spec()) {
        let pool = pool();
        let walked = union_of(&specs, &pool);
        let tabled = with_table(walked);
        for mode in [Rendering::ADVERTISED, Rendering::Exact] {
            prop_assert_eq!(
                mode.render(union_node(walked)),
                mode.render(union_node(tabled))
            );
        }
    }

    #[test]
    fn the_merge_does_not_depend_on_operation_order(specs in spec()) {
        let pool = pool();
        let mut reversed = specs.clone();
        reversed.reverse();
        let forward = json(&Rendering::ADVERTISED.render(union_node(union_of(&specs, &pool))));
        let backward =
            json(&Rendering::ADVERTISED.render(union_node(union_of(&reversed, &pool))));
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

every_contract_here!(
    Step,
    Mixed,
    Mixed2,
    Wrapped,
    broadcast_patch::BroadcastPatch,
    broadcast_patch::PatchOp,
    broadcast_patch::Audience
);

/// A node of one kind with random limits (never contradicting each other): `kind` 0 is an
/// integer, 1 a number, 2 a string, 3 an array of bytes.
fn limited(kind: usize) -> BoxedStrategy<&'static Node<'static>> {
    fn leak(node: Node<'static>) -> &'static Node<'static> {
        Box::leak(Box::new(node))
    }
    fn bound(n: i64) -> ir::Bound<'static> {
        ir::Bound::int(Box::leak(n.to_string().into_boxed_str()), n as f64)
    }
    fn set(node: Node<'static>, keyword: Keyword, value: KeywordValue<'static>) -> Node<'static> {
        ir::keyword(leak(node), keyword, value, "x").expect("the limit fits")
    }
    let range = (
        proptest::option::of(-20i64..20),
        proptest::option::of(0i64..20),
        any::<bool>(),
        any::<bool>(),
    );
    match kind {
        0 | 1 => range
            .prop_map(move |(low, span, low_excluded, high_excluded)| {
                let mut node = if kind == 0 {
                    *<i64 as Shape>::SHAPE
                } else {
                    *<f64 as Shape>::SHAPE
                };
                let (lower, upper) = match (low_excluded, high_excluded) {
                    (false, _) => (Keyword::Minimum, Keyword::Maximum),
                    (true, false) => (Keyword::ExclusiveMinimum, Keyword::Maximum),
                    (true, true) => (Keyword::ExclusiveMinimum, Keyword::ExclusiveMaximum),
                };
                if let Some(low) = low {
                    node = set(node, lower, KeywordValue::Bound(bound(low)));
                }
                if let Some(span) = span {
                    // Two past the lower limit at least, so exclusive limits leave a value.
                    let high = low.unwrap_or(0) + span + 2;
                    node = set(node, upper, KeywordValue::Bound(bound(high)));
                }
                leak(node)
            })
            .boxed(),
        2 => (proptest::option::of(0u64..4), proptest::option::of(0u64..6))
            .prop_map(|(min, span)| {
                let mut node = *<String as Shape>::SHAPE;
                if let Some(min) = min {
                    node = set(node, Keyword::MinLength, KeywordValue::Count(min));
                }
                if let Some(span) = span {
                    let max = min.unwrap_or(0) + span;
                    node = set(node, Keyword::MaxLength, KeywordValue::Count(max));
                }
                leak(node)
            })
            .boxed(),
        _ => (
            proptest::option::of(0u64..3),
            proptest::option::of(0u64..3),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(min, span, unique, nullable)| {
                let mut node = *<Vec<u8> as Shape>::SHAPE;
                if let Some(min) = min {
                    node = set(node, Keyword::MinItems, KeywordValue::Count(min));
                }
                if let Some(span) = span {
                    let max = min.unwrap_or(0) + span;
                    node = set(node, Keyword::MaxItems, KeywordValue::Count(max));
                }
                if unique {
                    node = set(node, Keyword::UniqueItems, KeywordValue::Flag);
                }
                leak(if nullable { node.nullable() } else { node })
            })
            .boxed(),
    }
}

/// A union whose operations all declare `x` of one kind, with limits of their own.
fn limited_union() -> impl Strategy<Value = &'static Node<'static>> {
    (0..4usize)
        .prop_flat_map(|kind| proptest::collection::vec(limited(kind), 2..=4))
        .prop_map(|nodes| {
            let variants: Vec<Variant> = nodes
                .into_iter()
                .enumerate()
                .map(|(i, node)| {
                    Variant::new(
                        Box::leak(format!("v{i}").into_boxed_str()),
                        &[],
                        None,
                        Box::leak(Box::new(Object::new(
                            vec![Field::new("x", node, false, None)].leak(),
                            false,
                            None,
                        ))),
                    )
                })
                .collect();
            union_node(Box::leak(Box::new(Union::new("op", variants.leak(), None))))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The hull of limits: every value any operation accepts is accepted by the advertised
    /// key in every dialect the guard finds nothing of, and the advertised key keeps a limit
    /// on a side exactly when every operation states one there.
    #[test]
    fn the_hull_of_limits_is_a_superset_and_keeps_shared_limits(
        (union, samples) in limited_union().prop_flat_map(|union| {
            (Just(union), proptest::collection::vec(values(union), 8))
        })
    ) {
        superset_in_every_lossless_dialect(union, &samples)?;
        let Kind::Union(operations) = union.kind else { unreachable!() };
        let declared: Vec<Kind> = operations
            .variants
            .iter()
            .map(|v| v.object.fields[0].node.kind)
            .collect();
        let advertised = json(&Rendering::ADVERTISED.render(union));
        let x = &advertised["properties"]["x"];
        let sides = [
            (["minimum", "exclusiveMinimum"], [Keyword::Minimum, Keyword::ExclusiveMinimum]),
            (["maximum", "exclusiveMaximum"], [Keyword::Maximum, Keyword::ExclusiveMaximum]),
            (["minLength", "minLength"], [Keyword::MinLength, Keyword::MinLength]),
            (["maxLength", "maxLength"], [Keyword::MaxLength, Keyword::MaxLength]),
            (["minItems", "minItems"], [Keyword::MinItems, Keyword::MinItems]),
            (["maxItems", "maxItems"], [Keyword::MaxItems, Keyword::MaxItems]),
        ];
        for (names, keywords) in sides {
            let every = declared
                .iter()
                .all(|kind| keywords.iter().any(|k| kind.keyword(*k).is_some()));
            let applies = declared
                .iter()
                .all(|kind| kind.keyword_slots().keywords.contains(&keywords[0]));
            let kept = names.iter().any(|name| x.get(*name).is_some());
            prop_assert_eq!(kept, applies && every, "{:?} in {}", names, x);
        }
    }
}
