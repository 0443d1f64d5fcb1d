use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[serde(untagged)]
enum Id {
    Number(u64),
    Text(String),
}

fn main() {}
