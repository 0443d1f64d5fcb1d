//! A map as a strict client sends it: an array of `{"key": K, "value": V}` entries, since a
//! strict dialect closes every object and a map's keys cannot be keys there. Read back into
//! the map serde reads, by `parse_for` (here, each entry's value checked where it was sent)
//! and by `strict_arguments_for` (for a foreign tool), with one reading of what an entry is.

use serde_json::{Map, Value};
use stitch_rules::IssueCode;

use super::path::Path;
use super::words::describe;
use super::{Checker, Subject};
use crate::ir::Node;

/// An entry's key, when the value is an entry: an object of exactly a string `key` and a
/// `value`.
pub(crate) fn entry_key(entry: &Value) -> Option<&str> {
    let Value::Object(entry) = entry else {
        return None;
    };
    if entry.len() != 2 || !entry.contains_key("value") {
        return None;
    }
    entry.get("key")?.as_str()
}

/// Entries read back into a map, when every one is an entry and no key repeats; else `None`,
/// and the entries are left as they came.
pub(crate) fn map_of_entries(entries: &mut Value) -> Option<Map<String, Value>> {
    let Value::Array(items) = entries else {
        return None;
    };
    let mut keys = std::collections::HashSet::with_capacity(items.len());
    if !items
        .iter()
        .all(|entry| entry_key(entry).is_some_and(|key| keys.insert(key.to_owned())))
    {
        return None;
    }
    let mut map = Map::with_capacity(items.len());
    for entry in std::mem::take(items) {
        if let Value::Object(mut entry) = entry
            && let (Some(Value::String(key)), Some(value)) =
                (entry.remove("key"), entry.remove("value"))
        {
            map.insert(key, value);
        }
    }
    Some(map)
}

impl Checker {
    /// A map sent as entries: each entry's value checked at its place in the array, a
    /// malformed entry or a repeated key an issue there; then, when all is well, the map.
    pub(super) fn entries(
        &mut self,
        map: &'static Node<'static>,
        value_node: &'static Node<'static>,
        value: &mut Value,
        at: &Path<'_>,
    ) {
        let Value::Array(items) = value else {
            return;
        };
        self.keywords(&map.kind, Subject::Entries(items.len()), at);
        let mut keys = std::collections::HashSet::with_capacity(items.len());
        for (index, entry) in items.iter_mut().enumerate() {
            if self.stopped {
                return;
            }
            let at = at.index(index);
            let Some(key) = entry_key(entry).map(str::to_owned) else {
                let message = format!(
                    "expected an entry {{\"key\": a string, \"value\": ...}}, got {} — send each of the map's keys as one entry",
                    describe(entry)
                );
                self.issue(&at, IssueCode::InvalidType, message);
                continue;
            };
            if !keys.insert(key.clone()) {
                let message =
                    format!("the key \"{key}\" is in an earlier entry too — send each key once");
                self.issue(&at.key("key"), IssueCode::DuplicateKey, message);
            }
            if let Some(element) = entry.get_mut("value") {
                self.value(value_node, element, &at.key("value"));
            }
        }
        if let Some(read) = map_of_entries(value) {
            *value = Value::Object(read);
        }
    }
}
