//! An rmcp server with no stitch contract at all: its tools are rmcp's own `#[tool]`s, their
//! schemas written by schemars. One line (`InDialects::new`, in `main`) lists every client
//! every tool flat, in the dialect its name calls for: `issues` takes an internally tagged
//! enum, which schemars writes as a `oneOf` of objects (which many clients refuse, and
//! Gemini cannot read); clients are listed it as one object whose keys say which operations
//! require them, their types kept.
//!
//! Run it: `cargo run --example schemars_server --features rmcp` serves stdio;
//! `-- --http 127.0.0.1:8000` serves streamable HTTP at `/mcp`. Clients named `cursor-vscode`
//! or `inspector-cli` (the MCP Inspector's command line) are shown the portable dialect,
//! `openai-mcp` OpenAI's strict one, every other client `mcp`.

mod log_to_stderr;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use stitch::Dialect;
use stitch::mcp::{ClientDialects, HttpServer, InDialects, rmcp};

/// One change to the issue tracker (rmcp takes an object for a tool's arguments: the enum's
/// operations are flattened into one).
#[derive(Deserialize, JsonSchema)]
struct Change {
    #[serde(flatten)]
    action: IssueAction,
}

/// One change to the issue tracker.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "action", rename_all = "snake_case")]
enum IssueAction {
    /// Open an issue.
    Create {
        /// Its title.
        title: String,
        /// What it is about.
        body: Option<String>,
        /// Its labels.
        #[serde(default)]
        labels: Vec<String>,
    },
    /// Change an issue's title or labels.
    Update {
        /// Which issue.
        id: u32,
        /// Its new title.
        title: Option<String>,
        /// Its new labels.
        labels: Option<Vec<String>>,
    },
    /// Close an issue.
    Close {
        /// Which issue.
        id: u32,
        /// Why it is closed.
        reason: Reason,
    },
}

/// Why an issue is closed.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Reason {
    Completed,
    NotPlanned,
}

/// An issue as the tracker holds it.
#[derive(Clone, Serialize, JsonSchema)]
struct Issue {
    id: u32,
    title: String,
    body: Option<String>,
    labels: Vec<String>,
    closed: Option<String>,
}

/// Which issue to read.
#[derive(Deserialize, JsonSchema)]
struct GetIssue {
    /// Which issue.
    id: u32,
}

#[derive(Clone)]
struct Tracker {
    issues: Arc<Mutex<BTreeMap<u32, Issue>>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Tracker {
    fn new() -> Tracker {
        Tracker {
            issues: Arc::default(),
            tool_router: Self::tool_router(),
        }
    }

    /// Create, update or close an issue.
    #[tool(name = "issues")]
    async fn issues(
        &self,
        Parameters(Change { action }): Parameters<Change>,
    ) -> Result<Json<Issue>, String> {
        let mut issues = self.issues.lock().map_err(|_| "the tracker failed")?;
        let next = issues.keys().next_back().map_or(1, |id| id + 1);
        let issue = match action {
            IssueAction::Create {
                title,
                body,
                labels,
            } => issues.entry(next).or_insert(Issue {
                id: next,
                title,
                body,
                labels,
                closed: None,
            }),
            IssueAction::Update { id, title, labels } => {
                let issue = issues.get_mut(&id).ok_or(format!("no issue {id}"))?;
                issue.title = title.unwrap_or_else(|| issue.title.clone());
                issue.labels = labels.unwrap_or_else(|| issue.labels.clone());
                issue
            }
            IssueAction::Close { id, reason } => {
                let issue = issues.get_mut(&id).ok_or(format!("no issue {id}"))?;
                issue.closed = Some(match reason {
                    Reason::Completed => "completed".to_owned(),
                    Reason::NotPlanned => "not_planned".to_owned(),
                });
                issue
            }
        };
        Ok(Json(issue.clone()))
    }

    /// Read an issue.
    #[tool(name = "get_issue")]
    async fn get_issue(
        &self,
        Parameters(GetIssue { id }): Parameters<GetIssue>,
    ) -> Result<Json<Issue>, String> {
        let issues = self.issues.lock().map_err(|_| "the tracker failed")?;
        issues
            .get(&id)
            .cloned()
            .map(Json)
            .ok_or(format!("no issue {id}"))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Tracker {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("schemars-tracker", env!("CARGO_PKG_VERSION")),
        )
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    log_to_stderr::install();
    let dialects = ClientDialects::new(Dialect::Mcp)
        .client("cursor-vscode", Dialect::Portable)
        .client("inspector-cli", Dialect::Portable)
        .client("openai-mcp", Dialect::OpenAiStrict);
    // The one line: every tool, in each client's dialect.
    let server = InDialects::new(Tracker::new(), dialects);
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (None, _) => {
            eprintln!("schemars-tracker: serving on stdio");
            server
                .serve(rmcp::transport::stdio())
                .await?
                .waiting()
                .await?;
        }
        (Some("--http"), Some(address)) => {
            let listener = HttpServer::new().bind(&address).await?;
            eprintln!(
                "schemars-tracker: serving on http://{}/mcp",
                listener.local_addr()?
            );
            listener.serve(server).await?;
        }
        _ => return Err("usage: schemars_server [--http 127.0.0.1:PORT]".into()),
    }
    Ok(())
}
