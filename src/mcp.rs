//! Serving contracts as tools of the official Rust MCP SDK (`rmcp`), behind the `rmcp` feature.
//!
//! A [`Toolbox`] mounts contracts with typed async handlers and implements
//! [`rmcp::ServerHandler`]. What it adds to rmcp alone: each tool advertises its flat, typed
//! schema; every call goes through [`Contract::parse`], so a bad call is answered as an
//! `isError` tool result naming each issue's JSON Pointer (a result the model can read and
//! correct, not a bare `-32602`); a handler's error is an `isError` result too; one observer
//! sees every call, accepted or rejected, for audit; and the guard runs over every mounted tool
//! when the toolbox is built.
//!
//! rmcp holds a tool's schema as a `serde_json::Map`, so the feature turns on serde_json's
//! `preserve_order`: without it the map sorts its keys, and the schema would reach clients
//! with its tag no longer first. The text on the wire is the text stitch rendered.

/// The official Rust MCP SDK, with its server and its stdio transport: what a server built
/// on stitch needs beside it, so a server depends on stitch (and an async runtime) alone.
pub use rmcp;

use std::collections::HashMap;
use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use stitch_runtime::{Contract, Finding, Issue, Mode, SchemaProfile, Shape, Tool};

type Reply = Pin<Box<dyn Future<Output = Result<Value, String>> + Send>>;
type Handler = Arc<dyn Fn(Value) -> Result<Reply, Vec<Issue>> + Send + Sync>;
type Observer = Arc<dyn Fn(&CallRecord<'_>) + Send + Sync>;

/// A type a tool returns with an output schema: it describes itself ([`Shape`], derived with
/// `#[derive(stitch::Shape)]`) and serializes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the result of a tool with an output schema",
    label = "the result's schema is advertised as the tool's `outputSchema`",
    note = "derive both on `{Self}`: `#[derive(stitch::Shape, serde::Serialize)]`"
)]
pub trait ToolOutput: Shape + serde::Serialize {}

impl<T: Shape + serde::Serialize> ToolOutput for T {}

/// What the observer sees of one call.
#[derive(Debug)]
pub struct CallRecord<'a> {
    /// The tool called.
    pub tool: &'a str,
    /// How the call ended.
    pub outcome: Outcome<'a>,
    /// From the arrival of the call to its answer.
    pub duration: Duration,
}

/// How a call ended.
#[derive(Debug)]
pub enum Outcome<'a> {
    /// The arguments parsed and the handler succeeded.
    Accepted,
    /// The arguments were rejected: the handler never ran.
    Rejected(&'a [Issue]),
    /// The arguments parsed, and the handler returned this error.
    Failed(&'a str),
}

struct Mounted {
    stitch: Tool,
    advertised: rmcp::model::Tool,
    handler: Handler,
    /// The result type's schema and name, when the tool advertises an output schema.
    output: Option<(&'static stitch_runtime::ir::Node, &'static str)>,
}

/// Mounts contracts as MCP tools; build it into a [`Toolbox`].
pub struct ToolboxBuilder {
    tools: Vec<Mounted>,
    profile: SchemaProfile,
    observer: Option<Observer>,
    info: Implementation,
}

/// Contracts served as MCP tools: an [`rmcp::ServerHandler`].
#[derive(Clone)]
pub struct Toolbox {
    tools: Arc<Vec<Mounted>>,
    by_name: Arc<HashMap<&'static str, usize>>,
    observer: Option<Observer>,
    info: Implementation,
}

impl Toolbox {
    /// A builder; `name` and `version` identify the server to clients.
    pub fn builder(name: &str, version: &str) -> ToolboxBuilder {
        ToolboxBuilder {
            tools: Vec::new(),
            profile: SchemaProfile::new(),
            observer: None,
            info: Implementation::new(name, version),
        }
    }

    /// The advertised tools, as rmcp sends them in `tools/list`.
    pub fn tools(&self) -> Vec<rmcp::model::Tool> {
        self.tools.iter().map(|t| t.advertised.clone()).collect()
    }

    /// Runs one call: parse, handler, observer. Unknown tools are a protocol error.
    pub async fn call(&self, name: &str, arguments: Value) -> Result<CallToolResult, ErrorData> {
        let started = Instant::now();
        let Some(&index) = self.by_name.get(name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool \"{name}\""),
                None,
            ));
        };
        let mounted = &self.tools[index];
        let (result, outcome_issues, failure) = match (mounted.handler)(arguments) {
            Err(issues) => {
                let rejection = stitch_runtime::Rejection { issues };
                let result = tool_result(if mounted.output.is_some() {
                    rejection.to_tool_result_with_output_schema()
                } else {
                    rejection.to_tool_result()
                });
                (result, Some(rejection.issues), None)
            }
            Ok(reply) => match reply.await {
                Ok(value) => (CallToolResult::structured(value), None, None),
                Err(message) => (
                    CallToolResult::error(vec![ContentBlock::text(message.clone())]),
                    None,
                    Some(message),
                ),
            },
        };
        if let Some(observer) = &self.observer {
            let outcome = match (&outcome_issues, &failure) {
                (Some(issues), _) => Outcome::Rejected(issues),
                (None, Some(message)) => Outcome::Failed(message),
                (None, None) => Outcome::Accepted,
            };
            observer(&CallRecord {
                tool: mounted.stitch.name,
                outcome,
                duration: started.elapsed(),
            });
        }
        Ok(result)
    }
}

