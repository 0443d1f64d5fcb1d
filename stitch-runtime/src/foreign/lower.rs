//! A foreign JSON Schema read into the IR, bottom-up: what the IR has words for becomes its
//! nodes (objects, arrays, tuples, maps, scalars with the keyword table's keywords, string
//! enums, `null` as nullability, discriminated unions of objects as unions of operations);
//! local `$ref`s are read through, once per path, so a recursive one stays a `$ref`; anything
//! else stays as it was written ([`Verbatim`]). The IR holds `&'static` data, so what is read
//! is leaked: the caller (`foreign`) reads each distinct document once and keeps it.
//!
//! The superset rule holds throughout: a node is only ever as strict as the schema it was
//! read from, never stricter (annotations aside: `title`, `default`, `examples` and the
//! `format` of a number are dropped; they restrict nothing).

use std::collections::BTreeSet;

use serde_json::{Map, Number, Value};
use stitch_rules::json::is_plain;
use stitch_rules::{Class, Given, Keyword};

use crate::flatten::key_table;
use crate::node::{
    ArrayRules, Bound, Doc, Field, KeywordValue, Kind, MapRules, Node, NumberRules, Object,
    QuickCheck, StringRules, Union, Variant, Verbatim, kinds,
};
use crate::table::Flat;

/// Keys that say nothing a value must be: read past, and dropped from a rebuilt node.
const ANNOTATIONS: [&str; 14] = [
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$schema",
    "$id",
    "$anchor",
    "$defs",
    "definitions",
    "nullable",
];

/// A document read into the IR.
pub(crate) struct Lowered {
    /// The root node.
    pub root: &'static Node,
    /// The `$ref`s that verbatim parts still hold, as JSON Pointers into the document: the
    /// definitions they name must stay in the rebuilt document.
    pub kept_refs: BTreeSet<String>,
}

/// Reads a document into the IR. The document must be no deeper than the caller's limit:
/// this walk is recursive, and a `$ref` read through counts as one level more, so a chain of
/// definitions is read only as deep as nesting may go (past that it stays a `$ref`).
pub(crate) fn lower(document: &Value, max_depth: usize) -> Lowered {
    let mut lowering = Lowering {
        document,
        inlining: Vec::new(),
        kept_refs: BTreeSet::new(),
        depth: 0,
        max_depth,
        reads_left: expansion_budget(document),
    };
    let root = lowering.node(document);
    Lowered {
        root,
        kept_refs: lowering.kept_refs,
    }
}

struct Lowering<'d> {
    document: &'d Value,
    /// The `$ref`s being read through, outermost first: one met again is recursive.
    inlining: Vec<&'d str>,
    kept_refs: BTreeSet<String>,
    /// How deep the schema being read sits, `$ref`s read through counted as levels.
    depth: usize,
    max_depth: usize,
    /// How many more schemas may be read before a `$ref` is kept instead of read through:
    /// definitions that refer to each other twice over would otherwise be read through once
    /// per path, exponentially many.
    reads_left: usize,
}

/// How many schemas a document's reading may visit: a multiple of the schemas it holds, so a
/// definition used in several places is read through in each, and an expansion grows the
/// document at most that many times over.
fn expansion_budget(document: &Value) -> usize {
    const TIMES_THE_SOURCE: usize = 8;
    const AT_LEAST: usize = 1024;
    let mut values = 0usize;
    let mut pending = vec![document];
    while let Some(value) = pending.pop() {
        values += 1;
        match value {
            Value::Array(items) => pending.extend(items),
            Value::Object(map) => pending.extend(map.values()),
            _ => {}
        }
    }
    values.saturating_mul(TIMES_THE_SOURCE).max(AT_LEAST)
}

