//! Values nested far deeper than any contract, in every position where `parse` once recursed
//! into them (or handed them to a recursive drop or to serde): `parse` must return on each, on a
//! 2 MiB stack (tokio's default for its worker threads). Shared by the workspace's tests
//! (debug) and the crate outside it, which runs it in release.
#![allow(dead_code)]

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::{Map, Value};
use stitch::Contract;

#[derive(Contract, Deserialize)]
struct Tags {
    tags: HashSet<String>,
}

#[derive(Contract, Deserialize)]
struct Unique {
    #[contract(unique_items)]
    list: Vec<i64>,
}

#[derive(Contract, Deserialize)]
#[serde(tag = "op")]
enum Operation {
    Set { x: i64 },
}

#[derive(Contract, Deserialize)]
struct Operations {
    operations: Vec<Operation>,
}

#[derive(Contract, Deserialize)]
struct Caught {
    #[contract(catch = 0)]
    n: i64,
}

#[derive(Contract, Deserialize)]
struct Typed {
    x: i64,
}

#[derive(Contract, Deserialize)]
struct Free {
    anything: Value,
}

#[derive(Contract, Deserialize)]
struct Pair {
    pair: (i64, String),
    wait: Option<std::time::Duration>,
}

#[derive(Contract, Deserialize)]
struct Inner {
    x: i64,
}

#[derive(Contract, Deserialize)]
struct Flattened {
    name: Option<String>,
    #[serde(flatten)]
    inner: Inner,
}

#[derive(Contract, Deserialize)]
struct FlatMap {
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, i64>,
}

#[derive(Contract, Deserialize)]
#[serde(tag = "op", content = "args")]
enum Adjacent {
    Set { x: i64 },
    Clear,
}

#[derive(Contract, Deserialize)]
enum External {
    Set { x: i64 },
    Count(i64),
    Clear,
}

/// A value nested `levels` deep: arrays (`[[[...]]]`) or objects (`{"a":{"a":...}}`), built
/// without recursion.
pub fn nested(levels: usize, objects: bool) -> Value {
    let mut value = Value::from(1);
    for _ in 0..levels {
        value = if objects {
            Value::Object(Map::from_iter([("a".to_owned(), value)]))
        } else {
            Value::Array(vec![value])
        };
    }
    value
}

fn json_pair() -> Value {
    Value::Array(vec![1.into(), "a".into()])
}

fn object(entries: Vec<(&str, Value)>) -> Value {
    Value::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

/// Runs `parse` with a deep value in every position, on a thread with a 2 MiB stack; returns
/// the positions whose outcome was not the expected one.
pub fn every_position(levels: usize) -> Vec<String> {
    let run = move || {
        let mut wrong = Vec::new();
        for objects in [false, true] {
            let deep = || nested(levels, objects);
            let shape = if objects { "objects" } else { "arrays" };
            let mut outcomes = value_positions(&deep);
            outcomes.extend(operation_positions(&deep));
            for (position, accepted, expected) in outcomes {
                if accepted != expected {
                    wrong.push(format!("{position} ({shape}): accepted {accepted}"));
                }
            }
        }
        wrong
    };
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .expect("a thread")
        .join()
        .unwrap_or_else(|_| vec!["parse panicked".to_owned()])
}

/// Whether `parse` accepted a deep value in each position of a field's value, and whether it
/// should have.
fn value_positions(deep: &dyn Fn() -> Value) -> Vec<(&'static str, bool, bool)> {
    let mut outcomes = Vec::new();
    let set_element = object(vec![("tags", Value::Array(vec![deep()]))]);
    outcomes.push(("a set's element", Tags::parse(set_element).is_ok(), false));
    let unique = object(vec![("list", Value::Array(vec![deep(), deep()]))]);
    outcomes.push((
        "a unique array's element",
        Unique::parse(unique).is_ok(),
        false,
    ));
    let caught = object(vec![("n", deep())]);
    outcomes.push(("a catch replacement", Caught::parse(caught).is_ok(), true));
    let typed = object(vec![("x", deep())]);
    outcomes.push((
        "a field of the wrong type",
        Typed::parse(typed).is_ok(),
        false,
    ));
    outcomes.push(("the root", Typed::parse(deep()).is_ok(), false));
    let free = object(vec![("anything", deep())]);
    outcomes.push(("a free value", Free::parse(free).is_ok(), false));
    let element = object(vec![("pair", Value::Array(vec![deep(), "a".into()]))]);
    outcomes.push(("a tuple's element", Pair::parse(element).is_ok(), false));
    let duration = object(vec![("pair", json_pair()), ("wait", deep())]);
    outcomes.push(("a duration", Pair::parse(duration).is_ok(), false));
    let inside = object(vec![("x", deep())]);
    outcomes.push((
        "a flattened struct's field",
        Flattened::parse(inside).is_ok(),
        false,
    ));
    let beside = object(vec![("x", 1.into()), ("other", deep())]);
    outcomes.push((
        "an unknown key beside a flattened struct",
        Flattened::parse(beside).is_ok(),
        true,
    ));
    let entry = object(vec![("deep", deep())]);
    outcomes.push((
        "a flattened map's value",
        FlatMap::parse(entry).is_ok(),
        false,
    ));
    outcomes
}

/// The same, in each position of an operation, as each tagging places it.
fn operation_positions(deep: &dyn Fn() -> Value) -> Vec<(&'static str, bool, bool)> {
    let mut outcomes = Vec::new();
    let operation = object(vec![
        ("op", "Set".into()),
        ("x", 1.into()),
        ("extra", deep()),
    ]);
    let operations = object(vec![("operations", Value::Array(vec![operation]))]);
    outcomes.push((
        "an unknown key inside an operation",
        Operations::parse(operations).is_ok(),
        true,
    ));
    let content = object(vec![
        ("op", "Set".into()),
        ("args", object(vec![("x", deep())])),
    ]);
    outcomes.push(("adjacent content", Adjacent::parse(content).is_ok(), false));
    let whole = object(vec![("op", "Set".into()), ("args", deep())]);
    outcomes.push((
        "adjacent content itself",
        Adjacent::parse(whole).is_ok(),
        false,
    ));
    let ignored = object(vec![("op", "Clear".into()), ("extra", deep())]);
    outcomes.push((
        "a key beside adjacent content",
        Adjacent::parse(ignored).is_ok(),
        true,
    ));
    let key = object(vec![("Set", object(vec![("x", deep())]))]);
    outcomes.push((
        "an external key's field",
        External::parse(key).is_ok(),
        false,
    ));
    let value = object(vec![("Count", deep())]);
    outcomes.push((
        "an external key's value",
        External::parse(value).is_ok(),
        false,
    ));
    let unit = object(vec![("Clear", deep())]);
    outcomes.push(("an external unit key", External::parse(unit).is_ok(), false));
    let unknown = object(vec![("Paste", deep())]);
    outcomes.push((
        "an unknown external key",
        External::parse(unknown).is_ok(),
        false,
    ));
    outcomes
}

#[test]
fn every_contract_here_holds_in_every_dialect() {
    crate::common::check_dialects(
        file!(),
        "",
        crate::contracts![
            Tags, Unique, Operation, Operations, Caught, Typed, Free, Pair, Inner, Flattened,
            FlatMap, Adjacent, External
        ],
    );
}
