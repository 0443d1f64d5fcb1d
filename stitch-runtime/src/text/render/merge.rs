//! A set of nodes as one schema, by the collision rules' decision: a kept node as it is, the
//! union of string enums, the hull of a shared kind (stepping into the set for what its
//! members hold inside, decided again), the base kinds alone, or a free value.

use stitch_rules::strings::listed;
use stitch_rules::{DialectRules, FreeValues, Omitted, SeveralKinds};

use super::Rendering;
use super::description::{
    Description, NO_NOTES, Notes, ShapeNote, any_meanings, own_description, write_description,
};
use super::node::{write_closed_empty, write_node, write_scalars, write_type};
use crate::ir::key_table::{Described, Merge};
use crate::ir::{Doc, Kind, kinds};
use crate::text::dialect_forms::{self, Null};
use crate::text::sink::Sink;
use crate::union::{KeyMerge, NodeSet, SetProperties, Step, all_deny_unknown, decide, hull_node};

/// A set's schema, by its merge decision.
pub(super) const fn write_merge(
    sink: &mut Sink<'_>,
    merge: KeyMerge,
    set: NodeSet<'_>,
    rendering: Rendering,
    description: Description<'_>,
) {
    let rules: &DialectRules = rules_of!(rendering);
    // What merged enums' values mean is said, as a kept enum's is.
    let description = match merge {
        Merge::StringEnum { .. } if any_meanings(set) => Description {
            notes: Notes {
                shape: Some(ShapeNote::SetMeanings(set)),
                ..description.notes
            },
            ..description
        },
        _ => description,
    };
    match merge {
        Merge::Keep(node) => write_node(sink, node, None, rendering, description),
        Merge::Hull { kinds: kind_bits } => {
            let hull = hull_node(set, kind_bits);
            write_node(sink, &hull, Some(&set), rendering, description);
        }
        Merge::StringEnum { nullable } if nullable && matches!(rendering, Rendering::Output) => {
            sink.byte(b'{');
            write_description(sink, description, true);
            sink.raw("\"anyOf\":[{\"type\":\"string\",\"enum\":[");
            write_enum_union(sink, set);
            sink.raw("]},{\"type\":\"null\"}]}");
        }
        Merge::StringEnum { nullable } => {
            let null = dialect_forms::null(rules, nullable, description.presence);
            sink.byte(b'{');
            write_description(sink, description, true);
            if rules.enum_type {
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
        } => write_base(
            sink,
            kind_bits,
            rules,
            matches!(rendering, Rendering::Output),
            description,
        ),
        Merge::Free(_) => {
            let typed = matches!(rules.free, FreeValues::JsonText);
            sink.byte(b'{');
            write_description(sink, description, typed);
            if typed {
                write_scalars(sink, rules);
            }
            sink.byte(b'}');
        }
    }
}

/// What a hull's members hold at `step` (their items, their values), decided and written.
pub(super) const fn write_inner<'a>(
    sink: &mut Sink<'_>,
    set: NodeSet<'_>,
    step: Step<'a>,
    rendering: Rendering,
) {
    write_set(sink, set.step(step), rendering);
}

/// A set that is not a property (items, values), decided and written.
pub(super) const fn write_set(sink: &mut Sink<'_>, set: NodeSet<'_>, rendering: Rendering) {
    let merge = decide(set);
    let (own, several) = set_description(set, merge);
    let description = Description {
        several,
        ..Description::own(own)
    };
    write_merge(sink, merge, set, rendering, description);
}

/// What a set's members say of it: the description they agree on (every one that has one has
/// this one), or the kept node's own; or, when they word it differently, the set itself, so
/// that each text is written labelled by its operations (`write_several`).
pub(super) const fn set_description<'a>(
    set: NodeSet<'a>,
    merge: KeyMerge<'a>,
) -> (Option<Doc<'a>>, Option<NodeSet<'a>>) {
    let mut said = Described::Nowhere;
    let mut members = set.members();
    while let Some(member) = members.next() {
        if let Some(field) = member.field
            && let Some(doc) = field.description
        {
            said = said.and(doc);
            if matches!(said, Described::Differently) {
                break;
            }
        }
    }
    described(said, set, merge)
}

/// A set's description from what its members say of it (`set_description`, or a key
/// table's record of the same).
pub(super) const fn described<'a>(
    said: Described<Doc<'a>>,
    set: NodeSet<'a>,
    merge: KeyMerge<'a>,
) -> (Option<Doc<'a>>, Option<NodeSet<'a>>) {
    match (said, merge) {
        (Described::Differently, _) => (None, Some(set)),
        (Described::Agreed(doc), _) => (Some(doc), None),
        (Described::Nowhere, Merge::Keep(node)) => (own_description(node), None),
        _ => (None, None),
    }
}

