use serde::Deserialize;

// A key that several operations share with the same type and attributes is one node: a
// misfit there is reported once, at its first operation.
type Name = String;

#[derive(stitch::Contract, Deserialize)]
#[serde(tag = "op")]
enum Rename {
    Person {
        #[contract(min = 0)]
        name: Name,
    },
    Place {
        #[contract(min = 0)]
        name: Name,
    },
}

fn main() {}
