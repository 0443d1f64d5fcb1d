//! A foreign schema read by its `type`, `enum` or `const` (scalars with the keyword table's
//! keywords, arrays and tuples, objects and maps, string literals), and what the IR has no
//! words for kept as it was written ([`Verbatim`]).

use serde_json::{Map, Number, Value};
use stitch_rules::json::is_plain;
use stitch_rules::{Class, Given, Keyword};

use super::lower::Lowering;
use super::readings::{
    description, kind_bit, only_keys, says_anything, says_only_strings, speaks_of_null,
    string_literals_or_null,
};
use crate::ir::{
    ArrayRules, Bound, Doc, Field, KeywordValue, Kind, MapRules, Node, NumberRules, Object,
    QuickCheck, StringRules, Verbatim, kinds,
};
use crate::text::render::ends_closed;

impl<'a> Lowering<'a> {
    /// A schema without `$ref` or a union: by its `type`, `enum` or `const`. `None` when it
    /// says something the IR has no words for.
    pub(super) fn typed(&mut self, map: &'a Map<String, Value>) -> Option<Node<'a>> {
        let (kind_bits, nullable) = match map.get("type") {
            None => (0, false),
            Some(Value::String(name)) => (kind_bit(name)?, false),
            Some(Value::Array(names)) => {
                let mut bits = 0;
                for name in names {
                    bits |= kind_bit(name.as_str()?)?;
                }
                (bits & !kinds::NULL, bits & kinds::NULL != 0)
            }
            Some(_) => return None,
        };
        let nullable = nullable || map.get("nullable") == Some(&Value::Bool(true));
        let node = if map.contains_key("enum") || map.contains_key("const") {
            self.literals(map, kind_bits)?
        } else {
            match kind_bits {
                0 if only_keys(map, &[]) => Node::of(Kind::Any),
                kinds::BOOLEAN if only_keys(map, &["type"]) => Node::of(Kind::Boolean),
                kinds::INTEGER => self.scalar(map, Kind::Integer(NumberRules::NONE))?,
                kinds::NUMBER => self.scalar(map, Kind::Number(NumberRules::NONE))?,
                kinds::STRING => self.scalar(map, Kind::String(StringRules::NONE))?,
                kinds::ARRAY => self.array(map)?,
                kinds::OBJECT => self.object(map, None)?,
                // Several kinds, and nothing else said: each dialect says them its way.
                several if only_keys(map, &["type"]) => Node::of(Kind::Kinds(several)),
                _ => return None,
            }
        };
        Some(if nullable { node.nullable() } else { node })
    }

    /// `enum` or `const` of strings (and `null`): a string enum.
    fn literals(&self, map: &'a Map<String, Value>, kind_bits: u8) -> Option<Node<'a>> {
        if kind_bits != 0 && kind_bits != kinds::STRING {
            return None;
        }
        let values = string_literals_or_null(map)?;
        let nullable = values.iter().any(Option::is_none);
        let node = self.string_enum(values.into_iter().flatten());
        Some(if nullable { node.nullable() } else { node })
    }

    /// A number or a string, each keyword of its class read by the keyword table. A number's
    /// `format` (`int32`, `double`) is dropped: it restricts nothing.
    fn scalar(&self, map: &'a Map<String, Value>, mut kind: Kind<'a>) -> Option<Node<'a>> {
        let number = !matches!(kind, Kind::String(_));
        let mut known = vec!["type"];
        if number {
            known.push("format");
        }
        for keyword in Keyword::of_class(kind.class()) {
            let spec = keyword.spec();
            known.push(spec.json);
            if number && matches!(keyword, Keyword::Format) {
                continue;
            }
            if let Some(value) = map.get(spec.json) {
                kind = kind.with_keyword(*keyword, self.keyword_value(spec.given, value)?)?;
            }
        }
        only_keys(map, &known).then_some(Node::of(kind))
    }

    /// An array: of one item schema, or a tuple when its positions are all it takes.
    fn array(&mut self, map: &'a Map<String, Value>) -> Option<Node<'a>> {
        let mut known = vec!["type", "items", "prefixItems"];
        for keyword in Keyword::of_class(Class::Array) {
            known.push(keyword.spec().json);
        }
        if !only_keys(map, &known) {
            return None;
        }
        if let Some(Value::Array(positions)) = map.get("prefixItems") {
            let length = positions.len() as u64;
            let closed = map.get("items") == Some(&Value::Bool(false))
                || map.get("maxItems").and_then(Value::as_u64) == Some(length);
            let exact = map.get("minItems").and_then(Value::as_u64) == Some(length);
            let elements: Vec<&'a Node<'a>> =
                positions.iter().map(|element| self.node(element)).collect();
            return (closed && exact && !map.contains_key("uniqueItems"))
                .then(|| Node::of(Kind::Tuple(self.arena.alloc_slice_copy(&elements))));
        }
        let item = match map.get("items") {
            None => self.arena.alloc(Node::of(Kind::Any)),
            Some(item) => self.node(item),
        };
        let mut kind = Kind::Array(item, ArrayRules::NONE);
        for keyword in Keyword::of_class(Class::Array) {
            let spec = keyword.spec();
            match map.get(spec.json) {
                Some(Value::Bool(false)) if spec.given == Given::Flag => {}
                Some(value) => {
                    kind = kind.with_keyword(*keyword, self.keyword_value(spec.given, value)?)?;
                }
                None => {}
            }
        }
        Some(Node::of(kind))
    }

    /// An object: named fields (without `skip`, a union's tag), and what other keys hold; or
    /// a map, when it names no field.
    pub(super) fn object(
        &mut self,
        map: &'a Map<String, Value>,
        skip: Option<&str>,
    ) -> Option<Node<'a>> {
        let mut known = vec!["type", "properties", "required", "additionalProperties"];
        // Keys are strings whatever is said: zod's records say so (`propertyNames`).
        match map.get("propertyNames") {
            None => {}
            Some(names) if says_only_strings(names) => known.push("propertyNames"),
            Some(_) => return None,
        }
        // An empty `properties` declares no key (zod v4 writes one for every loose object).
        let properties = match map.get("properties") {
            None => None,
            Some(Value::Object(properties)) if properties.is_empty() => None,
            Some(Value::Object(properties)) => Some(properties),
            Some(_) => return None,
        };
        // `None`: other keys are free; `Some(None)`: refused; `Some(Some(node))`: checked.
        let rest = match map.get("additionalProperties") {
            None => None,
            // Any keys, said outright and naming none: a map of any values, however the
            // openness is written (`true`, `{}`), so that every dialect shows it as one.
            Some(free) if properties.is_none() && skip.is_none() && says_anything(free) => {
                Some(Some(&*self.arena.alloc(Node::of(Kind::Any))))
            }
            Some(free) if says_anything(free) => None,
            Some(Value::Bool(false)) => Some(None),
            Some(schema) => Some(Some(self.node(schema))),
        };
        if let (None, None, Some(Some(value))) = (properties, skip, rest) {
            return self.map(map, known, value);
        }
        if !only_keys(map, &known) {
            return None;
        }
        let required: Vec<&str> = match map.get("required") {
            None => Vec::new(),
            Some(Value::Array(names)) => names.iter().map(Value::as_str).collect::<Option<_>>()?,
            Some(_) => return None,
        };
        // A required key no property names cannot be said by a field.
        if required.iter().any(|name| {
            !properties.is_some_and(|properties| properties.contains_key(*name))
                && Some(*name) != skip
        }) {
            return None;
        }
        let fields: Vec<Field<'a>> = properties
            .into_iter()
            .flatten()
            .filter(|(name, _)| Some(name.as_str()) != skip)
            .map(|(name, schema)| self.field(name, schema, required.contains(&name.as_str())))
            .collect();
        let mut object = Object::new(
            self.arena.alloc_slice_copy(&fields),
            matches!(rest, Some(None)),
            description(map),
        );
        if let Some(Some(rest)) = rest {
            object = object.with_rest(rest);
        }
        Some(Node::of(Kind::Object(self.arena.alloc(object))))
    }

    /// A map: what every key holds, with the map's own keywords; `None` when the schema says
    /// more than a map.
    fn map(
        &mut self,
        map: &'a Map<String, Value>,
        mut known: Vec<&'static str>,
        value: &'a Node<'a>,
    ) -> Option<Node<'a>> {
        for keyword in Keyword::of_class(Class::Map) {
            known.push(keyword.spec().json);
        }
        let requires_a_key = match map.get("required") {
            None => false,
            Some(Value::Array(names)) => !names.is_empty(),
            Some(_) => true,
        };
        if !only_keys(map, &known) || requires_a_key {
            return None;
        }
        let mut kind = Kind::Map(value, MapRules::NONE);
        for keyword in Keyword::of_class(Class::Map) {
            let spec = keyword.spec();
            if let Some(count) = map.get(spec.json) {
                kind = kind.with_keyword(*keyword, self.keyword_value(spec.given, count)?)?;
            }
        }
        Some(Node::of(kind))
    }

