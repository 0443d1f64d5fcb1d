//! What rendering a tool's input schema in a dialect changed of it, property by property: a
//! keyword moved into the description or dropped, a union flattened, a type widened, an open
//! object closed, a `null` made absence, a map sent as entries. Read by comparing the schema
//! as the upstream lists it with the schema as the dialect's clients are listed it, each
//! walked to the JSON Pointer of every property (a union's branches, `allOf`'s parts and an
//! array's items at their property's own pointer, as the flat object puts them); the guard's
//! findings say what a dialect cannot say at all, these say what the rendering did.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// Keywords that constrain a value, which a dialect may not take.
const CONSTRAINTS: [&str; 17] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "const",
    "enum",
    "default",
];

/// How deep a schema is walked, `$ref`s followed included: past it, the rest is not read.
const MAX_DEPTH: usize = 32;

/// One change the rendering made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The keyword is not in the schema any more, and the description says more than it did.
    MovedIntoDescription(&'static str),
    /// The keyword is not in the schema any more, and the description says nothing new.
    Dropped(&'static str),
    /// A union of several kinds became one flat object (or one kind).
    UnionFlattened,
    /// The value may now be of kinds it could not be (`integer` shown as `number`, say).
    TypeWidened { from: String, to: String },
    /// An object that took other keys takes only those it declares.
    OpenObjectClosed,
    /// A value that could be `null` can only be left out.
    NullMadeAbsence,
    /// A map is sent as an array of `{key, value}` entries.
    MapAsEntries,
}

impl Change {
    /// Whether a model shown the rendering can no longer learn what the schema says (`true`),
    /// or reads it another way (`false`).
    pub fn loses(&self) -> bool {
        matches!(self, Change::Dropped(_) | Change::TypeWidened { .. })
    }

    /// The change, said.
    pub fn said(&self) -> String {
        match self {
            Change::MovedIntoDescription(keyword) => {
                format!("`{keyword}` moved into the description")
            }
            Change::Dropped(keyword) => format!("`{keyword}` dropped"),
            Change::UnionFlattened => "union flattened".to_owned(),
            Change::TypeWidened { from, to } => format!("type widened from {from} to {to}"),
            Change::OpenObjectClosed => "open object closed".to_owned(),
            Change::NullMadeAbsence => "null made absence".to_owned(),
            Change::MapAsEntries => "map sent as entries".to_owned(),
        }
    }
}

/// Every change from `source` to `rendered`, each at the JSON Pointer of its property (`""`
/// for the arguments themselves), in pointer order.
pub fn changes(source: &Value, rendered: &Value) -> Vec<(String, Change)> {
    let before = nodes(source);
    let after = nodes(rendered);
    let mut found = Vec::new();
    for (pointer, was) in &before {
        let Some(now) = after.get(pointer) else {
            continue;
        };
        for change in changes_at(was, now) {
            found.push((pointer.clone(), change));
        }
    }
    found
}

/// What changed at one pointer, from the nodes it had to the nodes it has.
fn changes_at(was: &[&Value], now: &[&Value]) -> Vec<Change> {
    let mut found = Vec::new();
    let (was_types, now_types) = (types(was), types(now));
    let is_map = |nodes: &[&Value]| {
        nodes.iter().any(|node| {
            node.get("additionalProperties")
                .is_some_and(Value::is_object)
        })
    };
    if is_map(was) && !was_types.contains("array") && now_types.contains("array") {
        found.push(Change::MapAsEntries);
        return found;
    }
    let described = |nodes: &[&Value]| {
        nodes
            .iter()
            .filter_map(|node| node.get("description").and_then(Value::as_str))
            .map(str::len)
            .max()
            .unwrap_or(0)
    };
    let said_more = described(now) > described(was);
    for keyword in CONSTRAINTS {
        let has = |nodes: &[&Value]| nodes.iter().any(|node| node.get(keyword).is_some());
        if has(was) && !has(now) {
            found.push(if said_more {
                Change::MovedIntoDescription(keyword)
            } else {
                Change::Dropped(keyword)
            });
        }
    }
    let unions = |nodes: &[&Value]| {
        nodes.iter().any(|node| {
            ["anyOf", "oneOf"].iter().any(|key| {
                node.get(key)
                    .and_then(Value::as_array)
                    .is_some_and(|branches| {
                        branches.iter().filter(|branch| !is_null(branch)).count() > 1
                    })
            })
        })
    };
    if unions(was) && !unions(now) {
        found.push(Change::UnionFlattened);
    }
    let kinds = |types: &BTreeSet<String>| -> BTreeSet<String> {
        types
            .iter()
            .filter(|kind| *kind != "null")
            .cloned()
            .collect()
    };
    let (was_kinds, now_kinds) = (kinds(&was_types), kinds(&now_types));
    let covered = |kind: &String| {
        was_kinds.contains(kind) || (kind == "integer" && was_kinds.contains("number"))
    };
    if !was_kinds.is_empty() && (now_kinds.is_empty() || !now_kinds.iter().all(covered)) {
        let said = |kinds: &BTreeSet<String>| {
            if kinds.is_empty() {
                "any".to_owned()
            } else {
                kinds.iter().cloned().collect::<Vec<_>>().join(" | ")
            }
        };
        found.push(Change::TypeWidened {
            from: said(&was_kinds),
            to: said(&now_kinds),
        });
    }
    let open = |node: &&Value| {
        node.get("type").and_then(Value::as_str) == Some("object")
            && !matches!(node.get("additionalProperties"), Some(Value::Bool(false)))
    };
    let closed =
        |node: &&Value| matches!(node.get("additionalProperties"), Some(Value::Bool(false)));
    if was.iter().any(open) && !now.iter().any(open) && now.iter().any(closed) {
        found.push(Change::OpenObjectClosed);
    }
    if was_types.contains("null") && !now_types.contains("null") {
        found.push(Change::NullMadeAbsence);
    }
    found
}

/// Whether a schema is the `null` kind alone.
fn is_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
}

