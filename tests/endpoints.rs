//! Which schema reaches which model over HTTP: a path per dialect beside `/mcp`, and cache
//! hints that are true. Driven over raw TCP, as a client and a shared cache meet the server:
//! the cache keys a `"public"` listing as the specification does (the endpoint, the method and
//! its parameters; not the client's name), so a listing that differs by client must not be
//! `"public"`.
#![cfg(feature = "http")]

mod common;

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;

use serde::Deserialize;
use serde_json::{Value, json};
use stitch::mcp::{ClientDialects, HttpServer, Toolbox, Tools};
use stitch::{Contract, Dialect};

mod raw_http;

use raw_http::{listed_at, open, post};

/// Label a record.
#[derive(Contract, Deserialize, Debug)]
#[allow(dead_code, reason = "only deserialized and printed")]
struct Label {
    /// The labels, by name.
    labels: BTreeMap<String, String>,
    /// A note.
    note: Option<String>,
}

fn toolbox() -> Toolbox {
    Tools::new()
        .dialects(ClientDialects::new(Dialect::Mcp).client("strict-agent", Dialect::OpenAiStrict))
        .tool(|label: Label| async move { Ok::<_, String>(format!("{label:?}")) })
        .toolbox("labels", "0.0.0")
        .unwrap()
}

async fn serve() -> SocketAddr {
    let listener = HttpServer::new().bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(listener.serve(toolbox()));
    address
}

/// A cache shared by every client in front of the server, keyed as the specification keys a
/// `"public"` answer: the endpoint, the method and its parameters.
#[derive(Default)]
struct SharedCache {
    held: HashMap<(String, String, String), Value>,
}

impl SharedCache {
    /// The `tools/list` answer a client named `client` gets at `path` through the cache.
    async fn list(&mut self, server: SocketAddr, path: &str, client: &str) -> Value {
        let key = (path.to_owned(), "tools/list".to_owned(), "{}".to_owned());
        if let Some(held) = self.held.get(&key) {
            return held.clone();
        }
        let result = listed_at(server, path, client).await;
        if result["cacheScope"] == "public" {
            self.held.insert(key, result.clone());
        }
        result
    }
}

fn input_schema(listed: &Value) -> &Value {
    &listed["tools"][0]["inputSchema"]
}

fn shown(dialect: Dialect) -> Value {
    serde_json::from_str(Label::input_schema_for(dialect)).unwrap()
}

#[tokio::test]
async fn two_clients_of_different_dialects_behind_one_cache_each_get_their_own() {
    let server = serve().await;
    let mut cache = SharedCache::default();
    // At `/mcp` the name decides: the listing differs by client, so nobody may share it.
    let strict = cache.list(server, "/mcp", "strict-agent").await;
    let plain = cache.list(server, "/mcp", "inspector").await;
    assert_eq!(strict["cacheScope"], "private", "{strict}");
    assert_eq!(*input_schema(&strict), shown(Dialect::OpenAiStrict));
    assert_eq!(*input_schema(&plain), shown(Dialect::Mcp), "{plain}");
    // A path per dialect: the same for every caller of it, so public, and each its own.
    let fixed = cache.list(server, "/mcp/openai-strict", "inspector").await;
    assert_eq!(fixed["cacheScope"], "public", "{fixed}");
    assert!(fixed["ttlMs"].as_u64().is_some_and(|ttl| ttl > 0));
    assert_eq!(*input_schema(&fixed), shown(Dialect::OpenAiStrict));
    let portable = cache.list(server, "/mcp/portable", "strict-agent").await;
    assert_eq!(*input_schema(&portable), shown(Dialect::Portable));
    // Served from the cache now, and still right for any caller of that path.
    let again = cache
        .list(server, "/mcp/openai-strict", "strict-agent")
        .await;
    assert_eq!(*input_schema(&again), shown(Dialect::OpenAiStrict));
}

#[tokio::test]
async fn a_path_per_dialect_parses_every_caller_in_it_whatever_its_name() {
    let server = serve().await;
    // A map sent as its entries, as a strict client sends it.
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "label", "arguments": {"labels": [{"key": "kind", "value": "invoice"}]}}});
    for (path, taken) in [
        ("/mcp/anthropic-strict", true),
        ("/mcp/openai-strict", true),
        ("/mcp/mcp", false),
        ("/mcp", false),
    ] {
        // A name the rules show `mcp`.
        let session = open(server, path, "inspector").await;
        let (_, answer) = post(server, path, Some(&session), &call).await;
        let result = &answer["result"];
        assert_eq!(result["isError"] != true, taken, "{path}: {answer}");
    }
}

#[tokio::test]
async fn an_unknown_dialect_path_is_not_served() {
    let server = serve().await;
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "x", "version": "0"}}});
    let (head, _) = post(server, "/mcp/gpt", None, &initialize).await;
    assert!(head.starts_with("HTTP/1.1 404"), "{head}");
}

every_contract_here!(Label);
