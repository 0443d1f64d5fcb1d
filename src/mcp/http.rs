//! Serving an rmcp server over streamable HTTP with what a server on a network needs, each a
//! default a user can change (feature `http`): `TCP_NODELAY` (without it, every response
//! written in more than one segment waits ~40 ms for the client's delayed ACK), a body cap,
//! header (from accept) and body read timeouts, a cap on connections, on connections per
//! remote address, and on sessions (with idle expiry),
//! and the `Host`/`Origin` checks: the loopback names when bound to loopback, an allow-list
//! otherwise. A server is a few lines:
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
//! hyper serves each one (HTTP/1.1 or HTTP/2), axum routes the path, and a middleware reads
//! each body whole within its timeout and cap before rmcp sees it.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, Response, StatusCode, header};
use axum::middleware::Next;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::sync::Semaphore;

use futures::StreamExt;
use sessions::Sessions;

mod sessions;

/// How an MCP server is served over streamable HTTP: its path, its limits, the hosts and
/// origins it answers. Every limit has a default fit for a public server; [`bind`](Self::bind)
/// it to an address, then [`serve`](HttpListener::serve) a server on it.
#[derive(Clone, Debug)]
pub struct HttpServer {
    path: String,
    max_body_bytes: usize,
    header_timeout: Duration,
    body_timeout: Duration,
    max_connections: usize,
    max_connections_per_address: usize,
    max_sessions: usize,
    max_sessions_per_address: usize,
    session_idle: Duration,
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
            max_connections: Self::DEFAULT_MAX_CONNECTIONS,
            max_connections_per_address: Self::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            max_sessions: Self::DEFAULT_MAX_SESSIONS,
            max_sessions_per_address: Self::DEFAULT_MAX_SESSIONS_PER_ADDRESS,
            session_idle: Self::DEFAULT_SESSION_IDLE,
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
    /// A request body that has not arrived in this long is refused (408).
    pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
    /// Connections served at once; one past it is answered 503 and closed.
    pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
    /// Connections served at once from one remote address, so that one client cannot take
    /// them all; one past it is answered 503 and closed.
    pub const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS: usize = 64;
    /// Sessions open at once (each costs some 60 KiB); when the table is full, a new one
    /// takes the place of the least recently active with nothing in flight (503 only when
    /// every one is busy).
    pub const DEFAULT_MAX_SESSIONS: usize = 512;
    /// Sessions one remote address holds at once, so that one client cannot take the table;
    /// a new one past it is refused (503).
    pub const DEFAULT_MAX_SESSIONS_PER_ADDRESS: usize = 64;
    /// A session with nothing in flight this long is closed (a call in flight or an open
    /// stream is activity); its next request is answered 404.
    pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(120);

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

    /// How many sessions may be open at once.
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = sessions;
        self
    }

    /// How many sessions one remote address may hold at once.
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
        let HttpListener {
            listener,
            server: options,
        } = self;
        let local = listener.local_addr()?;
        let manager = Arc::new(session_manager());
        let service = StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::clone(&manager),
            protocol_config(&options, local),
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
        let limits = Limits {
            sessions,
            stateful: !options.stateless,
            max_body_bytes: options.max_body_bytes,
            body_timeout: options.body_timeout,
        };
        let router = axum::Router::new()
            .nest_service(&options.path, service)
            .layer(axum::middleware::from_fn(move |request, next| {
                limits.clone().apply(request, next)
            }));
        let connections = Arc::new(Semaphore::new(options.max_connections));
        let per_address = PerAddress::new(options.max_connections_per_address);
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
            let Some(held) = per_address.take(remote.ip()) else {
                tokio::spawn(refuse(stream));
                continue;
            };
            let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
                tokio::spawn(refuse(stream));
                continue;
            };
            // Without it, a response written in two segments waits for the delayed ACK.
            let _ = stream.set_nodelay(true);
            let service = TowerToHyperService::new(
                router.clone().layer(axum::Extension(Remote(remote.ip()))),
            );
            let header_timeout = options.header_timeout;
            tokio::spawn(async move {
                serve_connection(stream, service, header_timeout).await;
                drop(permit);
                drop(held);
            });
        }
    }
}

/// Serves one accepted connection. The head's time counts from accept: a connection that
/// sends nothing is closed as one that trickles (hyper's own timer starts at the first byte,
/// and is given what is left).
async fn serve_connection(
    stream: TcpStream,
    service: TowerToHyperService<axum::Router>,
    header_timeout: Duration,
) {
    let accepted = tokio::time::Instant::now();
    let mut first = [0u8; 1];
    match tokio::time::timeout(header_timeout, stream.peek(&mut first)).await {
        Ok(Ok(read)) if read > 0 => {}
        _ => return,
    }
    let left = header_timeout
        .saturating_sub(accepted.elapsed())
        .max(Duration::from_millis(1));
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(left);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(header_timeout));
    let _ = builder
        .serve_connection_with_upgrades(TokioIo::new(stream), service)
        .await;
}

