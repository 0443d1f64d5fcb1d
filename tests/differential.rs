//! The differential: for every field type stitch describes, values drawn three ways (what the
//! IR says is valid, those values respelled as a careless client might, and arbitrary JSON),
//! each judged by serde, `parse`, the exact schema and each dialect's schema (the `jsonschema`
//! crate) and `parse_for`. It fails on a value serde reads that the exact schema does not
//! state and whose rejection names no spelling to send; on a value `parse` takes that serde
//! refuses or reads otherwise; on a value the exact schema states that `parse` refuses; and,
//! in each dialect the guard reports nothing of, on a value `parse` takes that the dialect's
//! schema refuses as its client sends it, or `parse_for` reads otherwise.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{NonZeroI32, NonZeroU16};
use std::ops::Range;
use std::path::PathBuf;
use std::time::Duration;

use common::{fill, inexpressible, json, values};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use stitch::{Contract, Dialect, Rendering, Shape, schema_of};

/// A contract holding one value of `T`.
#[derive(stitch::Contract, serde::Deserialize, Debug, PartialEq)]
struct Holds<T> {
    value: T,
}

/// Spellings a client may send for a value of some type, not all of them ones its schema
/// states: numbers in text, other notations, other cases, other separators, spaces.
const SPELLINGS: &[&str] = &[
    "1",
    "-1",
    "+1",
    ".5",
    "1.",
    "1_000",
    "1e3",
    "1E-7",
    " 1 ",
    "0x10",
    "NaN",
    "true",
    "yes",
    "",
    " ",
    "9:44:55",
    "09:44",
    "24:00:00",
    "MON",
    "monday",
    "Mon",
    "January",
    "2024-01-01",
    "2024-01-01 00:00:00",
    "2024-01-01T00:00:00",
    "2024-01-01T00:00:00Z",
    "20240101",
    "20240101T000000Z",
    "2024-01-01T00:00:00+0100",
    "PT1H",
    "pt1h30m",
    "1h 30m",
    "P1D",
    "1.500000000",
    "+01:00:00",
    "::1",
    "::ffff:1.2.3.4",
    "2001:db8::1:1.2.3.4",
    "1.2.3.4",
    "01.2.3.4",
    "1.2.3.4:080",
    "[::1]:80",
    "[::1%7]:80",
    "https://example.com/a|b",
    "https://example.com\\a",
    "HTTPS://EXAMPLE.COM/",
    "67e5504410b1426f9247bb680e5fe0c8",
    "{67e55044-10b1-426f-9247-bb680e5fe0c8}",
    "67e55044-10b1-426f-9247-bb680e5fe0c8",
    "1.2.3",
    "v1.2.3",
    "1.2",
    ">=1.2, <2",
    "/tmp/a b",
    "aGVsbG8=",
];

/// Arbitrary JSON a client may send in a value's place: scalars, spellings, and small arrays
/// and objects of them.
fn arbitrary_json() -> impl Strategy<Value = Value> {
    let scalar = prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |float| float.is_finite())
            .prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        Just(Value::Null),
        proptest::sample::select(SPELLINGS).prop_map(Value::from),
        "[ 0-9a-fA-F:.+_eEPTZz%\\[\\]-]{0,20}".prop_map(Value::from),
    ];
    scalar.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z]{1,5}", inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// A valid value respelled as a careless client might: its text in other cases, spaced or
/// without separators, a number in text, an object as the array of its values.
fn respelled(value: Value, how: u8) -> Value {
    match (value, how % 6) {
        (Value::String(text), 0) => Value::String(text.to_uppercase()),
        (Value::String(text), 1) => Value::String(text.to_lowercase()),
        (Value::String(text), 2) => Value::String(format!(" {text} ")),
        (Value::String(text), 3) => Value::String(text.replace([':', '-'], "")),
        (Value::Number(number), _) => Value::String(number.to_string()),
        (Value::Object(map), 4) => Value::Array(map.into_iter().map(|(_, value)| value).collect()),
        (value, _) => value,
    }
}

