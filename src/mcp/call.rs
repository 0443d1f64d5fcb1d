//! One call of a stitch tool, whichever form serves it ([`Tools`](super::Tools) or
//! [`Toolbox`](super::Toolbox)): the arguments parsed, the handler run, the answer turned into
//! a result every client accepts, the observer told. No other code runs a stitch tool.

use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde_json::Value;
use stitch_runtime::{Contract, Dialect, Issue, Rejection, Shape, Tool};

use super::schema::Output;

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

/// A type a tool returns with an output schema: it describes itself ([`Shape`], derived with
/// `#[derive(stitch::Shape)]`) and serializes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the result of a tool with an output schema",
    label = "the result's schema is advertised as the tool's `outputSchema`",
    note = "derive both on `{Self}`: `#[derive(stitch::Shape, serde::Serialize)]`"
)]
pub trait ToolOutput: Shape + serde::Serialize {}

impl<T: Shape + serde::Serialize> ToolOutput for T {}

/// What the observer sees of one call.
#[derive(Debug)]
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
pub enum Outcome<'a> {
    /// The arguments parsed and the handler succeeded.
    Accepted,
    /// The arguments were rejected: the handler never ran.
    Rejected(&'a [Issue]),
    /// The arguments parsed, and the handler returned this error.
    Failed(&'a str),
}

/// The observer of every call.
pub(crate) type Observer = Arc<dyn Fn(&CallRecord<'_>) + Send + Sync>;

type Answering<'a> = Pin<Box<dyn Future<Output = Answer> + Send + 'a>>;

/// How one call runs against the server's state, parsed as a client shown the dialect sends it.
type Invoke<S> = Arc<dyn for<'a> Fn(&'a S, Value, Dialect) -> Answering<'a> + Send + Sync>;

/// How a call ended, before it becomes a result.
enum Answer {
    Output(Value),
    Rejected(Rejection),
    Failed(String),
}

/// A stitch tool: its contract, the output it advertises, and how a call runs.
pub(crate) struct StitchTool<S> {
    /// The contract's tool, for the guard and the listings.
    pub(crate) contract: Tool,
    /// The result type's schema, when the tool advertises an output schema.
    pub(crate) output: Option<Output>,
    invoke: Invoke<S>,
}

impl<S: Send + Sync + 'static> StitchTool<S> {
    /// The tool of contract `C` answered by `handler`, with the output schema of `output`.
    pub(crate) fn new<C, O, E, F>(handler: F, output: Option<Output>) -> Self
    where
        C: Contract + Send + 'static,
        O: serde::Serialize + 'static,
        E: Display + 'static,
        F: for<'a> Handler<'a, S, C, O, E>,
    {
        let invoke: Invoke<S> = Arc::new(move |server: &S, arguments: Value, dialect| {
            let contract = match C::parse_for(arguments, dialect) {
                Ok(contract) => contract,
                Err(rejection) => {
                    let answer = Answer::Rejected(rejection);
                    return Box::pin(std::future::ready(answer)) as Answering<'_>;
                }
            };
            let reply = handler.call(server, contract);
            Box::pin(async move {
                match reply.await {
                    Ok(output) => match serde_json::to_value(output) {
                        Ok(value) => Answer::Output(value),
                        Err(error) => {
                            Answer::Failed(format!("the result did not serialize: {error}"))
                        }
                    },
                    Err(error) => Answer::Failed(error.to_string()),
                }
            })
        });
        StitchTool {
            contract: C::TOOL,
            output,
            invoke,
        }
    }

    /// Runs one call from a client shown `dialect`: the answer, as a result every client
    /// accepts, told to the observer.
    pub(crate) async fn call(
        &self,
        server: &S,
        arguments: Option<JsonObject>,
        dialect: Dialect,
        observer: Option<&Observer>,
    ) -> CallToolResult {
        let started = Instant::now();
        let arguments = Value::Object(arguments.unwrap_or_default());
        let answer = (self.invoke)(server, arguments, dialect).await;
        if let Some(observer) = observer {
            let outcome = match &answer {
                Answer::Output(_) => Outcome::Accepted,
                Answer::Rejected(rejection) => Outcome::Rejected(&rejection.issues),
                Answer::Failed(message) => Outcome::Failed(message),
            };
            observer(&CallRecord {
                tool: self.contract.name,
                outcome,
                duration: started.elapsed(),
            });
        }
        match answer {
            Answer::Output(value) => CallToolResult::structured(value),
            Answer::Rejected(rejection) => self.rejected(rejection),
            Answer::Failed(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
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
