//! The MCP conformance suite's fixture server, written with stitch: every tool the suite
//! calls is a stitch tool (its contract parsed before its handler runs), with rmcp's request
//! context where the scenario needs it (progress, logging, sampling, elicitation) and content
//! of every kind. The one plain rmcp tool is the suite's JSON Schema 2020-12 tool, whose
//! `$defs` and `$ref` must reach the client verbatim: a schema stitch never writes. Prompts,
//! resources, templates, subscriptions, logging levels and completions are rmcp's.
//!
//! `cargo run --example conformance --features rmcp -- --http 127.0.0.1:PORT` serves it at
//! `/mcp`; `.ci/run` runs every server scenario of the suite against it.
#![allow(deprecated)] // sampling and logging: deprecated by the protocol's next version, still served

mod log_to_stderr;

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    ContentBlock, CreateMessageRequestParams, ElicitRequestParams, GetPromptRequestParams,
    GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, LoggingLevel, LoggingMessageNotificationParam,
    PaginatedRequestParams, ProgressNotificationParam, ReadResourceRequestParams,
    ReadResourceResponse, ResourceContents, ServerCapabilities, ServerConfig,
    SetLevelRequestParams, SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use stitch::Contract;
use stitch::mcp::{HttpServer, InDialects, Tools};

/// A 1×1 red PNG.
const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A WAV header with no samples.
const SILENCE: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

/// Contracts of the tools the suite calls without arguments: each one an empty object.
macro_rules! no_arguments {
    ($($(#[$doc:meta])* $ty:ident = $name:literal;)*) => {$(
        $(#[$doc])*
        #[derive(Contract, Deserialize)]
        #[contract(name = $name, require_typed_properties)]
        struct $ty {}
    )*};
}

no_arguments! {
    /// Answers with one text block.
    SimpleText = "test_simple_text";
    /// Answers with an image.
    ImageContent = "test_image_content";
    /// Answers with audio.
    AudioContent = "test_audio_content";
    /// Answers with an embedded resource.
    EmbeddedResource = "test_embedded_resource";
    /// Answers with text, an image and a resource.
    MultipleContentTypes = "test_multiple_content_types";
    /// Logs three messages while it runs.
    ToolWithLogging = "test_tool_with_logging";
    /// Always fails.
    ErrorHandling = "test_error_handling";
    /// Reports progress while it runs.
    ToolWithProgress = "test_tool_with_progress";
    /// Asks for input with a default for every primitive type.
    ElicitationDefaults = "test_elicitation_sep1034_defaults";
    /// Asks for input with every kind of enum.
    ElicitationEnums = "test_elicitation_sep1330_enums";
    /// Answers after a pause, for clients that reconnect to a stream.
    Reconnection = "test_reconnection";
}

/// Asks the client's model.
#[derive(Contract, Deserialize)]
#[contract(name = "test_sampling", require_typed_properties)]
struct Sampling {
    /// The prompt to send to the model.
    prompt: String,
}

/// Asks the user.
#[derive(Contract, Deserialize)]
#[contract(name = "test_elicitation", require_typed_properties)]
struct Elicitation {
    /// The message to show the user.
    message: String,
}

/// A protocol value from its JSON.
fn from_json<T: DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value)
        .map_err(|error| ErrorData::internal_error(error.to_string(), None))
}

/// A complete result from its JSON, `"resultType": "complete"` as 2026-07-28 requires.
fn complete<T: DeserializeOwned>(mut value: Value) -> Result<T, ErrorData> {
    value["resultType"] = json!("complete");
    from_json(value)
}

fn failed(error: impl std::fmt::Display) -> String {
    error.to_string()
}

/// The fixture server: stitch tools, and rmcp's prompts, resources and logging.
#[derive(Clone)]
struct Conformance {
    tool_router: Arc<ToolRouter<Self>>,
    subscriptions: Arc<Mutex<HashSet<String>>>,
}

impl Conformance {
    async fn simple_text(&self, _: SimpleText) -> Result<String, String> {
        Ok("This is a simple text response for testing.".to_owned())
    }

    async fn image(&self, _: ImageContent) -> ContentBlock {
        ContentBlock::image(PIXEL, "image/png")
    }

