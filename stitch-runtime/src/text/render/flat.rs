//! A flattened union as a schema writes it: one object, the tag first as a string `enum` whose
//! description names every operation, then every key in order of first appearance (beside
//! the tag, or in the content key of an adjacently tagged union), each advertised by its
//! collision set's merge (`union` decides it; this writes it), with the hint naming the
//! operations that require or offer it (or, `Hints::ByOperation`, each operation naming its
//! keys in the tag's description); or, externally tagged, one key per operation.

use stitch_rules::hint::{SUMMARY_DASH, SUMMARY_SEPARATOR};
use stitch_rules::{DialectRules, Keyword, Omitted};

use super::Rendering;
use super::description::{Description, Hint, NO_NOTES, write_doc_text};
use super::merge::{described, write_merge};
use super::node::{write_node, write_type};
use crate::ir::key_table::{Flat, Merge, Requirement};
use crate::ir::{Hints, Holds, Kind, Node, Object, Tagging, Union, Variant, kinds};
use crate::text::dialect_forms::{self, Null};
use crate::text::sink::Sink;
use crate::union::{CollisionSet, FlatKey, Keys, NodeSet};

/// The advertised schema of a union: one object (`null` in its type when `null`). Internally
/// tagged, the tag first, then every key merged; adjacently tagged, the tag, then the content
/// key holding every key merged; externally tagged, one optional key per operation, exactly
/// one of which is sent.
pub(super) const fn write_flat<'a>(
    sink: &mut Sink<'_>,
    union: &'a Union<'a>,
    null: bool,
    rendering: Rendering,
) {
    let rules: &DialectRules = rules_of!(rendering);
    write_type(sink, kinds::OBJECT, null);
    let content = match union.tagging {
        Tagging::External => return write_external(sink, union, rendering),
        Tagging::Internal => None,
        Tagging::Adjacent(content) => Some(content),
    };
    sink.raw(",\"properties\":{");
    sink.key(union.tag);
    sink.raw("{\"description\":\"");
    write_operations_summary(sink, union);
    sink.raw("\",");
    if rules.enum_type {
        sink.raw("\"type\":\"string\",");
    }
    sink.raw("\"enum\":[");
    write_operation_names(sink, union);
    sink.raw("]}");
    let Some(content) = content else {
        write_keys(sink, union, rendering, Some(union.tag));
        return;
    };
    // Adjacent: the content key, required when every operation has content.
    let presence = content_presence(union);
    sink.byte(b',');
    sink.key(content);
    sink.byte(b'{');
    let null = dialect_forms::null(rules, false, presence);
    write_type(sink, kinds::OBJECT, matches!(null, Null::InType));
    write_keys(sink, union, rendering, None);
    sink.raw("}},\"required\":[");
    sink.string(union.tag);
    if presence.by_every || matches!(rules.omitted, Omitted::SentAsNull) {
        sink.byte(b',');
        sink.string(content);
    }
    sink.byte(b']');
    write_closed(sink, union, rules);
}

/// Every operation's name as a JSON string, comma-separated: the derive's list copied whole
/// where it wrote one (`NameLists`), else name by name.
const fn write_operation_names(sink: &mut Sink<'_>, union: &Union) {
    if let Some(Flat {
        names: Some(lists), ..
    }) = union.flat
    {
        sink.raw(lists.names);
        return;
    }
    let mut v = 0;
    let variant_count = union.variants.len();
    while v < variant_count {
        if v > 0 {
            sink.byte(b',');
        }
        sink.name(union.variants[v].name, union.variants[v].plain);
        v += 1;
    }
}

