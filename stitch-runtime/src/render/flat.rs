//! A flattened union as a schema writes it: one object, the tag first as a string `enum` whose
//! description names every operation, then every key in order of first appearance, each
//! advertised by its collision set's merge (`flatten` decides it; this writes it), with the
//! hint naming the operations that require or offer it.

use stitch_rules::Dialect;
use stitch_rules::strings::listed;

use super::Rendering;
use super::description::{
    Description, Hint, NO_NOTES, Notes, own_description, write_description, write_doc_text,
};
use super::node::{write_closed_empty, write_node, write_scalars, write_type};
use crate::dialect::{self, Null};
use crate::flatten::{CollisionSet, FlatKey, Keys};
use crate::node::{Doc, Kind, Union, kinds};
use crate::sink::Sink;
use crate::table::Merge;

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

/// The description the operations agree on (every one that has a description has this one).
const fn agreed_description(set: CollisionSet<'_>) -> Option<Doc> {
    let mut agreed: Option<Doc> = None;
    let mut members = set.members();
    while let Some(occurrence) = members.next() {
        if let Some(doc) = occurrence.field.description {
            match agreed {
                None => agreed = Some(doc),
                Some(seen) => {
                    if !seen.same(&doc) {
                        return None;
                    }
                }
            }
        }
    }
    agreed
}

/// One flattened key's schema, by its merge decision.
const fn write_key(
    sink: &mut Sink<'_>,
    union: &'static Union,
    key: &FlatKey,
    set: CollisionSet<'_>,
    rendering: Rendering,
) {
    let own = match agreed_description(set) {
        Some(doc) => Some(doc),
        None => match key.merge {
            Merge::Keep(node) => own_description(node),
            _ => None,
        },
    };
    let description = Description {
        own,
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
    // Inline, not a call: constant evaluation pays for every call (see `const_text`).
    let dialect = match rendering {
        Rendering::Exact => Dialect::Mcp,
        Rendering::Flat(dialect) => dialect,
    };
    match key.merge {
        Merge::Keep(node) => write_node(sink, node, rendering, description),
        Merge::StringEnum { nullable } => {
            let null = dialect::null(dialect, nullable, key.requirement);
            sink.byte(b'{');
            write_description(sink, description, true);
            if !matches!(dialect, Dialect::AnthropicStrict) {
                write_type(sink, kinds::STRING, matches!(null, Null::InType));
                sink.byte(b',');
            }
            sink.raw("\"enum\":[");
            write_enum_union(sink, set);
            if !matches!(null, Null::No) {
                sink.raw(",null");
            }
            sink.raw("]}");
        }
        Merge::Base {
            kinds: kind_bits, ..
        } => write_base(sink, kind_bits, dialect, description),
        Merge::Free(_) => {
            let strict = matches!(dialect, Dialect::OpenAiStrict | Dialect::AnthropicStrict);
            sink.byte(b'{');
            write_description(sink, description, strict);
            if strict {
                write_scalars(sink, dialect);
            }
            sink.byte(b'}');
        }
    }
}

/// A key advertised by its base kinds alone: a `type` (array) in `Mcp` and OpenAI's dialect,
/// `{}` naming the kinds in `Portable` when they are several, `anyOf` of the kinds in
/// Anthropic's; an object or array among them is open in the plain dialects and closed (no
/// keys, scalar items) in the strict ones.
const fn write_base(
    sink: &mut Sink<'_>,
    kind_bits: u8,
    dialect: Dialect,
    description: Description<'_>,
) {
    let plain = kind_bits & !kinds::NULL;
    let null = dialect::null(dialect, kind_bits & kinds::NULL != 0, description.presence);
    let several = dialect::several(plain);
    sink.byte(b'{');
    match dialect {
        Dialect::Portable if several => {
            let notes = Notes {
                dialect,
                moved: None,
                kinds: plain,
            };
            write_description(
                sink,
                Description {
                    notes,
                    ..description
                },
                false,
            );
        }
        Dialect::AnthropicStrict if several || !matches!(null, Null::No) => {
            write_description(sink, description, true);
            sink.raw("\"anyOf\":[");
            let mut bit = 0;
            let mut first = true;
            while bit < kinds::NAMES.len() {
                let kind = plain & (1 << bit);
                if kind != 0 {
                    if !first {
                        sink.byte(b',');
                    }
                    first = false;
                    sink.byte(b'{');
                    write_type(sink, kind, false);
                    write_base_extras(sink, kind, dialect);
                    sink.byte(b'}');
                }
                bit += 1;
            }
            if !matches!(null, Null::No) {
                sink.raw(",{\"type\":\"null\"}");
            }
            sink.byte(b']');
        }
        _ => {
            write_description(sink, description, true);
            write_type(sink, plain, matches!(null, Null::InType));
            write_base_extras(sink, plain, dialect);
        }
    }
    sink.byte(b'}');
}

/// What follows a base type's `type`: an object's or an array's open contents (`Mcp`,
/// `Portable`, and only for a single kind), or closed ones (strict dialects).
const fn write_base_extras(sink: &mut Sink<'_>, kind_bits: u8, dialect: Dialect) {
    if dialect.is_strict() {
        if kind_bits & kinds::OBJECT != 0 {
            write_closed_empty(sink);
        }
        if kind_bits & kinds::ARRAY != 0 {
            sink.raw(",\"items\":{");
            write_scalars(sink, dialect);
            sink.byte(b'}');
        }
    } else if kind_bits == kinds::OBJECT {
        sink.raw(",\"additionalProperties\":{}");
    } else if kind_bits == kinds::ARRAY {
        sink.raw(",\"items\":{}");
    }
}

/// Every value of the set's string enums, once each, in order of first appearance.
const fn write_enum_union(sink: &mut Sink<'_>, set: CollisionSet<'_>) {
    let mut members = set.members();
    let mut first = true;
    let mut position = 0;
    while let Some(occurrence) = members.next() {
        if let Kind::StringEnum(values, _) = occurrence.field.node.kind {
            let mut i = 0;
            let value_count = values.len();
            while i < value_count {
                if !seen_before(set, position, values, i) {
                    if !first {
                        sink.byte(b',');
                    }
                    first = false;
                    sink.string(values[i]);
                }
                i += 1;
            }
        }
        position += 1;
    }
}

/// Whether `values[index]` already appeared: earlier in its own list, or in the enum of a
/// member before `position`.
const fn seen_before(
    set: CollisionSet<'_>,
    position: usize,
    values: &[&str],
    index: usize,
) -> bool {
    let value = values[index];
    if listed(value, values.split_at(index).0) {
        return true;
    }
    let mut members = set.members();
    let mut at = 0;
    while at < position {
        if let Some(occurrence) = members.next()
            && let Kind::StringEnum(earlier, _) = occurrence.field.node.kind
            && listed(value, earlier)
        {
            return true;
        }
        at += 1;
    }
    false
}