    async fn audio(&self, _: AudioContent) -> ContentBlock {
        ContentBlock::audio(SILENCE, "audio/wav")
    }

    async fn embedded(&self, _: EmbeddedResource) -> ContentBlock {
        ContentBlock::resource(ResourceContents::text(
            "This is an embedded resource content.",
            "test://embedded-resource",
        ))
    }

    async fn mixed(&self, _: MultipleContentTypes) -> CallToolResult {
        let resource = ResourceContents::TextResourceContents {
            uri: "test://mixed-content-resource".to_owned(),
            mime_type: Some("application/json".to_owned()),
            text: r#"{"test":"data","value":123}"#.to_owned(),
            meta: None,
        };
        CallToolResult::success(vec![
            ContentBlock::text("Multiple content types test:"),
            ContentBlock::image(PIXEL, "image/png"),
            ContentBlock::resource(resource),
        ])
    }

    async fn logging(
        &self,
        _: ToolWithLogging,
        context: RequestContext<RoleServer>,
    ) -> Result<String, String> {
        let steps = [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ];
        for (i, step) in steps.into_iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let message = LoggingMessageNotificationParam::new(LoggingLevel::Info, json!(step));
            context
                .peer
                .notify_logging_message(message)
                .await
                .map_err(failed)?;
        }
        Ok("Tool with logging executed successfully".to_owned())
    }

    async fn error(&self, _: ErrorHandling) -> Result<String, String> {
        Err("This tool intentionally returns an error for testing".to_owned())
    }

    async fn progress(
        &self,
        _: ToolWithProgress,
        context: RequestContext<RoleServer>,
    ) -> Result<String, String> {
        let token = context.meta.get_progress_token();
        for (i, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            if let Some(token) = token.clone() {
                let step = ProgressNotificationParam::new(token, progress).with_total(100.0);
                context.peer.notify_progress(step).await.map_err(failed)?;
            }
        }
        Ok("Tool with progress executed successfully".to_owned())
    }

    async fn sampling(
        &self,
        sampling: Sampling,
        context: RequestContext<RoleServer>,
    ) -> Result<String, String> {
        let request: CreateMessageRequestParams = from_json(json!({
            "messages": [{"role": "user",
                          "content": {"type": "text", "text": sampling.prompt}}],
            "maxTokens": 100
        }))
        .map_err(|error| error.message.to_string())?;
        let answer = context.peer.create_message(request).await.map_err(failed)?;
        let answer = serde_json::to_value(answer).map_err(failed)?;
        let text = answer["content"]["text"].as_str().unwrap_or_default();
        Ok(format!("LLM response: {text}"))
    }

    async fn elicitation(
        &self,
        elicitation: Elicitation,
        context: RequestContext<RoleServer>,
    ) -> Result<String, String> {
        let schema = json!({"type": "object", "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"}
        }, "required": ["username", "email"]});
        let answer = elicit(&context, &elicitation.message, schema).await?;
        Ok(format!("User response: {answer}"))
    }

    async fn elicitation_defaults(
        &self,
        _: ElicitationDefaults,
        context: RequestContext<RoleServer>,
    ) -> Result<String, String> {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "score": {"type": "number", "default": 95.5},
            "status": {"type": "string", "enum": ["active", "inactive", "pending"],
                       "default": "active"},
            "verified": {"type": "boolean", "default": true}
        }});
        let answer = elicit(&context, "Confirm your details", schema).await?;
        Ok(format!("Elicitation completed: {answer}"))
    }

    async fn elicitation_enums(
        &self,
        _: ElicitationEnums,
        context: RequestContext<RoleServer>,
    ) -> Result<String, String> {
        let titled = |pairs: [(&str, &str); 3]| -> Vec<Value> {
            pairs
                .iter()
                .map(|(value, title)| json!({"const": value, "title": title}))
                .collect()
        };
        let schema = json!({"type": "object", "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {"type": "string", "oneOf": titled([
                ("value1", "First Option"), ("value2", "Second Option"),
                ("value3", "Third Option")])},
            "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                           "enumNames": ["Option One", "Option Two", "Option Three"]},
            "untitledMulti": {"type": "array",
                              "items": {"type": "string",
                                        "enum": ["option1", "option2", "option3"]}},
            "titledMulti": {"type": "array", "items": {"anyOf": titled([
                ("value1", "First Choice"), ("value2", "Second Choice"),
                ("value3", "Third Choice")])}}
        }});
        let answer = elicit(&context, "Choose your options", schema).await?;
        Ok(format!("Elicitation completed: {answer}"))
    }

    async fn reconnection(&self, _: Reconnection) -> Result<String, String> {
        tokio::time::sleep(Duration::from_millis(100)).await;
        Ok("Reconnection test completed".to_owned())
    }

    /// The fixture server, each client listed every tool in its dialect.
    fn new() -> InDialects<Conformance> {
        let stitch = Tools::new()
            .profile(stitch::SchemaProfile::new().require_typed_properties())
            .tool(Self::simple_text)
            .tool(Self::image)
            .tool(Self::audio)
            .tool(Self::embedded)
            .tool(Self::mixed)
            .tool(Self::logging)
            .tool(Self::error)
            .tool(Self::progress)
            .tool(Self::sampling)
            .tool(Self::elicitation)
            .tool(Self::elicitation_defaults)
            .tool(Self::elicitation_enums)
            .tool(Self::reconnection)
            .build()
            .expect("every tool passes the guard");
        let listings = stitch.listings();
        let mut router = ToolRouter::new() + stitch;
        router.add_route(json_schema_2020_12_tool());
        let server = Conformance {
            tool_router: Arc::new(router),
            subscriptions: Arc::default(),
        };
        InDialects::new(server, listings)
    }
}

