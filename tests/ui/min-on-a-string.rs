use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
struct Greeting {
    #[contract(min = 0)]
    name: String,
}

fn main() {}
