//! One node's schema, written by one writer per kind for every rendering: the exact schema
//! and the flat one in each dialect. What a dialect changes is read from its row at the few
//! places it differs (how `null` is said, a free value, a map, a tuple, a foreign `anyOf`);
//! the `Mcp` rendering, which constant evaluation runs, reads each as a field, not a call.

use stitch_rules::{
    AnyOf, DialectRules, FreeValues, Keyword, Maps, NullSaid, Omitted, SeveralKinds, Tuples,
};

use super::Rendering;
use super::description::{Description, Notes, ShapeNote, own_description, write_description};
use super::flat::write_flat;
use super::keywords::{moves_any, write_keywords};
use super::merge::{
    write_base, write_branches, write_hull_object_body, write_inner, write_merge, write_set,
};
use super::object::{write_object_body, write_one_of};
use crate::ir::{Kind, Node, Tagging, kinds};
use crate::text::dialect_forms::{self, Null};
use crate::text::sink::Sink;
use crate::union::{NodeSet, Step, decide};

/// A node's schema, with the type's own description.
pub(super) const fn write_root<'a>(sink: &mut Sink<'_>, node: &'a Node<'a>, rendering: Rendering) {
    write_node(
        sink,
        node,
        None,
        rendering,
        Description::own(own_description(node)),
    );
}

/// One node's schema object. With `hull`, the node is the hull of that set (`union`'s
/// `hull_node`), and what it holds inside is the set's, stepped into.
pub(super) const fn write_node(
    sink: &mut Sink<'_>,
    node: &Node,
    hull: Option<&NodeSet<'_>>,
    rendering: Rendering,
    desc: Description<'_>,
) {
    let rules: &DialectRules = rules_of!(rendering);
    let output = matches!(rendering, Rendering::Output);
    // A test before the call: constant evaluation pays for every call (see `const_text`).
    if matches!(node.kind, Kind::Kinds(_) | Kind::AnyOf(_)) {
        write_several_schemas(sink, node, rendering, desc);
        return;
    }
    let by_node_alone =
        matches!(rules.null, NullSaid::InType) && matches!(rules.omitted, Omitted::LeftOut);
    let null = if by_node_alone {
        // `dialect_forms::null` where the node alone says it (`Mcp`), without a call.
        if !node.nullable {
            Null::No
        } else if output {
            Null::AnyOf
        } else {
            Null::InType
        }
    } else {
        dialect_forms::null(rules, node.nullable, desc.presence)
    };
    let free = matches!(node.kind, Kind::Any | Kind::Opaque);
    // An opaque value says nothing of its type, unless the dialect types every value; in a
    // dialect that leaves free values untyped, neither does any value.
    let untyped = matches!(node.kind, Kind::Opaque) && !matches!(rules.free, FreeValues::JsonText)
        || free && matches!(rules.free, FreeValues::Untyped);
    // A dialect that takes JSON Schema whole notes only the shapes every dialect notes.
    let notes = if rules.whole_json_schema {
        match (node.kind, rendering) {
            (Kind::Union(union), Rendering::Flat(_) | Rendering::Output)
                if matches!(union.tagging, Tagging::External) =>
            {
                Notes {
                    shape: Some(ShapeNote::OneKeyOf(union)),
                    ..desc.notes
                }
            }
            (Kind::StringEnum(_, _, Some(meanings)), _) => Notes {
                shape: Some(ShapeNote::Meanings(meanings)),
                ..desc.notes
            },
            _ => desc.notes,
        }
    } else {
        let mut notes = dialect_notes(node, rules, untyped);
        // The kinds of a value of several schemas shown as one of them, and the ranges of a
        // number's merged (`write_any_of`).
        if desc.notes.kinds != 0 {
            notes.kinds = desc.notes.kinds;
        }
        if let Some(ShapeNote::Ranges(_)) = desc.notes.shape {
            notes.shape = desc.notes.shape;
        }
        notes
    };
    sink.byte(b'{');
    write_description(sink, Description { notes, ..desc }, !untyped);
    if !untyped {
        let is_enum = matches!(node.kind, Kind::StringEnum(..));
        // A verbatim part says `null` inside, if at all: only a branch beside it can add it.
        let verbatim = matches!(node.kind, Kind::Verbatim(_));
        let any_of = matches!(null, Null::AnyOf) || verbatim && !matches!(null, Null::No);
        if any_of && (!is_enum || output) && !free {
            sink.raw("\"anyOf\":[{");
            write_body(sink, node, hull, rendering, false);
            sink.raw("},{\"type\":\"null\"}]");
        } else {
            let null_in_enum = is_enum && !matches!(null, Null::No);
            write_body(
                sink,
                node,
                hull,
                rendering,
                null_in_enum || matches!(null, Null::InType),
            );
        }
    }
    sink.byte(b'}');
}