impl<'d> Lowering<'d> {
    /// A schema's node.
    fn node(&mut self, schema: &'d Value) -> &'static Node {
        leak(self.read(schema))
    }

    /// A schema's node, one level deeper than the one reading it.
    fn read(&mut self, schema: &'d Value) -> Node {
        self.depth += 1;
        self.reads_left = self.reads_left.saturating_sub(1);
        let node = self.read_at_depth(schema);
        self.depth -= 1;
        node
    }

    fn read_at_depth(&mut self, schema: &'d Value) -> Node {
        let map = match schema {
            Value::Bool(true) => return Node::of(Kind::Any),
            // Deeper than nesting may go, counting the `$ref`s read through on the way: kept
            // as it was written, so no walk over the IR recurses further.
            Value::Object(map) if self.depth > self.max_depth => return self.verbatim(map),
            Value::Object(map) => map,
            // `false`, or a value that is no schema: kept as it is.
            other => return self.verbatim_value(other),
        };
        if let Some(reference) = map.get("$ref") {
            return self.reference(map, reference);
        }
        if let Some(Value::Array(all)) = map.get("allOf")
            && let [only] = all.as_slice()
            && only_keys(map, &["allOf"])
        {
            return self.read(only);
        }
        let branches = match (map.get("oneOf"), map.get("anyOf")) {
            (Some(Value::Array(branches)), None) | (None, Some(Value::Array(branches))) => {
                Some(branches)
            }
            _ => None,
        };
        if let Some(branches) = branches {
            return match self.union(map, branches) {
                Some(node) => node,
                None => self.verbatim(map),
            };
        }
        self.typed(map).unwrap_or_else(|| self.verbatim(map))
    }

    /// Whether a `$ref` may be read through here: not too deep, and not past the budget of
    /// reads.
    fn may_read_through(&self) -> bool {
        self.depth < self.max_depth && self.reads_left > 0
    }

    /// A `$ref`, read through when it is local, resolves, is not being read already, stands
    /// with annotations only, and the reading is neither too deep nor past its budget.
    fn reference(&mut self, map: &'d Map<String, Value>, reference: &'d Value) -> Node {
        let target = match reference {
            Value::String(text) => text
                .strip_prefix('#')
                .and_then(|pointer| self.document.pointer(pointer))
                .map(|target| (text.as_str(), target)),
            _ => None,
        };
        match target {
            Some((text, target))
                if only_keys(map, &["$ref"])
                    && !self.inlining.contains(&text)
                    && self.may_read_through() =>
            {
                self.inlining.push(text);
                let mut node = self.read(target);
                self.inlining.pop();
                if let Some(description) = description(map)
                    && let Kind::Verbatim(verbatim) = &mut node.kind
                {
                    verbatim.description = Some(description);
                }
                node
            }
            _ => self.verbatim(map),
        }
    }

    /// `oneOf`/`anyOf`: `null` branches as nullability, one other branch as itself, string
    /// literals as one enum, objects with a discriminator as a union of operations. `None`
    /// when it is none of these.
    fn union(&mut self, map: &'d Map<String, Value>, branches: &'d [Value]) -> Option<Node> {
        if !only_keys(map, &["oneOf", "anyOf", "type", "properties", "required"])
            || map.get("type").is_some_and(|kind| kind != "object")
        {
            return None;
        }
        if map.contains_key("properties") || map.contains_key("required") {
            // Keys every operation shares beside the union (a struct with its other fields
            // and a flattened enum): each operation holds them too.
            let merged = branches
                .iter()
                .map(|branch| {
                    let (object, _) = self.resolve(branch)?;
                    Some(leak(with_shared_keys(object, map)?))
                })
                .collect::<Option<Vec<&'d Value>>>()?;
            return self.discriminated(&merged, description(map));
        }
        let (nulls, others): (Vec<&Value>, Vec<&Value>) =
            branches.iter().partition(|branch| is_null_schema(branch));
        let nullable = !nulls.is_empty();
        let node = match others.as_slice() {
            [] => return None,
            [only] => {
                let node = self.read(only);
                if matches!(node.kind, Kind::Verbatim(_)) && nullable {
                    return None;
                }
                node
            }
            several => {
                if let Some(values) = several
                    .iter()
                    .map(|branch| {
                        self.resolve(branch)
                            .and_then(|(map, _)| string_literals(map))
                    })
                    .collect::<Option<Vec<_>>>()
                {
                    string_enum(values.into_iter().flatten())
                } else {
                    self.discriminated(several, description(map))?
                }
            }
        };
        Some(if nullable { node.nullable() } else { node })
    }

    /// Objects told apart by one key (the rule stitchkit's projection finds it by): the
    /// first of the first branch's keys, in sorted order, that every branch requires with
    /// string values no other branch has.
    fn discriminated(&mut self, branches: &[&'d Value], doc: Option<Doc>) -> Option<Node> {
        let resolved: Vec<(&'d Map<String, Value>, Option<&'d str>)> = branches
            .iter()
            .map(|branch| self.resolve(branch))
            .collect::<Option<_>>()?;
        let objects: Vec<&'d Map<String, Value>> = resolved.iter().map(|(map, _)| *map).collect();
        let first_properties = objects.first()?.get("properties")?.as_object()?;
        let mut candidates: Vec<&String> = first_properties.keys().collect();
        candidates.sort();
        let (tag, labels) = candidates.into_iter().find_map(|key| {
            let labels: Vec<Vec<&str>> = objects
                .iter()
                .map(|object| {
                    let is_object = object.get("type").is_some_and(|kind| kind == "object");
                    let required = object
                        .get("required")
                        .and_then(Value::as_array)
                        .is_some_and(|names| names.iter().any(|name| name == key.as_str()));
                    let property = object.get("properties")?.get(key)?;
                    (is_object && required).then_some(())?;
                    string_literals(property.as_object()?)
                })
                .collect::<Option<_>>()?;
            let mut seen = BTreeSet::new();
            let disjoint = labels.iter().flatten().all(|label| seen.insert(*label));
            disjoint.then_some((key, labels))
        })?;
        let mut variants = Vec::new();
        for ((object, reference), labels) in resolved.into_iter().zip(labels) {
            self.inlining.extend(reference);
            let read = self.object(object, Some(tag));
            if reference.is_some() {
                self.inlining.pop();
            }
            let Kind::Object(read) = read?.kind else {
                return None;
            };
            let description = object.get("description").and_then(Value::as_str);
            for label in labels {
                variants.push(Variant::new(
                    leak_str(label),
                    &[],
                    description.map(leak_str),
                    read,
                ));
            }
        }
        let union = leak(Union::new(leak_str(tag), Vec::leak(variants), doc));
        // The key table the derive computes for a contract, so that the union's keys are
        // found in one pass over its fields, whatever the number of operations.
        let (keys, slots) = key_table(union);
        let flat = leak(Flat {
            keys: Vec::leak(keys),
            slots: Vec::leak(slots),
        });
        Some(Node::of(Kind::Union(leak(union.with_flat(flat)))))
    }

    /// A branch as an object schema, read through a `$ref` (which it names, to be read
    /// through only once on a path) or a lone `allOf`.
    fn resolve(&self, branch: &'d Value) -> Option<(&'d Map<String, Value>, Option<&'d str>)> {
        let map = branch.as_object()?;
        if let Some(Value::String(reference)) = map.get("$ref") {
            let pointer = reference.strip_prefix('#')?;
            if !only_keys(map, &["$ref"])
                || self.inlining.contains(&reference.as_str())
                || !self.may_read_through()
            {
                return None;
            }
            let target = self.document.pointer(pointer)?.as_object()?;
            return Some((target, Some(reference)));
        }
        if let Some(Value::Array(all)) = map.get("allOf")
            && let [only] = all.as_slice()
            && only_keys(map, &["allOf"])
        {
            return Some((only.as_object()?, None));
        }
        Some((map, None))
    }

    /// A schema without `$ref` or a union: by its `type`, `enum` or `const`. `None` when it
    /// says something the IR has no words for.
    fn typed(&mut self, map: &'d Map<String, Value>) -> Option<Node> {
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
                _ => return None,
            }
        };
        Some(if nullable { node.nullable() } else { node })
    }