/// `,"properties":{...}` with every key of the union merged (after the tag, when given),
/// then `required` and whether unknown keys are refused.
const fn write_keys<'a>(
    sink: &mut Sink<'_>,
    union: &'a Union<'a>,
    rendering: Rendering,
    tag: Option<&str>,
) {
    let rules: &DialectRules = rules_of!(rendering);
    let mut first = tag.is_none();
    if first {
        sink.raw(",\"properties\":{");
    }
    let others_open = union.takes_other_keys();
    let mut keys = Keys::of(union);
    while let Some((key, set)) = keys.next() {
        if !first {
            sink.byte(b',');
        }
        first = false;
        sink.name_key(key.name, key.plain);
        write_key(sink, union, &key, set, rendering, others_open);
    }
    sink.raw("},\"required\":[");
    first = true;
    if let Some(tag) = tag {
        sink.string(tag);
        first = false;
    }
    let every = matches!(rules.omitted, Omitted::SentAsNull);
    let mut keys = Keys::of(union);
    while let Some((key, _)) = keys.next() {
        if every || key.requirement.by_every {
            if !first {
                sink.byte(b',');
            }
            first = false;
            sink.name(key.name, key.plain);
        }
    }
    sink.byte(b']');
    write_closed(sink, union, rules);
}

/// `additionalProperties: false` where the operations refuse unknown keys, and always where
/// the dialect closes objects.
const fn write_closed(sink: &mut Sink<'_>, union: &Union, rules: &DialectRules) {
    if rules.objects_closed || union.all_deny_unknown() {
        sink.raw(",\"additionalProperties\":false");
    }
}

/// Which operations send an adjacently tagged union's content key: every one but the unit
/// operations.
const fn content_presence(union: &Union) -> Requirement {
    let mut with_content = 0;
    let mut v = 0;
    while v < union.variants.len() {
        if !is_unit(&union.variants[v]) {
            with_content += 1;
        }
        v += 1;
    }
    Requirement::counted(with_content, union.variants.len(), false, false)
}

/// Whether an operation holds nothing (a unit variant).
pub(crate) const fn is_unit(variant: &Variant) -> bool {
    matches!(variant.holds, Holds::Nothing)
}

/// An externally tagged union: one optional key per operation, holding what it holds (a unit
/// operation, an empty object), exactly one of which is sent.
const fn write_external<'a>(sink: &mut Sink<'_>, union: &'a Union<'a>, rendering: Rendering) {
    let rules: &DialectRules = rules_of!(rendering);
    // Where every key is sent (`null` for those left out), the count of keys says nothing.
    let every = matches!(rules.omitted, Omitted::SentAsNull);
    sink.raw(",\"properties\":{");
    let mut v = 0;
    while v < union.variants.len() {
        let variant = &union.variants[v];
        if v > 0 {
            sink.byte(b',');
        }
        sink.name_key(variant.name, variant.plain);
        let description = Description {
            own: variant.description,
            several: None,
            hint: None,
            presence: Requirement::NONE,
            notes: NO_NOTES,
        };
        write_node(
            sink,
            &operation_value(variant),
            None,
            rendering,
            description,
        );
        v += 1;
    }
    sink.raw("},\"required\":[");
    if every {
        let mut v = 0;
        while v < union.variants.len() {
            if v > 0 {
                sink.byte(b',');
            }
            sink.name(union.variants[v].name, union.variants[v].plain);
            v += 1;
        }
    }
    sink.byte(b']');
    if !every && rules.keywords[Keyword::MinProperties as usize].takes("", 1) {
        sink.raw(",\"minProperties\":1");
    }
    if !every && rules.keywords[Keyword::MaxProperties as usize].takes("", 1) {
        sink.raw(",\"maxProperties\":1");
    }
    sink.raw(",\"additionalProperties\":false");
}

/// What an operation's content key (adjacently tagged) or name key (externally) holds, as a
/// node: its fields as an object, a newtype's value, or for a unit operation an empty object
/// or `null` (serde's `null` alone cannot be told from a key left out where a strict client
/// sends every key; `parse` hands serde `null` for either).
pub(crate) const fn operation_value<'a>(variant: &'a Variant<'a>) -> Node<'a> {
    match variant.holds {
        Holds::Fields => Node::of(Kind::Object(variant.object)),
        Holds::Value(node) => *node,
        Holds::Nothing => UNIT_VALUE,
    }
}

