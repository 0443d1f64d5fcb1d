//! The types servers hold, each advertised as its serde form is: what serde writes of a value
//! is accepted by the advertised schema in every dialect (the `jsonschema` crate judges it,
//! formats included), and `parse` reads it back to the same value; what serde refuses, `parse`
//! refuses with an issue at its pointer.

mod common;

use std::fmt::Debug;

use common::json;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use stitch::{Contract, Dialect, IssueCode, SchemaProfile, Shape, guard::FindingKind};

/// A contract holding one value of `T`.
#[derive(stitch::Contract, serde::Deserialize, Debug, PartialEq)]
struct Holds<T> {
    value: T,
}

/// What serde writes of each sample is accepted in every dialect that can say the type (all
/// but strict modes for a map, which they close) and parsed back to it.
fn round_trips<T>(samples: &[T])
where
    T: Shape + DeserializeOwned + Serialize + PartialEq + Debug,
{
    let sayable: Vec<Dialect> = Dialect::ALL
        .iter()
        .copied()
        .filter(|dialect| {
            let profile = SchemaProfile::new().dialect(*dialect);
            stitch::guard::check(&[Holds::<T>::TOOL.into()], &profile)
                .iter()
                .all(|finding| finding.kind() != FindingKind::Inexpressible)
        })
        .collect();
    assert!(sayable.contains(&Dialect::Mcp));
    for sample in samples {
        let written = serde_json::to_value(sample).expect("the sample serializes");
        let call = json!({ "value": written });
        accepted_in::<T>(&sayable, &call, &format!("what serde writes of {sample:?}"));
        match Holds::<T>::parse(call.clone()) {
            Ok(parsed) => assert_eq!(&parsed.value, sample, "{call}"),
            Err(rejection) => panic!("{call} is refused: {rejection}"),
        }
    }
}

/// Each dialect's schema accepts the call as its client sends it (a strict client sends a map
/// as its entries), formats judged.
fn accepted_in<T: Shape + DeserializeOwned>(dialects: &[Dialect], call: &Value, what: &str) {
    for dialect in dialects.iter().copied() {
        let schema = json(Holds::<T>::input_schema_for(dialect));
        let call = common::entries_where_shown(&schema, call);
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("a valid schema");
        assert!(
            validator.is_valid(&call),
            "{dialect}: {schema} rejects {call}, {what}"
        );
    }
}

/// A spelling serde reads (not the one it writes) is accepted in every dialect that can say
/// the type, and `parse` reads it to serde's value.
fn read_alike<T>(spellings: &[&str])
where
    T: Shape + DeserializeOwned + PartialEq + Debug,
{
    for spelling in spellings {
        let call = json!({ "value": spelling });
        let read: T = serde_json::from_value(json!(spelling)).expect("serde reads it");
        accepted_in::<T>(Dialect::ALL, &call, "a spelling serde reads");
        match Holds::<T>::parse(call.clone()) {
            Ok(parsed) => assert_eq!(parsed.value, read, "{call}"),
            Err(rejection) => panic!("{call} is refused: {rejection}"),
        }
    }
}

/// `parse` refuses the value with an issue of `code` at `/value`.
fn refused<T>(value: Value, code: IssueCode)
where
    T: Shape + DeserializeOwned + Debug,
{
    let call = json!({ "value": value });
    let rejection = Holds::<T>::parse(call.clone()).expect_err("refused");
    let issue = &rejection.issues[0];
    assert!(
        issue.pointer.starts_with("/value"),
        "{call}: {}",
        issue.pointer
    );
    assert_eq!(issue.code, code, "{call}: {}", issue.message);
}

/// The schema of `T`'s property.
fn property<T: Shape + DeserializeOwned>() -> Value {
    json(Holds::<T>::input_schema())["properties"]["value"].clone()
}

