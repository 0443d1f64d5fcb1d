use serde::Deserialize;
use std::collections::HashMap;

#[derive(stitch::Contract, Deserialize)]
struct Tags {
    #[contract(min_properties = 1)]
    names: Vec<String>,
    #[contract(max_items = 3)]
    counts: HashMap<String, u32>,
}

// Behind an alias, constant evaluation finds the misfit, by the same rule.
type Names = Vec<String>;

#[derive(stitch::Contract, Deserialize)]
struct Aliased {
    #[contract(max_properties = 2)]
    names: Names,
}

fn main() {}
