use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[serde(tag = "op")]
enum Ledger {
    Credit { amount: u64 },
    Import { totals: Vec<i128> },
}

fn main() {}
