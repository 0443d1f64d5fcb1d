//! What an advertised schema weighs: one pass over the JSON text a client receives, counting
//! what providers limit (properties, nesting, enum values, the characters of names and
//! values, optional and union-typed parameters, `maxItems`) and what it costs (bytes, an
//! estimate of tokens), with a digest of the text. A `const fn`, so the same count serves
//! `#[contract(check_dialects(...))]` in constant evaluation and the guard at run time, and
//! it reads any schema text, stitch's or a plain tool's.
//!
//! It reads the text rather than the IR: what a provider limits is what it is sent, merged
//! keys and dialect notes included, and a foreign schema has no IR.

use stitch_rules::json::fnv1a_bytes;

use super::tokens::estimate_tokens_of;

/// The figures of one schema text. Built by [`Measure::of`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Measure {
    /// The text's length in bytes.
    pub bytes: usize,
    /// An estimate of the text's length in tokens of the tokenizers models use (OpenAI's
    /// o200k, within about a tenth on schemas; see [`estimate_tokens`](crate::measure::estimate_tokens)).
    pub tokens: usize,
    /// The 64-bit FNV-1a hash of the text.
    pub digest: u64,
    /// Object properties, over every object of the schema.
    pub properties: usize,
    /// The deepest nesting of objects: the root's properties are level 1, the properties of
    /// an object one of them holds (directly or as array items) level 2, and so on.
    pub nesting: usize,
    /// Characters of property names, definition names, enum values and const values.
    pub name_and_value_chars: usize,
    /// Enum values, over every enum of the schema.
    pub enum_values: usize,
    /// The most characters of one enum of more than 250 values (0 when there is none).
    pub long_enum_chars: usize,
    /// Properties an object may omit (those not in its `required`), over every object.
    pub optional_properties: usize,
    /// Properties whose schema is a union of types (an `anyOf`, a `oneOf` or a `type`
    /// array).
    pub union_properties: usize,
    /// The sum of every `maxItems`.
    pub max_items: u64,
    /// The characters of the longest property name.
    pub longest_name: usize,
}

/// The most containers a measure tells apart; deeper ones are counted for nesting only.
const STACK: usize = 64;

/// What an open container of the text is to the schema.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A schema object.
    Schema,
    /// A property's schema object.
    Property,
    /// The object of `properties`: its keys are property names.
    Properties,
    /// The object of `$defs` or `definitions`: its keys are definition names.
    Definitions,
    /// The array of `enum`.
    Enum,
    /// The array of `required`.
    Required,
    /// An array of schemas (`anyOf`, `oneOf`, `allOf`, `prefixItems`).
    Schemas,
    /// Anything else: a `const` or `default` value, `examples`, a `type` array.
    Other,
}

/// An open container.
#[derive(Clone, Copy)]
struct Frame {
    role: Role,
    /// An object (not an array).
    object: bool,
    /// In an object: the next string is a key.
    expect_key: bool,
    /// In a schema: what the value of the key just read is.
    value_role: Role,
    /// In a schema: the key just read counts its value's characters (`const`).
    value_counted: bool,
    /// In a schema: the key just read is `maxItems`.
    value_max_items: bool,
    /// In a schema: the key just read is `type` (an array there is a union).
    value_type: bool,
    /// In a schema: the key just read is `anyOf` or `oneOf`.
    value_union: bool,
    /// In a property's schema: it was counted as a union already.
    union_counted: bool,
    /// In a schema: its properties and its required keys.
    properties: usize,
    required: usize,
    /// In an enum: its values and their characters.
    values: usize,
    chars: usize,
    /// `properties` maps enclosing this container, itself included.
    levels: usize,
}

const FRAME: Frame = Frame {
    role: Role::Other,
    object: false,
    expect_key: false,
    value_role: Role::Other,
    value_counted: false,
    value_max_items: false,
    value_type: false,
    value_union: false,
    union_counted: false,
    properties: 0,
    required: 0,
    values: 0,
    chars: 0,
    levels: 0,
};

/// Enum values past which a single enum's characters are limited (OpenAI: "for a single enum
/// property with string values, the total string length of all enum values cannot exceed
/// 15,000 characters when there are more than 250 enum values").
const LONG_ENUM: usize = 250;

impl Measure {
    /// The measure of nothing.
    pub const EMPTY: Measure = Measure {
        bytes: 0,
        tokens: 0,
        digest: 0,
        properties: 0,
        nesting: 0,
        name_and_value_chars: 0,
        enum_values: 0,
        long_enum_chars: 0,
        optional_properties: 0,
        union_properties: 0,
        max_items: 0,
        longest_name: 0,
    };

    /// Measures a schema text. Never panics: text that is not JSON is measured as far as it
    /// reads like JSON.
    pub const fn of(text: &str) -> Measure {
        Measure::of_bytes(text.as_bytes(), true)
    }

