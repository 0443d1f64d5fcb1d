//! JSON Schema text from the IR, in constant evaluation.
//!
//! One routine writes into a [`Sink`], which counts every byte and writes those that fit.
//! The `&'static str` consts of a contract come from it in two ways: the advertised schema,
//! always read, is written once into a 64 KiB [`Scratch`] and its prefix copied into a
//! `[u8; LEN]`; the exact one, often never read, costs nothing until it is read, then is
//! counted and written into a buffer of its size class ([`exact_text`]). A count pass costs
//! about as much as a write pass, so a crate pays one walk of the IR for the advertised
//! schema and two for the exact one where it reads it. The same routine renders generic
//! contracts at run time. Two modes: the *exact* schema (tagged unions as `oneOf`) and the
//! *advertised* one (every tagged union flattened into one object by the rules of
//! [`crate::flatten`]).
//!
//! Constant evaluation interprets every statement (about a microsecond each) and every call
//! costs as much as a dozen (`len()` and `as_bytes()` included: the interpreter does not
//! inline), so the writers avoid calls and byte loops where they can: loops read a length
//! once, keywords are copied whole, names and descriptions the derive found plain are
//! copied, absent rules cost a test, and the scratch's prefix is one `copy_from_slice`.
//! DESIGN.md put the lengths in array types of the generated items; rustc evaluates those
//! for every contract, read or not, which made the unread exact schema the largest
//! compile-time cost of a big contract.

use core::marker::PhantomData;

use crate::flatten::{CollisionSet, FlatKey, Keys, Merge, kinds};
use crate::node::{
    ArrayRules, Doc, Escape, Kind, Node, NumberRules, Object, StringRules, Union, Variant,
};
use crate::shape::Shape;
use crate::text::{Sink, str_eq};

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

/// A node's schema as bytes; `LEN` must be [`schema_len`] of the same node and mode.
pub const fn schema_bytes<const LEN: usize>(node: &'static Node, mode: Mode) -> [u8; LEN] {
    let mut buf = [0u8; LEN];
    let mut sink = Sink::writer(&mut buf);
    write_schema(&mut sink, node, mode);
    assert!(
        sink.len() == LEN,
        "stitch: the schema length does not match its count"
    );
    buf
}

/// The exact schema of a non-generic contract, rendered in constant evaluation only where
/// it is read: `EXACT_SCHEMA` is a call of this `const fn`, and rustc evaluates a call inside
/// a constant only when that constant is evaluated. (A length in a const-generic argument
/// would be evaluated for every contract at type checking, read or not; most crates never
/// read the exact schema.)
///
/// The text is counted, then written into a buffer of the next power-of-two size: its array
/// length cannot depend on the count without a const-generic argument, so the size class
/// stands in for it, and the buffer is at most twice the text.
pub const fn exact_text<T: Shape + ?Sized>() -> &'static str {
    let len = schema_len(T::SHAPE, Mode::Exact);
    macro_rules! in_the_first_class_that_fits {
        ($($bits:literal)*) => {
            $(
                if len <= 1 << $bits {
                    // A call, not the constant itself: rustc evaluates every constant a
                    // function names when it runs it, and only one class may be written.
                    return size_class_text::<T, { 1 << $bits }>();
                }
            )*
        };
    }
    in_the_first_class_that_fits!(8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);
    panic!("stitch: this contract's exact schema is over 16 MiB")
}

const fn size_class_text<T: Shape + ?Sized, const CAPACITY: usize>() -> &'static str {
    SizeClass::<T, CAPACITY>::TEXT
}

/// A schema written into a buffer of `CAPACITY` bytes, its size class (see [`exact_text`]).
struct SizeClass<T: ?Sized, const CAPACITY: usize>(PhantomData<T>);

impl<T: Shape + ?Sized, const CAPACITY: usize> SizeClass<T, CAPACITY> {
    const SCRATCH: &'static Scratch<CAPACITY> = &Scratch::write(T::SHAPE, Mode::Exact);
    const TEXT: &'static str = Self::SCRATCH.text();
}

/// The scratch buffer of a schema written in one pass: 64 KiB, about twice the advertised
/// schema of a documented 200-operation contract (34 KB); a larger schema is counted first
/// instead.
pub const SCRATCH_CAPACITY: usize = 1 << 16;

/// A schema written once into a scratch buffer: its length is then known without a count
/// pass (which costs constant evaluation about as much as writing: calls dominate, not
/// bytes), and the written prefix is copied whole into an array of exactly that length.
pub struct Scratch<const CAPACITY: usize> {
    bytes: [u8; CAPACITY],
    len: usize,
}

impl<const CAPACITY: usize> Scratch<CAPACITY> {
    /// Writes a node's schema; what does not fit is only counted.
    pub const fn write(node: &'static Node, mode: Mode) -> Scratch<CAPACITY> {
        let mut bytes = [0u8; CAPACITY];
        let mut sink = Sink::writer(&mut bytes);
        write_schema(&mut sink, node, mode);
        let len = sink.len();
        Scratch { bytes, len }
    }

