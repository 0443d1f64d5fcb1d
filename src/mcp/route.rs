//! Stitch tools as routes of an rmcp server: [`Tools`] builds them into a
//! [`ToolRouter`], which adds to the router rmcp's `#[tool_router]` writes, so an ordinary rmcp
//! server (prompts, resources and plain tools beside) serves stitch tools without being
//! rebuilt around stitch.

use std::fmt::Display;
use std::future::Future;
use std::sync::Arc;

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::model::CallToolResponse;
use stitch_runtime::{Contract, Finding, SchemaProfile};

use super::call::{CallRecord, Observer, StitchTool, ToolOutput};
use super::dialects::ClientDialects;

/// The handler of a stitch tool: an async method of the server, `async fn(&self, C) ->
/// Result<O, E>` (the form rmcp's own tools take), or a closure `|server: &S, c: C| async
/// move { ... }` whose future does not borrow the server (clone what it needs first). `O` is
/// the result (serialized into `structuredContent`), `E` an error the model reads.
pub trait Handler<'a, S: 'a, C, O, E>: Send + Sync + 'static {
    /// The handler's future.
    type Future: Future<Output = Result<O, E>> + Send + 'a;

    /// Answers one call of the tool, with the server's state.
    fn call(&self, server: &'a S, contract: C) -> Self::Future;
}

