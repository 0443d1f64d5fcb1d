//! Which JSON a schema is: the writers that turn the IR into JSON Schema text, in two modes —
//! the *exact* schema (tagged unions as `oneOf`) and the *advertised* one (every tagged union
//! flattened into one object by the rules of [`crate::flatten`]) — and, for the advertised
//! one, in each [`Dialect`] (what differs per dialect is decided in [`crate::dialect`]). They
//! write into a `Sink`, in constant evaluation (see `const_text` for how a `&'static str`
//! comes of it, and for what the interpreter charges, which shapes how these writers are
//! written) and at run time for generic contracts and for dialects ([`schema_string`],
//! [`rendered`], [`rendered_in`]). The `Mcp` path, which constant evaluation runs, pays one
//! test per node and key for the dialects.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::dialect::{self, Dialect, Keyword, Null};
use crate::flatten::{CollisionSet, FlatKey, Keys};
use crate::node::kinds;
use crate::node::{
    ArrayRules, Doc, Escape, Kind, Node, NumberRules, Object, StringRules, Union, Variant,
};
use crate::sink::Sink;
use crate::strings::listed;
use crate::table::{Merge, Requirement};

/// Which schema to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Tagged unions as `oneOf` of their operations.
    Exact,
    /// Tagged unions flattened into one object (what a model is shown).
    Advertised,
}

/// What the writers render: the exact schema, or the flat one in a dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Target {
    Exact,
    Flat(Dialect),
}

impl Mode {
    const fn target(self) -> Target {
        match self {
            Mode::Exact => Target::Exact,
            Mode::Advertised => Target::Flat(Dialect::Mcp),
        }
    }
}

/// The length in bytes of a node's schema.
pub const fn schema_len(node: &'static Node, mode: Mode) -> usize {
    let mut sink = Sink::counter(&mut []);
    write_schema(&mut sink, node, mode);
    sink.len()
}

/// A node's schema as a `String` (for generic contracts, at run time).
pub fn schema_string(node: &'static Node, mode: Mode) -> String {
    target_string(node, mode.target())
}

/// A node's advertised schema in a dialect as a `String`, rendered anew (what `rendered_in`
/// keeps).
pub fn schema_string_in(node: &'static Node, dialect: Dialect) -> String {
    target_string(node, Target::Flat(dialect))
}

fn target_string(node: &'static Node, target: Target) -> String {
    let mut counter = Sink::counter(&mut []);
    write_root(&mut counter, node, target);
    let mut buf = vec![0u8; counter.len()];
    let mut sink = Sink::writer(&mut buf);
    write_root(&mut sink, node, target);
    String::from_utf8(buf).expect("the renderer writes UTF-8 only")
}

/// Writes a node's schema, with the type's own description.
pub(crate) const fn write_schema(sink: &mut Sink<'_>, node: &'static Node, mode: Mode) {
    write_root(sink, node, mode.target());
}

const fn write_root(sink: &mut Sink<'_>, node: &'static Node, target: Target) {
    write_node(sink, node, target, Description::own(own_description(node)));
}

/// A type's own description (its doc comment), for objects and unions.
const fn own_description(node: &Node) -> Option<Doc> {
    match node.kind {
        Kind::Object(object) => object.description,
        Kind::Union(union) => union.description,
        _ => None,
    }
}

/// A property's description: its own text and, for a flattened key, the hint naming the
/// operations that require it or offer it; which operations require the property (what a
/// dialect's `null` and `required` follow); and, in a dialect, the notes it carries.
#[derive(Clone, Copy)]
struct Description<'a> {
    own: Option<Doc>,
    hint: Option<Hint<'a>>,
    presence: Requirement,
    notes: Notes,
}

/// What a dialect adds to a description: the keywords of a node it does not take, and the
/// kinds of a property it advertises as `{}`.
#[derive(Clone, Copy)]
struct Notes {
    dialect: Dialect,
    moved: Option<&'static Node>,
    kinds: u8,
}