    /// One named property as a field.
    fn field(&mut self, name: &'a str, schema: &'a Value, required: bool) -> Field<'a> {
        let own = schema.as_object().and_then(description);
        let node = self.node(schema);
        let default = schema.get("default");
        let null_has_a_meaning = node.nullable && own.is_some_and(|doc| speaks_of_null(doc.text));
        // Whether `null` and absence differ (`defaulted`): they do where the default is not
        // `null`, or where there is none and the description speaks of `null` ("pass null to
        // remove", absence to keep); shown where a dialect can show it, reported where it
        // cannot. A client that must send every key (OpenAI's strict mode) cannot ask for
        // both: its `null` for a key with another default asks for the default
        // (`null_is_absence`, read so by `arguments_for`), unless the description gives
        // `null` a meaning of its own. A `null` the key takes otherwise stays as it was sent.
        let (defaulted, null_is_absence) = match default {
            Some(Value::Null) => (false, false),
            Some(_) => (true, !null_has_a_meaning),
            None => (null_has_a_meaning, false),
        };
        Field {
            name,
            aliases: &[],
            node,
            required,
            defaulted,
            description: self.with_default(own, default),
            plain: is_plain(name),
            quick: QuickCheck::of(node),
            null_is_absence,
        }
    }

    /// A field's description with its default said (`Default: 50.`): no dialect keeps the
    /// `default` keyword, and a model that leaves the key out should know what it gets. A
    /// default longer than a short phrase is left unsaid.
    fn with_default(&self, own: Option<Doc<'a>>, default: Option<&Value>) -> Option<Doc<'a>> {
        const LONGEST_SAID: usize = 80;
        let Some(default) = default.filter(|value| !value.is_null()) else {
            return own;
        };
        let value = default.to_string();
        if value.len() > LONGEST_SAID {
            return own;
        }
        // Joined as the renderer joins what follows a text: a space after a closed sentence.
        let text = match own.map(|doc| doc.text.trim_end()) {
            Some(text) if ends_closed(text) => format!("{text} Default: {value}."),
            Some(text) if !text.is_empty() => format!("{text}. Default: {value}."),
            _ => format!("Default: {value}."),
        };
        Some(Doc::new(self.arena.alloc_str(&text)))
    }

    /// A schema kept as it was written, the `$ref`s it holds noted.
    pub(super) fn verbatim(&mut self, map: &'a Map<String, Value>) -> Node<'a> {
        let mut members = map.clone();
        members.remove("description");
        let description = description(map);
        if members.is_empty() {
            return Node::of(Kind::Any);
        }
        self.note_refs(map);
        let kind_bits = match map.get("type") {
            Some(Value::String(name)) => kind_bit(name).unwrap_or(kinds::ANY),
            Some(Value::Array(names)) => names
                .iter()
                .filter_map(|name| kind_bit(name.as_str()?))
                .fold(0, |bits, bit| bits | bit),
            _ => kinds::ANY,
        };
        let text = Value::Object(members).to_string();
        let body = self.arena.alloc_str(&text[1..text.len() - 1]);
        Node::of(Kind::Verbatim(Verbatim {
            body,
            kinds: if kind_bits == 0 {
                kinds::ANY
            } else {
                kind_bits
            },
            description,
        }))
    }

    /// A value that is no schema object (`false`, a number): kept as a schema that says so.
    pub(super) fn verbatim_value(&mut self, value: &Value) -> Node<'a> {
        let body = match value {
            Value::Bool(false) => "\"not\":{}".to_owned(),
            other => format!("\"allOf\":[{other}]"),
        };
        Node::of(Kind::Verbatim(Verbatim {
            body: self.arena.alloc_str(&body),
            kinds: kinds::ANY,
            description: None,
        }))
    }

    /// A keyword's value as the IR holds it, read as the keyword table says it is given.
    fn keyword_value(&self, given: Given, value: &'a Value) -> Option<KeywordValue<'a>> {
        Some(match given {
            Given::Bound => KeywordValue::Bound(self.bound(value.as_number()?)?),
            Given::Count => KeywordValue::Count(value.as_u64()?),
            Given::Text => KeywordValue::Text(value.as_str()?),
            Given::Flag => {
                value.as_bool().filter(|set| *set)?;
                KeywordValue::Flag
            }
        })
    }

    /// A JSON number as a bound: its text as written, its value, whether it is an integer.
    fn bound(&self, number: &Number) -> Option<Bound<'a>> {
        let value = number.as_f64()?;
        let integral = number.is_i64() || number.is_u64();
        let text = self.arena.alloc_str(&number.to_string());
        Some(Bound::new(text, value, integral))
    }

    /// A string enum of these values, each once, in order of first appearance.
    pub(super) fn string_enum(&self, values: impl IntoIterator<Item = &'a str>) -> Node<'a> {
        let mut seen = std::collections::BTreeSet::new();
        let values: Vec<&'a str> = values
            .into_iter()
            .filter(|value| seen.insert(*value))
            .collect();
        Node::of(Kind::StringEnum(
            self.arena.alloc_slice_copy(&values),
            &[],
            None,
        ))
    }
}