    /// `enum` or `const` of strings (and `null`): a string enum.
    fn literals(&self, map: &Map<String, Value>, kind_bits: u8) -> Option<Node> {
        if kind_bits != 0 && kind_bits != kinds::STRING {
            return None;
        }
        let values = string_literals_or_null(map)?;
        let nullable = values.iter().any(Option::is_none);
        let node = string_enum(values.into_iter().flatten());
        Some(if nullable { node.nullable() } else { node })
    }

    /// A number or a string, each keyword of its class read by the keyword table. A number's
    /// `format` (`int32`, `double`) is dropped: it restricts nothing.
    fn scalar(&self, map: &Map<String, Value>, mut kind: Kind) -> Option<Node> {
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
                kind = kind.with_keyword(*keyword, keyword_value(spec.given, value)?)?;
            }
        }
        only_keys(map, &known).then_some(Node::of(kind))
    }

    /// An array: of one item schema, or a tuple when its positions are all it takes.
    fn array(&mut self, map: &'d Map<String, Value>) -> Option<Node> {
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
            let elements: Vec<&'static Node> =
                positions.iter().map(|element| self.node(element)).collect();
            return (closed && exact && !map.contains_key("uniqueItems"))
                .then(|| Node::of(Kind::Tuple(Vec::leak(elements))));
        }
        let item = match map.get("items") {
            None => leak(Node::of(Kind::Any)),
            Some(item) => self.node(item),
        };
        let mut kind = Kind::Array(item, ArrayRules::NONE);
        for keyword in Keyword::of_class(Class::Array) {
            let spec = keyword.spec();
            match map.get(spec.json) {
                Some(Value::Bool(false)) if spec.given == Given::Flag => {}
                Some(value) => {
                    kind = kind.with_keyword(*keyword, keyword_value(spec.given, value)?)?;
                }
                None => {}
            }
        }
        Some(Node::of(kind))
    }

    /// An object: named fields (without `skip`, a union's tag), and what other keys hold; or
    /// a map, when it names no field.
    fn object(&mut self, map: &'d Map<String, Value>, skip: Option<&str>) -> Option<Node> {
        let mut known = vec!["type", "properties", "required", "additionalProperties"];
        let properties = match map.get("properties") {
            None => None,
            Some(Value::Object(properties)) => Some(properties),
            Some(_) => return None,
        };
        // `None`: other keys are free; `Some(None)`: refused; `Some(Some(node))`: checked.
        let rest = match map.get("additionalProperties") {
            None | Some(Value::Bool(true)) => None,
            Some(Value::Object(schema)) if schema.is_empty() => None,
            Some(Value::Bool(false)) => Some(None),
            Some(schema) => Some(Some(self.node(schema))),
        };
        if let (None, None, Some(Some(value))) = (properties, skip, rest) {
            for keyword in Keyword::of_class(Class::Map) {
                known.push(keyword.spec().json);
            }
            if !only_keys(map, &known) || map.contains_key("required") {
                return None;
            }
            let mut kind = Kind::Map(value, MapRules::NONE);
            for keyword in Keyword::of_class(Class::Map) {
                let spec = keyword.spec();
                if let Some(count) = map.get(spec.json) {
                    kind = kind.with_keyword(*keyword, keyword_value(spec.given, count)?)?;
                }
            }
            return Some(Node::of(kind));
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
        let mut fields = Vec::new();
        for (name, schema) in properties.into_iter().flatten() {
            if Some(name.as_str()) == skip {
                continue;
            }
            let description = schema.as_object().and_then(description);
            let node = self.node(schema);
            // A `null` the source tells apart from absence: a default other than `null`, or
            // none where `null` is taken ("pass null to remove", absence to keep). Such a
            // `null` is shown where a dialect can show it, reported where it cannot, and
            // never read as absence.
            let defaulted = match schema.get("default") {
                Some(Value::Null) => false,
                Some(_) => true,
                None => node.nullable,
            };
            fields.push(Field {
                name: leak_str(name),
                aliases: &[],
                node,
                required: required.contains(&name.as_str()),
                defaulted,
                description,
                plain: is_plain(name),
                quick: QuickCheck::of(node),
            });
        }
        let mut object = Object::new(
            Vec::leak(fields),
            matches!(rest, Some(None)),
            description(map),
        );
        if let Some(Some(rest)) = rest {
            object = object.with_rest(rest);
        }
        Some(Node::of(Kind::Object(leak(object))))
    }

    /// A schema kept as it was written, the `$ref`s it holds noted.
    fn verbatim(&mut self, map: &'d Map<String, Value>) -> Node {
        let mut members = map.clone();
        let description = members
            .remove("description")
            .and_then(|text| text.as_str().map(|text| Doc::new(leak_str(text))));
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
        let body = leak_str(&text[1..text.len() - 1]);
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
    fn verbatim_value(&mut self, value: &Value) -> Node {
        let body = match value {
            Value::Bool(false) => "\"not\":{}".to_owned(),
            other => format!("\"allOf\":[{other}]"),
        };
        Node::of(Kind::Verbatim(Verbatim {
            body: leak_str(&body),
            kinds: kinds::ANY,
            description: None,
        }))
    }

    /// Notes every `$ref` inside a verbatim part, and those of the definitions they name.
    fn note_refs(&mut self, map: &'d Map<String, Value>) {
        let mut pending: Vec<&Value> = map.values().collect();
        if let Some(Value::String(reference)) = map.get("$ref") {
            self.keep_ref(reference, &mut pending);
        }
        while let Some(value) = pending.pop() {
            match value {
                Value::Object(inner) => {
                    if let Some(Value::String(reference)) = inner.get("$ref") {
                        self.keep_ref(reference, &mut pending);
                    }
                    pending.extend(inner.values());
                }
                Value::Array(items) => pending.extend(items),
                _ => {}
            }
        }
    }

    fn keep_ref(&mut self, reference: &str, pending: &mut Vec<&'d Value>) {
        if let Some(pointer) = reference.strip_prefix('#')
            && self.kept_refs.insert(pointer.to_owned())
            && let Some(target) = self.document.pointer(pointer)
        {
            pending.push(target);
        }
    }
}

/// An operation's object schema with the keys its union shares beside it (`properties` and
/// `required` of the schema holding the `oneOf`) added; `None` when they clash.
fn with_shared_keys(object: &Map<String, Value>, union: &Map<String, Value>) -> Option<Value> {
    let mut merged = object.clone();
    if let Some(Value::Object(shared)) = union.get("properties") {
        let properties = merged
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()))
            .as_object_mut()?;
        for (key, schema) in shared {
            if properties.insert(key.clone(), schema.clone()).is_some() {
                return None;
            }
        }
    }
    if let Some(Value::Array(shared)) = union.get("required") {
        let required = merged
            .entry("required")
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()?;
        required.extend(shared.iter().cloned());
    }
    Some(Value::Object(merged))
}

