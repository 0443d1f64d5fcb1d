//! `parse` takes what serde reads and the exact schema states, and nothing else: a spelling
//! serde reads that no schema states (an `alias` of a field in a closed object or of a
//! required one, of an operation, of a unit variant; chrono's `"Monday"`) is refused with the
//! name to send, and an adjacently tagged unit operation holds nothing but `null`; another
//! crate's type is answered with the spelling it writes of what it read (`"+1"` as `"1"`,
//! `"9:44:55"` as `"09:44:55"`, `"MON"` as `"Mon"`). Judged
//! against both oracles at once: serde, and the `jsonschema` crate on the exact schema.

mod common;

use common::json;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use stitch::{Contract, Rendering, schema_of};

every_contract_here!(Closed, Open, Shade, Ops, Adjacent, Holds<String>);

#[derive(Contract, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Closed {
    #[serde(alias = "colour")]
    color: String,
    #[serde(default, alias = "size")]
    width: u32,
}

#[derive(Contract, Deserialize, Debug)]
#[allow(dead_code)]
struct Open {
    #[serde(alias = "colour")]
    color: String,
    #[serde(default, alias = "size")]
    width: u32,
}

#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Shade {
    #[serde(alias = "grey")]
    Gray,
    Black,
}

#[derive(Contract, Deserialize, Debug)]
#[serde(tag = "op", rename_all = "lowercase")]
#[allow(dead_code)]
enum Ops {
    #[serde(alias = "remove")]
    Delete {
        id: u32,
    },
    Keep {
        id: u32,
    },
}

#[derive(Contract, Deserialize, Debug)]
#[serde(tag = "op", content = "args")]
#[allow(dead_code)]
enum Adjacent {
    Stop,
    Go { speed: u32 },
}

/// What `parse` says of `args`, beside what serde and the exact schema say: `parse` takes a
/// call exactly when both do.
fn judged<T: Contract + DeserializeOwned>(args: Value) -> Result<T, String> {
    let serde_reads = serde_json::from_value::<T>(args.clone()).is_ok();
    let exact = json(schema_of::<T>(Rendering::Exact));
    let schema_states = jsonschema::options()
        .should_validate_formats(true)
        .build(&exact)
        .expect("a valid schema")
        .is_valid(&args);
    let parsed = T::parse(args.clone()).map_err(|rejection| {
        let issue = &rejection.issues[0];
        format!("{}: {}", issue.pointer, issue.message)
    });
    assert_eq!(
        parsed.is_ok(),
        serde_reads && schema_states,
        "{args}: serde reads it: {serde_reads}, the exact schema states it: {schema_states}, \
         parse: {:?}",
        parsed.as_ref().err()
    );
    parsed
}

#[test]
fn an_alias_is_taken_only_where_the_exact_schema_takes_its_key() {
    // An optional field of an object open to other keys: the schema takes the key.
    judged::<Open>(json!({"color": "red", "size": 3})).unwrap();
    // A required field's alias leaves the schema's required key missing.
    let required = judged::<Open>(json!({"colour": "red", "width": 3})).unwrap_err();
    assert_eq!(
        required,
        "/colour: \"colour\" is an alias serde reads but the schema does not state; \
         send it as \"color\""
    );
    // A closed object states no other key.
    let closed = judged::<Closed>(json!({"color": "red", "size": 3})).unwrap_err();
    assert_eq!(
        closed,
        "/size: \"size\" is an alias serde reads but the schema does not state; \
         send it as \"width\""
    );
    judged::<Closed>(json!({"color": "red", "width": 3})).unwrap();
}

#[test]
fn a_refused_alias_is_one_issue_not_a_missing_field_too() {
    let rejection = Closed::parse(json!({"colour": "red"})).unwrap_err();
    assert_eq!(rejection.issues.len(), 1, "{rejection:?}");
    assert_eq!(rejection.issues[0].pointer, "/colour");
}

#[test]
fn a_strict_client_is_shown_every_object_closed_so_no_alias_is_taken() {
    let rejection = Open::parse_for(
        json!({"color": "red", "size": 3}),
        stitch::Dialect::OpenAiStrict,
    )
    .unwrap_err();
    assert_eq!(rejection.issues[0].pointer, "/size");
    assert!(Open::parse(json!({"color": "red", "size": 3})).is_ok());
}

