//! Instruction counts for the `parse` comparison, repeatable where wall time is not (shared
//! or virtual machines): run one variant per process under cachegrind and compare.
//!
//! `cargo bench --bench parse_instructions` runs every variant once (a smoke test);
//! `scripts/parse-instructions.sh` counts each variant's instructions and prints the ratios.

#[path = "fixture.rs"]
mod fixture;

use std::hint::black_box;

use fixture::BroadcastPatch;
use stitch::Contract;

const ITERATIONS: usize = 2_000;

fn main() {
    let variant = std::env::args().nth(1).unwrap_or_default();
    let call = fixture::call_with_32_operations();
    let exact = serde_json::from_str(BroadcastPatch::EXACT_SCHEMA).unwrap();
    let validator = jsonschema::validator_for(&exact).unwrap();
    let run = |name: &str| variant.is_empty() || variant == name;
    for _ in 0..ITERATIONS {
        let args = black_box(call.clone());
        if run("clone") {
            drop(black_box(args));
        } else if run("serde") {
            black_box(serde_json::from_value::<BroadcastPatch>(args).unwrap());
        } else if run("jsonschema") {
            assert!(validator.is_valid(&args));
            black_box(serde_json::from_value::<BroadcastPatch>(args).unwrap());
        } else if run("stitch") {
            black_box(BroadcastPatch::parse(args).unwrap());
        }
    }
}
