use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
enum Patch {
    SetText { part_index: i64 },
    Clear,
}

fn main() {}
