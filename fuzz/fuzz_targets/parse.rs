//! Arbitrary bytes → JSON → `Contract::parse` of the example contracts and of contracts of
//! every shape (internally, adjacently and externally tagged, flattened, tuples, standard
//! types): parse must never panic.
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

/// Paging, flattened into the shapes below.
#[derive(Contract, Deserialize, Debug)]
#[allow(dead_code)]
struct Paging {
    #[contract(min = 1, max = 100)]
    per_page: u32,
    page: Option<u32>,
}

/// serde's other shapes and the standard types: adjacent content, a flattened struct and
/// map, tuples, durations and addresses.
#[derive(Contract, Deserialize, Debug)]
#[serde(tag = "op", content = "args")]
#[allow(dead_code)]
enum Adjacent {
    List {
        #[serde(flatten)]
        paging: Paging,
        at: Option<(i32, String)>,
    },
    Wait {
        wait: std::time::Duration,
        host: Option<std::net::IpAddr>,
    },
    Clear,
}

/// Externally tagged: one key per operation.
#[derive(Contract, Deserialize, Debug)]
#[allow(dead_code)]
enum External {
    Set {
        #[serde(flatten)]
        rest: std::collections::BTreeMap<String, i8>,
    },
    Count(std::num::NonZeroI64),
    Range(std::ops::Range<u16>),
    Clear,
}

fuzz_target!(|data: &[u8]| {
    let Ok(args) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let _ = broadcast_patch::BroadcastPatch::parse(args.clone());
    let _ = Adjacent::parse(args.clone());
    let _ = External::parse(args.clone());
    let _ = Everything::parse(args);
});
