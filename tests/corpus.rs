//! Real servers' tool schemas, held to every dialect: the corpus `.ci/run` collects from
//! published MCP servers (`tests/e2e/corpus.py`: their listings, and values hypothesis-jsonschema
//! generates from each input schema alone), read where `STITCH_CORPUS` points. For every tool
//! and dialect, `tool_schema_for` gives a valid 2020-12 schema; every generated value is
//! accepted by what `mcp` and `portable` show, and in the strict dialects as a strict client
//! sends it, then read back by `arguments_for` into a value the source accepts, with
//! no explicit `null` dropped; each exception is a property the guard reports in that
//! dialect. No position the source types is said without its kind (or narrowed to fewer
//! kinds) unless the guard names it in that dialect: the positions are counted per dialect.
//! What every dialect shows, with the guard's findings, is written where
//! `STITCH_CORPUS_OUT` points, for the providers' converters (`corpus.py judge`).
//!
//! Tightness: values drawn from what each dialect shows (`corpus.py drawn`), read back as the
//! tool reads them (`arguments_for`), are held to the source; the flat object's widenings on
//! purpose (a key one operation requires and another does not, merged unions and enums,
//! keywords a dialect moves into the description) are counted apart from a value of a kind
//! the source refuses, which fails unless the guard names its position.
//!
//! Ignored in the plain suite (they need the corpus): `.ci/run` runs them with `--ignored`.

mod common;

use std::path::PathBuf;

use serde_json::{Map, Value, json};
use stitch::{Dialect, Finding, SchemaProfile, guard::FindingKind};

/// Where the guard places an error at `instance_path` (`/a/0/b` is `a.b`): array positions
/// add no segment.
fn dotted(instance_path: &str) -> String {
    instance_path
        .split('/')
        .filter(|segment| !segment.is_empty() && segment.parse::<usize>().is_err())
        .collect::<Vec<_>>()
        .join(".")
}

/// Whether a finding in the dialect explains a refusal at `path`: the property or one that
/// holds it is reported (a key's map entries, `key` and `value`, are the map's).
fn explained(findings: &[Finding], path: &str) -> bool {
    let path = path
        .trim_end_matches(".key")
        .trim_end_matches(".value")
        .to_owned();
    findings.iter().any(|finding| {
        matches!(
            finding.kind(),
            FindingKind::Inexpressible | FindingKind::Untyped
        ) && (finding.path().is_empty()
            || path == finding.path()
            || path.starts_with(&format!("{}.", finding.path())))
    })
}

/// Every `null` in a value, by JSON Pointer.
fn nulls(value: &Value, at: &str, found: &mut Vec<String>) {
    match value {
        Value::Null => found.push(at.to_owned()),
        Value::Object(map) => map
            .iter()
            .for_each(|(key, value)| nulls(value, &format!("{at}/{key}"), found)),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, value)| nulls(value, &format!("{at}/{i}"), found)),
        _ => {}
    }
}

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
struct Positions<'a> {
    root: &'a Value,
    found: std::collections::BTreeMap<String, Option<u8>>,
    reading: Vec<&'a str>,
}

