//! Tightness: values drawn from what each dialect shows, read back as the tool reads them and
//! held to the source; the flat object's widenings on purpose counted apart from a kind the
//! source refuses.

use std::path::PathBuf;

use serde_json::{Map, Value};
use stitch::Dialect;

use crate::client::entry_key;
use crate::{dotted, explained, findings_in, json_files};

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
            let keys: Option<Vec<&str>> = items.iter().map(entry_key).collect();
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
            for &dialect in Dialect::ALL {
                let values = drawn[name][dialect.to_string()]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                let findings = findings_in(name, source, dialect);
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
