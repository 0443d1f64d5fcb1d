//! What a stitch tool's handler is, and what it answers. A handler is an async method of the
//! server, `async fn(&self, C) -> R`, or a closure `|c: C| async move { ... }` (its future
//! owning what it uses), taking after its contract any of rmcp's request extractors
//! (`RequestContext<RoleServer>`, `Peer<RoleServer>`, `CancellationToken`, `Extension<T>`,
//! ...) as rmcp's own tools take them: one [`Handler`] trait for both, told apart by the
//! handler's own signature. What it answers, [`Reply`], decides what the client gets, as in
//! rmcp: text (`String`), structured output with an output schema ([`Json<T>`]), any content
//! (`CallToolResult`, `ContentBlock`s), or a `Result` of one (its `Err` an `isError` result, or
//! a protocol error when it is rmcp's `ErrorData`).

use std::any::Any;
use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;

use crate::Shape;
use rmcp::ErrorData;
pub use rmcp::Json;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::{IntoCallToolResult, ToolCallContext};
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use serde_json::Value;

use super::schema::Output;

/// The handler of a stitch tool, called with the server's state, the parsed contract, and
/// the request's parts it asks for:
///
/// - `async fn(&self, C) -> R`, the form rmcp's own tools take, or a closure
///   `|server: &S, c: C| async move { ... }` whose future does not borrow the server (clone
///   what it needs first);
/// - a closure `|c: C| async move { ... }`, its future owning what it uses (the form of a
///   [`Toolbox`](super::Toolbox), whose state it does not need);
/// - either taking after its contract up to five of rmcp's extractors of a tool call:
///   `RequestContext<RoleServer>` (its `peer` reports progress, logs to the client, asks for
///   sampling and elicitation; its `ct` is cancelled when the call is; its `extensions` hold
///   the HTTP request's parts), `Peer<RoleServer>`, `CancellationToken`, `Extension<T>`,
///   `Extensions`, `RequestMetaObject`, ...
///
/// `M` tells the forms apart ([`Method`] or [`Closure`] of the parts taken); it is inferred,
/// never written. `R` is the handler's [`Reply`].
#[diagnostic::on_unimplemented(
    message = "this is not a tool handler: a handler is `async`",
    label = "not an `async` handler of a contract",
    note = "write an `async fn` method of the server, or a closure whose body is \
            `async move {{ ... }}` (`|args: MyContract| async move {{ ... }}`), taking the \
            contract first and then up to five of rmcp's extractors; a synchronous closure \
            is not one"
)]
pub trait Handler<'a, S: 'a, C, M, R>: Send + Sync + 'static {
    /// The request's parts the handler takes after its contract.
    type Parts: RequestParts<S>;
    /// The handler's future.
    type Future: Future<Output = R> + Send + 'a;

    /// Answers one call of the tool, with the server's state and the request's parts.
    fn call(&self, server: &'a S, contract: C, parts: Self::Parts) -> Self::Future;
}

/// A handler that takes the server's state first, `async fn(&self, C, P...)`: the marker
/// [`Handler`] infers. Never written by a user, so not shown: it is public because
/// `Handler`'s implementations name it.
#[doc(hidden)]
pub struct Method<P>(PhantomData<P>);

/// A handler that takes its contract first, `|c: C, p: P...| async move { ... }`: the marker
/// [`Handler`] infers. Never written by a user, so not shown: it is public because
/// `Handler`'s implementations name it.
#[doc(hidden)]
pub struct Closure<P>(PhantomData<P>);

/// The request's parts a handler takes after its contract: a tuple of rmcp's extractors of a
/// tool call (`()` when it takes none).
pub trait RequestParts<S>: Sized + Send + 'static {
    /// Takes the parts from the call's context: `None` when the call has none (a call made
    /// with [`Toolbox::call`](super::Toolbox::call), not by a client).
    fn from_call(context: Option<&mut ToolCallContext<'_, S>>) -> Result<Self, ErrorData>;
}