impl<'a> Positions<'a> {
    fn of(root: &'a Value) -> std::collections::BTreeMap<String, Option<u8>> {
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
fn lost_types(source: &Value, output: &Value) -> Vec<(String, String)> {
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

/// The value as a model reading the flat object sends it: each union of operations whose tag
/// the source leaves out of `required` (it has a default: pydantic's `Literal["get"] = "get"`)
/// gets the tag of the branch the value is for (the one whose required keys it has, declaring
/// most of its keys). The flat object requires the tag, as pydantic does when it reads a call:
/// the one place it is narrower than such a source, by design.
fn with_tags(root: &Value, schema: &Value, value: &mut Value, depth: usize) {
    let resolve = |schema: &Value| -> Option<Value> {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => root.pointer(reference.strip_prefix('#')?).cloned(),
            None => Some(schema.clone()),
        }
    };
    let Some(schema) = resolve(schema) else {
        return;
    };
    if depth > 16 {
        return;
    }
    match value {
        Value::Array(items) => {
            if let Some(item) = schema.get("items").filter(|item| item.is_object()) {
                items
                    .iter_mut()
                    .for_each(|value| with_tags(root, item, value, depth + 1));
            }
        }
        Value::Object(map) => {
            if let Some(Value::Object(properties)) = schema.get("properties") {
                for (key, property) in properties {
                    if let Some(inner) = map.get_mut(key) {
                        with_tags(root, property, inner, depth + 1);
                    }
                }
            }
            let branches = schema
                .get("oneOf")
                .or_else(|| schema.get("anyOf"))
                .and_then(Value::as_array);
            let fitting = branches
                .into_iter()
                .flatten()
                .filter_map(resolve)
                .filter(|branch| {
                    branch["required"].as_array().is_none_or(|names| {
                        names
                            .iter()
                            .all(|name| name.as_str().is_some_and(|name| map.contains_key(name)))
                    })
                })
                .max_by_key(|branch| {
                    map.keys()
                        .filter(|key| branch["properties"].get(key.as_str()).is_some())
                        .count()
                });
            if let Some(branch) = fitting
                && let Some(Value::Object(properties)) = branch.get("properties")
            {
                for (key, property) in properties {
                    if let (Some(tag), Some(_)) = (property.get("const"), property.get("default"))
                        && !map.contains_key(key)
                    {
                        map.insert(key.clone(), tag.clone());
                    }
                }
                with_tags(root, &branch, value, depth + 1);
            }
        }
        _ => {}
    }
}

/// The keys whose schema, anywhere in the document, has a default other than `null`: a
/// `null` an OpenAI strict client sends there is read as the default (`strict_arguments_for`).
fn defaulted_keys(schema: &Value, found: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(properties)) = map.get("properties") {
                for (key, property) in properties {
                    if property
                        .get("default")
                        .is_some_and(|default| !default.is_null())
                    {
                        found.push(key.clone());
                    }
                }
            }
            map.values().for_each(|inner| defaulted_keys(inner, found));
        }
        Value::Array(items) => items.iter().for_each(|inner| defaulted_keys(inner, found)),
        _ => {}
    }
}

/// An older draft's document in 2020-12's words, rewritten by this test (independent of
/// stitch's reading): no `$schema`; an array of `items` as `prefixItems` (`additionalItems` as
/// `items`); a boolean `exclusiveMinimum`/`exclusiveMaximum` as the number it qualifies;
/// `dependencies` as `dependentRequired`/`dependentSchemas`; root `definitions` as `$defs`.
fn hand_upgraded(document: &Value) -> Value {
    fn upgrade(value: &mut Value) {
        match value {
            Value::Object(map) => {
                if let Some(Value::Array(_)) = map.get("items") {
                    let positions = map.remove("items").unwrap_or_default();
                    map.insert("prefixItems".to_owned(), positions);
                    if let Some(rest) = map.remove("additionalItems") {
                        map.insert("items".to_owned(), rest);
                    }
                } else {
                    map.remove("additionalItems");
                }
                for (flag, bound) in [
                    ("exclusiveMinimum", "minimum"),
                    ("exclusiveMaximum", "maximum"),
                ] {
                    if let Some(Value::Bool(set)) = map.get(flag).cloned() {
                        map.remove(flag);
                        if set && let Some(at) = map.remove(bound) {
                            map.insert(flag.to_owned(), at);
                        }
                    }
                }
                if let Some(Value::Object(dependencies)) = map.remove("dependencies") {
                    let (required, schemas): (Map<String, Value>, Map<String, Value>) =
                        dependencies.into_iter().partition(|(_, on)| on.is_array());
                    if !required.is_empty() {
                        map.insert("dependentRequired".to_owned(), Value::Object(required));
                    }
                    if !schemas.is_empty() {
                        map.insert("dependentSchemas".to_owned(), Value::Object(schemas));
                    }
                }
                if let Some(Value::String(reference)) = map.get_mut("$ref")
                    && let Some(name) = reference.strip_prefix("#/definitions/")
                {
                    *reference = format!("#/$defs/{name}");
                }
                map.values_mut().for_each(upgrade);
            }
            Value::Array(items) => items.iter_mut().for_each(upgrade),
            _ => {}
        }
    }
    let mut twin = document.clone();
    if let Value::Object(root) = &mut twin {
        root.remove("$schema");
        if !root.contains_key("$defs")
            && let Some(definitions) = root.remove("definitions")
        {
            root.insert("$defs".to_owned(), definitions);
        }
    }
    upgrade(&mut twin);
    twin
}

