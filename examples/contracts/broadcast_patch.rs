//! The incident contract: `broadcast_patch` edits a live broadcast with a list of operations.
//! `partIndex` is shared by 8 of its 14 operations; stitch advertises it as an integer with
//! `minimum: 0`, so a model knows to send `1`, not `"1"`.

use serde::Deserialize;
use stitch::Contract;

/// Edit a broadcast: apply the operations in order.
#[derive(Contract, Deserialize, Debug, Clone, PartialEq)]
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
#[derive(Contract, Deserialize, serde::Serialize, Debug, Clone, Copy, PartialEq, Eq)]
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
#[derive(Contract, Deserialize, Debug, Clone, PartialEq)]
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
