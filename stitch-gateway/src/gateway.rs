//! The gateway as its downstream clients' server: stitch's `InDialects` around a server that
//! passes every request to the upstream as it came (resources, prompts, completions, logging
//! levels, subscriptions, tasks) and its answer back as it was. `InDialects` lists the
//! upstream's tools in the caller's dialect (rendered once per dialect per upstream listing)
//! and reads a strict caller's call back; the call is then checked against the upstream's own
//! schema, and one that does not hold is answered with every issue at its JSON Pointer and
//! never reaches the upstream.
//!
//! Sessions: each downstream session has an upstream session of its own, opened at its
//! `initialize` (or its first request, for a client of a protocol without one) and ended with
//! it, so whatever the upstream asks of its client (sampling, elicitation, roots), and every
//! notification it sends, reaches the one client it is about. A stateless gateway has one
//! upstream session for every request, opened at start, which cannot ask a client back.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::*;
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use stitch::mcp::{InDialects, Listings};

use crate::forward;
use crate::link::Link;
use crate::tools::SharedListing;
use crate::upstream::Upstream;

/// What every session of one gateway shares.
pub struct Settings {
    pub upstream: Upstream,
    /// The dialect rules, and stitch's catalog of what each dialect lists.
    pub listings: Listings,
    /// How long the upstream has to start, and to answer one request.
    pub deadline: Duration,
    pub listing: SharedListing,
    /// Every client shares one upstream session (`--stateless`), its own `initialize` or not.
    pub stateless: bool,
    /// The upstream session clients without one of their own share.
    pub shared: SharedLink,
}

/// The upstream session shared by the clients that have none of their own: every client of a
/// stateless gateway, and a client of a protocol without `initialize` (2026-07-28), whose
/// every request would otherwise start an upstream. Opened on first use, and again when the
/// upstream has gone; it cannot ask a client back.
#[derive(Default)]
pub struct SharedLink {
    held: std::sync::Mutex<Option<Arc<Link>>>,
    opening: tokio::sync::Mutex<()>,
}

impl SharedLink {
    /// The shared session, opened when there is none, or the last one's upstream has gone.
    pub async fn get(&self, upstream: &Upstream, deadline: Duration) -> Result<Arc<Link>, String> {
        if let Some(link) = self.live() {
            return Ok(link);
        }
        let _one_at_a_time = self.opening.lock().await;
        if let Some(link) = self.live() {
            return Ok(link);
        }
        let link = Arc::new(Link::open(upstream, None, ClientConfig::default(), deadline).await?);
        *self.lock() = Some(Arc::clone(&link));
        Ok(link)
    }

