use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[serde(tag = "op")]
enum NoOperations {}

#[derive(stitch::Contract, Deserialize)]
enum NoValues {}

#[derive(stitch::Contract, Deserialize)]
#[serde(tag = "op")]
enum AllSkipped {
    #[serde(skip)]
    Hidden,
}

fn main() {}
