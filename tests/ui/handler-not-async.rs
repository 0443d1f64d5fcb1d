use serde::Deserialize;
use stitch::mcp::Tools;

#[derive(stitch::Contract, Deserialize)]
struct GetBroadcast {
    broadcast_id: String,
}

// A handler answers with a future: a synchronous closure is not one.
fn main() {
    let _ = Tools::new()
        .tool(|get: GetBroadcast| get.broadcast_id)
        .toolbox("broadcasts", "1.0.0");
}
