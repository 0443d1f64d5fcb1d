//! Output schemas for clients older than protocol 2026-07-28, which take only an object at
//! an output schema's root (2026-07-28 takes any: SEP-2106). For them rmcp drops such a
//! schema and moves the structured content into text; the TypeScript SDK instead wraps both
//! as the one property `result` of an object. [`InDialects`](super::InDialects) lets the
//! server pick ([`ClientDialects::legacy_output`](super::ClientDialects::legacy_output)):
//! [`LegacyOutput::Wrap`], the default since it keeps the schema, or [`LegacyOutput::Drop`].
//! A stitch tool's output is always an object (the guard holds it to that), so only a plain
//! tool's can need either.

use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, JsonObject, ProtocolVersion, Tool};
use rmcp::service::RequestContext;
use serde_json::{Value, json};
use std::sync::Arc;

/// What a client older than protocol 2026-07-28 is listed of an output schema whose root is
/// not an object, and answered of such a result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum LegacyOutput {
    /// The schema as the one required property `result` of an object, and the structured
    /// content as `{"result": ...}`, as the TypeScript SDK reads them: the schema is kept.
    #[default]
    Wrap,
    /// No output schema, and the structured content as text, as rmcp answers such a client.
    Drop,
}

/// The key a wrapped output holds its value under.
const RESULT: &str = "result";

/// Whether the client of `context` negotiated a protocol older than 2026-07-28.
pub(crate) fn is_legacy(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_none_or(|version| version.as_str() < ProtocolVersion::V_2026_07_28.as_str())
}

/// Whether an output schema's root is not an object: what an older client cannot take.
pub(crate) fn needs_projection(tool: &Tool) -> bool {
    tool.output_schema
        .as_deref()
        .is_some_and(|schema| schema.get("type").and_then(Value::as_str) != Some("object"))
}

/// A listed tool as an older client takes it.
pub(crate) fn project_tool(tool: &mut Tool, mode: LegacyOutput) {
    if !needs_projection(tool) {
        return;
    }
    tool.output_schema = match mode {
        LegacyOutput::Drop => None,
        LegacyOutput::Wrap => tool.output_schema.take().map(|schema| {
            let wrapped = json!({
                "type": "object",
                "properties": {RESULT: Value::Object(schema.as_ref().clone())},
                "required": [RESULT],
            });
            let Value::Object(wrapped) = wrapped else {
                unreachable!("an object literal")
            };
            Arc::new(wrapped)
        }),
    };
}

/// A result of a tool whose output is wrapped, as an older client reads it: its structured
/// content under `result`. Dropped, rmcp moves it into text itself.
pub(crate) fn project_response(response: &mut CallToolResponse, mode: LegacyOutput) {
    if mode != LegacyOutput::Wrap {
        return;
    }
    if let CallToolResponse::Complete(result) = response
        && let Some(content) = result.structured_content.take()
    {
        let mut wrapped = JsonObject::new();
        wrapped.insert(RESULT.to_owned(), content);
        result.structured_content = Some(Value::Object(wrapped));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool_with_output(output: Value) -> Tool {
        let Value::Object(output) = output else {
            unreachable!()
        };
        let mut tool = Tool::new("t", "T.", Arc::new(JsonObject::new()));
        tool.output_schema = Some(Arc::new(output));
        tool
    }

    #[test]
    fn a_non_object_output_is_wrapped_or_dropped_and_an_object_kept() {
        let array = json!({"type": "array", "items": {"type": "integer"}});
        let mut wrapped = tool_with_output(array.clone());
        project_tool(&mut wrapped, LegacyOutput::Wrap);
        assert_eq!(
            Value::Object(wrapped.output_schema.unwrap().as_ref().clone()),
            json!({"type": "object", "properties": {"result": array}, "required": ["result"]})
        );
        let mut dropped = tool_with_output(array);
        project_tool(&mut dropped, LegacyOutput::Drop);
        assert_eq!(dropped.output_schema, None);
        let object = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        let mut kept = tool_with_output(object.clone());
        project_tool(&mut kept, LegacyOutput::Wrap);
        assert_eq!(
            Value::Object(kept.output_schema.unwrap().as_ref().clone()),
            object
        );
    }
}
