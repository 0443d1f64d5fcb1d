use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[contract(require_typed_properties)]
#[serde(tag = "op", rename_all = "camelCase")]
enum Patch {
    SetA {
        #[contract(coerce)]
        amount: i64,
    },
    SetB {
        amount: i64,
    },
}

fn main() {}
