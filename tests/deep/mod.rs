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
            let mut expect = |position: &str, accepted: bool, expected: bool| {
                if accepted != expected {
                    wrong.push(format!("{position} ({shape}): accepted {accepted}"));
                }
            };
            let set_element = object(vec![("tags", Value::Array(vec![deep()]))]);
            expect("a set's element", Tags::parse(set_element).is_ok(), false);
            let unique = object(vec![("list", Value::Array(vec![deep(), deep()]))]);
            expect(
                "a unique array's element",
                Unique::parse(unique).is_ok(),
                false,
            );
            let operation = object(vec![
                ("op", "Set".into()),
                ("x", 1.into()),
                ("extra", deep()),
            ]);
            let operations = object(vec![("operations", Value::Array(vec![operation]))]);
            expect(
                "an unknown key inside an operation",
                Operations::parse(operations).is_ok(),
                true,
            );
            let caught = object(vec![("n", deep())]);
            expect("a catch replacement", Caught::parse(caught).is_ok(), true);
            let typed = object(vec![("x", deep())]);
            expect(
                "a field of the wrong type",
                Typed::parse(typed).is_ok(),
                false,
            );
            expect("the root", Typed::parse(deep()).is_ok(), false);
            let free = object(vec![("anything", deep())]);
            expect("a free value", Free::parse(free).is_ok(), false);
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

#[test]
fn every_contract_here_holds_in_every_dialect() {
    crate::common::check_dialects(
        file!(),
        crate::contracts![Tags, Unique, Operation, Operations, Caught, Typed, Free],
    );
}
