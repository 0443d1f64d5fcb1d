use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[serde(tag = "op")]
enum Patch {
    Remove(u32),
}

fn main() {}
