//! A struct's `#[serde(flatten)]` fields, expanded in constant evaluation: a flattened
//! struct's fields join the object's at the flattened field's place, a flattened map's values
//! become what every other key holds. The derive names the expanded field count, so the list
//! is an array constant evaluation sizes. What serde cannot read so, [`flatten_misfit`] says,
//! and the derive refuses at compile time, at the flattened field: a flattened value that is
//! neither a struct nor a map (or is an `Option`), two fields on one key, two maps, and a
//! 128-bit integer (serde reads a flattening struct through a buffer that holds none).

use stitch_rules::Message;

use crate::ir::serde_buffer::holds_wide_integer;
use crate::ir::{Field, Kind, Node, Object};

/// A flattened field: its place among the object's own fields, and its type's node.
#[derive(Clone, Copy, Debug)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub struct Flattened {
    /// How many of the object's own fields come before it.
    pub at: usize,
    /// The field's Rust name, for messages.
    pub name: &'static str,
    /// Its type's node.
    pub node: &'static Node<'static>,
}

/// The number of fields once the flattened structs' fields are expanded.
pub const fn flattened_count(own: &[Field], flattened: &[Flattened]) -> usize {
    let mut count = own.len();
    let mut i = 0;
    while i < flattened.len() {
        if let Kind::Object(object) = flattened[i].node.kind {
            count += object.fields.len();
        }
        i += 1;
    }
    count
}

/// The object's fields with every flattened struct's expanded in place (`N` is
/// [`flattened_count`]; what does not fit is left out, and [`flatten_misfit`] says why).
pub const fn flattened_fields<'a, const N: usize>(
    own: &'a [Field<'a>],
    flattened: &'a [Flattened],
) -> [Field<'a>; N] {
    let mut fields = [PLACEHOLDER; N];
    let mut written = 0;
    let mut next_own = 0;
    let mut i = 0;
    while i <= flattened.len() {
        let until = if i < flattened.len() {
            flattened[i].at
        } else {
            own.len()
        };
        while next_own < until && written < N {
            fields[written] = own[next_own];
            written += 1;
            next_own += 1;
        }
        if i < flattened.len()
            && let Kind::Object(object) = flattened[i].node.kind
        {
            let mut f = 0;
            while f < object.fields.len() && written < N {
                fields[written] = object.fields[f];
                written += 1;
                f += 1;
            }
        }
        i += 1;
    }
    fields
}

/// What every other key holds: the flattened map's values, if a map is flattened.
pub const fn flattened_rest(flattened: &[Flattened]) -> Option<&'static Node<'static>> {
    let mut i = 0;
    while i < flattened.len() {
        if let Kind::Map(values, _) = flattened[i].node.kind {
            return Some(values);
        }
        i += 1;
    }
    None
}

/// The object with its flattened map's values as what every other key holds.
pub const fn with_flattened_rest<'a>(object: Object<'a>, flattened: &'a [Flattened]) -> Object<'a> {
    match flattened_rest(flattened) {
        Some(rest) => object.with_rest(rest),
        None => object,
    }
}

const PLACEHOLDER: Field = Field::new("", &Node::OPAQUE, false, None);

/// Why serde could not read the flattened object as the expansion describes it (the derive
/// refuses it at compile time): of the `which`-th flattened field, at that field; with
/// `which` past the last, of the object as a whole (two maps, a wide integer beside them).
pub const fn flatten_misfit(
    own: &[Field],
    flattened: &[Flattened],
    which: usize,
) -> Option<Message> {
    if which < flattened.len() {
        return field_misfit(own, flattened, which);
    }
    let mut maps = 0;
    let mut i = 0;
    while i < flattened.len() {
        if matches!(flattened[i].node.kind, Kind::Map(..)) {
            maps += 1;
        }
        i += 1;
    }
    if maps > 1 {
        return Some(
            Message::new()
                .push("stitch: two flattened maps would both take every other key: flatten one"),
        );
    }
    let mut f = 0;
    while f < own.len() {
        if !flattened.is_empty() && holds_wide_integer(own[f].node) {
            return Some(Message::new().push("stitch: `").push(own[f].name).push(
                "` holds a 128-bit integer beside a flattened field: serde reads such \
                         a struct through a buffer that holds none; use `u64` or `i64`",
            ));
        }
        f += 1;
    }
    None
}

/// Why serde could not read the `i`-th flattened field as the expansion describes it.
const fn field_misfit(own: &[Field], flattened: &[Flattened], i: usize) -> Option<Message> {
    let field = &flattened[i];
    let node = field.node;
    match node.kind {
        _ if node.nullable => {
            return Some(flatten_message(field.name).push(
                "` is an `Option`: serde reads it as `None` when its keys do not fit, \
                 which a schema cannot say; flatten the struct itself",
            ));
        }
        Kind::Object(object) => {
            let mut f = 0;
            while f < object.fields.len() {
                let name = object.fields[f].name;
                if named(own, name) || named_before(flattened, i, name) {
                    return Some(
                        flatten_message(field.name)
                            .push("` brings the key `")
                            .push(name)
                            .push("`, which another field has too: serde would read it once"),
                    );
                }
                f += 1;
            }
        }
        Kind::Map(..) => {}
        _ => {
            return Some(flatten_message(field.name).push(
                "` is neither a struct nor a map: serde flattens only the keys of an object",
            ));
        }
    }
    if holds_wide_integer(node) {
        return Some(flatten_message(field.name).push(
            "` holds a 128-bit integer: serde reads a flattening struct through a buffer \
             that holds none, so every call would fail; use `u64` or `i64`",
        ));
    }
    None
}

const fn flatten_message(field: &str) -> Message {
    Message::new()
        .push("stitch: the flattened field `")
        .push(field)
}

/// Whether one of the fields has this wire name.
const fn named(fields: &[Field], name: &str) -> bool {
    let mut f = 0;
    while f < fields.len() {
        if stitch_rules::strings::str_eq(fields[f].name, name) {
            return true;
        }
        f += 1;
    }
    false
}

/// Whether a struct flattened before the `i`th brings this key.
const fn named_before(flattened: &[Flattened], i: usize, name: &str) -> bool {
    let mut j = 0;
    while j < i {
        if let Kind::Object(object) = flattened[j].node.kind
            && named(object.fields, name)
        {
            return true;
        }
        j += 1;
    }
    false
}
