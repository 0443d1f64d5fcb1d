//! Which JSON a schema is: the writers that turn the IR into JSON Schema text, in two modes —
//! the *exact* schema (tagged unions as `oneOf`) and the *advertised* one (every tagged union
//! flattened into one object by the rules of [`crate::flatten`]). They write into a
//! `Sink`, in constant evaluation (see `const_text` for how a `&'static str` comes
//! of it, and for what the interpreter charges, which shapes how these writers are written)
//! and at run time for generic contracts ([`schema_string`], [`rendered`]).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::flatten::{CollisionSet, FlatKey, Keys};
use crate::node::kinds;
use crate::node::{
    ArrayRules, Doc, Escape, Kind, Node, NumberRules, Object, StringRules, Union, Variant,
};
use crate::sink::Sink;
use crate::strings::str_eq;
use crate::table::Merge;

/// Which schema to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Tagged unions as `oneOf` of their operations.
    Exact,
    /// Tagged unions flattened into one object (what a model is shown).
    Advertised,
}

/// The length in bytes of a node's schema.
pub const fn schema_len(node: &'static Node, mode: Mode) -> usize {
    let mut sink = Sink::counter(&mut []);
    write_schema(&mut sink, node, mode);
    sink.len()
}

/// A node's schema as a `String` (for generic contracts, at run time).
pub fn schema_string(node: &'static Node, mode: Mode) -> String {
    let mut buf = vec![0u8; schema_len(node, mode)];
    let mut sink = Sink::writer(&mut buf);
    write_schema(&mut sink, node, mode);
    String::from_utf8(buf).expect("the renderer writes UTF-8 only")
}

/// Writes a node's schema, with the type's own description.
pub(crate) const fn write_schema(sink: &mut Sink<'_>, node: &'static Node, mode: Mode) {
    write_node(sink, node, mode, Description::own(own_description(node)));
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
/// operations that require it or offer it.
#[derive(Clone, Copy)]
struct Description<'a> {
    own: Option<Doc>,
    hint: Option<Hint<'a>>,
}

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
        Description { own, hint: None }
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
            let bytes = own.text.as_bytes();
            let closed = !bytes.is_empty()
                && matches!(bytes[bytes.len() - 1], b'.' | b'!' | b'?' | b':' | b')');
            sink.raw(if closed { " " } else { ". " });
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
    sink.byte(b'"');
    if more {
        sink.byte(b',');
    }
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
// need escaping, so writing one is a copy. Absent rules cost a test, not a call.

const fn write_number_rules(sink: &mut Sink<'_>, rules: &NumberRules) {
    let bounds = [
        (",\"minimum\":", rules.minimum),
        (",\"maximum\":", rules.maximum),
        (",\"exclusiveMinimum\":", rules.exclusive_minimum),
        (",\"exclusiveMaximum\":", rules.exclusive_maximum),
        (",\"multipleOf\":", rules.multiple_of),
    ];
    let count = bounds.len();
    let mut i = 0;
    while i < count {
        if let (key, Some(bound)) = bounds[i] {
            sink.raw(key);
            sink.raw(bound.text);
        }
        i += 1;
    }
}

const fn write_string_rules(sink: &mut Sink<'_>, rules: &StringRules) {
    if let Some(count) = rules.min_length {
        sink.raw(",\"minLength\":");
        sink.uint(count);
    }
    if let Some(count) = rules.max_length {
        sink.raw(",\"maxLength\":");
        sink.uint(count);
    }
    if let Some(pattern) = rules.pattern {
        sink.raw(",\"pattern\":");
        sink.string(pattern);
    }
    if let Some(format) = rules.format {
        sink.raw(",\"format\":");
        sink.string(format);
    }
}

const fn write_array_rules(sink: &mut Sink<'_>, rules: &ArrayRules) {
    if let Some(count) = rules.min_items {
        sink.raw(",\"minItems\":");
        sink.uint(count);
    }
    if let Some(count) = rules.max_items {
        sink.raw(",\"maxItems\":");
        sink.uint(count);
    }
    if rules.unique_items {
        sink.raw(",\"uniqueItems\":true");
    }
}

