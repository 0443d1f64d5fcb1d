//! Which dialect each client is shown: a server-wide default, and rules by the name a client
//! gives in its `initialize` (`clientInfo.name`). The same rule decides the schemas a client
//! lists and how its calls are parsed, so a client is always held to what it was shown.
//! [`ClientDialects`] is the rules, a plain value; [`Listings`] is what building stitch
//! tools with them gives: the rules and the stitch tools, to list each client in its dialect.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rmcp::RoleServer;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{Implementation, ListToolsResult};
use rmcp::service::{Peer, RequestContext};
use serde_json::Value;
use stitch_runtime::{Dialect, Tool, output_schema_for, tool_schema_for};

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
    /// Whether the server lists through these listings (it is wrapped in `InDialects`, is a
    /// `Toolbox`, or has listed a client with them): until it does, a call is parsed in the
    /// default dialect, which is what `#[tool_handler]` lists everyone.
    listing: Arc<Listing>,
}

/// What the listings have seen of the server's listing.
#[derive(Debug, Default)]
struct Listing {
    /// The server lists through these listings.
    used: AtomicBool,
    /// The author has been told that they are not.
    warned: AtomicBool,
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
            listing: Arc::default(),
        }
    }

    /// Notes that the server lists through these listings.
    pub(crate) fn mark_listing(&self) {
        self.listing.used.store(true, Ordering::Relaxed);
    }

    /// The dialect a call from a client the rules show `dialect` is parsed in: that dialect,
    /// once the server lists through these listings; until then the default one, which is
    /// what the client was listed, and the author is told once (a `tracing` warning) that
    /// the rules show nothing yet.
    pub(crate) fn parse_dialect(&self, dialect: Dialect) -> Dialect {
        let default = self.rules.default_dialect();
        if dialect == default || self.listing.used.load(Ordering::Relaxed) {
            return dialect;
        }
        if !self.listing.warned.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                "stitch: a client the dialect rules show {dialect} was listed {default}, the \
                 router's own listing, and its calls are parsed in {default}: wrap the server in \
                 `stitch::mcp::InDialects` (or list with `Listings::list_tools`) to show each \
                 client its dialect"
            );
        }
        default
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

    /// Whether `name` is one of these stitch tools.
    pub(crate) fn is_stitch_tool(&self, name: &str) -> bool {
        self.tools.contains_key(name)
    }

    /// Every tool of `router` as a client shown `dialect` is listed it (see
    /// [`shown`](Self::shown)).
    pub fn tools_in<S: Send + Sync + 'static>(
        &self,
        router: &ToolRouter<S>,
        dialect: Dialect,
    ) -> Vec<rmcp::model::Tool> {
        router
            .list_all()
            .into_iter()
            .map(|tool| self.shown(tool, dialect))
            .collect()
    }

    /// A tool as a client shown `dialect` is listed it, its input and output schemas in that
    /// dialect: a stitch tool's rendered from its contract and result type, a plain rmcp
    /// tool's rebuilt from its own ([`tool_schema_for`](stitch_runtime::tool_schema_for),
    /// [`output_schema_for`](stitch_runtime::output_schema_for)). The rest of the tool (its
    /// title, annotations, icons, `_meta`) is kept.
    ///
    /// An `Mcp` client takes JSON Schema 2020-12, and MCP asks servers to list what they
    /// wrote (`$schema`, `$defs` and the rest kept): a plain tool's schemas are listed to it
    /// as written, unless one holds what stitch exists to flatten (a `oneOf` or `anyOf`,
    /// which many clients refuse) or is not an object at its root (which MCP does not allow).
    pub fn shown(&self, mut tool: rmcp::model::Tool, dialect: Dialect) -> rmcp::model::Tool {
        self.mark_listing();
        if let Some((contract, output)) = self.tools.get(tool.name.as_ref()) {
            let listed = listed(contract, *output, dialect);
            tool.input_schema = listed.input_schema;
            tool.output_schema = listed.output_schema;
            return tool;
        }
        let as_written = |schema: &rmcp::model::JsonObject| {
            schema.get("type").and_then(Value::as_str) == Some("object") && !holds_union(schema)
        };
        if dialect == Dialect::Mcp
            && as_written(&tool.input_schema)
            && tool.output_schema.as_deref().is_none_or(as_written)
        {
            return tool;
        }
        let input = Value::Object(tool.input_schema.as_ref().clone());
        tool.input_schema = Arc::new(as_object(tool_schema_for(&input, dialect)));
        if let Some(output) = tool.output_schema.take() {
            let output = Value::Object(output.as_ref().clone());
            tool.output_schema = Some(Arc::new(as_object(output_schema_for(&output, dialect))));
        }
        tool
    }
}

/// Whether a schema holds a `oneOf` or an `anyOf` anywhere (walked without recursion).
fn holds_union(schema: &rmcp::model::JsonObject) -> bool {
    let union = |map: &serde_json::Map<String, Value>| {
        map.contains_key("oneOf") || map.contains_key("anyOf")
    };
    let mut pending: Vec<&Value> = schema.values().collect();
    if union(schema) {
        return true;
    }
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(map) if union(map) => return true,
            Value::Object(map) => pending.extend(map.values()),
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    false
}

/// A rebuilt schema as rmcp holds it: an object (what is not one, rebuilt from an object,
/// cannot come back; it is listed as the empty schema then, which the guard reports).
fn as_object(schema: Value) -> rmcp::model::JsonObject {
    match schema {
        Value::Object(object) => object,
        _ => rmcp::model::JsonObject::new(),
    }
}
