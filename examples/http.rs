//! Streamable HTTP at `/mcp`, as the MCP examples serve it: for this machine only, requests
//! whose `Host` or `Origin` names another being refused (DNS rebinding).

use std::sync::Arc;

use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

/// Serves `server` (a clone per session, or per request when `stateless`) at
/// `http://ADDRESS/mcp`, saying where on stderr as `NAME: serving on http://.../mcp` (which
/// `.ci/run` waits for). Stateless, no session outlives its request, as protocol 2026-07-28
/// serves every request: each carries its client's identity in `_meta`.
pub async fn serve_http<S>(
    server: S,
    address: &str,
    name: &str,
    stateless: bool,
) -> Result<(), Box<dyn std::error::Error>>
where
    S: ServerHandler + Clone + Send + Sync + 'static,
{
    let config = StreamableHttpServerConfig::default()
        .with_allowed_origins(["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"])
        // A call may carry a long text: parse answers it, not the transport.
        .with_max_request_body_bytes(8 << 20)
        .with_legacy_session_mode(!stateless);
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(address).await?;
    eprintln!("{name}: serving on http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, router).await?;
    Ok(())
}
