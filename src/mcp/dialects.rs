//! Which dialect each client is shown: a server-wide default, and rules by the name a client
//! gives in its `initialize` (`clientInfo.name`). The same rule decides the schemas a client
//! lists and how its calls are parsed, so a client is always held to what it was shown.
//! [`ClientDialects`] is the rules, a plain value; [`Listings`] is what building stitch
//! tools with them gives: the rules and the stitch tools, to list each client in its dialect.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::foreign::{output_schema_for, tool_schema_for};
use crate::{ContractTool, Dialect};
use rmcp::RoleServer;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{Implementation, ListToolsResult, Tool};
use rmcp::service::{Peer, RequestContext};
use serde_json::Value;

use super::call::StitchTool;
use super::catalog::{Catalog, Catalogs, Made, listed_tool_digest, report_over_budget};
use super::legacy_output::LegacyOutput;
use super::list_cache::{self, DEFAULT_LIST_TTL};
use super::schema::{Output, listed};

/// The dialect an endpoint fixes for every request it serves: what an
/// [`HttpServer`](super::HttpServer) path per dialect (`/mcp/openai-strict`) puts in the
/// requests it passes on.
#[cfg(feature = "http")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EndpointDialect(pub(crate) Dialect);

/// The dialect the endpoint a request came to fixes, if it fixes one.
fn endpoint_dialect(context: &RequestContext<RoleServer>) -> Option<Dialect> {
    #[cfg(feature = "http")]
    {
        context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<EndpointDialect>())
            .map(|endpoint| endpoint.0)
    }
    #[cfg(not(feature = "http"))]
    {
        let _ = context;
        None
    }
}

