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

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use broadcast_patch::{Audience, BroadcastPatch, PatchOp};
use serde::{Deserialize, Serialize};
use stitch::Contract;
use stitch::mcp::rmcp::{self, ServiceExt};
use stitch::mcp::{Outcome, Toolbox};

/// One part of a broadcast.
#[derive(stitch::Shape, Serialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase")]
struct Part {
    text: String,
    buttons: Vec<Button>,
    caption: Option<String>,
}

/// A button under a part.
#[derive(stitch::Shape, Serialize, Clone, Debug)]
struct Button {
    label: String,
    url: Option<String>,
}

/// A broadcast as the store keeps it, and as `broadcast_patch` returns it (its output
/// schema: `#[derive(stitch::Shape)]` describes what `Serialize` writes).
#[derive(stitch::Shape, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
struct Broadcast {
    id: String,
    title: String,
    parts: Vec<Part>,
    media: Vec<Option<String>>,
    send_at: Option<String>,
    audience: Audience,
}

/// Read a broadcast's current state.
#[derive(Contract, Deserialize)]
#[contract(require_typed_properties)]
#[serde(rename_all = "camelCase")]
struct GetBroadcast {
    /// The broadcast to read.
    #[contract(min_length = 1)]
    broadcast_id: String,
}

type Store = Arc<Mutex<HashMap<String, Broadcast>>>;

fn store() -> Store {
    let parts = [
        "Hello!",
        "Our spring sale starts Monday.",
        "Reply STOP to leave.",
    ]
    .into_iter()
    .map(|text| Part {
        text: text.to_owned(),
        ..Part::default()
    })
    .collect();
    let b1 = Broadcast {
        id: "b1".into(),
        title: "Spring sale".into(),
        parts,
        media: Vec::new(),
        send_at: None,
        audience: Audience::Everyone,
    };
    Arc::new(Mutex::new(HashMap::from([("b1".to_owned(), b1)])))
}

fn index(items: usize, at: i64, what: &str) -> Result<usize, String> {
    usize::try_from(at)
        .ok()
        .filter(|&i| i < items)
        .ok_or_else(|| format!("{what} {at} does not exist (there are {items})"))
}

fn button(part: &mut Part, at: i64) -> Result<&mut Button, String> {
    let i = index(part.buttons.len(), at, "button")?;
    Ok(&mut part.buttons[i])
}

/// Applies one operation; the caller applies all of them to a copy, then commits.
fn apply(broadcast: &mut Broadcast, op: PatchOp) -> Result<(), String> {
    let parts = broadcast.parts.len();
    match op {
        PatchOp::SetText { part_index, text } => {
            broadcast.parts[index(parts, part_index, "part")?].text = text;
        }
        PatchOp::SetButton {
            part_index,
            button_index,
            label,
        } => {
            let part = &mut broadcast.parts[index(parts, part_index, "part")?];
            if button_index as usize == part.buttons.len() {
                part.buttons.push(Button { label, url: None });
            } else {
                button(part, button_index)?.label = label;
            }
        }
        PatchOp::RemovePart { part_index } => {
            broadcast.parts.remove(index(parts, part_index, "part")?);
        }
        PatchOp::SetMedia {
            media_index,
            media_id,
        } => {
            let slot = usize::try_from(media_index).map_err(|e| e.to_string())?;
            if broadcast.media.len() <= slot {
                broadcast.media.resize(slot + 1, None);
            }
            broadcast.media[slot] = Some(media_id);
        }
        PatchOp::AddText { text } => broadcast.parts.push(Part {
            text,
            ..Part::default()
        }),
        PatchOp::MovePart {
            part_index,
            to_index,
        } => {
            let part = broadcast.parts.remove(index(parts, part_index, "part")?);
            let to = index(parts, to_index, "position")?;
            broadcast.parts.insert(to, part);
        }
        PatchOp::SetCaption {
            part_index,
            caption,
        } => {
            broadcast.parts[index(parts, part_index, "part")?].caption = caption;
        }
        PatchOp::RemoveButton {
            part_index,
            button_index,
        } => {
            let part = &mut broadcast.parts[index(parts, part_index, "part")?];
            let i = index(part.buttons.len(), button_index, "button")?;
            part.buttons.remove(i);
        }
        PatchOp::SetButtonUrl {
            part_index,
            button_index,
            url,
        } => {
            let part = &mut broadcast.parts[index(parts, part_index, "part")?];
            button(part, button_index)?.url = Some(url);
        }
        PatchOp::DuplicatePart { part_index } => {
            let i = index(parts, part_index, "part")?;
            let copy = broadcast.parts[i].clone();
            broadcast.parts.insert(i + 1, copy);
        }
        PatchOp::RemoveMedia { media_index } => {
            let i = index(broadcast.media.len(), media_index, "media slot")?;
            broadcast.media[i] = None;
        }
        PatchOp::SetSchedule { send_at } => broadcast.send_at = Some(send_at),
        PatchOp::SetAudience { audience } => broadcast.audience = audience,
        PatchOp::SetTitle { title } => broadcast.title = title,
    }
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let patches = store();
    let reads = Arc::clone(&patches);
    let toolbox = Toolbox::builder("stitch-broadcasts", env!("CARGO_PKG_VERSION"))
        .profile(stitch::SchemaProfile::new().require_typed_properties())
        .tool_with_output(move |patch: BroadcastPatch| {
            let store = Arc::clone(&patches);
            async move {
                let mut store = store.lock().map_err(|e| e.to_string())?;
                let current = store
                    .get(&patch.broadcast_id)
                    .ok_or_else(|| format!("no broadcast \"{}\"", patch.broadcast_id))?;
                let mut edited = current.clone();
                for (i, op) in patch.operations.into_iter().enumerate() {
                    apply(&mut edited, op).map_err(|e| format!("operation {i}: {e}"))?;
                }
                store.insert(edited.id.clone(), edited.clone());
                Ok::<_, String>(edited)
            }
        })
        .tool(move |get: GetBroadcast| {
            let store = Arc::clone(&reads);
            async move {
                let store = store.lock().map_err(|e| e.to_string())?;
                store
                    .get(&get.broadcast_id)
                    .cloned()
                    .ok_or_else(|| format!("no broadcast \"{}\"", get.broadcast_id))
            }
        })
        .observe(|call| {
            let outcome = match &call.outcome {
                Outcome::Accepted => "accepted".to_owned(),
                Outcome::Rejected(issues) => {
                    let at: Vec<String> = issues
                        .iter()
                        .map(|i| format!("{} {}", i.pointer, i.code))
                        .collect();
                    format!("rejected [{}]", at.join(", "))
                }
                Outcome::Failed(error) => format!("failed: {error}"),
            };
            eprintln!("audit tool={} {outcome} in {:?}", call.tool, call.duration);
        })
        .build()
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