    /// Measures a schema's bytes (UTF-8), with its costs (tokens and digest) or, for a check
    /// that reads only what providers limit, without them: each is a pass over every byte,
    /// which constant evaluation pays for dearly (see `const_text`).
    ///
    /// One loop over the text, moving a [`Scan`]'s state token by token. A bracket opens or
    /// closes a container and a key says what its value is, each in a call of its own; the
    /// tokens that come most (commas, values, whitespace) are read here, without one, since
    /// in constant evaluation a call costs about as much as a byte's own work.
    pub(crate) const fn of_bytes(bytes: &[u8], costs: bool) -> Measure {
        let count = bytes.len();
        let mut scan = Scan {
            measure: Measure {
                bytes: count,
                ..Measure::EMPTY
            },
            stack: [FRAME; STACK],
            depth: 0,
            next: Role::Schema,
        };
        if costs {
            scan.measure.tokens = estimate_tokens_of(bytes);
            scan.measure.digest = fnv1a_bytes(bytes);
        }
        let mut at = 0;
        while at < count {
            let byte = bytes[at];
            at = match byte {
                b'{' | b'[' => {
                    scan.open(byte == b'{');
                    at + 1
                }
                b'}' | b']' => {
                    scan.close();
                    at + 1
                }
                b',' => {
                    if scan.depth > 0 && scan.depth <= STACK {
                        let frame = &mut scan.stack[scan.depth - 1];
                        frame.expect_key = frame.object;
                        scan.next = element_role(frame.role);
                    }
                    at + 1
                }
                b'"' => {
                    let (end, chars) = string_end(bytes, at);
                    if scan.depth > 0 && scan.depth <= STACK {
                        let frame = &mut scan.stack[scan.depth - 1];
                        if frame.expect_key {
                            scan.key(bytes, (at, end), chars);
                        } else {
                            scan.measure.scalar(frame, chars);
                        }
                    }
                    end
                }
                b':' | b' ' | b'\n' | b'\r' | b'\t' => at + 1,
                // A number or a literal: read to its end.
                _ => {
                    let mut end = at;
                    while end < count && !is_delimiter(bytes[end]) {
                        end += 1;
                    }
                    if scan.depth > 0 && scan.depth <= STACK {
                        let frame = &mut scan.stack[scan.depth - 1];
                        if frame.value_max_items {
                            let items = decimal(slice(bytes, at, end));
                            scan.measure.max_items = scan.measure.max_items.saturating_add(items);
                        }
                        scan.measure.scalar(frame, end - at);
                    }
                    end
                }
            };
        }
        scan.measure
    }

    /// A scalar value of `chars` characters, in `frame`.
    const fn scalar(&mut self, frame: &mut Frame, chars: usize) {
        match frame.role {
            Role::Enum => {
                self.enum_values += 1;
                self.name_and_value_chars += chars;
                frame.values += 1;
                frame.chars += chars;
            }
            Role::Required => frame.required += 1,
            Role::Schema | Role::Property if frame.value_counted => {
                self.name_and_value_chars += chars;
            }
            _ => {}
        }
        frame.value_counted = false;
        frame.value_max_items = false;
        frame.value_type = false;
    }

    /// A container closes.
    const fn close(&mut self, frame: &Frame) {
        match frame.role {
            Role::Schema | Role::Property => {
                self.optional_properties += frame.properties.saturating_sub(frame.required);
            }
            Role::Enum if frame.values > LONG_ENUM && frame.chars > self.long_enum_chars => {
                self.long_enum_chars = frame.chars;
            }
            _ => {}
        }
    }

    /// A property's schema is a union: counted once.
    const fn count_union(&mut self, frame: &mut Frame) {
        if !frame.union_counted {
            frame.union_counted = true;
            self.union_properties += 1;
        }
    }
}

/// One pass over a schema's text: the measure so far, the containers open (those past
/// `STACK` are not told apart), and the role the next value takes (the root is a schema).
struct Scan {
    measure: Measure,
    stack: [Frame; STACK],
    depth: usize,
    next: Role,
}

impl Scan {
    /// An object (`object`) or an array opens: its role, and how deep in `properties` it is.
    const fn open(&mut self, object: bool) {
        let measure = &mut self.measure;
        let mut levels = measure.nesting;
        if self.depth == 0 {
            levels = 0;
        } else if self.depth <= STACK {
            let parent = &mut self.stack[self.depth - 1];
            levels = parent.levels;
            if matches!(parent.role, Role::Enum) {
                // An enum value that is itself an object or an array.
                measure.enum_values += 1;
                parent.values += 1;
            }
            if !object && parent.value_type && matches!(parent.role, Role::Property) {
                measure.count_union(parent);
            }
        }
        let role = container_role(self.next, object);
        if matches!(role, Role::Properties) {
            levels += 1;
        }
        if levels > measure.nesting {
            measure.nesting = levels;
        }
        if self.depth < STACK {
            self.stack[self.depth] = Frame {
                role,
                object,
                expect_key: object,
                levels,
                ..FRAME
            };
        }
        self.depth += 1;
        self.next = element_role(role);
    }