macro_rules! handlers_taking {
    ($($part:ident)*) => {
        impl<'a, S: 'a, C, R, F, Fut, $($part,)*> Handler<'a, S, C, Method<($($part,)*)>, R> for F
        where
            F: Fn(&'a S, C, $($part,)*) -> Fut + Send + Sync + 'static,
            Fut: Future<Output = R> + Send + 'a,
            ($($part,)*): RequestParts<S>,
        {
            type Parts = ($($part,)*);
            type Future = Fut;

            #[allow(non_snake_case)]
            fn call(&self, server: &'a S, contract: C, ($($part,)*): ($($part,)*)) -> Fut {
                self(server, contract, $($part,)*)
            }
        }

        impl<'a, S: 'a, C, R, F, Fut, $($part,)*> Handler<'a, S, C, Closure<($($part,)*)>, R> for F
        where
            F: Fn(C, $($part,)*) -> Fut + Send + Sync + 'static,
            Fut: Future<Output = R> + Send + 'static,
            ($($part,)*): RequestParts<S>,
        {
            type Parts = ($($part,)*);
            type Future = Fut;

            #[allow(non_snake_case)]
            fn call(&self, _: &'a S, contract: C, ($($part,)*): ($($part,)*)) -> Fut {
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

/// How a handler's answer ended, before it becomes a result (public only so that [`Reply`]
/// can name it; not reachable from outside the crate).
#[doc(hidden)]
pub enum Answer {
    /// A structured result.
    Output(Value),
    /// A result the handler made itself, as rmcp sends it.
    Content(CallToolResponse),
    /// The arguments were rejected: the handler never ran.
    Rejected(crate::Rejection),
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

/// What a handler answers, which decides what the client gets:
///
/// - `String` or `&'static str`: one text block;
/// - [`Json<T>`] (`T` a [`ToolOutput`]: `#[derive(stitch::Shape, serde::Serialize)]`): the
///   value as `structuredContent`, and `T`'s schema advertised as the tool's `outputSchema`
///   (which must be an object: the guard reports it when it is not);
/// - `CallToolResult`, `CallToolResponse`, `ContentBlock`, `Vec<ContentBlock>`: that content,
///   as rmcp sends it (images, audio, embedded resources, several blocks, `_meta`);
/// - `Result<R, E>` of one of these: `Ok` as above, `Err` an `isError` result whose text is
///   the error's, or, when `E` is rmcp's `ErrorData`, a protocol error.
#[diagnostic::on_unimplemented(
    message = "a tool's handler cannot answer with `{Self}`",
    label = "the handler's answer",
    note = "answer with a `String` (text), `Json<T>` (structured output, `T` deriving \
            `stitch::Shape` and `serde::Serialize`), rmcp content (`CallToolResult`, \
            `ContentBlock`), or a `Result` of one"
)]
pub trait Reply: Send + 'static {
    /// The output schema this answer advertises, if any.
    #[doc(hidden)]
    fn output() -> Option<Output>;
    /// The answer, before it becomes a result.
    #[doc(hidden)]
    fn answer(self) -> Answer;
}

/// A type a tool returns with an output schema: it describes itself ([`Shape`], derived with
/// `#[derive(stitch::Shape)]`) and serializes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the result of a tool with an output schema",
    label = "the result's schema is advertised as the tool's `outputSchema`",
    note = "a result needs a stitch schema (`Shape`) and serde's `Serialize`: derive both on \
            a type of your own, `#[derive(stitch::Shape, serde::Serialize)]`",
    note = "another crate's type: turn on the stitch feature that describes it, or return a \
            struct of your own that holds it; the schema must be an object, as MCP requires \
            of an `outputSchema`",
    note = "or answer without an output schema: `String` (text), or rmcp content \
            (`CallToolResult`, `ContentBlock`)"
)]
pub trait ToolOutput: Shape + serde::Serialize {}

// The error for a result that is not an output names `ToolOutput` and its notes, said for a
// result, rather than the `Shape` bound underneath, whose notes are said for an input.
#[diagnostic::do_not_recommend]
impl<T: Shape + serde::Serialize> ToolOutput for T {}

/// Content rmcp sends as it is.
fn content<R: IntoCallToolResult>(reply: R) -> Answer {
    match reply.into_call_tool_result() {
        Ok(response) => Answer::Content(response),
        Err(error) => Answer::Refused(error),
    }
}

macro_rules! content_replies {
    ($($reply:ty),*) => {$(
        impl Reply for $reply {
            fn output() -> Option<Output> {
                None
            }

            fn answer(self) -> Answer {
                content(self)
            }
        }
    )*};
}

content_replies!(String, CallToolResult, CallToolResponse, ContentBlock);

impl Reply for &'static str {
    fn output() -> Option<Output> {
        None
    }

    fn answer(self) -> Answer {
        content(self.to_owned())
    }
}

impl Reply for Vec<ContentBlock> {
    fn output() -> Option<Output> {
        None
    }

    fn answer(self) -> Answer {
        content(CallToolResult::success(self))
    }
}

impl<T: ToolOutput + Send + 'static> Reply for Json<T> {
    fn output() -> Option<Output> {
        Some(Output::of::<T>())
    }

    fn answer(self) -> Answer {
        match serde_json::to_value(self.0) {
            Ok(value) => Answer::Output(value),
            Err(error) => Answer::Failed(format!("the result did not serialize: {error}")),
        }
    }
}

impl<R: Reply, E: Display + Send + 'static> Reply for Result<R, E> {
    fn output() -> Option<Output> {
        R::output()
    }

    fn answer(self) -> Answer {
        match self {
            Ok(reply) => reply.answer(),
            Err(error) => {
                // rmcp's own error is a protocol error, as rmcp's tools answer it.
                let mut error = Some(error);
                if let Some(protocol) =
                    (&mut error as &mut dyn Any).downcast_mut::<Option<ErrorData>>()
                {
                    return Answer::Refused(protocol.take().expect("the error is there"));
                }
                Answer::Failed(error.expect("the error is there").to_string())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result with an output schema.
    #[derive(stitch_derive::Shape, serde::Serialize)]
    #[contract(crate = "crate")]
    struct Sum {
        total: i64,
    }

    #[test]
    fn the_answer_type_decides_the_output_schema() {
        assert!(<Result<Json<Sum>, String>>::output().is_some());
        assert!(<Json<Sum>>::output().is_some());
        assert!(String::output().is_none());
        assert!(<Result<CallToolResult, String>>::output().is_none());
    }

    #[test]
    fn each_answer_is_what_rmcp_sends() {
        assert!(matches!("hi".answer(), Answer::Content(_)));
        assert!(matches!(
            Ok::<_, String>(Json(Sum { total: 3 })).answer(),
            Answer::Output(value) if value == serde_json::json!({"total": 3})
        ));
        assert!(matches!(
            Err::<String, _>("no such part").answer(),
            Answer::Failed(text) if text == "no such part"
        ));
        // rmcp's own error is a protocol error, as in rmcp.
        let protocol = ErrorData::invalid_params("bad", None);
        assert!(matches!(
            Err::<String, _>(protocol).answer(),
            Answer::Refused(error) if error.message == "bad"
        ));
    }
}
