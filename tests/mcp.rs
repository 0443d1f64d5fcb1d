//! The `rmcp` feature: contracts mounted as MCP tools, bad calls answered as `isError`
//! results with their pointers, handler errors too, the observer seeing every call, and the
//! guard run over every mounted tool when the toolbox is built.
#![cfg(feature = "rmcp")]

mod common;

use std::sync::{Arc, Mutex};

use common::record_into;
use serde::{Deserialize, Serialize};
use serde_json::json;
use stitch::mcp::{Json, Toolbox, Tools};
use stitch::{Contract, SchemaProfile, guard::FindingKind};

/// Add two numbers.
#[derive(Contract, Deserialize)]
struct Add {
    #[contract(min = 0)]
    a: i64,
    b: i64,
}

/// The sum.
#[derive(Contract, Serialize, Deserialize)]
struct Sum {
    total: i64,
}

/// Store a blob.
#[derive(Contract, Deserialize)]
#[allow(dead_code)]
struct Put {
    #[contract(opaque)]
    blob: std::time::Duration,
}

fn toolbox(log: Arc<Mutex<Vec<String>>>) -> Toolbox {
    Tools::new()
        .tool(|add: Add| async move {
            if add.b == 13 {
                Err("unlucky".to_owned())
            } else {
                Ok(Json(Sum {
                    total: add.a + add.b,
                }))
            }
        })
        .observe(record_into(log))
        .toolbox("test", "0.0.0")
        .unwrap()
}

#[tokio::test]
async fn calls_are_parsed_answered_and_observed() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let tools = toolbox(Arc::clone(&log));

    let ok = tools.call("add", json!({"a": 1, "b": 2})).await.unwrap();
    assert_eq!(ok.is_error, Some(false));
    assert_eq!(ok.structured_content, Some(json!({"total": 3})));

    // `add` has an output schema: clients validate `structuredContent` against it even on an
    // error result, so a rejection carries its issues in the text and in `_meta`.
    let bad = tools.call("add", json!({"a": "1", "b": 2})).await.unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(bad.structured_content, None);
    let meta = bad.meta.as_ref().unwrap();
    let structured = &meta.0[stitch::mcp::REJECTION_META_KEY];
    assert_eq!(structured["code"], "VALIDATION_ERROR");
    assert_eq!(structured["issues"][0]["pointer"], "/a");
    let text = serde_json::to_value(&bad.content).unwrap();
    assert!(
        text[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("/a: expected integer")
    );

    let failed = tools.call("add", json!({"a": 1, "b": 13})).await.unwrap();
    assert_eq!(failed.is_error, Some(true));

    assert!(
        tools.call("nope", json!({})).await.is_err(),
        "an unknown tool is a protocol error"
    );
    assert_eq!(
        *log.lock().unwrap(),
        ["add accepted", "add rejected /a", "add failed unlucky"]
    );
}

#[tokio::test]
async fn a_rejection_without_an_output_schema_is_structured_content() {
    let tools = Tools::new()
        .tool(|add: Add| async move { Ok::<_, String>((add.a + add.b).to_string()) })
        .toolbox("test", "0.0.0")
        .unwrap();
    let bad = tools.call("add", json!({"a": -1, "b": 2})).await.unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(bad.meta, None);
    let structured = bad.structured_content.unwrap();
    assert_eq!(structured["issues"][0]["pointer"], "/a");
    assert_eq!(structured["issues"][0]["code"], "minimum");
}

/// Two ways a sum can come back: a tagged union advertises its flat object.
#[derive(Contract, Serialize, Deserialize)]
#[serde(tag = "kind")]
enum Outcome2 {
    Exact { total: i64 },
    Overflow { message: String },
}

