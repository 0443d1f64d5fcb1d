//! `parse` follows serde and the Rust type: what serde (or the type) would refuse without
//! saying where, validation refuses first, at its pointer (integers beyond the type, a key
//! given under its name and an alias, numbers JSON cannot carry, a value a conversion refuses);
//! and what serde reads, it reads alike (a newtype over an `Option` required). Aliases, which
//! serde reads and no schema states, are tests/spellings.rs's.

mod common;

use common::json;

use serde::Deserialize;
use serde_json::{Value, json};
use stitch::Contract;

/// Where serde would refuse what the schema cannot state, validation refuses it first, at
/// its pointer: integers beyond the Rust type, a key given under its name and an alias.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Widths {
    list: Vec<Width>,
}

#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Width {
    i: i64,
    #[serde(default)]
    u: u64,
    #[serde(default)]
    #[contract(max = 1000)]
    small: u8,
    #[serde(default)]
    ratio: f32,
    #[serde(default, alias = "colour")]
    color: Option<String>,
}

fn width_issues(item: Value) -> Vec<(String, &'static str, String)> {
    match Widths::parse(json!({"list": [{"i": 0}, item]})) {
        Ok(_) => Vec::new(),
        Err(rejection) => rejection
            .issues
            .into_iter()
            .map(|issue| (issue.pointer, issue.code.as_str(), issue.message))
            .collect(),
    }
}

/// Whether serde alone refuses the item (where it would, it says not where).
fn serde_refuses(item: Value) -> bool {
    serde_json::from_value::<Widths>(json!({"list": [{"i": 0}, item]})).is_err()
}

#[test]
fn values_the_rust_type_cannot_hold_are_refused_at_their_pointer() {
    let beyond_i64 = json!({"i": 9_223_372_036_854_775_808u64});
    assert!(serde_refuses(beyond_i64.clone()));
    let beyond_i64 = width_issues(beyond_i64);
    assert_eq!(
        beyond_i64,
        [(
            "/list/1/i".to_owned(),
            "out_of_range",
            "must be from -9223372036854775808 to 9223372036854775807 (what this field \
             takes), got 9223372036854775808"
                .to_owned()
        )]
    );
    let whole_but_huge = width_issues(json!({"i": 1e20}));
    assert_eq!(
        whole_but_huge[0].1, "out_of_range",
        "1e20 is whole: it is too big"
    );
    assert!(
        whole_but_huge[0].2.ends_with("got 1e+20"),
        "{whole_but_huge:?}"
    );
    assert!(serde_refuses(json!({"i": 1, "small": 300})));
    let past_its_type = width_issues(json!({"i": 1, "small": 300}));
    assert_eq!(past_its_type[0].0, "/list/1/small", "max = 1000 on a u8");
    assert_eq!(past_its_type[0].1, "out_of_range");
    // serde reads it as infinity; the handler would receive that. An `f32` advertises its
    // finite range, and the value is refused by it.
    assert!(!serde_refuses(json!({"i": 1, "ratio": 1e300})));
    let infinite = width_issues(json!({"i": 1, "ratio": 1e300}));
    assert_eq!(
        infinite,
        [(
            "/list/1/ratio".to_owned(),
            "maximum",
            "must be ≤ 3.4028235e38, got 1e+300".to_owned()
        )]
    );
    assert!(width_issues(json!({"i": -5, "small": 255, "ratio": 3.0e38})).is_empty());
}

#[test]
fn a_key_given_under_its_name_and_an_alias_is_refused_at_its_pointer() {
    assert!(serde_refuses(
        json!({"i": 1, "color": "red", "colour": "blue"})
    ));
    let both = width_issues(json!({"i": 1, "color": "red", "colour": "blue"}));
    assert_eq!(both.len(), 1);
    assert_eq!(
        (both[0].0.as_str(), both[0].1),
        ("/list/1/colour", "duplicate_key")
    );
    assert!(width_issues(json!({"i": 1, "colour": "blue"})).is_empty());
}

#[derive(Contract, Deserialize, Debug)]
#[allow(dead_code)]
struct Measure {
    value: f64,
}

#[test]
fn numbers_json_cannot_carry_are_named_for_what_they_are() {
    for text in ["NaN", "inf", "-Infinity"] {
        let rejection = Measure::parse(json!({ "value": text })).unwrap_err();
        assert_eq!(
            rejection.issues[0].message,
            format!(
                "expected number, got string \"{text}\" — JSON numbers are finite: NaN and \
                 infinity cannot be sent"
            )
        );
    }
    let quoted = Measure::parse(json!({"value": "2.5"})).unwrap_err();
    assert!(
        quoted.issues[0]
            .message
            .ends_with("send the number without quotes")
    );
}

#[derive(Contract, Deserialize, Debug, PartialEq)]
struct MaybeId(Option<String>);
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(transparent)]
struct SeeThrough(Option<String>);
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Holder {
    id: MaybeId,
    other: SeeThrough,
}

#[test]
fn a_newtype_struct_over_an_option_is_required_as_serde_requires_it() {
    assert!(serde_json::from_value::<Holder>(json!({})).is_err());
    let rejection = Holder::parse(json!({})).unwrap_err();
    let missing: Vec<&str> = rejection
        .issues
        .iter()
        .map(|i| i.pointer.as_str())
        .collect();
    assert_eq!(missing, ["/id"], "the transparent one may be missing");
    assert_eq!(json(Holder::INPUT_SCHEMA)["required"], json!(["id"]));
    let parsed = Holder::parse(json!({"id": null})).unwrap();
    assert_eq!(
        parsed,
        Holder {
            id: MaybeId(None),
            other: SeeThrough(None)
        }
    );
}

#[derive(Contract, Deserialize, Debug)]
#[allow(dead_code)]
struct Piped {
    #[serde(deserialize_with = "positive_text")]
    #[contract(via = String)]
    amount: u32,
}
fn positive_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map_err(serde::de::Error::custom)
}

#[test]
fn serde_errors_become_issues_with_their_path() {
    let rejection = Piped::parse(json!({"amount": "-3"})).unwrap_err();
    assert_eq!(rejection.issues[0].pointer, "/amount");
    assert_eq!(rejection.issues[0].code, "invalid_value");
    assert_eq!(Piped::parse(json!({"amount": "7"})).unwrap().amount, 7);
}

every_contract_here!(Widths, Width, Measure, MaybeId, SeeThrough, Holder, Piped);
