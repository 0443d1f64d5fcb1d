use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
struct Code {
    #[contract(pattern = "(?i)^abc\\z")]
    code: String,
}

fn main() {}
