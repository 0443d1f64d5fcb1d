//! Which dialect each client is shown: a server-wide default, and rules by the name a client
//! gives in its `initialize` (`clientInfo.name`). The same rule decides the schemas a client
//! lists and how its calls are parsed, so a client is always held to what it was shown.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use rmcp::RoleServer;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{Implementation, ListToolsResult};
use rmcp::service::{Peer, RequestContext};
use stitch_runtime::{Dialect, Tool};

use super::call::json_object;

/// The dialect each client is shown. Give it to [`Tools::dialects`](super::Tools::dialects)
/// (or [`ToolboxBuilder::dialects`](super::ToolboxBuilder::dialects)) once its rules are set;
/// clones share the stitch tools the builders register, so the copy the server keeps lists
/// them in each client's dialect:
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
///
/// A server whose `ServerHandler` is written with `#[tool_handler]` lists every client its
/// router's schemas (the default dialect); to list each client its own, it writes
/// `list_tools` itself, as [`list_tools`](Self::list_tools) shows.
#[derive(Clone, Debug)]
pub struct ClientDialects {
    default: Dialect,
    clients: Vec<(String, Dialect)>,
    /// The stitch tools of the routers built with these rules, by name.
    catalog: Arc<RwLock<HashMap<String, Tool>>>,
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
            catalog: Arc::default(),
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

    /// The dialect shown to the client at the other end of `peer`.
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

    /// The `tools/list` answer for the client of `context`: every tool of `router`, each stitch
    /// tool with its schema in that client's dialect. What a server's `list_tools` returns:
    ///
    /// ```
    /// # use stitch::mcp::{ClientDialects, rmcp};
    /// # use rmcp::handler::server::router::tool::ToolRouter;
    /// # use rmcp::model::{ErrorData, ListToolsResult, PaginatedRequestParams};
    /// # use rmcp::service::RequestContext;
    /// # use rmcp::{RoleServer, ServerHandler, tool_handler};
    /// # #[derive(Clone)]
    /// # struct Server { tool_router: ToolRouter<Self>, dialects: ClientDialects }
    /// #[tool_handler(router = self.tool_router)]
    /// impl ServerHandler for Server {
    ///     async fn list_tools(
    ///         &self,
    ///         _request: Option<PaginatedRequestParams>,
    ///         context: RequestContext<RoleServer>,
    ///     ) -> Result<ListToolsResult, ErrorData> {
    ///         Ok(self.dialects.list_tools(&self.tool_router, &context))
    ///     }
    /// }
    /// ```
    pub fn list_tools<S: Send + Sync + 'static>(
        &self,
        router: &ToolRouter<S>,
        context: &RequestContext<RoleServer>,
    ) -> ListToolsResult {
        let dialect = self.dialect_of_peer(&context.peer);
        ListToolsResult::with_all_items(self.tools_in(router, dialect))
    }

    /// Every tool of `router`, each stitch tool with its schema in `dialect` (plain rmcp
    /// tools as they are).
    pub fn tools_in<S: Send + Sync + 'static>(
        &self,
        router: &ToolRouter<S>,
        dialect: Dialect,
    ) -> Vec<rmcp::model::Tool> {
        let listed = router.list_all();
        if dialect == self.default {
            // What the router's stitch routes advertise already.
            return listed;
        }
        let catalog = self.catalog.read().unwrap_or_else(PoisonError::into_inner);
        listed
            .into_iter()
            .map(|mut tool| {
                if let Some(contract) = catalog.get(tool.name.as_ref()) {
                    tool.input_schema = Arc::new(json_object(contract.input_schema_for(dialect)));
                }
                tool
            })
            .collect()
    }

    /// Records a stitch tool, so that listings in a dialect can render it.
    pub(crate) fn register(&self, tool: Tool) {
        let mut catalog = self.catalog.write().unwrap_or_else(PoisonError::into_inner);
        catalog.insert(tool.name.to_owned(), tool);
    }
}
