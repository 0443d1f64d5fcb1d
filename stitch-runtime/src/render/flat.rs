//! A flattened union as a schema writes it: one object, the tag first as a string `enum` whose
//! description names every operation, then every key in order of first appearance, each
//! advertised by its collision set's merge (`flatten` decides it; this writes it), with the
//! hint naming the operations that require or offer it.

use stitch_rules::Dialect;

use super::Rendering;
use super::description::{Description, Hint, NO_NOTES, write_doc_text};
use super::merge::{set_description, write_merge};
use super::node::write_type;
use crate::flatten::{CollisionSet, FlatKey, Keys, NodeSet};
use crate::node::{Union, kinds};
use crate::sink::Sink;

/// The advertised schema of a union: one object, tag first, every key merged (`null` in its
/// type when `null`).
pub(super) const fn write_flat(
    sink: &mut Sink<'_>,
    union: &'static Union,
    null: bool,
    rendering: Rendering,
) {
    // Inline, not a call: constant evaluation pays for every call (see `const_text`).
    let dialect = match rendering {
        Rendering::Exact => Dialect::Mcp,
        Rendering::Flat(dialect) => dialect,
    };
    write_type(sink, kinds::OBJECT, null);
    sink.raw(",\"properties\":{");
    sink.key(union.tag);
    sink.raw("{\"description\":\"");
    write_operations_summary(sink, union);
    sink.raw("\",");
    if !matches!(dialect, Dialect::AnthropicStrict) {
        sink.raw("\"type\":\"string\",");
    }
    sink.raw("\"enum\":[");
    let mut v = 0;
    let variant_count = union.variants.len();
    while v < variant_count {
        if v > 0 {
            sink.byte(b',');
        }
        sink.name(union.variants[v].name, union.variants[v].plain);
        v += 1;
    }
    sink.raw("]}");
    let mut keys = Keys::of(union);
    while let Some((key, set)) = keys.next() {
        sink.byte(b',');
        sink.name_key(key.name, key.plain);
        write_key(sink, union, &key, set, rendering);
    }
    sink.raw("},\"required\":[");
    sink.string(union.tag);
    let every = matches!(dialect, Dialect::OpenAiStrict);
    let mut keys = Keys::of(union);
    while let Some((key, _)) = keys.next() {
        if every || key.requirement.by_every {
            sink.byte(b',');
            sink.name(key.name, key.plain);
        }
    }
    sink.byte(b']');
    if matches!(dialect, Dialect::OpenAiStrict | Dialect::AnthropicStrict)
        || union.all_deny_unknown()
    {
        sink.raw(",\"additionalProperties\":false");
    }
}

/// The tag's description: every operation with the first line of its doc.
const fn write_operations_summary(sink: &mut Sink<'_>, union: &Union) {
    sink.raw("The operation: ");
    let mut v = 0;
    let variant_count = union.variants.len();
    while v < variant_count {
        if v > 0 {
            sink.raw("; ");
        }
        let variant = &union.variants[v];
        sink.name_inside(variant.name, variant.plain);
        if let Some(summary) = variant.summary {
            sink.raw(" \u{2014} ");
            write_doc_text(sink, &summary);
        }
        v += 1;
    }
    sink.raw(".");
}

/// One flattened key's schema, by its merge decision.
const fn write_key(
    sink: &mut Sink<'_>,
    union: &'static Union,
    key: &FlatKey,
    set: CollisionSet<'_>,
    rendering: Rendering,
) {
    let description = Description {
        own: set_description(NodeSet::of(set), key.merge),
        hint: if key.requirement.by_every {
            None
        } else {
            Some(Hint {
                union,
                set,
                required_by_some: key.requirement.by_some,
            })
        },
        presence: key.requirement,
        notes: NO_NOTES,
    };
    write_merge(sink, key.merge, NodeSet::of(set), rendering, description);
}