/// Whether every key of the schema is an annotation or one of `known`.
fn only_keys(map: &Map<String, Value>, known: &[&str]) -> bool {
    map.keys()
        .all(|key| ANNOTATIONS.contains(&key.as_str()) || known.contains(&key.as_str()))
}

/// `{"type": "null"}`, annotations aside.
fn is_null_schema(schema: &Value) -> bool {
    schema.as_object().is_some_and(|map| {
        map.get("type") == Some(&Value::from("null")) && only_keys(map, &["type"])
    })
}

/// The string values a schema of literals takes (`const`, or an `enum` of strings), when
/// that is all it says.
fn string_literals(map: &Map<String, Value>) -> Option<Vec<&str>> {
    if map.get("type").is_some_and(|kind| kind != "string") {
        return None;
    }
    let values = string_literals_or_null(map)?;
    values.into_iter().collect()
}

/// The values of `const` or `enum`, each a string or `null` (`None`), when that is all the
/// schema says (besides `type`).
fn string_literals_or_null(map: &Map<String, Value>) -> Option<Vec<Option<&str>>> {
    let values: Vec<&Value> = match (map.get("const"), map.get("enum")) {
        (Some(value), None) => vec![value],
        (None, Some(Value::Array(values))) if !values.is_empty() => values.iter().collect(),
        _ => return None,
    };
    if !only_keys(map, &["type", "const", "enum"]) {
        return None;
    }
    values
        .into_iter()
        .map(|value| match value {
            Value::String(text) => Some(Some(text.as_str())),
            Value::Null => Some(None),
            _ => None,
        })
        .collect()
}

