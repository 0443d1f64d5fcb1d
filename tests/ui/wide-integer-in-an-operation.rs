use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[serde(tag = "op")]
enum Ledger {
    Credit { amount: u64 },
    Import { totals: Vec<i128> },
}


/// Where only the field type's shape tells: constant evaluation finds it.
#[derive(stitch::Contract, Deserialize)]
struct Totals {
    sum: u128,
}

#[derive(stitch::Contract, Deserialize)]
#[serde(tag = "op", content = "args")]
enum Books {
    Import { totals: Totals },
}

fn main() {}
