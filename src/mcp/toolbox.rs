//! The short form: a whole [`rmcp::ServerHandler`] made of stitch tools answered by closures,
//! built on the same routes [`Tools`](super::Tools) builds for an rmcp server.

use std::fmt::Display;
use std::sync::Arc;
use std::time::Instant;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{IntoCallToolResult, ToolCallContext};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use stitch_runtime::{Contract, Finding, SchemaProfile};

use super::call::{CallRecord, Observer, StitchTool, ToolOutput};
use super::catalog::stamp_response;
use super::dialects::{ClientDialects, Listings};
use super::handler::{RequestParts, ToolboxHandler, content, structured};
use super::route::{StitchRouter, Tools};
use super::schema::Output;

/// Mounts contracts as MCP tools; build it into a [`Toolbox`].
pub struct ToolboxBuilder {
    tools: Tools<Toolbox>,
    info: Implementation,
}

/// Contracts served as MCP tools: an [`rmcp::ServerHandler`] of stitch tools alone.
#[derive(Clone)]
pub struct Toolbox {
    tools: Arc<[Arc<StitchTool<Toolbox>>]>,
    router: Arc<ToolRouter<Toolbox>>,
    observer: Option<Observer>,
    listings: Listings,
    info: Implementation,
}

impl Toolbox {
    /// A builder; `name` and `version` identify the server to clients.
    pub fn builder(name: &str, version: &str) -> ToolboxBuilder {
        ToolboxBuilder {
            tools: Tools::new(),
            info: Implementation::new(name, version),
        }
    }

    /// The advertised tools, as `tools/list` sends them to a client shown the default dialect.
    pub fn tools(&self) -> Vec<rmcp::model::Tool> {
        let dialect = self.listings.rules().default_dialect();
        self.listings.tools_in(&self.router, dialect)
    }

    /// The toolbox's tools in every dialect, with their digests: see
    /// [`Listings::manifest`].
    pub fn manifest(&self) -> String {
        self.listings.manifest(&self.router)
    }

    /// Runs one call, as the server runs it (parse, handler, observer), but not from a
    /// client: a handler that takes the request's parts is answered with a protocol error.
    /// An unknown tool is a protocol error.
    pub async fn call(&self, name: &str, arguments: Value) -> Result<CallToolResult, ErrorData> {
        let Some(tool) = self.tools.iter().find(|tool| tool.contract.name == name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool \"{name}\""),
                None,
            ));
        };
        let arguments = match arguments {
            Value::Object(arguments) => Some(arguments),
            _ => None,
        };
        let started = Instant::now();
        let dialect = self.listings.rules().default_dialect();
        let answer = tool.start(self, arguments, dialect, None).await;
        match tool.finish(answer, started, self.observer.as_ref())? {
            CallToolResponse::Complete(result) => Ok(result),
            _ => Err(ErrorData::internal_error(
                "the tool answered with what only a client can take",
                None,
            )),
        }
    }
}

impl ToolboxBuilder {
    /// Mounts contract `C` with an async handler, which may take the request's parts after
    /// the contract (see [`ToolboxHandler`]); its `Ok` value is the tool's structured result,
    /// its `Err` an `isError` result.
    pub fn tool<C, P, O, E, F>(mut self, handler: F) -> Self
    where
        C: Contract + Send + 'static,
        P: RequestParts<Toolbox>,
        O: serde::Serialize + Send + 'static,
        E: Display + Send + 'static,
        F: ToolboxHandler<C, P, Result<O, E>>,
    {
        let tool = StitchTool::new(
            move |_, contract, parts| Box::pin(handler.call(contract, parts)),
            structured::<O, E>,
            None,
        );
        self.tools = self.tools.add(tool);
        self
    }

