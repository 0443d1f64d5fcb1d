use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[contract(require_typed_properties)]
struct Page<T> {
    items: Vec<T>,
}

fn main() {}