/// Judges `value` as the value of a `Holds<T>`, and fails on any disagreement the module
/// documentation names.
fn judge<T>(
    value: &Value,
    exact: &jsonschema::Validator,
    dialects: &[Shown],
) -> Result<(), TestCaseError>
where
    T: Shape + DeserializeOwned + Debug + PartialEq,
{
    let call = json!({ "value": value });
    let read = serde_json::from_value::<T>(value.clone());
    let parsed = Holds::<T>::parse(call.clone()).map(|held| held.value);
    match (&read, &parsed) {
        (Ok(read), Ok(parsed)) => prop_assert_eq!(read, parsed, "{}", call),
        // JSON Schema counts `2.0` as an integer, and `parse` hands serde the integer.
        (Err(why), Ok(parsed)) => match serde_json::from_value::<T>(integral(value)) {
            Ok(read) => prop_assert_eq!(&read, parsed, "{}", call),
            Err(_) => prop_assert!(
                false,
                "{call}: parse takes {parsed:?}, serde refuses it: {why}"
            ),
        },
        // serde reads a number past an `f32` as infinity, which no JSON says: the range
        // `parse` names is the answer.
        (Ok(read), Err(_)) if reads_infinity(read) => {}
        (Ok(read), Err(rejection)) => {
            prop_assert!(
                !exact.is_valid(&call),
                "{call}: the exact schema states it and serde reads {read:?}, but parse refuses it: {rejection}"
            );
            prop_assert!(
                rejection.to_string().contains(" — send"),
                "{call}: serde reads {read:?}, which no schema states, and the rejection names nothing to send: {rejection}"
            );
        }
        (Err(_), Err(_)) => {}
    }
    let Ok(parsed) = parsed else {
        return Ok(());
    };
    for shown in dialects {
        let sent = fill(Holds::<T>::SHAPE, &call, shown.dialect, &shown.schema);
        prop_assert!(
            shown.oracle.is_valid(&sent),
            "{}: {} refuses {sent}, which parse takes",
            shown.dialect,
            shown.schema
        );
        match Holds::<T>::parse_for(sent.clone(), shown.dialect) {
            Ok(held) => prop_assert_eq!(&held.value, &parsed, "{}: {}", shown.dialect, sent),
            Err(rejection) => {
                prop_assert!(false, "{}: {sent} is refused: {rejection}", shown.dialect)
            }
        }
    }
    Ok(())
}

/// Whether serde's reading holds an infinity (a number past an `f32`'s range).
fn reads_infinity(read: &impl Debug) -> bool {
    format!("{read:?}")
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|token| token == "inf")
}

