use serde::Deserialize;
use std::collections::HashMap;

#[derive(stitch::Contract, Deserialize)]
struct Paging {
    per_page: u32,
}

/// A generic type's flattened keys cannot be counted at compile time.
#[derive(stitch::Contract, Deserialize)]
struct Generic<T> {
    #[serde(flatten)]
    inner: T,
}

/// serde refuses every key of a flattened field under `deny_unknown_fields`.
#[derive(stitch::Contract, Deserialize)]
#[serde(deny_unknown_fields)]
struct Denied {
    #[serde(flatten)]
    paging: Paging,
}

/// A flattened field's keys are its type's.
#[derive(stitch::Contract, Deserialize)]
struct Constrained {
    #[serde(flatten)]
    #[contract(min_properties = 1)]
    rest: HashMap<String, String>,
}

fn main() {}
