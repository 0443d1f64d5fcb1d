//! The `rmcp` feature, each client in its dialect: one toolbox listing and holding two
//! clients each to its own, and `InDialects` around a server whose plain tools stitch did not
//! write, inputs and outputs.
#![cfg(feature = "rmcp")]

mod common;
mod exchange;

use exchange::exchange_as;

/// Each client is shown its dialect and held to it: one toolbox, two clients.
mod per_client_dialects {
    use std::collections::BTreeMap;

    use serde::Deserialize;
    use serde_json::{Value, json};
    use stitch::mcp::{ClientDialects, Toolbox, Tools};
    use stitch::{Contract, Dialect, guard::FindingKind};

    /// Change a setting (no other key).
    #[allow(dead_code, reason = "its fields are deserialized, never read")]
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

every_contract_here!(per_client_dialects::Setting, per_client_dialects::Bulk);
