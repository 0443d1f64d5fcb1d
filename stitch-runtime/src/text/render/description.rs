//! Descriptions as a schema writes them: a property's own text; for a flattened key, the hint
//! naming the operations that require it (`Required if op = a | b`) or offer it; and in a
//! dialect, the notes it adds — the keywords it does not take (`{minimum: 0}`), or the kinds
//! of a property it advertises as `{}`.

use stitch_rules::Dialect;

use super::flat::write_operation_list;
use super::keywords::write_moved;
use crate::ir::key_table::Requirement;
use crate::ir::{Doc, Escape, Kind, Node, Union, kinds};
use crate::text::sink::Sink;
use crate::union::CollisionSet;

/// A property's description, and which operations require the property (what a dialect's
/// `null` and `required` follow).
#[derive(Clone, Copy)]
pub(super) struct Description<'a> {
    pub(super) own: Option<Doc<'a>>,
    pub(super) hint: Option<Hint<'a>>,
    pub(super) presence: Requirement,
    pub(super) notes: Notes<'a>,
}

/// What a dialect adds to a description: the keywords of a node it does not take, and the
/// kinds of a property it advertises as `{}`.
#[derive(Clone, Copy)]
pub(super) struct Notes<'a> {
    pub(super) dialect: Dialect,
    pub(super) moved: Option<&'a Kind<'a>>,
    pub(super) kinds: u8,
    /// What the description says of the node's shape where the schema cannot.
    pub(super) shape: Option<ShapeNote<'a>>,
}

/// What a description says of a node's shape where the schema cannot.
#[derive(Clone, Copy)]
pub(super) enum ShapeNote<'a> {
    /// A tuple's elements, in order (a dialect without `prefixItems`).
    Positions(&'a [&'a Node<'a>]),
    /// An externally tagged union's operations, exactly one of which is its one key.
    OneKeyOf(&'a Union<'a>),
}

pub(super) const NO_NOTES: Notes<'static> = Notes {
    dialect: Dialect::Mcp,
    moved: None,
    kinds: 0,
    shape: None,
};

/// The operations a flattened key's hint names: those that require it, or when none does,
/// those that offer it.
#[derive(Clone, Copy)]
pub(super) struct Hint<'a> {
    pub(super) union: &'a Union<'a>,
    pub(super) set: CollisionSet<'a>,
    pub(super) required_by_some: bool,
}

