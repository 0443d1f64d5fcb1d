//! Serving an rmcp server over streamable HTTP with what a server on a network needs, each a
//! default a user can change (feature `http`): `TCP_NODELAY` (without it, every response
//! written in more than one segment waits ~40 ms for the client's delayed ACK), a body cap,
//! header (from accept) and body read timeouts, idle connections closed, a cap on
//! connections, on sessions and on open streams, each shared fairly between clients (an IPv4
//! address, an IPv6 /64; a trusted proxy's forwarded address honoured only when configured),
//! sessions expired by what they do, idle streams ended, and the `Host`/`Origin` checks: the loopback names when bound to loopback, an
//! allow-list otherwise. A server is a few lines:
//!
//! ```no_run
//! # #[derive(Clone)] struct Server;
//! # impl stitch::mcp::rmcp::ServerHandler for Server {}
//! # async fn run() -> std::io::Result<()> {
//! let listener = stitch::mcp::HttpServer::new().bind("127.0.0.1:8080").await?;
//! eprintln!("serving on http://{}/mcp", listener.local_addr()?);
//! listener.serve(Server).await
//! # }
//! ```
//!
//! rmcp's streamable HTTP service answers the protocol; this module owns the connections:
//! hyper serves each one (HTTP/1.1 or HTTP/2; `connection`), axum routes the path, and a
//! middleware (`limits`) admits sessions (`sessions`) and streams (`streams`) by client
//! (`client`) and reads each body whole within its timeout and cap before rmcp sees it.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use hyper_util::service::TowerToHyperService;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::{TcpListener, ToSocketAddrs};

use crate::Dialect;
use connection::{Busy, PerAddress, Timers, refuse};

use super::dialects::EndpointDialect;
use client::ClientPrefixes;
use limits::{Connection, Limits};
use sessions::Sessions;
use streams::Streams;
use table::Table;

mod client;
mod connection;
mod limits;
mod sessions;
mod streams;
mod table;

/// How an MCP server is served over streamable HTTP: its path, its limits, the hosts and
/// origins it answers. Every limit has a default fit for a public server; [`bind`](Self::bind)
/// it to an address, then [`serve`](HttpListener::serve) a server on it.
///
/// Beside its path (`/mcp`, where each client is shown the dialect the rules give its name),
/// it answers one path per dialect (`/mcp/mcp`, `/mcp/portable`, `/mcp/openai-strict`,
/// `/mcp/anthropic-strict`), where every caller is listed, and parsed, in that dialect,
/// whatever its name: a host that puts several model providers behind one client name points
/// each provider's configuration at its path.
#[derive(Clone, Debug)]
pub struct HttpServer {
    path: String,
    max_body_bytes: usize,
    header_timeout: Duration,
    body_timeout: Duration,
    connection_idle: Duration,
    max_connections: usize,
    max_connections_per_address: usize,
    max_sessions: usize,
    max_sessions_per_address: usize,
    session_idle: Duration,
    max_streams: usize,
    max_streams_per_client: usize,
    stream_idle: Duration,
    trusted_proxies: Vec<IpAddr>,
    forwarded_header: ForwardedHeader,
    client_prefixes: ClientPrefixes,
    hosts: Vec<String>,
    origins: Vec<String>,
    stateless: bool,
}

impl Default for HttpServer {
    fn default() -> Self {
        HttpServer {
            path: "/mcp".to_owned(),
            max_body_bytes: Self::DEFAULT_MAX_BODY_BYTES,
            header_timeout: Self::DEFAULT_HEADER_TIMEOUT,
            body_timeout: Self::DEFAULT_BODY_TIMEOUT,
            connection_idle: Self::DEFAULT_CONNECTION_IDLE,
            max_connections: Self::DEFAULT_MAX_CONNECTIONS,
            max_connections_per_address: Self::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            max_sessions: Self::DEFAULT_MAX_SESSIONS,
            max_sessions_per_address: Self::DEFAULT_MAX_SESSIONS_PER_ADDRESS,
            session_idle: Self::DEFAULT_SESSION_IDLE,
            max_streams: Self::DEFAULT_MAX_STREAMS,
            max_streams_per_client: Self::DEFAULT_MAX_STREAMS_PER_CLIENT,
            stream_idle: Self::DEFAULT_STREAM_IDLE,
            trusted_proxies: Vec::new(),
            forwarded_header: ForwardedHeader::XForwardedFor,
            client_prefixes: ClientPrefixes { v4: 32, v6: 64 },
            hosts: Vec::new(),
            origins: Vec::new(),
            stateless: false,
        }
    }
}

