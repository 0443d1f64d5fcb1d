//! The short form: a whole [`rmcp::ServerHandler`] made of stitch tools answered by closures,
//! built by the one builder, [`Tools`], on the routes it builds for an rmcp server.

use std::sync::Arc;

use crate::Finding;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use super::call::{Observer, StitchTool};
use super::catalog::stamp_response;
use super::dialects::Listings;
use super::route::{StitchRouter, Tools};

/// Contracts served as MCP tools: an [`rmcp::ServerHandler`] of stitch tools alone, built by
/// [`Tools::toolbox`].
///
/// ```
/// use serde::Deserialize;
/// use stitch::Contract;
/// use stitch::mcp::Tools;
///
/// /// Say hello.
/// #[derive(Contract, Deserialize)]
/// struct Hello {
///     name: String,
/// }
///
/// let toolbox = Tools::new()
///     .tool(|hello: Hello| async move { Ok::<_, String>(format!("hello {}", hello.name)) })
///     .toolbox("greeter", "1.0.0")
///     .expect("every tool passes the guard");
/// assert_eq!(toolbox.tools()[0].name, "hello");
/// ```
#[derive(Clone)]
pub struct Toolbox {
    tools: Arc<[Arc<StitchTool<Toolbox>>]>,
    router: Arc<ToolRouter<Toolbox>>,
    observer: Option<Observer>,
    listings: Listings,
    info: Implementation,
}

impl Toolbox {
    /// The advertised tools, as `tools/list` sends them to a client shown the default dialect.
    pub fn tools(&self) -> Vec<Tool> {
        let dialect = self.listings.rules().default_dialect();
        self.listings.tools_in(&self.router, dialect)
    }

    /// The toolbox's tools in every dialect, with their digests: see
    /// [`Listings::manifest`].
    pub fn manifest(&self) -> String {
        self.listings.manifest(&self.router)
    }

    /// Runs one call by the path a served call takes (parse, handler, deadline, observer), but
    /// not from a client: it is parsed in the default dialect, and a handler that takes the
    /// request's parts is answered with a protocol error.
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
        let dialect = self.listings.call_dialect(None);
        let call = Arc::clone(tool).run(self, arguments, dialect, None, self.observer.clone());
        match call.await? {
            CallToolResponse::Complete(result) => Ok(result),
            _ => Err(ErrorData::internal_error(
                "the tool answered with what only a client can take",
                None,
            )),
        }
    }
}

impl Tools<Toolbox> {
    /// Checks every tool with the guard (names valid and unique, object inputs and outputs,
    /// and what the profile requires) and builds a whole server of them, which clients know as
    /// `name` `version`; or returns every finding.
    pub fn toolbox(self, name: &str, version: &str) -> Result<Toolbox, Vec<Finding>> {
        let stitch: StitchRouter<Toolbox> = self.build()?;
        // A toolbox lists each client in its dialect itself.
        stitch.listings().mark_listing();
        Ok(Toolbox {
            listings: stitch.listings(),
            observer: stitch.observer.clone(),
            tools: stitch.tools.clone().into(),
            router: Arc::new(stitch.into_router()),
            info: Implementation::new(name, version),
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

    fn get_tool(&self, name: &str) -> Option<Tool> {
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
