use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[contract(require_portable_formats)]
struct Lookup {
    #[contract(format = "cuid2")]
    id: String,
}

fn main() {}
