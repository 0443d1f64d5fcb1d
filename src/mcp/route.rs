//! Stitch tools as routes of an rmcp server: [`Tools`] builds them into a [`StitchRouter`],
//! which adds to the router rmcp's `#[tool_router]` writes, so an ordinary rmcp server
//! (prompts, resources and plain tools beside) serves stitch tools without being rebuilt
//! around stitch.

use std::ops::Add;
use std::sync::Arc;
use std::time::Duration;

use crate::guard::{Checked, FindingKind};
use crate::{Contract, Finding, SchemaProfile};
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::model::Tool;

use super::call::{CallRecord, DEFAULT_CALL_DEADLINE, Observer, StitchTool};
use super::dialects::{ClientDialects, Listings};
use super::handler::{Handler, Reply};
use super::schema::mounted;

/// Stitch tools, built into a [`StitchRouter<S>`] that adds to an rmcp server's own
/// [`ToolRouter<S>`] (`Self::tool_router() + tools`), or, as [`toolbox`](Self::toolbox), into
/// a whole server of their own (a [`Toolbox`](super::Toolbox)).
///
/// Each tool advertises its contract's flat schema, parses every call with
/// [`Contract::parse_for`] in the dialect its client was shown, answers a rejection with every issue at its JSON Pointer (an `isError`
/// result, structured) and a handler's error as an `isError` result, and tells the observer
/// of every call. [`build`](Self::build) runs the guard over every tool first.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use stitch::Contract;
/// use stitch::mcp::{Json, StitchRouter, Tools};
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
///     async fn get_broadcast(&self, get: GetBroadcast) -> Result<Json<Broadcast>, String> {
///         Ok(Json(Broadcast { id: get.id, title: self.title.clone() }))
///     }
///
///     fn stitch_tools() -> StitchRouter<Self> {
///         Tools::new()
///             .profile(stitch::SchemaProfile::new().require_typed_properties())
///             .observe(|call| eprintln!("{} {:?}", call.tool, call.outcome))
///             .tool(Self::get_broadcast)
///             .build()
///             .unwrap_or_else(|findings| panic!("{findings:?}"))
///     }
/// }
///
/// let router = Server::stitch_tools();
/// let listed = router.router().list_all();
/// assert_eq!(listed[0].name, "get_broadcast");
/// assert_eq!(listed[0].output_schema.as_ref().unwrap()["type"], "object");
/// ```
pub struct Tools<S> {
    tools: Vec<StitchTool<S>>,
    profile: SchemaProfile,
    observer: Option<Observer>,
    dialects: ClientDialects,
    deadline: Duration,
    deadlines: Vec<(&'static str, Duration)>,
    list_ttl: Duration,
    /// Whether the tools may be built past a shown dialect's provider's budgets.
    over_budget_allowed: bool,
}

impl<S> Default for Tools<S> {
    fn default() -> Self {
        Tools {
            tools: Vec::new(),
            profile: SchemaProfile::new(),
            observer: None,
            dialects: ClientDialects::default(),
            deadline: DEFAULT_CALL_DEADLINE,
            deadlines: Vec::new(),
            list_ttl: super::DEFAULT_LIST_TTL,
            over_budget_allowed: false,
        }
    }
}

impl<S: Send + Sync + 'static> Tools<S> {
    /// No tool yet.
    pub fn new() -> Self {
        Tools::default()
    }

    /// Adds contract `C`'s tool, answered by `handler`: a method of the server or a closure,
    /// taking the request's parts after the contract if it asks for them (see [`Handler`]).
    /// What it answers decides what the client gets ([`Reply`]): text, structured output with
    /// an output schema (`Json<T>`), any rmcp content, or a `Result` of one (its `Err` an
    /// `isError` result). Every call is parsed first, a rejection answered with every issue.
    pub fn tool<C, M, R, H>(mut self, handler: H) -> Self
    where
        C: Contract + Send + 'static,
        R: Reply,
        H: for<'a> Handler<'a, S, C, M, R>,
    {
        self.tools.push(StitchTool::new(handler));
        self
    }

