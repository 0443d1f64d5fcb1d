//! Checks `parse` in a build whose numbers keep their digits (`arbitrary_precision`) and
//! whose decimals are written as numbers (`serde-float`): what serde writes is taken, what it
//! reads is read exactly, and what is refused is refused at its field with a true message.
//! Exits non-zero on the first failure.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use stitch::{Contract, Dialect};

#[derive(Contract, Deserialize, Serialize, Debug, PartialEq)]
struct Price {
    amount: Decimal,
}

#[derive(Contract, Deserialize, Debug, PartialEq)]
struct Wide {
    #[serde(default)]
    big: u128,
    #[serde(default)]
    signed: i128,
}

fn check(what: &str, holds: bool) {
    if !holds {
        eprintln!("FAIL {what}");
        std::process::exit(1);
    }
    println!("ok   {what}");
}

/// The one issue `parse` finds, as `pointer: message`.
fn refusal<T: Contract + std::fmt::Debug>(args: Value) -> String {
    match T::parse(args) {
        Ok(parsed) => format!("accepted as {parsed:?}"),
        Err(rejection) => {
            let issue = &rejection.issues[0];
            format!("{}: {}", issue.pointer, issue.message)
        }
    }
}

fn decimals_as_serde_float_writes_them() {
    let price = Price {
        amount: Decimal::from_str("9.99").unwrap(),
    };
    let written = serde_json::to_value(&price).unwrap();
    check(
        "serde-float writes a decimal as a number",
        written["amount"].is_number(),
    );
    for &dialect in Dialect::ALL {
        check(
            &format!("{dialect}: what serde-float writes is read back"),
            Price::parse_for(written.clone(), dialect).as_ref() == Ok(&price),
        );
    }
    check(
        "a decimal sent as its string is read too",
        Price::parse(json!({"amount": "9.99"})) == Ok(price),
    );
    let digits = "0.1000000000000000000000000001";
    let exact: Value = serde_json::from_str(&format!("{{\"amount\": {digits}}}")).unwrap();
    let read = Price::parse(exact).map(|price| price.amount.to_string());
    check(
        &format!("a decimal number keeps all 28 of its digits: {read:?}"),
        read == Ok(digits.to_owned()),
    );
}

fn what_serde_refuses_is_refused_at_its_field() {
    let past_decimal: Value = serde_json::from_str("{\"amount\": 1e40}").unwrap();
    let message = refusal::<Price>(past_decimal);
    check(
        &format!("a number past what a Decimal holds is refused at its field: {message}"),
        message.starts_with("/amount: "),
    );
}

fn integers_past_64_bits() {
    let past_u64: Value = serde_json::from_str("{\"big\": 18446744073709551621}").unwrap();
    check(
        "a u128 past 2^64 is read",
        Wide::parse(past_u64).map(|wide| wide.big) == Ok(u128::from(u64::MAX) + 6),
    );
    let negative: Value = serde_json::from_str("{\"signed\": -1180591620717411303424}").unwrap();
    check(
        "an i128 past -2^64 is read",
        Wide::parse(negative).map(|wide| wide.signed) == Ok(-(1i128 << 70)),
    );
    let past_i128: Value = serde_json::from_str(&format!("{{\"big\": {}}}", u128::MAX)).unwrap();
    check(
        "a u128 past i128::MAX is read, to u128::MAX as its schema states",
        Wide::parse(past_i128).map(|wide| wide.big) == Ok(u128::MAX),
    );
    let past_u128 = format!("{{\"big\": {}0}}", u128::MAX);
    let message = refusal::<Wide>(serde_json::from_str(&past_u128).unwrap());
    check(
        &format!("a u128 past u128::MAX is refused at its field, saying so: {message}"),
        message.starts_with(&format!("/big: must be from 0 to {}", u128::MAX)),
    );
}

fn main() {
    decimals_as_serde_float_writes_them();
    integers_past_64_bits();
    what_serde_refuses_is_refused_at_its_field();
}