const NO_NOTES: Notes = Notes {
    dialect: Dialect::Mcp,
    moved: None,
    kinds: 0,
};

/// A property every operation requires (array items, map values, a schema's root).
const ALWAYS: Requirement = Requirement {
    by_every: true,
    by_some: true,
};

/// The operations a flattened key's hint names: those that require it, or when none does,
/// those that offer it.
#[derive(Clone, Copy)]
struct Hint<'a> {
    union: &'static Union,
    set: CollisionSet<'a>,
    required_by_some: bool,
}

impl<'a> Description<'a> {
    const fn own(own: Option<Doc>) -> Description<'a> {
        Description {
            own,
            hint: None,
            presence: ALWAYS,
            notes: NO_NOTES,
        }
    }
}

/// Description text inside a JSON string: copied whole when its escaped form is known (so
/// it costs no work per byte), escaped byte by byte otherwise.
const fn write_doc_text(sink: &mut Sink<'_>, doc: &Doc) {
    match doc.escape {
        Escape::Plain => sink.raw(doc.text),
        Escape::Escaped(escaped) => sink.raw(escaped),
        Escape::Unknown => sink.escaped(doc.text),
    }
}

/// Writes `"description":"..."` when there is one, then a comma if something follows.
const fn write_description(sink: &mut Sink<'_>, description: Description<'_>, more: bool) {
    // A pattern, not a method: this runs for every property (see the module's cost note).
    if let Description {
        own: None,
        hint: None,
        notes: Notes {
            moved: None,
            kinds: 0,
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
    if let Some(Hint {
        union,
        set,
        required_by_some: any_requires,
    }) = description.hint
    {
        if let Some(own) = description.own {
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
    if let Some(node) = notes.moved {
        if written {
            sink.raw("\\n\\n");
        }
        write_moved(sink, node, notes.dialect);
    }
    sink.byte(b'"');
    if more {
        sink.byte(b',');
    }
}

/// Whether a text ends a sentence (so what follows it needs no period of its own).
const fn ends_closed(text: &str) -> bool {
    let bytes = text.as_bytes();
    !bytes.is_empty() && matches!(bytes[bytes.len() - 1], b'.' | b'!' | b'?' | b':' | b')')
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

/// Writes `"type":"x"` or `"type":["x","y"]` for a set of kind bits (and `null` when
/// `nullable`).
const fn write_type(sink: &mut Sink<'_>, kind_bits: u8, nullable: bool) {
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
    let name_count = kinds::NAMES.len();
    while bit < name_count {
        if kind_bits & (1 << bit) != 0 {
            if !first {
                sink.byte(b',');
            }
            first = false;
            sink.string(kinds::NAMES[bit]);
        }
        bit += 1;
    }
    sink.byte(b']');
}

// The rules are written with their keys already quoted (`,"minimum":`): keywords never
// need escaping, so writing one is a copy. Absent rules cost a test, not a call. Each writer
// writes the keywords the dialect takes as JSON; with `moved`, it writes the others instead,
// as the description carries them (`minimum: 0`, after `first` a comma).

/// Whether a keyword goes where `moved` asks: kept keywords as JSON, moved ones as text.
const fn goes(dialect: Dialect, keyword: Keyword, moved: bool) -> bool {
    // `Mcp`, the compile-time rendering, decides without a call (a call is what constant
    // evaluation pays for most).
    let takes = matches!(dialect, Dialect::Mcp) || dialect::takes(dialect, keyword);
    takes != moved
}

/// One moved keyword's `name: ` (after a comma unless it is the first).
const fn moved_name(sink: &mut Sink<'_>, key: &str, first: &mut bool) {
    if !*first {
        sink.raw(", ");
    }
    *first = false;
    // `,"minimum":` → `minimum: `
    let bytes = key.as_bytes();
    let mut i = 2;
    while i + 2 < bytes.len() {
        sink.byte(bytes[i]);
        i += 1;
    }
    sink.raw(": ");
}

const fn write_number_rules(
    sink: &mut Sink<'_>,
    rules: &NumberRules,
    dialect: Dialect,
    moved: bool,
    first: &mut bool,
) {
    let bounds = [
        (",\"minimum\":", rules.minimum, Keyword::Bound),
        (",\"maximum\":", rules.maximum, Keyword::Bound),
        (
            ",\"exclusiveMinimum\":",
            rules.exclusive_minimum,
            Keyword::ExclusiveBound,
        ),
        (
            ",\"exclusiveMaximum\":",
            rules.exclusive_maximum,
            Keyword::ExclusiveBound,
        ),
        (",\"multipleOf\":", rules.multiple_of, Keyword::MultipleOf),
    ];
    let count = bounds.len();
    let mut i = 0;
    while i < count {
        if let (key, Some(bound), keyword) = bounds[i]
            && goes(dialect, keyword, moved)
        {
            if moved {
                moved_name(sink, key, first);
            } else {
                sink.raw(key);
            }
            sink.raw(bound.text);
        }
        i += 1;
    }
}

const fn write_count(
    sink: &mut Sink<'_>,
    key: &str,
    count: Option<u64>,
    keyword: Keyword,
    dialect: Dialect,
    moved: bool,
    first: &mut bool,
) {
    if let Some(count) = count
        && goes(dialect, keyword, moved)
    {
        if moved {
            moved_name(sink, key, first);
        } else {
            sink.raw(key);
        }
        sink.uint(count);
    }
}

const fn write_string_rules(
    sink: &mut Sink<'_>,
    rules: &StringRules,
    dialect: Dialect,
    moved: bool,
    first: &mut bool,
) {
    let (min, max) = (rules.min_length, rules.max_length);
    write_count(
        sink,
        ",\"minLength\":",
        min,
        Keyword::MinLength,
        dialect,
        moved,
        first,
    );
    write_count(
        sink,
        ",\"maxLength\":",
        max,
        Keyword::MaxLength,
        dialect,
        moved,
        first,
    );
    let texts = [
        (",\"pattern\":", rules.pattern, Keyword::Pattern),
        (",\"format\":", rules.format, Keyword::Format("")),
    ];
    let mut i = 0;
    while i < texts.len() {
        if let (key, Some(text), keyword) = texts[i] {
            let keyword = match keyword {
                Keyword::Format(_) => Keyword::Format(text),
                other => other,
            };
            if goes(dialect, keyword, moved) {
                if moved {
                    moved_name(sink, key, first);
                    sink.escaped(text);
                } else {
                    sink.raw(key);
                    sink.string(text);
                }
            }
        }
        i += 1;
    }
}

const fn write_array_rules(
    sink: &mut Sink<'_>,
    rules: &ArrayRules,
    dialect: Dialect,
    moved: bool,
    first: &mut bool,
) {
    let min_items = match rules.min_items {
        Some(count) => Keyword::MinItems(count),
        None => Keyword::MinItems(0),
    };
    write_count(
        sink,
        ",\"minItems\":",
        rules.min_items,
        min_items,
        dialect,
        moved,
        first,
    );
    write_count(
        sink,
        ",\"maxItems\":",
        rules.max_items,
        Keyword::MaxItems,
        dialect,
        moved,
        first,
    );
    if rules.unique_items && goes(dialect, Keyword::UniqueItems, moved) {
        if moved {
            moved_name(sink, ",\"uniqueItems\":", first);
            sink.raw("true");
        } else {
            sink.raw(",\"uniqueItems\":true");
        }
    }
}

/// The keywords of a node's rules the dialect does not take, as its description carries them
/// (`{minLength: 1, maxLength: 80}`, the form Anthropic's SDK moves them in).
const fn write_moved(sink: &mut Sink<'_>, node: &Node, dialect: Dialect) {
    sink.byte(b'{');
    write_rules(sink, node, dialect, true);
    sink.byte(b'}');
}

/// A node's rules: the keywords the dialect takes, or with `moved` the others as text.
const fn write_rules(sink: &mut Sink<'_>, node: &Node, dialect: Dialect, moved: bool) {
    let mut first = true;
    match &node.kind {
        Kind::Integer(rules) | Kind::Number(rules) => {
            write_number_rules(sink, rules, dialect, moved, &mut first)
        }
        Kind::String(rules) => write_string_rules(sink, rules, dialect, moved, &mut first),
        Kind::Array(_, rules) => write_array_rules(sink, rules, dialect, moved, &mut first),
        _ => {}
    }
}

/// Whether the dialect moves any keyword of the node's rules into its description.
const fn moves_any(node: &Node, dialect: Dialect) -> bool {
    let mut counter = Sink::counter(&mut []);
    write_rules(&mut counter, node, dialect, true);
    counter.len() > 0
}

/// Writes one node's schema object.
const fn write_node(
    sink: &mut Sink<'_>,
    node: &'static Node,
    target: Target,
    desc: Description<'_>,
) {
    if let Target::Flat(dialect) = target
        && !matches!(dialect, Dialect::Mcp)
    {
        write_node_in(sink, node, dialect, desc);
        return;
    }
    sink.byte(b'{');
    let has_body = !node.advertises_no_type();
    write_description(sink, desc, has_body);
    let mut first = true;
    let (mcp, moved) = (Dialect::Mcp, false);
    match node.kind {
        Kind::Boolean => write_type(sink, kinds::BOOLEAN, node.nullable),
        Kind::Integer(rules) => {
            write_type(sink, kinds::INTEGER, node.nullable);
            write_number_rules(sink, &rules, mcp, moved, &mut first);
        }
        Kind::Number(rules) => {
            write_type(sink, kinds::NUMBER, node.nullable);
            write_number_rules(sink, &rules, mcp, moved, &mut first);
        }
        Kind::String(rules) => {
            write_type(sink, kinds::STRING, node.nullable);
            write_string_rules(sink, &rules, mcp, moved, &mut first);
        }
        Kind::StringEnum(values, _) => {
            write_type(sink, kinds::STRING, node.nullable);
            sink.byte(b',');
            write_enum(sink, values, node.nullable);
        }
        Kind::Array(item, rules) => {
            write_type(sink, kinds::ARRAY, node.nullable);
            sink.raw(",\"items\":");
            write_root(sink, item, target);
            write_array_rules(sink, &rules, mcp, moved, &mut first);
        }
        Kind::Map(value) => {
            write_type(sink, kinds::OBJECT, node.nullable);
            sink.raw(",\"additionalProperties\":");
            write_root(sink, value, target);
        }
        Kind::Object(object) => {
            write_type(sink, kinds::OBJECT, node.nullable);
            write_object_body(sink, object, None, target);
        }
        Kind::Union(union) => match target {
            Target::Exact => write_one_of(sink, union, node.nullable),
            Target::Flat(_) => write_flat(sink, union, node.nullable, target),
        },
        Kind::Any => write_type(sink, kinds::ANY, false),
        Kind::Opaque => {}
    }
    sink.byte(b'}');
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

/// One node's schema object in a dialect other than `Mcp` (at run time only).
const fn write_node_in(
    sink: &mut Sink<'_>,
    node: &'static Node,
    dialect: Dialect,
    desc: Description<'_>,
) {
    let null = dialect::null(dialect, node.nullable, desc.presence);
    let free = matches!(node.kind, Kind::Any | Kind::Opaque);
    // Portable has no `type` array: a free value is `{}`, and says what it holds.
    let untyped = free && matches!(dialect, Dialect::Portable);
    let notes = Notes {
        dialect,
        moved: if moves_any(node, dialect) {
            Some(node)
        } else {
            None
        },
        kinds: if untyped && matches!(node.kind, Kind::Any) {
            kinds::ANY
        } else {
            0
        },
    };
    sink.byte(b'{');
    write_description(sink, Description { notes, ..desc }, !untyped);
    if !untyped {
        let is_enum = matches!(node.kind, Kind::StringEnum(..));
        if matches!(null, Null::AnyOf) && !is_enum && !free {
            sink.raw("\"anyOf\":[{");
            write_body_in(sink, node, dialect, false);
            sink.raw("},{\"type\":\"null\"}]");
        } else {
            let in_enum = is_enum && !matches!(null, Null::No);
            write_body_in(sink, node, dialect, in_enum || matches!(null, Null::InType));
        }
    }
    sink.byte(b'}');
}

/// A node's type and what follows it in a dialect, `null` included when `null`.
const fn write_body_in(sink: &mut Sink<'_>, node: &'static Node, dialect: Dialect, null: bool) {
    let target = Target::Flat(dialect);
    let strict = dialect.is_strict();
    let mut first = true;
    match node.kind {
        Kind::Boolean => write_type(sink, kinds::BOOLEAN, null),
        Kind::Integer(rules) => {
            write_type(sink, kinds::INTEGER, null);
            write_number_rules(sink, &rules, dialect, false, &mut first);
        }
        Kind::Number(rules) => {
            write_type(sink, kinds::NUMBER, null);
            write_number_rules(sink, &rules, dialect, false, &mut first);
        }
        Kind::String(rules) => {
            write_type(sink, kinds::STRING, null);
            write_string_rules(sink, &rules, dialect, false, &mut first);
        }
        Kind::StringEnum(values, _) => {
            // Anthropic's converter drops the `type` of an enum: it is not written.
            if !matches!(dialect, Dialect::AnthropicStrict) {
                write_type(sink, kinds::STRING, null);
                sink.byte(b',');
            }
            write_enum(sink, values, null);
        }
        Kind::Array(item, rules) => {
            write_type(sink, kinds::ARRAY, null);
            sink.raw(",\"items\":");
            write_root(sink, item, target);
            write_array_rules(sink, &rules, dialect, false, &mut first);
        }
        Kind::Map(value) => {
            write_type(sink, kinds::OBJECT, null);
            if strict {
                write_closed_empty(sink);
            } else {
                sink.raw(",\"additionalProperties\":");
                write_root(sink, value, target);
            }
        }
        Kind::Object(object) => {
            write_type(sink, kinds::OBJECT, null);
            write_object_body(sink, object, None, target);
        }
        Kind::Union(union) => write_flat(sink, union, null, target),
        Kind::Any | Kind::Opaque => write_scalars(sink, dialect),
    }
}

/// What a strict dialect advertises for a value no type fits: any scalar, or `null`.
const fn write_scalars(sink: &mut Sink<'_>, dialect: Dialect) {
    sink.raw(match dialect {
        Dialect::AnthropicStrict => {
            "\"anyOf\":[{\"type\":\"string\"},{\"type\":\"number\"},{\"type\":\"boolean\"},{\"type\":\"null\"}]"
        }
        _ => "\"type\":[\"string\",\"number\",\"boolean\",\"null\"]",
    });
}

/// A strict dialect's object without declared keys: closed, so only `{}`.
const fn write_closed_empty(sink: &mut Sink<'_>) {
    sink.raw(",\"properties\":{},\"required\":[],\"additionalProperties\":false");
}

/// `,"properties":{...},"required":[...]` (and `additionalProperties: false` when denied,
/// or always in a strict dialect; OpenAI's requires every key), with the tag of an exact
/// operation first when `tag` is given.
const fn write_object_body(
    sink: &mut Sink<'_>,
    object: &'static Object,
    tag: Option<(&str, &Variant)>,
    target: Target,
) {
    // Inline, not a call: constant evaluation pays for every call (see the module's note).
    let dialect = match target {
        Target::Exact => Dialect::Mcp,
        Target::Flat(dialect) => dialect,
    };
    sink.raw(",\"properties\":{");
    let mut first = true;
    if let Some((tag, variant)) = tag {
        sink.key(tag);
        sink.raw("{\"type\":\"string\",\"enum\":[");
        sink.name(variant.name, variant.plain);
        sink.raw("]}");
        first = false;
    }
    let mut i = 0;
    let field_count = object.fields.len();
    while i < field_count {
        let field = &object.fields[i];
        if !first {
            sink.byte(b',');
        }
        first = false;
        sink.name_key(field.name, field.plain);
        let own = match field.description {
            Some(doc) => Some(doc),
            None => own_description(field.node),
        };
        let presence = Requirement {
            by_every: field.required,
            by_some: field.required,
        };
        let desc = Description {
            own,
            hint: None,
            presence,
            notes: NO_NOTES,
        };
        write_node(sink, field.node, target, desc);
        i += 1;
    }
    sink.raw("},\"required\":[");
    first = true;
    if let Some((tag, _)) = tag {
        sink.string(tag);
        first = false;
    }
    let every = matches!(dialect, Dialect::OpenAiStrict);
    i = 0;
    while i < field_count {
        if every || object.fields[i].required {
            if !first {
                sink.byte(b',');
            }
            first = false;
            sink.name(object.fields[i].name, object.fields[i].plain);
        }
        i += 1;
    }
    sink.byte(b']');
    if object.deny_unknown || matches!(dialect, Dialect::OpenAiStrict | Dialect::AnthropicStrict) {
        sink.raw(",\"additionalProperties\":false");
    }
}

/// The exact schema of a union: `"oneOf":[...]`, one object per operation.
const fn write_one_of(sink: &mut Sink<'_>, union: &'static Union, nullable: bool) {
    sink.raw("\"oneOf\":[");
    let mut v = 0;
    let variant_count = union.variants.len();
    while v < variant_count {
        if v > 0 {
            sink.byte(b',');
        }
        let variant = &union.variants[v];
        sink.byte(b'{');
        write_description(sink, Description::own(variant.description), true);
        write_type(sink, kinds::OBJECT, false);
        write_object_body(
            sink,
            variant.object,
            Some((union.tag, variant)),
            Target::Exact,
        );
        sink.byte(b'}');
        v += 1;
    }
    if nullable {
        sink.raw(if union.variants.is_empty() {
            "{\"type\":\"null\"}"
        } else {
            ",{\"type\":\"null\"}"
        });
    }
    sink.byte(b']');
}

/// The advertised schema of a union: one object, tag first, every key merged (`null` in its
/// type when `null`).
const fn write_flat(sink: &mut Sink<'_>, union: &'static Union, null: bool, target: Target) {
    // Inline, not a call: constant evaluation pays for every call (see the module's note).
    let dialect = match target {
        Target::Exact => Dialect::Mcp,
        Target::Flat(dialect) => dialect,
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
        write_key(sink, union, &key, set, target);
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
    target: Target,
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
    // Inline, not a call: constant evaluation pays for every call (see the module's note).
    let dialect = match target {
        Target::Exact => Dialect::Mcp,
        Target::Flat(dialect) => dialect,
    };
    match key.merge {
        Merge::Keep(node) => write_node(sink, node, target, description),
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

/// A node's schema text, rendered at run time once per node and mode and kept for the life of
/// the process. Generic contracts use it; non-generic ones have their text as consts.
pub fn rendered(node: &'static Node, mode: Mode) -> &'static str {
    cached(node, mode.target())
}

/// A node's advertised (flat) schema in a dialect, rendered at run time once per node and
/// dialect and kept for the life of the process. In `Mcp` it is [`rendered`]'s advertised
/// text.
pub fn rendered_in(node: &'static Node, dialect: Dialect) -> &'static str {
    cached(node, Target::Flat(dialect))
}

/// Keyed by the node's address: two addresses of equal nodes render equal text, so the worst
/// case is one extra rendering, never a wrong one.
fn cached(node: &'static Node, target: Target) -> &'static str {
    type Cache = Mutex<HashMap<(usize, Target), &'static str>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (std::ptr::from_ref(node) as usize, target);
    let cache = CACHE.get_or_init(Default::default);
    if let Some(text) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return text;
    }
    let text: &'static str = Box::leak(target_string(node, target).into_boxed_str());
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert(text)
}
