//! The in-memory broadcast store both MCP examples serve: broadcast `b1` with three text
//! parts, `get_broadcast` to read one, and the edits of `broadcast_patch` applied to a copy
//! and committed only when every one of them succeeded.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde::{Deserialize, Serialize};
use stitch::Contract;

use crate::broadcast_patch::{Audience, BroadcastPatch, PatchOp};

/// One part of a broadcast.
#[derive(stitch::Shape, Serialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct Part {
    pub text: String,
    pub buttons: Vec<Button>,
    pub caption: Option<String>,
}

/// A button under a part.
#[derive(stitch::Shape, Serialize, Clone, Debug)]
pub struct Button {
    pub label: String,
    pub url: Option<String>,
}

/// A broadcast as the store keeps it, and as `broadcast_patch` returns it (its output
/// schema: `#[derive(stitch::Shape)]` describes what `Serialize` writes).
#[derive(stitch::Shape, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Broadcast {
    pub id: String,
    pub title: String,
    pub parts: Vec<Part>,
    pub media: Vec<Option<String>>,
    pub send_at: Option<String>,
    pub audience: Audience,
    /// How many edits the broadcast has had (each `broadcast_patch` that succeeded is one).
    pub revision: u64,
}

/// Read a broadcast's current state.
#[derive(Contract, Deserialize)]
#[contract(require_typed_properties)]
#[serde(rename_all = "camelCase")]
pub struct GetBroadcast {
    /// The broadcast to read.
    #[contract(min_length = 1)]
    pub broadcast_id: String,
}

/// The broadcasts, by id.
pub type Store = Arc<Mutex<HashMap<String, Broadcast>>>;

/// The store as every example starts: broadcast `b1`, three text parts.
pub fn store() -> Store {
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
        revision: 0,
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

/// The store, locked. A handler that panicked while holding the lock left it as it was:
/// edits are made to a copy and committed whole, so the lock's poison is cleared, not obeyed.
fn lock(store: &Store) -> MutexGuard<'_, HashMap<String, Broadcast>> {
    store.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `broadcast_patch`: every edit applied to a copy, committed when all succeed.
pub fn patch(store: &Store, patch: BroadcastPatch) -> Result<Broadcast, String> {
    let mut store = lock(store);
    let current = store
        .get(&patch.broadcast_id)
        .ok_or_else(|| format!("no broadcast \"{}\"", patch.broadcast_id))?;
    let mut edited = current.clone();
    for (i, op) in patch.operations.into_iter().enumerate() {
        apply(&mut edited, op).map_err(|e| format!("operation {i}: {e}"))?;
    }
    edited.revision += 1;
    store.insert(edited.id.clone(), edited.clone());
    Ok(edited)
}

/// `get_broadcast`: a broadcast's current state.
pub fn read(store: &Store, get: &GetBroadcast) -> Result<Broadcast, String> {
    let store = lock(store);
    store
        .get(&get.broadcast_id)
        .cloned()
        .ok_or_else(|| format!("no broadcast \"{}\"", get.broadcast_id))
}

/// The audit line of every call, accepted or rejected, on stderr.
pub fn audit(call: &stitch::mcp::CallRecord<'_>) {
    use stitch::mcp::Outcome;
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
        Outcome::Cancelled => "cancelled".to_owned(),
        Outcome::TimedOut(deadline) => format!("timed out after {deadline:?}"),
        // Outcomes a later stitch adds.
        other => format!("{other:?}"),
    };
    eprintln!("audit tool={} {outcome} in {:?}", call.tool, call.duration);
}
