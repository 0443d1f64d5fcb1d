//! The advertised schema at run time: stitch's is a const rendered by the compiler; the
//! baseline, measured in the same run, is schemars' `schema_for!` then `serde_json::to_string`.
//! A dialect other than `mcp` is rendered from the IR on its first use, then kept: both are
//! measured.

use stitch_bench as fixture;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use fixture::BroadcastPatch;
use stitch::{Contract, Dialect, Shape};

fn schema(c: &mut Criterion) {
    let mut group = c.benchmark_group("input schema text");
    group.bench_function("schemars schema_for! + to_string", |b| {
        b.iter(|| serde_json::to_string(&schemars::schema_for!(BroadcastPatch)).unwrap())
    });
    group.bench_function("stitch INPUT_SCHEMA (const)", |b| {
        b.iter(|| black_box(BroadcastPatch::INPUT_SCHEMA).len())
    });
    group.bench_function("stitch Contract::input_schema()", |b| {
        b.iter(|| black_box(BroadcastPatch::input_schema()).len())
    });
    group.bench_function("stitch openai-strict, rendered (a first use)", |b| {
        b.iter(|| {
            stitch::Rendering::Flat(Dialect::OpenAiStrict)
                .render(black_box(BroadcastPatch::SHAPE))
                .len()
        })
    });
    group.bench_function("stitch input_schema_for(openai-strict), kept", |b| {
        b.iter(|| BroadcastPatch::input_schema_for(black_box(Dialect::OpenAiStrict)).len())
    });
    group.finish();
}

criterion_group!(benches, schema);
criterion_main!(benches);
