//! Foreign schemas keep their types: what real servers list, read in every dialect without a
//! typed position left saying nothing of its kind, and what a strict client sends reaching the
//! tool as its schema states it.
//!
//! The schemas under `tests/foreign_types/` were written by tools, not here:
//! - `create_entities.json`: `@modelcontextprotocol/server-memory@2026.8.31` as listed
//!   (zod-to-json-schema, draft-07, as the TypeScript SDK v1 writes every tool);
//! - `move_page.json`: `@notionhq/notion-mcp-server@2.5.2` as listed (OpenAPI-derived; its
//!   parents are open objects);
//! - `pydantic_kv.json`: pydantic 2.14.4's `model_json_schema()` of a model with a
//!   discriminated union whose tag has a default (`Literal["Get"] = "Get"`) and
//!   `max_items: Optional[int] = 50`.

mod common;

use serde_json::{Value, json};
use stitch::Dialect;
use stitch::foreign::{strict_arguments_for, tool_schema_for};

fn fixture(text: &str) -> Value {
    serde_json::from_str(text).expect("a fixture is JSON")
}

fn create_entities() -> Value {
    fixture(include_str!("foreign_types/create_entities.json"))
}

fn move_page() -> Value {
    fixture(include_str!("foreign_types/move_page.json"))
}

fn pydantic_kv() -> Value {
    fixture(include_str!("foreign_types/pydantic_kv.json"))
}

/// What the guard reports of a foreign tool's schema in a dialect.
fn findings(name: &str, source: &Value, dialect: Dialect) -> Vec<stitch::Finding> {
    stitch::guard::check(
        &[stitch::guard::Checked::Listed {
            name,
            description: "",
            input: source,
        }],
        &stitch::SchemaProfile::new().dialect(dialect),
    )
}

/// Whether a schema's description says `text`.
fn says(schema: &Value, text: &str) -> bool {
    schema["description"]
        .as_str()
        .is_some_and(|description| description.contains(text))
}

fn accepts(schema: &Value, value: &Value) -> bool {
    jsonschema::validator_for(schema)
        .expect("a valid schema")
        .is_valid(value)
}

#[test]
fn a_draft_07_document_renders_as_its_2020_12_twin_in_every_dialect() {
    let twin = json!({"type": "object",
        "properties": {"xs": {"type": "array", "items": {"type": "string"}}}, "required": ["xs"]});
    let mut draft_07 = twin.clone();
    draft_07["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    for &dialect in Dialect::ALL {
        let shown = tool_schema_for(&draft_07, dialect);
        assert_eq!(shown, tool_schema_for(&twin, dialect), "{dialect}");
        assert_eq!(
            shown["properties"]["xs"]["items"]["type"], "string",
            "{dialect}: {shown}"
        );
    }
}

