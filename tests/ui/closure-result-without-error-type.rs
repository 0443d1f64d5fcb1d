use serde::{Deserialize, Serialize};
use stitch::mcp::{Json, Tools};

#[derive(stitch::Contract, Deserialize)]
struct GetBroadcast {
    broadcast_id: String,
}

#[derive(stitch::Shape, Serialize)]
struct Broadcast {
    id: String,
}

// `Ok(..)` alone does not say the `Result`'s error type, and nothing else in the closure does.
// The error is rustc's own (no library can add to E0282); it names the fix, the turbofish
// `Ok::<_, E>`, which `stitch::mcp`'s docs and every closure example write.
fn main() {
    let _ = Tools::new()
        .tool(|get: GetBroadcast| async move { Ok(Json(Broadcast { id: get.broadcast_id })) })
        .toolbox("broadcasts", "1.0.0");
}
