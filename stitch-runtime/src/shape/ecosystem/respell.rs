//! How another crate's type respells a value: read by its own serde and written back, the
//! spelling `parse` names where the schema refuses the one sent.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::ir::{Node, Respell};

/// The node, `parse` naming the spelling `T` writes of a text it reads that the schema
/// refuses (see [`Respell`]).
pub(super) const fn spelled_as<T: DeserializeOwned + Serialize>(
    node: &Node<'static>,
) -> Node<'static> {
    node.respelled_by(Respell(written_as_read::<T>))
}

/// The value read by `T`'s serde and written back by it: a string, or a number's text (a
/// decimal under `serde-float`); `None` where `T` does not read it.
fn written_as_read<T: DeserializeOwned + Serialize>(value: &Value) -> Option<String> {
    let read = T::deserialize(value).ok()?;
    match serde_json::to_value(&read).ok()? {
        Value::String(written) => Some(written),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}
