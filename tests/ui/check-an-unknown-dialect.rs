use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[contract(check_dialects("openai", "portable"))]
struct Lookup {
    id: u32,
}

fn main() {}