mod standard {
    use std::cell::{Cell, RefCell};
    use std::cmp::Reverse;
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
    use std::num::{NonZeroI32, Saturating, Wrapping};
    use std::ops::{Range, RangeFrom, RangeInclusive, RangeTo};
    use std::path::PathBuf;
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use super::*;

    // Every type this module holds, each in every dialect and in the schema snapshot, but
    // one, in the snapshot only: `Holds<NonZeroI32>` says its two ranges as `anyOf` in `mcp`,
    // `openai-strict` and `gemini`, which the harness refuses in a contract's flat input (no
    // union or object is an `anyOf`; the README names this value type as the one exception).
    // Its own test below says what each dialect shows.
    every_contract_here_is_in_the_snapshot!(in "_standard_any_of"; Holds<NonZeroI32>);
    every_contract_here!(
        in "_standard";
        Holds<Ipv4Addr>,
        Holds<Ipv6Addr>,
        Holds<IpAddr>,
        Holds<SocketAddr>,
        Holds<SocketAddrV4>,
        Holds<SocketAddrV6>,
        Holds<PathBuf>,
        Holds<Duration>,
        Holds<SystemTime>,
        Holds<(i32, String)>,
        Holds<(u8,)>,
        Holds<(bool, f64, Vec<u8>)>,
        Holds<(f64, f64)>,
        Holds<Range<u8>>,
        Holds<RangeInclusive<i64>>,
        Holds<RangeFrom<u16>>,
        Holds<RangeTo<u32>>,
        Holds<Wrapping<u8>>,
        Holds<Saturating<i16>>,
        Holds<Reverse<String>>,
        Holds<Cell<u32>>,
        Holds<RefCell<Vec<u8>>>,
        Holds<std::sync::atomic::AtomicU8>,
    );

    #[test]
    fn addresses_are_strings_of_their_form() {
        let v4 = Ipv4Addr::new(192, 168, 0, 1);
        let v6: Ipv6Addr = "fe80::1".parse().unwrap();
        round_trips(&[v4]);
        round_trips(&[v6, Ipv6Addr::LOCALHOST]);
        round_trips(&[IpAddr::V4(v4), IpAddr::V6(v6)]);
        round_trips(&[
            SocketAddr::new(IpAddr::V4(v4), 8080),
            "[::1]:443".parse().unwrap(),
        ]);
        round_trips(&[SocketAddrV4::new(v4, 1)]);
        round_trips(&[SocketAddrV6::new(v6, 80, 0, 2)]);
        assert_eq!(property::<Ipv4Addr>()["format"], "ipv4");
        assert_eq!(property::<Ipv6Addr>()["format"], "ipv6");
        // The patterns say what Rust reads: an octet to 255, a port to 65535.
        refused::<IpAddr>(json!("999.1.1.1"), IssueCode::Pattern);
        refused::<IpAddr>(json!("01.2.3.4"), IssueCode::Pattern);
        refused::<IpAddr>(json!(":::"), IssueCode::Pattern);
        refused::<SocketAddr>(json!("1.2.3.4:99999"), IssueCode::Pattern);
        refused::<IpAddr>(json!("localhost"), IssueCode::Pattern);
    }

    #[test]
    fn addresses_are_read_in_every_spelling_rust_reads() {
        // An IPv4 tail after a `::`, in each place RFC 4291 allows one.
        let tails = [
            "2001:db8::1:1.2.3.4",
            "0::ffff:1.2.3.4",
            "::1:2:1.2.3.4",
            "1:2:3:4:5::1.2.3.4",
        ];
        read_alike::<IpAddr>(&tails);
        read_alike::<Ipv6Addr>(&tails);
        read_alike::<SocketAddr>(&["[2001:db8::1:1.2.3.4]:80", "1.2.3.4:080"]);
        read_alike::<SocketAddrV6>(&["[2001:db8::1:1.2.3.4%007]:0080"]);
        read_alike::<SocketAddrV4>(&["1.2.3.4:080"]);
        // Never an IPv4 address before the `::`, nor a scope past a `u32`.
        refused::<IpAddr>(json!("1.2.3.4::1"), IssueCode::Pattern);
        refused::<SocketAddr>(json!("[::1%4294967296]:80"), IssueCode::Pattern);
    }