#[test]
fn the_memory_servers_entities_keep_their_three_properties_in_every_dialect() {
    let source = create_entities();
    for &dialect in Dialect::ALL {
        let shown = tool_schema_for(&source, dialect);
        let item = &shown["properties"]["entities"]["items"];
        assert_eq!(item["type"], "object", "{dialect}: {shown}");
        assert_eq!(item["properties"]["name"]["type"], "string", "{dialect}");
        assert_eq!(
            item["properties"]["entityType"]["type"], "string",
            "{dialect}"
        );
        assert_eq!(
            item["properties"]["observations"]["items"]["type"], "string",
            "{dialect}"
        );
        let mut required: Vec<&str> = item["required"]
            .as_array()
            .expect("required")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        required.sort_unstable();
        assert_eq!(
            required,
            ["entityType", "name", "observations"],
            "{dialect}"
        );
    }
    // What an OpenAI strict client sends by its schema is what the server takes.
    let mut call = json!({"entities": [
        {"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}
    ]});
    let strict = tool_schema_for(&source, Dialect::OpenAiStrict);
    assert!(accepts(&strict, &call));
    let sent = call.clone();
    strict_arguments_for(&source, &mut call);
    assert_eq!(call, sent);
    assert!(accepts(&source, &call));
}

#[test]
fn notions_page_id_stays_a_uuid_beside_open_parents() {
    let source = move_page();
    for dialect in [Dialect::Mcp, Dialect::Portable] {
        // A parent is a union of objects or a string: `anyOf` in `mcp`; in `portable`, which
        // takes no `anyOf`, the union of objects, both kinds named in its description.
        let shown = tool_schema_for(&source, dialect);
        let parent = &shown["properties"]["parent"];
        let object = parent["anyOf"]
            .as_array()
            .and_then(|branches| branches.iter().find(|branch| branch["type"] == "object"))
            .unwrap_or(parent);
        assert_eq!(object["type"], "object", "{dialect}: {parent}");
        let page_id = &object["properties"]["page_id"];
        assert_eq!(page_id["type"], "string", "{dialect}: {page_id}");
        assert_eq!(page_id["format"], "uuid", "{dialect}: {page_id}");
        let description = page_id["description"].as_str().unwrap_or_default();
        assert!(
            description.contains("Required if type = page_id")
                && description.contains("type = database_id | workspace take it as any other key"),
            "{dialect}: {description}"
        );
        if dialect == Dialect::Portable {
            assert!(
                parent["description"]
                    .as_str()
                    .is_some_and(|text| text.contains("string") && text.contains("object")),
                "{parent}"
            );
        }
    }
    // The string a parent may also be is what `portable` cannot say: the guard says so.
    let findings = findings("move_page", &source, Dialect::Portable);
    assert!(
        findings.iter().any(|finding| finding.path() == "parent"
            && finding
                .to_string()
                .contains("advertised as its object branch")),
        "{findings:?}"
    );
}

#[test]
fn a_null_inside_an_open_object_reaches_the_tool() {
    let source = json!({"type": "object", "properties": {"filter": {"type": "object",
        "properties": {}, "additionalProperties": {}}}, "required": ["filter"]});
    // Sent whole (a client that did not decode strictly), or as entries (one that did).
    for mut call in [
        json!({"filter": {"deletedAt": null}}),
        json!({"filter": [{"key": "deletedAt", "value": null}]}),
    ] {
        strict_arguments_for(&source, &mut call);
        assert_eq!(call, json!({"filter": {"deletedAt": null}}));
    }
}

#[test]
fn a_zod_v4_loose_object_is_a_map_in_every_dialect() {
    let source = json!({"type": "object", "properties": {"filter": {"type": "object",
        "properties": {}, "additionalProperties": {}}}, "required": ["filter"]});
    let as_true = json!({"type": "object", "properties": {"filter": {"type": "object",
        "additionalProperties": true}}, "required": ["filter"]});
    for &dialect in Dialect::ALL {
        assert_eq!(
            tool_schema_for(&source, dialect),
            tool_schema_for(&as_true, dialect),
            "{dialect}"
        );
    }
    let strict = tool_schema_for(&source, Dialect::OpenAiStrict);
    let mut call = json!({"filter": [{"key": "status", "value": "A"}]});
    assert!(accepts(&strict, &call), "{strict}");
    strict_arguments_for(&source, &mut call);
    assert_eq!(call, json!({"filter": {"status": "A"}}));
    assert!(accepts(&source, &call));
}

#[test]
fn a_union_whose_tag_has_a_default_is_flattened() {
    let source = pydantic_kv();
    for &dialect in Dialect::ALL {
        let shown = tool_schema_for(&source, dialect);
        let text = shown.to_string();
        assert!(
            !text.contains("oneOf") && !text.contains("$ref"),
            "{dialect}: {shown}"
        );
        let action = &shown["properties"]["action"];
        assert_eq!(action["properties"]["kind"]["enum"], json!(["Get", "Put"]));
        assert_eq!(action["required"][0], "kind", "{dialect}: {action}");
    }
    // Each operation's call, as the flat object takes it, is one the source takes.
    let flat = tool_schema_for(&source, Dialect::Mcp);
    for call in [
        json!({"action": {"kind": "Get", "key": "k"}}),
        json!({"action": {"kind": "Put", "key": "k", "value": 1}}),
    ] {
        assert!(accepts(&flat, &call) && accepts(&source, &call), "{call}");
    }
}

#[test]
fn a_null_sent_for_a_defaulted_key_is_read_as_its_default() {
    let source = pydantic_kv();
    let strict = tool_schema_for(&source, Dialect::OpenAiStrict);
    let max_items = &strict["properties"]["max_items"];
    assert!(says(max_items, "Default: 50."), "{max_items}");
    // An OpenAI strict client leaving it out sends `null` (and `null` for the other
    // operation's key): the tool gets the key absent, so its default, 50.
    let mut call = json!({"action": {"kind": "Get", "key": "k", "value": null}, "max_items": null});
    assert!(accepts(&strict, &call), "{strict}");
    strict_arguments_for(&source, &mut call);
    assert_eq!(call, json!({"action": {"kind": "Get", "key": "k"}}));
    // An Anthropic strict client sends only what it chooses: its `null` is `None`, kept.
    let mut call = json!({"action": {"kind": "Get", "key": "k"}, "max_items": null});
    stitch::foreign::arguments_for(&source, &mut call, Dialect::AnthropicStrict);
    assert_eq!(call["max_items"], Value::Null);
    // OpenAI's strict mode cannot ask for that `None`: the guard says so.
    let findings = findings("kv", &source, Dialect::OpenAiStrict);
    assert!(
        findings.iter().any(|finding| finding.path() == "max_items"),
        "{findings:?}"
    );
    // A `null` the description gives a meaning stays.
    let mut meaningful = source.clone();
    meaningful["properties"]["max_items"]["description"] = json!("Pass null for no limit.");
    let mut call = json!({"action": {"kind": "Get", "key": "k"}, "max_items": null});
    strict_arguments_for(&meaningful, &mut call);
    assert_eq!(call["max_items"], Value::Null);
}

#[cfg(feature = "rmcp")]
mod exchange;

/// What the tool receives through `InDialects`, each client shown its dialect: the upstream
/// tools echo the arguments they are given.
#[cfg(feature = "rmcp")]
mod through_in_dialects {
    use std::sync::Arc;

    use serde_json::{Value, json};
    use stitch::mcp::rmcp::ServerHandler;
    use stitch::mcp::rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
    use stitch::mcp::rmcp::handler::server::tool::ToolCallContext;
    use stitch::mcp::rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig};
    use stitch::mcp::{ClientDialects, InDialects, Tools};
    use stitch::{Contract, Dialect};

    use super::{accepts, create_entities};

    #[derive(Clone)]
    struct Server {
        tool_router: ToolRouter<Self>,
    }

    /// Count to `n` (stitch's own tool, beside the foreign ones).
    #[allow(dead_code, reason = "only deserialized and printed")]
    #[derive(Contract, serde::Deserialize, Debug)]
    struct Count {
        n: u8,
    }

    // The file's two contracts, listed where both can be named.
    crate::every_contract_here_is_in_the_snapshot!(Count, super::Annotate);

    impl Server {
        async fn count(&self, count: Count) -> Result<String, String> {
            Ok(format!("{count:?}"))
        }
    }

    #[rmcp::tool_handler(router = self.tool_router)]
    impl ServerHandler for Server {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }
    }

    /// A delete-many tool's filter: zod v4's loose object.
    fn find() -> Value {
        json!({"type": "object", "properties": {"filter": {"type": "object",
            "properties": {}, "additionalProperties": {}}}, "required": ["filter"]})
    }

    /// A plain tool of this schema answering with the arguments it was given.
    fn echo(name: &'static str, schema: Value) -> ToolRoute<Server> {
        let Value::Object(schema) = schema else {
            panic!("a schema object")
        };
        let tool = stitch::mcp::rmcp::model::Tool::new(name, "Echo.", Arc::new(schema));
        ToolRoute::new_dyn(tool, |context: ToolCallContext<'_, Server>| {
            let got = Value::Object(context.arguments.clone().unwrap_or_default());
            Box::pin(async move { Ok(CallToolResult::structured(json!({"got": got})).into()) })
        })
    }

    const CLIENTS: [(&str, Dialect); 4] = [
        ("client-mcp", Dialect::Mcp),
        ("client-portable", Dialect::Portable),
        ("client-openai", Dialect::OpenAiStrict),
        ("client-anthropic", Dialect::AnthropicStrict),
    ];

    fn server() -> InDialects<Server> {
        let mut rules = ClientDialects::new(Dialect::Mcp);
        for (client, dialect) in CLIENTS {
            rules = rules.client(client, dialect);
        }
        let stitch = Tools::new()
            .dialects(rules)
            .tool(Server::count)
            .build()
            .unwrap();
        let listings = stitch.listings();
        let tool_router = ToolRouter::new()
            .with_route(echo("create_entities", create_entities()))
            .with_route(echo("find", find()))
            + stitch;
        InDialects::new(Server { tool_router }, listings)
    }

    /// The listing, then a call of `tool` with `arguments`: what the client was shown of the
    /// tool's input, and what the tool received.
    async fn list_and_call(client: &str, tool: &str, arguments: Value) -> (Value, Value) {
        let answers = crate::exchange::exchange_as(
            server(),
            client,
            vec![
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}}),
            ],
        )
        .await;
        let listed = answers[0]["result"]["tools"]
            .as_array()
            .and_then(|tools| tools.iter().find(|listed| listed["name"] == tool))
            .expect("the tool is listed")["inputSchema"]
            .clone();
        let result = &answers[1]["result"];
        assert_eq!(result["isError"], false, "{client}: {}", answers[1]);
        (listed, result["structuredContent"]["got"].clone())
    }

    #[tokio::test]
    async fn an_openai_strict_client_creates_an_entity() {
        let entity = json!({"entities": [
            {"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}
        ]});
        let (shown, got) = list_and_call("client-openai", "create_entities", entity.clone()).await;
        let item = &shown["properties"]["entities"]["items"];
        assert_eq!(
            item["properties"]["entityType"]["type"], "string",
            "{shown}"
        );
        assert!(
            accepts(&shown, &entity),
            "the strict schema takes it: {shown}"
        );
        assert_eq!(got, entity);
        assert!(accepts(&create_entities(), &got));
    }

    #[tokio::test]
    async fn a_strict_clients_nested_object_in_a_free_filter_reaches_the_tool_whole() {
        let nested = json!({"$in": ["a", "b"], "deleted": {"$exists": false}});
        for (client, dialect) in [
            ("client-openai", Dialect::OpenAiStrict),
            ("client-anthropic", Dialect::AnthropicStrict),
        ] {
            let arguments = json!({"filter": [{"key": "status", "value": nested.to_string()}]});
            let (shown, got) = list_and_call(client, "find", arguments.clone()).await;
            assert!(accepts(&shown, &arguments), "{dialect}: {shown}");
            assert_eq!(got, json!({"filter": {"status": nested}}), "{dialect}");
        }
    }

    #[tokio::test]
    async fn a_null_in_a_free_filter_reaches_the_tool_in_every_dialect() {
        for (client, dialect) in CLIENTS {
            // Each client sends the filter as its dialect shows it: strict ones as entries.
            let filter = if dialect.is_strict() {
                json!([{"key": "deletedAt", "value": null}])
            } else {
                json!({"deletedAt": null})
            };
            let arguments = json!({"filter": filter});
            let (shown, got) = list_and_call(client, "find", arguments.clone()).await;
            assert!(accepts(&shown, &arguments), "{dialect}: {shown}");
            assert_eq!(got, json!({"filter": {"deletedAt": null}}), "{dialect}");
        }
    }
}

