//! What serde buffers, and what its buffer cannot hold. serde reads an internally or
//! adjacently tagged operation (and a flattened field) into a buffer before it knows which
//! type to read it as, and that buffer holds no 128-bit integer: every call of such an operation would
//! fail with serde's "u128 is not supported", at the root. The derive refuses it at compile
//! time instead, naming the operation and the field.

use stitch_rules::Message;

use crate::node::{Kind, Node, NumberType, Union};

/// Why an operation of `union` cannot be read by serde: a 128-bit integer somewhere in it,
/// when serde reads its operations through a buffer (internally and adjacently tagged).
pub const fn unbufferable(union: &Union) -> Option<Message> {
    if !union.buffered() {
        return None;
    }
    let mut v = 0;
    while v < union.variants.len() {
        let variant = &union.variants[v];
        let fields = variant.object.fields;
        let mut f = 0;
        while f < fields.len() {
            if holds_wide_integer(fields[f].node) {
                return Some(
                    Message::new()
                        .push("stitch: operation `")
                        .push(variant.name)
                        .push("` holds a 128-bit integer in `")
                        .push(fields[f].name)
                        .push(
                            "`: serde reads a tagged operation through a buffer that holds no \
                             128-bit integer, so every call would fail; use `u64` or `i64` \
                             (JSON carries no wider integer), or `#[contract(via = String)]` \
                             with serde's conversion",
                        ),
                );
            }
            f += 1;
        }
        if let Some(value) = variant.value()
            && holds_wide_integer(value)
        {
            return Some(
                Message::new()
                    .push("stitch: operation `")
                    .push(variant.name)
                    .push(
                        "` holds a 128-bit integer: serde reads a tagged operation through a \
                         buffer that holds no 128-bit integer, so every call would fail; use \
                         `u64` or `i64` (JSON carries no wider integer), or \
                         `#[contract(via = String)]` with serde's conversion",
                    ),
            );
        }
        v += 1;
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
