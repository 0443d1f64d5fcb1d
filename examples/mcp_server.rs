//! A stdio MCP server with the incident tool, `broadcast_patch`, and `get_broadcast`, over an
//! in-memory store that starts with broadcast `b1` of three text parts. A bad call (say
//! `"partIndex": "1"`) comes back as an `isError` result naming `/operations/0/partIndex`;
//! every call, accepted or rejected, is written to stderr as an audit line.
//! `broadcast_patch` advertises an output schema (the broadcast's new state), so its
//! rejections carry their issues in the text and `_meta`; `get_broadcast` has none, so its
//! rejections carry them as `structuredContent`.
//!
//! Run it: `cargo run --example mcp_server --features rmcp` (then speak MCP on stdin/stdout).

#[path = "contracts/broadcast_patch.rs"]
mod broadcast_patch;
mod store;

mod log_to_stderr;

use std::sync::Arc;

use broadcast_patch::BroadcastPatch;
use stitch::mcp::rmcp::{self, ServiceExt};
use stitch::mcp::{Json, Tools};
use store::GetBroadcast;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    log_to_stderr::install();
    let patches = store::store();
    let reads = Arc::clone(&patches);
    let toolbox = Tools::new()
        .profile(stitch::SchemaProfile::new().require_typed_properties())
        .tool(move |patch: BroadcastPatch| {
            let store = Arc::clone(&patches);
            async move { store::patch(&store, patch).map(Json) }
        })
        .tool(move |get: GetBroadcast| {
            let store = Arc::clone(&reads);
            async move { store::read(&store, &get).map(Json) }
        })
        .observe(store::audit)
        .toolbox("stitch-broadcasts", env!("CARGO_PKG_VERSION"))
        .map_err(|findings| {
            let lines: Vec<String> = findings.iter().map(ToString::to_string).collect();
            lines.join("\n")
        })?;
    eprintln!("stitch-broadcasts: serving broadcast_patch and get_broadcast on stdio");
    toolbox
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}