    /// Whether the whole schema was written.
    pub const fn fits(&self) -> bool {
        self.len <= CAPACITY
    }

    /// The schema's bytes, `LEN` of them: the written prefix when it fits, else written
    /// again into an array of their count (the node and mode must be the ones written).
    pub const fn bytes<const LEN: usize>(&self, node: &'static Node, mode: Mode) -> [u8; LEN] {
        if self.fits() {
            let mut bytes = [0u8; LEN];
            bytes.copy_from_slice(self.bytes.split_at(LEN).0);
            bytes
        } else {
            schema_bytes::<LEN>(node, mode)
        }
    }

    /// The written schema, which must [fit](Self::fits).
    pub const fn text(&'static self) -> &'static str {
        assert!(self.fits(), "stitch: a schema did not fit its buffer");
        utf8(self.bytes.split_at(self.len).0)
    }

    /// The schema's length: the written one, or counted again when it did not fit (the node
    /// and mode must be the ones written).
    pub const fn schema_len(&self, node: &'static Node, mode: Mode) -> usize {
        if self.fits() {
            self.len
        } else {
            schema_len(node, mode)
        }
    }
}

/// The scratch a contract's advertised schema is written into.
pub type AdvertisedScratch = Scratch<SCRATCH_CAPACITY>;

/// A non-generic contract's advertised schema, written once: the derive implements it next
/// to the contract, so a contract whose IR fails to build is reported there, not here.
pub trait WrittenOnce: Shape {
    /// `&Scratch::write(Self::SHAPE, Mode::Advertised)`, read by reference: the interpreter
    /// never copies the buffer.
    const SCRATCH: &'static AdvertisedScratch;
    /// `Self::SCRATCH.schema_len(Self::SHAPE, Mode::Advertised)`: the length the text's
    /// array is given.
    const LEN: usize;
}

/// The advertised schema in an array of its length: `LEN` is [`WrittenOnce::LEN`].
pub struct WrittenText<T: ?Sized, const LEN: usize>(PhantomData<T>);

impl<T: WrittenOnce + ?Sized, const LEN: usize> WrittenText<T, LEN> {
    const BYTES: [u8; LEN] = T::SCRATCH.bytes::<LEN>(T::SHAPE, Mode::Advertised);
    const TEXT: &'static str = utf8(&Self::BYTES);
}

/// Rendered bytes as text: the writers write UTF-8 only, so the panic is a bug in stitch.
const fn utf8(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("stitch rendered invalid UTF-8"),
    }
}

/// The text of [`WrittenText`].
pub const fn written_once<T: WrittenOnce + ?Sized, const LEN: usize>() -> &'static str {
    WrittenText::<T, LEN>::TEXT
}

/// A node's schema as a `String` (for generic contracts, at run time).
pub fn schema_string(node: &'static Node, mode: Mode) -> String {
    let mut buf = vec![0u8; schema_len(node, mode)];
    let mut sink = Sink::writer(&mut buf);
    write_schema(&mut sink, node, mode);
    String::from_utf8(buf).expect("the renderer writes UTF-8 only")
}

/// Writes a node's schema, with the type's own description.
pub const fn write_schema(sink: &mut Sink<'_>, node: &'static Node, mode: Mode) {
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
    let has_body = !matches!(node.kind, Kind::Opaque);
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
        if key.required {
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
        hint: if key.required {
            None
        } else {
            Some(Hint {
                union,
                set,
                required_by_some: key.required_by_some,
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

#[cfg(test)]
mod tests {
    use super::{Mode, Scratch, schema_len, schema_string};
    use crate::Shape;
    use crate::node::Node;

    const NODE: &Node = <Vec<Option<String>> as Shape>::SHAPE;
    const LEN: usize = schema_len(NODE, Mode::Advertised);

    #[test]
    fn a_schema_written_once_is_the_schema_counted_then_written() {
        let expected = schema_string(NODE, Mode::Advertised);
        let roomy = Scratch::<256>::write(NODE, Mode::Advertised);
        let tight = Scratch::<8>::write(NODE, Mode::Advertised);
        assert!(roomy.fits() && !tight.fits(), "{expected}");
        assert_eq!(roomy.schema_len(NODE, Mode::Advertised), LEN);
        assert_eq!(
            tight.schema_len(NODE, Mode::Advertised),
            LEN,
            "counted again"
        );
        let copied = roomy.bytes::<LEN>(NODE, Mode::Advertised);
        let rewritten = tight.bytes::<LEN>(NODE, Mode::Advertised);
        assert_eq!(copied, expected.as_bytes());
        assert_eq!(rewritten, expected.as_bytes());
    }
}