#[test]
fn a_unit_variant_alias_is_refused_with_the_value_it_stands_for() {
    assert_eq!(judged::<Shade>(json!("gray")), Ok(Shade::Gray));
    let grey = judged::<Shade>(json!("grey")).unwrap_err();
    assert_eq!(
        grey,
        ": must be one of \"gray\", \"black\", got string \"grey\" — send \"gray\", the value \
         it stands for"
    );
    assert_eq!(
        judged::<Shade>(json!("grau")).unwrap_err(),
        ": must be one of \"gray\", \"black\", got string \"grau\""
    );
}

#[test]
fn an_operation_alias_is_refused_with_the_operation_it_names() {
    judged::<Ops>(json!({"op": "delete", "id": 1})).unwrap();
    let alias = judged::<Ops>(json!({"op": "remove", "id": 1})).unwrap_err();
    assert_eq!(
        alias,
        "/op: unknown operation \"remove\" (an alias serde reads but the schema does not \
         state: send \"delete\"); valid: delete, keep"
    );
}

#[test]
fn an_adjacently_tagged_unit_operation_holds_nothing_but_null() {
    judged::<Adjacent>(json!({"op": "Stop"})).unwrap();
    judged::<Adjacent>(json!({"op": "Stop", "args": null})).unwrap();
    let empty = judged::<Adjacent>(json!({"op": "Stop", "args": {}})).unwrap_err();
    assert_eq!(
        empty,
        "/args: operation \"Stop\" takes no \"args\": leave it out or send null, got object"
    );
    judged::<Adjacent>(json!({"op": "Go", "args": {"speed": 3}})).unwrap();
}

/// A contract holding one value of `T`.
#[derive(Contract, Deserialize, Debug)]
#[allow(dead_code)]
struct Holds<T> {
    value: T,
}

/// The message of the one issue `parse` finds in `{"value": sent}`, after checking that serde
/// reads it (the spelling is one serde takes) and the exact schema refuses it.
fn respelled<T: stitch::Shape + DeserializeOwned + std::fmt::Debug>(sent: Value) -> String {
    let message = judged::<Holds<T>>(json!({ "value": sent })).unwrap_err();
    assert!(
        serde_json::from_value::<T>(sent.clone()).is_ok(),
        "serde reads {sent}"
    );
    message
}

#[cfg(feature = "chrono04")]
#[test]
fn chrono_spellings_are_answered_with_the_one_the_schema_states() {
    use chrono::{DateTime, FixedOffset, NaiveTime, Weekday};
    judged::<Holds<Weekday>>(json!({"value": "Mon"})).unwrap();
    let monday = respelled::<Weekday>(json!("Monday"));
    assert!(
        monday.ends_with("— send \"Mon\", the value it stands for"),
        "{monday}"
    );
    let time = respelled::<NaiveTime>(json!("14:30"));
    assert!(time.ends_with("— send it as \"14:30:00\""), "{time}");
    let offset = respelled::<DateTime<FixedOffset>>(json!("2026-12-05T10:00:00+0100"));
    assert!(
        offset.ends_with("— send it as \"2026-12-05T10:00:00+01:00\""),
        "{offset}"
    );
    let spaced = respelled::<DateTime<FixedOffset>>(json!("2026-12-05 10:00:00Z"));
    assert!(
        spaced.ends_with("— send it as \"2026-12-05T10:00:00Z\""),
        "{spaced}"
    );
}

#[cfg(feature = "uuid1")]
#[test]
fn a_uuid_in_another_form_is_answered_with_its_hyphenated_form() {
    let hyphenated =
        "— send the UUID in its hyphenated form: \"67e55044-10b1-426f-9247-bb680e5fe0c8\"";
    for form in [
        "67e5504410b1426f9247bb680e5fe0c8",
        "{67e55044-10b1-426f-9247-bb680e5fe0c8}",
        "urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8",
    ] {
        let message = respelled::<uuid::Uuid>(json!(form));
        assert!(message.ends_with(hyphenated), "{message}");
    }
}

#[cfg(feature = "url2")]
#[test]
fn a_url_the_url_crate_escapes_is_answered_escaped() {
    let message = respelled::<url::Url>(json!("https://example.com/café"));
    assert!(
        message.ends_with("— send the URL escaped: \"https://example.com/caf%C3%A9\""),
        "{message}"
    );
}

