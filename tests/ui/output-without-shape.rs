use serde::{Deserialize, Serialize};
use stitch::mcp::{Json, Tools};

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
    let _ = Tools::new()
        .tool(|get: GetBroadcast| async move {
            Ok::<_, String>(Json(Broadcast { id: get.broadcast_id }))
        })
        .toolbox("broadcasts", "1.0.0");
}
