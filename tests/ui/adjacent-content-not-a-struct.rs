use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[serde(tag = "op", content = "args")]
enum Patch {
    SetText { part_index: i64 },
    Remove(u32),
}

fn main() {}
