//! Foreign schemas that would exhaust a server reading them, measured: for each hostile shape
//! (a `$ref` chain, definitions referring to the next twice over, a union of many operations)
//! at growing sizes, the time `tool_schema_for` takes in every dialect, the size of what it
//! gives against the source's, and the resident memory the process holds after it; then the
//! memory 100,000 distinct schemas leave behind. Each case runs in a child process of its own
//! (`foreign CASE SIZE`), so one case's peak is not another's.
//!
//! `cargo bench -p stitch-bench --bench foreign` prints the table BENCHMARKS.md holds.

use std::process::Command;
use std::time::Instant;

use serde_json::{Map, Value, json};
use stitch::Dialect;

fn ref_chain(links: usize) -> Value {
    let mut definitions = Map::new();
    for link in 0..links {
        definitions.insert(
            format!("d{link}"),
            json!({"$ref": format!("#/$defs/d{}", link + 1)}),
        );
    }
    definitions.insert(format!("d{links}"), json!({"type": "string"}));
    json!({"type": "object", "properties": {"value": {"$ref": "#/$defs/d0"}}, "$defs": definitions})
}

fn shared_definitions(levels: usize) -> Value {
    let mut definitions = Map::new();
    for level in 0..levels {
        let next = json!({"$ref": format!("#/$defs/l{}", level + 1)});
        definitions.insert(
            format!("l{level}"),
            json!({"type": "object", "properties": {"left": next.clone(), "right": next},
                   "required": ["left", "right"]}),
        );
    }
    definitions.insert(format!("l{levels}"), json!({"type": "integer"}));
    json!({"type": "object", "properties": {"tree": {"$ref": "#/$defs/l0"}}, "$defs": definitions})
}

fn many_operations(operations: usize) -> Value {
    let branches: Vec<Value> = (0..operations)
        .map(|i| {
            json!({"type": "object",
                   "properties": {"op": {"const": format!("op{i}")}, format!("k{i}"): {"type": "integer"}},
                   "required": ["op"]})
        })
        .collect();
    json!({"oneOf": branches})
}

/// The peak resident set of this process, in bytes (`VmHWM`).
fn peak() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kib| kib * 1024)
}

/// One case, in this process: prints `source_bytes output_bytes seconds peak_bytes`.
fn run_case(case: &str, size: usize) {
    let document = match case {
        "chain" => ref_chain(size),
        "shared" => shared_definitions(size),
        "union" => many_operations(size),
        _ => panic!("unknown case {case}"),
    };
    let source = document.to_string().len();
    let started = Instant::now();
    let mut output = 0;
    for &dialect in Dialect::ALL {
        output = output.max(
            stitch::foreign::tool_schema_for(&document, dialect)
                .to_string()
                .len(),
        );
    }
    let seconds = started.elapsed().as_secs_f64();
    println!("{source} {output} {seconds:.3} {}", peak());
}

/// 100,000 schemas that differ only in a description, read in every dialect: prints the
/// resident memory before and after.
fn run_distinct() {
    let before = stitch_bench::resident_bytes();
    for i in 0..100_000 {
        let document = json!({"oneOf": [
            {"type": "object", "properties": {"op": {"const": "a"}, "x": {"type": "integer", "description": format!("schema {i}")}}, "required": ["op"]},
            {"type": "object", "properties": {"op": {"const": "b"}}, "required": ["op"]},
        ]});
        for &dialect in Dialect::ALL {
            std::hint::black_box(stitch::foreign::tool_schema_for(&document, dialect));
        }
    }
    println!("{before} {}", stitch_bench::resident_bytes());
}

fn child(arguments: &[&str]) -> Vec<f64> {
    let me = std::env::current_exe().expect("the bench knows where it is");
    let output = Command::new(me)
        .args(arguments)
        .output()
        .expect("the case runs");
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .filter_map(|field| field.parse().ok())
        .collect()
}

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    match arguments.as_slice() {
        [case, size] if case != "--bench" => return run_case(case, size.parse().expect("a size")),
        [distinct] if distinct == "distinct" => return run_distinct(),
        _ => {}
    }
    println!(
        "| shape | size | source | largest output | output / source | every dialect | peak RSS |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (case, sizes) in [
        ("chain", &[1_000usize, 10_000, 100_000][..]),
        ("shared", &[8, 18, 25][..]),
        ("union", &[2_000, 10_000][..]),
    ] {
        for size in sizes {
            let figures = child(&[case, &size.to_string()]);
            let [source, output, seconds, peak] = figures[..] else {
                println!("| {case} | {size} | failed | | | | |");
                continue;
            };
            println!(
                "| {case} | {size} | {:.1} KB | {:.1} KB | {:.1}x | {seconds:.2} s | {:.0} MB |",
                source / 1e3,
                output / 1e3,
                output / source,
                peak / 1e6
            );
        }
    }
    let figures = child(&["distinct"]);
    if let [before, after] = figures[..] {
        println!(
            "\n100,000 distinct schemas in every dialect: resident memory {:.1} MB before, {:.1} MB after ({:+.1} MB)",
            before / 1e6,
            after / 1e6,
            (after - before) / 1e6
        );
    }
}
