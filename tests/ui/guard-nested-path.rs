use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
struct Step {
    #[contract(opaque)]
    index: std::time::Duration,
}

#[derive(stitch::Contract, Deserialize)]
#[contract(name = "plan", require_typed_properties)]
struct Plan {
    steps: Vec<Step>,
}

fn main() {}
