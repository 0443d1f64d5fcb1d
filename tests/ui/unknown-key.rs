use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
struct Limits {
    #[contract(minimum = 0)]
    count: u32,
}

fn main() {}
