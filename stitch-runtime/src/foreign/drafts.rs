//! Older drafts' keywords read with their own meaning: a foreign document written for draft-04,
//! 06 or 07 (zod-to-json-schema writes draft-07, with tuples as an array of `items`) is
//! rewritten to what 2020-12 says for the same thing before it is read, since what stitch
//! writes is read as 2020-12 (it writes no `$schema`). A tuple's `items` array becomes
//! `prefixItems` (and `additionalItems` its `items`); draft-04's boolean `exclusiveMinimum`
//! and `exclusiveMaximum` become the numbers they qualify; `dependencies` become
//! `dependentRequired` and `dependentSchemas`; the root's `definitions` become `$defs`, the
//! `$ref`s into them following. A one-schema `items` is the items' schema in every draft and
//! stays as it is. Shapes only an older draft gives a meaning to (an array of `items`, a boolean
//! bound) are read so whatever `$schema` says; `dependencies`, which 2020-12 reads as an
//! annotation, and `definitions`, only where `$schema` names an older draft.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::schemas::{any_schema, each_schema_mut};

/// The document as 2020-12 reads it: borrowed when nothing in it needs rewriting. The caller
/// has bounded its depth; the walk holds no recursion of its own either way.
pub(crate) fn upgraded(document: &Value) -> Cow<'_, Value> {
    let older = document
        .get("$schema")
        .and_then(Value::as_str)
        .is_some_and(names_an_older_draft);
    if !older && !needs_rewriting(document, older) {
        return Cow::Borrowed(document);
    }
    let mut document = document.clone();
    // What is read from here on is 2020-12, whatever stays as it was written.
    let renamed = older && definitions_renamed(&mut document);
    if older && let Value::Object(root) = &mut document {
        root.remove("$schema");
    }
    each_schema_mut(&mut document, |map| {
        rewrite(map, older);
        if renamed {
            point_into_defs(map);
        }
    });
    Cow::Owned(document)
}

/// An older draft's root `definitions` named `$defs`, as 2020-12 names them, where the
/// document has no `$defs` of its own: whether it was renamed.
fn definitions_renamed(document: &mut Value) -> bool {
    let Value::Object(root) = document else {
        return false;
    };
    if root.contains_key("$defs") {
        return false;
    }
    let Some(definitions) = root.remove("definitions") else {
        return false;
    };
    root.insert("$defs".to_owned(), definitions);
    true
}

/// A `$ref` into the renamed definitions, pointing at their new name.
fn point_into_defs(map: &mut Map<String, Value>) {
    if let Some(Value::String(reference)) = map.get_mut("$ref")
        && let Some(name) = reference.strip_prefix("#/definitions/")
    {
        *reference = format!("#/$defs/{name}");
    }
}

/// Whether a `$schema` names draft-04, 06 or 07 (or earlier).
fn names_an_older_draft(uri: &str) -> bool {
    ["draft-03", "draft-04", "draft-05", "draft-06", "draft-07"]
        .iter()
        .any(|draft| uri.contains(draft))
}

/// Whether some schema of the document says something [`rewrite`] rewrites.
fn needs_rewriting(document: &Value, older: bool) -> bool {
    any_schema(document, |map| says_it_the_older_way(map, older))
}

fn says_it_the_older_way(map: &Map<String, Value>, older: bool) -> bool {
    matches!(map.get("items"), Some(Value::Array(_)))
        || map.contains_key("additionalItems")
        || matches!(map.get("exclusiveMinimum"), Some(Value::Bool(_)))
        || matches!(map.get("exclusiveMaximum"), Some(Value::Bool(_)))
        || (older && map.contains_key("dependencies"))
}

/// One schema's keywords, said as 2020-12 says them.
fn rewrite(map: &mut Map<String, Value>, older: bool) {
    // `additionalItems` beside one `items` schema means nothing: it is dropped, and a one
    // schema `items` stays where it is (the items' schema in every draft).
    let additional = map.remove("additionalItems");
    if matches!(map.get("items"), Some(Value::Array(_)))
        && let Some(positions) = map.remove("items")
    {
        map.insert("prefixItems".to_owned(), positions);
        // Past the positions: what `additionalItems` allows (anything, when it is absent).
        if let Some(additional) = additional {
            map.insert("items".to_owned(), additional);
        }
    }
    for (exclusive, inclusive) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if let Some(Value::Bool(set)) = map.get(exclusive) {
            let set = *set;
            map.remove(exclusive);
            if set && let Some(bound) = map.remove(inclusive) {
                map.insert(exclusive.to_owned(), bound);
            }
        }
    }
    if older && let Some(Value::Object(dependencies)) = map.remove("dependencies") {
        let (mut required, mut schemas) = (Map::new(), Map::new());
        for (key, dependency) in dependencies {
            match dependency {
                names @ Value::Array(_) => required.insert(key, names),
                schema => schemas.insert(key, schema),
            };
        }
        for (keyword, entries) in [
            ("dependentRequired", required),
            ("dependentSchemas", schemas),
        ] {
            if !entries.is_empty() {
                map.insert(keyword.to_owned(), Value::Object(entries));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_draft_07_tuple_is_said_with_prefix_items() {
        let tuple = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}],
                                     "additionalItems": false, "minItems": 2}},
        });
        let read = upgraded(&tuple);
        assert_eq!(
            read["properties"]["point"],
            json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
                   "items": false, "minItems": 2})
        );
    }

    #[test]
    fn boolean_bounds_and_dependencies_take_their_draft_04_meaning() {
        let old = json!({
            "$schema": "http://json-schema.org/draft-04/schema#",
            "type": "object",
            "properties": {
                "ratio": {"type": "number", "minimum": 0, "exclusiveMinimum": true,
                          "maximum": 1, "exclusiveMaximum": false},
            },
            "dependencies": {"a": ["b"], "c": {"required": ["d"]}},
        });
        let read = upgraded(&old);
        assert_eq!(
            read["properties"]["ratio"],
            json!({"type": "number", "exclusiveMinimum": 0, "maximum": 1})
        );
        assert_eq!(read["dependentRequired"], json!({"a": ["b"]}));
        assert_eq!(read["dependentSchemas"], json!({"c": {"required": ["d"]}}));
    }

    #[test]
    fn data_is_not_read_as_schemas_and_2020_12_is_borrowed() {
        let document = json!({
            "type": "object",
            "properties": {"items": {"const": {"items": [1, 2]}, "default": {"items": [3]}}},
            "dependencies": {"a": ["b"]},
        });
        assert!(matches!(upgraded(&document), Cow::Borrowed(_)));
    }
}