    #[test]
    fn paths_are_strings() {
        round_trips(&[PathBuf::from("/tmp/a b"), PathBuf::from("relative")]);
        assert_eq!(property::<PathBuf>()["type"], "string");
    }

    #[test]
    fn durations_and_times_are_serde_objects() {
        round_trips(&[Duration::from_millis(1500), Duration::ZERO]);
        round_trips(&[UNIX_EPOCH + Duration::from_millis(1500), UNIX_EPOCH]);
        let duration = property::<Duration>();
        assert_eq!(duration["required"], json!(["secs", "nanos"]));
        assert_eq!(duration["additionalProperties"], false);
        refused::<Duration>(json!({"secs": 1}), IssueCode::MissingRequired);
        refused::<Duration>(
            json!({"secs": 1, "nanos": 0, "ms": 5}),
            IssueCode::UnknownKey,
        );
        refused::<Duration>(
            json!({"secs": u64::MAX, "nanos": 2_000_000_000u32}),
            IssueCode::InvalidValue,
        );
        let _: Option<SystemTime> = None;
    }

    #[test]
    fn tuples_are_arrays_position_by_position() {
        round_trips(&[(1i32, "a".to_owned()), (-5, String::new())]);
        round_trips(&[(7u8,)]);
        round_trips(&[(true, 2.5f64, vec![1u8, 2])]);
        let pair = property::<(i32, String)>();
        assert_eq!(pair["prefixItems"][0]["type"], "integer");
        assert_eq!(pair["prefixItems"][1]["type"], "string");
        assert_eq!(
            (&pair["minItems"], &pair["maxItems"]),
            (&json!(2), &json!(2))
        );
        assert!(pair.get("items").is_none(), "no boolean schema: {pair}");
        for dialect in [
            Dialect::Portable,
            Dialect::OpenAiStrict,
            Dialect::AnthropicStrict,
        ] {
            let schema = json(Holds::<(f64, f64)>::input_schema_for(dialect));
            let point = &schema["properties"]["value"];
            assert_eq!(point["items"]["type"], "number", "{dialect}: {point}");
            let description = point["description"].as_str().unwrap_or_default();
            assert!(
                description.contains("Exactly 2 items, in order: a number, a number."),
                "{dialect}: {point}"
            );
        }
        refused::<(i32, String)>(json!([1]), IssueCode::MinItems);
        refused::<(i32, String)>(json!([1, "a", 2]), IssueCode::MaxItems);
        let call = json!({"value": [1, 2]});
        let rejection = Holds::<(i32, String)>::parse(call).unwrap_err();
        assert_eq!(rejection.issues[0].pointer, "/value/1");
    }

    #[test]
    fn ranges_are_objects_of_their_bounds() {
        round_trips(&[Range { start: 1u8, end: 5 }]);
        round_trips(&[RangeInclusive::new(-3i64, 3)]);
        round_trips(&[RangeFrom { start: 2u16 }]);
        round_trips(&[RangeTo { end: 9u32 }]);
        refused::<Range<u8>>(json!({"start": 1}), IssueCode::MissingRequired);
    }

    #[test]
    fn wrappers_are_their_contents() {
        round_trips(&[Wrapping(5u8)]);
        round_trips(&[Saturating(-5i16)]);
        round_trips(&[Reverse("z".to_owned())]);
        round_trips(&[Cell::new(3u32)]);
        round_trips(&[RefCell::new(vec![1u8])]);
        assert_eq!(property::<Wrapping<u8>>()["maximum"], 255);
        assert_eq!(property::<std::sync::atomic::AtomicU8>(), property::<u8>());
    }

