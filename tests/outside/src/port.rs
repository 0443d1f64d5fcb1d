//! The shape of a real rmcp server ported to stitch (a calendar and reminders server): two
//! merged operations whose shared key is documented differently by each, a nested input type
//! with defaulted fields, a map, a date-time string, a decimal price, and one input type
//! mounted as several tools. Each behaves as its users need, seen from their crate.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde::Deserialize;
use serde_json::{Value, json};
use stitch::mcp::Tools;
use stitch::{Contract, Dialect};

use crate::check;

/// How far ahead to look.
#[derive(Contract, Deserialize, Debug, PartialEq)]
pub struct Window {
    /// Days from today.
    #[serde(default = "a_week")]
    pub days: u32,
    /// Minutes each slot lasts.
    #[serde(default)]
    pub duration_minutes: Option<u32>,
}

fn a_week() -> u32 {
    7
}

/// Work with reminders.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Reminders {
    /// Create a reminder.
    Create {
        title: String,
        /// When it is due, as 'YYYY-MM-DD HH:MM'.
        due: Option<String>,
        /// The list to add it to: use list_reminder_lists to see available lists.
        list: Option<String>,
    },
    /// Change a reminder.
    Update {
        id: String,
        /// The new due date, or null to clear it.
        due: Option<String>,
        /// The list to move it to.
        list: Option<String>,
    },
    /// List the reminders ahead.
    List {
        #[serde(default)]
        window: Option<Window>,
    },
}

/// Book a paid event.
#[derive(Contract, Deserialize, Debug, PartialEq)]
pub struct BookEvent {
    pub title: String,
    /// Ticket price.
    pub price: Decimal,
    /// When it starts.
    #[contract(format = "date-time")]
    pub starts_at: String,
    /// Labels, by name.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
}

/// A reminder, by id: what several tools take.
#[derive(Contract, Deserialize, Debug, PartialEq)]
pub struct ReminderId {
    pub id: String,
}

fn description<'a>(schema: &'a Value, key: &str) -> &'a str {
    schema["properties"][key]["description"]
        .as_str()
        .unwrap_or_default()
}

fn merged_docs_and_nested_defaults() {
    let schema: Value = serde_json::from_str(Reminders::INPUT_SCHEMA).expect("JSON");
    let due = description(&schema, "due");
    check(
        &format!("a merged key keeps each operation's description, labelled: {due}"),
        due.contains("create: When it is due, as 'YYYY-MM-DD HH:MM'.")
            && due.contains("update: The new due date, or null to clear it."),
    );
    let list = description(&schema, "list");
    check(
        "the hint a model needs to find a list survives the merge",
        list.contains("use list_reminder_lists to see available lists"),
    );
    for &dialect in Dialect::ALL {
        let schema: Value =
            serde_json::from_str(Reminders::input_schema_for(dialect)).expect("JSON");
        check(
            &format!("{dialect}: the merged descriptions reach the dialect"),
            description(&schema, "due").contains("'YYYY-MM-DD HH:MM'"),
        );
    }
    check(
        "a nested type's defaults are serde's: {\"action\": \"list\"} is a call",
        Reminders::parse(json!({"action": "list"})) == Ok(Reminders::List { window: None }),
    );
    check(
        "and an empty window takes its defaulted days",
        Reminders::parse(json!({"action": "list", "window": {}}))
            == Ok(Reminders::List {
                window: Some(Window {
                    days: 7,
                    duration_minutes: None,
                }),
            }),
    );
    let strict = json!({
        "action": "list", "title": null, "due": null, "list": null, "id": null,
        "window": {"days": null, "duration_minutes": null},
    });
    check(
        "a strict client's nulls for defaulted nested keys are their absence",
        Reminders::parse_for(strict, Dialect::OpenAiStrict)
            == Ok(Reminders::List {
                window: Some(Window {
                    days: 7,
                    duration_minutes: None,
                }),
            }),
    );
}

fn prices_maps_and_dates() {
    let call = json!({
        "title": "Concert", "price": 9.99, "starts_at": "2026-12-05T20:00:00Z",
        "labels": {"venue": "hall"},
    });
    let booked = BookEvent::parse(call.clone());
    check(
        "a price sent as a number is taken",
        booked
            .as_ref()
            .is_ok_and(|event| event.price == Decimal::new(999, 2)),
    );
    let mut as_text = call.clone();
    as_text["price"] = json!("9.99");
    check(
        "and as its string",
        BookEvent::parse(as_text).as_ref().ok() == booked.as_ref().ok(),
    );
    let mut entries = call.clone();
    entries["labels"] = json!([{"key": "venue", "value": "hall"}]);
    check(
        "a strict client's map, sent as entries, is read back into the map",
        BookEvent::parse_for(entries, Dialect::AnthropicStrict)
            .as_ref()
            .ok()
            == booked.as_ref().ok(),
    );
    let mut spaced = call;
    spaced["starts_at"] = json!("2026-12-05 20:00:00Z");
    let refused = BookEvent::parse(spaced)
        .err()
        .map(|rejection| rejection.to_string())
        .unwrap_or_default();
    check(
        &format!(
            "a date-time string outside its format is refused, naming the one to send: {refused}"
        ),
        refused.starts_with("/starts_at:")
            && refused.ends_with("send it as \"2026-12-05T20:00:00Z\""),
    );
}

async fn one_type_several_tools() {
    let toolbox = Tools::new()
        .tool_named("complete_reminder", |reminder: ReminderId| async move {
            format!("completed {}", reminder.id)
        })
        .tool_named("delete_reminder", |reminder: ReminderId| async move {
            format!("deleted {}", reminder.id)
        })
        .toolbox("reminders", "0.0.0");
    let Ok(toolbox) = toolbox else {
        return check("one input type mounts as two tools", false);
    };
    let answer = toolbox
        .call("delete_reminder", json!({"id": "r1"}))
        .await
        .map(|result| json!(result)["content"][0]["text"].clone());
    check(
        "one input type mounts as two tools, each answering its calls",
        answer.ok() == Some(json!("deleted r1")),
    );
    let twice = Tools::new()
        .tool(|reminder: ReminderId| async move { reminder.id })
        .tool(|reminder: ReminderId| async move { reminder.id })
        .toolbox("twice", "0.0.0")
        .err()
        .map(|findings| findings[0].to_string())
        .unwrap_or_default();
    check(
        &format!("mounting it twice under one name says how to name it: {twice}"),
        twice.contains("tool_named"),
    );
}

pub async fn a_ported_server() {
    merged_docs_and_nested_defaults();
    prices_maps_and_dates();
    one_type_several_tools().await;
}
