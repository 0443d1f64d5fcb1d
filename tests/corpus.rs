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

#[path = "corpus/client.rs"]
mod client;
mod common;
#[path = "corpus/drafts.rs"]
mod drafts;
#[path = "corpus/positions.rs"]
mod positions;
#[path = "corpus/tightness.rs"]
mod tightness;

use std::path::PathBuf;

use client::{Client, defaulted_keys, nulls, read_back_entries, with_tags};
use drafts::{hand_upgraded, names_an_older_draft};
use positions::lost_types;

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

/// What the guard reports of a foreign tool's schema in `dialect`.
fn findings_in(name: &str, source: &Value, dialect: Dialect) -> Vec<Finding> {
    let listed = stitch::guard::Checked::Listed {
        name,
        description: "",
        input: source,
    };
    stitch::guard::check(&[listed], &SchemaProfile::new().dialect(dialect))
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

/// One tool as one dialect shows it, and what the guard says of it there.
struct Shown<'a> {
    /// `server.tool in dialect`, for the failures' names.
    at: String,
    dialect: Dialect,
    source: &'a Value,
    schema: Value,
    findings: Vec<Finding>,
}

impl Shown<'_> {
    /// Types kept: every position the source types says its kind, or the guard names it.
    fn count_lost_types(&self, tool: &str, tally: &mut Tally) {
        for (path, what) in lost_types(self.source, &self.schema) {
            let counted = tally.lost.entry(self.dialect.to_string()).or_default();
            counted.0 += 1;
            if counted.2.len() < 40 {
                counted.2.push(format!("{tool}: {what}"));
            }
            if explained(&self.findings, &path) {
                counted.1 += 1;
            } else {
                tally.fail(
                    format!("{}: the source types a position the output does not, and the guard reports nothing there", self.at),
                    what,
                );
            }
        }
    }

    /// What a strict client sent (`sent`, for `value`), read back as the tool reads it: a
    /// value the source accepts, with every explicit `null` kept (but one under a key with
    /// another default, which an OpenAI strict client sends for that default).
    fn judge_read_back(
        &self,
        source: &jsonschema::Validator,
        defaulted: &[String],
        (value, sent): (&Value, &Value),
        tally: &mut Tally,
    ) {
        let mut read = sent.clone();
        stitch::foreign::arguments_for(self.source, &mut read, self.dialect);
        if let Some(error) = source.iter_errors(&read).next() {
            let path = dotted(&error.instance_path().to_string());
            if !explained(&self.findings, &path) {
                tally.fail(
                    format!(
                        "{}: read back into what the tool refuses at `{path}`",
                        self.at
                    ),
                    format!("{error}: {value} sent as {sent} is read back as {read}"),
                );
            }
        }
        // Each null the value holds and the client sends (not one it fills in for an absent
        // key) reaches the tool.
        let mut sent_read = sent.clone();
        read_back_entries(&mut sent_read);
        let (mut chosen, mut sent_nulls, mut kept) = (Vec::new(), Vec::new(), Vec::new());
        nulls(value, "", &mut chosen);
        nulls(&sent_read, "", &mut sent_nulls);
        nulls(&read, "", &mut kept);
        let read_as_default = |null: &String| {
            self.dialect == Dialect::OpenAiStrict
                && null
                    .rsplit('/')
                    .next()
                    .is_some_and(|key| defaulted.iter().any(|name| name == key))
        };
        if let Some(lost) = chosen.iter().find(|null| {
            sent_nulls.contains(null) && !kept.contains(null) && !read_as_default(null)
        }) {
            tally.fail(
                format!("{}: an explicit null is dropped", self.at),
                format!("{lost} in {value}: {read}"),
            );
        }
    }
}

fn judge_tool(server: &str, tool: &Value, values: &[Value], tally: &mut Tally) -> Value {
    let name = tool["name"].as_str().unwrap_or_default();
    let source = &tool["inputSchema"];
    let Ok(source_validator) = jsonschema::validator_for(source) else {
        return Value::Null;
    };
    let (mut schemas, mut reported) = (Map::new(), Map::new());
    let twin = names_an_older_draft(source).then(|| hand_upgraded(source));
    tally.older_drafts += usize::from(twin.is_some());
    // A `null` under a key with another default is read as that default (`arguments_for`).
    let mut defaulted = Vec::new();
    defaulted_keys(source, &mut defaulted);
    for &dialect in Dialect::ALL {
        let schema = stitch::foreign::tool_schema_for(source, dialect);
        let at = format!("{server}.{name} in {dialect}");
        if let Some(twin) = &twin
            && stitch::foreign::tool_schema_for(twin, dialect) != schema
        {
            let what = format!("{at}: an older draft renders unlike its 2020-12 twin");
            tally.fail(what, schema.to_string());
        }
        let findings = findings_in(name, source, dialect);
        if !jsonschema::meta::is_valid(&schema) {
            tally.fail(format!("{at}: not a 2020-12 schema"), schema.to_string());
            continue;
        }
        let shown = Shown {
            at,
            dialect,
            source,
            schema,
            findings,
        };
        shown.count_lost_types(&format!("{server}.{name}"), tally);
        let Ok(validator) = jsonschema::validator_for(&shown.schema) else {
            tally.fail(
                format!("{}: no validator compiles it", shown.at),
                shown.schema.to_string(),
            );
            continue;
        };
        for value in values
            .iter()
            .filter(|value| source_validator.is_valid(value))
        {
            let mut value = value.clone();
            with_tags(source, source, &mut value, 0);
            tally.checked += 1;
            let sent = Client::of(dialect).sends(&shown.schema, &value);
            if let Some(error) = validator.iter_errors(&sent).next() {
                let path = dotted(&error.instance_path().to_string());
                if !explained(&shown.findings, &path) {
                    tally.fail(
                        format!(
                            "{}: refused at `{path}` and the guard reports nothing there",
                            shown.at
                        ),
                        format!("{error}: {sent}"),
                    );
                }
                continue;
            }
            if dialect.is_strict() {
                shown.judge_read_back(&source_validator, &defaulted, (&value, &sent), tally);
            }
        }
        let said = shown
            .findings
            .iter()
            .map(|finding| Value::from(finding.to_string()));
        reported.insert(dialect.to_string(), said.collect());
        schemas.insert(dialect.to_string(), shown.schema);
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
    for &dialect in Dialect::ALL {
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