#[test]
fn a_strict_client_sends_a_free_object_whole_as_json_text() {
    // Notion's page properties: a map of free values, each an object the tool reads whole.
    let source = json!({"type": "object", "properties": {"properties": {"type": "object",
        "additionalProperties": true}}, "required": ["properties"]});
    let status = json!({"select": {"name": "Done"}, "tags": [1, null]});
    for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
        let shown = tool_schema_for(&source, dialect);
        let value = &shown["properties"]["properties"]["items"]["properties"]["value"];
        assert!(
            says(value, "an object or array is sent as its JSON text"),
            "{dialect}: {shown}"
        );
        let mut call = json!({"properties": [
            {"key": "Status", "value": status.to_string()},
            {"key": "Title", "value": "a plain string stays one"},
        ]});
        assert!(accepts(&shown, &call), "{dialect}: {shown}");
        strict_arguments_for(&source, &mut call);
        assert_eq!(
            call,
            json!({"properties": {"Status": status, "Title": "a plain string stays one"}}),
            "{dialect}"
        );
        assert!(accepts(&source, &call));
    }
    // A client shown `mcp` sends the object itself, and a string stays a string.
    let mut call = json!({"properties": {"Status": status, "Note": "{not json"}});
    let sent = call.clone();
    strict_arguments_for(&source, &mut call);
    assert_eq!(call, sent);
}

