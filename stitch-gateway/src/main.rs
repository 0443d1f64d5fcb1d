//! `stitch-gateway`: any MCP server's tools, in each model's dialect, for servers not written
//! in Rust. `serve` stands between clients and the server: each client is listed the tools in
//! its model's dialect, and its calls are read back and checked against the server's own
//! schemas before the server sees them; everything else passes as it came. `check` is the
//! lint a server author runs in CI: it renders every tool in every dialect and says what each
//! cannot say of it, and which listing a provider would refuse.
#![forbid(unsafe_code)]

mod changes;
mod check;
mod forward;
mod gateway;
mod link;
mod relay;
mod serve;
mod tools;
mod upstream;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use upstream::Upstream;

/// Every message passed is parsed and written again, each way: mimalloc's allocation costs
/// about half of the system allocator's in that pattern.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Any MCP server's tools, in each model's JSON Schema dialect.
#[derive(Parser)]
#[command(name = "stitch-gateway", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serves the upstream's tools to each client in its model's dialect: over stdio in one
    /// dialect (`--dialect`), or over streamable HTTP (`--http`) at `/mcp` (the dialect by
    /// the client's name) and at one path per dialect (`/mcp/openai-strict`, ...).
    Serve(serve::Options),
    /// Lists the upstream's tools, renders each in every dialect, and says what each rendering
    /// changed and what each dialect cannot say of it (each at its JSON Pointer, with a
    /// severity), how much of each provider's budgets the listing uses, and which provider
    /// would refuse it. Exit status 1 where a provider would refuse the listing, 2 where the
    /// upstream cannot be listed.
    Check {
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        upstream: UpstreamArgs,
    },
}

/// Where the upstream server is.
#[derive(Args)]
struct UpstreamArgs {
    /// The upstream's streamable HTTP endpoint, instead of a command.
    #[arg(long)]
    url: Option<String>,
    /// A header each request to `--url` carries (`"Authorization: Bearer ..."`); repeatable.
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "url")]
    headers: Vec<String>,
    /// The upstream server's command and its arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

impl UpstreamArgs {
    fn upstream(self) -> Result<Upstream, String> {
        Upstream::of(self.url, self.headers, self.command)
    }
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing_subscriber::filter::LevelFilter::WARN)
        .init();
    let cli = Cli::parse();
    // One client over stdio is served by one thread: a call crosses no thread but tokio's
    // blocking reads and writes of stdio, which costs less per call than a scheduler's
    // hand-offs. Over HTTP, clients are served on every core.
    let mut runtime = match &cli.command {
        Command::Serve(options) if !options.over_http() => {
            tokio::runtime::Builder::new_current_thread()
        }
        _ => tokio::runtime::Builder::new_multi_thread(),
    };
    match runtime.enable_all().build() {
        Ok(runtime) => runtime.block_on(run(cli)),
        Err(error) => {
            eprintln!("stitch-gateway: cannot start: {error}");
            ExitCode::from(2)
        }
    }
}

async fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Serve(options) => match serve::serve(options).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("stitch-gateway: {error}");
                ExitCode::from(2)
            }
        },
        Command::Check { json, upstream } => {
            let listed = match upstream.upstream() {
                Ok(upstream) => upstream::list_once(&upstream).await,
                Err(error) => Err(error),
            };
            let tools = match listed {
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