impl<'a, S: 'a, C, O, E, F, Fut> Handler<'a, S, C, O, E> for F
where
    F: Fn(&'a S, C) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, E>> + Send + 'a,
{
    type Future = Fut;

    fn call(&self, server: &'a S, contract: C) -> Fut {
        self(server, contract)
    }
}

/// Stitch tools for an rmcp server whose state is `S`, built into a [`ToolRouter<S>`] that
/// adds to the server's own (`Self::tool_router() + tools`).
///
/// Each tool advertises its contract's flat schema, parses every call with
/// [`Contract::parse_for`] in the dialect its client was shown, answers a rejection with every issue at its JSON Pointer (an `isError`
/// result, structured) and a handler's error as an `isError` result, and tells the observer
/// of every call. [`build`](Self::build) runs the guard over every tool first.
///
/// ```
/// # use serde::{Deserialize, Serialize};
/// # use stitch::Contract;
/// use stitch::mcp::Tools;
/// use stitch::mcp::rmcp::handler::server::router::tool::ToolRouter;
///
/// /// Read a broadcast.
/// #[derive(Contract, Deserialize)]
/// struct GetBroadcast {
///     id: String,
/// }
///
/// /// A broadcast.
/// #[derive(stitch::Shape, Serialize)]
/// struct Broadcast {
///     id: String,
///     title: String,
/// }
///
/// struct Server {
///     title: String,
/// }
///
/// impl Server {
///     async fn get_broadcast(&self, get: GetBroadcast) -> Result<Broadcast, String> {
///         Ok(Broadcast { id: get.id, title: self.title.clone() })
///     }
///
///     fn stitch_tools() -> ToolRouter<Self> {
///         Tools::new()
///             .profile(stitch::SchemaProfile::new().require_typed_properties())
///             .observe(|call| eprintln!("{} {:?}", call.tool, call.outcome))
///             .tool_with_output(Self::get_broadcast)
///             .build()
///             .unwrap_or_else(|findings| panic!("{findings:?}"))
///     }
/// }
///
/// let router = Server::stitch_tools();
/// let listed = router.list_all();
/// assert_eq!(listed[0].name, "get_broadcast");
/// assert_eq!(listed[0].output_schema.as_ref().unwrap()["type"], "object");
/// ```
pub struct Tools<S> {
    tools: Vec<StitchTool<S>>,
    profile: SchemaProfile,
    observer: Option<Observer>,
    dialects: ClientDialects,
}

impl<S> Default for Tools<S> {
    fn default() -> Self {
        Tools {
            tools: Vec::new(),
            profile: SchemaProfile::new(),
            observer: None,
            dialects: ClientDialects::default(),
        }
    }
}

impl<S: Send + Sync + 'static> Tools<S> {
    /// No tool yet.
    pub fn new() -> Self {
        Tools::default()
    }

    /// Adds contract `C`'s tool, answered by `handler`; its `Ok` is the tool's structured
    /// result, its `Err` an `isError` result.
    pub fn tool<C, O, E, F>(mut self, handler: F) -> Self
    where
        C: Contract + Send + 'static,
        O: serde::Serialize + 'static,
        E: Display + 'static,
        F: for<'a> Handler<'a, S, C, O, E>,
    {
        self.tools.push(StitchTool::new(handler, None));
        self
    }

    /// Like [`tool`](Self::tool), also advertising the result's schema as the tool's
    /// `outputSchema` (its advertised schema, which must be an object: [`build`](Self::build)
    /// reports it when it is not). Clients hold every `structuredContent` to it, a
    /// rejection's included, so a rejection of this tool carries its issues in the text and
    /// in `_meta` instead.
    pub fn tool_with_output<C, O, E, F>(mut self, handler: F) -> Self
    where
        C: Contract + Send + 'static,
        O: ToolOutput + 'static,
        E: Display + 'static,
        F: for<'a> Handler<'a, S, C, O, E>,
    {
        let output = (O::SHAPE, std::any::type_name::<O>());
        self.tools.push(StitchTool::new(handler, Some(output)));
        self
    }

    /// The guard's profile for these tools (default: nothing required beyond valid, unique
    /// names and object schemas).
    pub fn profile(mut self, profile: SchemaProfile) -> Self {
        self.profile = profile;
        self
    }

    /// Sees every call of these tools, accepted or rejected (the audit channel).
    pub fn observe(mut self, observer: impl Fn(&CallRecord<'_>) + Send + Sync + 'static) -> Self {
        self.observer = Some(Arc::new(observer));
        self
    }

    /// Which dialect each client is shown (default: [`Dialect::Mcp`](stitch_runtime::Dialect)
    /// for every client). The router lists the default dialect's schemas; each call is parsed
    /// in the dialect of the client that makes it; [`ClientDialects::list_tools`] lists each
    /// client its own. The guard checks every dialect the rules can show.
    pub fn dialects(mut self, dialects: ClientDialects) -> Self {
        self.dialects = dialects;
        self
    }

    /// Checks every tool with the guard and builds the router, or returns every finding.
    pub fn build(self) -> Result<ToolRouter<S>, Vec<Finding>> {
        self.build_routes().map(|routes| routes.router)
    }

    /// Checks every tool with the guard and builds the router, keeping the tools behind its
    /// routes (what a [`Toolbox`](super::Toolbox) also calls directly), or returns every
    /// finding.
    pub(crate) fn build_routes(self) -> Result<Routes<S>, Vec<Finding>> {
        let findings = guard(&self.tools, &self.profile, &self.dialects);
        if !findings.is_empty() {
            return Err(findings);
        }
        let tools: Vec<Arc<StitchTool<S>>> = self.tools.into_iter().map(Arc::new).collect();
        let mut router = ToolRouter::new();
        for tool in &tools {
            // Registered with the rules, so that listings in another dialect can render it.
            self.dialects.register(tool.contract);
            let route = route(
                Arc::clone(tool),
                self.observer.clone(),
                self.dialects.clone(),
            );
            router.add_route(route);
        }
        Ok(Routes {
            router,
            tools,
            observer: self.observer,
            dialects: self.dialects,
        })
    }
}

/// Built [`Tools`]: the router, and the tools, observer and dialects behind its routes.
pub(crate) struct Routes<S> {
    pub(crate) router: ToolRouter<S>,
    pub(crate) tools: Vec<Arc<StitchTool<S>>>,
    pub(crate) observer: Option<Observer>,
    pub(crate) dialects: ClientDialects,
}

/// The guard over stitch tools, in every dialect the rules show: their contracts, and the
/// output schemas they advertise.
fn guard<S>(
    tools: &[StitchTool<S>],
    profile: &SchemaProfile,
    dialects: &ClientDialects,
) -> Vec<Finding> {
    let contracts: Vec<stitch_runtime::Tool> = tools.iter().map(|tool| tool.contract).collect();
    let mut findings = stitch_runtime::all_findings(&contracts, profile);
    for dialect in dialects.served() {
        if dialect == profile.dialect {
            continue;
        }
        for finding in stitch_runtime::all_findings(&contracts, &profile.dialect(dialect)) {
            if !findings.contains(&finding) {
                findings.push(finding);
            }
        }
    }
    for tool in tools {
        if let Some((node, type_name)) = tool.output
            && let Err(finding) =
                stitch_runtime::validate_output_schema(tool.contract.name, node, type_name)
        {
            findings.push(finding);
        }
    }
    findings
}

/// A stitch tool as an rmcp route: rmcp's router calls it with the server's state and the
/// call's arguments, and it answers with its own result (never rmcp's text-only fallback).
fn route<S: Send + Sync + 'static>(
    tool: Arc<StitchTool<S>>,
    observer: Option<Observer>,
    dialects: ClientDialects,
) -> ToolRoute<S> {
    let attr = tool.advertised_in(dialects.default_dialect());
    ToolRoute::new_dyn(attr, move |context| {
        let tool = Arc::clone(&tool);
        let observer = observer.clone();
        let dialect = dialects.dialect_of_peer(&context.request_context.peer);
        Box::pin(async move {
            let result = tool
                .call(
                    context.service,
                    context.arguments,
                    dialect,
                    observer.as_ref(),
                )
                .await;
            Ok(CallToolResponse::from(result))
        })
    })
}

/// Checks every tool of a router with the guard, stitch tools and plain rmcp tools alike
/// (their advertised schemas, as a client sees them): what a server calls at start-up to
/// hold its whole `tools/list` to a profile.
pub fn check_router<S: Send + Sync + 'static>(
    router: &ToolRouter<S>,
    profile: &SchemaProfile,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    for tool in router.list_all() {
        let schema = serde_json::Value::Object((*tool.input_schema).clone());
        findings.extend(stitch_runtime::validate_tool_schema(
            &tool.name, &schema, profile,
        ));
    }
    findings
}
