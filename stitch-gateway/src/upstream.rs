//! The upstream server, reached as an MCP client: a child process over its standard input and
//! output (its standard error is the gateway's), or streamable HTTP at a URL, with the headers
//! its authentication needs. Connected within a deadline, and listed page by page within
//! bounds, so that an upstream that hangs or lists without end is an error, not a wait.

use std::collections::HashMap;
use std::time::Duration;

use rmcp::model::{PaginatedRequestParams, Tool};
use rmcp::service::{Peer, RunningService, Service};
use rmcp::transport::TokioChildProcess;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransport, StreamableHttpClientTransportConfig,
};
use rmcp::{RoleClient, ServiceExt};

/// How long an upstream may take to start and answer `initialize` when `check` lists it
/// (`npx -y` may install the server first).
const CHECK_START_TIMEOUT: Duration = Duration::from_secs(120);

/// How long one page of the upstream's tools may take.
const PAGE_TIMEOUT: Duration = Duration::from_secs(30);

/// At most this many tools are read from an upstream's listing: past it, the listing is an
/// error (no provider takes a request with so many tools, and the memory stays bounded).
pub const MAX_TOOLS: usize = 10_000;

/// At most this many pages are read from an upstream's listing (a cursor that never ends).
const MAX_PAGES: usize = 1_000;

/// Where the upstream server is.
#[derive(Clone, Debug)]
pub enum Upstream {
    /// A program and its arguments, started as a child process and spoken to over stdio.
    Command(Vec<String>),
    /// A streamable HTTP endpoint, and the headers each request carries (`Name: value`).
    Url { url: String, headers: Vec<String> },
}

impl Upstream {
    /// The upstream named on the command line: `--url` (with its `--header`s), else the
    /// command after `--`.
    pub fn of(
        url: Option<String>,
        headers: Vec<String>,
        command: Vec<String>,
    ) -> Result<Upstream, String> {
        match (url, command.is_empty()) {
            (Some(url), true) => Ok(Upstream::Url { url, headers }),
            (None, false) => Ok(Upstream::Command(command)),
            (Some(_), false) => {
                Err("give the upstream as `--url` or as a command after `--`, not both".into())
            }
            (None, true) => Err("no upstream: give its command after `--`, or `--url`".into()),
        }
    }

    /// What the upstream is called in messages: its program, or its URL.
    pub fn name(&self) -> &str {
        match self {
            Upstream::Command(command) => command.first().map_or("", String::as_str),
            Upstream::Url { url, .. } => url,
        }
    }

    /// A session with the upstream, whose requests to the client `handler` answers (and whose
    /// `get_info` is the client the upstream is told it speaks to), started and initialized
    /// within `deadline`.
    pub async fn connect<H: Service<RoleClient>>(
        &self,
        handler: H,
        deadline: Duration,
    ) -> Result<RunningService<RoleClient, H>, String> {
        let name = self.name().to_owned();
        let started = match self {
            Upstream::Command(command) => {
                let (program, args) = command.split_first().ok_or("no upstream command")?;
                let mut spawn = tokio::process::Command::new(program);
                spawn.args(args);
                let transport = TokioChildProcess::new(spawn)
                    .map_err(|error| format!("cannot start `{program}`: {error}"))?;
                tokio::time::timeout(deadline, handler.serve(transport)).await
            }
            Upstream::Url { url, headers } => {
                let config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                    .custom_headers(parse_headers(headers)?);
                let transport = StreamableHttpClientTransport::from_config(config);
                tokio::time::timeout(deadline, handler.serve(transport)).await
            }
        };
        match started {
            Ok(Ok(service)) => Ok(service),
            Ok(Err(error)) => Err(format!(
                "`{name}` did not answer `initialize` as an MCP server: {error}"
            )),
            Err(_) => Err(format!(
                "`{name}` did not answer `initialize` within {} s",
                deadline.as_secs()
            )),
        }
    }
}

/// `Name: value` lines as request headers.
fn parse_headers(
    headers: &[String],
) -> Result<HashMap<http::HeaderName, http::HeaderValue>, String> {
    headers
        .iter()
        .map(|line| {
            let (name, value) = line
                .split_once(':')
                .ok_or_else(|| format!("a header is `Name: value`, not `{line}`"))?;
            let name = http::HeaderName::try_from(name.trim())
                .map_err(|error| format!("header name `{name}`: {error}"))?;
            let value = http::HeaderValue::try_from(value.trim())
                .map_err(|error| format!("the value of header `{name}`: {error}"))?;
            Ok((name, value))
        })
        .collect()
}

/// Every tool the upstream lists, page by page: an error where a page takes longer than
/// [`PAGE_TIMEOUT`], or the listing passes [`MAX_TOOLS`] tools or [`MAX_PAGES`] pages.
pub async fn list_tools(peer: &Peer<RoleClient>, name: &str) -> Result<Vec<Tool>, String> {
    let mut tools = Vec::new();
    let mut cursor = None;
    for _ in 0..MAX_PAGES {
        let request = PaginatedRequestParams::default().with_cursor(cursor);
        let page = tokio::time::timeout(PAGE_TIMEOUT, peer.list_tools(Some(request)))
            .await
            .map_err(|_| {
                format!(
                    "`{name}` did not list its tools within {} s",
                    PAGE_TIMEOUT.as_secs()
                )
            })?
            .map_err(|error| format!("`{name}` did not list its tools: {error}"))?;
        tools.extend(page.tools);
        if tools.len() > MAX_TOOLS {
            return Err(format!("`{name}` lists more than {MAX_TOOLS} tools"));
        }
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return Ok(tools),
        }
    }
    Err(format!(
        "`{name}` lists more than {MAX_PAGES} pages of tools"
    ))
}

/// Every tool the upstream lists, from a session of its own, ended once listed (what
/// `check` reads).
pub async fn list_once(upstream: &Upstream) -> Result<Vec<Tool>, String> {
    let client = upstream.connect((), CHECK_START_TIMEOUT).await?;
    let tools = list_tools(client.peer(), upstream.name()).await;
    let _ = client.cancel().await;
    tools
}
