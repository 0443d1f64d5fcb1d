//! A whole server in each client's dialect: [`InDialects`] wraps any rmcp server and lists
//! every tool it has, stitch's and plain rmcp tools alike, input and output schemas, in the
//! dialect of the client that asks, and reads a strict client's calls to plain tools as those
//! tools expect them. Everything else passes through untouched: each of the server's methods
//! is forwarded as it is (rmcp's own `Arc` and `Box` wrappers forward the same list).

use std::borrow::Cow;
use std::future::Future;

use rmcp::model::*;
use rmcp::service::{MaybeSendFuture, NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use super::catalog::stamp_response;
use super::dialects::{ClientDialects, Listings};
use super::legacy_output;

/// A server whose every tool each client is listed in its own dialect: stitch tools from
/// their contracts, plain rmcp tools (a schemars `Parameters<T>`, a hand-written schema)
/// flattened and put in the dialect by [`stitch::foreign::tool_schema_for`](crate::foreign::tool_schema_for)
/// and [`stitch::foreign::output_schema_for`](crate::foreign::output_schema_for). Calls, prompts, resources
/// and everything else go to the server as they came; a stitch tool parses each call in its
/// caller's dialect when its router was built with the same rules
/// ([`Tools::dialects`](super::Tools::dialects)).
///
/// One line around the server, where it is served:
///
/// ```no_run
/// use stitch::Dialect;
/// use stitch::mcp::rmcp::{ServerHandler, ServiceExt, transport::stdio};
/// use stitch::mcp::{ClientDialects, InDialects};
///
/// /// Any rmcp server.
/// #[derive(Clone)]
/// struct Server;
/// impl ServerHandler for Server {}
///
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     let dialects = ClientDialects::new(Dialect::Mcp).client("cursor-vscode", Dialect::Portable);
///     InDialects::new(Server, dialects).serve(stdio()).await?.waiting().await?;
///     Ok(())
/// }
/// ```
///
/// For a server with stitch tools, give it the router's
/// [`listings`](super::StitchRouter::listings), which carry the rules and the contracts.
#[derive(Clone, Debug)]
pub struct InDialects<S> {
    server: S,
    listings: Listings,
}

impl<S> InDialects<S> {
    /// `server`, each client listed its tools in the dialect `listings` (or the
    /// [`ClientDialects`] alone, for a server without stitch tools) give it.
    pub fn new(server: S, listings: impl Into<Listings>) -> InDialects<S> {
        let listings = listings.into();
        listings.mark_listing();
        InDialects { server, listings }
    }

    /// The server wrapped.
    pub fn server(&self) -> &S {
        &self.server
    }

    /// The rules and stitch tools the listing follows.
    pub fn listings(&self) -> &Listings {
        &self.listings
    }
}

impl From<ClientDialects> for Listings {
    fn from(rules: ClientDialects) -> Listings {
        Listings::of::<()>(&[], rules)
    }
}

/// Forwards requests to the wrapped server, as they came.
macro_rules! forward_requests {
    ($($method:ident($($argument:ident: $type:ty),*) -> $answer:ty;)*) => {$(
        fn $method(
            &self,
            $($argument: $type,)*
            context: RequestContext<RoleServer>,
        ) -> impl Future<Output = Result<$answer, ErrorData>> + MaybeSendFuture + '_ {
            self.server.$method($($argument,)* context)
        }
    )*};
}

/// Forwards notifications to the wrapped server, as they came.
macro_rules! forward_notifications {
    ($($method:ident($($argument:ident: $type:ty),*);)*) => {$(
        fn $method(
            &self,
            $($argument: $type,)*
            context: NotificationContext<RoleServer>,
        ) -> impl Future<Output = ()> + MaybeSendFuture + '_ {
            self.server.$method($($argument,)* context)
        }
    )*};
}