    #[test]
    fn a_signed_non_zero_integer_is_stated_without_its_zero() {
        round_trips(&[
            NonZeroI32::new(-4).unwrap(),
            NonZeroI32::MAX,
            NonZeroI32::MIN,
        ]);
        let zero = Holds::<NonZeroI32>::parse(json!({"value": 0})).expect_err("refused");
        assert_eq!(zero.issues[0].pointer, "/value");
        assert_eq!(
            zero.issues[0].message,
            "expected integer from -2147483648 to -1 or integer from 1 to 2147483647, got number 0"
        );
        // The README's example, as the `mcp` dialect writes it.
        assert_eq!(
            json(Holds::<std::num::NonZeroI8>::input_schema())["properties"]["value"],
            json!({"anyOf": [
                {"type": "integer", "minimum": -128, "maximum": -1},
                {"type": "integer", "minimum": 1, "maximum": 127},
            ]})
        );
        let schema = json(Holds::<NonZeroI32>::input_schema());
        let oracle = common::validator(&schema);
        assert!(!oracle.is_valid(&json!({"value": 0})), "{schema}");
        assert!(oracle.is_valid(&json!({"value": -1})), "{schema}");
        assert!(
            !oracle.is_valid(&json!({"value": 2147483648u32})),
            "{schema}"
        );
        // Where a dialect's schema takes the zero, its words say the ranges: as the keywords
        // it does not take, or, where it merges the ranges, a note the guard reports.
        for dialect in Dialect::ALL.iter().copied() {
            let schema = json(Holds::<NonZeroI32>::input_schema_for(dialect));
            let takes_zero = common::validator(&schema).is_valid(&json!({"value": 0}));
            let found = !common::inexpressible::<Holds<NonZeroI32>>(dialect).is_empty();
            let text = schema["properties"]["value"].to_string();
            let in_words = text.contains("maximum: -1") || text.contains("from 1 to 2147483647");
            assert_eq!(takes_zero, in_words, "{dialect}: {schema}");
            assert_eq!(
                found,
                text.contains("In one of these ranges"),
                "{dialect}: {schema}"
            );
        }
        let portable = json(Holds::<NonZeroI32>::input_schema_for(Dialect::Portable));
        assert_eq!(
            portable["properties"]["value"]["description"],
            "In one of these ranges: from -2147483648 to -1; from 1 to 2147483647."
        );
    }
}

#[cfg(all(
    feature = "uuid1",
    feature = "chrono04",
    feature = "time03",
    feature = "jiff02"
))]
mod dates_and_ids {
    use super::*;

    // Every type this module holds, each in every dialect and in the schema snapshot.
    every_contract_here!(
        in "_dates_and_ids";
        Holds<uuid::Uuid>,
        Holds<chrono::DateTime<chrono::Utc>>,
        Holds<chrono::DateTime<chrono::FixedOffset>>,
        Holds<chrono::NaiveDate>,
        Holds<chrono::NaiveTime>,
        Holds<chrono::NaiveDateTime>,
        Holds<chrono::Weekday>,
        Holds<time::Date>,
        Holds<time::Time>,
        Holds<time::PrimitiveDateTime>,
        Holds<time::OffsetDateTime>,
        Holds<time::UtcOffset>,
        Holds<time::Duration>,
        Holds<time::Month>,
        Holds<time::Weekday>,
        Holds<jiff::Timestamp>,
        Holds<jiff::Zoned>,
        Holds<jiff::civil::Date>,
        Holds<jiff::civil::Time>,
        Holds<jiff::civil::DateTime>,
        Holds<jiff::SignedDuration>,
        Holds<jiff::Span>,
    );

    #[test]
    fn uuids_are_uuid_strings() {
        round_trips(&[uuid::Uuid::nil(), uuid::Uuid::from_u128(0x1234_5678_9abc)]);
        assert_eq!(property::<uuid::Uuid>()["format"], "uuid");
        refused::<uuid::Uuid>(json!("not-a-uuid"), IssueCode::Format);
    }