/// A unit operation's value in an externally tagged union: an empty object, or `null`.
pub(crate) const UNIT_VALUE: Node =
    Node::of(Kind::Object(&Object::new(&[], true, None))).nullable();

/// The tag's description: every operation with the first line of its doc, and with its keys
/// when the union says its hints by operation. Without keys, the derive's list is copied
/// whole where it wrote one (`NameLists`).
const fn write_operations_summary<'a>(sink: &mut Sink<'_>, union: &'a Union<'a>) {
    let keys = matches!(union.hints, Hints::ByOperation);
    sink.raw(if keys {
        "The operation, with its keys (? optional): "
    } else {
        "The operation: "
    });
    match union.flat {
        Some(Flat {
            names: Some(lists), ..
        }) if !keys => sink.raw(lists.operations),
        _ => write_operation_list(sink, union, keys),
    }
    sink.raw(".");
}

/// Every operation with the first line of its doc, `a — Adds; b`, and with `keys`, the keys
/// it takes: `a(x, y?) — Adds`.
pub(super) const fn write_operation_list<'a>(
    sink: &mut Sink<'_>,
    union: &'a Union<'a>,
    keys: bool,
) {
    let mut v = 0;
    let variant_count = union.variants.len();
    while v < variant_count {
        let variant = &union.variants[v];
        let separator = if v > 0 { SUMMARY_SEPARATOR } else { "" };
        sink.name_after(separator, variant.name, variant.plain);
        if keys {
            write_operation_keys(sink, union, v);
        }
        if let Some(summary) = variant.summary {
            sink.raw(SUMMARY_DASH);
            write_doc_text(sink, &summary);
        }
        v += 1;
    }
}

/// The keys operation `v` takes, `(x, y?)`: what the keys' hints say (`Hints::ByKey`), said
/// for one operation. A key every operation requires is in `required` and named by none; a key
/// some operations require is named by those; a key none requires is named, with `?`, by
/// those that take it.
///
/// It walks the keys once per operation: quadratic in the operations, in constant evaluation
/// too, which a union that asks for it pays (a few dozen operations cost little).
const fn write_operation_keys<'a>(sink: &mut Sink<'_>, union: &'a Union<'a>, v: usize) {
    let mut keys = Keys::of(union);
    let mut named = 0;
    while let Some((key, set)) = keys.next() {
        if key.requirement.by_every {
            continue;
        }
        let mut members = set.members();
        while let Some(occurrence) = members.next() {
            if occurrence.variant as usize != v {
                continue;
            }
            if key.requirement.by_some && !occurrence.field.required {
                break;
            }
            sink.name_after(if named == 0 { "(" } else { ", " }, key.name, key.plain);
            if !key.requirement.by_some {
                sink.byte(b'?');
            }
            named += 1;
            break;
        }
    }
    if named > 0 {
        sink.byte(b')');
    }
}

/// One flattened key's schema, by its merge decision.
const fn write_key<'a>(
    sink: &mut Sink<'_>,
    union: &'a Union<'a>,
    key: &FlatKey<'a>,
    set: CollisionSet<'_>,
    rendering: Rendering,
    others_open: bool,
) {
    let nodes = NodeSet::of(set);
    let (own, several) = described(key.description, nodes, key.merge);
    let description = Description {
        own,
        several,
        hint: if key.requirement.by_every || matches!(union.hints, Hints::ByOperation) {
            None
        } else {
            Some(Hint {
                union,
                set,
                listed: key.listed,
                required_by_some: key.requirement.by_some,
                others_open,
            })
        },
        presence: key.requirement,
        notes: NO_NOTES,
    };
    match key.merge {
        // The common case, without the dispatch's call (see `const_text`).
        Merge::Keep(node) => write_node(sink, node, None, rendering, description),
        merge => write_merge(sink, merge, nodes, rendering, description),
    }
}
