//! Types inside a tool's input read as serde reads them (a nested type's `default`), and a
//! `date-time` held to RFC 3339 as its schema says: `parse` no looser than either.

mod common;

use common::json;
use serde::Deserialize;
use serde_json::json;
use stitch::Contract;

/// A window of days; the default when the key is missing.
#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Window {
    #[serde(default)]
    days: u32,
}

/// What to list, with a nested input type that has a default.
#[derive(Contract, Deserialize, Debug)]
#[serde(tag = "action", rename_all = "snake_case")]
#[allow(dead_code)]
enum Reminders {
    List {
        #[serde(default)]
        window: Option<Window>,
    },
    Show {
        window: Window,
    },
}

#[test]
fn a_nested_input_types_default_is_read_as_serde_reads_it() {
    let shown = Reminders::parse(json!({"action": "show", "window": {}})).unwrap();
    assert!(matches!(
        shown,
        Reminders::Show {
            window: Window { days: 0 }
        }
    ));
    let schema: serde_json::Value = serde_json::from_str(Window::INPUT_SCHEMA).unwrap();
    assert!(
        schema
            .get("required")
            .is_none_or(|required| required == &json!([])),
        "{schema}"
    );
}

/// When to send.
#[allow(dead_code, reason = "its fields are deserialized, never read")]
#[derive(Contract, Deserialize, Debug)]
struct Schedule {
    #[contract(format = "date-time")]
    send_at: String,
}

#[test]
fn a_date_time_string_is_held_to_rfc_3339_as_its_schema_says() {
    assert!(Schedule::parse(json!({"send_at": "2016-12-31T23:59:59Z"})).is_ok());
    assert!(Schedule::parse(json!({"send_at": "2016-12-31t23:59:59z"})).is_ok());
    let spaced = Schedule::parse(json!({"send_at": "2016-12-31 23:59:59Z"})).unwrap_err();
    assert_eq!(spaced.issues[0].pointer, "/send_at");
    assert_eq!(spaced.issues[0].code, stitch::IssueCode::Format);
    // As an independent validator asserting formats reads the advertised schema.
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&json(Schedule::INPUT_SCHEMA))
        .unwrap();
    assert!(!validator.is_valid(&json!({"send_at": "2016-12-31 23:59:59Z"})));
    assert!(validator.is_valid(&json!({"send_at": "2016-12-31T23:59:59Z"})));
}

every_contract_here!(Window, Reminders, Schedule);