    /// The innermost container closes: its counts go to the measure, and a schema's
    /// properties and required keys to the schema holding them (for its optional ones).
    const fn close(&mut self) {
        if self.depth > 0 && self.depth <= STACK {
            let frame = self.stack[self.depth - 1];
            self.measure.close(&frame);
            if self.depth >= 2 {
                let schema = &mut self.stack[self.depth - 2];
                match frame.role {
                    Role::Properties => schema.properties += frame.properties,
                    Role::Required => schema.required += frame.required,
                    _ => {}
                }
            }
        }
        self.depth = self.depth.saturating_sub(1);
        self.next = if self.depth > 0 && self.depth <= STACK {
            element_role(self.stack[self.depth - 1].role)
        } else {
            Role::Other
        };
    }

    /// A key of the innermost object, the string from `at` to `end` (its quotes included) of
    /// `chars` characters: a property's name, a definition's, or a schema's keyword, which
    /// says what its value is.
    const fn key(&mut self, bytes: &[u8], (at, end): (usize, usize), chars: usize) {
        let frame = &mut self.stack[self.depth - 1];
        frame.expect_key = false;
        self.next = match frame.role {
            Role::Properties => {
                let measure = &mut self.measure;
                measure.name_and_value_chars += chars;
                measure.properties += 1;
                frame.properties += 1;
                if chars > measure.longest_name {
                    measure.longest_name = chars;
                }
                Role::Property
            }
            Role::Definitions => {
                self.measure.name_and_value_chars += chars;
                Role::Schema
            }
            Role::Schema | Role::Property => {
                let role = frame.role;
                let keyword = keyword(slice(bytes, at + 1, end.saturating_sub(1)));
                frame.value_role = match keyword {
                    SchemaKey::Properties => Role::Properties,
                    SchemaKey::Definitions => Role::Definitions,
                    SchemaKey::Enum => Role::Enum,
                    SchemaKey::Required => Role::Required,
                    SchemaKey::Union | SchemaKey::Schemas => Role::Schemas,
                    SchemaKey::Schema => Role::Schema,
                    _ => Role::Other,
                };
                frame.value_counted = matches!(keyword, SchemaKey::Const);
                frame.value_max_items = matches!(keyword, SchemaKey::MaxItems);
                frame.value_type = matches!(keyword, SchemaKey::Type);
                frame.value_union = matches!(keyword, SchemaKey::Union);
                if frame.value_union && matches!(role, Role::Property) {
                    self.measure.count_union(frame);
                }
                frame.value_role
            }
            _ => Role::Other,
        };
    }
}

/// The role of a container opened where a value of role `next` goes.
const fn container_role(next: Role, object: bool) -> Role {
    match next {
        Role::Schema | Role::Property | Role::Properties | Role::Definitions if object => next,
        Role::Enum | Role::Required | Role::Schemas if !object => next,
        _ => Role::Other,
    }
}

/// The role of the values inside a container of `role`.
const fn element_role(role: Role) -> Role {
    match role {
        Role::Properties => Role::Property,
        Role::Definitions | Role::Schemas => Role::Schema,
        // A schema's values take their role from their key, set when the key is read; an
        // enum's and `required`'s are values, not schemas.
        _ => Role::Other,
    }
}

/// A schema's key, as the measure reads it.
#[derive(Clone, Copy)]
enum SchemaKey {
    /// `properties`.
    Properties,
    /// `$defs`, `definitions`.
    Definitions,
    /// `enum`.
    Enum,
    /// `required`.
    Required,
    /// `anyOf`, `oneOf`: an array of schemas, and a union.
    Union,
    /// `allOf`, `prefixItems`: an array of schemas.
    Schemas,
    /// `items`, `additionalProperties`, `not`, `if`, `then`, `else`, `contains`,
    /// `propertyNames`: a schema.
    Schema,
    /// `const`.
    Const,
    /// `maxItems`.
    MaxItems,
    /// `type`.
    Type,
    /// Any other key.
    Other,
}