/// A node's type and what follows it, `null` included when `null`; what a hull holds inside
/// is its set's.
const fn write_body(
    sink: &mut Sink<'_>,
    node: &Node,
    hull: Option<&NodeSet<'_>>,
    rendering: Rendering,
    null: bool,
) {
    let rules: &DialectRules = rules_of!(rendering);
    let dialect = rules.dialect;
    match node.kind {
        Kind::Boolean => write_type(sink, kinds::BOOLEAN, null),
        Kind::Integer(_) => {
            write_type(sink, kinds::INTEGER, null);
            write_keywords(sink, &node.kind, dialect, false);
        }
        Kind::Number(_) => {
            write_type(sink, kinds::NUMBER, null);
            write_keywords(sink, &node.kind, dialect, false);
        }
        Kind::String(_) => {
            write_type(sink, kinds::STRING, null);
            write_keywords(sink, &node.kind, dialect, false);
        }
        Kind::StringEnum(values, ..) => {
            if rules.enum_type {
                write_type(sink, kinds::STRING, null);
                sink.byte(b',');
            }
            write_enum(sink, values, null);
        }
        Kind::Array(item, _) => {
            write_type(sink, kinds::ARRAY, null);
            sink.raw(",\"items\":");
            match hull {
                Some(set) => write_inner(sink, *set, Step::Items, rendering),
                None => write_root(sink, item, rendering),
            }
            write_keywords(sink, &node.kind, dialect, false);
        }
        Kind::Tuple(elements) => write_tuple(sink, elements, rendering, null),
        // Sent as a list of its entries where objects are closed (`parse_for` and
        // `strict_arguments_for` read it back into the map).
        Kind::Map(value, _) if matches!(rules.maps, Maps::Entries) => {
            write_entries(sink, value, hull, rendering, null);
            write_keywords(sink, &node.kind, dialect, false);
        }
        Kind::Map(value, _) => {
            write_type(sink, kinds::OBJECT, null);
            sink.raw(",\"additionalProperties\":");
            match hull {
                Some(set) => write_inner(sink, *set, Step::Values, rendering),
                None => write_root(sink, value, rendering),
            }
            write_keywords(sink, &node.kind, dialect, false);
        }
        Kind::Object(object) => {
            write_type(sink, kinds::OBJECT, null);
            match hull {
                Some(set) => write_hull_object_body(sink, set, rendering),
                None => write_object_body(sink, object, None, rendering),
            }
        }
        Kind::Union(union) => match rendering {
            Rendering::Exact => write_one_of(sink, union, null),
            Rendering::Flat(_) | Rendering::Output => write_flat(sink, union, null, rendering),
        },
        Kind::Any if matches!(rendering, Rendering::Output) => {
            write_branches(sink, kinds::ANY & !kinds::NULL, true, rules);
        }
        Kind::Any if !matches!(rules.free, FreeValues::JsonText) => {
            write_type(sink, kinds::ANY, false);
        }
        Kind::Any | Kind::Opaque => write_scalars(sink, rules),
        Kind::Verbatim(verbatim) => sink.raw(verbatim.body),
        // Written by `write_node` before a body is asked for.
        Kind::Kinds(kind_bits) => write_type(sink, kind_bits, null),
        Kind::AnyOf(_) => {}
    }
}

/// What a dialect that does not take JSON Schema whole notes in a node's description: the
/// keywords it moved there, the kinds a free value may be (or, where free values are JSON
/// text, how its objects and arrays are sent), the shape a tuple (without `prefixItems`) or a
/// one-key union has, and what an enum's values mean.
const fn dialect_notes<'a>(node: &'a Node<'a>, rules: &DialectRules, untyped: bool) -> Notes<'a> {
    let dialect = rules.dialect;
    Notes {
        dialect,
        moved: if moves_any(node, dialect) {
            Some(&node.kind)
        } else {
            None
        },
        kinds: if untyped && matches!(node.kind, Kind::Any) {
            kinds::ANY
        } else {
            0
        },
        shape: match node.kind {
            Kind::Tuple(elements) if matches!(rules.tuples, Tuples::SharedItems) => {
                Some(ShapeNote::Positions(elements))
            }
            Kind::Union(union) if matches!(union.tagging, Tagging::External) => {
                Some(ShapeNote::OneKeyOf(union))
            }
            Kind::StringEnum(_, _, Some(meanings)) => Some(ShapeNote::Meanings(meanings)),
            Kind::Any if matches!(rules.free, FreeValues::JsonText) => Some(ShapeNote::JsonText),
            Kind::Object(object) if object.rest.is_some() && rules.objects_closed => {
                Some(ShapeNote::OtherKeysClosed)
            }
            _ => None,
        },
    }
}

