//! One call of a stitch tool, whichever form serves it ([`Tools`](super::Tools) or
//! [`Toolbox`](super::Toolbox)): the arguments parsed, the handler run until it answers, its
//! deadline passes or the call is cancelled, the answer turned into a result every client
//! accepts, the observer told. No other code runs a stitch tool.
//!
//! A call ends. rmcp runs each request in a task of its own and cancels the request's token
//! when the client sends `notifications/cancelled`, when its session ends (`DELETE`, expiry,
//! a closed stdio) and, when serving statelessly, when the client disconnects; it never drops
//! the task. So the handler's future is raced here against that token and the deadline, and
//! dropped where it stands when either comes first: whatever it holds is freed then.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::{Contract, ContractTool, Dialect, Issue, Rejection};
use futures::FutureExt;
use futures::future::Either;
use rmcp::ErrorData;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, JsonObject};
use serde_json::Value;

use super::handler::{Answer, Handler, Reply, RequestParts};
use super::schema::Output;

/// What the observer sees of one call.
#[derive(Debug)]
#[non_exhaustive]
pub struct CallRecord<'a> {
    /// The tool called.
    pub tool: &'a str,
    /// How the call ended.
    pub outcome: Outcome<'a>,
    /// From the arrival of the call to its answer.
    pub duration: Duration,
}

