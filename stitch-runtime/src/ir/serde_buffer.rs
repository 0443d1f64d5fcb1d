//! What serde buffers, and what its buffer cannot hold. serde reads an internally or
//! adjacently tagged operation (and a flattened field) into a buffer before it knows which
//! type to read it as, and that buffer holds no 128-bit integer: every call of such an
//! operation would fail with serde's "u128 is not supported", at the root. The derive refuses
//! it at compile time instead, naming the operation and the field: natively where the type's
//! spelling tells, here where only its shape does.

use stitch_rules::Message;

use crate::ir::{Kind, Node, NumberType};

/// A field of a buffered operation whose type only its shape knows (the derive refuses a
/// 128-bit integer it can see in a type's spelling, and leaves out the types it knows hold
/// none): the operation's name, the field's (empty for a newtype operation) and the node.
#[derive(Clone, Copy, Debug)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub struct Buffered {
    /// The operation's name.
    pub operation: &'static str,
    /// The field's name; empty for a newtype operation's type.
    pub field: &'static str,
    /// The field's (or the newtype's) node.
    pub node: &'static Node<'static>,
}

/// Why one of these fields of internally or adjacently tagged operations cannot be read by
/// serde: a 128-bit integer somewhere in it.
pub const fn unbufferable(fields: &[Buffered]) -> Option<Message> {
    let mut i = 0;
    while i < fields.len() {
        let field = &fields[i];
        if holds_wide_integer(field.node) {
            let message = Message::new()
                .push("stitch: operation `")
                .push(field.operation)
                .push("` holds a 128-bit integer");
            let message = if field.field.is_empty() {
                message
            } else {
                message.push(" in `").push(field.field).push("`")
            };
            return Some(message.push(
                ": serde reads a tagged operation through a buffer that holds no 128-bit \
                 integer, so every call would fail; use `u64` or `i64` (JSON carries no wider \
                 integer), or `#[contract(via = String)]` with serde's conversion",
            ));
        }
        i += 1;
    }
    None
}

/// Whether a 128-bit integer sits in a node, at any depth.
pub(crate) const fn holds_wide_integer(node: &Node) -> bool {
    match node.kind {
        Kind::Integer(rules) => matches!(rules.rust, NumberType::I128 | NumberType::U128),
        Kind::Array(item, _) | Kind::Map(item, _) => holds_wide_integer(item),
        Kind::Tuple(elements) => {
            let mut i = 0;
            while i < elements.len() {
                if holds_wide_integer(elements[i]) {
                    return true;
                }
                i += 1;
            }
            false
        }
        Kind::Object(object) => {
            if let Some(rest) = object.rest
                && holds_wide_integer(rest)
            {
                return true;
            }
            let mut i = 0;
            while i < object.fields.len() {
                if holds_wide_integer(object.fields[i].node) {
                    return true;
                }
                i += 1;
            }
            false
        }
        Kind::Union(union) => {
            let mut v = 0;
            while v < union.variants.len() {
                let variant = &union.variants[v];
                if let Some(value) = variant.value()
                    && holds_wide_integer(value)
                {
                    return true;
                }
                let fields = variant.object.fields;
                let mut f = 0;
                while f < fields.len() {
                    if holds_wide_integer(fields[f].node) {
                        return true;
                    }
                    f += 1;
                }
                v += 1;
            }
            false
        }
        _ => false,
    }
}