    fn live(&self) -> Option<Arc<Link>> {
        let held = self.lock();
        held.as_ref()
            .filter(|link| !link.peer().is_transport_closed())
            .cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Arc<Link>>> {
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Where a session's upstream session is.
struct Session {
    settings: Arc<Settings>,
    own: tokio::sync::OnceCell<Result<Arc<Link>, String>>,
}

impl Session {
    /// The upstream session. A session that began with `initialize` (its first request gives
    /// `client`, what the downstream client said of itself) has its own, opened then and
    /// ended with it; any other, and every session of a stateless gateway, the shared one.
    async fn link(
        &self,
        context: &RequestContext<RoleServer>,
        client: Option<ClientConfig>,
    ) -> Result<Arc<Link>, ErrorData> {
        let settings = &self.settings;
        let failed =
            |error: &String| ErrorData::new(ErrorCode::INTERNAL_ERROR, error.clone(), None);
        let own = match client {
            Some(client) if !settings.stateless => {
                let opened = self.own.get_or_init(|| async {
                    let downstream = Some(context.peer.clone());
                    let link =
                        Link::open(&settings.upstream, downstream, client, settings.deadline);
                    link.await.map(Arc::new)
                });
                Some(opened.await)
            }
            _ => self.own.get(),
        };
        match own {
            Some(opened) => opened.as_ref().map(Arc::clone).map_err(failed),
            None => {
                let shared = settings.shared.get(&settings.upstream, settings.deadline);
                shared.await.map_err(|error| failed(&error))
            }
        }
    }

    /// The upstream session, if it is open.
    fn held(&self) -> Option<Arc<Link>> {
        match self.own.get() {
            Some(opened) => opened.as_ref().ok().cloned(),
            None => self.settings.shared.live(),
        }
    }
}

/// One downstream session of the gateway: its tools in each caller's dialect.
pub type Gateway = InDialects<Upstreamed>;

/// A new downstream session of the gateway.
pub fn session(settings: &Arc<Settings>) -> Gateway {
    let session = Session {
        settings: Arc::clone(settings),
        own: tokio::sync::OnceCell::new(),
    };
    InDialects::new(Upstreamed(session), settings.listings.clone())
}

/// The server that passes each request to the upstream.
pub struct Upstreamed(Session);

/// What an upstream's answer to a request passed on is read as.
trait FromUpstream: Sized {
    fn from_upstream(result: ServerResult) -> Option<Self>;
}

/// Each answer type, from the results the upstream may answer with.
macro_rules! from_upstream {
    ($($answer:ty: $($result:ident => $make:expr),+;)*) => {$(
        impl FromUpstream for $answer {
            fn from_upstream(result: ServerResult) -> Option<Self> {
                match result {
                    $(ServerResult::$result(answer) => Some($make(answer)),)+
                    _ => None,
                }
            }
        }
    )*};
}

from_upstream! {
    (): EmptyResult => |_| (), TaskAckResult => |_| ();
    CompleteResult: CompleteResult => |answer| answer;
    GetPromptResponse: GetPromptResult => GetPromptResponse::Complete,
        InputRequiredResult => GetPromptResponse::InputRequired;
    ReadResourceResponse: ReadResourceResult => ReadResourceResponse::Complete,
        InputRequiredResult => ReadResourceResponse::InputRequired;
    ListPromptsResult: ListPromptsResult => |answer| answer;
    ListResourcesResult: ListResourcesResult => |answer| answer;
    ListResourceTemplatesResult: ListResourceTemplatesResult => |answer| answer;
    GetTaskResult: GetTaskResult => |answer| answer;
    CustomResult: CustomResult => |answer| answer;
    CallToolResponse: CallToolResult => CallToolResponse::Complete,
        InputRequiredResult => CallToolResponse::InputRequired,
        CreateTaskResult => CallToolResponse::Task,
        EmptyResult => |_| CallToolResponse::Complete(CallToolResult::success(Vec::new()));
}

impl Upstreamed {
    /// Passes `request` to the upstream, and reads its answer as `A`.
    async fn ask<A: FromUpstream>(
        &self,
        request: ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<A, ErrorData> {
        let method = request.method().to_owned();
        let link = self.0.link(&context, None).await?;
        let deadline = self.0.settings.deadline;
        let answer =
            forward::to_upstream(link.peer(), link.state(), request, &context, deadline).await?;
        A::from_upstream(answer).ok_or_else(|| {
            ErrorData::new(
                ErrorCode::INTERNAL_ERROR,
                format!("the upstream server answered `{method}` with a result of another kind"),
                None,
            )
        })
    }

    fn info(&self) -> ServerConfig {
        self.0.held().map(|link| link.info()).unwrap_or_default()
    }
}

/// A request made again from its parameters, to pass on.
trait FromParams<P> {
    fn from_params(params: P) -> Self;
}

impl<M: Default, P> FromParams<P> for Request<M, P> {
    fn from_params(params: P) -> Self {
        Request::new(params)
    }
}

impl<M: Default, P> FromParams<Option<P>> for RequestOptionalParam<M, P> {
    fn from_params(params: Option<P>) -> Self {
        RequestOptionalParam {
            method: M::default(),
            params,
            extensions: Extensions::default(),
        }
    }
}

/// A request of the client's, to pass on: `Variant(params)` as `ClientRequest::Variant`.
macro_rules! request {
    ($variant:ident($params:expr)) => {
        ClientRequest::$variant(<$variant as FromParams<_>>::from_params($params))
    };
}

/// Methods whose request goes to the upstream as it came.
macro_rules! passed_on {
    ($($method:ident($params:ident: $type:ty) -> $answer:ty = $variant:ident;)*) => {$(
        async fn $method(
            &self,
            $params: $type,
            context: RequestContext<RoleServer>,
        ) -> Result<$answer, ErrorData> {
            self.ask(request!($variant($params)), context).await
        }
    )*};
}

#[expect(
    deprecated,
    reason = "logging and resource subscriptions are the upstream's: they pass as they came"
)]
impl ServerHandler for Upstreamed {
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let link = self.0.link(&context, Some(request)).await?;
        Ok(link.info())
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let link = self.0.link(&context, None).await?;
        let versions = ProtocolVersion::KNOWN_VERSIONS.to_vec();
        Ok(DiscoverResult::from_server_info(versions, link.info()))
    }

    passed_on! {
        complete(request: CompleteRequestParams) -> CompleteResult = CompleteRequest;
        set_level(request: SetLevelRequestParams) -> () = SetLevelRequest;
        get_prompt(request: GetPromptRequestParams) -> GetPromptResponse = GetPromptRequest;
        list_prompts(request: Option<PaginatedRequestParams>) -> ListPromptsResult = ListPromptsRequest;
        list_resources(request: Option<PaginatedRequestParams>) -> ListResourcesResult = ListResourcesRequest;
        list_resource_templates(request: Option<PaginatedRequestParams>) -> ListResourceTemplatesResult = ListResourceTemplatesRequest;
        read_resource(request: ReadResourceRequestParams) -> ReadResourceResponse = ReadResourceRequest;
        subscribe(request: SubscribeRequestParams) -> () = SubscribeRequest;
        unsubscribe(request: UnsubscribeRequestParams) -> () = UnsubscribeRequest;
        get_task(request: GetTaskParams) -> GetTaskResult = GetTaskRequest;
        update_task(request: UpdateTaskParams) -> () = UpdateTaskRequest;
        cancel_task(request: CancelTaskParams) -> () = CancelTaskRequest;
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        self.ask(ClientRequest::CustomRequest(request), context)
            .await
    }

    /// The upstream's tools as it lists them (the listing held until it changes):
    /// `InDialects` puts them in the caller's dialect.
    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let link = self.0.link(&context, None).await?;
        let listed = link.tools(&self.0.settings.listing).await?;
        Ok(ListToolsResult::with_all_items(listed.tools.clone()))
    }