    #[test]
    fn chrono_writes_rfc_3339_and_its_civil_forms() {
        use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, Utc, Weekday};
        let date = NaiveDate::from_ymd_opt(2026, 12, 3).unwrap();
        let time = NaiveTime::from_hms_milli_opt(10, 0, 1, 500).unwrap();
        round_trips(&[
            DateTime::<Utc>::from_timestamp(0, 5).unwrap(),
            DateTime::<Utc>::from_timestamp(1_800_000_000, 0).unwrap(),
        ]);
        round_trips(&[
            DateTime::<FixedOffset>::parse_from_rfc3339("2026-12-03T10:00:00+01:00").unwrap(),
        ]);
        round_trips(&[date]);
        round_trips(&[time, NaiveTime::from_hms_opt(23, 59, 59).unwrap()]);
        round_trips(&[date.and_time(time)]);
        round_trips(&[Weekday::Mon, Weekday::Sun]);
        assert_eq!(property::<DateTime<Utc>>()["format"], "date-time");
        assert_eq!(property::<NaiveDate>()["format"], "date");
        refused::<NaiveTime>(json!("25:00:00"), IssueCode::InvalidValue);
        refused::<NaiveDate>(json!("2026-02-31"), IssueCode::Format);
        // chrono reads a space for the `T`; RFC 3339's `date-time` does not, nor `parse`.
        refused::<DateTime<Utc>>(json!("2016-12-31 23:59:59Z"), IssueCode::Format);
        // serde reads full names too, which the schema does not state: `parse` names the
        // one to send (tests/spellings.rs).
        refused::<Weekday>(json!("monday"), IssueCode::Enum);
    }

    #[test]
    fn time_writes_its_human_readable_forms() {
        use time::macros::{date, datetime, offset, time};
        round_trips(&[date!(2026 - 12 - 03)]);
        round_trips(&[time!(10:00), time!(10:00:01.5)]);
        round_trips(&[datetime!(2026-12-03 10:00)]);
        round_trips(&[
            datetime!(2026-12-03 10:00 +1),
            datetime!(2026-12-03 10:00 -5:30),
        ]);
        round_trips(&[offset!(+1), offset!(-5:30)]);
        round_trips(&[
            time::Duration::seconds_f64(1.5),
            time::Duration::seconds_f64(-0.25),
        ]);
        round_trips(&[time::Month::March, time::Month::December]);
        round_trips(&[time::Weekday::Monday]);
    }

    #[test]
    fn jiff_writes_rfc_3339_rfc_9557_and_iso_8601() {
        let timestamp: jiff::Timestamp = "2024-07-11T01:14:00Z".parse().unwrap();
        round_trips(&[timestamp]);
        round_trips(&[timestamp.to_zoned(jiff::tz::TimeZone::UTC)]);
        round_trips(&[jiff::civil::date(2024, 7, 10)]);
        round_trips(&[jiff::civil::time(21, 14, 0, 500)]);
        round_trips(&[jiff::civil::date(2024, 7, 10).at(21, 14, 0, 0)]);
        round_trips(&[
            jiff::SignedDuration::from_secs(5400),
            jiff::SignedDuration::from_secs(-60),
        ]);
        // A span compares by its units: written and read back, it keeps them.
        let span = jiff::Span::new().hours(1).minutes(30);
        let written = serde_json::to_value(span).unwrap();
        let parsed = Holds::<jiff::Span>::parse(json!({ "value": written })).unwrap();
        assert_eq!(parsed.value.fieldwise(), span.fieldwise());
    }
}

#[cfg(all(
    feature = "url2",
    feature = "rust_decimal1",
    feature = "bigdecimal04",
    feature = "semver1"
))]
mod text_forms {
    use super::*;

    // Every type this module holds, each in every dialect and in the schema snapshot.
    every_contract_here!(
        in "_text_forms";
        Holds<url::Url>,
        Holds<rust_decimal::Decimal>,
        Holds<bigdecimal::BigDecimal>,
        Holds<semver::Version>,
        Holds<semver::VersionReq>,
    );