/// How a call ended.
#[derive(Debug)]
#[non_exhaustive]
pub enum Outcome<'a> {
    /// The arguments parsed and the handler succeeded.
    Accepted,
    /// The arguments were rejected: the handler never ran.
    Rejected(&'a [Issue]),
    /// The arguments parsed, and the handler returned this error (an `isError` result or a
    /// protocol error), or it or a `refine` check panicked (`panicked: ...`; the client is told only
    /// that the tool failed).
    Failed(&'a str),
    /// The call was cancelled before the handler answered (by the client, by its session's
    /// end, or by its disconnecting from a stateless server): the handler's future was
    /// dropped.
    Cancelled,
    /// The handler had not answered within the tool's deadline: its future was dropped, and
    /// the client told so.
    TimedOut(Duration),
}

/// The observer of every call.
pub(crate) type Observer = Arc<dyn Fn(&CallRecord<'_>) + Send + Sync>;

type Answering<'a> = Pin<Box<dyn Future<Output = Answer> + Send + 'a>>;

/// How one call starts against the server's state, parsed as a client shown the dialect
/// sends it, with the request's context when a client made it.
type Invoke<S> = Arc<
    dyn for<'a> Fn(&'a S, Value, Dialect, Option<&mut ToolCallContext<'_, S>>) -> Answering<'a>
        + Send
        + Sync,
>;

/// What a client is told when a handler panics: nothing of its internals.
const PANICKED: &str = "The tool failed unexpectedly; whether the call took effect is unknown.";

/// What a client is told of a cancelled call, where it can still be told.
const CANCELLED: &str = "The call was cancelled before the tool finished; whether it took \
                         effect is unknown.";

/// A stitch tool: its contract, the output it advertises, and how a call runs.
pub(crate) struct StitchTool<S> {
    /// The contract's tool, for the guard and the listings.
    pub(crate) contract: ContractTool,
    /// The result type's schema, when the tool advertises an output schema.
    pub(crate) output: Option<Output>,
    /// How long a call may run before its handler is dropped.
    pub(crate) deadline: Duration,
    /// The tool's title, when its mount gives one.
    pub(crate) title: Option<&'static str>,
    invoke: Invoke<S>,
}

impl<S: Send + Sync + 'static> StitchTool<S> {
    /// The tool of contract `C` answered by `handler`: its reply decides the tool's output
    /// schema and what a client is answered.
    pub(crate) fn new<C, M, R, H>(handler: H) -> Self
    where
        C: Contract + Send + 'static,
        R: Reply,
        H: for<'a> Handler<'a, S, C, M, R>,
    {
        let invoke: Invoke<S> = Arc::new(move |server: &S, arguments, dialect, context| {
            let ready = |answer| Box::pin(std::future::ready(answer)) as Answering<'_>;
            // A panic is an answer, whether it comes from a `refine` check while the call is
            // parsed, or from the handler while its future is made or run.
            let started = std::panic::catch_unwind(AssertUnwindSafe(|| {
                let answered = |answer: Answer| Box::new(answer);
                let contract = C::parse_for(arguments, dialect)
                    .map_err(|rejection| answered(Answer::Rejected(rejection)))?;
                let parts = H::Parts::from_call(context)
                    .map_err(|error| answered(Answer::Refused(error)))?;
                Ok::<_, Box<Answer>>(handler.call(server, contract, parts))
            }));
            let reply = match started {
                Ok(Ok(reply)) => reply,
                Ok(Err(answer)) => return ready(*answer),
                Err(panic) => return ready(Answer::Panicked(panic_message(&*panic))),
            };
            Box::pin(
                AssertUnwindSafe(async move { reply.await.answer() })
                    .catch_unwind()
                    .map(|ended| {
                        ended.unwrap_or_else(|panic| Answer::Panicked(panic_message(&*panic)))
                    }),
            )
        });
        let output = R::output();
        StitchTool {
            contract: C::TOOL,
            output,
            deadline: DEFAULT_CALL_DEADLINE,
            title: None,
            invoke,
        }
    }

    /// Runs one call from a client shown `dialect` (or not from a client, without `context`),
    /// to its result: the path every call of a stitch tool takes, served or not.
    pub(crate) fn run<'a>(
        self: Arc<Self>,
        server: &'a S,
        arguments: Option<JsonObject>,
        dialect: Dialect,
        context: Option<&mut ToolCallContext<'_, S>>,
        observer: Option<Observer>,
    ) -> Pin<Box<dyn Future<Output = Result<CallToolResponse, ErrorData>> + Send + 'a>> {
        let started = Instant::now();
        let answering = self.start(server, arguments, dialect, context);
        Box::pin(async move { self.finish(answering.await, started, observer.as_ref()) })
    }

    /// Starts one call from a client shown `dialect`: the arguments parsed and the request's
    /// parts taken now, the handler's future returned to be awaited, which ends at the
    /// tool's deadline or when the request is cancelled, whichever comes first. A call without
    /// `context` was not made by a client ([`Toolbox::call`](super::Toolbox::call)), and ends
    /// at its deadline.
    fn start<'a>(
        &self,
        server: &'a S,
        arguments: Option<JsonObject>,
        dialect: Dialect,
        context: Option<&mut ToolCallContext<'_, S>>,
    ) -> Answering<'a> {
        let arguments = Value::Object(arguments.unwrap_or_default());
        let cancelled = context
            .as_ref()
            .map(|context| context.request_context.ct.clone());
        let answering = (self.invoke)(server, arguments, dialect, context);
        let cancelled = async move {
            match cancelled {
                Some(token) => token.cancelled_owned().await,
                None => std::future::pending().await,
            }
        };
        Box::pin(ended_by(answering, self.deadline, cancelled))
    }

    /// Ends a call that began at `started`: its answer told to the observer, and turned into
    /// a result every client accepts.
    fn finish(
        &self,
        answer: Answer,
        started: Instant,
        observer: Option<&Observer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(observer) = observer {
            let error_text;
            let outcome = match &answer {
                Answer::Output(_) => Outcome::Accepted,
                Answer::Content(CallToolResponse::Complete(result))
                    if result.is_error == Some(true) =>
                {
                    error_text = text_of(result);
                    Outcome::Failed(&error_text)
                }
                Answer::Content(_) => Outcome::Accepted,
                Answer::Rejected(rejection) => Outcome::Rejected(&rejection.issues),
                Answer::Failed(message) => Outcome::Failed(message),
                Answer::Refused(error) => Outcome::Failed(&error.message),
                Answer::Panicked(message) => {
                    error_text = format!("panicked: {message}");
                    Outcome::Failed(&error_text)
                }
                Answer::Cancelled => Outcome::Cancelled,
                Answer::TimedOut(deadline) => Outcome::TimedOut(*deadline),
            };
            observer(&CallRecord {
                tool: self.contract.name,
                outcome,
                duration: started.elapsed(),
            });
        }
        match answer {
            Answer::Output(value) => Ok(CallToolResult::structured(value).into()),
            Answer::Content(response) => Ok(response),
            Answer::Rejected(rejection) => Ok(self.rejected(rejection).into()),
            Answer::Failed(message) => {
                Ok(CallToolResult::error(vec![ContentBlock::text(message)]).into())
            }
            Answer::Refused(error) => Err(error),
            Answer::Panicked(_) => {
                Ok(CallToolResult::error(vec![ContentBlock::text(PANICKED)]).into())
            }
            Answer::Cancelled => {
                Ok(CallToolResult::error(vec![ContentBlock::text(CANCELLED)]).into())
            }
            Answer::TimedOut(deadline) => {
                let text = format!(
                    "The tool did not finish within {} s and was stopped; whether the call \
                     took effect is unknown.",
                    deadline.as_secs_f64()
                );
                Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
            }
        }
    }

    /// A rejection as this tool answers it: with its issues as `structuredContent`, or, when
    /// the tool has an output schema (which clients hold every `structuredContent` to), in
    /// `_meta`.
    fn rejected(&self, rejection: Rejection) -> CallToolResult {
        if self.output.is_some() {
            rejection.into_result_with_output_schema()
        } else {
            CallToolResult::from(rejection)
        }
    }
}

