//! A foreign JSON Schema read into the IR, bottom-up: what the IR has words for becomes its
//! nodes (objects, arrays, tuples, maps, scalars with the keyword table's keywords, string
//! enums, `null` as nullability, discriminated unions of objects as unions of operations);
//! local `$ref`s are read through, once per path, so a recursive one stays a `$ref`; anything
//! else stays as it was written ([`Verbatim`]).
//!
//! The IR is borrowed: its names and texts from the document, its nodes from an arena the
//! caller owns and drops with the document, so nothing read outlives the call that read it.
//! The reading is bounded: a `$ref` read through counts as a level of nesting, and
//! definitions are read through within a budget of reads a few times the document's size.
//!
//! This file walks references and unions; `kinds` reads a schema by its `type`.
//!
//! The superset rule holds throughout: a node is only ever as strict as the schema it was
//! read from, never stricter (annotations aside: `title`, `default`, `examples` and the
//! `format` of a number are dropped, since they restrict nothing, and a short default is said
//! in its key's description), but for one exception: a key an open operation takes as any
//! other key keeps the type the operations that declare it give it (`open_to_other_keys`).

use std::collections::BTreeSet;

use bumpalo::Bump;
use serde_json::{Map, Value};

use super::readings::{description, is_null_schema, only_keys, says_anything, string_literals};
use crate::ir::key_table::Flat;
use crate::ir::{Doc, Kind, Node, Object, Union, Variant};
use crate::union::key_table;

/// A document read into the IR.
pub(crate) struct Lowered<'a> {
    /// The root node.
    pub root: &'a Node<'a>,
    /// The `$ref`s that verbatim parts still hold, as JSON Pointers into the document: the
    /// definitions they name must stay in the rebuilt document.
    pub kept_refs: BTreeSet<String>,
}

