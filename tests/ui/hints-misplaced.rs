use serde::Deserialize;

// A struct's keys are its own: there is no operation to name them by.
#[derive(stitch::Contract, Deserialize)]
#[contract(hints = "by_operation")]
struct Lookup {
    id: u32,
}

// Neither `by_key` nor `by_operation`.
#[derive(stitch::Contract, Deserialize)]
#[serde(tag = "op")]
#[contract(hints = "compact")]
enum Edit {
    Clear,
}

fn main() {}