/// Whether a document says it is written for draft-04, 06 or 07.
fn names_an_older_draft(document: &Value) -> bool {
    document["$schema"].as_str().is_some_and(|uri| {
        ["draft-04", "draft-06", "draft-07"]
            .iter()
            .any(|d| uri.contains(d))
    })
}

/// The JSON files of a directory, one per server, in order of name.
fn json_files(directory: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(directory)
        .unwrap_or_else(|error| panic!("{}: {error}", directory.display()))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

struct Tally {
    tools: usize,
    values: usize,
    checked: usize,
    /// Each kind of failure (tool, dialect, what) once, with how often and one example.
    failures: std::collections::BTreeMap<String, (usize, String)>,
    /// Tools whose schema names an older draft (each rendered as its 2020-12 twin is).
    older_drafts: usize,
    /// Per dialect, the positions the source types that the output does not, how many of
    /// them the guard names, and the first few.
    lost: std::collections::BTreeMap<String, (usize, usize, Vec<String>)>,
}

impl Tally {
    fn fail(&mut self, what: String, example: String) {
        let entry = self.failures.entry(what).or_insert((0, String::new()));
        entry.0 += 1;
        if entry.1.is_empty() {
            entry.1 = example.chars().take(400).collect();
        }
    }
}

/// How a client shown a dialect sends a value its tool takes.
#[derive(Clone, Copy)]
struct Client {
    /// Keys a closed object does not name are left out (a strict dialect closes every object;
    /// the tool ignores or keeps what it is not sent).
    names_only: bool,
    /// Each key the object requires and the value lacks is sent as `null` (OpenAI's).
    every_key: bool,
    /// A `null` for a key the schema neither requires nor takes `null` for is left out: where
    /// a dialect cannot show `null` for an optional key, omitting it says the same (a `null`
    /// that means something else is the guard's to report).
    unshown_nulls_left_out: bool,
}

impl Client {
    fn of(dialect: Dialect) -> Client {
        Client {
            names_only: dialect.is_strict(),
            every_key: dialect == Dialect::OpenAiStrict,
            unshown_nulls_left_out: matches!(dialect, Dialect::Portable | Dialect::AnthropicStrict),
        }
    }

    /// The value as this client sends it by the shown schema: a map as its entries where the
    /// schema shows entries, a free object or array as its JSON text where the schema says
    /// so; in an `anyOf`, as the first branch that takes it so.
    fn sends(self, schema: &Value, value: &Value) -> Value {
        if let Some(Value::Array(branches)) = schema.get("anyOf") {
            return branches
                .iter()
                .map(|branch| (branch, self.sends(branch, value)))
                .find(|(branch, sent)| {
                    jsonschema::validator_for(branch).is_ok_and(|v| v.is_valid(sent))
                })
                .map_or_else(|| value.clone(), |(_, sent)| sent);
        }
        match value {
            Value::Object(_) | Value::Array(_) if common::sends_json_text(schema) => {
                Value::String(value.to_string())
            }
            Value::Object(map) if common::shows_entries(schema) => {
                let inner = &schema["items"]["properties"]["value"];
                Value::Array(
                    map.iter()
                        .map(|(key, value)| json!({"key": key, "value": self.sends(inner, value)}))
                        .collect(),
                )
            }
            Value::Object(map) => self.object(schema, map),
            Value::Array(items) => {
                let item = schema.get("items").unwrap_or(&Value::Null);
                Value::Array(items.iter().map(|value| self.sends(item, value)).collect())
            }
            _ => value.clone(),
        }
    }

    fn object(self, schema: &Value, map: &Map<String, Value>) -> Value {
        let properties = schema.get("properties").and_then(Value::as_object);
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
        let mut sent = Map::new();
        for (key, value) in map {
            let inner = properties.and_then(|named| named.get(key));
            if self.names_only && closed && inner.is_none() {
                continue;
            }
            let takes_null = inner.is_none_or(|inner| {
                jsonschema::validator_for(inner).is_ok_and(|v| v.is_valid(&Value::Null))
            });
            if self.unshown_nulls_left_out
                && value.is_null()
                && !takes_null
                && !required.contains(&key.as_str())
            {
                continue;
            }
            sent.insert(
                key.clone(),
                self.sends(inner.unwrap_or(&Value::Null), value),
            );
        }
        if self.every_key {
            for key in required {
                sent.entry(key.to_owned()).or_insert(Value::Null);
            }
        }
        Value::Object(sent)
    }
}

/// Every array of `{"key", "value"}` entries read back into an object (the test's own
/// reading, independent of stitch's).
fn read_back_entries(value: &mut Value) {
    match value {
        Value::Array(items) => {
            let all_entries = !items.is_empty()
                && items.iter().all(|item| {
                    item.as_object().is_some_and(|entry| {
                        entry.len() == 2
                            && entry.get("key").is_some_and(Value::is_string)
                            && entry.contains_key("value")
                    })
                });
            items.iter_mut().for_each(read_back_entries);
            if all_entries {
                let map = items
                    .drain(..)
                    .filter_map(|mut entry| {
                        let key = entry["key"].as_str()?.to_owned();
                        Some((key, entry["value"].take()))
                    })
                    .collect();
                *value = Value::Object(map);
            }
        }
        Value::Object(map) => map.values_mut().for_each(read_back_entries),
        _ => {}
    }
}

fn judge_tool(server: &str, tool: &Value, values: &[Value], tally: &mut Tally) -> Value {
    let name = tool["name"].as_str().unwrap_or_default();
    let source = &tool["inputSchema"];
    let Ok(source_validator) = jsonschema::validator_for(source) else {
        return Value::Null;
    };
    let mut schemas = Map::new();
    let mut reported = Map::new();
    let twin = names_an_older_draft(source).then(|| hand_upgraded(source));
    if twin.is_some() {
        tally.older_drafts += 1;
    }
    for dialect in Dialect::ALL {
        let shown = stitch::foreign::tool_schema_for(source, dialect);
        if let Some(twin) = &twin
            && stitch::foreign::tool_schema_for(twin, dialect) != shown
        {
            tally.fail(
                format!(
                    "{server}.{name} in {dialect}: an older draft renders unlike its 2020-12 twin"
                ),
                shown.to_string(),
            );
        }
        let profile = SchemaProfile::new().dialect(dialect);
        let findings = stitch::guard::check(
            &[stitch::guard::Checked::Listed {
                name,
                description: "",
                input: source,
            }],
            &profile,
        );
        let at = format!("{server}.{name} in {dialect}");
        if !jsonschema::meta::is_valid(&shown) {
            tally.fail(format!("{at}: not a 2020-12 schema"), shown.to_string());
            continue;
        }
        // Types kept: every position the source types says its kind, or the guard names it.
        for (path, what) in lost_types(source, &shown) {
            let counted = tally.lost.entry(dialect.to_string()).or_default();
            counted.0 += 1;
            if counted.2.len() < 40 {
                counted.2.push(format!("{server}.{name}: {what}"));
            }
            if explained(&findings, &path) {
                counted.1 += 1;
            } else {
                tally.fail(
                    format!("{at}: the source types a position the output does not, and the guard reports nothing there"),
                    what,
                );
            }
        }
        let Ok(validator) = jsonschema::validator_for(&shown) else {
            tally.fail(format!("{at}: no validator compiles it"), shown.to_string());
            continue;
        };
        for value in values
            .iter()
            .filter(|value| source_validator.is_valid(value))
        {
            let mut value = value.clone();
            with_tags(source, source, &mut value, 0);
            let value = &value;
            tally.checked += 1;
            let client = Client::of(dialect);
            let sent = client.sends(&shown, value);
            if let Some(error) = validator.iter_errors(&sent).next() {
                let path = dotted(&error.instance_path().to_string());
                if !explained(&findings, &path) {
                    tally.fail(
                        format!("{at}: refused at `{path}` and the guard reports nothing there"),
                        format!("{error}: {sent}"),
                    );
                }
                continue;
            }
            if dialect.is_strict() {
                let mut read = sent.clone();
                stitch::foreign::arguments_for(source, &mut read, dialect);
                if let Some(error) = source_validator.iter_errors(&read).next() {
                    let path = dotted(&error.instance_path().to_string());
                    if !explained(&findings, &path) {
                        tally.fail(
                            format!("{at}: read back into what the tool refuses at `{path}`"),
                            format!("{error}: {value} sent as {sent} is read back as {read}"),
                        );
                    }
                }
                // Each null the value holds and the client sends (not one it fills in for an
                // absent key) reaches the tool.
                let mut sent_read = sent.clone();
                read_back_entries(&mut sent_read);
                let (mut chosen, mut sent_nulls, mut kept) = (Vec::new(), Vec::new(), Vec::new());
                nulls(value, "", &mut chosen);
                nulls(&sent_read, "", &mut sent_nulls);
                nulls(&read, "", &mut kept);
                // A `null` under a key with another default is read as that default: the
                // client had to send the key (see `strict_arguments_for`).
                let mut defaulted = Vec::new();
                defaulted_keys(source, &mut defaulted);
                let read_as_default = |null: &String| {
                    dialect == Dialect::OpenAiStrict
                        && null
                            .rsplit('/')
                            .next()
                            .is_some_and(|key| defaulted.iter().any(|name| name == key))
                };
                if let Some(lost) = chosen.iter().find(|null| {
                    sent_nulls.contains(null) && !kept.contains(null) && !read_as_default(null)
                }) {
                    tally.fail(
                        format!("{at}: an explicit null is dropped"),
                        format!("{lost} in {value}: {read}"),
                    );
                }
            }
        }
        reported.insert(
            dialect.to_string(),
            findings
                .iter()
                .map(|finding| Value::from(finding.to_string()))
                .collect(),
        );
        schemas.insert(dialect.to_string(), shown);
    }
    tally.tools += 1;
    tally.values += values.len();
    json!({"source": source, "schemas": schemas, "findings": reported})
}

#[test]
#[ignore = "needs the corpus `.ci/run` collects: STITCH_CORPUS=DIR cargo test --test corpus -- --ignored"]
fn real_servers_schemas_hold_in_every_dialect() {
    let corpus =
        PathBuf::from(std::env::var_os("STITCH_CORPUS").expect("STITCH_CORPUS names the corpus"));
    let out = std::env::var_os("STITCH_CORPUS_OUT").map(PathBuf::from);
    let mut tally = Tally {
        tools: 0,
        values: 0,
        checked: 0,
        failures: std::collections::BTreeMap::new(),
        lost: std::collections::BTreeMap::new(),
        older_drafts: 0,
    };
    let servers = json_files(&corpus);
    for path in &servers {
        let server = path.file_stem().unwrap().to_string_lossy().into_owned();
        let tools: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let generated: Map<String, Value> =
            std::fs::read_to_string(corpus.join("instances").join(path.file_name().unwrap()))
                .ok()
                .and_then(|text| serde_json::from_str(&text).ok())
                .unwrap_or_default();
        let mut judged = Map::new();
        for tool in &tools {
            let name = tool["name"].as_str().unwrap_or_default();
            let values = generated
                .get(name)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            judged.insert(
                name.to_owned(),
                judge_tool(&server, tool, &values, &mut tally),
            );
        }
        if let Some(out) = &out {
            std::fs::create_dir_all(out).unwrap();
            std::fs::write(
                out.join(format!("{server}.json")),
                serde_json::to_string(&judged).unwrap(),
            )
            .unwrap();
        }
    }
    println!(
        "{} servers, {} tools ({} in an older draft, each rendered as its 2020-12 twin), {} generated values, {} judgements",
        servers.len(),
        tally.tools,
        tally.older_drafts,
        tally.values,
        tally.checked
    );
    for dialect in Dialect::ALL {
        let (lost, named, examples) = tally
            .lost
            .get(&dialect.to_string())
            .cloned()
            .unwrap_or_default();
        println!(
            "{dialect}: {lost} typed positions said without their kind, {named} named by the guard"
        );
        for example in examples {
            println!("  {example}");
        }
    }
    assert!(tally.tools > 0, "an empty corpus proves nothing");
    let report: Vec<String> = tally
        .failures
        .iter()
        .map(|(what, (count, example))| format!("{what} ({count}x), e.g. {example}"))
        .collect();
    assert!(
        report.is_empty(),
        "{} kinds of failure:\n{}",
        report.len(),
        report.join("\n")
    );
}

/// What a value drawn from a dialect's schema meets in the source, read back as the tool
/// reads it: accepted, or refused by the flat object's known widenings, or by a kind.
#[derive(Default)]
struct Tightness {
    drawn: usize,
    accepted: usize,
    /// Refusals by the keyword that refused, each a widening flattening makes on purpose: a
    /// key one operation requires and another does not (`required`), keys of other
    /// operations (`additionalProperties`), a union merged into one object (`oneOf`/`anyOf`),
    /// merged enums and loosest bounds, keywords a dialect moves into the description, a map's
    /// entries naming a key twice (which no schema can forbid, and a tool refuses).
    widened: std::collections::BTreeMap<&'static str, usize>,
    /// Refused for its kind at a position the guard names.
    kinds_named: usize,
}

/// Whether a value holds a map sent as `{"key", "value"}` entries that names a key twice.
fn repeats_an_entry_key(value: &Value) -> bool {
    match value {
        Value::Array(items) => {
            let keys: Option<Vec<&str>> = items
                .iter()
                .map(|item| {
                    let entry = item.as_object().filter(|entry| entry.len() == 2)?;
                    entry.contains_key("value").then_some(())?;
                    entry.get("key")?.as_str()
                })
                .collect();
            let repeated = keys.is_some_and(|keys| {
                let mut seen = std::collections::BTreeSet::new();
                !keys.iter().all(|key| seen.insert(*key))
            });
            repeated || items.iter().any(repeats_an_entry_key)
        }
        Value::Object(map) => map.values().any(repeats_an_entry_key),
        _ => false,
    }
}

fn keyword_of(kind: &jsonschema::error::ValidationErrorKind) -> &'static str {
    use jsonschema::error::ValidationErrorKind as K;
    match kind {
        K::Required { .. } => "required",
        K::AdditionalProperties { .. } | K::UnevaluatedProperties { .. } => "additionalProperties",
        K::OneOfNotValid { .. } | K::OneOfMultipleValid { .. } => "oneOf",
        K::AnyOf { .. } => "anyOf",
        K::Type { .. } => "type",
        K::Enum { .. } | K::Constant { .. } => "enum",
        K::Format { .. } => "format",
        K::Pattern { .. } => "pattern",
        K::Minimum { .. }
        | K::Maximum { .. }
        | K::ExclusiveMinimum { .. }
        | K::ExclusiveMaximum { .. }
        | K::MultipleOf { .. } => "bounds",
        K::MinLength { .. } | K::MaxLength { .. } => "length",
        K::MinItems { .. } | K::MaxItems { .. } | K::UniqueItems | K::AdditionalItems { .. } => {
            "items"
        }
        K::MinProperties { .. } | K::MaxProperties { .. } | K::PropertyNames { .. } => "keys",
        _ => "other",
    }
}

