use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[contract(require_typed_properties)]
struct Upload {
    /// The payload, as the uploader's JSON.
    #[contract(opaque)]
    payload: std::time::Duration,
}

fn main() {}
