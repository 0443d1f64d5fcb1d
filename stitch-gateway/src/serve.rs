//! `serve`: the gateway served to its downstream clients, over stdio in one dialect or over
//! streamable HTTP through stitch's `HttpServer` (its limits, and one path per dialect).

use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use rmcp::ServiceExt;
#[cfg(unix)]
use std::os::fd::AsFd;
use stitch::Dialect;
use stitch::mcp::{ClientDialects, HttpServer, Listings};
#[cfg(unix)]
use tokio::net::unix::pipe;

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

impl Options {
    /// Whether clients are served over HTTP (else one client, over stdio).
    pub fn over_http(&self) -> bool {
        self.http.is_some()
    }
}

/// `CLIENT=DIALECT`.
fn client_dialect(said: &str) -> Result<(String, Dialect), String> {
    let (client, dialect) = said
        .split_once('=')
        .ok_or_else(|| format!("`{said}` is not CLIENT=DIALECT"))?;
    let dialect = dialect.parse().map_err(|error| format!("{error}"))?;
    Ok((client.to_owned(), dialect))
}

/// Standard input and output as the runtime polls them, where they are pipes or sockets (as
/// when a client starts the gateway: Node gives its children sockets, Python pipes): tokio's
/// own stdio reads and writes on a thread of its blocking pool, a hand-off each way on every
/// message.
#[cfg(unix)]
fn stdio_pipes() -> Option<(Polled<pipe::Receiver>, Polled<pipe::Sender>)> {
    use tokio_util::either::Either;
    let input = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    let output = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    let input = match pipe::Receiver::from_owned_fd(input.try_clone().ok()?) {
        Ok(pipe) => Either::Left(pipe),
        Err(_) => Either::Right(socket(input)?),
    };
    let output = match pipe::Sender::from_owned_fd(output.try_clone().ok()?) {
        Ok(pipe) => Either::Left(pipe),
        Err(_) => Either::Right(socket(output)?),
    };
    Some((input, output))
}

/// A pipe, or a Unix socket, the runtime polls.
#[cfg(unix)]
type Polled<P> = tokio_util::either::Either<P, tokio::net::UnixStream>;

/// `fd` as a socket the runtime polls, if it is a Unix socket.
#[cfg(unix)]
fn socket(fd: std::os::fd::OwnedFd) -> Option<tokio::net::UnixStream> {
    let socket = std::os::unix::net::UnixStream::from(fd);
    socket.local_addr().ok()?;
    socket.set_nonblocking(true).ok()?;
    tokio::net::UnixStream::from_std(socket).ok()
}

#[cfg(not(unix))]
fn stdio_pipes() -> Option<(tokio::io::Stdin, tokio::io::Stdout)> {
    None
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
            let session = gateway::session(&settings);
            let running = match stdio_pipes() {
                Some(pipes) => session.serve(pipes).await,
                None => session.serve(rmcp::transport::stdio()).await,
            };
            let running = running
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