    /// Adds contract `C`'s tool under `name` instead of the contract's own: one contract
    /// type served as several tools (each with its own handler), as [`tool`](Self::tool)
    /// otherwise does. The guard holds `name` to the rules every tool name is held to.
    pub fn tool_named<C, M, R, H>(mut self, name: &'static str, handler: H) -> Self
    where
        C: Contract + Send + 'static,
        R: Reply,
        H: for<'a> Handler<'a, S, C, M, R>,
    {
        let mut tool = StitchTool::new(handler);
        tool.contract.name = name;
        self.tools.push(tool);
        self
    }

    /// The description the tool mounted last is listed with, in place of its contract's doc
    /// comment: one contract mounted twice ([`tool_named`](Self::tool_named)) is two tools,
    /// and a model choosing between them reads what each does. (Nothing is mounted yet:
    /// nothing to describe.)
    ///
    /// ```
    /// use stitch::mcp::{Toolbox, Tools};
    ///
    /// /// A reminder, by its id.
    /// #[derive(stitch::Contract, serde::Deserialize)]
    /// struct ReminderId { id: u32 }
    ///
    /// let tools: Tools<Toolbox> = Tools::new()
    ///     .tool_named("get_reminder", |r: ReminderId| async move { Ok::<_, String>(r.id.to_string()) })
    ///     .described("Read one reminder.")
    ///     .tool_named("complete_reminder", |r: ReminderId| async move { Ok::<_, String>(r.id.to_string()) })
    ///     .described("Mark one reminder done.")
    ///     .titled("Complete a reminder");
    /// let toolbox = tools.toolbox("reminders", "1.0").unwrap();
    /// ```
    pub fn described(mut self, description: &'static str) -> Self {
        if let Some(tool) = self.tools.last_mut() {
            tool.contract.description = description;
        }
        self
    }

    /// The title the tool mounted last is listed with (`title`, what a client shows a person).
    pub fn titled(mut self, title: &'static str) -> Self {
        if let Some(tool) = self.tools.last_mut() {
            tool.title = Some(title);
        }
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

    /// Which dialect each client is shown (default: [`Dialect::Mcp`](crate::Dialect)
    /// for every client). The router lists the default dialect's schemas; wrapped in
    /// [`InDialects`](super::InDialects) with the router's [`Listings`], the server lists each
    /// client every tool in its own dialect, and each call is parsed in the dialect of the
    /// client that makes it. (Until a client is listed so, calls are parsed in the default
    /// dialect, what every client was listed, and a `tracing` warning says so once.) With [`SchemaProfile::require_expressible`], the guard also holds the tools to
    /// what every dialect the rules show can say.
    pub fn dialects(mut self, dialects: ClientDialects) -> Self {
        self.dialects = dialects;
        self
    }

    /// How long a client may treat the tools' listing as fresh (`ttlMs`, with `cacheScope`
    /// `"public"`: SEP-2549, protocol 2026-07-28), in a `Toolbox`'s, an
    /// [`InDialects`](super::InDialects)'s or [`Listings::list_tools`]'s answer. An hour by
    /// default ([`DEFAULT_LIST_TTL`](super::DEFAULT_LIST_TTL)): the tools' schemas are fixed
    /// when the server is built, and a client holding an older catalog learns of it from the
    /// stamp of any result. A server whose tools change while it runs says less.
    pub fn list_ttl(mut self, ttl: Duration) -> Self {
        self.list_ttl = ttl;
        self
    }

    /// Builds the tools even where a dialect the rules show would be refused by its provider
    /// (a [`Limit`](crate::guard::Limit) crossed over the whole listing: Anthropic's strict
    /// mode takes at most 24 optional parameters, say). By default
    /// [`build`](Self::build) and [`toolbox`](Self::toolbox) refuse, naming the tool, the
    /// dialect, the limit and the figure, since the provider refuses that request at the
    /// user's first message; allowed, each crossing is logged (`tracing`, at warn) instead.
    pub fn allow_over_budget(mut self) -> Self {
        self.over_budget_allowed = true;
        self
    }

    /// How long a call of any of these tools may run (default: 60 s, as long as the
    /// TypeScript SDK's client waits). Past it, the handler's future is dropped, the client
    /// answered with an `isError` result saying so, and the observer told
    /// [`Outcome::TimedOut`](super::Outcome::TimedOut). A call is also ended, its future
    /// dropped, when it is cancelled ([`Outcome::Cancelled`](super::Outcome::Cancelled)).
    ///
    /// A handler ends only where it awaits: one that blocks its thread (heavy computation,
    /// a blocking library) should run that work with `tokio::task::spawn_blocking` and await
    /// it, so that the runtime goes on serving every other call meanwhile, and the call can
    /// still end at its deadline (the blocking work itself runs on to its end, unseen).
    pub fn call_deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// How long a call of contract `C`'s tool may run, in place of
    /// [`call_deadline`](Self::call_deadline)'s, whenever the tool is mounted.
    pub fn call_deadline_of<C: Contract>(mut self, deadline: Duration) -> Self {
        self.deadlines.push((C::TOOL.name, deadline));
        self
    }

    /// Checks every tool with the guard and builds the router, or returns every finding:
    /// what the profile requires, and every budget of a dialect the rules show that the tools
    /// cross together (unless [`allow_over_budget`](Self::allow_over_budget)).
    pub fn build(mut self) -> Result<StitchRouter<S>, Vec<Finding>> {
        let profile = if self.over_budget_allowed {
            self.profile
        } else {
            self.profile.require_within_budgets()
        };
        let findings = guard(&self.tools, &profile, &self.dialects);
        if !findings.is_empty() {
            return Err(findings);
        }
        if !profile.descriptions_required {
            for tool in &self.tools {
                if tool.contract.description.trim().is_empty() {
                    tracing::warn!(
                        "stitch: tool \"{}\" is listed with an empty description, so a model \
                         choosing between tools sees only its name: give the contract a doc \
                         comment, or its mount a description (`Tools::described`)",
                        tool.contract.name
                    );
                }
            }
        }
        for tool in &mut self.tools {
            tool.deadline = self
                .deadlines
                .iter()
                .rev()
                .find(|(name, _)| *name == tool.contract.name)
                .map_or(self.deadline, |(_, deadline)| *deadline);
        }
        let tools: Vec<Arc<StitchTool<S>>> = self.tools.into_iter().map(Arc::new).collect();
        let listings = Listings::of(&tools, self.dialects).with_list_ttl(self.list_ttl);
        let mut router = ToolRouter::new();
        for tool in &tools {
            router.add_route(route(
                Arc::clone(tool),
                self.observer.clone(),
                listings.clone(),
            ));
        }
        Ok(StitchRouter {
            router,
            tools,
            observer: self.observer,
            listings,
        })
    }
}

/// Built [`Tools`]: the rmcp router of the stitch tools, and their [`Listings`] in each
/// client's dialect. It adds to the server's own router: `Self::tool_router() + stitch`.
pub struct StitchRouter<S> {
    router: ToolRouter<S>,
    pub(crate) tools: Vec<Arc<StitchTool<S>>>,
    pub(crate) observer: Option<Observer>,
    listings: Listings,
}

impl<S> StitchRouter<S> {
    /// The rmcp router of the stitch tools.
    pub fn router(&self) -> &ToolRouter<S> {
        &self.router
    }

    /// The stitch tools as each client is shown them (keep a copy before adding the router
    /// to the server's, to list each client its own dialect).
    pub fn listings(&self) -> Listings {
        self.listings.clone()
    }

    /// The rmcp router of the stitch tools.
    pub fn into_router(self) -> ToolRouter<S> {
        self.router
    }
}

impl<S> From<StitchRouter<S>> for ToolRouter<S> {
    fn from(stitch: StitchRouter<S>) -> Self {
        stitch.router
    }
}

/// `Self::tool_router() + stitch`: the server's own routes and the stitch tools' in one
/// router.
impl<S: Send + Sync + 'static> Add<StitchRouter<S>> for ToolRouter<S> {
    type Output = ToolRouter<S>;

    fn add(self, stitch: StitchRouter<S>) -> ToolRouter<S> {
        self + stitch.router
    }
}

/// The guard over stitch tools: their contracts and the output schemas they advertise,
/// held to the profile in every dialect the rules show (which the guard holds them to when
/// the profile requires it); what is over a shown dialect's budgets, or what it cannot say,
/// when the profile does not require it, is logged (a `tracing` warning per finding) rather
/// than refused.
fn guard<S>(
    tools: &[StitchTool<S>],
    profile: &SchemaProfile,
    dialects: &ClientDialects,
) -> Vec<Finding> {
    let profile = dialects
        .served()
        .into_iter()
        .fold(*profile, SchemaProfile::shown_to);
    let checked: Vec<Checked<'_>> = tools
        .iter()
        .map(|tool| Checked::Contract {
            tool: tool.contract,
            output: tool.output.map(|output| (output.node, output.type_name)),
        })
        .collect();
    let findings = crate::guard::check(&checked, &profile);
    if findings.is_empty() {
        // Not required, still said: a provider refuses a listing past its budgets, and a
        // client is shown less than the contract means where its dialect cannot say it.
        let said = |kind| match kind {
            FindingKind::OverBudget => !profile.budgets_required,
            FindingKind::Inexpressible => !profile.expressible_required,
            _ => false,
        };
        for dialect in profile
            .shown()
            .filter(|dialect| *dialect != profile.dialect)
        {
            let shown = profile.dialect(dialect);
            for finding in crate::guard::check(&checked, &shown) {
                if said(finding.kind()) {
                    tracing::warn!("{finding}");
                }
            }
        }
    }
    findings
}

/// A stitch tool as an rmcp route: rmcp's router calls it with the server's state and the
/// call's arguments, and it answers with its own result (never rmcp's text-only fallback).
fn route<S: Send + Sync + 'static>(
    tool: Arc<StitchTool<S>>,
    observer: Option<Observer>,
    listings: Listings,
) -> ToolRoute<S> {
    let attr = mounted(
        &tool.contract,
        tool.title,
        tool.output,
        listings.rules().default_dialect(),
    );
    ToolRoute::new_dyn(attr, move |mut context| {
        let dialect = listings.call_dialect(Some(&context.request_context));
        let arguments = context.arguments.take();
        let server = context.service;
        Arc::clone(&tool).run(
            server,
            arguments,
            dialect,
            Some(&mut context),
            observer.clone(),
        )
    })
}