impl<'a> Description<'a> {
    /// Only a text of its own (a schema's root, array items, map values).
    pub(super) const fn own(own: Option<Doc<'a>>) -> Description<'a> {
        Description {
            own,
            hint: None,
            presence: Requirement::ALWAYS,
            notes: NO_NOTES,
        }
    }
}

/// A type's own description (its doc comment), for objects and unions.
pub(super) const fn own_description<'a>(node: &'a Node<'a>) -> Option<Doc<'a>> {
    match node.kind {
        Kind::Object(object) => object.description,
        Kind::Union(union) => union.description,
        Kind::Verbatim(verbatim) => verbatim.description,
        _ => None,
    }
}

/// Description text inside a JSON string: copied whole when its escaped form is known (so
/// it costs no work per byte), escaped byte by byte otherwise.
pub(super) const fn write_doc_text(sink: &mut Sink<'_>, doc: &Doc) {
    match doc.escape {
        Escape::Plain => sink.raw(doc.text),
        Escape::Escaped(escaped) => sink.raw(escaped),
        Escape::Unknown => sink.escaped(doc.text),
    }
}

/// Writes `"description":"..."` when there is one, then a comma if something follows.
pub(super) const fn write_description(
    sink: &mut Sink<'_>,
    description: Description<'_>,
    more: bool,
) {
    // A pattern, not a method: this runs for every property (see `const_text`'s cost model).
    if let Description {
        own: None,
        hint: None,
        notes:
            Notes {
                moved: None,
                kinds: 0,
                shape: None,
                ..
            },
        ..
    } = description
    {
        return;
    }
    sink.raw("\"description\":\"");
    if let Some(own) = description.own {
        write_doc_text(sink, &own);
    }
    if let Some(hint) = description.hint {
        write_hint(sink, hint, description.own);
    }
    let notes = description.notes;
    let mut written = description.own.is_some() || description.hint.is_some();
    if notes.kinds != 0 {
        if let (Some(own), None) = (description.own, description.hint) {
            sink.raw(if ends_closed(own.text) { " " } else { ". " });
        } else if written {
            sink.raw(". ");
        }
        write_kinds_note(sink, notes.kinds);
        written = true;
    }
    if let Some(shape) = notes.shape {
        if let (Some(own), None) = (description.own, description.hint) {
            sink.raw(if ends_closed(own.text) { " " } else { ". " });
        } else if written {
            sink.raw(". ");
        }
        match shape {
            ShapeNote::Positions(elements) => write_elements_note(sink, elements),
            ShapeNote::OneKeyOf(union) => {
                sink.raw("Exactly one key, the operation: ");
                write_operation_list(sink, union, false);
                sink.byte(b'.');
            }
        }
        written = true;
    }
    if let Some(kind) = notes.moved {
        if written {
            sink.raw("\\n\\n");
        }
        write_moved(sink, kind, notes.dialect);
    }
    sink.byte(b'"');
    if more {
        sink.byte(b',');
    }
}

/// A merged key's hint, after the key's own description: which operations make it
/// available, or require it.
const fn write_hint(sink: &mut Sink<'_>, hint: Hint<'_>, own: Option<Doc<'_>>) {
    let Hint {
        union,
        set,
        required_by_some: any_requires,
    } = hint;
    if let Some(own) = own {
        sink.raw(if ends_closed(own.text) { " " } else { ". " });
    }
    sink.raw(if any_requires {
        "Required if "
    } else {
        "Available if "
    });
    sink.escaped(union.tag);
    sink.raw(" = ");
    let mut members = set.members();
    let mut first = true;
    while let Some(occurrence) = members.next() {
        if any_requires && !occurrence.field.required {
            continue;
        }
        if !first {
            sink.raw(" | ");
        }
        first = false;
        let variant = &union.variants[occurrence.variant as usize];
        sink.name_inside(variant.name, variant.plain);
    }
}

/// Whether a text ends a sentence (so what follows it needs no period of its own).
const fn ends_closed(text: &str) -> bool {
    let bytes = text.as_bytes();
    !bytes.is_empty() && matches!(bytes[bytes.len() - 1], b'.' | b'!' | b'?' | b':' | b')')
}

/// A tuple's positions, for a dialect without `prefixItems`: `Exactly 2 items, in order: an
/// integer, a string.`
const fn write_elements_note(sink: &mut Sink<'_>, elements: &[&Node]) {
    sink.raw("Exactly ");
    sink.uint(elements.len() as u64);
    sink.raw(if elements.len() == 1 {
        " item: "
    } else {
        " items, in order: "
    });
    let mut i = 0;
    while i < elements.len() {
        if i > 0 {
            sink.raw(", ");
        }
        sink.raw(elements[i].kind.class().described());
        if elements[i].nullable {
            sink.raw(" or null");
        }
        i += 1;
    }
    sink.byte(b'.');
}

/// What a property advertised as `{}` holds: `Any JSON value.`, or its kinds.
const fn write_kinds_note(sink: &mut Sink<'_>, kind_bits: u8) {
    if kind_bits & kinds::ANY == kinds::ANY {
        sink.raw("Any JSON value.");
        return;
    }
    sink.raw("One of: ");
    let mut bit = 0;
    let mut first = true;
    while bit < kinds::NAMES.len() {
        if kind_bits & (1 << bit) != 0 {
            if !first {
                sink.raw(", ");
            }
            first = false;
            sink.raw(kinds::NAMES[bit]);
        }
        bit += 1;
    }
    sink.byte(b'.');
}
