//! What a stitch tool costs per call against a plain rmcp tool, fairly: one handler, one
//! input type and one output type, mounted in one server twice — as a stitch tool
//! (`read_stitch`: its contract parsed, its answer structured) and as rmcp's own `#[tool]`
//! taking `Parameters<T>` (`read_plain`: serde alone, its schema from schemars) — with no
//! observer on either. The server is wrapped in `InDialects`, as a server that shows each
//! client its dialect is, so both tools' calls go through it.
//!
//! - `cargo bench -p stitch-bench --bench serving` calls each tool over an in-memory duplex
//!   (rmcp's stdio framing), in interleaved rounds, and prints the time per call of each and
//!   their ratio (median of the rounds).
//! - `serving calls TOOL N` makes N calls of TOOL and nothing else, for an instruction count
//!   (`scripts/serving-instructions.sh` subtracts a run of fewer calls: instructions per call).
//! - `serving http ADDRESS [--stateless]` serves the two tools over streamable HTTP
//!   (`HttpServer`), for `tests/e2e/load.mjs` to load from another process (calls/s, p50, p99).

use std::time::Instant;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json as RmcpJson, Parameters};
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use stitch::Contract;
use stitch::mcp::{ClientDialects, HttpServer, InDialects, Json, Tools};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Read some parts of a broadcast.
#[derive(Contract, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ReadParts {
    /// The broadcast.
    #[contract(min_length = 1)]
    broadcast_id: String,
    /// The parts to read, by index.
    #[contract(max_items = 16)]
    parts: Vec<u32>,
}

/// The parts read.
#[derive(stitch::Shape, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Parts {
    /// The broadcast.
    broadcast_id: String,
    /// Each part's text, in the order asked.
    texts: Vec<String>,
}

/// The one handler both tools run.
fn read(texts: &[String], ask: ReadParts) -> Result<Parts, String> {
    let texts = ask
        .parts
        .iter()
        .map(|&index| {
            texts
                .get(index as usize)
                .cloned()
                .ok_or_else(|| format!("no part {index}"))
        })
        .collect::<Result<_, _>>()?;
    Ok(Parts {
        broadcast_id: ask.broadcast_id,
        texts,
    })
}

#[derive(Clone)]
struct Server {
    texts: Vec<String>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    /// The handler as rmcp's own tool.
    #[tool(description = "Read some parts of a broadcast.")]
    async fn read_plain(
        &self,
        Parameters(ask): Parameters<ReadParts>,
    ) -> Result<RmcpJson<Parts>, String> {
        read(&self.texts, ask).map(RmcpJson)
    }
}

impl Server {
    /// The handler as a stitch tool.
    async fn read_stitch(&self, ask: ReadParts) -> Result<Json<Parts>, String> {
        read(&self.texts, ask).map(Json)
    }

    fn new() -> InDialects<Self> {
        let stitch = Tools::new()
            .dialects(ClientDialects::default())
            .tool_named("read_stitch", Self::read_stitch)
            .build()
            .unwrap_or_else(|findings| panic!("{findings:?}"));
        let listings = stitch.listings();
        let texts = ["Sale starts Tuesday.", "Everything half off.", "Shop now."];
        let server = Server {
            texts: texts.map(str::to_owned).to_vec(),
            tool_router: Self::tool_router() + stitch,
        };
        InDialects::new(server, listings)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// The tools compared, and a call of each.
const TOOLS: [&str; 2] = ["read_stitch", "read_plain"];

fn call(tool: &str, id: u64) -> String {
    let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": tool, "arguments": {"broadcastId": "b1", "parts": [0, 2]}}});
    format!("{request}\n")
}

/// A client of the server over an in-memory duplex, initialized.
struct Client {
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    id: u64,
}

impl Client {
    async fn start() -> Client {
        let (client_end, transport) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            if let Ok(service) = Server::new().serve(transport).await {
                let _ = service.waiting().await;
            }
        });
        let (read, write) = tokio::io::split(client_end);
        let mut client = Client {
            lines: BufReader::new(read).lines(),
            write,
            id: 0,
        };
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"}}});
        client.send(&format!("{initialize}\n")).await;
        client.lines.next_line().await.unwrap();
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        client.send(&format!("{initialized}\n")).await;
        client
    }

    async fn send(&mut self, line: &str) {
        self.write.write_all(line.as_bytes()).await.unwrap();
    }

    /// One call of `tool`, answered with its structured result.
    async fn call(&mut self, tool: &str) {
        self.id += 1;
        self.send(&call(tool, self.id)).await;
        let answer = self.lines.next_line().await.unwrap().unwrap();
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(
            answer["result"]["structuredContent"]["texts"][1], "Shop now.",
            "{tool}: {answer}"
        );
    }
}

/// Interleaved rounds of each tool; the median time per call of each, and their ratio.
async fn compare() {
    const ROUNDS: usize = 15;
    const CALLS: u32 = 2_000;
    let mut client = Client::start().await;
    for tool in TOOLS {
        for _ in 0..CALLS {
            client.call(tool).await;
        }
    }
    let mut per_call = [Vec::new(), Vec::new()];
    for round in 0..ROUNDS {
        for step in 0..TOOLS.len() {
            // Each round starts with the other tool than the last.
            let which = (round + step) % TOOLS.len();
            let started = Instant::now();
            for _ in 0..CALLS {
                client.call(TOOLS[which]).await;
            }
            per_call[which].push(started.elapsed().as_secs_f64() / f64::from(CALLS) * 1e6);
        }
    }
    let median = |times: &mut Vec<f64>| {
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    };
    let (stitch, plain) = (median(&mut per_call[0]), median(&mut per_call[1]));
    println!(
        "per call over an in-memory duplex, median of {ROUNDS} interleaved rounds of {CALLS}: \
         read_stitch {stitch:.2} µs, read_plain {plain:.2} µs; the stitch tool serves \
         {:.3}× the plain tool's calls",
        plain / stitch
    );
}

fn main() {
    // `cargo bench` passes flags such as `--bench`: only bare words choose a mode.
    let words: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--bench"))
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] => current_thread().block_on(compare()),
        ["calls", tool, count] => {
            let count: u32 = count.parse().expect("a number of calls");
            current_thread().block_on(async {
                let mut client = Client::start().await;
                for _ in 0..count {
                    client.call(tool).await;
                }
            });
        }
        ["http", address, rest @ ..] => {
            let stateless = rest.contains(&"--stateless");
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let listener = HttpServer::new()
                    .stateless(stateless)
                    .bind(address)
                    .await
                    .unwrap();
                eprintln!("serving on http://{}/mcp", listener.local_addr().unwrap());
                listener.serve(Server::new()).await.unwrap();
            });
        }
        other => panic!(
            "usage: serving | serving calls TOOL N | serving http ADDRESS [--stateless] \
             (got {other:?})"
        ),
    }
}

fn current_thread() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}