/// A JSON error result (as `Rejection::to_tool_result` writes it) as rmcp's type.
fn tool_result(value: Value) -> CallToolResult {
    let text = value["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content = value.get("structuredContent").cloned();
    if let Some(Value::Object(meta)) = value.get("_meta") {
        result.meta = Some(rmcp::model::MetaObject(meta.clone()));
    }
    result
}

impl ToolboxBuilder {
    /// Mounts contract `C` with an async handler; its `Ok` value is the tool's structured
    /// result, its `Err` an `isError` result.
    pub fn tool<C, O, E, F, Fut>(self, handler: F) -> Self
    where
        C: Contract + Send + 'static,
        O: serde::Serialize,
        E: Display,
        F: Fn(C) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, E>> + Send + 'static,
    {
        self.mount::<C, O, E, F, Fut>(handler, None)
    }

    /// Like [`tool`](Self::tool), also advertising the output's schema: the advertised
    /// schema of `O`, which must be an object ([`build`](Self::build) reports it when it is
    /// not). Clients validate `structuredContent` against it, rejections included, so a
    /// rejection of this tool carries its issues in the text and in `_meta` instead (see
    /// [`Rejection::to_tool_result_with_output_schema`](stitch_runtime::Rejection::to_tool_result_with_output_schema)).
    pub fn tool_with_output<C, O, E, F, Fut>(self, handler: F) -> Self
    where
        C: Contract + Send + 'static,
        O: ToolOutput,
        E: Display,
        F: Fn(C) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, E>> + Send + 'static,
    {
        let output = (O::SHAPE, std::any::type_name::<O>());
        self.mount::<C, O, E, F, Fut>(handler, Some(output))
    }

    fn mount<C, O, E, F, Fut>(
        mut self,
        handler: F,
        output: Option<(&'static stitch_runtime::ir::Node, &'static str)>,
    ) -> Self
    where
        C: Contract + Send + 'static,
        O: serde::Serialize,
        E: Display,
        F: Fn(C) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, E>> + Send + 'static,
    {
        let handler = Arc::new(handler);
        let erased: Handler = Arc::new(move |arguments: Value| {
            let parsed = C::parse(arguments).map_err(|rejection| rejection.issues)?;
            let handler = Arc::clone(&handler);
            let reply: Reply = Box::pin(async move {
                match handler(parsed).await {
                    Ok(output) => serde_json::to_value(output).map_err(|e| e.to_string()),
                    Err(error) => Err(error.to_string()),
                }
            });
            Ok(reply)
        });
        let mut advertised = rmcp::model::Tool::new(
            C::TOOL.name,
            C::TOOL.description,
            Arc::new(json_object(C::input_schema())),
        );
        advertised.output_schema = output.map(|(node, _)| {
            Arc::new(json_object(stitch_runtime::__private::rendered(
                node,
                Mode::Advertised,
            )))
        });
        self.tools.push(Mounted {
            stitch: C::TOOL,
            advertised,
            handler: erased,
            output,
        });
        self
    }

    /// The guard's profile for every mounted tool (default: nothing required beyond valid,
    /// unique names and object inputs).
    pub fn profile(mut self, profile: SchemaProfile) -> Self {
        self.profile = profile;
        self
    }

    /// Sees every call, accepted or rejected (the audit channel).
    pub fn observe(mut self, observer: impl Fn(&CallRecord<'_>) + Send + Sync + 'static) -> Self {
        self.observer = Some(Arc::new(observer));
        self
    }

    /// Checks every mounted tool with the guard (names valid and unique, object inputs, and
    /// what the profile requires) and builds the toolbox, or returns every finding.
    pub fn build(self) -> Result<Toolbox, Vec<Finding>> {
        let tools: Vec<Tool> = self.tools.iter().map(|t| t.stitch).collect();
        let mut findings = stitch_runtime::all_findings(&tools, &self.profile);
        for mounted in &self.tools {
            if let Some((node, type_name)) = mounted.output
                && let Err(finding) =
                    stitch_runtime::validate_output_schema(mounted.stitch.name, node, type_name)
            {
                findings.push(finding);
            }
        }
        if !findings.is_empty() {
            return Err(findings);
        }
        let by_name = tools
            .iter()
            .enumerate()
            .map(|(index, tool)| (tool.name, index))
            .collect();
        Ok(Toolbox {
            tools: Arc::new(self.tools),
            by_name: Arc::new(by_name),
            observer: self.observer,
            info: self.info,
        })
    }
}

/// A rendered schema as a JSON object (stitch always renders an object schema).
fn json_object(schema: &str) -> JsonObject {
    match serde_json::from_str(schema) {
        Ok(Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}

impl ServerHandler for Toolbox {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(self.info.clone())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        let index = *self.by_name.get(name)?;
        Some(self.tools[index].advertised.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        self.call(&request.name, arguments).await.map(Into::into)
    }
}