/// A tuple: position by position (`Tuples::PrefixItems`), or one schema for every position
/// (what the elements share, by the collision rules; the description says each position).
const fn write_tuple(
    sink: &mut Sink<'_>,
    elements: &[&Node<'_>],
    rendering: Rendering,
    null: bool,
) {
    let rules: &DialectRules = rules_of!(rendering);
    write_type(sink, kinds::ARRAY, null);
    if matches!(rules.tuples, Tuples::PrefixItems) {
        sink.raw(",\"prefixItems\":[");
        let mut i = 0;
        while i < elements.len() {
            if i > 0 {
                sink.byte(b',');
            }
            write_root(sink, elements[i], rendering);
            i += 1;
        }
        // No `"items": false`: `maxItems` below says as much, and Gemini's converter refuses a
        // schema that is a boolean.
        sink.byte(b']');
    } else {
        sink.raw(",\"items\":");
        write_set(sink, NodeSet::elements(elements), rendering);
    }
    write_length(sink, elements.len() as u64, rules);
}

/// A node only a foreign schema holds that says several schemas at once (several kinds, or
/// several branches), written whole.
const fn write_several_schemas(
    sink: &mut Sink<'_>,
    node: &Node<'_>,
    rendering: Rendering,
    desc: Description<'_>,
) {
    let rules: &DialectRules = rules_of!(rendering);
    match node.kind {
        Kind::Kinds(kind_bits) => {
            // Said as operations that disagree on a key's kind are.
            let null = if node.nullable { kinds::NULL } else { 0 };
            let output = matches!(rendering, Rendering::Output);
            write_base(sink, kind_bits | null, rules, output, desc);
        }
        Kind::AnyOf(branches) => {
            let null = !matches!(
                dialect_forms::null(rules, node.nullable, desc.presence),
                Null::No
            );
            write_any_of(sink, branches, null, rendering, desc);
        }
        _ => {}
    }
}

/// A value any of several schemas describes: `anyOf` of each branch in the dialect's words
/// (and `null` where the node takes it and the dialect shows it), beside its description or
/// alone on its node (`AnyOf::Alone`); where the dialect merges them (`AnyOf::Merged`), the
/// tightest schema every branch's values meet, by the collision rules, or where that keeps no
/// kind, its object branch (`dialect_forms::shown_branch`).
const fn write_any_of(
    sink: &mut Sink<'_>,
    branches: &[&Node<'_>],
    null: bool,
    rendering: Rendering,
    desc: Description<'_>,
) {
    let rules: &DialectRules = rules_of!(rendering);
    let scalars = dialect_forms::scalar_union(branches);
    if let Some(kind_bits) = scalars
        && matches!(rules.kinds, SeveralKinds::TypeArray)
    {
        write_scalar_union(sink, branches, kind_bits, null, rules, desc);
        return;
    }
    let described = matches!(rules.kinds, SeveralKinds::Described);
    if matches!(rules.any_of, AnyOf::Merged) || scalars.is_some() && described {
        let set = NodeSet::elements(branches);
        let merge = decide(set);
        if let Some(shown) = dialect_forms::shown_branch(rules, branches, &merge) {
            let mut every_kind = 0;
            let mut i = 0;
            while i < branches.len() {
                every_kind |= branches[i].kind.json_kinds();
                i += 1;
            }
            let notes = Notes {
                dialect: rules.dialect,
                moved: None,
                kinds: every_kind & !kinds::NULL,
                shape: None,
            };
            write_node(
                sink,
                branches[shown],
                None,
                rendering,
                Description { notes, ..desc },
            );
            return;
        }
        let desc = if dialect_forms::numeric_ranges(branches) {
            Description {
                notes: Notes {
                    dialect: rules.dialect,
                    shape: Some(ShapeNote::Ranges(branches)),
                    ..desc.notes
                },
                ..desc
            }
        } else {
            desc
        };
        write_merge(sink, merge, set, rendering, desc);
        return;
    }
    sink.byte(b'{');
    if !matches!(rules.any_of, AnyOf::Alone) {
        write_description(sink, desc, true);
    }
    sink.raw("\"anyOf\":[");
    let mut i = 0;
    while i < branches.len() {
        if i > 0 {
            sink.byte(b',');
        }
        write_root(sink, branches[i], rendering);
        i += 1;
    }
    if null {
        sink.raw(",{\"type\":\"null\"}");
    }
    sink.raw("]}");
}

/// One value of several scalar kinds (`dialect_forms::scalar_union`): its kinds as one `type`
/// array (`null` too when `null`), each branch's keywords beside it, and those the dialect
/// does not take in its description.
const fn write_scalar_union(
    sink: &mut Sink<'_>,
    branches: &[&Node<'_>],
    kind_bits: u8,
    null: bool,
    rules: &DialectRules,
    desc: Description<'_>,
) {
    let mut moved = None;
    let mut i = 0;
    while i < branches.len() {
        if let Some(kind) = dialect_forms::keywords_of(branches[i]) {
            moved = Some(kind);
        }
        i += 1;
    }
    let notes = match moved {
        Some(kind) if !rules.whole_json_schema => Notes {
            dialect: rules.dialect,
            moved: Some(kind),
            ..desc.notes
        },
        _ => desc.notes,
    };
    sink.byte(b'{');
    write_description(sink, Description { notes, ..desc }, true);
    write_type(sink, kind_bits, null);
    if let Some(kind) = moved {
        write_keywords(sink, kind, rules.dialect, false);
    }
    sink.byte(b'}');
}

/// A map sent as entries (`Maps::Entries`): an array of its entries, each `{"key", "value"}`.
const fn write_entries(
    sink: &mut Sink<'_>,
    value: &Node<'_>,
    hull: Option<&NodeSet<'_>>,
    rendering: Rendering,
    null: bool,
) {
    write_type(sink, kinds::ARRAY, null);
    sink.raw(ENTRY_HEAD);
    match hull {
        Some(set) => write_inner(sink, *set, Step::Values, rendering),
        None => write_root(sink, value, rendering),
    }
    sink.raw(ENTRY_TAIL);
}

/// A map's entry, as `Maps::Entries` sends it: up to the value's schema, and after it.
const ENTRY_HEAD: &str =
    ",\"items\":{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"value\":";
const ENTRY_TAIL: &str = "},\"required\":[\"key\",\"value\"],\"additionalProperties\":false}";

/// A tuple's length as `minItems` and `maxItems`, each where the dialect takes it.
const fn write_length(sink: &mut Sink<'_>, length: u64, rules: &DialectRules) {
    if rules.keywords[Keyword::MinItems as usize].takes("", length) {
        sink.raw(",\"minItems\":");
        sink.uint(length);
    }
    if rules.keywords[Keyword::MaxItems as usize].takes("", length) {
        sink.raw(",\"maxItems\":");
        sink.uint(length);
    }
}

/// `"enum":[...]`, with `null` last when `null`.
const fn write_enum(sink: &mut Sink<'_>, values: &[&str], null: bool) {
    sink.raw("\"enum\":[");
    let mut i = 0;
    let value_count = values.len();
    while i < value_count {
        if i > 0 {
            sink.byte(b',');
        }
        sink.string(values[i]);
        i += 1;
    }
    if null {
        sink.raw(if values.is_empty() { "null" } else { ",null" });
    }
    sink.byte(b']');
}

/// Writes `"type":"x"` or `"type":["x","y"]` for a set of kind bits (and `null` when
/// `nullable`).
pub(super) const fn write_type(sink: &mut Sink<'_>, kind_bits: u8, nullable: bool) {
    let kind_bits = if nullable {
        kind_bits | kinds::NULL
    } else {
        kind_bits
    };
    // One kind, the common case, is one copy.
    let single = match kind_bits {
        kinds::STRING => Some("\"type\":\"string\""),
        kinds::NUMBER => Some("\"type\":\"number\""),
        kinds::INTEGER => Some("\"type\":\"integer\""),
        kinds::BOOLEAN => Some("\"type\":\"boolean\""),
        kinds::OBJECT => Some("\"type\":\"object\""),
        kinds::ARRAY => Some("\"type\":\"array\""),
        kinds::NULL => Some("\"type\":\"null\""),
        _ => None,
    };
    if let Some(text) = single {
        sink.raw(text);
        return;
    }
    sink.raw("\"type\":[");
    let mut bit = 0;
    let mut first = true;
    let name_count = kinds::QUOTED.len();
    while bit < name_count {
        if kind_bits & (1 << bit) != 0 {
            // Each name is already a JSON string: copied after its comma, in one call.
            sink.name_after(if first { "" } else { "," }, kinds::QUOTED[bit], true);
            first = false;
        }
        bit += 1;
    }
    sink.byte(b']');
}

/// What a dialect whose free values are JSON text (`FreeValues::JsonText`) advertises for a
/// value no type fits: any scalar, or `null`, as it says several kinds.
pub(super) const fn write_scalars(sink: &mut Sink<'_>, rules: &DialectRules) {
    sink.raw(match rules.kinds {
        SeveralKinds::Branches => {
            "\"anyOf\":[{\"type\":\"string\"},{\"type\":\"number\"},{\"type\":\"boolean\"},{\"type\":\"null\"}]"
        }
        _ => "\"type\":[\"string\",\"number\",\"boolean\",\"null\"]",
    });
}

/// A strict dialect's object without declared keys: closed, so only `{}`.
pub(super) const fn write_closed_empty(sink: &mut Sink<'_>) {
    sink.raw(",\"properties\":{},\"required\":[],\"additionalProperties\":false");
}
