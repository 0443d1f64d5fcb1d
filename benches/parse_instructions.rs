//! Instruction counts for the `parse` comparison, repeatable where wall time is not (shared
//! or virtual machines): run one variant per process under cachegrind and compare.
//!
//! `cargo bench -p stitch-bench --bench parse_instructions` runs every variant once (a smoke test);
//! `scripts/parse-instructions.sh` counts each variant's instructions and prints the ratios.
//!
//! Two variants are not contenders but bounds, so a target can be judged against what any
//! implementation must spend: `by_hand` builds the value with no derived `Deserialize` at all
//! (each operation matched by its tag and its keys by hand, serde only for the leaf values),
//! the cheapest construction from a `Value`; `format_checks` runs only the `uri`, `date-time`
//! and pattern checks of the call's strings, with the crates `parse` falls back to (its
//! shortcuts for plain URIs and date-times aside).

use stitch_bench as fixture;

use std::hint::black_box;

use fixture::BroadcastPatch;
use stitch::__private::check_call;
use stitch::{Contract, Dialect, Shape};

const ITERATIONS: usize = 2_000;

const VARIANTS: [&str; 8] = [
    "clone",
    "serde",
    "jsonschema",
    "generated",
    "stitch",
    "full_check",
    "by_hand",
    "format_checks",
];

/// `parse_instructions VARIANT` runs one variant `ITERATIONS` times; with no argument, every
/// variant runs once and the bounds are checked against serde (a smoke test).
fn main() {
    // `cargo bench` passes flags such as `--bench`: only a bare name chooses a variant.
    let chosen = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let call = fixture::call_with_32_operations();
    let exact = serde_json::from_str(BroadcastPatch::EXACT_SCHEMA).unwrap();
    let validator = jsonschema::validator_for(&exact).unwrap();
    let checked_strings = format_checks::strings(&call);
    let (variants, iterations) = match chosen.as_deref() {
        Some(variant) => (vec![variant], ITERATIONS),
        None => {
            let by_serde = serde_json::from_value::<BroadcastPatch>(call.clone()).unwrap();
            assert_eq!(by_hand::broadcast_patch(call.clone()).unwrap(), by_serde);
            assert_eq!(
                checked_strings.len(),
                12,
                "4 urls, 4 date-times, 4 media ids"
            );
            (VARIANTS.to_vec(), 1)
        }
    };
    // Every contender's first call builds what it keeps (a compiled pattern, a cache):
    // made here, before any variant runs, so each starts from the same heap.
    black_box(BroadcastPatch::parse(call.clone()).unwrap());
    assert!(fixture::GeneratedValidator::is_valid(&call));
    for variant in variants {
        for _ in 0..iterations {
            let args = black_box(call.clone());
            match variant {
                "clone" => drop(black_box(args)),
                "serde" => {
                    black_box(serde_json::from_value::<BroadcastPatch>(args).unwrap());
                }
                "jsonschema" => {
                    assert!(validator.is_valid(&args));
                    black_box(serde_json::from_value::<BroadcastPatch>(args).unwrap());
                }
                "generated" => {
                    assert!(fixture::GeneratedValidator::is_valid(&args));
                    black_box(serde_json::from_value::<BroadcastPatch>(args).unwrap());
                }
                "stitch" => {
                    black_box(BroadcastPatch::parse(args).unwrap());
                }
                "full_check" => {
                    // What `parse` spends when the call does not pass as sent: the full
                    // check (issues, pointers, adjustments), then serde.
                    let mut args = args;
                    let (issues, _) = check_call(BroadcastPatch::SHAPE, &mut args, Dialect::Mcp);
                    assert!(issues.is_empty());
                    black_box(serde_json::from_value::<BroadcastPatch>(args).unwrap());
                }
                "by_hand" => {
                    black_box(by_hand::broadcast_patch(args).unwrap());
                }
                "format_checks" => {
                    let mut checks = checked_strings.iter();
                    assert!(checks.all(|&(check, text)| check(black_box(text))));
                    drop(black_box(args));
                }
                other => panic!("unknown variant {other}; one of {VARIANTS:?}"),
            }
        }
    }
}

/// The incident types built from a `Value` with no derived `Deserialize`: how cheap
/// construction can be, whatever validates before it.
mod by_hand {
    use serde::de::{DeserializeOwned, Error as _};
    use serde_json::{Error, Map, Value};

    use super::fixture::{BroadcastPatch, PatchOp};

    pub fn broadcast_patch(value: Value) -> Result<BroadcastPatch, Error> {
        let [broadcast_id, operations] = fields(value, ["broadcastId", "operations"])?;
        let Some(Value::Array(operations)) = operations else {
            return Err(Error::custom("operations: expected an array"));
        };
        Ok(BroadcastPatch {
            broadcast_id: leaf(broadcast_id)?,
            operations: operations
                .into_iter()
                .map(operation)
                .collect::<Result<_, _>>()?,
        })
    }

