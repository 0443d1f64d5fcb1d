//! A stitch tool as rmcp lists it: its name, description, and the input schema and the output
//! schema of its result type, each in a dialect. rmcp holds schemas as `serde_json` maps; with
//! `preserve_order` (which the `rmcp` feature turns on) the keys keep the order stitch
//! rendered them in, so the text on the wire is the text stitch rendered.

use std::sync::Arc;

use crate::ir::Node;
use crate::{ContractTool, Dialect};
use rmcp::model::{JsonObject, Tool};
use serde_json::Value;

/// A tool's result type, when it advertises an output schema: its schema and its name (for
/// the guard's message when it is not an object). Public only so that
/// [`Reply`](super::Reply) can name it; not reachable from outside the crate.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Output {
    pub(crate) node: &'static Node<'static>,
    pub(crate) type_name: &'static str,
    /// Its schema as a client shown a dialect is listed it.
    pub(crate) schema_in: fn(Dialect) -> &'static str,
}

impl Output {
    /// The output schema of result type `O`.
    pub(crate) fn of<O: crate::Shape>() -> Output {
        Output {
            node: O::SHAPE,
            type_name: std::any::type_name::<O>(),
            schema_in: |dialect| crate::schema_of::<O>(crate::Rendering::output(dialect)),
        }
    }
}

/// The rmcp tool of a stitch contract, its input schema in `dialect`.
pub(crate) fn listed(contract: &ContractTool, output: Option<Output>, dialect: Dialect) -> Tool {
    let input = json_object(contract.input_schema_for(dialect));
    let mut tool = Tool::new(contract.name, contract.description, Arc::new(input));
    tool.output_schema = output.map(|output| Arc::new(json_object((output.schema_in)(dialect))));
    tool
}

/// The rmcp tool of a mounted stitch tool: [`listed`], with the title its mount gives.
pub(crate) fn mounted(
    contract: &ContractTool,
    title: Option<&'static str>,
    output: Option<Output>,
    dialect: Dialect,
) -> Tool {
    let mut tool = listed(contract, output, dialect);
    tool.title = title.map(str::to_owned);
    tool
}

/// A rendered schema as a JSON object (stitch always renders an object schema here: the
/// guard refuses an input or output that is not one).
pub(crate) fn json_object(schema: &str) -> JsonObject {
    match serde_json::from_str(schema) {
        Ok(Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}
