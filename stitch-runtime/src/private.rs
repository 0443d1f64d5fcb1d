//! What the code `#[derive(Contract)]` generates names, and nothing else: one path for all of
//! it, hidden, not a public API (its items change with every compile-time optimisation).

pub use crate::attributes::{
    Count, Misfit, NumberBound, StringRule, catch, coerce, count, fallback, hidden, newtype_object,
    number_bound, string_rule, unique_items, values,
};
pub use crate::const_text::{AdvertisedScratch, WrittenOnce, exact_text, written_once};
pub use crate::contract::Contract;
pub use crate::flatten::{
    FlatTable, KeyIndices, decide, flat_table, key_indices, slots_for, total_fields,
};
pub use crate::guard::{guard_report, validate_mcp_schemas};
pub use crate::message::Message;
pub use crate::node::{
    ArrayRules, Bound, Doc, Escape, Field, Hazard, Kind, Node, NumberRules, Object, StringRules,
    Union, Variant, checks,
};
pub use crate::parse::{refine_field, refine_issue};
pub use crate::rejection::{Issue, JsonPointer};
pub use crate::render::{Mode, rendered, schema_len, schema_string, schema_string_in};
pub use crate::shape::Shape;
pub use crate::table::Flat;
pub use crate::tool::{SchemaProfile, Tool};

pub use serde::de::DeserializeOwned;