/// A contract's free value: `serde_json::Value`, which strict dialects show as scalars.
#[derive(stitch::Contract, serde::Deserialize, Debug, PartialEq)]
struct Annotate {
    note: Value,
}

#[test]
fn a_contracts_free_value_comes_from_a_strict_client_by_the_same_rule() {
    use stitch::Contract;
    let object = json!({"tags": ["a", "b"], "weight": 2});
    for dialect in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
        let shown: Value = serde_json::from_str(Annotate::input_schema_for(dialect)).unwrap();
        let note = &shown["properties"]["note"];
        assert!(
            says(note, "an object or array is sent as its JSON text"),
            "{dialect}: {note}"
        );
        for sent in [
            object.clone(),
            json!([1, {"x": null}]),
            json!("plain"),
            json!(3),
        ] {
            let as_text = if sent.is_object() || sent.is_array() {
                Value::String(sent.to_string())
            } else {
                sent.clone()
            };
            let call = json!({"note": as_text});
            assert!(accepts(&shown, &call), "{dialect}: {shown}");
            let parsed = Annotate::parse_for(call, dialect).expect("parsed");
            assert_eq!(parsed, Annotate { note: sent }, "{dialect}");
        }
    }
    // Shown `mcp`, a client sends the object itself; text that looks like JSON stays text.
    let text = json!({"note": "{\"tags\": []}"});
    assert_eq!(
        Annotate::parse_for(text, Dialect::Mcp).unwrap().note,
        json!("{\"tags\": []}")
    );
}