/// Writes one node's schema object.
const fn write_node(sink: &mut Sink<'_>, node: &'static Node, mode: Mode, desc: Description<'_>) {
    sink.byte(b'{');
    let has_body = !node.advertises_no_type();
    write_description(sink, desc, has_body);
    match node.kind {
        Kind::Boolean => write_type(sink, kinds::BOOLEAN, node.nullable),
        Kind::Integer(rules) => {
            write_type(sink, kinds::INTEGER, node.nullable);
            write_number_rules(sink, &rules);
        }
        Kind::Number(rules) => {
            write_type(sink, kinds::NUMBER, node.nullable);
            write_number_rules(sink, &rules);
        }
        Kind::String(rules) => {
            write_type(sink, kinds::STRING, node.nullable);
            write_string_rules(sink, &rules);
        }
        Kind::StringEnum(values, _) => {
            write_type(sink, kinds::STRING, node.nullable);
            sink.raw(",\"enum\":[");
            let mut i = 0;
            let value_count = values.len();
            while i < value_count {
                if i > 0 {
                    sink.byte(b',');
                }
                sink.string(values[i]);
                i += 1;
            }
            if node.nullable {
                sink.raw(if values.is_empty() { "null" } else { ",null" });
            }
            sink.byte(b']');
        }
        Kind::Array(item, rules) => {
            write_type(sink, kinds::ARRAY, node.nullable);
            sink.raw(",\"items\":");
            write_schema(sink, item, mode);
            write_array_rules(sink, &rules);
        }
        Kind::Map(value) => {
            write_type(sink, kinds::OBJECT, node.nullable);
            sink.raw(",\"additionalProperties\":");
            write_schema(sink, value, mode);
        }
        Kind::Object(object) => {
            write_type(sink, kinds::OBJECT, node.nullable);
            write_object_body(sink, object, None, mode);
        }
        Kind::Union(union) => match mode {
            Mode::Exact => write_one_of(sink, union, node.nullable),
            Mode::Advertised => write_flat(sink, union, node.nullable),
        },
        Kind::Any => write_type(sink, kinds::ANY, false),
        Kind::Opaque => {}
    }
    sink.byte(b'}');
}

/// `,"properties":{...},"required":[...]` (and `additionalProperties: false` when denied),
/// with the tag of an exact operation first when `tag` is given.
const fn write_object_body(
    sink: &mut Sink<'_>,
    object: &'static Object,
    tag: Option<(&str, &Variant)>,
    mode: Mode,
) {
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
        write_node(sink, field.node, mode, Description { own, hint: None });
        i += 1;
    }
    sink.raw("},\"required\":[");
    first = true;
    if let Some((tag, _)) = tag {
        sink.string(tag);
        first = false;
    }
    i = 0;
    while i < field_count {
        if object.fields[i].required {
            if !first {
                sink.byte(b',');
            }
            first = false;
            sink.name(object.fields[i].name, object.fields[i].plain);
        }
        i += 1;
    }
    sink.byte(b']');
    if object.deny_unknown {
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
            Mode::Exact,
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

/// The advertised schema of a union: one object, tag first, every key merged.
const fn write_flat(sink: &mut Sink<'_>, union: &'static Union, nullable: bool) {
    write_type(sink, kinds::OBJECT, nullable);
    sink.raw(",\"properties\":{");
    sink.key(union.tag);
    sink.raw("{\"description\":\"");
    write_operations_summary(sink, union);
    sink.raw("\",\"type\":\"string\",\"enum\":[");
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
        write_key(sink, union, &key, set);
    }
    sink.raw("},\"required\":[");
    sink.string(union.tag);
    let mut keys = Keys::of(union);
    while let Some((key, _)) = keys.next() {
        if key.requirement.by_every {
            sink.byte(b',');
            sink.name(key.name, key.plain);
        }
    }
    sink.byte(b']');
    if union.all_deny_unknown() {
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
    };
    match key.merge {
        Merge::Keep(node) => write_node(sink, node, Mode::Advertised, description),
        Merge::StringEnum { nullable } => {
            sink.byte(b'{');
            write_description(sink, description, true);
            write_type(sink, kinds::STRING, nullable);
            sink.raw(",\"enum\":[");
            write_enum_union(sink, set);
            if nullable {
                sink.raw(",null");
            }
            sink.raw("]}");
        }
        Merge::Base {
            kinds: kind_bits, ..
        } => {
            sink.byte(b'{');
            write_description(sink, description, true);
            write_type(sink, kind_bits, false);
            let without_null = kind_bits & !kinds::NULL;
            if without_null == kinds::OBJECT {
                sink.raw(",\"additionalProperties\":{}");
            } else if without_null == kinds::ARRAY {
                sink.raw(",\"items\":{}");
            }
            sink.byte(b'}');
        }
        Merge::Free(_) => {
            sink.byte(b'{');
            write_description(sink, description, false);
            sink.byte(b'}');
        }
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
    if contains(values.split_at(index).0, value) {
        return true;
    }
    let mut members = set.members();
    let mut at = 0;
    while at < position {
        if let Some(occurrence) = members.next()
            && let Kind::StringEnum(earlier, _) = occurrence.field.node.kind
            && contains(earlier, value)
        {
            return true;
        }
        at += 1;
    }
    false
}

const fn contains(values: &[&str], value: &str) -> bool {
    let mut i = 0;
    let value_count = values.len();
    while i < value_count {
        if str_eq(values[i], value) {
            return true;
        }
        i += 1;
    }
    false
}

/// A node's schema text, rendered at run time once per node and mode and kept for the life of
/// the process. Generic contracts use it; non-generic ones have their text as consts.
///
/// Keyed by the node's address: two addresses of equal nodes render equal text, so the worst
/// case is one extra rendering, never a wrong one.
pub fn rendered(node: &'static Node, mode: Mode) -> &'static str {
    type Cache = Mutex<HashMap<(usize, Mode), &'static str>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (std::ptr::from_ref(node) as usize, mode);
    let cache = CACHE.get_or_init(Default::default);
    if let Some(text) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return text;
    }
    let text: &'static str = Box::leak(schema_string(node, mode).into_boxed_str());
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_insert(text)
}
