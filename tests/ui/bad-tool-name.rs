use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[contract(name = "broadcast patch!")]
struct BroadcastPatch {
    broadcast_id: String,
}

fn main() {}