impl Conformance {
    /// The URIs subscribed to (a panic while they were held left them whole: one call each).
    fn subscriptions(&self) -> MutexGuard<'_, HashSet<String>> {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// Asks the user through the client, with `schema` for the answer: the answer as the suite
/// reads it, `action=..., content=...`.
async fn elicit(
    context: &RequestContext<RoleServer>,
    message: &str,
    schema: Value,
) -> Result<String, String> {
    let request: ElicitRequestParams = from_json(json!({
        "mode": "form", "message": message, "requestedSchema": schema
    }))
    .map_err(|error| error.message.to_string())?;
    let answer = context
        .peer
        .create_elicitation(request)
        .await
        .map_err(failed)?;
    let answer = serde_json::to_value(answer).map_err(failed)?;
    Ok(format!(
        "action={}, content={}",
        answer["action"].as_str().unwrap_or_default(),
        answer.get("content").unwrap_or(&Value::Null)
    ))
}

/// The suite's JSON Schema 2020-12 tool: a plain rmcp tool, since its schema's `$defs` and
/// `$ref` must reach the client as written.
fn json_schema_2020_12_tool() -> ToolRoute<Conformance> {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"type": "object", "properties": {
            "street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
        "additionalProperties": false
    });
    let Value::Object(schema) = schema else {
        unreachable!("a JSON object literal")
    };
    let tool = rmcp::model::Tool::new(
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features",
        Arc::new(schema),
    );
    ToolRoute::new_dyn(tool, |context| {
        let arguments = Value::Object(context.arguments.unwrap_or_default());
        Box::pin(async move {
            Ok(CallToolResult::success(vec![ContentBlock::text(arguments.to_string())]).into())
        })
    })
}

