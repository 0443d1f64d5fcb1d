use serde::Deserialize;
use stitch::mcp::Toolbox;

// Deserialize alone does not make a tool's arguments: the type must be a contract.
#[derive(Deserialize)]
struct GetBroadcast {
    broadcast_id: String,
}

fn main() {
    let _ = Toolbox::builder("broadcasts", "1.0.0")
        .tool(|get: GetBroadcast| async move { Ok::<_, String>(get.broadcast_id) });
}
