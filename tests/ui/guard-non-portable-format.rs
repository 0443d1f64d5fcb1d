use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[contract(require_portable_formats)]
struct Lookup {
    #[contract(format = "iri")]
    id: String,
}

fn main() {}