#[test]
fn an_output_schema_is_the_advertised_object_and_must_be_one() {
    let tools = Tools::new()
        .tool(|add: Add| async move {
            Ok::<_, String>(Json(Outcome2::Exact {
                total: add.a + add.b,
            }))
        })
        .toolbox("test", "0.0.0")
        .unwrap()
        .tools();
    let output = serde_json::Value::Object((**tools[0].output_schema.as_ref().unwrap()).clone());
    assert_eq!(output["type"], "object");
    assert_eq!(
        output["properties"]["kind"]["enum"],
        json!(["Exact", "Overflow"])
    );

    let findings = Tools::new()
        .tool(|_: Add| async { Ok::<_, String>(Json(vec!["a".to_owned()])) })
        .toolbox("test", "0.0.0")
        .err()
        .expect("a list is no output schema");
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].kind(), FindingKind::NotAnObject);
    let message = findings[0].to_string();
    assert!(
        message.contains("output schema must be an object")
            && message.contains("alloc::vec::Vec<alloc::string::String>"),
        "{message}"
    );
}

#[test]
fn tools_advertise_the_flat_input_and_the_declared_output() {
    let tools = toolbox(Arc::default()).tools();
    assert_eq!(tools.len(), 1);
    let add = &tools[0];
    assert_eq!(add.name, "add");
    assert_eq!(add.description.as_deref(), Some("Add two numbers."));
    assert_eq!(
        serde_json::Value::Object((*add.input_schema).clone()),
        serde_json::from_str::<serde_json::Value>(Add::INPUT_SCHEMA).unwrap()
    );
    let output = add.output_schema.as_ref().unwrap();
    assert_eq!(output["properties"]["total"], json!({"type": "integer"}));
}

#[test]
fn the_guard_runs_over_every_mounted_tool() {
    let duplicate = Tools::new()
        .tool(|_: Add| async { Ok::<_, String>("0") })
        .tool(|_: Add| async { Ok::<_, String>("0") })
        .toolbox("test", "0.0.0")
        .err()
        .unwrap();
    assert_eq!(duplicate[0].kind(), FindingKind::DuplicateName);

    let untyped = Tools::new()
        .profile(SchemaProfile::new().require_typed_properties())
        .tool(|_: Put| async { Ok::<_, String>("0") })
        .toolbox("test", "0.0.0")
        .err()
        .unwrap();
    assert_eq!(untyped[0].kind(), FindingKind::Untyped);
    assert_eq!(untyped[0].path(), "blob");

    assert!(
        Tools::new()
            .tool(|_: Put| async { Ok::<_, String>("0") })
            .toolbox("test", "0.0.0")
            .is_ok(),
        "the profile is the server author's choice"
    );
}

/// An rmcp server of its own, as `#[tool_router]` and `#[tool_handler]` write one: stitch
/// tools (methods of the server) in the same router as a plain rmcp tool.
mod rmcp_server {
    use std::sync::{Arc, Mutex};

