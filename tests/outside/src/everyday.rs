//! A contract of the types and serde shapes a real server holds — `Uuid`, `DateTime<Utc>`,
//! `Url`, `Decimal`, a flattened struct, an adjacently and an externally tagged enum — served
//! to a client of each dialect: its schema reaches the wire as rendered, and a call sent the
//! way a client of that dialect sends it reaches the handler as typed values.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use url::Url;
use uuid::Uuid;

/// How many payments a page holds.
#[derive(stitch::Contract, serde::Deserialize, Debug, PartialEq)]
pub struct Paging {
    /// Payments per page.
    #[contract(min = 1, max = 100)]
    pub per_page: u32,
}

/// Work with scheduled payments.
#[derive(stitch::Contract, serde::Deserialize, Debug, PartialEq)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum Payments {
    /// Schedule a payment.
    Schedule {
        id: Uuid,
        at: DateTime<Utc>,
        amount: Decimal,
        callback: Option<Url>,
    },
    /// List the scheduled payments.
    List {
        #[serde(flatten)]
        paging: Paging,
        since: Option<DateTime<Utc>>,
    },
    /// Cancel a payment.
    Cancel { id: Uuid },
}

/// Move money between accounts.
#[derive(stitch::Contract, serde::Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Ledger {
    /// Credit an account.
    Credit { account: Uuid, amount: Decimal },
    /// Freeze an account.
    Freeze(Uuid),
    /// Audit every account.
    Audit,
}

pub const ID: &str = "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f";

/// A schedule call, as a client shown `strict` (OpenAI's dialect, every key sent) sends it.
pub fn schedule_call(strict: bool) -> serde_json::Value {
    let mut args = serde_json::json!({
        "id": ID,
        "at": "2026-12-03T10:00:00Z",
        "amount": "12.50",
    });
    if strict {
        for key in ["callback", "per_page", "since"] {
            args[key] = serde_json::Value::Null;
        }
    }
    serde_json::json!({"op": "schedule", "args": args})
}

/// A credit call, as a client shown `strict` sends it.
pub fn credit_call(strict: bool) -> serde_json::Value {
    let mut call = serde_json::json!({"credit": {"account": ID, "amount": "-0.015"}});
    if strict {
        call["freeze"] = serde_json::Value::Null;
        call["audit"] = serde_json::Value::Null;
    }
    call
}

/// What the handlers receive, as they answer it.
pub fn expected() -> (Payments, Ledger) {
    let id: Uuid = ID.parse().expect("a uuid");
    (
        Payments::Schedule {
            id,
            at: "2026-12-03T10:00:00Z".parse().expect("a date-time"),
            amount: "12.50".parse().expect("a decimal"),
            callback: None,
        },
        Ledger::Credit {
            account: id,
            amount: "-0.015".parse().expect("a decimal"),
        },
    )
}
