//! A gateway's memory under calls: `InDialects` around a server whose plain tool changes its
//! schema at every listing, 20,000 calls from a client shown OpenAI's strict dialect (so each
//! call's arguments are read back by the tool's own schema, a foreign document read into the
//! IR per call). Prints the resident memory after 1,000 calls (warm) and after 20,000, and the
//! time per call; a gateway holds nothing per call or per listing.
//!
//! `cargo bench -p stitch-bench --bench gateway` prints what BENCHMARKS.md holds.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde_json::{Value, json};
use stitch::Dialect;
use stitch::mcp::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use stitch::mcp::rmcp::service::RequestContext;
use stitch::mcp::rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use stitch::mcp::{ClientDialects, InDialects};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// A plain rmcp server whose one tool's schema is new at every listing.
#[derive(Clone, Default)]
struct Changing {
    listings: Arc<AtomicUsize>,
}

impl ServerHandler for Changing {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![self.tool()]))
    }

    fn get_tool(&self, _: &str) -> Option<Tool> {
        Some(self.tool())
    }

    async fn call_tool(
        &self,
        _: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(CallToolResult::success(vec![]).into())
    }
}

impl Changing {
    fn tool(&self) -> Tool {
        let n = self.listings.fetch_add(1, Ordering::Relaxed);
        let Value::Object(schema) = json!({"type": "object", "properties": {
            "action": {"oneOf": [
                {"type": "object", "properties": {"op": {"const": "set"}, "value": {"type": "integer", "description": format!("listing {n}")}}, "required": ["op", "value"]},
                {"type": "object", "properties": {"op": {"const": "clear"}}, "required": ["op"]}
            ]},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        }, "required": ["action"]}) else {
            unreachable!()
        };
        Tool::new("changing", "Changes at every listing.", Arc::new(schema))
    }
}

/// The resident set, in MB.
fn resident() -> f64 {
    stitch_bench::resident_bytes() as f64 / 1e6
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let dialects = ClientDialects::new(Dialect::Mcp).client("strict-agent", Dialect::OpenAiStrict);
    let server = InDialects::new(Changing::default(), dialects);
    let (client_end, transport) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(service) = server.serve(transport).await {
            let _ = service.waiting().await;
        }
    });
    let (read, mut write) = tokio::io::split(client_end);
    let mut lines = BufReader::new(read).lines();
    let mut send = async |request: Value| {
        write
            .write_all(format!("{request}\n").as_bytes())
            .await
            .unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "strict-agent", "version": "0"}}}),
    )
    .await;
    lines.next_line().await.unwrap();
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    let call = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "changing",
            "arguments": {"action": {"op": "set", "value": id}, "labels": [{"key": "a", "value": "b"}]}}})
    };
    let mut warm = 0.0;
    let started = Instant::now();
    let mut timed_from = started;
    for id in 1..=20_000u64 {
        send(call(id)).await;
        let answer = lines.next_line().await.unwrap().unwrap();
        assert!(answer.contains("\"result\""), "{answer}");
        if id == 1_000 {
            warm = resident();
            timed_from = Instant::now();
        }
    }
    let per_call = timed_from.elapsed().as_secs_f64() / 19_000.0;
    let last = resident();
    println!(
        "20,000 calls through InDialects (openai-strict, a schema new at every listing): \
         resident memory {warm:.1} MB after 1,000, {last:.1} MB after 20,000 ({:+.1} MB); \
         {:.1} µs per call",
        last - warm,
        per_call * 1e6
    );
}
