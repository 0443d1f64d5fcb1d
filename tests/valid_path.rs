//! `parse`'s valid path against its full check: the valid path may answer "passes as sent"
//! only when the full check would find no issue and change nothing serde reads, so skipping
//! the full check changes no result. Held on contracts with every adjustment the full check
//! makes (`coerce`, `catch`, transforms, aliases, keys serde ignores, a flattened map,
//! strict-mode nulls, each tagging), on valid calls and on calls with one part replaced by
//! arbitrary JSON, in every dialect. And the valid path is taken: a valid call of the
//! incident contract passes as sent, as every client sends it, OpenAI's strict one included.

#[path = "../examples/contracts/broadcast_patch.rs"]
mod broadcast_patch;
mod common;

use std::collections::{BTreeMap, HashMap};

use broadcast_patch::BroadcastPatch;
use common::{fill, json as schema, pointers, values};
use proptest::prelude::*;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use stitch::__private::{check_call, passes_as_sent};
use stitch::ir::Node;
use stitch::{Contract, Dialect, Shape};

/// Who may see a note.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
enum Visibility {
    Public,
    #[serde(alias = "hidden")]
    Private,
}

/// Where a note points.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Anchor {
    #[contract(min = 0, max = 1000)]
    line: u16,
    column: Option<u8>,
}

/// A note with every adjustment the full check makes somewhere in it.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct Note {
    #[contract(min_length = 1, max_length = 8, pattern = "^[a-z0-9 ]+$")]
    title: String,
    #[contract(trim)]
    author: Option<String>,
    #[contract(coerce)]
    priority: Option<u8>,
    #[contract(coerce)]
    pinned: bool,
    #[contract(catch = 3)]
    retries: u32,
    #[serde(default)]
    #[contract(catch = 2)]
    depth: u8,
    #[serde(alias = "at")]
    anchor: Option<Anchor>,
    #[contract(unique_items, max_items = 3)]
    tags: Vec<String>,
    #[contract(multiple_of = 0.5, exclusive_min = 0)]
    weight: f32,
    #[contract(format = "uri")]
    link: Option<String>,
    #[contract(format = "date-time")]
    due: Option<String>,
    #[contract(min_length = 2, max_length = 4)]
    code: String,
    #[contract(exclusive_min = 0, exclusive_max = 200)]
    level: u8,
    visibility: Visibility,
    #[serde(default)]
    extra: HashMap<String, i32>,
    pair: Option<(i8, String)>,
    data: Option<Value>,
}

/// Counts beside a name: every other key is a count.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[allow(dead_code)]
struct Counted {
    name: String,
    #[serde(flatten)]
    counts: BTreeMap<String, u8>,
}

/// Operations under each tagging serde has, with aliases.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
#[allow(dead_code)]
enum Inner {
    Add {
        #[contract(min = 1)]
        count: i64,
    },
    #[serde(alias = "remove")]
    Delete {
        at: u32,
        note: Option<String>,
    },
    Clear,
}

#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
#[allow(dead_code)]
enum Adjacent {
    Insert { at: u32, text: String },
    Undo,
}

#[derive(Contract, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum External {
    Move { to: u32 },
    Stop,
}

/// A call of every kind of operation.
#[derive(Contract, Deserialize, Debug, PartialEq)]
#[allow(dead_code)]
struct Batch {
    inner: Vec<Inner>,
    adjacent: Option<Adjacent>,
    external: Option<External>,
    #[contract(coerce)]
    limit: Option<i64>,
}

/// A JSON value of any shape, including the texts the full check reads structure or numbers
/// from.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-300i64..300).prop_map(Value::from),
        (-1.0e6..1.0e6f64).prop_map(Value::from),
        Just(json!(2.0)),
        Just(json!(0.5)),
        "\\PC{0,10}".prop_map(Value::from),
        "[a-zé]{0,6}".prop_map(Value::from),
        Just(json!("  padded ")),
        Just(json!("1")),
        Just(json!("true")),
        Just(json!("{\"line\": 1}")),
        Just(json!("https://example.com/a?b#c")),
        Just(json!("2026-12-02T17:00:00Z")),
        Just(json!("hidden")),
        Just(json!("remove")),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z_]{1,6}", inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// A valid call of the contract, or one with one part replaced by arbitrary JSON, or a key
