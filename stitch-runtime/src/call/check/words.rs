//! How an issue's message describes what a node expects and what a value is.

use serde_json::Value;

use crate::ir::{Kind, Node, kinds};

/// What a node expects, for messages.
pub(super) fn expected(node: &Node<'static>) -> String {
    let base = match node.kind {
        Kind::StringEnum(values, ..) => format!("one of {}", quoted_list(values)),
        Kind::Any | Kind::Opaque | Kind::Kinds(_) | Kind::AnyOf(_) | Kind::Verbatim(_) => {
            "any value".to_owned()
        }
        kind => kinds::name(kind.json_kinds()).to_owned(),
    };
    if node.nullable {
        format!("{base} or null")
    } else {
        base
    }
}

/// A value as a message shows it: its kind and, for scalars, a short rendering.
pub(super) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(flag) => format!("boolean {flag}"),
        Value::Number(number) => format!("number {number}"),
        Value::String(text) => format!("string {}", short(text)),
        Value::Array(_) => "array".to_owned(),
        Value::Object(_) => "object".to_owned(),
    }
}

/// A string quoted, cut to a readable length.
pub(super) fn short(text: &str) -> String {
    const LIMIT: usize = 40;
    let mut shown: String = text.chars().take(LIMIT).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    serde_json::to_string(&shown).unwrap_or_default()
}

/// `"a", "b"`.
pub(super) fn quoted_list(values: &[&str]) -> String {
    values
        .iter()
        .map(|value| format!("\"{value}\""))
        .collect::<Vec<_>>()
        .join(", ")
}
