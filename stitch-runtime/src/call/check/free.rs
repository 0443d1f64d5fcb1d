//! What the contract leaves free, and what the walk drops: values measured and dropped
//! without recursion (so no depth of input exhausts the stack), the structure a string holds
//! (a free value a strict client sent as JSON text among them), and the canonical text items
//! are compared by.

use serde_json::Value;

use crate::ir::{Kind, Node};

/// The deepest nesting accepted inside values the contract leaves free (serde_json's parser
/// stops at 128 too).
pub(super) const MAX_FREE_DEPTH: usize = 128;

/// Drops a value without recursion (serde_json's own drop recurses once per level).
pub fn drop_flat(value: Value) {
    let mut stack = vec![value];
    while let Some(mut value) = stack.pop() {
        match &mut value {
            Value::Array(items) => stack.append(items),
            Value::Object(map) => {
                stack.extend(std::mem::take(map).into_iter().map(|(_, child)| child));
            }
            _ => {}
        }
    }
}

/// Whether a value nests deeper than `limit`, found without recursion.
pub(super) fn depth_exceeds(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if depth >= limit {
            return true;
        }
        stack.extend(children.map(|child| (child, depth + 1)));
    }
    false
}

/// The structure a string holds, when the contract wants an object or array there, does not
/// accept a string, and the text parses to that structure.
#[inline(always)]
pub(super) fn structure_in_text(node: &Node<'static>, text: &str) -> Option<Value> {
    let wants_object = matches!(node.kind, Kind::Object(_) | Kind::Map(..) | Kind::Union(_));
    let wants_array = matches!(node.kind, Kind::Array(..) | Kind::Tuple(_));
    if !(wants_object || wants_array) {
        return None;
    }
    parsed_structure(text, wants_object)
}

/// A free value (any JSON) a strict client sent as its JSON text: the object or array the
/// text holds. A strict dialect shows a free value as scalars and says that an object or array
/// travels as its JSON text; `parse_for` and `strict_arguments_for` read it back by this one
/// rule. A string holding anything else stays the string it is.
pub(crate) fn free_value_in_text(text: &str) -> Option<Value> {
    match text.trim_start().as_bytes().first() {
        Some(b'{') => parsed_structure(text, true),
        Some(b'[') => parsed_structure(text, false),
        _ => None,
    }
}

/// Whether a string may be a free value sent as JSON text (it opens an object or array): the
/// valid path leaves it to the full check, which reads it by the caller's dialect.
#[inline]
pub(super) fn may_be_json_text(text: &str) -> bool {
    matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['))
}

/// The object (or array) `text` holds, if it holds one.
#[cold]
fn parsed_structure(text: &str, wants_object: bool) -> Option<Value> {
    let opening = if wants_object { b'{' } else { b'[' };
    if text.trim_start().as_bytes().first() != Some(&opening) {
        return None;
    }
    match serde_json::from_str::<Value>(text).ok()? {
        parsed @ Value::Object(_) if wants_object => Some(parsed),
        parsed @ Value::Array(_) if !wants_object => Some(parsed),
        _ => None,
    }
}

/// A value's text with numbers normalized, so `1` and `1.0` count as the same item; `None`
/// past `depth` levels.
pub(super) fn canonical(value: &Value, depth: usize) -> Option<String> {
    Some(match value {
        Value::Number(number) => match number.as_f64() {
            Some(float) if float.fract() == 0.0 && float.abs() < 9.0e15 => {
                format!("{}", float as i64)
            }
            _ => number.to_string(),
        },
        Value::Array(_) | Value::Object(_) if depth == 0 => return None,
        Value::Array(items) => {
            let inner: Option<Vec<String>> = items
                .iter()
                .map(|item| canonical(item, depth - 1))
                .collect();
            format!("[{}]", inner?.join(","))
        }
        Value::Object(map) => {
            let entries: Option<Vec<String>> = map
                .iter()
                .map(|(key, value)| Some(format!("{key:?}:{}", canonical(value, depth - 1)?)))
                .collect();
            let mut entries = entries?;
            entries.sort();
            format!("{{{}}}", entries.join(","))
        }
        other => other.to_string(),
    })
}