/// removed, or a key added, or its keys in sorted order.
fn calls(node: &'static Node<'static>) -> impl Strategy<Value = Value> {
    (
        values(node),
        any::<prop::sample::Index>(),
        any_json(),
        0..5u8,
    )
        .prop_map(|(mut value, index, replacement, change)| {
            let mut all = Vec::new();
            pointers(&value, String::new(), &mut all);
            let target = index.get(&all).clone();
            match change {
                0 => {}
                1 if target.is_empty() => return replacement,
                1 => {
                    if let Some(slot) = value.pointer_mut(&target) {
                        *slot = replacement;
                    }
                }
                2 => {
                    if let Some(Value::Object(map)) = value.pointer_mut(&target) {
                        map.insert("unknown".to_owned(), replacement);
                    }
                }
                3 => return keys_sorted(value),
                _ => {
                    if let Some(Value::Object(map)) = value.pointer_mut(&target)
                        && let Some(key) = map.keys().next().cloned()
                    {
                        map.remove(&key);
                    }
                }
            }
            value
        })
}

/// The same value, every object's keys in sorted order, as serde_json's default map holds
/// them (this build keeps insertion order: a user's may not).
fn keys_sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let sorted: BTreeMap<String, Value> = map
                .into_iter()
                .map(|(key, value)| (key, keys_sorted(value)))
                .collect();
            Value::Object(sorted.into_iter().collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(keys_sorted).collect()),
        other => other,
    }
}