#[expect(
    deprecated,
    reason = "the legacy methods (logging, resource subscriptions) are forwarded too: a server that still has them keeps them"
)]
impl<S: ServerHandler> ServerHandler for InDialects<S> {
    /// The wrapped server's tools, each in the dialect of the client that asks and stamped
    /// with the catalog's stamp (`_meta["stitch/catalog"]`); fresh for as long as the wrapped
    /// server says, and no longer than the listings' TTL (`ttlMs`, `cacheScope`: see
    /// [`Tools::list_ttl`](super::Tools::list_ttl)).
    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // Asked before the context moves on: the client's name may be in the request's `_meta`.
        let dialect = self.listings.rules().dialect_of_request(&context);
        let legacy = legacy_output::is_legacy(&context);
        let shared = self.listings.rules().one_dialect_for_every_caller(&context);
        let mut listed = self.server.list_tools(request, context).await?;
        listed.tools = self.listings.listing(listed.tools, dialect);
        if legacy {
            let mode = self.listings.rules().legacy_output_of();
            for tool in &mut listed.tools {
                legacy_output::project_tool(tool, mode);
            }
        }
        self.listings.hint_caching(&mut listed, false, shared);
        self.listings.report_over_budget(&mut listed, dialect);
        Ok(listed)
    }

    /// The call, as the server reads it: from a client shown a strict dialect (which sends a
    /// map as an array of entries, and in OpenAI's every key, `null` for each it leaves out),
    /// a plain tool's arguments get their maps back and lose the `null`s that mean absence
    /// ([`strict_arguments_for`](crate::foreign::strict_arguments_for), by the tool's own schema, which
    /// [`get_tool`](ServerHandler::get_tool) gives). A stitch tool reads them so itself. A result is stamped with the stamp of the listing last made in
    /// the caller's dialect (`_meta["stitch/catalog"]`); the server is listed for it only when
    /// no listing in that dialect was made yet, never once per call. A client whose listing
    /// carries another stamp holds a stale catalog; one told the tools changed lists them
    /// again, and that listing's stamp is the one results carry from then on.
    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let dialect = self.listings.rules().dialect_of_request(&context);
        // A plain tool's output an older client cannot take, answered as it was listed.
        let legacy_projection = legacy_output::is_legacy(&context)
            && self
                .server
                .get_tool(&request.name)
                .is_some_and(|tool| legacy_output::needs_projection(&tool));
        if dialect.is_strict()
            && !self.listings.is_stitch_tool(&request.name)
            && let Some(tool) = self.server.get_tool(&request.name)
            && let Some(arguments) = request.arguments.take()
        {
            let schema = Value::Object(tool.input_schema.as_ref().clone());
            let mut arguments = Value::Object(arguments);
            crate::foreign::arguments_for(&schema, &mut arguments, dialect);
            if let Value::Object(arguments) = arguments {
                request.arguments = Some(arguments);
            }
        }
        let lister = context.clone();
        let mut response = self.server.call_tool(request, context).await?;
        if legacy_projection {
            let mode = self.listings.rules().legacy_output_of();
            legacy_output::project_response(&mut response, mode);
        }
        let stamp = match self.listings.held_stamp(dialect) {
            Some(stamp) => Some(stamp),
            None => self
                .server
                .list_tools(None, lister)
                .await
                .ok()
                .map(|listed| self.listings.catalog_stamp(&listed.tools, dialect)),
        };
        if let Some(stamp) = stamp {
            stamp_response(&mut response, &stamp);
        }
        Ok(response)
    }

    forward_requests! {
        ping() -> ();
        initialize(request: InitializeRequestParams) -> InitializeResult;
        discover() -> DiscoverResult;
        complete(request: CompleteRequestParams) -> CompleteResult;
        set_level(request: SetLevelRequestParams) -> ();
        get_prompt(request: GetPromptRequestParams) -> GetPromptResponse;
        list_prompts(request: Option<PaginatedRequestParams>) -> ListPromptsResult;
        list_resources(request: Option<PaginatedRequestParams>) -> ListResourcesResult;
        list_resource_templates(request: Option<PaginatedRequestParams>) -> ListResourceTemplatesResult;
        read_resource(request: ReadResourceRequestParams) -> ReadResourceResponse;
        subscribe(request: SubscribeRequestParams) -> ();
        unsubscribe(request: UnsubscribeRequestParams) -> ();
        on_custom_request(request: CustomRequest) -> CustomResult;
        get_task(request: GetTaskParams) -> GetTaskResult;
        update_task(request: UpdateTaskParams) -> ();
        cancel_task(request: CancelTaskParams) -> ();
        list_skills(request: Option<PaginatedRequestParams>) -> ListSkillsResult;
        get_skill(request: GetSkillRequestParams) -> GetSkillResult;
        read_resource_directory(request: ReadResourceDirectoryRequestParams) -> ReadResourceDirectoryResult;
    }

    forward_notifications! {
        on_cancelled(notification: CancelledNotificationParam);
        on_progress(notification: ProgressNotificationParam);
        on_initialized();
        on_roots_list_changed();
        on_custom_notification(notification: CustomNotification);
    }

    fn negotiate_initialize(
        &self,
        request: &InitializeRequestParams,
    ) -> Result<InitializeResult, ErrorData> {
        self.server.negotiate_initialize(request)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.server.supported_protocol_versions()
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.server.accepted_subscription_filter(requested)
    }

    fn listen(
        &self,
        context: SubscriptionContext,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        self.server.listen(context)
    }

    /// The tool as the server declares it: rmcp reads it to check `Mcp-Param-*` headers
    /// against the server's own schema, which no dialect changes.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.server.get_tool(name)
    }

    fn get_info(&self) -> ServerConfig {
        self.server.get_info()
    }
}
