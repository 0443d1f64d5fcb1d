use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
enum Patch {
    SetText { part_index: i64 },
    Move(u32, u32),
    Clear,
}

fn main() {}