/// Every kind the nodes say a value may be (`type`, and the kinds of `const` and `enum`
/// values, `null` among them).
fn types(nodes: &[&Value]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for node in nodes {
        match node.get("type") {
            Some(Value::String(kind)) => {
                found.insert(kind.clone());
            }
            Some(Value::Array(kinds)) => {
                found.extend(kinds.iter().filter_map(Value::as_str).map(str::to_owned));
            }
            _ => {}
        }
        let values = node
            .get("enum")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        for value in values.chain(node.get("const")) {
            if value.is_null() {
                found.insert("null".to_owned());
            }
        }
    }
    found
}

/// Every schema node of `schema` at the pointer of its property, `$ref`s into the document
/// followed.
fn nodes(schema: &Value) -> BTreeMap<String, Vec<&Value>> {
    let mut found = BTreeMap::new();
    walk(schema, schema, String::new(), 0, &mut found);
    found
}

fn walk<'a>(
    root: &'a Value,
    node: &'a Value,
    pointer: String,
    depth: usize,
    found: &mut BTreeMap<String, Vec<&'a Value>>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let node = match node.get("$ref").and_then(Value::as_str) {
        Some(reference) => match reference.strip_prefix('#').and_then(|at| root.pointer(at)) {
            Some(target) => target,
            None => return,
        },
        None => node,
    };
    found.entry(pointer.clone()).or_default().push(node);
    for key in ["anyOf", "oneOf", "allOf"] {
        for branch in node
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            walk(root, branch, pointer.clone(), depth + 1, found);
        }
    }
    if let Some(items) = node.get("items").filter(|items| items.is_object()) {
        walk(root, items, pointer.clone(), depth + 1, found);
    }
    for (key, property) in node
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let segment = key.replace('~', "~0").replace('/', "~1");
        walk(
            root,
            property,
            format!("{pointer}/{segment}"),
            depth + 1,
            found,
        );
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn at(found: &[(String, Change)], pointer: &str) -> Vec<Change> {
        found
            .iter()
            .filter(|(at, _)| at == pointer)
            .map(|(_, change)| change.clone())
            .collect()
    }

    #[test]
    fn a_bound_said_in_the_description_moved_and_one_not_said_dropped() {
        let source = json!({"type": "object", "properties": {
            "n": {"type": "integer", "minimum": 0},
            "s": {"type": "string", "pattern": "^a"}}});
        let rendered = json!({"type": "object", "properties": {
            "n": {"type": "integer", "description": "minimum 0"},
            "s": {"type": "string"}}});
        let found = changes(&source, &rendered);
        assert_eq!(at(&found, "/n"), [Change::MovedIntoDescription("minimum")]);
        assert_eq!(at(&found, "/s"), [Change::Dropped("pattern")]);
        assert!(at(&found, "/s")[0].loses());
    }

    #[test]
    fn a_flattened_union_closed_and_null_made_absence() {
        let source = json!({"anyOf": [
            {"type": "object", "properties": {"op": {"const": "a"}, "x": {"type": ["integer", "null"]}}},
            {"type": "object", "properties": {"op": {"const": "b"}, "y": {"type": "string"}}}]});
        let rendered = json!({"type": "object", "additionalProperties": false, "properties": {
            "op": {"type": "string", "enum": ["a", "b"]}, "x": {"type": "integer"},
            "y": {"type": "string"}}});
        let found = changes(&source, &rendered);
        let root = at(&found, "");
        assert!(root.contains(&Change::UnionFlattened), "{found:?}");
        assert!(root.contains(&Change::OpenObjectClosed), "{found:?}");
        assert_eq!(at(&found, "/x"), [Change::NullMadeAbsence]);
        assert!(at(&found, "/y").is_empty());
    }

    #[test]
    fn a_widened_type_and_a_map_as_entries() {
        let source = json!({"type": "object", "properties": {
            "n": {"type": "integer"},
            "tags": {"type": "object", "additionalProperties": {"type": "integer"}}}});
        let rendered = json!({"type": "object", "properties": {
            "n": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "object", "properties": {
                "key": {"type": "string"}, "value": {"type": "integer"}}}}}});
        let found = changes(&source, &rendered);
        assert_eq!(
            at(&found, "/n"),
            [Change::TypeWidened {
                from: "integer".into(),
                to: "string".into()
            }]
        );
        assert_eq!(at(&found, "/tags"), [Change::MapAsEntries]);
    }

    #[test]
    fn the_same_schema_changed_nothing_and_a_ref_is_followed() {
        let source = json!({"type": "object", "additionalProperties": false,
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"type": "integer", "maximum": 3}}});
        assert!(changes(&source, &source).is_empty());
        let rendered = json!({"type": "object", "additionalProperties": false,
            "properties": {"a": {"type": "integer"}}});
        assert_eq!(
            at(&changes(&source, &rendered), "/a"),
            [Change::Dropped("maximum")]
        );
    }
}
