// A contract must also derive `serde::Deserialize`: `parse` ends in serde.
#[derive(stitch::Contract)]
struct GetBroadcast {
    broadcast_id: String,
}

fn main() {}
