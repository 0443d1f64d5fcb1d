//! What each request is held to before rmcp reads it: the session table's admission (a new
//! session from a client address, its place reserved until it opens or fails), the request counted in flight on its session and its
//! connection until its answer is sent whole, and its body read whole within the timeout
//! and the cap, and answered as JSON-RPC's parse error when it is not JSON.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request, Response, StatusCode, header};
use axum::middleware::Next;
use futures::StreamExt;

use super::client;
use super::connection::Busy;
use super::sessions::Sessions;
use super::streams::Streams;

/// The connection a request came on: its remote address, and what it has in flight.
#[derive(Clone)]
pub(super) struct Connection {
    pub(super) remote: IpAddr,
    pub(super) busy: Arc<Busy>,
}

/// The limits, shared by every request.
#[derive(Clone)]
pub(super) struct Limits {
    pub(super) sessions: Arc<Sessions>,
    pub(super) streams: Arc<Streams>,
    pub(super) stateful: bool,
    pub(super) max_body_bytes: usize,
    pub(super) body_timeout: Duration,
    pub(super) trusted_proxies: Arc<[IpAddr]>,
    pub(super) forwarded_header: super::ForwardedHeader,
    pub(super) client_prefixes: client::ClientPrefixes,
}

impl Limits {
    /// Admits a new session (a request without `Mcp-Session-Id`) by the table's rules (503,
    /// with a reason and when to try again, when it cannot), and notes it once opened; holds
    /// the request in flight on its session and its connection until its answer is sent whole;
    /// reads the body within the timeout (408) and the cap (413), so that rmcp is handed a
    /// body already whole.
    pub(super) async fn apply(self, request: Request<Body>, next: Next) -> Response<Body> {
        let connection = request.extensions().get::<Connection>().cloned();
        let on_connection = connection
            .as_ref()
            .map(|connection| connection.busy.begin());
        let remote = connection.map_or(IpAddr::from([0, 0, 0, 0]), |c| c.remote);
        let forwarded = (&self.trusted_proxies[..], self.forwarded_header);
        let address = client::address(remote, request.headers(), forwarded);
        let address = self.client_prefixes.client_of(address);
        let session = request
            .headers()
            .get("mcp-session-id")
            .and_then(|id| id.to_str().ok())
            .map(str::to_owned);
        let opens_session = self.stateful && request.method() == Method::POST && session.is_none();
        let reservation = if opens_session {
            match self.sessions.admit(address).await {
                Ok(reservation) => Some(reservation),
                Err(reason) => {
                    let mut refusal = status(StatusCode::SERVICE_UNAVAILABLE, reason);
                    let retry = header::HeaderValue::from_static("5");
                    refusal.headers_mut().insert(header::RETRY_AFTER, retry);
                    // Its body is not read: the connection is not reused for another request.
                    let close = header::HeaderValue::from_static("close");
                    refusal.headers_mut().insert(header::CONNECTION, close);
                    return refusal;
                }
            }
        } else {
            None
        };
        // A session's stream of server messages: a place of the client's streams, not a
        // request that keeps the session busy.
        let opens_stream = self.stateful && request.method() == Method::GET && session.is_some();
        let stream = if opens_stream {
            match self.streams.open(address) {
                Ok(stream) => Some(stream),
                Err(reason) => return status(StatusCode::SERVICE_UNAVAILABLE, reason),
            }
        } else {
            None
        };
        let on_session = match session.as_deref() {
            Some(id) if opens_stream => {
                self.sessions.touch(id);
                None
            }
            Some(id) => Some(self.sessions.begin(id)),
            None => None,
        };
        let request = if request.method() == Method::POST {
            match self.whole_body(request).await {
                Ok(request) => request,
                Err(refusal) => return refusal,
            }
        } else {
            request
        };
        let response = next.run(request).await;
        // The reserved place is the session's once it opened; given back if it did not.
        if let Some(reservation) = reservation
            && let Some(id) = response
                .headers()
                .get("mcp-session-id")
                .and_then(|id| id.to_str().ok())
        {
            reservation.open(id);
        }
        // A stream holds its place and its connection until it ends, idle or not.
        if let Some(stream) = stream {
            let held = (stream, on_connection);
            return response.map(|body| self.streams.ending_when_idle(body, held));
        }
        // The request stays in flight until its answer (a stream, maybe) is sent whole.
        let in_flight = (on_session, on_connection);
        response.map(|body| {
            Body::from_stream(body.into_data_stream().map(move |chunk| {
                let _held = &in_flight;
                chunk
            }))
        })
    }

    /// The request with its body read whole, within the timeout and the cap.
    async fn whole_body(&self, request: Request<Body>) -> Result<Request<Body>, Response<Body>> {
        let (parts, body) = request.into_parts();
        let read = axum::body::to_bytes(body, self.max_body_bytes);
        match tokio::time::timeout(self.body_timeout, read).await {
            Ok(Ok(bytes)) => match serde_json::from_slice::<serde::de::IgnoredAny>(&bytes) {
                Ok(_) => Ok(Request::from_parts(parts, Body::from(bytes))),
                Err(error) => Err(parse_error(&error)),
            },
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

/// A body that is not JSON, answered as JSON-RPC says (`-32700`, Parse error, no `id` to
/// answer), with HTTP 400.
fn parse_error(error: &serde_json::Error) -> Response<Body> {
    let answer = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": format!("Parse error: the body is not JSON ({error})")},
    });
    let mut response = Response::new(Body::from(answer.to_string()));
    *response.status_mut() = StatusCode::BAD_REQUEST;
    let json = header::HeaderValue::from_static("application/json");
    response.headers_mut().insert(header::CONTENT_TYPE, json);
    response
}

/// A plain-text answer with `status`.
fn status(status: StatusCode, reason: String) -> Response<Body> {
    let mut response = Response::new(Body::from(reason));
    *response.status_mut() = status;
    response
}
