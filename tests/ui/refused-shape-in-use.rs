use serde::{Deserialize, Serialize};
use stitch::mcp::{Json, Tools};

// A refused `Shape` is one error, at the attribute: the contract that holds the type, the
// guard over that contract and the tool that returns it add none of their own.
#[derive(stitch::Shape, Serialize, Deserialize)]
struct Window {
    #[serde(default)]
    days: u32,
}

/// Broadcasts in a window.
#[derive(stitch::Contract, Deserialize)]
struct ListBroadcasts {
    /// The window to list.
    window: Window,
}

const _: () = assert!(
    stitch::validate_mcp_schemas(
        &[<ListBroadcasts as stitch::Contract>::TOOL],
        &stitch::SchemaProfile::new(),
    )
    .is_ok()
);

fn main() {
    let _ = Tools::new()
        .tool(|list: ListBroadcasts| async move { Ok::<_, String>(Json(list.window)) })
        .toolbox("broadcasts", "1.0.0");
}
