//! A listed tool's digest pins the whole tool: `_meta["stitch/digest"]` is the SHA-256 of the
//! tool's RFC 8785 canonical JSON as listed (its `_meta` without stitch's own keys), computed
//! here again with another JCS implementation and another SHA-256, and it changes when only
//! the tool's annotations do. The catalog stamp follows the digests.
#![cfg(feature = "rmcp")]

mod common;

mod exchange;

use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};
use stitch::Contract;
use stitch::mcp::rmcp::ServerHandler;
use stitch::mcp::rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use stitch::mcp::rmcp::handler::server::tool::ToolCallContext;
use stitch::mcp::rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig, ToolAnnotations};
use stitch::mcp::{ClientDialects, InDialects, Tools};

#[derive(Clone)]
struct Server {
    tool_router: ToolRouter<Self>,
}

/// Look one record up.
#[derive(Contract, Deserialize, Debug)]
#[allow(dead_code, reason = "only deserialized and printed")]
struct Lookup {
    id: u32,
}

impl Server {
    async fn lookup(&self, lookup: Lookup) -> Result<String, String> {
        Ok(format!("{lookup:?}"))
    }
}

#[rmcp::tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// A plain tool that deletes, said so or not.
fn delete(destructive: bool) -> ToolRoute<Server> {
    let Value::Object(schema) =
        json!({"type": "object", "properties": {"id": {"type": "integer"}}})
    else {
        panic!("an object")
    };
    let mut tool =
        stitch::mcp::rmcp::model::Tool::new("delete", "Delete a record.", Arc::new(schema));
    tool.annotations = Some(ToolAnnotations::new().destructive(destructive));
    tool.meta = Some(stitch::mcp::rmcp::model::MetaObject(
        json!({"vendor/owner": "records"})
            .as_object()
            .unwrap()
            .clone(),
    ));
    ToolRoute::new_dyn(tool, |_: ToolCallContext<'_, Server>| {
        Box::pin(async { Ok(CallToolResult::success(Vec::new()).into()) })
    })
}

fn server(destructive: bool) -> InDialects<Server> {
    let stitch = Tools::new()
        .dialects(ClientDialects::new(stitch::Dialect::Mcp))
        .tool(Server::lookup)
        .build()
        .unwrap();
    let listings = stitch.listings();
    let tool_router = ToolRouter::new().with_route(delete(destructive)) + stitch;
    InDialects::new(Server { tool_router }, listings)
}

async fn listed(destructive: bool) -> Vec<Value> {
    let answers = exchange::exchange_as(
        server(destructive),
        "client",
        vec![json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})],
    )
    .await;
    answers[0]["result"]["tools"].as_array().unwrap().clone()
}

/// The digest as this test computes it: the tool as listed, its `_meta` without stitch's
/// keys (and left out when nothing else is in it), canonicalized by RFC 8785 and hashed.
fn independent_digest(tool: &Value) -> String {
    let mut tool = tool.clone();
    let fields = tool.as_object_mut().unwrap();
    if let Some(Value::Object(meta)) = fields.get_mut("_meta") {
        meta.remove("stitch/digest");
        meta.remove("stitch/catalog");
        if meta.is_empty() {
            fields.remove("_meta");
        }
    }
    let canonical = serde_json_canonicalizer::to_vec(&tool).unwrap();
    hmac_sha256::Hash::hash(&canonical)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[tokio::test]
async fn each_listed_tools_digest_is_the_sha256_of_its_canonical_json() {
    let tools = listed(true).await;
    assert_eq!(tools.len(), 2);
    for tool in &tools {
        let digest = tool["_meta"]["stitch/digest"].as_str().expect("a digest");
        assert_eq!(digest.len(), 64);
        assert!(
            digest
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        );
        assert_eq!(digest, independent_digest(tool), "{tool}");
    }
}

#[tokio::test]
async fn a_digest_changes_when_only_the_annotations_do() {
    let (deleting, marked) = (listed(true).await, listed(false).await);
    let of = |tools: &[Value], name: &str, key: &str| {
        tools.iter().find(|tool| tool["name"] == name).unwrap()["_meta"][key].clone()
    };
    assert_ne!(
        of(&deleting, "delete", "stitch/digest"),
        of(&marked, "delete", "stitch/digest"),
        "destructiveHint flipped"
    );
    assert_eq!(
        of(&deleting, "lookup", "stitch/digest"),
        of(&marked, "lookup", "stitch/digest"),
        "an unchanged tool keeps its digest"
    );
    assert_ne!(
        of(&deleting, "delete", "stitch/catalog"),
        of(&marked, "delete", "stitch/catalog"),
        "the catalog stamp follows the digests"
    );
    // The tool's own `_meta` is kept beside stitch's keys.
    assert_eq!(of(&deleting, "delete", "vendor/owner"), "records");
}

every_contract_here!(Lookup);
