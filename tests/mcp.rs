//! The `rmcp` feature: contracts mounted as MCP tools, bad calls answered as `isError`
//! results with their pointers, handler errors too, the observer seeing every call, and the
//! guard run over every mounted tool when the toolbox is built.
#![cfg(feature = "rmcp")]

mod common;
mod exchange;

use std::sync::{Arc, Mutex};

use common::record_into;
use exchange::exchange_as;
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
    let structured = &meta.0[stitch::REJECTION_META_KEY];
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

every_contract_here!(Add, Sum, Put, Outcome2);