/// The keyword a key is. Told apart by its length and two of its bytes, then confirmed by one
/// comparison: one call per key where a comparison per keyword would be twenty (constant
/// evaluation pays for every call; see `const_text`).
const fn keyword(key: &[u8]) -> SchemaKey {
    let len = key.len();
    if len < 2 {
        return SchemaKey::Other;
    }
    let (candidate, keyword): (&[u8], SchemaKey) = match (len, key[0], key[len - 1]) {
        (10, b'p', b's') => (b"properties", SchemaKey::Properties),
        (5, b'$', b's') => (b"$defs", SchemaKey::Definitions),
        (11, b'd', b's') => (b"definitions", SchemaKey::Definitions),
        (4, b'e', b'm') => (b"enum", SchemaKey::Enum),
        (8, b'r', b'd') => (b"required", SchemaKey::Required),
        (5, b'a', b'f') if key[1] == b'n' => (b"anyOf", SchemaKey::Union),
        (5, b'o', b'f') => (b"oneOf", SchemaKey::Union),
        (5, b'a', b'f') => (b"allOf", SchemaKey::Schemas),
        (11, b'p', b's') => (b"prefixItems", SchemaKey::Schemas),
        (5, b'i', b's') => (b"items", SchemaKey::Schema),
        (20, b'a', b's') => (b"additionalProperties", SchemaKey::Schema),
        (3, b'n', b't') => (b"not", SchemaKey::Schema),
        (2, b'i', b'f') => (b"if", SchemaKey::Schema),
        (4, b't', b'n') => (b"then", SchemaKey::Schema),
        (4, b'e', b'e') => (b"else", SchemaKey::Schema),
        (8, b'c', b's') => (b"contains", SchemaKey::Schema),
        (13, b'p', b's') => (b"propertyNames", SchemaKey::Schema),
        (5, b'c', b't') => (b"const", SchemaKey::Const),
        (8, b'm', b's') if key[1] == b'a' => (b"maxItems", SchemaKey::MaxItems),
        (4, b't', b'e') => (b"type", SchemaKey::Type),
        _ => return SchemaKey::Other,
    };
    if bytes_eq(key, candidate) {
        keyword
    } else {
        SchemaKey::Other
    }
}

/// The end of the string opening at `at` (just past its closing quote, or the text's end)
/// and its characters, an escape counting as one. Counting as it goes costs less in constant
/// evaluation than a second pass over the strings whose characters count.
const fn string_end(bytes: &[u8], at: usize) -> (usize, usize) {
    let count = bytes.len();
    let mut i = at + 1;
    let mut chars = 0;
    while i < count {
        let b = bytes[i];
        if b == b'"' {
            return (i + 1, chars);
        }
        if b == b'\\' {
            i += if i + 1 < count && bytes[i + 1] == b'u' {
                6
            } else {
                2
            };
            chars += 1;
            continue;
        }
        // A character is counted at its first byte (UTF-8 continuation bytes are 10xxxxxx).
        if b & 0xC0 != 0x80 {
            chars += 1;
        }
        i += 1;
    }
    (count, chars)
}

/// Whether a byte ends a number or a literal.
const fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b',' | b'}' | b']' | b':' | b'"' | b'{' | b'[' | b' ' | b'\n' | b'\r' | b'\t'
    )
}

/// `bytes[from..to]`, empty when the range is not one.
const fn slice(bytes: &[u8], from: usize, to: usize) -> &[u8] {
    if from > to || to > bytes.len() {
        return &[];
    }
    let (head, _) = bytes.split_at(to);
    head.split_at(from).1
}

const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The integer part of a JSON number, saturating; a negative or non-number reads as 0.
const fn decimal(text: &[u8]) -> u64 {
    let mut value: u64 = 0;
    let mut i = 0;
    while i < text.len() && text[i].is_ascii_digit() {
        value = value
            .saturating_mul(10)
            .saturating_add((text[i] - b'0') as u64);
        i += 1;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_providers_limit() {
        let m = Measure::of(
            r#"{"type":"object","properties":{"op":{"type":"string","enum":["a","bc"]},"n":{"type":["integer","null"],"maxItems":3},"inner":{"type":"object","properties":{"x":{"anyOf":[{"type":"string"}],"const":"xyz"}},"required":["x"]}},"required":["op"],"$defs":{"d":{"maxItems":4}}}"#,
        );
        assert_eq!(m.properties, 4);
        assert_eq!(m.nesting, 2);
        assert_eq!(m.enum_values, 2);
        // op, n, inner, x, d; a, bc; xyz.
        assert_eq!(m.name_and_value_chars, 2 + 1 + 5 + 1 + 1 + 1 + 2 + 3);
        assert_eq!(m.optional_properties, 2);
        assert_eq!(m.union_properties, 2);
        assert_eq!(m.max_items, 7);
        assert_eq!(m.longest_name, 5);
    }

    #[test]
    fn measures_any_text_without_panicking() {
        for text in [
            "",
            "{",
            "}}]]",
            "\"",
            "{\"properties\":{\"a\"",
            "[[[[",
            "{\"maxItems\":-",
        ] {
            let _ = Measure::of(text);
        }
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        assert_eq!(Measure::of(&deep).nesting, 0);
    }
}
