//! Descriptions as a schema writes them: a property's own text, or, where the operations
//! sharing a key word it differently, each of their texts labelled by the operations that say
//! it (`create: ... update: ...`), so a merge loses no text; for a flattened key, the hint
//! naming the operations that require it (`Required if op = a | b`) or offer it; and in a
//! dialect, the notes it adds — the keywords it does not take (`{minimum: 0}`), or the kinds
//! of a property it advertises as `{}`.

use stitch_rules::Dialect;
use stitch_rules::hint::{OPERATION_SEPARATOR, names_operation};

use super::flat::write_operation_list;
use super::keywords::write_moved;
use crate::ir::key_table::Requirement;
use crate::ir::{Doc, Escape, Kind, Node, Union, kinds};
use crate::text::sink::Sink;
use crate::union::{CollisionSet, Member, NodeSet, Source, for_each_occurrence};

/// A property's description, and which operations require the property (what a dialect's
/// `null` and `required` follow).
#[derive(Clone, Copy)]
pub(super) struct Description<'a> {
    pub(super) own: Option<Doc<'a>>,
    /// A merged set whose members word the description differently: each text is written,
    /// labelled by the operations that say it (in place of `own`).
    pub(super) several: Option<NodeSet<'a>>,
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
    /// What an enum's values mean (its variants' docs), said wherever it is written.
    Meanings(Doc<'a>),
    /// What the values of a merged set's enums mean, each distinct text once.
    SetMeanings(NodeSet<'a>),
    /// A free value shown as scalars (a strict dialect): how an object or array is sent.
    JsonText,
    /// A number in one of several ranges, said as the range holding them all: each range.
    Ranges(&'a [&'a Node<'a>]),
    /// An object a strict dialect closes though a flattened map takes its other keys: that
    /// this client cannot send them.
    OtherKeysClosed,
}

pub(super) const NO_NOTES: Notes<'static> = Notes {
    dialect: Dialect::DEFAULT,
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
    /// The names as the derive listed them, copied whole where given.
    pub(super) listed: Option<&'a str>,
    pub(super) required_by_some: bool,
    /// Whether some operation of the union takes keys it does not name (found once per
    /// union, so that a union without one pays nothing per key).
    pub(super) others_open: bool,
}

impl<'a> Description<'a> {
    /// Only a text of its own (a schema's root, array items, map values).
    pub(super) const fn own(own: Option<Doc<'a>>) -> Description<'a> {
        Description {
            own,
            several: None,
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
        several: None,
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
    // How the text so far ends: what the next part needs before it.
    let mut ending = Ending::Nothing;
    if let Some(own) = description.own {
        write_doc_text(sink, &own);
        ending = Ending::after(own.text);
    }
    if let Some(set) = description.several {
        write_several(sink, set);
        ending = Ending::Closed;
    }
    let notes = description.notes;
    // What an enum's values mean belongs with the text, before what the schema adds.
    if let Some(shape @ (ShapeNote::Meanings(_) | ShapeNote::SetMeanings(_))) = notes.shape {
        ending.separate(sink);
        write_meanings(sink, shape);
        ending = Ending::Closed;
    }
    if let Some(hint) = description.hint {
        ending.separate(sink);
        write_hint(sink, hint);
        ending = Ending::Open;
    }
    if notes.kinds != 0 {
        ending.separate(sink);
        write_kinds_note(sink, notes.kinds);
        ending = Ending::Open;
    }
    if let Some(
        shape @ (ShapeNote::Positions(_)
        | ShapeNote::OneKeyOf(_)
        | ShapeNote::JsonText
        | ShapeNote::Ranges(_)
        | ShapeNote::OtherKeysClosed),
    ) = notes.shape
    {
        ending.separate(sink);
        match shape {
            ShapeNote::Positions(elements) => write_elements_note(sink, elements),
            ShapeNote::OneKeyOf(union) => {
                sink.raw("Exactly one key, the operation: ");
                write_operation_list(sink, union, false);
                sink.byte(b'.');
            }
            ShapeNote::JsonText => sink.raw(JSON_TEXT_NOTE),
            ShapeNote::OtherKeysClosed => sink.raw(OTHER_KEYS_CLOSED_NOTE),
            ShapeNote::Ranges(branches) => write_ranges_note(sink, branches),
            // Written with the text, above.
            ShapeNote::Meanings(_) | ShapeNote::SetMeanings(_) => {}
        }
        ending = Ending::Open;
    }
    let written = !matches!(ending, Ending::Nothing);
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

/// How a strict dialect says a free value's objects and arrays are sent (`parse_for` and
/// `strict_arguments_for` read the text back).
const JSON_TEXT_NOTE: &str =
    "Any JSON value: an object or array is sent as its JSON text, in a string.";

/// How a strict dialect says that the keys a flattened map would take beside the named ones
/// cannot be sent (the object is closed).
const OTHER_KEYS_CLOSED_NOTE: &str =
    "The tool also takes other keys, but this client cannot send them: only the keys listed here.";

/// Each range a number may be in (`ShapeNote::Ranges`): `In one of these ranges: from -128
/// to -1; from 1 to 127.`
const fn write_ranges_note(sink: &mut Sink<'_>, branches: &[&Node<'_>]) {
    sink.raw("In one of these ranges: ");
    let mut i = 0;
    while i < branches.len() {
        if i > 0 {
            sink.raw("; ");
        }
        if let Kind::Integer(rules) | Kind::Number(rules) = branches[i].kind {
            match (rules.minimum, rules.maximum) {
                (Some(min), Some(max)) => {
                    sink.raw("from ");
                    sink.raw(min.text);
                    sink.raw(" to ");
                    sink.raw(max.text);
                }
                (Some(min), None) => {
                    sink.raw("at least ");
                    sink.raw(min.text);
                }
                (None, Some(max)) => {
                    sink.raw("at most ");
                    sink.raw(max.text);
                }
                (None, None) => sink.raw("any"),
            }
        }
        i += 1;
    }
    sink.byte(b'.');
}

/// A merged key's hint: which operations make it available, or require it.
const fn write_hint(sink: &mut Sink<'_>, hint: Hint<'_>) {
    let Hint {
        union,
        set,
        listed,
        required_by_some: any_requires,
        others_open,
    } = hint;
    sink.raw(if any_requires {
        "Required if "
    } else {
        "Available if "
    });
    sink.escaped(union.tag);
    sink.raw(" = ");
    if let Some(listed) = listed {
        sink.raw(listed);
    } else {
        let mut separator = "";
        for_each_occurrence!(set, |v, field| {
            if names_operation(any_requires, field.required) {
                let variant = &union.variants[v];
                sink.name_after(separator, variant.name, variant.plain);
                separator = OPERATION_SEPARATOR;
            }
        });
    }
    if others_open {
        write_open_operations(sink, union, set);
    }
}

/// The operations that do not declare the key but take keys they do not name (a foreign
/// schema's `additionalProperties: true`, a contract's flattened map), which may send it with
/// a value of their own: `; op = c takes it as any other key`. The key keeps the type the
/// operations that declare it give it: a model reading the key is told what it is, and which
/// operations say nothing of it.
const fn write_open_operations(sink: &mut Sink<'_>, union: &Union<'_>, set: CollisionSet<'_>) {
    let mut named = 0;
    let mut v = 0;
    while v < union.variants.len() {
        let variant = &union.variants[v];
        if variant.object.rest.is_some() && !declared_by(set, v) {
            let separator = if named == 0 {
                sink.raw("; ");
                sink.escaped(union.tag);
                " = "
            } else {
                OPERATION_SEPARATOR
            };
            sink.name_after(separator, variant.name, variant.plain);
            named += 1;
        }
        v += 1;
    }
    if named > 0 {
        sink.raw(if named == 1 {
            " takes it as any other key"
        } else {
            " take it as any other key"
        });
    }
}

/// Whether operation `v` declares the set's key.
const fn declared_by(set: CollisionSet<'_>, v: usize) -> bool {
    let mut members = set.members();
    while let Some(occurrence) = members.next() {
        if occurrence.variant as usize == v {
            return true;
        }
    }
    false
}

/// How a description's text so far ends.
#[derive(Clone, Copy)]
enum Ending {
    /// Nothing is written yet.
    Nothing,
    /// A sentence is closed: what follows needs a space.
    Closed,
    /// A sentence is open: what follows needs a period first.
    Open,
}

impl Ending {
    /// How a text ends.
    const fn after(text: &str) -> Ending {
        if ends_closed(text) {
            Ending::Closed
        } else {
            Ending::Open
        }
    }

    /// What goes between the text so far and what follows.
    const fn separate(self, sink: &mut Sink<'_>) {
        match self {
            Ending::Nothing => {}
            Ending::Closed => sink.raw(" "),
            Ending::Open => sink.raw(". "),
        }
    }
}

/// The differing descriptions of a merged set's members, each once, labelled by the
/// operations whose member says it (`create, move: The target. update: The new target.`).
const fn write_several(sink: &mut Sink<'_>, set: NodeSet<'_>) {
    let union = match set.source() {
        Source::Collision(CollisionSet::Listed { union, .. })
        | Source::Collision(CollisionSet::Scanned { union, .. }) => union,
        Source::Elements(_) => return,
    };
    let mut members = set.members();
    let mut index = 0;
    let mut first = true;
    while let Some(member) = members.next() {
        if let Some(field) = member.field
            && let Some(doc) = field.description
            && !written_before(set, index, &doc, MemberText::Description)
        {
            if !first {
                sink.byte(b' ');
            }
            first = false;
            write_saying(sink, set, union, &doc);
            sink.raw(": ");
            write_doc_text(sink, &doc);
            if !ends_closed(doc.text) {
                sink.byte(b'.');
            }
        }
        index += 1;
    }
}

/// Which text of a set's member is written: its field's description, or what its enum's
/// values mean.
#[derive(Clone, Copy)]
enum MemberText {
    Description,
    Meanings,
}

/// The text `which` of `member`, if it has one.
const fn member_text<'a>(member: Member<'a>, which: MemberText) -> Option<Doc<'a>> {
    match which {
        MemberText::Description => match member.field {
            Some(field) => field.description,
            None => None,
        },
        MemberText::Meanings => match member.node.kind {
            Kind::StringEnum(_, _, meanings) => meanings,
            _ => None,
        },
    }
}

/// Whether a member of `set` before the one at `index` has `doc` as its text `which`: each
/// text is written once.
const fn written_before(set: NodeSet<'_>, index: usize, doc: &Doc<'_>, which: MemberText) -> bool {
    let mut members = set.members();
    let mut at = 0;
    while at < index {
        let Some(member) = members.next() else {
            return false;
        };
        if let Some(earlier) = member_text(member, which)
            && earlier.same(doc)
        {
            return true;
        }
        at += 1;
    }
    false
}

/// What an enum's values mean, or a merged set's enums' (each text ends with its period).
const fn write_meanings(sink: &mut Sink<'_>, shape: ShapeNote<'_>) {
    match shape {
        ShapeNote::Meanings(meanings) => write_doc_text(sink, &meanings),
        ShapeNote::SetMeanings(set) => write_set_meanings(sink, set),
        ShapeNote::Positions(_)
        | ShapeNote::OneKeyOf(_)
        | ShapeNote::JsonText
        | ShapeNote::Ranges(_)
        | ShapeNote::OtherKeysClosed => {}
    }
}

/// What the values of a merged set's enums mean: each member's text, once, in order.
const fn write_set_meanings(sink: &mut Sink<'_>, set: NodeSet<'_>) {
    let mut members = set.members();
    let mut index = 0;
    let mut first = true;
    while let Some(member) = members.next() {
        if let Kind::StringEnum(_, _, Some(meanings)) = member.node.kind
            && !written_before(set, index, &meanings, MemberText::Meanings)
        {
            if !first {
                sink.byte(b' ');
            }
            first = false;
            write_doc_text(sink, &meanings);
        }
        index += 1;
    }
}

/// Whether any member of `set` is an enum whose values are documented.
pub(super) const fn any_meanings(set: NodeSet<'_>) -> bool {
    let mut members = set.members();
    while let Some(member) = members.next() {
        if let Kind::StringEnum(_, _, Some(_)) = member.node.kind {
            return true;
        }
    }
    false
}

/// The operations whose member of `set` has the description `doc`, by name.
const fn write_saying(sink: &mut Sink<'_>, set: NodeSet<'_>, union: &Union<'_>, doc: &Doc<'_>) {
    let mut members = set.members();
    let mut named = 0;
    while let Some(member) = members.next() {
        if let Some(field) = member.field
            && let Some(said) = field.description
            && said.same(doc)
        {
            let variant = &union.variants[member.origin as usize];
            sink.name_after(
                if named > 0 { ", " } else { "" },
                variant.name,
                variant.plain,
            );
            named += 1;
        }
    }
}

/// Whether a text ends a sentence (so what follows it needs no period of its own).
pub(crate) const fn ends_closed(text: &str) -> bool {
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
