//! `stitch-gateway`: any MCP server's tools, in each model's dialect, for servers not written
//! in Rust. `check` is the lint a server author runs in CI: it lists the upstream's tools,
//! renders each in every dialect by stitch's rules, and says what each dialect cannot say of
//! it and which listing a provider would refuse.
#![forbid(unsafe_code)]

mod check;
mod upstream;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Any MCP server's tools, in each model's JSON Schema dialect.
#[derive(Parser)]
#[command(name = "stitch-gateway", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Lists the upstream's tools, renders each in every dialect, and says what each dialect
    /// cannot say of it (the JSON Pointer of each loss) and which provider would refuse the
    /// listing. Exit status 1 where a provider would refuse it, 2 where the upstream cannot be
    /// listed.
    Check {
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// The upstream server's command and its arguments, after `--`.
        #[arg(last = true, required = true, value_name = "COMMAND")]
        upstream: Vec<String>,
    },
}

#[tokio::main]
async fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Check { json, upstream } => {
            let tools = match upstream::list_tools(&upstream).await {
                Ok(tools) => tools,
                Err(error) => {
                    eprintln!("stitch-gateway: {error}");
                    return ExitCode::from(2);
                }
            };
            let report = check::Report::of(&tools);
            if json {
                println!("{}", report.json());
            } else {
                print!("{}", report.text());
            }
            if report.refused() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}
