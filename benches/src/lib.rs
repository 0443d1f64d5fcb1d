//! The incident contract of `examples/contracts/broadcast_patch.rs`, also deriving
//! `schemars::JsonSchema`, so the benchmarks compare stitch with its baselines on the very
//! same types; and the incident call with 32 operations.
//!
//! A copy on purpose: Rust cannot add a derive to a type declared elsewhere, and the example
//! stays free of a dependency its readers do not need. The test below keeps the two in step.
#![allow(dead_code, missing_docs)]

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use stitch::Contract;

/// The exact schema of the incident contract, validated by code jsonschema generates at
/// compile time from `incident-exact.schema.json` (the test below keeps the file the
/// contract's `EXACT_SCHEMA`), formats included.
#[jsonschema_codegen::validator(path = "incident-exact.schema.json", validate_formats = true)]
pub struct GeneratedValidator;

/// The incident call: broadcast `b1`, 32 operations over every kind of edit.
pub fn call_with_32_operations() -> Value {
    let ops = [
        json!({"op": "setText", "partIndex": 1, "text": "Sale starts Tuesday."}),
        json!({"op": "setButton", "partIndex": 1, "buttonIndex": 0, "label": "Shop"}),
        json!({"op": "setMedia", "mediaIndex": 0, "mediaId": "med_0123abcd"}),
        json!({"op": "movePart", "partIndex": 2, "toIndex": 0}),
        json!({"op": "setCaption", "partIndex": 0, "caption": null}),
        json!({"op": "setButtonUrl", "partIndex": 1, "buttonIndex": 0, "url": "https://example.com/sale"}),
        json!({"op": "setSchedule", "sendAt": "2026-12-02T17:00:00Z"}),
        json!({"op": "setAudience", "audience": "active"}),
    ];
    let operations: Vec<Value> = ops.iter().cycle().take(32).cloned().collect();
    json!({"broadcastId": "b1", "operations": operations})
}

/// Edit a broadcast: apply the operations in order.
#[derive(Contract, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[contract(
    name = "broadcast_patch",
    require_typed_properties,
    require_portable_formats
)]
#[serde(rename_all = "camelCase")]
pub struct BroadcastPatch {
    /// The broadcast to edit.
    #[contract(min_length = 1)]
    pub broadcast_id: String,
    /// The edits, applied in order.
    #[contract(min_items = 1, max_items = 32)]
    pub operations: Vec<PatchOp>,
}

/// Who receives a broadcast.
#[derive(Contract, Deserialize, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum Audience {
    /// Every subscriber.
    Everyone,
    /// Subscribers who opened a broadcast this month.
    Active,
    /// Subscribers who did not.
    Dormant,
}

/// One edit of a broadcast.
#[derive(Contract, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "op", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum PatchOp {
    /// Replace the text of a part.
    SetText {
        /// Which part (0 is the first).
        #[contract(min = 0)]
        part_index: i64,
        /// The new text.
        #[contract(min_length = 1, max_length = 4096)]
        text: String,
    },
    /// Set the label of a part's button.
    SetButton {
        /// Which part (0 is the first).
        #[contract(min = 0)]
        part_index: i64,
        /// Which button of the part (0 is the first).
        #[contract(min = 0, max = 2)]
        button_index: i64,
        /// The button's label.
        #[contract(min_length = 1, max_length = 20)]
        label: String,
    },
    /// Remove a part.
    RemovePart {
        /// Which part (0 is the first).
        #[contract(min = 0)]
        part_index: i64,
    },
    /// Attach a media item in a media slot.
    SetMedia {
        /// Which media slot (0 is the first; a broadcast has 16).
        #[contract(min = 0, max = 15)]
        media_index: i64,
        /// The media library's id of the item.
        #[contract(pattern = "^med_[a-z0-9]{8,}$")]
        media_id: String,
    },
    /// Add a text part at the end.
    AddText {
        /// The text of the new part.
        #[contract(min_length = 1, max_length = 4096)]
        text: String,
    },
    /// Move a part to another place.
    MovePart {
        /// Which part (0 is the first).
        #[contract(min = 0)]
        part_index: i64,
        /// Where it goes (0 is the first).
        #[contract(min = 0)]
        to_index: i64,
    },
    /// Set the caption shown under a part.
    SetCaption {
        /// Which part (0 is the first).
        #[contract(min = 0)]
        part_index: i64,
        /// The caption; null removes it.
        #[contract(max_length = 200)]
        caption: Option<String>,
    },
    /// Remove a button from a part.
    RemoveButton {
        /// Which part (0 is the first).
        #[contract(min = 0)]
        part_index: i64,
        /// Which button of the part (0 is the first).
        #[contract(min = 0, max = 2)]
        button_index: i64,
    },
    /// Set where a part's button leads.
    SetButtonUrl {
        /// Which part (0 is the first).
        #[contract(min = 0)]
        part_index: i64,
        /// Which button of the part (0 is the first).
        #[contract(min = 0, max = 2)]
        button_index: i64,
        /// The address the button opens.
        #[contract(format = "uri")]
        url: String,
    },
    /// Duplicate a part right after itself.
    DuplicatePart {
        /// Which part (0 is the first).
        #[contract(min = 0)]
        part_index: i64,
    },
    /// Remove the media item of a media slot.
    RemoveMedia {
        /// Which media slot (0 is the first; a broadcast has 16).
        #[contract(min = 0, max = 15)]
        media_index: i64,
    },
    /// Schedule the broadcast.
    SetSchedule {
        /// When to send, as an RFC 3339 date-time.
        #[contract(format = "date-time")]
        send_at: String,
    },
    /// Choose who receives the broadcast.
    SetAudience {
        /// The audience.
        audience: Audience,
    },
    /// Rename the broadcast (the name recipients never see).
    SetTitle {
        /// The new title.
        #[contract(min_length = 1, max_length = 120)]
        title: String,
    },
}

#[cfg(test)]
#[path = "../../examples/contracts/broadcast_patch.rs"]
mod example;

/// The resident set of this process, in bytes (Linux's `/proc/self/statm`; 0 elsewhere): what
/// the memory benchmarks read before and after.
pub fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|field| field.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

#[cfg(test)]
mod tests {
    use super::example;
    use stitch::Contract;

    /// The copy cannot drift from the example's contract: the two advertise the same schemas.
    #[test]
    fn the_copy_advertises_the_examples_schemas() {
        assert_eq!(
            super::BroadcastPatch::INPUT_SCHEMA,
            example::BroadcastPatch::INPUT_SCHEMA
        );
        assert_eq!(
            super::BroadcastPatch::EXACT_SCHEMA,
            example::BroadcastPatch::EXACT_SCHEMA
        );
        assert_eq!(
            super::BroadcastPatch::TOOL.name,
            example::BroadcastPatch::TOOL.name
        );
    }

    /// The generated validator's schema is the contract's exact schema.
    #[test]
    fn the_generated_validator_reads_the_exact_schema() {
        let file = include_str!("../incident-exact.schema.json");
        assert_eq!(file.trim_end(), super::BroadcastPatch::EXACT_SCHEMA);
        assert!(super::GeneratedValidator::is_valid(
            &super::call_with_32_operations()
        ));
    }
}
