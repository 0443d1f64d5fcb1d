//! Which dialect each client is shown: a server-wide default, and rules by the name a client
//! gives in its `initialize` (`clientInfo.name`). The same rule decides the schemas a client
//! lists and how its calls are parsed, so a client is always held to what it was shown.
//! [`ClientDialects`] is the rules, a plain value; [`Listings`] is what building stitch
//! tools with them gives: the rules and the stitch tools, to list each client in its dialect.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{Implementation, ListToolsResult};
use rmcp::service::{Peer, RequestContext};
use stitch_runtime::{Dialect, Tool};

use super::call::StitchTool;
use super::schema::{Output, listed};

/// The dialect each client is shown: a default, and rules by client name. Give it to
/// [`Tools::dialects`](super::Tools::dialects) (or
/// [`ToolboxBuilder::dialects`](super::ToolboxBuilder::dialects)): calls are then parsed in
/// the dialect of the client that makes them, and the [`Listings`] the router is built with
/// list each client its own schemas.
///
/// ```
/// use stitch::Dialect;
/// use stitch::mcp::ClientDialects;
/// use stitch::mcp::rmcp::model::Implementation;
///
/// let dialects = ClientDialects::new(Dialect::Mcp)
///     .client("cursor-vscode", Dialect::Portable)
///     .client("openai-mcp", Dialect::OpenAiStrict);
/// let cursor = Implementation::new("Cursor-VSCode", "1.0");
/// assert_eq!(dialects.dialect_of(Some(&cursor)), Dialect::Portable);
/// assert_eq!(dialects.dialect_of(None), Dialect::Mcp);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientDialects {
    default: Dialect,
    clients: Vec<(String, Dialect)>,
}

impl Default for ClientDialects {
    fn default() -> Self {
        ClientDialects::new(Dialect::Mcp)
    }
}

impl ClientDialects {
    /// Every client shown `default`.
    pub fn new(default: Dialect) -> ClientDialects {
        ClientDialects {
            default,
            clients: Vec::new(),
        }
    }

    /// A client whose `clientInfo.name` is `name` (compared ignoring ASCII case) is shown
    /// `dialect`.
    pub fn client(mut self, name: impl Into<String>, dialect: Dialect) -> ClientDialects {
        self.clients.push((name.into(), dialect));
        self
    }

    /// The dialect shown to a client that introduced itself as `client` (the default when
    /// it did not, or no rule names it).
    pub fn dialect_of(&self, client: Option<&Implementation>) -> Dialect {
        client
            .and_then(|client| {
                self.clients
                    .iter()
                    .find(|(name, _)| name.eq_ignore_ascii_case(&client.name))
            })
            .map_or(self.default, |(_, dialect)| *dialect)
    }

    /// The dialect shown to the client that made the request of `context`: the client named
    /// in the request's `_meta` (`io.modelcontextprotocol/clientInfo`, protocol 2026-07-28,
    /// where a request may come from any client), or else in its session's `initialize`.
    pub fn dialect_of_request(&self, context: &RequestContext<RoleServer>) -> Dialect {
        self.dialect_of(context.client_info().as_ref())
    }

    /// The dialect shown to the client at the other end of `peer`, by the name it gave in
    /// `initialize` (a legacy session's; [`dialect_of_request`](Self::dialect_of_request)
    /// also reads the request's own `_meta`).
    pub fn dialect_of_peer(&self, peer: &Peer<RoleServer>) -> Dialect {
        let info = peer.peer_info();
        self.dialect_of(info.as_deref().map(|info| &info.client_info))
    }

    /// The default dialect: what a client no rule names is shown.
    pub fn default_dialect(&self) -> Dialect {
        self.default
    }

    /// Every dialect these rules can show, the default first.
    pub fn served(&self) -> Vec<Dialect> {
        let mut served = vec![self.default];
        for (_, dialect) in &self.clients {
            if !served.contains(dialect) {
                served.push(*dialect);
            }
        }
        served
    }
}

/// Every stitch tool of a router as each client is shown it: what
/// [`StitchRouter::listings`](super::StitchRouter::listings) gives, an immutable value made
/// when the router is built. A server whose `ServerHandler` is written with `#[tool_handler]` lists
/// every client its router's schemas (the default dialect); to list each client its own, it
/// writes `list_tools` with [`list_tools`](Self::list_tools):
///
/// ```
/// # use stitch::mcp::{Listings, rmcp};
/// # use rmcp::handler::server::router::tool::ToolRouter;
/// # use rmcp::model::{ErrorData, ListToolsResult, PaginatedRequestParams};
/// # use rmcp::service::RequestContext;
/// # use rmcp::{RoleServer, ServerHandler, tool_handler};
/// # #[derive(Clone)]
/// # struct Server { tool_router: ToolRouter<Self>, listings: Listings }
/// #[tool_handler(router = self.tool_router)]
/// impl ServerHandler for Server {
///     async fn list_tools(
///         &self,
///         _request: Option<PaginatedRequestParams>,
///         context: RequestContext<RoleServer>,
///     ) -> Result<ListToolsResult, ErrorData> {
///         Ok(self.listings.list_tools(&self.tool_router, &context))
///     }
/// }
/// ```
#[derive(Clone, Debug, Default)]
pub struct Listings {
    rules: ClientDialects,
    /// The stitch tools, by name: their contracts and outputs (each schema is rendered once
    /// per dialect by the runtime, and kept).
    tools: Arc<HashMap<&'static str, (Tool, Option<Output>)>>,
}

impl Listings {
    /// The listings of `tools` by `rules`.
    pub(crate) fn of<S>(tools: &[Arc<StitchTool<S>>], rules: ClientDialects) -> Listings {
        let tools = tools
            .iter()
            .map(|tool| (tool.contract.name, (tool.contract, tool.output)))
            .collect();
        Listings {
            rules,
            tools: Arc::new(tools),
        }
    }

    /// The rules these listings follow.
    pub fn rules(&self) -> &ClientDialects {
        &self.rules
    }

    /// The `tools/list` answer for the client of `context`: every tool of `router`, each
    /// stitch tool with its schema in that client's dialect.
    pub fn list_tools<S: Send + Sync + 'static>(
        &self,
        router: &ToolRouter<S>,
        context: &RequestContext<RoleServer>,
    ) -> ListToolsResult {
        let dialect = self.rules.dialect_of_request(context);
        ListToolsResult::with_all_items(self.tools_in(router, dialect))
    }

    /// Every tool of `router`, each stitch tool with its schema in `dialect` (plain rmcp
    /// tools as they are).
    pub fn tools_in<S: Send + Sync + 'static>(
        &self,
        router: &ToolRouter<S>,
        dialect: Dialect,
    ) -> Vec<rmcp::model::Tool> {
        router
            .list_all()
            .into_iter()
            .map(|tool| match self.tools.get(tool.name.as_ref()) {
                Some((contract, output)) => listed(contract, *output, dialect),
                None => tool,
            })
            .collect()
    }
}
