//! An MCP client over raw HTTP, as a cache or a proxy meets the server: one POST per
//! connection, the answer's head read as text and its body's JSON (a JSON body, or the first
//! server-sent event's data). Shared by the workspace's tests and the outside crate.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One POST to `path` (in the session `session`, if any): the answer's head and its JSON.
pub async fn post(
    server: SocketAddr,
    path: &str,
    session: Option<&str>,
    body: &Value,
) -> (String, Value) {
    let body = body.to_string();
    let session = session.map_or(String::new(), |id| format!("Mcp-Session-Id: {id}\r\n"));
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n{session}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let Ok(mut stream) = TcpStream::connect(server).await else {
        return ("no connection".to_owned(), Value::Null);
    };
    if stream.write_all(request.as_bytes()).await.is_err() {
        return ("refused".to_owned(), Value::Null);
    }
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, rest) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let json = rest
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .chain(rest.lines().filter(|line| line.starts_with('{')))
        .find_map(|data| serde_json::from_str(data.trim()).ok())
        .unwrap_or(Value::Null);
    (head.to_owned(), json)
}

/// A session opened at `path` by a client named `client`: its id (empty when none was given).
pub async fn open(server: SocketAddr, path: &str, client: &str) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": client, "version": "0"}}});
    let (head, _) = post(server, path, None, &initialize).await;
    let id = head
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        })
        .unwrap_or_default();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    post(server, path, Some(&id), &initialized).await;
    id
}

/// The `tools/list` result a client named `client` gets at `path`, in a session of its own.
pub async fn listed_at(server: SocketAddr, path: &str, client: &str) -> Value {
    let session = open(server, path, client).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}});
    post(server, path, Some(&session), &list).await.1["result"].clone()
}
