//! What a stitch tool's handler is: an async method of the server (or a closure) that takes
//! its contract and, after it, any of rmcp's request extractors (`RequestContext<RoleServer>`,
//! `Peer<RoleServer>`, `CancellationToken`, `Extension<T>`, ...), as rmcp's own tools take
//! them; and what its answer may be: a structured result, or any content rmcp can send.

use std::fmt::Display;
use std::future::Future;

use rmcp::ErrorData;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::{IntoCallToolResult, ToolCallContext};
use rmcp::model::CallToolResponse;
use serde_json::Value;

/// The handler of a stitch tool, called with the server's state, the parsed contract, and
/// the request's parts it asks for:
///
/// - `async fn(&self, C) -> R`, the form rmcp's own tools take, or a closure
///   `|server: &S, c: C| async move { ... }` whose future does not borrow the server (clone
///   what it needs first);
/// - `async fn(&self, C, P1, ..., Pn) -> R` (up to five), each `P` one of rmcp's extractors
///   of a tool call: `RequestContext<RoleServer>` (its `peer` reports progress, logs to the
///   client, asks for sampling and elicitation; its `ct` is cancelled when the client cancels
///   the call; its `extensions` hold the HTTP request's parts), `Peer<RoleServer>`,
///   `CancellationToken`, `Extension<T>`, `Extensions`, `RequestMetaObject`, ...
///
/// `R` is `Result<O, E>` for [`Tools::tool`](super::Tools::tool) (`O` serialized into
/// `structuredContent`, `E` an error the model reads), or any rmcp result for
/// [`Tools::tool_with_content`](super::Tools::tool_with_content).
pub trait Handler<'a, S: 'a, C, P, R>: Send + Sync + 'static {
    /// The handler's future.
    type Future: Future<Output = R> + Send + 'a;

    /// Answers one call of the tool, with the server's state and the request's parts.
    fn call(&self, server: &'a S, contract: C, parts: P) -> Self::Future;
}

/// The handler of a [`Toolbox`](super::Toolbox) tool: a closure `|c: C| async move { ... }`,
/// or `|c: C, p1: P1, ..., pn: Pn| async move { ... }` taking the request's parts after its
/// contract, as [`Handler`] does; its future owns what it uses.
pub trait ToolboxHandler<C, P, R>: Send + Sync + 'static {
    /// The handler's future.
    type Future: Future<Output = R> + Send + 'static;

    /// Answers one call of the tool, with the request's parts.
    fn call(&self, contract: C, parts: P) -> Self::Future;
}

/// The request's parts a handler takes after its contract: a tuple of rmcp's extractors of a
/// tool call (`()` when it takes none).
pub trait RequestParts<S>: Sized + Send + 'static {
    /// Takes the parts from the call's context: `None` when the call has none (a call made
    /// with [`Toolbox::call`](super::Toolbox::call), not by a client).
    fn from_call(context: Option<&mut ToolCallContext<'_, S>>) -> Result<Self, ErrorData>;
}

macro_rules! handlers_taking {
    ($($part:ident)*) => {
        impl<'a, S: 'a, C, R, F, Fut, $($part,)*> Handler<'a, S, C, ($($part,)*), R> for F
        where
            F: Fn(&'a S, C, $($part,)*) -> Fut + Send + Sync + 'static,
            Fut: Future<Output = R> + Send + 'a,
        {
            type Future = Fut;

            #[allow(non_snake_case)]
            fn call(&self, server: &'a S, contract: C, ($($part,)*): ($($part,)*)) -> Fut {
                self(server, contract, $($part,)*)
            }
        }

        impl<C, R, F, Fut, $($part,)*> ToolboxHandler<C, ($($part,)*), R> for F
        where
            F: Fn(C, $($part,)*) -> Fut + Send + Sync + 'static,
            Fut: Future<Output = R> + Send + 'static,
        {
            type Future = Fut;

            #[allow(non_snake_case)]
            fn call(&self, contract: C, ($($part,)*): ($($part,)*)) -> Fut {
                self(contract, $($part,)*)
            }
        }

        impl<S, $($part,)*> RequestParts<S> for ($($part,)*)
        where
            $($part: for<'c> FromContextPart<ToolCallContext<'c, S>> + Send + 'static,)*
        {
            #[allow(non_snake_case, unused_mut, unused_variables)]
            fn from_call(context: Option<&mut ToolCallContext<'_, S>>) -> Result<Self, ErrorData> {
                let mut context = context;
                $(
                    let $part = match context.as_deref_mut() {
                        Some(context) => $part::from_context_part(context)?,
                        None => return Err(no_context()),
                    };
                )*
                Ok(($($part,)*))
            }
        }
    };
}

/// What a handler that takes the request's parts answers when the call has no request.
fn no_context() -> ErrorData {
    ErrorData::internal_error(
        "this tool takes the request's context, which only a client's call has",
        None,
    )
}

handlers_taking!();
handlers_taking!(P1);
handlers_taking!(P1 P2);
handlers_taking!(P1 P2 P3);
handlers_taking!(P1 P2 P3 P4);
handlers_taking!(P1 P2 P3 P4 P5);

/// How a handler's answer ended, before it becomes a result.
pub(crate) enum Answer {
    /// A structured result.
    Output(Value),
    /// A result the handler made itself, as rmcp sends it.
    Content(CallToolResponse),
    /// The arguments were rejected: the handler never ran.
    Rejected(stitch_runtime::Rejection),
    /// The handler's error, which the model reads.
    Failed(String),
    /// A protocol error, which rmcp answers as one.
    Refused(ErrorData),
    /// The handler, or a `refine` check, panicked; the message is for the observer, never
    /// the client.
    Panicked(String),
    /// The call was cancelled before the handler answered; its future was dropped.
    Cancelled,
    /// The handler had not answered within this deadline; its future was dropped.
    TimedOut(std::time::Duration),
}

/// A structured answer: `Ok` serialized into `structuredContent`, `Err` an `isError` result.
pub(crate) fn structured<O: serde::Serialize, E: Display>(reply: Result<O, E>) -> Answer {
    match reply {
        Ok(output) => match serde_json::to_value(output) {
            Ok(value) => Answer::Output(value),
            Err(error) => Answer::Failed(format!("the result did not serialize: {error}")),
        },
        Err(error) => Answer::Failed(error.to_string()),
    }
}

/// Any rmcp result, as rmcp's own tools answer it (`Err` of a `Result` an `isError` result,
/// `ErrorData` a protocol error).
pub(crate) fn content<R: IntoCallToolResult>(reply: R) -> Answer {
    match reply.into_call_tool_result() {
        Ok(response) => Answer::Content(response),
        Err(error) => Answer::Refused(error),
    }
}
