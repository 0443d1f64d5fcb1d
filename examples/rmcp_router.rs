//! An ordinary rmcp server, written the way rmcp's own examples are (`#[tool_router]`,
//! `#[tool]`, `#[prompt_router]`, `#[tool_handler]`), serving stitch tools beside its own: the
//! incident tool `broadcast_patch` and `get_broadcast` come from stitch (flat typed schemas,
//! every call parsed, rejections with their pointers), `count_parts` and `part_lengths` are
//! plain rmcp tools (their schemas from schemars; `part_lengths` answers an array, which a
//! client older than protocol 2026-07-28 is listed and answered wrapped as `{"result": ...}`:
//! `LegacyOutput`), and `review_broadcast` is a prompt. The store starts with
//! broadcast `b1` of three text parts.
//!
//! Run it: `cargo run --example rmcp_router --features rmcp` serves stdio;
//! `cargo run --example rmcp_router --features rmcp -- --http 127.0.0.1:8000` serves
//! streamable HTTP at `http://127.0.0.1:8000/mcp`, refusing requests whose `Host` or `Origin`
//! is not this machine (DNS rebinding). `--dialect NAME` shows every client every tool's
//! schemas in that dialect (stitch's and `count_parts` alike, inputs and outputs: the server
//! is wrapped in `InDialects`), and `--client-dialect CLIENT=NAME` (repeatable) shows it to
//! the client that names itself `CLIENT`; its calls to stitch tools are parsed in that
//! dialect.

#[path = "contracts/broadcast_patch.rs"]
mod broadcast_patch;
mod store;

mod log_to_stderr;

use broadcast_patch::BroadcastPatch;
use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, PromptMessage, Role, ServerCapabilities,
    ServerConfig,
};
use rmcp::{
    ErrorData, ServerHandler, ServiceExt, prompt, prompt_handler, prompt_router, tool,
    tool_handler, tool_router,
};
use stitch::Dialect;
use stitch::mcp::{ClientDialects, HttpServer, InDialects, Json, StitchRouter, Tools, rmcp};
use store::{Broadcast, GetBroadcast, Store};

/// The server: its state, and its routers.
#[derive(Clone)]
struct BroadcastServer {
    store: Store,
    tool_router: ToolRouter<Self>,
    prompt_router: PromptRouter<Self>,
}

/// Which broadcast to count the parts of.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct CountParts {
    /// The broadcast.
    broadcast_id: String,
}

/// Which broadcast to review.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct ReviewArgs {
    /// The broadcast.
    broadcast_id: String,
}

/// Plain rmcp tools, as rmcp writes them.
#[tool_router]
impl BroadcastServer {
    #[tool(description = "Count the parts of a broadcast.")]
    async fn count_parts(
        &self,
        Parameters(CountParts { broadcast_id }): Parameters<CountParts>,
    ) -> Result<CallToolResult, ErrorData> {
        let get = GetBroadcast { broadcast_id };
        let count = store::read(&self.store, &get).map(|broadcast| broadcast.parts.len());
        Ok(match count {
            Ok(count) => CallToolResult::success(vec![ContentBlock::text(count.to_string())]),
            Err(error) => CallToolResult::error(vec![ContentBlock::text(error)]),
        })
    }

    #[tool(description = "The length of each part's text, in order.")]
    async fn part_lengths(
        &self,
        Parameters(CountParts { broadcast_id }): Parameters<CountParts>,
    ) -> Result<Json<Vec<usize>>, ErrorData> {
        let get = GetBroadcast { broadcast_id };
        store::read(&self.store, &get)
            .map(|broadcast| Json(broadcast.parts.iter().map(|part| part.text.len()).collect()))
            .map_err(|error| ErrorData::invalid_params(error, None))
    }
}

/// The stitch tools: methods of the server, as rmcp's are, whose arguments are contracts.
impl BroadcastServer {
    async fn broadcast_patch(&self, patch: BroadcastPatch) -> Result<Json<Broadcast>, String> {
        store::patch(&self.store, patch).map(Json)
    }

    async fn get_broadcast(&self, get: GetBroadcast) -> Result<Json<Broadcast>, String> {
        store::read(&self.store, &get).map(Json)
    }

