//! Schemas stitch did not write, from a user's crate: a plain rmcp tool whose schema is a
//! `oneOf` of operations (as schemars writes a tagged enum), served with no stitch contract and
//! wrapped in `InDialects`: each client is listed it flat in its dialect, and a strict client's
//! call reaches the tool as its own schema means it.

use std::sync::Arc;

use rmcp::ServerHandler;
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig, Tool};
use serde_json::{Value, json};
use stitch::Dialect;
use stitch::mcp::{ClientDialects, InDialects};

use crate::{check, talk};

/// schemars' document for `#[serde(tag = "op")] enum Edit { Set { index: u32, text: String,
/// labels: Option<HashMap<String, String>> }, Clear { index: Option<u32> } }` flattened into
/// an object.
fn edit_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "oneOf": [
            {"type": "object", "description": "Set a part's text.", "properties": {
                "op": {"type": "string", "const": "set"},
                "index": {"type": "integer", "format": "uint32", "minimum": 0},
                "text": {"$ref": "#/$defs/Text"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}}},
             "required": ["op", "index", "text"]},
            {"type": "object", "description": "Clear a part.", "properties": {
                "op": {"type": "string", "const": "clear"},
                "index": {"type": ["integer", "null"], "format": "uint32", "minimum": 0}},
             "required": ["op"]}
        ],
        "$defs": {"Text": {"type": "string", "minLength": 1}}
    })
}

#[derive(Clone)]
struct Plain {
    router: ToolRouter<Plain>,
}

#[rmcp::tool_handler(router = self.router)]
impl ServerHandler for Plain {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

fn server() -> InDialects<Plain> {
    let Value::Object(schema) = edit_schema() else {
        unreachable!("an object literal")
    };
    let tool = Tool::new("edit", "Edit a part.", Arc::new(schema));
    let route = ToolRoute::new_dyn(tool, |context: ToolCallContext<'_, Plain>| {
        let got = Value::Object(context.arguments.clone().unwrap_or_default());
        Box::pin(async move { Ok(CallToolResult::structured(json!({"got": got})).into()) })
    });
    let dialects = ClientDialects::new(Dialect::Mcp)
        .client("cursor-vscode", Dialect::Portable)
        .client("strict-agent", Dialect::OpenAiStrict);
    InDialects::new(
        Plain {
            router: ToolRouter::new().with_route(route),
        },
        dialects,
    )
}

fn line_with(lines: &[String], id: &str) -> Value {
    lines
        .iter()
        .find(|line| line.contains(id))
        .and_then(|line| serde_json::from_str(line).ok())
        .unwrap_or(Value::Null)
}

pub async fn foreign_schemas_in_every_dialect() {
    let flat = stitch::foreign::flatten_tool_schema(&edit_schema());
    check(
        "flatten_tool_schema: one object, the tag an enum, index typed, the ref read through",
        flat["properties"]["op"]["enum"] == json!(["set", "clear"])
            && flat["properties"]["index"]["type"] == json!(["integer", "null"])
            && flat["properties"]["text"]["minLength"] == 1
            && flat.get("$defs").is_none()
            && flat.get("oneOf").is_none(),
    );
    for (client, dialect) in [
        ("cursor-vscode", Dialect::Portable),
        ("anyone", Dialect::Mcp),
        ("strict-agent", Dialect::OpenAiStrict),
    ] {
        let call = json!({"op": "set", "index": 1, "text": "hi"});
        let lines = talk(server(), client, &[("edit", call)]).await;
        let listed = &line_with(&lines, "\"id\":2,")["result"]["tools"][0]["inputSchema"];
        check(
            &format!("{dialect}: a plain tool's oneOf is listed flat, as tool_schema_for says it"),
            *listed == stitch::foreign::tool_schema_for(&edit_schema(), dialect)
                && listed["type"] == "object"
                && !listed.to_string().contains("oneOf"),
        );
    }
    let strict_call = json!({"op": "clear", "index": null, "text": null});
    let lines = talk(server(), "strict-agent", &[("edit", strict_call)]).await;
    let got = &line_with(&lines, "\"id\":3,")["result"]["structuredContent"]["got"];
    check(
        "a strict client's null for another operation's key is left out for the plain tool, \
         and one the key takes reaches it",
        *got == json!({"op": "clear", "index": null}),
    );
    // A strict dialect closes every object: a map is sent as its entries, and the plain tool
    // gets the map back.
    let listed = stitch::foreign::tool_schema_for(&edit_schema(), Dialect::OpenAiStrict);
    let entries = json!([{"key": "tone", "value": "warm"}]);
    let strict_call = json!({"op": "set", "index": 1, "text": "hi", "labels": entries});
    let lines = talk(server(), "strict-agent", &[("edit", strict_call)]).await;
    let got = &line_with(&lines, "\"id\":3,")["result"]["structuredContent"]["got"];
    check(
        "a strict client is shown a map as its entries, and the plain tool gets the map",
        listed["properties"]["labels"]["type"] == json!(["array", "null"])
            && got["labels"] == json!({"tone": "warm"}),
    );
}