    /// The fixture's call uses eight of the fourteen operations; the others are never built.
    fn operation(value: Value) -> Result<PatchOp, Error> {
        let tag = match &value {
            Value::Object(map) => match map.get("op") {
                Some(Value::String(tag)) => tag.clone(),
                _ => return Err(Error::custom("op: expected a string")),
            },
            _ => return Err(Error::custom("expected an object")),
        };
        Ok(match tag.as_str() {
            "setText" => {
                let [part_index, text] = fields(value, ["partIndex", "text"])?;
                PatchOp::SetText {
                    part_index: leaf(part_index)?,
                    text: leaf(text)?,
                }
            }
            "setButton" => {
                let [part_index, button_index, label] =
                    fields(value, ["partIndex", "buttonIndex", "label"])?;
                PatchOp::SetButton {
                    part_index: leaf(part_index)?,
                    button_index: leaf(button_index)?,
                    label: leaf(label)?,
                }
            }
            "setMedia" => {
                let [media_index, media_id] = fields(value, ["mediaIndex", "mediaId"])?;
                PatchOp::SetMedia {
                    media_index: leaf(media_index)?,
                    media_id: leaf(media_id)?,
                }
            }
            "movePart" => {
                let [part_index, to_index] = fields(value, ["partIndex", "toIndex"])?;
                PatchOp::MovePart {
                    part_index: leaf(part_index)?,
                    to_index: leaf(to_index)?,
                }
            }
            "setCaption" => {
                let [part_index, caption] = fields(value, ["partIndex", "caption"])?;
                PatchOp::SetCaption {
                    part_index: leaf(part_index)?,
                    caption: leaf(caption)?,
                }
            }
            "setButtonUrl" => {
                let [part_index, button_index, url] =
                    fields(value, ["partIndex", "buttonIndex", "url"])?;
                PatchOp::SetButtonUrl {
                    part_index: leaf(part_index)?,
                    button_index: leaf(button_index)?,
                    url: leaf(url)?,
                }
            }
            "setSchedule" => {
                let [send_at] = fields(value, ["sendAt"])?;
                PatchOp::SetSchedule {
                    send_at: leaf(send_at)?,
                }
            }
            "setAudience" => {
                let [audience] = fields(value, ["audience"])?;
                PatchOp::SetAudience {
                    audience: leaf(audience)?,
                }
            }
            other => return Err(Error::custom(format!("operation {other} not built here"))),
        })
    }

    /// An object's values by key, in the order asked; other keys are dropped.
    fn fields<const N: usize>(value: Value, names: [&str; N]) -> Result<[Option<Value>; N], Error> {
        let Value::Object(map) = value else {
            return Err(Error::custom("expected an object"));
        };
        let mut found = [const { None }; N];
        for (key, value) in Map::into_iter(map) {
            if let Some(index) = names.iter().position(|name| *name == key) {
                found[index] = Some(value);
            }
        }
        Ok(found)
    }

    /// A leaf value through serde; a missing one as `null` (what an `Option` reads as absent).
    fn leaf<T: DeserializeOwned>(value: Option<Value>) -> Result<T, Error> {
        serde_json::from_value(value.unwrap_or(Value::Null))
    }
}

/// Only the call's format and pattern checks (`url`, `sendAt`, `mediaId`), with the crates
/// `parse` checks them with: what validation must spend before a single type or key is
/// checked. The strings are found once, before counting, so only the checks are counted.
mod format_checks {
    use std::sync::OnceLock;

    use regex::Regex;
    use serde_json::Value;

    pub type Check = fn(&str) -> bool;

    /// Every string of the call that has a format or pattern, with its check.
    pub fn strings(call: &Value) -> Vec<(Check, &str)> {
        let operations = call["operations"].as_array().into_iter().flatten();
        let entries = operations.filter_map(Value::as_object).flatten();
        entries
            .filter_map(|(key, value)| {
                let check: Check = match key.as_str() {
                    "url" => uri,
                    "sendAt" => date_time,
                    "mediaId" => media_id,
                    _ => return None,
                };
                Some((check, value.as_str()?))
            })
            .collect()
    }

    fn uri(text: &str) -> bool {
        fluent_uri::Uri::parse(text).is_ok()
    }

    fn date_time(text: &str) -> bool {
        chrono::DateTime::parse_from_rfc3339(text).is_ok()
    }

    fn media_id(text: &str) -> bool {
        static PATTERN: OnceLock<Regex> = OnceLock::new();
        PATTERN
            .get_or_init(|| Regex::new("^med_[a-z0-9]{8,}$").expect("a valid pattern"))
            .is_match(text)
    }
}
