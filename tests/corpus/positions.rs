//! The test's own reading of what a schema says of each value position's kind, to count what
//! a dialect's output no longer says (independent of stitch's reader).

use serde_json::Value;

use crate::common;

/// The JSON kinds a schema allows, as bits: string, number (integers too), boolean, object,
/// array, null.
const NULL: u8 = 1 << 5;
/// Every kind but `null`: a position that allows them all says nothing of its kind.
const EVERY_KIND: u8 = NULL - 1;

fn kind_bit(name: &str) -> u8 {
    match name {
        "string" => 1,
        "number" | "integer" => 1 << 1,
        "boolean" => 1 << 2,
        "object" => 1 << 3,
        "array" => 1 << 4,
        "null" => NULL,
        _ => EVERY_KIND | NULL,
    }
}

fn value_kind(value: &Value) -> u8 {
    match value {
        Value::Null => NULL,
        Value::Bool(_) => kind_bit("boolean"),
        Value::Number(_) => kind_bit("number"),
        Value::String(_) => kind_bit("string"),
        Value::Array(_) => kind_bit("array"),
        Value::Object(_) => kind_bit("object"),
    }
}

/// Each value position of a schema (`a.b`, array items adding `[]`, a map's values `*`; a
/// map shown as `{"key", "value"}` entries counts as the map) with the kinds it allows there,
/// `None` where it says nothing of its kind (no `type`, `enum`, `const` or typed branches, or
/// every kind). Local `$ref`s are read through, each once on a path; where positions meet
/// (union branches), their kinds join, and one that says nothing makes the position say
/// nothing. The test's own reading, independent of stitch's.
pub struct Positions<'a> {
    root: &'a Value,
    found: std::collections::BTreeMap<String, Option<u8>>,
    reading: Vec<&'a str>,
}

impl<'a> Positions<'a> {
    pub fn of(root: &'a Value) -> std::collections::BTreeMap<String, Option<u8>> {
        let mut positions = Positions {
            root,
            found: std::collections::BTreeMap::new(),
            reading: Vec::new(),
        };
        positions.walk(root, String::new());
        positions.found
    }

    fn resolved(&self, schema: &'a Value) -> Option<(&'a Value, Option<&'a str>)> {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) if self.reading.contains(&reference) => None,
            Some(reference) => {
                let target = self.root.pointer(reference.strip_prefix('#')?)?;
                Some((target, Some(reference)))
            }
            None => Some((schema, None)),
        }
    }

    fn kinds(&self, schema: &'a Value, depth: usize) -> Option<u8> {
        let (schema, _) = self.resolved(schema)?;
        if depth > 16 {
            return None;
        }
        let kinds = if shown_as_entries(schema).is_some() {
            kind_bit("object")
        } else if let Some(kind) = schema.get("type") {
            match kind {
                Value::String(name) => kind_bit(name),
                Value::Array(names) => names
                    .iter()
                    .map(|name| kind_bit(name.as_str().unwrap_or_default()))
                    .fold(0, |bits, bit| bits | bit),
                _ => return None,
            }
        } else if let Some(Value::Array(values)) = schema.get("enum") {
            values
                .iter()
                .map(value_kind)
                .fold(0, |bits, bit| bits | bit)
        } else if let Some(value) = schema.get("const") {
            value_kind(value)
        } else if let Some(Value::Array(branches)) =
            schema.get("anyOf").or_else(|| schema.get("oneOf"))
        {
            let mut bits = 0;
            for branch in branches {
                bits |= self.kinds(branch, depth + 1)?;
            }
            bits
        } else if let Some(Value::Array(all)) = schema.get("allOf")
            && let [only] = all.as_slice()
        {
            self.kinds(only, depth + 1)?
        } else {
            return None;
        };
        (kinds & EVERY_KIND != EVERY_KIND).then_some(kinds)
    }

    fn walk(&mut self, schema: &'a Value, path: String) {
        let Some((schema, reference)) = self.resolved(schema) else {
            self.note(path, None);
            return;
        };
        if self.reading.len() > 16 {
            return;
        }
        self.reading.extend(reference);
        let kinds = self.kinds(schema, 0);
        if let Some(entries) = shown_as_entries(schema) {
            self.note(path.clone(), kinds.map(|_| kind_bit("object")));
            self.walk(entries, format!("{path}.*"));
        } else {
            self.note(path.clone(), kinds);
            self.children(schema, &path);
        }
        if reference.is_some() {
            self.reading.pop();
        }
    }

    fn children(&mut self, schema: &'a Value, path: &str) {
        let at = |key: &str| {
            if path.is_empty() {
                key.to_owned()
            } else {
                format!("{path}.{key}")
            }
        };
        if let Some(Value::Object(properties)) = schema.get("properties") {
            for (key, property) in properties {
                self.walk(property, at(key));
            }
        }
        if let Some(items @ Value::Object(_)) = schema.get("items") {
            self.walk(items, at("[]"));
        }
        if let Some(Value::Array(positions)) = schema.get("prefixItems") {
            for position in positions {
                self.walk(position, at("[]"));
            }
        }
        if let Some(values @ Value::Object(_)) = schema.get("additionalProperties") {
            self.walk(values, at("*"));
        }
        for keyword in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = schema.get(keyword) {
                for branch in branches {
                    self.children_of_branch(branch, path);
                }
            }
        }
    }

    fn children_of_branch(&mut self, branch: &'a Value, path: &str) {
        if let Some((branch, reference)) = self.resolved(branch) {
            self.reading.extend(reference);
            self.children(branch, path);
            if reference.is_some() {
                self.reading.pop();
            }
        }
    }

    fn note(&mut self, path: String, kinds: Option<u8>) {
        let entry = self.found.entry(path).or_insert(Some(0));
        *entry = match (*entry, kinds) {
            (Some(had), Some(more)) => Some(had | more),
            _ => None,
        };
    }
}

/// The schema of a map's values, where a strict dialect shows the map as its entries.
fn shown_as_entries(schema: &Value) -> Option<&Value> {
    common::shows_entries(schema).then(|| &schema["items"]["properties"]["value"])
}

/// The positions the source types and the output says nothing of (or allows fewer kinds at,
/// `null` aside), by the guard's path (array items and map values add no segment).
pub fn lost_types(source: &Value, output: &Value) -> Vec<(String, String)> {
    let (typed, shown) = (Positions::of(source), Positions::of(output));
    let mut lost = Vec::new();
    for (path, kinds) in &typed {
        let Some(kinds) = kinds.map(|kinds| kinds & !NULL).filter(|kinds| *kinds != 0) else {
            continue;
        };
        let says = match shown.get(path) {
            None => "is not there".to_owned(),
            Some(None) => "says nothing of its kind".to_owned(),
            Some(Some(shown)) if shown & kinds != kinds => {
                format!("allows kinds {shown:#b} of {kinds:#b}")
            }
            Some(Some(_)) => continue,
        };
        // A position inside one already lost is counted there.
        if lost
            .iter()
            .any(|(at, _): &(String, String)| path.starts_with(&format!("{at}.")))
        {
            continue;
        }
        lost.push((path.clone(), says));
    }
    lost.into_iter()
        .map(|(path, says)| {
            let dotted = path
                .split('.')
                .filter(|segment| *segment != "[]" && *segment != "*")
                .collect::<Vec<_>>()
                .join(".");
            (dotted, format!("`{path}` {says}"))
        })
        .collect()
}