/// `parse`'s message for each spelling ends with the one to send, after `how` (`send it as`).
fn each_answered<T: stitch::Shape + DeserializeOwned + std::fmt::Debug>(
    how: &str,
    spellings: &[(&str, &str)],
) {
    for (sent, canonical) in spellings {
        let message = respelled::<T>(json!(sent));
        assert!(
            message.ends_with(&format!("— {how} \"{canonical}\"")),
            "{sent}: {message}"
        );
    }
}

/// `parse`'s message for each spelling ends with the one the type writes.
fn each_respelled<T: stitch::Shape + DeserializeOwned + std::fmt::Debug>(
    spellings: &[(&str, &str)],
) {
    each_answered::<T>("send it as", spellings);
}

#[cfg(feature = "rust_decimal1")]
#[test]
fn a_decimal_in_another_notation_is_answered_in_the_one_the_schema_states() {
    each_respelled::<rust_decimal::Decimal>(&[
        ("+1", "1"),
        (".5", "0.5"),
        ("1.", "1"),
        ("1_000", "1000"),
        ("1e3", "1000"),
    ]);
}

#[cfg(feature = "bigdecimal04")]
#[test]
fn a_big_decimal_in_another_notation_is_answered_in_the_one_the_schema_states() {
    each_respelled::<bigdecimal::BigDecimal>(&[
        ("+1", "1"),
        (".5", "0.5"),
        ("1.", "1"),
        ("1_000", "1000"),
    ]);
}

#[cfg(feature = "url2")]
#[test]
fn a_url_with_what_rfc_3986_refuses_is_answered_escaped() {
    each_answered::<url::Url>(
        "send the URL escaped:",
        &[
            ("https://example.com\\a\\b", "https://example.com/a/b"),
            ("https://example.com/a|b", "https://example.com/a%7Cb"),
            ("https://example.com/{a}", "https://example.com/%7Ba%7D"),
            (" https://example.com/a ", "https://example.com/a"),
            ("http://[::1]/a[b]", "http://[::1]/a%5Bb%5D"),
        ],
    );
}

#[cfg(feature = "chrono04")]
#[test]
fn chrono_reads_of_times_and_weekdays_are_answered_as_chrono_writes_them() {
    use chrono::{DateTime, NaiveTime, Utc, Weekday};
    each_respelled::<NaiveTime>(&[("9:44:55", "09:44:55"), (" 09:44:55 ", "09:44:55")]);
    each_respelled::<DateTime<Utc>>(&[(" 2026-12-05T10:00:00Z", "2026-12-05T10:00:00Z")]);
    for sent in ["MON", "mOnDaY"] {
        let message = respelled::<Weekday>(json!(sent));
        assert!(
            message.ends_with("— send \"Mon\", the value it stands for"),
            "{message}"
        );
    }
}

#[cfg(feature = "jiff02")]
#[test]
fn jiffs_compact_forms_are_answered_in_the_ones_the_schema_states() {
    each_respelled::<jiff::Timestamp>(&[("20240101T000000Z", "2024-01-01T00:00:00Z")]);
    each_respelled::<jiff::civil::Date>(&[("20240101", "2024-01-01")]);
    each_respelled::<jiff::civil::Time>(&[("000000", "00:00:00"), ("T09:30", "09:30:00")]);
    each_respelled::<jiff::civil::DateTime>(&[("20240101T093000", "2024-01-01T09:30:00")]);
    each_respelled::<jiff::Span>(&[("pt1h30m", "PT1H30M"), ("1h 30m", "PT1H30M")]);
}

#[test]
fn a_struct_sent_as_the_array_of_its_values_is_answered_with_the_object() {
    let message = respelled::<std::time::Duration>(json!([1, 5]));
    assert!(
        message.ends_with(r#"— send it as an object of its keys: {"secs":1,"nanos":5}"#),
        "{message}"
    );
    let long = "x".repeat(200);
    let message = respelled::<std::ops::Range<String>>(json!([long, "y"]));
    assert!(
        message.ends_with(r#"— send it as an object of the keys "start", "end""#),
        "{message}"
    );
}

#[test]
fn a_set_sent_with_a_repeat_is_told_to_send_each_once() {
    let message = respelled::<std::collections::BTreeSet<u8>>(json!([1, 1]));
    assert!(message.ends_with("— send each once"), "{message}");
}

#[cfg(feature = "bytes1")]
#[test]
fn bytes_sent_as_text_are_told_to_come_as_numbers() {
    let message = respelled::<bytes::Bytes>(json!("hello"));
    assert!(
        message.ends_with("— send the bytes as an array of numbers from 0 to 255, not text"),
        "{message}"
    );
}
