//! Real servers' tool schemas, held to every dialect: the corpus `.ci/run` collects from
//! published MCP servers (`tests/e2e/corpus.py`: their listings, and values hypothesis-jsonschema
//! generates from each input schema alone), read where `STITCH_CORPUS` points. For every tool
//! and dialect, `tool_schema_for` gives a valid 2020-12 schema; every generated value is
//! accepted by what `mcp` and `portable` show, and in the strict dialects as a strict client
//! sends it, then read back by `strict_arguments_for` into a value the source accepts, with
//! no explicit `null` dropped; each exception is a property the guard reports in that
//! dialect. What every dialect shows, with the guard's findings, is written where
//! `STITCH_CORPUS_OUT` points, for the providers' converters (`corpus.py judge`).
//!
//! Ignored in the plain suite (it needs the corpus): `.ci/run` runs it with `--ignored`.

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

struct Tally {
    tools: usize,
    values: usize,
    checked: usize,
    /// Each kind of failure (tool, dialect, what) once, with how often and one example.
    failures: std::collections::BTreeMap<String, (usize, String)>,
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
    /// schema shows entries; in an `anyOf`, as the first branch that takes it so.
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
    for dialect in Dialect::ALL {
        let shown = stitch::foreign::tool_schema_for(source, dialect);
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
        let Ok(validator) = jsonschema::validator_for(&shown) else {
            tally.fail(format!("{at}: no validator compiles it"), shown.to_string());
            continue;
        };
        for value in values
            .iter()
            .filter(|value| source_validator.is_valid(value))
        {
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
                stitch::foreign::strict_arguments_for(source, &mut read);
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
                if let Some(lost) = chosen
                    .iter()
                    .find(|null| sent_nulls.contains(null) && !kept.contains(null))
                {
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
    };
    let mut servers: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .expect("the corpus is a directory")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    servers.sort();
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
        "{} servers, {} tools, {} generated values, {} judgements",
        servers.len(),
        tally.tools,
        tally.values,
        tally.checked
    );
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
