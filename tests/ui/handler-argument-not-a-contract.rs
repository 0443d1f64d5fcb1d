use serde::Deserialize;
use stitch::mcp::Tools;

// Deserialize alone does not make a tool's arguments: the type must be a contract.
#[derive(Deserialize)]
struct GetBroadcast {
    broadcast_id: String,
}

fn main() {
    let _ = Tools::new()
        .tool(|get: GetBroadcast| async move { Ok::<_, String>(get.broadcast_id) })
        .toolbox("broadcasts", "1.0.0");
}