    /// The call (read back from the caller's dialect by `InDialects`), checked against the
    /// tool's own schema: answered with every issue when it does not hold, else passed on.
    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let link = self.0.link(&context, None).await?;
        let listed = link.tools(&self.0.settings.listing).await?;
        // Checked as a JSON value, then put back: moved, not copied.
        let arguments = Value::Object(request.arguments.take().unwrap_or_default());
        let checked = listed.check(&request.name, &arguments);
        if let Value::Object(arguments) = arguments {
            request.arguments = Some(arguments);
        }
        if let Err(rejection) = checked {
            let with_output = listed
                .tool(&request.name)
                .is_some_and(|tool| tool.output_schema.is_some());
            let result = if with_output {
                rejection.into_result_with_output_schema()
            } else {
                CallToolResult::from(rejection)
            };
            return Ok(CallToolResponse::Complete(result));
        }
        self.ask(request!(CallToolRequest(request)), context).await
    }

    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        _context: NotificationContext<RoleServer>,
    ) {
        self.notify(ClientNotification::ProgressNotification(
            ProgressNotification::new(notification),
        ))
        .await;
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        self.notify(ClientNotification::RootsListChangedNotification(
            RootsListChangedNotification::default(),
        ))
        .await;
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _context: NotificationContext<RoleServer>,
    ) {
        self.notify(ClientNotification::CustomNotification(notification))
            .await;
    }

    /// The tool as the upstream lists it: what `InDialects` reads a strict call back by.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        let listed = self.0.held()?.held()?;
        listed.tool(name).cloned()
    }

    fn get_info(&self) -> ServerConfig {
        self.info()
    }
}

impl Upstreamed {
    /// Passes a client's notification to the upstream, if its session is open.
    async fn notify(&self, notification: ClientNotification) {
        if let Some(link) = self.0.held() {
            let _ = link.peer().send_notification(notification).await;
        }
    }
}
