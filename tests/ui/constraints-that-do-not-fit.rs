use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
struct Mismatch {
    #[contract(min_items = 1)]
    name: String,
}

#[derive(stitch::Contract, Deserialize)]
struct Trimmed {
    #[contract(trim)]
    count: u32,
}

#[derive(stitch::Contract, Deserialize)]
struct Fraction {
    #[contract(max = 2.5)]
    count: u32,
}

fn main() {}