/// The property: whatever passes as sent, the full check finds valid in every dialect, and
/// serde reads from it what it reads from what the full check makes of it.
fn holds_for<T: Contract + DeserializeOwned + PartialEq + std::fmt::Debug>(
    call: &Value,
) -> Result<(), TestCaseError> {
    if !passes_as_sent(T::SHAPE, call) {
        return Ok(());
    }
    for &dialect in Dialect::ALL {
        let mut checked = call.clone();
        let (issues, _) = check_call(T::SHAPE, &mut checked, dialect);
        prop_assert!(
            issues.is_empty(),
            "passed as sent, but the full check in {dialect:?} found {issues:?} in {call}"
        );
        let as_sent = serde_json::from_value::<T>(call.clone()).ok();
        let as_checked = serde_json::from_value::<T>(checked.clone()).ok();
        prop_assert_eq!(
            as_sent,
            as_checked,
            "passed as sent, but serde reads {} differently from {} ({:?})",
            call,
            checked,
            dialect
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn what_passes_a_note_as_sent_the_full_check_leaves_alone(call in calls(Note::SHAPE)) {
        holds_for::<Note>(&call)?;
    }

    #[test]
    fn what_passes_a_batch_as_sent_the_full_check_leaves_alone(call in calls(Batch::SHAPE)) {
        holds_for::<Batch>(&call)?;
    }

    #[test]
    fn what_passes_counts_as_sent_the_full_check_leaves_alone(call in calls(Counted::SHAPE)) {
        holds_for::<Counted>(&call)?;
    }

    #[test]
    fn what_passes_the_incident_contract_as_sent_the_full_check_leaves_alone(
        call in calls(BroadcastPatch::SHAPE)
    ) {
        holds_for::<BroadcastPatch>(&call)?;
    }

    /// The valid path is taken: every valid call of the incident contract (no hazard, no
    /// alias, no transform in it) passes as sent, as a client shown each dialect sends it
    /// (OpenAI's strict one sends every key of the flat object, `null` for those it leaves
    /// out).
    #[test]
    fn a_valid_incident_call_passes_as_sent(call in values(BroadcastPatch::SHAPE)) {
        for &dialect in Dialect::ALL {
            let shown = schema(stitch::schema_of::<BroadcastPatch>(stitch::Rendering::Flat(dialect)));
            let sent = fill(BroadcastPatch::SHAPE, &call, dialect, &shown);
            prop_assert!(passes_as_sent(BroadcastPatch::SHAPE, &sent), "{:?}: {}", dialect, sent);
            holds_for::<BroadcastPatch>(&sent)?;
            // serde_json's default map holds keys sorted, the tag after some fields.
            let sorted = keys_sorted(sent);
            prop_assert!(passes_as_sent(BroadcastPatch::SHAPE, &sorted), "{:?}: {}", dialect, sorted);
            holds_for::<BroadcastPatch>(&sorted)?;
        }
    }
}

/// The quick checks a field's keywords allow (an integer's interval, a length settled by
/// bytes) pass what the keywords pass and nothing else; a string whose bytes leave its
/// count open is counted.
#[test]
fn a_field_judged_at_a_glance_passes_what_its_keywords_pass() {
    let note = json!({
        "title": "a", "priority": 1, "pinned": true, "retries": 1, "depth": 1,
        "tags": [], "weight": 0.5, "code": "ab", "level": 1, "visibility": "public"
    });
    let cases = [
        ("code", json!("abcd"), true),
        ("code", json!("éé"), true),
        ("code", json!("éééé"), true),
        ("code", json!("a"), false),
        ("code", json!("abcde"), false),
        ("code", json!("ééééé"), false),
        ("level", json!(199), true),
        ("level", json!(0), false),
        ("level", json!(200), false),
        ("level", json!(-1), false),
        ("level", json!(u64::MAX), false),
        ("level", json!(1.0), false),
    ];
    for (key, value, passes) in cases {
        let mut call = note.clone();
        call[key] = value.clone();
        assert_eq!(passes_as_sent(Note::SHAPE, &call), passes, "{key}: {value}");
        let (issues, _) = check_call(Note::SHAPE, &mut call, Dialect::Mcp);
        assert_eq!(
            issues.is_empty(),
            passes || value == json!(1.0),
            "{key}: {value}"
        );
    }
}

#[test]
fn what_needs_an_adjustment_does_not_pass_as_sent() {
    let note = json!({
        "title": "a", "priority": 1, "pinned": true, "retries": 1, "depth": 1,
        "tags": [], "weight": 0.5, "code": "ab", "level": 1, "visibility": "public"
    });
    assert!(passes_as_sent(Note::SHAPE, &note));
    let adjusted = [
        ("author", json!(" ada")),
        ("priority", json!("1")),
        ("pinned", json!("true")),
        ("retries", json!("many")),
        ("anchor", json!("{\"line\": 1}")),
        ("unknown", json!(1)),
    ];
    for (key, value) in adjusted {
        let mut call = note.clone();
        call[key] = value;
        assert!(!passes_as_sent(Note::SHAPE, &call), "{key}");
    }
    for caught in ["retries", "depth"] {
        let mut without = note.clone();
        without.as_object_mut().unwrap().remove(caught);
        assert!(
            !passes_as_sent(Note::SHAPE, &without),
            "a missing catch field is filled in: {caught}"
        );
    }
    // A `null` for a key that names no field is dropped by the full check and ignored by
    // serde; anything else there is the full check's.
    let mut unknown_null = note.clone();
    unknown_null["stray"] = Value::Null;
    assert!(passes_as_sent(Note::SHAPE, &unknown_null));
    let mut anchor_stray = note.clone();
    anchor_stray["anchor"] = json!({"line": 1, "stray": null});
    assert!(
        !passes_as_sent(Note::SHAPE, &anchor_stray),
        "refused under deny_unknown_fields"
    );
    let mut counted_stray = json!({"name": "a", "stray": null});
    assert!(
        !passes_as_sent(Counted::SHAPE, &counted_stray),
        "a flattened map's entry"
    );
    counted_stray["stray"] = json!(1);
    assert!(passes_as_sent(Counted::SHAPE, &counted_stray));
}

every_contract_here!(
    Visibility, Anchor, Note, Counted, Inner, Adjacent, External, Batch
);