impl ServerHandler for Conformance {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_logging()
            .enable_completions()
            .build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new(
            "stitch-conformance",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tool_router.list_all()))
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        self.tool_router.get(name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let router = Arc::clone(&self.tool_router);
        router
            .call(ToolCallContext::new(self, request, context))
            .await
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        complete(json!({"prompts": [
            {"name": "test_simple_prompt", "description": "A prompt without arguments"},
            {"name": "test_prompt_with_arguments", "description": "A prompt with arguments",
             "arguments": [
                {"name": "arg1", "description": "First test argument", "required": true},
                {"name": "arg2", "description": "Second test argument", "required": true}]},
            {"name": "test_prompt_with_embedded_resource",
             "description": "A prompt embedding a resource",
             "arguments": [{"name": "resourceUri", "description": "The resource to embed",
                            "required": true}]},
            {"name": "test_prompt_with_image", "description": "A prompt with an image"}
        ]}))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let argument = |name: &str| {
            request
                .arguments
                .as_ref()
                .and_then(|arguments| arguments.get(name))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let text =
            |text: String| json!({"role": "user", "content": {"type": "text", "text": text}});
        let messages = match request.name.as_str() {
            "test_simple_prompt" => vec![text("This is a simple prompt for testing.".into())],
            "test_prompt_with_arguments" => vec![text(format!(
                "Prompt with arguments: arg1='{}', arg2='{}'",
                argument("arg1"),
                argument("arg2")
            ))],
            "test_prompt_with_embedded_resource" => vec![
                json!({"role": "user", "content": {"type": "resource", "resource": {
                    "uri": argument("resourceUri"), "mimeType": "text/plain",
                    "text": "Embedded resource content for testing."}}}),
                text("Please process the embedded resource above.".into()),
            ],
            "test_prompt_with_image" => vec![
                json!({"role": "user", "content": {"type": "image", "data": PIXEL,
                                                   "mimeType": "image/png"}}),
                text("Please analyze the image above.".into()),
            ],
            other => {
                return Err(ErrorData::invalid_params(
                    format!("no prompt \"{other}\""),
                    None,
                ));
            }
        };
        let result: rmcp::model::GetPromptResult = complete(json!({"messages": messages}))?;
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        complete(json!({"resources": [
            {"uri": "test://static-text", "name": "static-text",
             "description": "A static text resource", "mimeType": "text/plain"},
            {"uri": "test://static-binary", "name": "static-binary",
             "description": "A static binary resource", "mimeType": "image/png"},
            {"uri": "test://watched-resource", "name": "watched-resource",
             "description": "A resource to subscribe to", "mimeType": "text/plain"}
        ]}))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        complete(json!({"resourceTemplates": [
            {"uriTemplate": "test://template/{id}/data", "name": "template-data",
             "description": "Data by id", "mimeType": "application/json"}
        ]}))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let content = match uri {
            "test://static-text" | "test://watched-resource" => json!({"uri": uri,
                "mimeType": "text/plain",
                "text": "This is the content of the static text resource."}),
            "test://static-binary" => json!({"uri": uri, "mimeType": "image/png", "blob": PIXEL}),
            _ => match uri
                .strip_prefix("test://template/")
                .and_then(|rest| rest.strip_suffix("/data"))
            {
                Some(id) => json!({"uri": uri, "mimeType": "application/json",
                    "text": json!({"id": id, "templateTest": true,
                                   "data": format!("Data for ID: {id}")}).to_string()}),
                None => {
                    return Err(ErrorData::resource_not_found(
                        format!("no resource \"{uri}\""),
                        None,
                    ));
                }
            },
        };
        let result: rmcp::model::ReadResourceResult = complete(json!({"contents": [content]}))?;
        Ok(result.into())
    }

    /// Protocol 2026-07-28's `subscriptions/listen`: every category asked for that the
    /// server advertises (rmcp keeps only those), acknowledged and held until cancelled.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.clone())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions().insert(request.uri.to_string());
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions().remove(request.uri.as_str());
        Ok(())
    }

    async fn set_level(
        &self,
        _request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let typed = request.argument.value.to_lowercase();
        let values: Vec<&str> = ["paris", "park", "party"]
            .into_iter()
            .filter(|value| value.starts_with(&typed))
            .collect();
        complete(
            json!({"completion": {"values": values, "total": values.len(),
                                        "hasMore": false}}),
        )
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    log_to_stderr::install();
    let mut args = std::env::args().skip(1);
    let server = Conformance::new();
    match (args.next().as_deref(), args.next()) {
        (None, _) => {
            eprintln!("stitch-conformance: serving on stdio");
            let running = server.serve(rmcp::transport::stdio()).await?;
            running.waiting().await?;
        }
        (Some("--http"), Some(address)) => {
            let listener = HttpServer::new().bind(&address).await?;
            let address = listener.local_addr()?;
            eprintln!("stitch-conformance: serving on http://{address}/mcp");
            listener.serve(server).await?;
        }
        _ => return Err("usage: conformance [--http 127.0.0.1:PORT]".into()),
    }
    Ok(())
}