/// The value with each integral float written as the integer it is.
fn integral(value: &Value) -> Value {
    match value {
        Value::Number(number) if number.is_f64() => number
            .as_f64()
            .filter(|float| float.fract() == 0.0)
            .and_then(|float| {
                // As `parse` reads it: an `i64` where one holds it, else a `u64`.
                if (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&float) {
                    Some(json!(float as i64))
                } else if (0.0..1.844_674_407_370_955_2e19).contains(&float) {
                    Some(json!(float as u64))
                } else {
                    None
                }
            })
            .unwrap_or_else(|| value.clone()),
        Value::Array(items) => Value::Array(items.iter().map(integral).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), integral(value)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A dialect's schema and its oracle (formats judged).
struct Shown {
    dialect: Dialect,
    schema: Value,
    oracle: jsonschema::Validator,
}

/// A validator that judges formats too.
fn judging_formats(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("a valid schema")
}

/// The differential for one type: `cases` values of each kind.
fn differential<T>(cases: u32)
where
    T: Shape + DeserializeOwned + Debug + PartialEq,
{
    let exact = judging_formats(&json(schema_of::<Holds<T>>(Rendering::Exact)));
    // The dialects the guard reports nothing of: their schema must hold every call.
    let dialects: Vec<Shown> = Dialect::ALL
        .iter()
        .copied()
        .filter(|dialect| inexpressible::<Holds<T>>(*dialect).is_empty())
        .map(|dialect| {
            let schema = json(Holds::<T>::input_schema_for(dialect));
            let oracle = judging_formats(&schema);
            Shown {
                dialect,
                schema,
                oracle,
            }
        })
        .collect();
    let valid = values(Holds::<T>::SHAPE).prop_map(|held| held["value"].clone());
    let drawn = prop_oneof![
        2 => valid.clone(),
        2 => (valid, any::<u8>()).prop_map(|(value, how)| respelled(value, how)),
        1 => arbitrary_json(),
    ];
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    // The same draws on every run, so that CI judges a commit once and for all;
    // `PROPTEST_RNG_SEED=<n>` draws others (each was run so before it was kept).
    let rng_seed = match config.rng_seed {
        RngSeed::Random => RngSeed::Fixed(0x5717_c4ed),
        chosen => chosen,
    };
    let mut runner = TestRunner::new(Config { rng_seed, ..config });
    if let Err(failure) = runner.run(&drawn, |value| judge::<T>(&value, &exact, &dialects)) {
        panic!("{}: {failure}", std::any::type_name::<T>());
    }
}

/// One test per type, each with its own name; and each type's contract in the schema
/// snapshot, each its own part of the file's export.
macro_rules! differentials {
    ($($(#[$meta:meta])* $name:ident: $ty:ty,)*) => {$(
        $(#[$meta])*
        #[test]
        fn $name() {
            differential::<$ty>(1000);
        }

        $(#[$meta])*
        mod $name {
            use super::*;
            every_contract_here_is_in_the_snapshot!(
                in concat!("_", stringify!($name));
                Holds<$ty>
            );
        }
    )*};
}

differentials! {
    a_bool: bool,
    an_i8: i8,
    a_u16: u16,
    an_i32: i32,
    a_u64: u64,
    an_i64: i64,
    a_u128: u128,
    an_f32: f32,
    an_f64: f64,
    a_char: char,
    a_string: String,
    an_option: Option<u8>,
    a_vec: Vec<i16>,
    a_set: BTreeSet<u8>,
    a_map: BTreeMap<String, bool>,
    a_hash_map: HashMap<String, u8>,
    a_tuple: (u8, String),
    a_range: Range<u32>,
    a_duration: Duration,
    a_path: PathBuf,
    a_system_time: std::time::SystemTime,
    a_boxed_str: Box<str>,
    an_optional_list: Option<Vec<String>>,
    a_pair_of_floats: (f64, f32),
    a_non_zero_u16: NonZeroU16,
    a_non_zero_i32: NonZeroI32,
    an_ip: IpAddr,
    an_ipv4: Ipv4Addr,
    an_ipv6: Ipv6Addr,
    a_socket: SocketAddr,
    a_socket_v4: SocketAddrV4,
    a_socket_v6: SocketAddrV6,
    #[cfg(feature = "uuid1")]
    a_uuid: uuid::Uuid,
    #[cfg(feature = "url2")]
    a_url: url::Url,
    #[cfg(feature = "semver1")]
    a_version: semver::Version,
    #[cfg(feature = "semver1")]
    a_version_requirement: semver::VersionReq,
    #[cfg(feature = "rust_decimal1")]
    a_decimal: rust_decimal::Decimal,
    #[cfg(feature = "bigdecimal04")]
    a_big_decimal: bigdecimal::BigDecimal,
    #[cfg(feature = "chrono04")]
    a_chrono_date_time: chrono::DateTime<chrono::Utc>,
    #[cfg(feature = "chrono04")]
    a_chrono_date: chrono::NaiveDate,
    #[cfg(feature = "chrono04")]
    a_chrono_time: chrono::NaiveTime,
    #[cfg(feature = "chrono04")]
    a_chrono_civil: chrono::NaiveDateTime,
    #[cfg(feature = "chrono04")]
    a_chrono_weekday: chrono::Weekday,
    #[cfg(feature = "jiff02")]
    a_jiff_timestamp: jiff::Timestamp,
    #[cfg(feature = "jiff02")]
    a_jiff_date: jiff::civil::Date,
    #[cfg(feature = "jiff02")]
    a_jiff_time: jiff::civil::Time,
    #[cfg(feature = "jiff02")]
    a_jiff_civil: jiff::civil::DateTime,
    #[cfg(feature = "jiff02")]
    a_jiff_duration: jiff::SignedDuration,
    #[cfg(feature = "jiff02")]
    a_jiff_zoned: jiff::Zoned,
    #[cfg(feature = "time03")]
    a_time_date: time::Date,
    #[cfg(feature = "time03")]
    a_time_offset: time::UtcOffset,
    #[cfg(feature = "time03")]
    a_time_weekday: time::Weekday,
    #[cfg(feature = "time03")]
    a_time_month: time::Month,
    #[cfg(feature = "time03")]
    a_time_of_day: time::Time,
    #[cfg(feature = "time03")]
    a_time_date_time: time::OffsetDateTime,
    #[cfg(feature = "time03")]
    a_time_duration: time::Duration,
    #[cfg(feature = "indexmap2")]
    an_index_map: indexmap::IndexMap<String, u8>,
    #[cfg(feature = "smallvec1")]
    a_small_vec: smallvec::SmallVec<[u8; 4]>,
    #[cfg(feature = "bytes1")]
    some_bytes: bytes::Bytes,
}
