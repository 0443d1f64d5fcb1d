use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
struct Page {
    #[contract(catch = None)]
    size: Option<u32>,
}

fn main() {}
