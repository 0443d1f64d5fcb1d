//! `parse` of the incident call with 32 operations, against two baselines measured in the
//! same run: `serde_json::from_value` into the same type (no validation: the floor), and
//! `jsonschema` validation of the exact schema followed by serde, by its run-time validator
//! and by the one it generates at compile time.

use stitch_bench as fixture;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use fixture::BroadcastPatch;
use stitch::Contract;

fn parse(c: &mut Criterion) {
    let call = fixture::call_with_32_operations();
    assert!(
        BroadcastPatch::parse(call.clone()).is_ok(),
        "the call is valid"
    );
    let exact = serde_json::from_str(BroadcastPatch::EXACT_SCHEMA).unwrap();
    let validator = jsonschema::validator_for(&exact).unwrap();
    assert!(validator.is_valid(&call));

    let mut group = c.benchmark_group("parse 32 operations");
    group.bench_function("serde_json::from_value (floor)", |b| {
        b.iter_batched(
            || call.clone(),
            |args| serde_json::from_value::<BroadcastPatch>(args).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("jsonschema exact + serde", |b| {
        b.iter_batched(
            || call.clone(),
            |args| {
                assert!(validator.is_valid(&args));
                serde_json::from_value::<BroadcastPatch>(args).unwrap()
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("jsonschema generated at compile time + serde", |b| {
        b.iter_batched(
            || call.clone(),
            |args| {
                assert!(fixture::GeneratedValidator::is_valid(&args));
                serde_json::from_value::<BroadcastPatch>(args).unwrap()
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("stitch Contract::parse", |b| {
        b.iter_batched(
            || call.clone(),
            |args| BroadcastPatch::parse(args).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);