    use serde_json::{Value, json};
    use stitch::mcp::rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
    use stitch::mcp::rmcp::handler::server::tool::ToolCallContext;
    use stitch::mcp::rmcp::model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
        PaginatedRequestParams, ServerCapabilities, ServerConfig,
    };
    use stitch::mcp::rmcp::service::RequestContext;
    use stitch::mcp::rmcp::{ErrorData, RoleServer, ServerHandler};
    use stitch::mcp::{Json, Tools, check_router};
    use stitch::{SchemaProfile, guard::FindingKind};

    use super::{Add, Put, Sum, record_into};

    #[derive(Clone)]
    pub struct Calculator {
        offset: i64,
        tool_router: ToolRouter<Self>,
        seen: Arc<Mutex<Vec<String>>>,
    }

    impl Calculator {
        async fn add(&self, add: Add) -> Result<Json<Sum>, String> {
            if add.b == 13 {
                return Err("unlucky".to_owned());
            }
            Ok(Json(Sum {
                total: self.offset + add.a + add.b,
            }))
        }

        fn new() -> Self {
            let seen = Arc::new(Mutex::new(Vec::new()));
            let stitch = Tools::new()
                .profile(SchemaProfile::new().require_typed_properties())
                .observe(record_into(Arc::clone(&seen)))
                .tool(Self::add)
                .build()
                .unwrap();
            let plain = ToolRouter::new().with_route(plain_tool("ping", json!({"type": "object"})));
            Calculator {
                offset: 100,
                tool_router: plain + stitch,
                seen,
            }
        }
    }

    /// A plain rmcp tool answering "pong", with this input schema.
    fn plain_tool(name: &'static str, schema: Value) -> ToolRoute<Calculator> {
        let Value::Object(schema) = schema else {
            panic!("a schema object")
        };
        ToolRoute::new_dyn(
            stitch::mcp::rmcp::model::Tool::new(name, "Answer pong.", Arc::new(schema)),
            |_context: ToolCallContext<'_, Calculator>| {
                Box::pin(async {
                    Ok(CallToolResult::success(vec![ContentBlock::text("pong")]).into())
                })
            },
        )
    }

    /// What `#[tool_handler]` writes.
    impl ServerHandler for Calculator {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }

        async fn list_tools(
            &self,
            _request: Option<PaginatedRequestParams>,
            _context: RequestContext<RoleServer>,
        ) -> Result<ListToolsResult, ErrorData> {
            Ok(ListToolsResult::with_all_items(self.tool_router.list_all()))
        }

        async fn call_tool(
            &self,
            request: CallToolRequestParams,
            context: RequestContext<RoleServer>,
        ) -> Result<CallToolResponse, ErrorData> {
            self.tool_router
                .call(ToolCallContext::new(self, request, context))
                .await
        }
    }

    async fn exchange(server: Calculator, requests: Vec<Value>) -> Vec<Value> {
        super::exchange_as(server, "test", requests).await
    }

    fn call(id: u32, name: &str, arguments: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": name, "arguments": arguments}})
    }

    #[tokio::test]
    async fn stitch_tools_are_routes_of_an_ordinary_rmcp_server() {
        let server = Calculator::new();
        let seen = Arc::clone(&server.seen);
        let answers = exchange(
            server,
            vec![
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
                call(2, "add", json!({"a": 1, "b": 2})),
                call(3, "add", json!({"a": "1", "b": 2})),
                call(4, "add", json!({"a": 1, "b": 13})),
                call(5, "ping", json!({})),
            ],
        )
        .await;
        let tools = answers[0]["result"]["tools"].as_array().unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["add", "ping"]);
        assert_eq!(
            tools[0]["inputSchema"].to_string(),
            <Add as stitch::Contract>::input_schema(),
            "the flat schema, as rendered"
        );
        assert_eq!(
            answers[1]["result"]["structuredContent"],
            json!({"total": 103})
        );
        let rejected = &answers[2]["result"];
        assert_eq!(rejected["isError"], true);
        assert_eq!(
            rejected.get("structuredContent"),
            None,
            "an output schema holds it"
        );
        assert_eq!(
            rejected["_meta"]["stitch/rejection"]["issues"][0]["pointer"],
            "/a"
        );
        assert_eq!(answers[3]["result"]["isError"], true);
        assert_eq!(answers[3]["result"]["content"][0]["text"], "unlucky");
        assert_eq!(answers[4]["result"]["content"][0]["text"], "pong");
        assert_eq!(
            *seen.lock().unwrap(),
            ["add accepted", "add rejected /a", "add failed unlucky"],
            "the observer sees every call of a stitch tool"
        );
    }

    impl Calculator {
        async fn put(&self, _put: Put) -> Result<String, String> {
            Ok(self.offset.to_string())
        }
    }

    #[test]
    fn the_guard_runs_when_the_stitch_routes_are_built() {
        let built = Tools::<Calculator>::new()
            .profile(SchemaProfile::new().require_typed_properties())
            .tool(Calculator::put)
            .build();
        let Err(findings) = built else {
            panic!("an opaque field is untyped, so the build must fail");
        };
        assert_eq!(findings[0].kind(), FindingKind::Untyped);
        let mut router = Calculator::new().tool_router;
        let whole = check_router(&router, &SchemaProfile::new());
        assert!(whole.is_empty(), "{whole:?}");
        router.add_route(plain_tool("untyped", json!({"properties": {"x": {}}})));
        let typed = SchemaProfile::new().require_typed_properties();
        let kinds: Vec<(FindingKind, String)> = check_router(&router, &typed)
            .iter()
            .map(|finding| {
                (
                    finding.kind(),
                    format!("{}.{}", finding.tool(), finding.path()),
                )
            })
            .collect();
        assert_eq!(
            kinds,
            [
                (FindingKind::NotAnObject, "untyped.".to_owned()),
                (FindingKind::Untyped, "untyped.x".to_owned()),
            ],
            "a plain rmcp tool is held to the profile too"
        );
    }
}