/// How many connections each remote address holds, against a cap: one address cannot take
/// every connection the server has.
#[derive(Clone)]
struct PerAddress {
    held: Arc<Mutex<HashMap<IpAddr, usize>>>,
    cap: usize,
}

/// One connection held by an address, given back when dropped.
struct Held {
    of: PerAddress,
    address: IpAddr,
}

impl PerAddress {
    fn new(cap: usize) -> PerAddress {
        PerAddress {
            held: Arc::default(),
            cap,
        }
    }

    /// One more connection for `address`, unless it holds its cap already.
    fn take(&self, address: IpAddr) -> Option<Held> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let count = held.entry(address).or_insert(0);
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(Held {
            of: self.clone(),
            address,
        })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.of.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = held.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.address);
            }
        }
    }
}

/// rmcp's sessions, with no timer of their own: `Sessions` closes them by what they do.
fn session_manager() -> LocalSessionManager {
    let mut sessions = LocalSessionManager::default();
    sessions.session_config = SessionConfig::default();
    sessions.session_config.keep_alive = None;
    sessions
}

/// The remote address of the connection a request came on.
#[derive(Clone, Copy)]
struct Remote(IpAddr);

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

/// What each request is held to before rmcp reads it.
#[derive(Clone)]
struct Limits {
    sessions: Arc<Sessions>,
    stateful: bool,
    max_body_bytes: usize,
    body_timeout: Duration,
}

impl Limits {
    /// Admits a new session (a request without `Mcp-Session-Id`) by the table's rules (503,
    /// with a reason and when to try again, when it cannot), and notes it once opened; holds
    /// a session's request in flight until its answer is sent whole; reads the body within
    /// the timeout (408) and the cap (413), so that rmcp is handed a body already whole.
    async fn apply(self, request: Request<Body>, next: Next) -> Response<Body> {
        let address = request
            .extensions()
            .get::<Remote>()
            .map_or(IpAddr::from([0, 0, 0, 0]), |remote| remote.0);
        let session = request
            .headers()
            .get("mcp-session-id")
            .and_then(|id| id.to_str().ok())
            .map(str::to_owned);
        let opens_session = self.stateful && request.method() == Method::POST && session.is_none();
        if opens_session && let Err(reason) = self.sessions.admit(address).await {
            let mut refusal = status(StatusCode::SERVICE_UNAVAILABLE, reason);
            let retry = header::HeaderValue::from_static("5");
            refusal.headers_mut().insert(header::RETRY_AFTER, retry);
            // Its body is not read: the connection is not reused for another request.
            let close = header::HeaderValue::from_static("close");
            refusal.headers_mut().insert(header::CONNECTION, close);
            return refusal;
        }
        let in_flight = session.as_deref().map(|id| self.sessions.begin(id));
        let request = if request.method() == Method::POST {
            match self.whole_body(request).await {
                Ok(request) => request,
                Err(refusal) => return refusal,
            }
        } else {
            request
        };
        let response = next.run(request).await;
        if opens_session
            && let Some(id) = response
                .headers()
                .get("mcp-session-id")
                .and_then(|id| id.to_str().ok())
        {
            self.sessions.opened(id, address);
        }
        match in_flight {
            // The request stays in flight until its answer (a stream, maybe) is sent whole.
            Some(in_flight) => response.map(|body| {
                Body::from_stream(body.into_data_stream().map(move |chunk| {
                    let _held = &in_flight;
                    chunk
                }))
            }),
            None => response,
        }
    }

    /// The request with its body read whole, within the timeout and the cap.
    async fn whole_body(&self, request: Request<Body>) -> Result<Request<Body>, Response<Body>> {
        let (parts, body) = request.into_parts();
        let read = axum::body::to_bytes(body, self.max_body_bytes);
        match tokio::time::timeout(self.body_timeout, read).await {
            Ok(Ok(bytes)) => Ok(Request::from_parts(parts, Body::from(bytes))),
            Ok(Err(_)) => {
                let reason = format!("the body is over {} bytes", self.max_body_bytes);
                Err(status(StatusCode::PAYLOAD_TOO_LARGE, reason))
            }
            Err(_) => {
                let reason = format!(
                    "the body did not arrive within {} ms",
                    self.body_timeout.as_millis()
                );
                Err(status(StatusCode::REQUEST_TIMEOUT, reason))
            }
        }
    }
}

/// A plain-text answer with `status`.
fn status(status: StatusCode, reason: String) -> Response<Body> {
    let mut response = Response::new(Body::from(reason));
    *response.status_mut() = status;
    response
}

/// Answers a connection past the cap with 503 and closes it.
async fn refuse(mut stream: TcpStream) {
    let answer = "HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\nconnection: close\r\n\
                  content-length: 0\r\n\r\n";
    let _ = stream.write_all(answer.as_bytes()).await;
    let _ = stream.shutdown().await;
}
