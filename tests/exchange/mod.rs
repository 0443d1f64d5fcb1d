//! An MCP exchange written by hand, as the wire has it: the tests of stitch's rmcp servers
//! that must see exactly what a client is sent.

use serde_json::json;

/// Requests written by hand from a client that introduces itself as `client`, answers read as
/// the wire has them.
pub async fn exchange_as<S: stitch::mcp::rmcp::ServerHandler>(
    server: S,
    client: &str,
    requests: Vec<serde_json::Value>,
) -> Vec<serde_json::Value> {
    use stitch::mcp::rmcp::ServiceExt;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let (client_end, transport) = tokio::io::duplex(1 << 20);
    let running = tokio::spawn(async move {
        if let Ok(service) = server.serve(transport).await {
            let _ = service.waiting().await;
        }
    });
    let (read, mut write) = tokio::io::split(client_end);
    let mut lines = BufReader::new(read).lines();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": client, "version": "0"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let mut answers = Vec::new();
    for request in [initialize, initialized].into_iter().chain(requests) {
        let expects_answer = request.get("id").is_some();
        write
            .write_all(format!("{request}\n").as_bytes())
            .await
            .unwrap();
        if expects_answer {
            let line = lines.next_line().await.unwrap().unwrap();
            answers.push(serde_json::from_str(&line).unwrap());
        }
    }
    running.abort();
    answers.remove(0);
    answers
}