    /// Like [`tool`](Self::tool), also advertising the result's schema as the tool's
    /// `outputSchema`: the advertised schema of `O`, which must be an object (`build`
    /// reports it when it is not). Clients validate `structuredContent` against it,
    /// rejections included, so a rejection of this tool carries its issues in the text and in
    /// `_meta` instead (see
    /// [`Rejection::to_tool_result_with_output_schema`](stitch_runtime::Rejection::to_tool_result_with_output_schema)).
    pub fn tool_with_output<C, P, O, E, F>(mut self, handler: F) -> Self
    where
        C: Contract + Send + 'static,
        P: RequestParts<Toolbox>,
        O: ToolOutput + Send + 'static,
        E: Display + Send + 'static,
        F: ToolboxHandler<C, P, Result<O, E>>,
    {
        let tool = StitchTool::new(
            move |_, contract, parts| Box::pin(handler.call(contract, parts)),
            structured::<O, E>,
            Some(Output::of::<O>()),
        );
        self.tools = self.tools.add(tool);
        self
    }

    /// Mounts contract `C` with a handler that answers with any result rmcp's own tools
    /// return (text, image, audio, embedded resources, several blocks, a `CallToolResult`;
    /// see [`Tools::tool_with_content`](super::Tools::tool_with_content)).
    pub fn tool_with_content<C, P, R, F>(mut self, handler: F) -> Self
    where
        C: Contract + Send + 'static,
        P: RequestParts<Toolbox>,
        R: IntoCallToolResult + Send + 'static,
        F: ToolboxHandler<C, P, R>,
    {
        let tool = StitchTool::new(
            move |_, contract, parts| Box::pin(handler.call(contract, parts)),
            content::<R>,
            None,
        );
        self.tools = self.tools.add(tool);
        self
    }

    /// The guard's profile for every mounted tool (default: nothing required beyond valid,
    /// unique names and object inputs).
    pub fn profile(mut self, profile: SchemaProfile) -> Self {
        self.tools = self.tools.profile(profile);
        self
    }

    /// Sees every call, accepted or rejected (the audit channel).
    pub fn observe(mut self, observer: impl Fn(&CallRecord<'_>) + Send + Sync + 'static) -> Self {
        self.tools = self.tools.observe(observer);
        self
    }

    /// How long a call of any tool may run (default 60 s): see
    /// [`Tools::call_deadline`](super::Tools::call_deadline).
    pub fn call_deadline(mut self, deadline: std::time::Duration) -> Self {
        self.tools = self.tools.call_deadline(deadline);
        self
    }

    /// How long a call of contract `C`'s tool may run, in place of the toolbox's.
    pub fn call_deadline_of<C: Contract>(mut self, deadline: std::time::Duration) -> Self {
        self.tools = self.tools.call_deadline_of::<C>(deadline);
        self
    }

    /// Which dialect each client is shown, from the name it gives in `initialize`; its calls
    /// are parsed in that dialect (see [`ClientDialects`]).
    pub fn dialects(mut self, dialects: ClientDialects) -> Self {
        self.tools = self.tools.dialects(dialects);
        self
    }

    /// Checks every mounted tool with the guard (names valid and unique, object inputs and
    /// outputs, and what the profile requires) and builds the toolbox, or returns every
    /// finding.
    pub fn build(self) -> Result<Toolbox, Vec<Finding>> {
        let stitch: StitchRouter<Toolbox> = self.tools.build()?;
        // A toolbox lists each client in its dialect itself.
        stitch.listings().mark_listing();
        Ok(Toolbox {
            listings: stitch.listings(),
            observer: stitch.observer.clone(),
            tools: stitch.tools.clone().into(),
            router: Arc::new(stitch.into_router()),
            info: self.info,
        })
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
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(self.listings.list_tools(&self.router, &context))
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        self.router.get(name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let dialect = self.listings.rules().dialect_of_request(&context);
        let mut response = self
            .router
            .call(ToolCallContext::new(self, request, context))
            .await?;
        let stamp = self
            .listings
            .catalog_stamp(&self.router.list_all(), dialect);
        stamp_response(&mut response, &stamp);
        Ok(response)
    }
}
