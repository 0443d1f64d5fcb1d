//! Prints the advertised input schema of the incident contract, `broadcast_patch`: one flat
//! object a model can fill, with `partIndex` typed `integer`, `minimum: 0`.
//!
//! Run it: `cargo run --example broadcast`; `cargo run --example broadcast -- --dialect
//! openai-strict` prints the schema as that client is shown it (`mcp`, the default,
//! `portable`, `openai-strict` or `anthropic-strict`).

#[path = "contracts/broadcast_patch.rs"]
mod broadcast_patch;

use std::process::ExitCode;

use broadcast_patch::BroadcastPatch;
use stitch::{Contract, Dialect};

/// Rendered at compile time: reading it costs nothing at run time.
const SCHEMA: &str = BroadcastPatch::INPUT_SCHEMA;

fn main() -> ExitCode {
    let dialect = match dialect_argument(std::env::args().skip(1)) {
        Ok(dialect) => dialect,
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

/// The dialect `--dialect NAME` asks for (`mcp` without it).
fn dialect_argument(mut args: impl Iterator<Item = String>) -> Result<Dialect, String> {
    let usage = "usage: broadcast [--dialect mcp|portable|openai-strict|anthropic-strict]";
    match (args.next(), args.next(), args.next()) {
        (None, _, _) => Ok(Dialect::Mcp),
        (Some(flag), Some(name), None) if flag == "--dialect" => {
            name.parse().map_err(|error| format!("{error}\n{usage}"))
        }
        _ => Err(usage.to_owned()),
    }
}
