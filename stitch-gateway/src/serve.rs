//! `serve`: the gateway served to its downstream clients, over stdio in one dialect or over
//! streamable HTTP through stitch's `HttpServer` (its limits, and one path per dialect).

use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use rmcp::ServiceExt;
use stitch::Dialect;
use stitch::mcp::{ClientDialects, HttpServer, Listings};

use crate::UpstreamArgs;
use crate::gateway::{self, Settings, SharedLink};
use crate::tools::SharedListing;

/// How the gateway is served.
#[derive(Args)]
pub struct Options {
    /// Serve over streamable HTTP at this address (`127.0.0.1:8080`), instead of stdio.
    #[arg(long, value_name = "ADDRESS")]
    http: Option<String>,
    /// Over HTTP, no session outlives its request: one upstream session serves every request
    /// (for replicas behind a load balancer).
    #[arg(long, requires = "http")]
    stateless: bool,
    /// The dialect every client is shown (over HTTP, at `/mcp`, unless its name is given a
    /// dialect of its own): mcp, portable, openai-strict or anthropic-strict.
    #[arg(long, default_value = "mcp")]
    dialect: Dialect,
    /// The dialect a client that names itself CLIENT is shown at `/mcp`; repeatable.
    #[arg(long = "client-dialect", value_name = "CLIENT=DIALECT", value_parser = client_dialect)]
    client_dialects: Vec<(String, Dialect)>,
    /// How long the upstream has to start, and to answer one request, in seconds.
    #[arg(long, default_value_t = 300)]
    deadline: u64,
    #[command(flatten)]
    upstream: UpstreamArgs,
}

/// `CLIENT=DIALECT`.
fn client_dialect(said: &str) -> Result<(String, Dialect), String> {
    let (client, dialect) = said
        .split_once('=')
        .ok_or_else(|| format!("`{said}` is not CLIENT=DIALECT"))?;
    let dialect = dialect.parse().map_err(|error| format!("{error}"))?;
    Ok((client.to_owned(), dialect))
}

/// Serves until the downstream side ends (stdio closed), or the listener fails.
pub async fn serve(options: Options) -> Result<(), String> {
    let upstream = options.upstream.upstream()?;
    let mut rules = ClientDialects::new(options.dialect);
    for (client, dialect) in options.client_dialects {
        rules = rules.client(client, dialect);
    }
    let settings = Arc::new(Settings {
        upstream,
        listings: Listings::from(rules),
        deadline: Duration::from_secs(options.deadline),
        listing: SharedListing::default(),
        stateless: options.stateless,
        shared: SharedLink::default(),
    });
    if options.stateless {
        // Started now: an upstream that cannot start is said before anyone is served.
        settings
            .shared
            .get(&settings.upstream, settings.deadline)
            .await?;
    }
    match options.http {
        None => {
            let running = gateway::session(&settings)
                .serve(rmcp::transport::stdio())
                .await
                .map_err(|error| format!("the client did not start an MCP session: {error}"))?;
            running
                .waiting()
                .await
                .map(|_| ())
                .map_err(|error| format!("serving ended: {error}"))
        }
        Some(address) => {
            let listener = HttpServer::new()
                .stateless(options.stateless)
                .bind(&address)
                .await
                .map_err(|error| format!("cannot listen on {address}: {error}"))?;
            let local = listener.local_addr().map_err(|error| error.to_string())?;
            eprintln!("stitch-gateway: serving on http://{local}/mcp");
            listener
                .serve_each(move || gateway::session(&settings))
                .await
                .map_err(|error| format!("serving ended: {error}"))
        }
    }
}
