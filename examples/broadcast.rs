//! Prints the advertised input schema of the incident contract, `broadcast_patch`: one flat
//! object a model can fill, with `partIndex` typed `integer`, `minimum: 0`.
//!
//! Run it: `cargo run --example broadcast`.

#[path = "contracts/broadcast_patch.rs"]
mod broadcast_patch;

use broadcast_patch::BroadcastPatch;
use stitch::Contract;

/// Rendered at compile time: reading it costs nothing at run time.
const SCHEMA: &str = BroadcastPatch::INPUT_SCHEMA;

fn main() {
    let tool = BroadcastPatch::TOOL;
    let schema: serde_json::Value =
        serde_json::from_str(SCHEMA).expect("stitch renders valid JSON");
    println!("tool: {}", tool.name);
    println!("description: {}", tool.description);
    println!(
        "inputSchema:\n{}",
        serde_json::to_string_pretty(&schema).expect("a JSON value prints")
    );
}