impl HttpServer {
    /// A request body larger than this is refused (413): 8 MiB, room for a long text.
    pub const DEFAULT_MAX_BODY_BYTES: usize = 8 << 20;
    /// A connection whose request head has not arrived in this long is closed, counting
    /// from when it was accepted, whether or not it has sent a byte.
    pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
    /// A request body that has not arrived in this long is refused (408): a body trickled
    /// to hold a connection holds it no longer.
    pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
    /// A connection with no request in flight for this long is closed (an HTTP/1 keep-alive
    /// connection at once, an HTTP/2 one after `GOAWAY`), however many PINGs it answers.
    pub const DEFAULT_CONNECTION_IDLE: Duration = Duration::from_secs(60);
    /// Connections served at once; one past it is answered 503 and closed.
    pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
    /// Connections served at once from one remote address (a trusted proxy's are not
    /// counted so), so that one client cannot take them all; one past it is answered 503 and
    /// closed.
    pub const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS: usize = 64;
    /// Sessions open at once (each costs some 60 KiB); when the table is full, a new one
    /// takes the place of the least recently active with nothing in flight (503 only when
    /// every one is busy).
    pub const DEFAULT_MAX_SESSIONS: usize = 512;
    /// Sessions one client address holds at once, so that one client cannot take the table:
    /// past it, its own least recently active idle session gives way (503 when each is
    /// busy).
    pub const DEFAULT_MAX_SESSIONS_PER_ADDRESS: usize = 64;
    /// A session with nothing in flight this long is closed (a call in flight or an open
    /// stream is activity); its next request is answered 404.
    pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(120);
    /// Default [`max_streams`](Self::max_streams): one open stream per session the server
    /// holds.
    pub const DEFAULT_MAX_STREAMS: usize = Self::DEFAULT_MAX_SESSIONS;
    /// Default [`max_streams_per_client`](Self::max_streams_per_client).
    pub const DEFAULT_MAX_STREAMS_PER_CLIENT: usize = Self::DEFAULT_MAX_SESSIONS_PER_ADDRESS;
    /// Default [`stream_idle`](Self::stream_idle).
    pub const DEFAULT_STREAM_IDLE: Duration = Duration::from_secs(120);

    /// The defaults, at `/mcp`.
    pub fn new() -> HttpServer {
        HttpServer::default()
    }

    /// The path the server answers at (default `/mcp`).
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// The largest request body accepted.
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// How long a request's head may take to arrive.
    pub fn header_timeout(mut self, timeout: Duration) -> Self {
        self.header_timeout = timeout;
        self
    }

    /// How long a request's body may take to arrive.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// How long a connection with no request in flight is kept open.
    pub fn connection_idle(mut self, idle: Duration) -> Self {
        self.connection_idle = idle;
        self
    }

