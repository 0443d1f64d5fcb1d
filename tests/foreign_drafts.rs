//! Older drafts read without losing anything: a document written for draft-04, 06 or 07 and its
//! twin written by hand in 2020-12's words render identically in every dialect. The pairs are
//! generated: one-schema `items`, tuples as an array of `items` with `additionalItems`,
//! draft-04's boolean bounds, `dependencies`, and `definitions` with `$ref`s into them, at any
//! depth.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use stitch::Dialect;
use stitch::foreign::tool_schema_for;

/// A schema as an older draft writes it, and as 2020-12 writes the same thing.
type Twins = (Value, Value);

fn same(schema: Value) -> Twins {
    (schema.clone(), schema)
}

fn scalar() -> impl Strategy<Value = Twins> {
    prop_oneof![
        Just(same(json!({"type": "string"}))),
        (0u8..5).prop_map(|n| same(json!({"type": "string", "minLength": n}))),
        Just(same(json!({"type": "boolean"}))),
        (-5i64..5, any::<bool>())
            .prop_map(|(at, exclusive)| bound("integer", "minimum", at, exclusive)),
        (0i64..10, any::<bool>())
            .prop_map(|(at, exclusive)| bound("number", "maximum", at, exclusive)),
        Just((
            json!({"$ref": "#/definitions/Name"}),
            json!({"$ref": "#/$defs/Name"})
        )),
    ]
}

/// A bound as draft-04 writes it (`minimum` with a boolean `exclusiveMinimum`), and as
/// 2020-12 does (`exclusiveMinimum` the number, or `minimum` alone).
fn bound(kind: &str, inclusive: &str, at: i64, exclusive: bool) -> Twins {
    let flag = format!(
        "exclusive{}{}",
        inclusive[..1].to_uppercase(),
        &inclusive[1..]
    );
    let old = json!({"type": kind, inclusive: at, flag.clone(): exclusive});
    let new = if exclusive {
        json!({"type": kind, flag: at})
    } else {
        json!({"type": kind, inclusive: at})
    };
    (old, new)
}

fn schema() -> impl Strategy<Value = Twins> {
    scalar().prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            inner.clone().prop_map(|(old, new)| {
                (
                    json!({"type": "array", "items": old}),
                    json!({"type": "array", "items": new}),
                )
            }),
            (inner.clone(), inner.clone(), any::<bool>()).prop_map(|((a, b), (c, d), closed)| {
                let mut old = json!({"type": "array", "items": [a, c], "minItems": 2});
                let mut new = json!({"type": "array", "prefixItems": [b, d], "minItems": 2});
                if closed {
                    old["additionalItems"] = json!(false);
                    new["items"] = json!(false);
                }
                (old, new)
            }),
            (
                prop::collection::vec(inner, 1..4),
                any::<bool>(),
                any::<bool>()
            )
                .prop_map(|(fields, first_required, dependent)| object(
                    fields,
                    first_required,
                    dependent
                )),
        ]
    })
}

/// An object of fields `f0`, `f1`, ...; `f0` required or not; with `dependent`, `f0` asks for
/// `f1` (`dependencies` in the older draft, `dependentRequired` in 2020-12).
fn object(fields: Vec<Twins>, first_required: bool, dependent: bool) -> Twins {
    let (mut old, mut new) = (Map::new(), Map::new());
    for (i, (a, b)) in fields.into_iter().enumerate() {
        old.insert(format!("f{i}"), a);
        new.insert(format!("f{i}"), b);
    }
    let count = old.len();
    let mut old = json!({"type": "object", "properties": old});
    let mut new = json!({"type": "object", "properties": new});
    if first_required {
        old["required"] = json!(["f0"]);
        new["required"] = json!(["f0"]);
    }
    if dependent && count > 1 {
        old["dependencies"] = json!({"f0": ["f1"]});
        new["dependentRequired"] = json!({"f0": ["f1"]});
    }
    (old, new)
}

proptest! {
    #[test]
    fn an_older_draft_renders_as_its_2020_12_twin(
        (fields, first_required) in (prop::collection::vec(schema(), 1..4), any::<bool>()),
        draft in prop::sample::select(vec!["draft-04", "draft-06", "draft-07"]),
    ) {
        let (mut old, mut new) = object(fields, first_required, false);
        old["$schema"] = json!(format!("http://json-schema.org/{draft}/schema#"));
        old["definitions"] = json!({"Name": {"type": "string", "maxLength": 64}});
        new["$defs"] = json!({"Name": {"type": "string", "maxLength": 64}});
        for &dialect in Dialect::ALL {
            let (shown_old, shown_new) = (tool_schema_for(&old, dialect), tool_schema_for(&new, dialect));
            prop_assert_eq!(&shown_old, &shown_new, "{} of {} and {}", dialect, old, new);
        }
    }
}