    #[test]
    fn urls_are_uris() {
        round_trips(&[url::Url::parse("https://a.example/b?c=d#e").unwrap()]);
        assert_eq!(property::<url::Url>()["format"], "uri");
        refused::<url::Url>(json!("not a url"), IssueCode::Format);
    }

    #[test]
    fn decimals_are_strings_that_lose_no_digit_or_numbers() {
        use rust_decimal::Decimal;
        round_trips(&[Decimal::new(-15, 3), Decimal::new(12_345, 0)]);
        refused::<Decimal>(json!("1.5.5"), IssueCode::Pattern);
        refused::<Decimal>(
            json!("99999999999999999999999999999999"),
            IssueCode::InvalidValue,
        );
        // A model sends a price as a number: serde reads it, and so does every dialect.
        let price = json!({"value": 9.99});
        assert_eq!(
            Holds::<Decimal>::parse(price.clone()).unwrap().value,
            Decimal::new(999, 2)
        );
        let read: bigdecimal::BigDecimal = Holds::<bigdecimal::BigDecimal>::parse(price.clone())
            .unwrap()
            .value;
        // From the JSON number, serde reads the double nearest 9.99 (exactly, without
        // `arbitrary_precision`).
        assert_eq!(
            read.with_scale(2),
            "9.99".parse::<bigdecimal::BigDecimal>().unwrap()
        );
        for &dialect in stitch::Dialect::ALL {
            let schema = json(Holds::<Decimal>::input_schema_for(dialect));
            let validator = jsonschema::validator_for(&schema).unwrap();
            assert!(validator.is_valid(&price), "{dialect}: {schema}");
        }
        refused::<Decimal>(json!(true), IssueCode::InvalidType);
        let big: bigdecimal::BigDecimal = "12345678901234567890123.5".parse().unwrap();
        let tiny: bigdecimal::BigDecimal = "1e-7".parse().unwrap();
        let huge: bigdecimal::BigDecimal = "1e30".parse().unwrap();
        round_trips(&[big, tiny, huge]);
    }

    #[test]
    fn versions_are_semver_strings() {
        round_trips(&[semver::Version::parse("1.2.3-rc.1+b5").unwrap()]);
        round_trips(&[semver::VersionReq::parse(">=1.2, <2").unwrap()]);
        refused::<semver::Version>(json!("1.2"), IssueCode::Pattern);
        refused::<semver::Version>(json!("99999999999999999999.0.0"), IssueCode::InvalidValue);
    }
}

#[cfg(all(feature = "indexmap2", feature = "smallvec1", feature = "bytes1"))]
mod containers {
    use super::*;

    // Every type this module holds, each in every dialect and in the schema snapshot.
    every_contract_here!(
        in "_containers";
        Holds<indexmap::IndexMap<String, u8>>,
        Holds<indexmap::IndexSet<String>>,
        Holds<smallvec::SmallVec<[u8; 4]>>,
        Holds<bytes::Bytes>,
    );

    #[test]
    fn containers_are_arrays_and_maps() {
        let map: indexmap::IndexMap<String, u8> = [("b".to_owned(), 1), ("a".to_owned(), 2)]
            .into_iter()
            .collect();
        round_trips(&[map]);
        let set: indexmap::IndexSet<String> = ["x".to_owned(), "y".to_owned()].into();
        round_trips(&[set]);
        assert_eq!(
            property::<indexmap::IndexSet<String>>()["uniqueItems"],
            true
        );
        round_trips(&[smallvec::SmallVec::<[u8; 4]>::from_slice(&[1, 2, 3, 4, 5])]);
        round_trips(&[bytes::Bytes::from_static(b"ab")]);
        assert_eq!(property::<bytes::Bytes>()["items"]["maximum"], 255);
    }
}