/// A string enum of these values, each once, in order of first appearance.
fn string_enum<'v>(values: impl IntoIterator<Item = &'v str>) -> Node {
    let mut seen = BTreeSet::new();
    let values: Vec<&'static str> = values
        .into_iter()
        .filter(|value| seen.insert(*value))
        .map(leak_str)
        .collect();
    Node::of(Kind::StringEnum(Vec::leak(values), &[]))
}

/// A keyword's value as the IR holds it, read as the keyword table says it is given.
fn keyword_value(given: Given, value: &Value) -> Option<KeywordValue> {
    Some(match given {
        Given::Bound => KeywordValue::Bound(bound(value.as_number()?)?),
        Given::Count => KeywordValue::Count(value.as_u64()?),
        Given::Text => KeywordValue::Text(leak_str(value.as_str()?)),
        Given::Flag => {
            value.as_bool().filter(|set| *set)?;
            KeywordValue::Flag
        }
    })
}

/// A JSON number as a bound: its text as written, its value, whether it is an integer.
fn bound(number: &Number) -> Option<Bound> {
    let value = number.as_f64()?;
    let integral = number.is_i64() || number.is_u64();
    Some(Bound::new(leak_str(&number.to_string()), value, integral))
}

/// A `type` name's bit.
fn kind_bit(name: &str) -> Option<u8> {
    kinds::NAMES
        .iter()
        .position(|known| *known == name)
        .map(|bit| 1 << bit)
}

/// The `description` of a schema.
fn description(map: &Map<String, Value>) -> Option<Doc> {
    let text = map.get("description")?.as_str()?;
    Some(Doc::new(leak_str(text)))
}

fn leak<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

fn leak_str(text: &str) -> &'static str {
    String::leak(text.to_owned())
}
