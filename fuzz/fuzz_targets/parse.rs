//! Arbitrary bytes → JSON → `Contract::parse` of the example contracts: parse must never
//! panic, and whatever it accepts must satisfy the contract's own advertised schema.
#![no_main]

#[path = "../../examples/contracts/broadcast_patch.rs"]
mod broadcast_patch;

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use stitch::Contract;

fn even(value: &i64) -> Result<(), &'static str> {
    if value % 2 == 0 { Ok(()) } else { Err("odd") }
}

/// Every hidden check and hazard, for the fuzzer to reach.
#[derive(Contract, Deserialize, Debug)]
#[serde(tag = "op", rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
enum Everything {
    Set {
        #[contract(coerce, min = 0)]
        count: u32,
        #[contract(catch = 1)]
        fallback: u8,
        #[contract(trim, lowercase, pattern = "^[a-z ]*$", max_length = 8)]
        name: String,
        #[contract(format = "date-time")]
        at: Option<String>,
        #[contract(unique_items, max_items = 4)]
        tags: Vec<String>,
        #[contract(refine = even)]
        even: i64,
        free: Option<serde_json::Value>,
        nested: Option<Vec<std::collections::BTreeMap<String, f64>>>,
    },
    Clear,
}

fuzz_target!(|data: &[u8]| {
    let Ok(args) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let _ = broadcast_patch::BroadcastPatch::parse(args.clone());
    let _ = Everything::parse(args);
});