/// Requests written by hand from a client that introduces itself as `client`, answers read as
/// the wire has them.
async fn exchange_as<S: stitch::mcp::rmcp::ServerHandler>(
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

/// Each client is shown its dialect and held to it: one toolbox, two clients.
mod per_client_dialects {
    use std::collections::BTreeMap;

    use serde::Deserialize;
    use serde_json::{Value, json};
    use stitch::mcp::{ClientDialects, Toolbox, Tools};
    use stitch::{Contract, Dialect, guard::FindingKind};

    /// Change a setting (no other key).
    #[derive(Contract, Deserialize, Debug)]
    #[serde(tag = "op", deny_unknown_fields)]
    pub enum Setting {
        Rename { name: String },
        Resize { width: u32, height: Option<u32> },
    }

    /// Settings by name (a map, which strict mode says as its entries), and a free value,
    /// which it cannot say.
    #[derive(Contract, Deserialize, Debug)]
    pub struct Bulk {
        pub values: BTreeMap<String, u32>,
        #[contract(opaque)]
        pub extra: Option<serde_json::Value>,
    }

    fn toolbox() -> Toolbox {
        Tools::new()
            .dialects(
                ClientDialects::new(Dialect::Mcp).client("strict-agent", Dialect::OpenAiStrict),
            )
            .tool(|setting: Setting| async move { Ok::<_, String>(format!("{setting:?}")) })
            .toolbox("settings", "0.0.0")
            .unwrap()
    }

    pub(super) fn requests() -> Vec<Value> {
        let filled = json!({"op": "Rename", "name": "n", "width": null, "height": null});
        vec![
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                   "params": {"name": "setting", "arguments": filled}}),
        ]
    }

    #[tokio::test]
    async fn each_client_is_listed_its_dialect_and_parsed_in_it() {
        let strict = super::exchange_as(toolbox(), "Strict-Agent", requests()).await;
        let plain = super::exchange_as(toolbox(), "inspector", requests()).await;
        let schema = |answers: &[Value]| answers[0]["result"]["tools"][0]["inputSchema"].clone();
        assert_eq!(
            schema(&strict),
            serde_json::from_str::<Value>(Setting::input_schema_for(Dialect::OpenAiStrict))
                .unwrap()
        );
        assert_eq!(
            schema(&plain),
            serde_json::from_str::<Value>(Setting::INPUT_SCHEMA).unwrap()
        );
        assert_eq!(
            schema(&strict)["required"],
            json!(["op", "name", "width", "height"])
        );
        // The strict client's nulls mean absence; the plain client sent keys `Rename` denies.
        assert_eq!(strict[1]["result"]["isError"], false, "{}", strict[1]);
        assert_eq!(
            strict[1]["result"]["content"][0]["text"],
            "Rename { name: \"n\" }"
        );
        assert_eq!(plain[1]["result"]["isError"], true);
        assert_eq!(
            plain[1]["result"]["structuredContent"]["issues"][0]["code"],
            "unknown_key"
        );
    }

    #[test]
    fn the_guard_checks_every_dialect_a_server_shows_when_the_profile_asks() {
        let shown = |dialects: ClientDialects| {
            Tools::new()
                .profile(stitch::SchemaProfile::new().require_expressible())
                .dialects(dialects)
                .tool(|bulk: Bulk| async move {
                    Ok::<_, String>(format!("{} {}", bulk.values.len(), bulk.extra.is_some()))
                })
                .toolbox("settings", "0.0.0")
                .err()
                .unwrap_or_default()
        };
        assert!(shown(ClientDialects::new(Dialect::Mcp)).is_empty());
        let findings =
            shown(ClientDialects::new(Dialect::Mcp).client("agent", Dialect::AnthropicStrict));
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].kind(), FindingKind::Inexpressible);
        assert_eq!(findings[0].path(), "extra");
        assert!(
            findings[0]
                .why()
                .starts_with("in the anthropic-strict dialect")
        );
        // Without the profile's asking, the dialect says what it can, and the server starts.
        let unasked = Tools::new()
            .dialects(ClientDialects::new(Dialect::Mcp).client("agent", Dialect::AnthropicStrict))
            .tool(|bulk: Bulk| async move {
                Ok::<_, String>(format!("{} {}", bulk.values.len(), bulk.extra.is_some()))
            })
            .toolbox("settings", "0.0.0");
        assert!(unasked.is_ok());
    }
}

