use serde::Deserialize;
use std::collections::HashMap;

#[derive(stitch::Contract, Deserialize)]
struct Call {
    name: String,
    #[serde(flatten)]
    rest: HashMap<String, String>,
}

fn main() {}