/// Reads a document into the IR, its nodes in `arena`. The document must be no deeper than
/// `max_depth`: this walk is recursive, and a `$ref` read through counts as one level more,
/// so a chain of definitions is read only as deep as nesting may go (past that it stays a
/// `$ref`).
pub(crate) fn lower<'a>(document: &'a Value, arena: &'a Bump, max_depth: usize) -> Lowered<'a> {
    let mut lowering = Lowering {
        document,
        arena,
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

pub(super) struct Lowering<'a> {
    pub(super) document: &'a Value,
    pub(super) arena: &'a Bump,
    /// The `$ref`s being read through, outermost first: one met again is recursive.
    inlining: Vec<&'a str>,
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

impl<'a> Lowering<'a> {
    /// A schema's node, in the arena.
    pub(super) fn node(&mut self, schema: &'a Value) -> &'a Node<'a> {
        let node = self.read(schema);
        self.arena.alloc(node)
    }

    /// A schema's node, one level deeper than the one reading it.
    fn read(&mut self, schema: &'a Value) -> Node<'a> {
        self.depth += 1;
        self.reads_left = self.reads_left.saturating_sub(1);
        let node = self.read_at_depth(schema);
        self.depth -= 1;
        node
    }

    fn read_at_depth(&mut self, schema: &'a Value) -> Node<'a> {
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
    fn reference(&mut self, map: &'a Map<String, Value>, reference: &'a Value) -> Node<'a> {
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
    /// literals as one enum, objects with a discriminator as a union of operations, and any
    /// other branches each read as a node of its own (a `oneOf` read so admits a value more
    /// than one branch takes: a superset). `None` when it stands with keywords beside it. (Keys beside a union are spread into its branches before
    /// the document is read: see `beside`.)
    fn union(&mut self, map: &'a Map<String, Value>, branches: &'a [Value]) -> Option<Node<'a>> {
        if !only_keys(map, &["oneOf", "anyOf", "type", "discriminator"])
            || map.get("type").is_some_and(|kind| kind != "object")
        {
            return None;
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
                    self.string_enum(values.into_iter().flatten())
                } else if let Some(union) =
                    self.discriminated(several, named_tag(map), description(map))
                {
                    union
                } else {
                    self.any_of(several)
                }
            }
        };
        Some(if nullable { node.nullable() } else { node })
    }

    /// Branches no key tells apart, each read as a node of its own.
    fn any_of(&mut self, branches: &[&'a Value]) -> Node<'a> {
        let nodes: Vec<&'a Node<'a>> = branches.iter().map(|branch| self.node(branch)).collect();
        Node::of(Kind::AnyOf(self.arena.alloc_slice_copy(&nodes)))
    }

    /// Objects told apart by one key: the one `discriminator.propertyName` names, else (the
    /// rule stitchkit's projection finds it by) the first of the first branch's keys, in
    /// sorted order, that every branch requires with string values no other branch has, else
    /// the first that every branch gives such values without requiring it (pydantic's
    /// `Literal["get"] = "get"`). The flat object requires the tag either way: it is how the
    /// tool tells its operations apart.
    fn discriminated(
        &mut self,
        branches: &[&'a Value],
        named: Option<&str>,
        doc: Option<Doc<'a>>,
    ) -> Option<Node<'a>> {
        let resolved: Vec<(&'a Map<String, Value>, Option<&'a str>)> = branches
            .iter()
            .map(|branch| self.resolve(branch))
            .collect::<Option<_>>()?;
        let objects: Vec<&'a Map<String, Value>> = resolved.iter().map(|(map, _)| *map).collect();
        let (tag, labels) = discriminator(&objects, named)?;
        let mut read_objects = Vec::with_capacity(objects.len());
        for (object, reference) in resolved {
            self.inlining.extend(reference);
            let read = self.object(object, Some(tag));
            if reference.is_some() {
                self.inlining.pop();
            }
            let Kind::Object(read) = read?.kind else {
                return None;
            };
            read_objects.push(read);
        }
        self.open_to_other_keys(&objects, &mut read_objects);
        let mut variants = Vec::new();
        for ((object, read), labels) in objects.iter().zip(read_objects).zip(labels) {
            let description = object.get("description").and_then(Value::as_str);
            for label in labels {
                variants.push(Variant::new(label, &[], description, read));
            }
        }
        let variants = self.arena.alloc_slice_copy(&variants);
        let union: &'a Union<'a> = self.arena.alloc(Union::new(tag, variants, doc));
        // The key table the derive computes for a contract, so that the union's keys are
        // found in one pass over its fields, whatever the number of operations.
        let (keys, slots) = key_table(union);
        let flat = self.arena.alloc(Flat {
            keys: self.arena.alloc_slice_copy(&keys),
            slots: self.arena.alloc_slice_copy(&slots),
            names: None,
        });
        Some(Node::of(Kind::Union(
            self.arena.alloc(union.with_flat(flat)),
        )))
    }

    /// An operation that says outright that it takes other keys (`additionalProperties` of
    /// `true` or `{}`, as zod's `.passthrough()` writes) is read as an object whose other keys
    /// hold any value, as a contract's flattened map is. A key another operation types keeps
    /// that type in the flat object, and its hint names the open operation as one that takes
    /// it as any other key: a model is told what the key is, and the open operation says
    /// nothing of it. (This is the one place the flat object is narrower than its source: a
    /// value the open operation would take under another operation's key, of another kind.)
    /// An operation that says nothing of other keys is read as serde and zod read it: the
    /// tool ignores them.
    fn open_to_other_keys(
        &mut self,
        objects: &[&'a Map<String, Value>],
        read: &mut [&'a Object<'a>],
    ) {
        let mut any: Option<&'a Node<'a>> = None;
        for (source, object) in objects.iter().zip(read.iter_mut()) {
            let open = source
                .get("additionalProperties")
                .is_some_and(says_anything);
            if open && object.rest.is_none() {
                let any = *any.get_or_insert_with(|| self.arena.alloc(Node::of(Kind::Any)));
                *object = self.arena.alloc(object.with_rest(any));
            }
        }
    }

    /// A branch as an object schema, read through a `$ref` (which it names, to be read
    /// through only once on a path) or a lone `allOf`.
    fn resolve(&self, branch: &'a Value) -> Option<(&'a Map<String, Value>, Option<&'a str>)> {
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

    /// Notes every `$ref` inside a verbatim part, and those of the definitions they name.
    pub(super) fn note_refs(&mut self, map: &'a Map<String, Value>) {
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

    fn keep_ref(&mut self, reference: &str, pending: &mut Vec<&'a Value>) {
        if let Some(pointer) = reference.strip_prefix('#')
            && self.kept_refs.insert(pointer.to_owned())
            && let Some(target) = self.document.pointer(pointer)
        {
            pending.push(target);
        }
    }
}

/// The key `discriminator.propertyName` names beside a union (OpenAPI's and pydantic's way of
/// saying which key tells the branches apart).
fn named_tag(map: &Map<String, Value>) -> Option<&str> {
    map.get("discriminator")?.get("propertyName")?.as_str()
}

/// The key that tells the objects apart and each object's values of it: the key `named`, when
/// given; else the first of the first object's keys, in sorted order, that every object
/// requires with string values no other object has; else the first that every object gives
/// such values, required or not.
fn discriminator<'a>(
    objects: &[&'a Map<String, Value>],
    named: Option<&str>,
) -> Option<(&'a str, Vec<Vec<&'a str>>)> {
    let first_properties = objects.first()?.get("properties")?.as_object()?;
    let mut candidates: Vec<&'a String> = first_properties.keys().collect();
    candidates.sort();
    if let Some(named) = named {
        candidates.retain(|key| key.as_str() == named);
    }
    let tagged_by = |key: &'a String, must_require: bool| {
        let labels: Vec<Vec<&'a str>> = objects
            .iter()
            .map(|object| {
                let is_object = object.get("type").is_some_and(|kind| kind == "object");
                let required = object
                    .get("required")
                    .and_then(Value::as_array)
                    .is_some_and(|names| names.iter().any(|name| name == key.as_str()));
                let property = object.get("properties")?.get(key)?;
                (is_object && (required || !must_require)).then_some(())?;
                string_literals(property.as_object()?)
            })
            .collect::<Option<_>>()?;
        let mut seen = BTreeSet::new();
        let disjoint = labels.iter().flatten().all(|label| seen.insert(*label));
        disjoint.then_some((key.as_str(), labels))
    };
    let required_first = named.is_none();
    candidates
        .iter()
        .find_map(|key| tagged_by(key, required_first))
        .or_else(|| candidates.iter().find_map(|key| tagged_by(key, false)))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_chain_of_refs_is_read_as_deep_as_nesting_may_go_then_kept() {
        let mut defs = serde_json::Map::new();
        for i in 0..10 {
            let next = json!({"type": "object", "properties": {"next": {"$ref": format!("#/$defs/d{}", i + 1)}}});
            defs.insert(format!("d{i}"), next);
        }
        defs.insert("d10".to_owned(), json!({"type": "string"}));
        let document = json!({"$ref": "#/$defs/d0", "$defs": defs});
        let arena = Bump::new();
        let lowered = lower(&document, &arena, 6);
        // Read through while nesting allows: objects holding objects...
        let mut node = lowered.root;
        let mut objects = 0;
        while let Kind::Object(object) = node.kind {
            objects += 1;
            node = object.fields[0].node;
        }
        assert!((1..10).contains(&objects), "read {objects} levels");
        // ...then the rest stays a `$ref`, with the definitions it names kept.
        assert!(matches!(node.kind, Kind::Verbatim(_)), "{:?}", node.kind);
        assert!(!lowered.kept_refs.is_empty());
    }

    #[test]
    fn a_discriminated_union_is_a_union_with_its_key_table() {
        let document = json!({"oneOf": [
            {"type": "object", "properties": {"op": {"const": "add"}, "n": {"type": "integer"}},
             "required": ["op", "n"]},
            {"type": "object", "properties": {"op": {"const": "clear"}}, "required": ["op"]}
        ]});
        let arena = Bump::new();
        let lowered = lower(&document, &arena, 32);
        let Kind::Union(union) = lowered.root.kind else {
            panic!("not a union: {:?}", lowered.root.kind);
        };
        assert_eq!(union.tag, "op");
        assert_eq!(union.variants.len(), 2);
        assert!(union.flat.is_some(), "the key table is built at run time");
    }

    #[test]
    fn a_type_array_with_nothing_else_said_is_its_kinds() {
        let document = json!({"type": ["string", "integer"]});
        let arena = Bump::new();
        let lowered = lower(&document, &arena, 32);
        assert!(
            matches!(lowered.root.kind, Kind::Kinds(_)),
            "{:?}",
            lowered.root.kind
        );
    }
}