/// One line around a server: every tool, stitch's and a plain rmcp tool with a schema stitch
/// did not write, listed to each client in its dialect, inputs and outputs.
mod in_dialects {
    use std::sync::Arc;

    use serde_json::{Value, json};
    use stitch::mcp::rmcp::ServerHandler;
    use stitch::mcp::rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
    use stitch::mcp::rmcp::handler::server::tool::ToolCallContext;
    use stitch::mcp::rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig};
    use stitch::mcp::{ClientDialects, InDialects, Listings, Tools};
    use stitch::{Contract, Dialect};

    use super::per_client_dialects::Setting;

    #[derive(Clone)]
    struct Server {
        tool_router: ToolRouter<Self>,
    }

    impl Server {
        async fn setting(&self, setting: Setting) -> Result<String, String> {
            Ok(format!("{setting:?}"))
        }
    }

    /// A plain tool whose schema is a `oneOf` of two operations, each with an optional key,
    /// and whose output holds a `null`; it answers with the arguments it was given.
    fn plain_tool() -> ToolRoute<Server> {
        let schema = json!({"type": "object", "oneOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}, "n": {"type": "integer"}},
             "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "b"}, "s": {"type": ["string", "null"]}},
             "required": ["kind", "s"]}
        ]});
        let output = json!({"type": "object", "properties": {"got": {"type": ["object", "null"]}}});
        let (Value::Object(schema), Value::Object(output)) = (schema, output) else {
            panic!("schema objects")
        };
        let mut tool = stitch::mcp::rmcp::model::Tool::new("plain", "Echo.", Arc::new(schema));
        tool.output_schema = Some(Arc::new(output));
        ToolRoute::new_dyn(tool, |context: ToolCallContext<'_, Server>| {
            let got = Value::Object(context.arguments.clone().unwrap_or_default());
            Box::pin(async move { Ok(CallToolResult::structured(json!({"got": got})).into()) })
        })
    }

    fn server(rules: ClientDialects) -> (Server, Listings) {
        let stitch = Tools::new()
            .dialects(rules)
            .tool(Server::setting)
            .build()
            .unwrap();
        let listings = stitch.listings();
        let tool_router = ToolRouter::new().with_route(plain_tool()) + stitch;
        (Server { tool_router }, listings)
    }

    #[rmcp::tool_handler(router = self.tool_router)]
    impl ServerHandler for Server {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }
    }

    fn rules() -> ClientDialects {
        ClientDialects::new(Dialect::Mcp)
            .client("cursor-vscode", Dialect::Portable)
            .client("strict-agent", Dialect::OpenAiStrict)
    }

    /// The listing and the strict call of `per_client_dialects`, then a call of the plain tool.
    fn requests() -> Vec<Value> {
        let mut requests = super::per_client_dialects::requests();
        requests.push(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                   "params": {"name": "plain", "arguments": {"kind": "a", "n": 1, "s": null}}}));
        requests
    }

    fn listed<'a>(answers: &'a [Value], name: &str) -> &'a Value {
        let tools = answers[0]["result"]["tools"].as_array().unwrap();
        tools.iter().find(|tool| tool["name"] == name).unwrap()
    }

    #[tokio::test]
    async fn every_tool_is_listed_to_each_client_in_its_dialect() {
        let (plain, listings) = server(rules());
        let portable = super::exchange_as(
            InDialects::new(plain, listings),
            "Cursor-VSCode",
            requests(),
        )
        .await;
        let input = &listed(&portable, "plain")["inputSchema"];
        let foreign = Value::Object((*plain_tool().attr.input_schema).clone());
        assert_eq!(
            *input,
            stitch::foreign::tool_schema_for(&foreign, Dialect::Portable)
        );
        assert_eq!(input["properties"]["kind"]["enum"], json!(["a", "b"]));
        assert_eq!(input["properties"]["n"]["type"], "integer");
        assert!(!input.to_string().contains("oneOf"));
        let output = &listed(&portable, "plain")["outputSchema"];
        assert_eq!(
            output["properties"]["got"]["anyOf"],
            json!([{"type": "object", "properties": {}, "required": []}, {"type": "null"}])
        );
        assert_eq!(
            listed(&portable, "setting")["inputSchema"],
            serde_json::from_str::<Value>(Setting::input_schema_for(Dialect::Portable)).unwrap()
        );
        // An `Mcp` client: the stitch tool as advertised, the plain one rebuilt (it holds a
        // `oneOf`).
        let (plain, listings) = server(rules());
        let mcp = super::exchange_as(InDialects::new(plain, listings), "other", requests()).await;
        assert_eq!(
            listed(&mcp, "setting")["inputSchema"],
            serde_json::from_str::<Value>(Setting::INPUT_SCHEMA).unwrap()
        );
        assert_eq!(
            listed(&mcp, "plain")["inputSchema"],
            stitch::foreign::flatten_tool_schema(&foreign)
        );
    }

    #[tokio::test]
    async fn a_strict_client_is_parsed_in_its_dialect_and_its_nulls_read_as_absence() {
        let (plain, listings) = server(rules());
        let strict =
            super::exchange_as(InDialects::new(plain, listings), "strict-agent", requests()).await;
        assert_eq!(strict[1]["result"]["isError"], false, "{}", strict[1]);
        // The plain tool gets what its schema means: `s` belongs to the other operation.
        assert_eq!(
            strict[2]["result"]["structuredContent"]["got"],
            json!({"kind": "a", "n": 1})
        );
    }

    /// The stamp of every tool of a listing (asserted to be one) and of each result.
    fn stamps(answers: &[Value]) -> (String, Vec<Value>) {
        let tools = answers[0]["result"]["tools"].as_array().unwrap();
        let listed: Vec<&Value> = tools
            .iter()
            .map(|tool| &tool["_meta"]["stitch/catalog"])
            .collect();
        assert!(listed.iter().all(|stamp| *stamp == listed[0]), "{listed:?}");
        let stamp = listed[0].as_str().expect("a stamp").to_owned();
        assert_eq!(stamp.len(), 16);
        let results = answers[1..]
            .iter()
            .map(|answer| answer["result"]["_meta"]["stitch/catalog"].clone())
            .collect();
        (stamp, results)
    }

    #[tokio::test]
    async fn every_listed_tool_and_every_result_carries_the_catalog_stamp() {
        let (plain, listings) = server(rules());
        let mcp = super::exchange_as(InDialects::new(plain, listings), "other", requests()).await;
        let (stamp, results) = stamps(&mcp);
        assert_eq!(
            results,
            [json!(stamp), json!(stamp)],
            "a stitch tool's and a plain one's"
        );
        // A client shown another dialect is listed other schemas: another catalog.
        let (plain, listings) = server(rules());
        let portable = super::exchange_as(
            InDialects::new(plain, listings.clone()),
            "Cursor-VSCode",
            requests(),
        )
        .await;
        let (portable_stamp, results) = stamps(&portable);
        assert_ne!(portable_stamp, stamp);
        assert_eq!(results, [json!(portable_stamp), json!(portable_stamp)]);
        // The manifest says the same stamps.
        let (plain, _) = server(rules());
        let manifest = listings.manifest(&plain.tool_router);
        assert!(
            manifest.contains(&format!("\nmcp catalog {stamp}\n")),
            "{manifest}"
        );
        assert!(manifest.contains(&format!("\nportable catalog {portable_stamp}\n")));
        assert!(manifest.contains("\nopenai-strict setting "), "{manifest}");
        assert_eq!(
            manifest,
            listings.manifest(&plain.tool_router),
            "deterministic"
        );
    }

    /// A server whose call adds a tool: its catalog changes under a client that listed it.
    #[derive(Clone, Default)]
    struct Growing {
        tools: Arc<std::sync::Mutex<Vec<stitch::mcp::rmcp::model::Tool>>>,
    }

    impl ServerHandler for Growing {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }

        async fn list_tools(
            &self,
            _: Option<stitch::mcp::rmcp::model::PaginatedRequestParams>,
            _: stitch::mcp::rmcp::service::RequestContext<stitch::mcp::rmcp::RoleServer>,
        ) -> Result<stitch::mcp::rmcp::model::ListToolsResult, stitch::mcp::rmcp::ErrorData>
        {
            let tools = self.tools.lock().unwrap().clone();
            Ok(stitch::mcp::rmcp::model::ListToolsResult::with_all_items(
                tools,
            ))
        }

        async fn call_tool(
            &self,
            _: stitch::mcp::rmcp::model::CallToolRequestParams,
            _: stitch::mcp::rmcp::service::RequestContext<stitch::mcp::rmcp::RoleServer>,
        ) -> Result<stitch::mcp::rmcp::model::CallToolResponse, stitch::mcp::rmcp::ErrorData>
        {
            self.grow();
            Ok(CallToolResult::success(vec![]).into())
        }
    }

    impl Growing {
        fn grow(&self) {
            let mut tools = self.tools.lock().unwrap();
            let name = format!("grown{}", tools.len());
            let Value::Object(schema) = json!({"type": "object", "properties": {}}) else {
                unreachable!()
            };
            tools.push(stitch::mcp::rmcp::model::Tool::new(
                name,
                "Grown.",
                Arc::new(schema),
            ));
        }
    }

    #[tokio::test]
    async fn a_changed_catalog_changes_the_stamp_once_it_is_listed_again() {
        let server = Growing::default();
        server.grow();
        let grow = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                          "params": {"name": "grown0", "arguments": {}}});
        let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
        let answers = super::exchange_as(
            InDialects::new(server, rules()),
            "other",
            vec![list.clone(), grow.clone(), list, grow],
        )
        .await;
        let before = answers[0]["result"]["tools"][0]["_meta"]["stitch/catalog"].clone();
        let answered = answers[1]["result"]["_meta"]["stitch/catalog"].clone();
        let after = answers[2]["result"]["tools"][0]["_meta"]["stitch/catalog"].clone();
        let answered_after = answers[3]["result"]["_meta"]["stitch/catalog"].clone();
        assert!(before.is_string() && answered.is_string());
        assert_eq!(
            answered, before,
            "a result carries the stamp of the listing held: the server is not listed per call"
        );
        assert_ne!(after, before, "the new listing has a new stamp");
        assert_eq!(answers[2]["result"]["tools"].as_array().unwrap().len(), 2);
        assert_eq!(
            answered_after, after,
            "and results carry it from then on: a client holding the first is stale"
        );
    }

    /// A server whose plain tool's schema is new at every listing, and counts its listings.
    #[derive(Clone, Default)]
    struct Counting {
        listings: Arc<std::sync::atomic::AtomicUsize>,
    }

    impl ServerHandler for Counting {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }

        async fn list_tools(
            &self,
            _: Option<stitch::mcp::rmcp::model::PaginatedRequestParams>,
            _: stitch::mcp::rmcp::service::RequestContext<stitch::mcp::rmcp::RoleServer>,
        ) -> Result<stitch::mcp::rmcp::model::ListToolsResult, stitch::mcp::rmcp::ErrorData>
        {
            let n = self
                .listings
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let Value::Object(schema) = json!({"type": "object", "properties": {
                "x": {"type": "integer", "description": format!("listing {n}")}}})
            else {
                unreachable!()
            };
            Ok(stitch::mcp::rmcp::model::ListToolsResult::with_all_items(
                vec![stitch::mcp::rmcp::model::Tool::new(
                    "changing",
                    "Changes.",
                    Arc::new(schema),
                )],
            ))
        }

        async fn call_tool(
            &self,
            _: stitch::mcp::rmcp::model::CallToolRequestParams,
            _: stitch::mcp::rmcp::service::RequestContext<stitch::mcp::rmcp::RoleServer>,
        ) -> Result<stitch::mcp::rmcp::model::CallToolResponse, stitch::mcp::rmcp::ErrorData>
        {
            Ok(CallToolResult::success(vec![]).into())
        }
    }

    #[tokio::test]
    async fn calls_do_not_list_the_wrapped_server_again() {
        let server = Counting::default();
        let listings = Arc::clone(&server.listings);
        let call = |id: u64| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                   "params": {"name": "changing", "arguments": {"x": 1}}})
        };
        let mut requests = vec![json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})];
        requests.extend((2..52).map(call));
        let answers = super::exchange_as(InDialects::new(server, rules()), "other", requests).await;
        let listed = answers[0]["result"]["tools"][0]["_meta"]["stitch/catalog"].clone();
        assert!(listed.is_string());
        for answer in &answers[1..] {
            assert_eq!(answer["result"]["_meta"]["stitch/catalog"], listed);
        }
        assert_eq!(
            listings.load(std::sync::atomic::Ordering::SeqCst),
            1,
            "fifty calls, one listing"
        );
    }

    #[tokio::test]
    async fn rules_without_a_listing_in_dialects_parse_what_was_listed() {
        // The router alone lists every client the default dialect: a strict client's call is
        // parsed in it too (and a warning says the rules show nothing), not in a dialect it
        // was never shown.
        let (plain, _) = server(rules());
        let strict = super::exchange_as(plain, "strict-agent", requests()).await;
        assert_eq!(
            listed(&strict, "setting")["inputSchema"],
            serde_json::from_str::<Value>(Setting::INPUT_SCHEMA).unwrap()
        );
        assert_eq!(strict[1]["result"]["isError"], true, "{}", strict[1]);
        assert_eq!(
            strict[1]["result"]["structuredContent"]["issues"][0]["code"],
            "unknown_key"
        );
    }
}

every_contract_here!(
    Add,
    Sum,
    Put,
    Outcome2,
    per_client_dialects::Setting,
    per_client_dialects::Bulk
);