/// The properties of a hull of objects: every property any member declares, each decided
/// over the members declaring it; required where every member requires it; closed where
/// every member is (and always where the dialect closes objects).
pub(super) const fn write_hull_object_body(
    sink: &mut Sink<'_>,
    set: &NodeSet<'_>,
    rendering: Rendering,
) {
    let rules: &DialectRules = rules_of!(rendering);
    sink.raw(",\"properties\":{");
    let mut properties = SetProperties::of(*set);
    let mut first = true;
    while let Some(property) = properties.next() {
        if !first {
            sink.byte(b',');
        }
        first = false;
        sink.name_key(property.name, property.plain);
        let merge = decide(property.set);
        let (own, several) = set_description(property.set, merge);
        let description = Description {
            own,
            several,
            hint: None,
            presence: property.requirement,
            notes: NO_NOTES,
        };
        write_merge(sink, merge, property.set, rendering, description);
    }
    sink.raw("},\"required\":[");
    let every = matches!(rules.omitted, Omitted::SentAsNull);
    let mut properties = SetProperties::of(*set);
    first = true;
    while let Some(property) = properties.next() {
        if every || property.requirement.by_every {
            if !first {
                sink.byte(b',');
            }
            first = false;
            sink.name(property.name, property.plain);
        }
    }
    sink.byte(b']');
    if rules.objects_closed || all_deny_unknown(*set) {
        sink.raw(",\"additionalProperties\":false");
    }
}

/// A key advertised by its base kinds alone: a `type` (array), or where the dialect says
/// several kinds in words (`SeveralKinds::Described`) and they are several, `{}` naming them;
/// in an output schema and where the dialect says them as branches, `anyOf` of one branch per
/// kind. An object or array among them is open
/// where the dialect leaves objects open, and closed (no keys, scalar items) where it closes
/// them.
pub(super) const fn write_base(
    sink: &mut Sink<'_>,
    kind_bits: u8,
    rules: &DialectRules,
    output: bool,
    description: Description<'_>,
) {
    let plain = kind_bits & !kinds::NULL;
    let nullable = kind_bits & kinds::NULL != 0;
    let null = if output && nullable {
        Null::AnyOf
    } else {
        dialect_forms::null(rules, nullable, description.presence)
    };
    let several = crate::ir::several(plain);
    sink.byte(b'{');
    if several && matches!(rules.kinds, SeveralKinds::Described) {
        let notes = Notes {
            dialect: rules.dialect,
            moved: None,
            kinds: plain,
            shape: None,
        };
        write_description(
            sink,
            Description {
                notes,
                ..description
            },
            false,
        );
    } else if (output || matches!(rules.kinds, SeveralKinds::Branches))
        && (several || !matches!(null, Null::No))
    {
        write_description(sink, description, true);
        write_branches(sink, plain, !matches!(null, Null::No), rules);
    } else {
        write_description(sink, description, true);
        write_type(sink, plain, matches!(null, Null::InType));
        write_base_extras(sink, plain, rules);
    }
    sink.byte(b'}');
}

/// `"anyOf"` of one branch per kind (with what follows its `type`), and `null` last when
/// `null`: an output schema's, and a dialect's that says several kinds as branches.
pub(super) const fn write_branches(
    sink: &mut Sink<'_>,
    plain: u8,
    null: bool,
    rules: &DialectRules,
) {
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
            write_base_extras(sink, kind, rules);
            sink.byte(b'}');
        }
        bit += 1;
    }
    if null {
        sink.raw(if first {
            "{\"type\":\"null\"}"
        } else {
            ",{\"type\":\"null\"}"
        });
    }
    sink.byte(b']');
}

/// What follows a base type's `type`: an object's or an array's open contents (only for a
/// single kind), or where the dialect closes objects, closed ones (no keys; scalar items,
/// objects and arrays inside sent as JSON text).
const fn write_base_extras(sink: &mut Sink<'_>, kind_bits: u8, rules: &DialectRules) {
    if rules.objects_closed {
        if kind_bits & kinds::OBJECT != 0 {
            write_closed_empty(sink);
        }
        if kind_bits & kinds::ARRAY != 0 {
            sink.raw(",\"items\":{");
            write_scalars(sink, rules);
            sink.byte(b'}');
        }
    } else if kind_bits == kinds::OBJECT {
        sink.raw(",\"additionalProperties\":{}");
    } else if kind_bits == kinds::ARRAY {
        sink.raw(",\"items\":{}");
    }
}

/// Every value of the set's string enums, once each, in order of first appearance.
const fn write_enum_union(sink: &mut Sink<'_>, set: NodeSet<'_>) {
    let mut members = set.members();
    let mut first = true;
    let mut position = 0;
    while let Some(member) = members.next() {
        if let Kind::StringEnum(values, ..) = member.node.kind {
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
const fn seen_before(set: NodeSet<'_>, position: usize, values: &[&str], index: usize) -> bool {
    let value = values[index];
    if listed(value, values.split_at(index).0) {
        return true;
    }
    let mut members = set.members();
    let mut at = 0;
    while at < position {
        if let Some(member) = members.next()
            && let Kind::StringEnum(earlier, ..) = member.node.kind
            && listed(value, earlier)
        {
            return true;
        }
        at += 1;
    }
    false
}
