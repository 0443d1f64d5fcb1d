use serde::Deserialize;

// The derive cannot see through an alias: constant evaluation finds the misfit, still at the
// attribute.
type Name = String;

#[derive(stitch::Contract, Deserialize)]
struct Greeting {
    #[contract(min = 0)]
    name: Name,
}

fn main() {}