    /// How many connections are served at once.
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections;
        self
    }

    /// How many connections one remote address may hold at once (clients behind one proxy
    /// share its address: raise it for them).
    pub fn max_connections_per_address(mut self, connections: usize) -> Self {
        self.max_connections_per_address = connections;
        self
    }

    /// The proxies (a load balancer, a reverse proxy) whose connections carry other clients'
    /// requests: a request from one of them is counted against the client its forwarded
    /// header names ([`forwarded_header`](Self::forwarded_header): the last address in it
    /// that is not itself a trusted proxy, the one the last trusted proxy saw), and their
    /// connections are not capped per address. From any other address, the header is ignored
    /// (default: none trusted).
    pub fn trusted_proxies<I: IntoIterator<Item = IpAddr>>(mut self, proxies: I) -> Self {
        self.trusted_proxies = proxies.into_iter().collect();
        self
    }

    /// How many streams of server messages (a session's `GET`) may be open at once; past it,
    /// 503.
    pub fn max_streams(mut self, streams: usize) -> Self {
        self.max_streams = streams;
        self
    }

    /// How many streams of server messages one client may hold open; past it, 503.
    pub fn max_streams_per_client(mut self, streams: usize) -> Self {
        self.max_streams_per_client = streams;
        self
    }

    /// How long a stream of server messages is kept with no event on it (rmcp's keep-alive
    /// comments are not events); then it ends, and a client that wants one opens it again.
    /// An open stream keeps neither its session nor its connection busy.
    pub fn stream_idle(mut self, idle: Duration) -> Self {
        self.stream_idle = idle;
        self
    }

    /// How much of an address is one client, as prefix lengths (default: an IPv4 address
    /// whole, an IPv6 /64, what one subscriber is usually given): the connection and session
    /// caps count a client, so one holder of a /64 is not a crowd. Lengths past an address's
    /// bits are taken as the whole address.
    pub fn client_prefixes(mut self, ipv4: u8, ipv6: u8) -> Self {
        self.client_prefixes = ClientPrefixes { v4: ipv4, v6: ipv6 };
        self
    }

    /// The one header the trusted proxies name their clients in (default:
    /// `X-Forwarded-For`, what nginx's `proxy_add_x_forwarded_for` appends to). The other is
    /// never read: most proxies pass a header they do not set through as the client sent
    /// it, so a client could name itself anyone in it.
    pub fn forwarded_header(mut self, header: ForwardedHeader) -> Self {
        self.forwarded_header = header;
        self
    }

    /// How many sessions may be open at once.
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = sessions;
        self
    }

    /// How many sessions one client address may hold at once.
    pub fn max_sessions_per_address(mut self, sessions: usize) -> Self {
        self.max_sessions_per_address = sessions;
        self
    }

    /// How long a session with nothing in flight is kept.
    pub fn session_idle(mut self, idle: Duration) -> Self {
        self.session_idle = idle;
        self
    }

    /// The hosts clients name in `Host` (`example.com`, `example.com:8443`): required when
    /// bound to an address other machines reach; on loopback, the loopback names.
    pub fn allow_hosts<I: IntoIterator<Item = S>, S: Into<String>>(mut self, hosts: I) -> Self {
        self.hosts = hosts.into_iter().map(Into::into).collect();
        self
    }

    /// The browser origins accepted in `Origin` (`https://app.example.com`); on loopback,
    /// the loopback origins. A request without `Origin` (not from a browser) passes.
    pub fn allow_origins<I: IntoIterator<Item = S>, S: Into<String>>(mut self, origins: I) -> Self {
        self.origins = origins.into_iter().map(Into::into).collect();
        self
    }

    /// No session outlives its request (rmcp's stateless mode, as protocol 2026-07-28 serves
    /// every request): what replicas behind a load balancer need.
    pub fn stateless(mut self, stateless: bool) -> Self {
        self.stateless = stateless;
        self
    }

    /// Binds `address`. An address other machines reach needs [`allow_hosts`](Self::allow_hosts):
    /// without it, a page on any site could reach the server through a name it controls
    /// (DNS rebinding).
    pub async fn bind(self, address: impl ToSocketAddrs) -> io::Result<HttpListener> {
        let listener = TcpListener::bind(address).await?;
        let local = listener.local_addr()?;
        if !local.ip().is_loopback() && self.hosts.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{local} is reached by other machines: name the hosts its clients use \
                     with `HttpServer::allow_hosts` (DNS rebinding)"
                ),
            ));
        }
        Ok(HttpListener {
            listener,
            server: self,
        })
    }
}

/// The header a trusted proxy names its clients in: a proxy appends the address it sees to
/// the one it sets ([`HttpServer::forwarded_header`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ForwardedHeader {
    /// `X-Forwarded-For: client, proxy1`: nginx's `$proxy_add_x_forwarded_for`, HAProxy's
    /// `option forwardfor`, most load balancers'.
    XForwardedFor,
    /// `Forwarded: for=client, for=proxy1` (RFC 7239).
    Forwarded,
}

/// A bound [`HttpServer`], ready to serve.
pub struct HttpListener {
    listener: TcpListener,
    server: HttpServer,
}

impl HttpListener {
    /// The address bound (with the port chosen, when bound to port 0).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves `server` (a clone per session, or per request when stateless) until the
    /// listener fails.
    pub async fn serve<S>(self, server: S) -> io::Result<()>
    where
        S: ServerHandler + Clone + Send + Sync + 'static,
    {
        self.serve_each(move || server.clone()).await
    }