/// The dialect each client is shown: a default, and rules by client name. Give it to
/// [`Tools::dialects`](super::Tools::dialects): calls are then parsed in
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
    legacy_output: LegacyOutput,
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
            legacy_output: LegacyOutput::default(),
        }
    }

    /// What a client older than protocol 2026-07-28 is listed of a plain tool's output
    /// schema whose root is not an object, which it cannot take, and answered of its result
    /// (see [`LegacyOutput`]; [`Wrap`](LegacyOutput::Wrap) by default).
    pub fn legacy_output(mut self, legacy_output: LegacyOutput) -> ClientDialects {
        self.legacy_output = legacy_output;
        self
    }

    /// What an older client is listed of an output schema it cannot take.
    pub fn legacy_output_of(&self) -> LegacyOutput {
        self.legacy_output
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

    /// The dialect shown to the client that made the request of `context`: the one its
    /// endpoint fixes (an [`HttpServer`](super::HttpServer) path per dialect,
    /// `/mcp/openai-strict`); else by the client named in the request's `_meta`
    /// (`io.modelcontextprotocol/clientInfo`, protocol 2026-07-28, where a request may come
    /// from any client), or else in its session's `initialize`.
    /// Rules that name no client show every client the default: the request is not read
    /// (finding its client copies the client's `Implementation`, once per call).
    pub fn dialect_of_request(&self, context: &RequestContext<RoleServer>) -> Dialect {
        if let Some(dialect) = endpoint_dialect(context) {
            return dialect;
        }
        if self.clients.is_empty() {
            return self.default;
        }
        self.dialect_of(context.client_info().as_ref())
    }

    /// Whether every caller of the endpoint a request came to is shown one dialect: the
    /// endpoint fixes it, or no rule names a client.
    pub(crate) fn one_dialect_for_every_caller(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> bool {
        self.clients.is_empty() || endpoint_dialect(context).is_some()
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
/// use stitch::mcp::{Listings, rmcp};
/// use rmcp::handler::server::router::tool::ToolRouter;
/// use rmcp::model::{ErrorData, ListToolsResult, PaginatedRequestParams};
/// use rmcp::service::RequestContext;
/// use rmcp::{RoleServer, ServerHandler, tool_handler};
///
/// #[derive(Clone)]
/// struct Server {
///     tool_router: ToolRouter<Self>,
///     listings: Listings,
/// }
///
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
    tools: Arc<HashMap<&'static str, (ContractTool, Option<Output>)>>,
    /// Whether the server lists through these listings (it is wrapped in `InDialects`, is a
    /// `Toolbox`, or has listed a client with them): until it does, a call is parsed in the
    /// default dialect, which is what `#[tool_handler]` lists everyone.
    listing: Arc<Listing>,
    /// The catalog stamp of each dialect, kept with the listing it was made from.
    catalogs: Arc<Catalogs>,
    /// How long a client may treat a listing as fresh (see `list_cache`).
    list_ttl: Duration,
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
            catalogs: Arc::default(),
            list_ttl: DEFAULT_LIST_TTL,
        }
    }

    /// The same listings, saying that a listing is fresh for `ttl`.
    pub(crate) fn with_list_ttl(self, ttl: Duration) -> Listings {
        Listings {
            list_ttl: ttl,
            ..self
        }
    }

    /// A listing's caching hints (`ttlMs`, `cacheScope`): for one these listings made, this
    /// catalog's; for a wrapped server's relisted, its own made no bolder than this catalog's;
    /// `"public"` only where every caller of the endpoint is listed the same (`shared`, see
    /// `list_cache`).
    pub(crate) fn hint_caching(&self, listed: &mut ListToolsResult, own: bool, shared: bool) {
        if own {
            list_cache::hint(listed, self.list_ttl, shared);
        } else {
            list_cache::more_cautious(listed, self.list_ttl, shared);
        }
    }

    /// Notes that the server lists through these listings.
    pub(crate) fn mark_listing(&self) {
        self.listing.used.store(true, Ordering::Relaxed);
    }

    /// The dialect a call is parsed in, decided here and nowhere else: the one the rules show
    /// the client of `request` (the default one for a call no client made), once the server
    /// lists each client through these listings (a `Toolbox`, `InDialects`,
    /// [`list_tools`](Self::list_tools)); until then the default one, which is what every
    /// client was listed, and the author is told once (a `tracing` warning) that the rules show
    /// nothing yet.
    pub(crate) fn call_dialect(&self, request: Option<&RequestContext<RoleServer>>) -> Dialect {
        let default = self.rules.default_dialect();
        let Some(request) = request else {
            return default;
        };
        let dialect = self.rules.dialect_of_request(request);
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
        let mut listed = ListToolsResult::with_all_items(self.tools_in(router, dialect));
        let shared = self.rules.one_dialect_for_every_caller(context);
        self.hint_caching(&mut listed, true, shared);
        self.report_over_budget(&mut listed, dialect);
        listed
    }

    /// Whether `name` is one of these stitch tools.
    pub(crate) fn is_stitch_tool(&self, name: &str) -> bool {
        self.tools.contains_key(name)
    }

    /// Every tool of `router` as a client shown `dialect` is listed it (see
    /// [`listing`](Self::listing)).
    pub fn tools_in<S: Send + Sync + 'static>(
        &self,
        router: &ToolRouter<S>,
        dialect: Dialect,
    ) -> Vec<Tool> {
        self.listing(router.list_all(), dialect)
    }

    /// The tools a server lists (`listed`, as it declares them) as a client shown `dialect` is
    /// listed them: each [`shown`](Self::shown) in the dialect, and each stamped with the
    /// catalog's stamp in `_meta["stitch/catalog"]` (see [`catalog_stamp`](Self::catalog_stamp)).
    pub fn listing(&self, listed: Vec<Tool>, dialect: Dialect) -> Vec<Tool> {
        self.mark_listing();
        self.catalog(&listed, dialect).shown.to_vec()
    }

    /// The catalog stamp of the tools a server lists (`listed`, as it declares them), as a
    /// client shown `dialect` is listed them: derived from every tool's digest in that dialect
    /// ([`listed_tool_digest`](super::listed_tool_digest),
    /// [`stitch::measure::catalog_stamp`](crate::measure::catalog_stamp)).
    /// What each tool listed and each result carries in `_meta["stitch/catalog"]`: a client
    /// whose stamp differs from an answer's holds a stale catalog. Kept per dialect while the
    /// server lists the same tools (the same schemas, by address), so a result pays for the
    /// digest only when the tools changed.
    pub fn catalog_stamp(&self, listed: &[Tool], dialect: Dialect) -> Arc<str> {
        self.catalog(listed, dialect).stamp
    }

    /// The catalog of `listed` in `dialect`: each tool as the dialect lists it, its digest,
    /// and the stamp (rendered once, and kept while the server lists the same tools).
    fn catalog(&self, listed: &[Tool], dialect: Dialect) -> Catalog {
        self.catalogs.catalog(dialect, listed, || {
            let shown: Vec<Tool> = listed
                .iter()
                .map(|tool| self.shown(tool.clone(), dialect))
                .collect();
            made_of(shown, dialect)
        })
    }

    /// A listing's result, saying each budget of `dialect`'s provider that the listing last
    /// made in it crosses (`_meta["stitch/over_budget"]`), as it is logged.
    pub(crate) fn report_over_budget(&self, listed: &mut ListToolsResult, dialect: Dialect) {
        if let Some(catalog) = self.catalogs.held(dialect) {
            report_over_budget(listed, &catalog);
        }
    }

    /// The stamp of the listing last made in `dialect` ([`listing`](Self::listing) or
    /// [`catalog_stamp`](Self::catalog_stamp)), if one was.
    pub(crate) fn held_stamp(&self, dialect: Dialect) -> Option<Arc<str>> {
        self.catalogs.held(dialect).map(|catalog| catalog.stamp)
    }

    /// A deterministic listing of `router`'s tools in every dialect: each dialect's catalog
    /// stamp, then each tool (in name order) with its digest, its input schema's bytes and an
    /// estimate of its tokens. A snapshot test of it fails when an advertised schema drifts:
    ///
    /// ```
    /// use stitch::mcp::Tools;
    ///
    /// /// Look up a record.
    /// #[derive(stitch::Contract, serde::Deserialize)]
    /// struct Lookup {
    ///     id: u32,
    /// }
    ///
    /// #[derive(Clone)]
    /// struct Server;
    ///
    /// impl Server {
    ///     async fn lookup(&self, args: Lookup) -> Result<String, String> {
    ///         Ok(args.id.to_string())
    ///     }
    /// }
    ///
    /// let stitch = Tools::<Server>::new().tool(Server::lookup).build().unwrap();
    /// let listings = stitch.listings();
    /// let manifest = listings.manifest(&stitch.into_router());
    /// assert!(manifest.lines().any(|line| line.starts_with("openai-strict lookup ")));
    /// ```
    pub fn manifest<S: Send + Sync + 'static>(&self, router: &ToolRouter<S>) -> String {
        let listed = router.list_all();
        let mut manifest = String::from(
            "# stitch catalog manifest: per dialect, the catalog stamp, then each tool's digest, \
             input schema bytes and estimated tokens\n",
        );
        for &dialect in Dialect::ALL {
            let catalog = self.catalog(&listed, dialect);
            manifest.push_str(&format!("{dialect} catalog {}\n", catalog.stamp));
            let mut tools: Vec<(&Tool, &Arc<str>)> =
                catalog.shown.iter().zip(catalog.digests.iter()).collect();
            tools.sort_by(|(a, _), (b, _)| a.name.cmp(&b.name));
            for (shown, digest) in tools {
                let (input, _) = self.texts(shown, dialect);
                let measure = crate::measure::Measure::of(&input);
                manifest.push_str(&format!(
                    "{dialect} {} {digest} {} bytes {} tokens\n",
                    shown.name, measure.bytes, measure.tokens,
                ));
            }
        }
        manifest
    }

    /// The texts of a listed tool's input and output schemas: a stitch tool's as rendered, a
    /// plain tool's as serialized.
    fn texts(
        &self,
        shown: &Tool,
        dialect: Dialect,
    ) -> (Cow<'static, str>, Option<Cow<'static, str>>) {
        if let Some((contract, output)) = self.tools.get(shown.name.as_ref()) {
            let output = output.map(|output| Cow::Borrowed((output.schema_in)(dialect)));
            return (Cow::Borrowed(contract.input_schema_for(dialect)), output);
        }
        let text = |schema: &rmcp::model::JsonObject| {
            Cow::Owned(serde_json::to_string(schema).unwrap_or_default())
        };
        (
            text(&shown.input_schema),
            shown.output_schema.as_deref().map(text),
        )
    }

    /// A tool as a client shown `dialect` is listed it, its input and output schemas in that
    /// dialect: a stitch tool's rendered from its contract and result type, a plain rmcp
    /// tool's rebuilt from its own ([`tool_schema_for`](crate::foreign::tool_schema_for),
    /// [`output_schema_for`](crate::foreign::output_schema_for)). The rest of the tool (its
    /// title, annotations, icons, `_meta`) is kept.
    ///
    /// An `Mcp` client takes JSON Schema 2020-12, and MCP asks servers to list what they
    /// wrote (`$schema`, `$defs` and the rest kept): a plain tool's schemas are listed to it
    /// as written, unless one holds what stitch exists to flatten (a `oneOf` or `anyOf`,
    /// which many clients refuse) or is not an object at its root (which MCP does not allow).
    pub fn shown(&self, mut tool: Tool, dialect: Dialect) -> Tool {
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

/// What a catalog new to `dialect` is made of: each tool's digest, and each budget of the
/// dialect's provider the tools listed together cross, logged (a `tracing` warning, naming
/// the tool and the limit) as it is measured, once per catalog.
fn made_of(shown: Vec<Tool>, dialect: Dialect) -> Made {
    let over_budget = over_budget(&shown, dialect);
    for finding in &over_budget {
        tracing::warn!("{finding}");
    }
    Made {
        digests: shown.iter().map(listed_tool_digest).collect(),
        shown,
        over_budget,
    }
}

/// Each budget of `dialect`'s provider that the tools listed together cross, said.
fn over_budget(shown: &[Tool], dialect: Dialect) -> Vec<String> {
    let texts = budget_texts(shown);
    let listed = texts
        .iter()
        .map(|(name, description, input)| (*name, *description, input.as_str()));
    crate::guard::over_budget(dialect, listed)
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// How much of each budget of `dialect`'s provider the tools listed together use (`shown`, as
/// clients shown `dialect` are listed them), measured as a listing's budgets are checked
/// ([`stitch::guard::budget_use`](crate::guard::budget_use)).
pub fn listing_budget_use(shown: &[Tool], dialect: Dialect) -> Vec<(crate::guard::Limit, u64)> {
    let texts = budget_texts(shown);
    let listed = texts
        .iter()
        .map(|(name, description, input)| (*name, *description, input.as_str()));
    crate::guard::budget_use(dialect, listed)
}

/// What the budgets count of each listed tool: its name, its description, and its input
/// schema as sent.
fn budget_texts(shown: &[Tool]) -> Vec<(&str, &str, String)> {
    shown
        .iter()
        .map(|tool| {
            let input = serde_json::Value::Object((*tool.input_schema).clone()).to_string();
            (
                &*tool.name,
                tool.description.as_deref().unwrap_or_default(),
                input,
            )
        })
        .collect()
}