    /// The stitch tools' router; the guard runs over them, in every dialect shown, when it is
    /// built.
    fn stitch_tools(dialects: ClientDialects) -> StitchRouter<Self> {
        Tools::new()
            .profile(stitch::SchemaProfile::new().require_typed_properties())
            .dialects(dialects)
            .observe(store::audit)
            .tool(Self::broadcast_patch)
            .tool(Self::get_broadcast)
            .build()
            .unwrap_or_else(|findings| {
                let lines: Vec<String> = findings.iter().map(ToString::to_string).collect();
                panic!("the guard refused the tools:\n{}", lines.join("\n"))
            })
    }

    /// The server, each client listed every tool (stitch's and `count_parts` alike), input
    /// and output schemas, in its own dialect.
    fn new(dialects: ClientDialects) -> InDialects<Self> {
        let stitch = Self::stitch_tools(dialects);
        let listings = stitch.listings();
        let server = BroadcastServer {
            store: store::store(),
            // rmcp's tools and stitch's, in one router.
            tool_router: Self::tool_router() + stitch,
            prompt_router: Self::prompt_router(),
        };
        InDialects::new(server, listings)
    }
}

#[prompt_router]
impl BroadcastServer {
    /// Ask for a review of a broadcast's text before it goes out.
    #[prompt(name = "review_broadcast")]
    async fn review_broadcast(
        &self,
        Parameters(ReviewArgs { broadcast_id }): Parameters<ReviewArgs>,
    ) -> Result<Vec<PromptMessage>, ErrorData> {
        let get = GetBroadcast { broadcast_id };
        let broadcast = store::read(&self.store, &get)
            .map_err(|error| ErrorData::invalid_params(error, None))?;
        let texts: Vec<String> = broadcast
            .parts
            .iter()
            .map(|part| part.text.clone())
            .collect();
        let ask = format!(
            "Review the broadcast \"{}\" before it is sent; its parts:\n{}",
            broadcast.title,
            texts.join("\n")
        );
        Ok(vec![PromptMessage::new_text(Role::User, ask)])
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
impl ServerHandler for BroadcastServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new(
            "stitch-broadcasts",
            env!("CARGO_PKG_VERSION"),
        ))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    log_to_stderr::install();
    let options = Options::parse(std::env::args().skip(1))?;
    let server = BroadcastServer::new(options.dialects);
    match options.http {
        None => {
            eprintln!("stitch-broadcasts: serving on stdio");
            server
                .serve(rmcp::transport::stdio())
                .await?
                .waiting()
                .await?;
        }
        Some(address) => {
            // Streamable HTTP at `/mcp`: TCP_NODELAY, timeouts, caps on connections and
            // sessions, and (bound to loopback) requests naming another host refused.
            let listener = HttpServer::new()
                .stateless(options.stateless)
                .bind(&address)
                .await?;
            eprintln!(
                "stitch-broadcasts: serving on http://{}/mcp",
                listener.local_addr()?
            );
            listener.serve(server).await?;
        }
    }
    Ok(())
}

/// The command line.
struct Options {
    http: Option<String>,
    /// Over HTTP, no session outlives its request (`--stateless`).
    stateless: bool,
    dialects: ClientDialects,
}

impl Options {
    const USAGE: &str = "usage: rmcp_router [--http 127.0.0.1:PORT [--stateless]] \
                         [--dialect NAME] [--client-dialect CLIENT=NAME]...";

    fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
        let (mut http, mut default, mut clients) = (None, Dialect::Mcp, Vec::new());
        let mut stateless = false;
        while let Some(flag) = args.next() {
            if flag == "--stateless" {
                stateless = true;
                continue;
            }
            let value = args.next().ok_or(Self::USAGE)?;
            match flag.as_str() {
                "--http" => http = Some(value),
                "--dialect" => default = value.parse().map_err(|e| format!("{e}"))?,
                "--client-dialect" => {
                    let (client, dialect) = value.split_once('=').ok_or(Self::USAGE)?;
                    let dialect: Dialect = dialect.parse().map_err(|e| format!("{e}"))?;
                    clients.push((client.to_owned(), dialect));
                }
                _ => return Err(Self::USAGE.to_owned()),
            }
        }
        let dialects = clients
            .into_iter()
            .fold(ClientDialects::new(default), |rules, (client, dialect)| {
                rules.client(client, dialect)
            });
        Ok(Options {
            http,
            stateless,
            dialects,
        })
    }
}