#[test]
#[ignore = "needs the corpus and the values drawn from its outputs: STITCH_CORPUS=DIR STITCH_CORPUS_DRAWN=DIR cargo test --test corpus -- --ignored"]
fn values_drawn_from_each_dialect_read_back_into_what_the_source_takes() {
    let corpus =
        PathBuf::from(std::env::var_os("STITCH_CORPUS").expect("STITCH_CORPUS names the corpus"));
    let drawn_dir = PathBuf::from(
        std::env::var_os("STITCH_CORPUS_DRAWN")
            .expect("STITCH_CORPUS_DRAWN names the drawn values"),
    );
    let mut per_dialect: std::collections::BTreeMap<String, Tightness> = Default::default();
    let mut failures: Vec<String> = Vec::new();
    let files = json_files(&drawn_dir);
    for path in &files {
        let server = path.file_stem().unwrap().to_string_lossy().into_owned();
        let tools: Vec<Value> = serde_json::from_str(
            &std::fs::read_to_string(corpus.join(path.file_name().unwrap())).unwrap(),
        )
        .unwrap();
        let drawn: Map<String, Value> =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for tool in &tools {
            let name = tool["name"].as_str().unwrap_or_default();
            let source = &tool["inputSchema"];
            let Ok(validator) = jsonschema::validator_for(source) else {
                continue;
            };
            for dialect in Dialect::ALL {
                let values = drawn[name][dialect.to_string()]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                let findings = stitch::guard::check(
                    &[stitch::guard::Checked::Listed {
                        name,
                        description: "",
                        input: source,
                    }],
                    &SchemaProfile::new().dialect(dialect),
                );
                let tally = per_dialect.entry(dialect.to_string()).or_default();
                for mut value in values {
                    tally.drawn += 1;
                    // The shown schema cannot say that a map's entries name each key once; a
                    // call that repeats one is refused at the entry (as `parse_for` does).
                    if repeats_an_entry_key(&value) {
                        *tally.widened.entry("repeated entry key").or_default() += 1;
                        continue;
                    }
                    stitch::foreign::arguments_for(source, &mut value, dialect);
                    let errors: Vec<_> = validator.iter_errors(&value).collect();
                    if errors.is_empty() {
                        tally.accepted += 1;
                        continue;
                    }
                    // A refusal for a kind first; else the first says what widened.
                    let error = errors
                        .iter()
                        .find(|error| keyword_of(error.kind()) == "type")
                        .unwrap_or(&errors[0]);
                    match keyword_of(error.kind()) {
                        "type" => {
                            let at = dotted(&error.instance_path().to_string());
                            if explained(&findings, &at) {
                                tally.kinds_named += 1;
                            } else {
                                failures.push(format!(
                                    "{server}.{name} in {dialect}: a value of the shown schema, read back, is of a kind the source refuses at `{at}` and the guard names nothing there: {value}"
                                ));
                            }
                        }
                        keyword => *tally.widened.entry(keyword).or_default() += 1,
                    }
                }
            }
        }
    }
    for (dialect, tally) in &per_dialect {
        println!(
            "{dialect}: {} drawn, {} accepted as read back, {} refused for a kind the guard names, widened: {:?}",
            tally.drawn, tally.accepted, tally.kinds_named, tally.widened
        );
    }
    assert!(
        per_dialect.values().any(|tally| tally.drawn > 0),
        "nothing drawn proves nothing"
    );
    failures.truncate(20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
