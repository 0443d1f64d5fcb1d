use serde::{Deserialize, Serialize};
use stitch::mcp::Toolbox;

#[derive(stitch::Contract, Deserialize)]
struct GetBroadcast {
    broadcast_id: String,
}

// A result with an output schema must describe itself: `#[derive(stitch::Shape)]`.
#[derive(Serialize)]
struct Broadcast {
    id: String,
}

fn main() {
    let _ = Toolbox::builder("broadcasts", "1.0.0").tool_with_output(|get: GetBroadcast| async move {
        Ok::<_, String>(Broadcast { id: get.broadcast_id })
    });
}
