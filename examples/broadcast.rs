//! Prints the advertised input schema of the incident contract, `broadcast_patch`: one flat
//! object a model can fill, with `partIndex` typed `integer`, `minimum: 0`.
//!
//! Run it: `cargo run --example broadcast`; `cargo run --example broadcast -- --dialect
//! openai-strict` prints the schema as that client is shown it (`mcp`, the default,
//! `portable`, `openai-strict` or `anthropic-strict`); `cargo run --example broadcast --
//! --report` prints what the schema costs in each dialect, in bytes and in tokens, against
//! the exact schema: stitch's compile-time estimate, and with `--features o200k` the count of
//! OpenAI's o200k tokenizer beside it (a dependency the first command does without).

#[path = "contracts/broadcast_patch.rs"]
mod broadcast_patch;

use std::process::ExitCode;

use broadcast_patch::BroadcastPatch;
use stitch::{Contract, Dialect};

/// Rendered at compile time: reading it costs nothing at run time.
const SCHEMA: &str = BroadcastPatch::INPUT_SCHEMA;

fn main() -> ExitCode {
    let dialect = match arguments(std::env::args().skip(1)) {
        Ok(Asked::Schema(dialect)) => dialect,
        Ok(Asked::Report) => return report(),
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    // `Mcp` is the compile-time text; the others are rendered from the same IR on first use.
    let text = match dialect {
        Dialect::Mcp => SCHEMA,
        dialect => BroadcastPatch::input_schema_for(dialect),
    };
    let schema: serde_json::Value = serde_json::from_str(text).expect("stitch renders valid JSON");
    let tool = BroadcastPatch::TOOL;
    println!("tool: {}", tool.name);
    println!("description: {}", tool.description);
    println!("dialect: {dialect}");
    println!(
        "inputSchema:\n{}",
        serde_json::to_string_pretty(&schema).expect("a JSON value prints")
    );
    ExitCode::SUCCESS
}

/// The advertised schema's size in each dialect, known to the compiler.
const MEASURES: &[stitch::measure::Measure] = BroadcastPatch::MEASURES;

/// What the schema costs in each dialect, flat, against the exact schema (`oneOf`).
fn report() -> ExitCode {
    let (counted_as, tokens) = match token_counter() {
        Ok(counter) => counter,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let exact = BroadcastPatch::EXACT_SCHEMA;
    let exact_tokens = tokens(exact);
    println!(
        "{}: the exact schema (tagged unions as oneOf) is {} bytes, {exact_tokens} {counted_as}",
        BroadcastPatch::TOOL.name,
        exact.len()
    );
    println!(
        "{:<30}{:>8}{:>8}{:>10}{:>10}",
        "flat, in", "bytes", "tokens", "estimate", "vs exact"
    );
    let rows = [
        (
            "",
            MEASURES,
            BroadcastPatch::input_schema_for as fn(Dialect) -> &'static str,
        ),
        (
            ", by operation",
            by_operation::BroadcastPatch::MEASURES,
            by_operation::BroadcastPatch::input_schema_for,
        ),
    ];
    for (form, measures, schema_in) in rows {
        for &dialect in Dialect::ALL {
            let measure = measures[dialect as usize];
            let counted = tokens(schema_in(dialect));
            println!(
                "{:<30}{:>8}{:>8}{:>10}{:>9.2}x",
                format!("{dialect}{form}"),
                measure.bytes,
                counted,
                measure.tokens,
                counted as f64 / exact_tokens as f64
            );
        }
    }
    ExitCode::SUCCESS
}

/// What `--report` calls the tokens it counts, and how it counts a text's.
type TokenCounter = (&'static str, Box<dyn Fn(&str) -> usize>);

/// How `--report` counts a text's tokens with the examples' `o200k` feature: OpenAI's o200k
/// tokenizer.
#[cfg(feature = "o200k")]
fn token_counter() -> Result<TokenCounter, String> {
    let tokenizer = tiktoken_rs::o200k_base()
        .map_err(|error| format!("the o200k tokenizer did not load: {error}"))?;
    let count = move |text: &str| tokenizer.encode_ordinary(text).len();
    Ok(("o200k tokens", Box::new(count)))
}

/// How `--report` counts a text's tokens without the `o200k` feature: stitch's estimate.
#[cfg(not(feature = "o200k"))]
fn token_counter() -> Result<TokenCounter, String> {
    let count = stitch::measure::estimate_tokens;
    Ok((
        "tokens, estimated (`--features o200k` counts o200k's)",
        Box::new(count),
    ))
}

/// What the command line asks for.
enum Asked {
    Schema(Dialect),
    Report,
}

/// `--dialect NAME` (`mcp` without it), or `--report`.
fn arguments(mut args: impl Iterator<Item = String>) -> Result<Asked, String> {
    let usage =
        "usage: broadcast [--dialect mcp|portable|openai-strict|anthropic-strict | --report]";
    match (args.next(), args.next(), args.next()) {
        (None, _, _) => Ok(Asked::Schema(Dialect::Mcp)),
        (Some(flag), None, _) if flag == "--report" => Ok(Asked::Report),
        (Some(flag), Some(name), None) if flag == "--dialect" => name
            .parse()
            .map(Asked::Schema)
            .map_err(|error| format!("{error}\n{usage}")),
        _ => Err(usage.to_owned()),
    }
}

/// The incident contract with its operations' hints said by operation (`hints =
/// "by_operation"`): the same facts, each said once. `--report` weighs it beside the other.
mod by_operation {
    use serde::Deserialize;
    use stitch::ir::{Hints, Kind, Node, Union};
    use stitch::{Contract, Shape};

    use crate::broadcast_patch::PatchOp;

    /// Edit a broadcast: apply the operations in order.
    #[allow(dead_code, reason = "only its schema is weighed")]
    #[derive(Contract, Deserialize)]
    #[contract(name = "broadcast_patch")]
    #[serde(rename_all = "camelCase")]
    pub struct BroadcastPatch {
        /// The broadcast to edit.
        #[contract(min_length = 1)]
        pub broadcast_id: String,
        /// The edits, applied in order.
        #[contract(min_items = 1, max_items = 32)]
        pub operations: Vec<Operation>,
    }

    /// One edit of a broadcast, its schema `PatchOp`'s with the hints placed by operation.
    #[derive(Deserialize)]
    #[serde(transparent)]
    pub struct Operation(#[allow(dead_code, reason = "only its schema is weighed")] pub PatchOp);

    const UNION: Union = match PatchOp::SHAPE.kind {
        Kind::Union(union) => union.hints(Hints::ByOperation),
        _ => panic!("PatchOp is a union"),
    };

    impl Shape for Operation {
        const SHAPE: &'static Node<'static> = &Node::of(Kind::Union(&UNION));
    }
}
