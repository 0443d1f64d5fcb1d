use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
struct Code {
    #[contract(pattern = "^[a-z+$")]
    code: String,
}

fn main() {}