    /// Serves a server `new_session` makes for each session (or each request when
    /// stateless) until the listener fails: for a server that holds a session's own state
    /// (a connection of its own to another server, say), where a clone would share it.
    pub async fn serve_each<S, F>(self, new_session: F) -> io::Result<()>
    where
        S: ServerHandler + Send + Sync + 'static,
        F: Fn() -> S + Send + Sync + 'static,
    {
        let HttpListener {
            listener,
            server: options,
        } = self;
        let router = router(new_session, &options, listener.local_addr()?);
        let table = Table::new(options.max_connections);
        let per_address = PerAddress::new(options.max_connections_per_address);
        let timers = Timers {
            header: options.header_timeout,
            idle: options.connection_idle,
        };
        loop {
            let (stream, remote) = match listener.accept().await {
                Ok(accepted) => accepted,
                // Out of descriptors, or a connection reset before it was taken: the
                // listener itself is fine; pause so a burst does not spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            };
            let held = if options.trusted_proxies.contains(&remote.ip()) {
                None
            } else {
                let client = options.client_prefixes.client_of(remote.ip());
                let Some(held) = per_address.take(client) else {
                    tokio::spawn(refuse(stream));
                    continue;
                };
                Some(held)
            };
            // Without it, a response written in two segments waits for the delayed ACK.
            let _ = stream.set_nodelay(true);
            let busy = Busy::new();
            let connection = Connection {
                remote: remote.ip(),
                busy: Arc::clone(&busy),
            };
            let service =
                TowerToHyperService::new(router.clone().layer(axum::Extension(connection)));
            let table = Arc::clone(&table);
            let client = options.client_prefixes.client_of(remote.ip());
            tokio::spawn(async move {
                let shed = Arc::new(tokio::sync::Notify::new());
                let place = table
                    .admit(client, Arc::clone(&busy), Arc::clone(&shed))
                    .await;
                let Some(place) = place else {
                    return refuse(stream).await;
                };
                connection::serve(stream, service, (busy, shed), timers).await;
                drop(place);
                drop(held);
            });
        }
    }
}

/// What every connection serves: rmcp's streamable HTTP service for the servers `new_session`
/// makes, at the path, behind the limits, with the sessions' sweeper running.
fn router<S, F>(new_session: F, options: &HttpServer, local: SocketAddr) -> axum::Router
where
    S: ServerHandler + Send + Sync + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let manager = Arc::new(session_manager());
    let service = StreamableHttpService::new(
        move || Ok(new_session()),
        Arc::clone(&manager),
        protocol_config(options, local),
    );
    let sessions = Arc::new(Sessions::new(
        manager,
        options.session_idle,
        options.max_sessions,
        options.max_sessions_per_address,
    ));
    let sweeper = Arc::clone(&sessions);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(sweeper.sweep_every()).await;
            sweeper.sweep().await;
        }
    });
    let streams = Streams::new(
        options.max_streams,
        options.max_streams_per_client,
        options.stream_idle,
    );
    let limits = Limits {
        sessions,
        streams: Arc::new(streams),
        stateful: !options.stateless,
        max_body_bytes: options.max_body_bytes,
        body_timeout: options.body_timeout,
        trusted_proxies: options.trusted_proxies.clone().into(),
        forwarded_header: options.forwarded_header,
        client_prefixes: options.client_prefixes,
    };
    let mut routes = axum::Router::new().route_service(&options.path, service.clone());
    for &dialect in Dialect::ALL {
        let path = dialect_path(&options.path, dialect);
        let fixed = axum::Router::new()
            .route_service(&path, service.clone())
            .layer(axum::Extension(EndpointDialect(dialect)));
        routes = routes.merge(fixed);
    }
    routes.layer(axum::middleware::from_fn(move |request, next| {
        limits.clone().apply(request, next)
    }))
}

/// The path that shows every caller `dialect` (`/mcp/openai-strict` beside `/mcp`).
fn dialect_path(path: &str, dialect: Dialect) -> String {
    format!("{}/{dialect}", path.trim_end_matches('/'))
}

/// rmcp's sessions, with no timer of their own: `Sessions` closes them by what they do.
fn session_manager() -> LocalSessionManager {
    let mut sessions = LocalSessionManager::default();
    sessions.session_config = SessionConfig::default();
    sessions.session_config.keep_alive = None;
    sessions
}

/// rmcp's protocol settings: the body cap, the session mode, and the hosts and origins
/// answered (the loopback names when bound to loopback).
fn protocol_config(options: &HttpServer, local: SocketAddr) -> StreamableHttpServerConfig {
    let loopback = local.ip().is_loopback();
    let hosts = if options.hosts.is_empty() && loopback {
        ["localhost", "127.0.0.1", "::1"]
            .map(str::to_owned)
            .to_vec()
    } else {
        options.hosts.clone()
    };
    let origins = if options.origins.is_empty() && loopback {
        ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"]
            .map(str::to_owned)
            .to_vec()
    } else {
        options.origins.clone()
    };
    let mut config = StreamableHttpServerConfig::default()
        .with_max_request_body_bytes(options.max_body_bytes)
        .with_legacy_session_mode(!options.stateless)
        .with_allowed_hosts(hosts);
    config = if origins.is_empty() {
        config.enforce_origin_validation()
    } else {
        config.with_allowed_origins(origins)
    };
    config
}
