//! One call of a stitch tool, whichever form serves it ([`Tools`](super::Tools) or
//! [`Toolbox`](super::Toolbox)): the arguments parsed, the handler run, the answer turned into
//! a result every client accepts, the observer told. No other code runs a stitch tool.

use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, MetaObject};
use serde_json::Value;
use stitch_runtime::ir::Node;
use stitch_runtime::{Contract, Dialect, Issue, Mode, Rejection, Shape, Tool};

use super::route::Handler;

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
    Rejected(Vec<Issue>),
    Failed(String),
}

/// A stitch tool: what it advertises, what the guard checks, and how a call runs.
pub(crate) struct StitchTool<S> {
    /// The contract's tool, for the guard.
    pub(crate) contract: Tool,
    /// What `tools/list` shows.
    pub(crate) advertised: rmcp::model::Tool,
    /// The result type's schema and name, when the tool advertises an output schema.
    pub(crate) output: Option<(&'static Node, &'static str)>,
    invoke: Invoke<S>,
}

impl<S: Send + Sync + 'static> StitchTool<S> {
    /// The tool of contract `C` answered by `handler`, with the output schema of `output`.
    pub(crate) fn new<C, O, E, F>(handler: F, output: Option<(&'static Node, &'static str)>) -> Self
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
                    let answer = Answer::Rejected(rejection.issues);
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
        let mut advertised = rmcp::model::Tool::new(
            C::TOOL.name,
            C::TOOL.description,
            Arc::new(json_object(C::input_schema())),
        );
        advertised.output_schema = output.map(|(node, _)| {
            let schema = stitch_runtime::__private::rendered(node, Mode::Advertised);
            Arc::new(json_object(schema))
        });
        StitchTool {
            contract: C::TOOL,
            advertised,
            output,
            invoke,
        }
    }

    /// The tool as listed to a client shown `dialect`.
    pub(crate) fn advertised_in(&self, dialect: Dialect) -> rmcp::model::Tool {
        let mut advertised = self.advertised.clone();
        if dialect != Dialect::Mcp {
            let schema = self.contract.input_schema_for(dialect);
            advertised.input_schema = Arc::new(json_object(schema));
        }
        advertised
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
        let (result, outcome) = match &answer {
            Answer::Output(value) => (CallToolResult::structured(value.clone()), Outcome::Accepted),
            Answer::Rejected(issues) => (self.rejected(issues), Outcome::Rejected(issues)),
            Answer::Failed(message) => (
                CallToolResult::error(vec![ContentBlock::text(message.clone())]),
                Outcome::Failed(message),
            ),
        };
        if let Some(observer) = observer {
            observer(&CallRecord {
                tool: self.contract.name,
                outcome,
                duration: started.elapsed(),
            });
        }
        result
    }

    /// A rejection as this tool answers it: with its issues as `structuredContent`, or, when
    /// the tool has an output schema (which clients hold every `structuredContent` to), in
    /// `_meta`.
    fn rejected(&self, issues: &[Issue]) -> CallToolResult {
        let rejection = Rejection {
            issues: issues.to_vec(),
        };
        let value = if self.output.is_some() {
            rejection.to_tool_result_with_output_schema()
        } else {
            rejection.to_tool_result()
        };
        let mut result = CallToolResult::error(vec![ContentBlock::text(rejection.to_string())]);
        result.structured_content = value.get("structuredContent").cloned();
        if let Some(Value::Object(meta)) = value.get("_meta") {
            result.meta = Some(MetaObject(meta.clone()));
        }
        result
    }
}

/// A rendered schema as a JSON object (stitch always renders an object schema here: the
/// guard refuses an input or output that is not one).
pub(crate) fn json_object(schema: &str) -> JsonObject {
    match serde_json::from_str(schema) {
        Ok(Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}