/// How long a call may run unless its tool says otherwise: a minute, as long as the
/// TypeScript SDK's client waits for an answer by default (past it, the answer has no one to
/// read it).
pub(crate) const DEFAULT_CALL_DEADLINE: Duration = Duration::from_secs(60);

/// The handler's answer, unless `deadline` passes or `cancelled` resolves first: then the
/// handler's future is dropped where it stands. An answer ready at the same moment wins.
async fn ended_by(
    answering: Answering<'_>,
    deadline: Duration,
    cancelled: impl Future<Output = ()> + Send,
) -> Answer {
    let timer = std::pin::pin!(tokio::time::sleep(deadline));
    let cancelled = std::pin::pin!(cancelled);
    match futures::future::select(answering, futures::future::select(timer, cancelled)).await {
        Either::Left((answer, _)) => answer,
        Either::Right((Either::Left(_), _)) => Answer::TimedOut(deadline),
        Either::Right((Either::Right(_), _)) => Answer::Cancelled,
    }
}

/// The text blocks of a result, one line each.
fn text_of(result: &CallToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|text| text.text.as_str()))
        .collect();
    texts.join("\n")
}

/// What a panic says, when it says it in words.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    match (panic.downcast_ref::<&str>(), panic.downcast_ref::<String>()) {
        (Some(message), _) => (*message).to_owned(),
        (None, Some(message)) => message.clone(),
        (None, None) => "(a panic without a message)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answering(answer: Option<Answer>) -> Answering<'static> {
        match answer {
            Some(answer) => Box::pin(std::future::ready(answer)),
            None => Box::pin(std::future::pending()),
        }
    }

    #[tokio::test]
    async fn a_call_that_does_not_answer_ends_at_its_deadline() {
        let deadline = Duration::from_millis(20);
        let ended = ended_by(answering(None), deadline, std::future::pending()).await;
        assert!(matches!(ended, Answer::TimedOut(at) if at == deadline));
    }

    #[tokio::test]
    async fn a_cancelled_call_ends_before_its_deadline() {
        let ended = ended_by(
            answering(None),
            Duration::from_secs(3600),
            std::future::ready(()),
        )
        .await;
        assert!(matches!(ended, Answer::Cancelled));
    }

    #[tokio::test]
    async fn an_answer_ready_with_the_cancellation_wins() {
        let ended = ended_by(
            answering(Some(Answer::Failed("done".to_owned()))),
            Duration::ZERO,
            std::future::ready(()),
        )
        .await;
        assert!(matches!(ended, Answer::Failed(text) if text == "done"));
    }
}