/// Checks every tool of a router with the guard, stitch tools and plain rmcp tools alike
/// (their advertised schemas, as a client sees them): what a server calls at start-up to
/// hold its whole `tools/list` to a profile. The same as
/// `check_tools(&router.list_all(), profile)`, named for what a server holds.
pub fn check_router<S: Send + Sync + 'static>(
    router: &ToolRouter<S>,
    profile: &SchemaProfile,
) -> Vec<Finding> {
    check_tools(&router.list_all(), profile)
}

/// Checks listed rmcp tools with the guard (their advertised schemas, as a client sees them):
/// what [`check_router`] checks of a router, for tools another server lists (a gateway's
/// upstream, say). [`guard::check`](crate::guard::check) for rmcp's tools: they hold their
/// schemas as maps, which the guard's [`Checked::Listed`] cannot borrow as values.
pub fn check_tools(tools: &[Tool], profile: &SchemaProfile) -> Vec<Finding> {
    let listed: Vec<(&str, &str, serde_json::Value)> = tools
        .iter()
        .map(|tool| {
            let input = serde_json::Value::Object((*tool.input_schema).clone());
            (
                tool.name.as_ref(),
                tool.description.as_deref().unwrap_or_default(),
                input,
            )
        })
        .collect();
    let checked: Vec<Checked<'_>> = listed
        .iter()
        .map(|(name, description, input)| Checked::Listed {
            name,
            description,
            input,
        })
        .collect();
    crate::guard::check(&checked, profile)
}
