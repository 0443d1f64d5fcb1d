//! A rejected call: every issue found in one call's arguments, each at its JSON Pointer, and
//! the tool results that carry them.

use std::fmt;

pub use crate::shape::issue::{Issue, JsonPointer};

/// A call's arguments were rejected; `issues` lists the problems found, in document order, up
/// to [`Rejection::MAX_ISSUES`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(
    clippy::exhaustive_structs,
    reason = "a rejection's documented wire form, which a server wrapping another (stitch-gateway) builds"
)]
pub struct Rejection {
    /// The problems found, in document order: every one, or the first
    /// [`MAX_ISSUES`](Rejection::MAX_ISSUES) when `truncated`.
    pub issues: Vec<Issue>,
    /// Whether there were more than `issues` lists: the check stopped at the cap, so that no
    /// answer is more than a small multiple of its call.
    pub truncated: bool,
}

/// The `_meta` key under which a rejection's issues travel beside an output schema.
pub const REJECTION_META_KEY: &str = "stitch/rejection";

impl Rejection {
    /// At most this many issues are found and listed; the rest are said to exist, not
    /// walked for: a model corrects its call from the first ones, and a call of a hundred
    /// thousand bad items is answered in a few kilobytes.
    pub const MAX_ISSUES: usize = 20;

    /// A rejection of `issues`, capped at [`MAX_ISSUES`](Self::MAX_ISSUES) (`truncated` when
    /// there were more, or when whoever found them stopped looking at the cap).
    pub fn new(mut issues: Vec<Issue>, truncated: bool) -> Rejection {
        let truncated = truncated || issues.len() > Self::MAX_ISSUES;
        issues.truncate(Self::MAX_ISSUES);
        Rejection { issues, truncated }
    }

    /// The rejection as an MCP tool result (MCP 2025-11-25) of a tool without an output
    /// schema: `isError: true`, a text a model reads, and `structuredContent` with
    /// `{"code": "VALIDATION_ERROR", "issues": [...]}`. Tool-argument errors are results the
    /// model can correct, not protocol errors.
    pub fn to_tool_result(&self) -> serde_json::Value {
        serde_json::json!({
            "content": [{"type": "text", "text": self.to_string()}],
            "structuredContent": self.structured(),
            "isError": true,
        })
    }

    /// The rejection as the tool result of a tool *with* an output schema: clients (the
    /// TypeScript SDK, the MCP Inspector) validate `structuredContent` against the output
    /// schema even on an error result and refuse the whole result when it does not match. So
    /// there is none: the text carries every issue for the model, and `_meta` carries them
    /// structured under [`REJECTION_META_KEY`] for code.
    pub fn to_tool_result_with_output_schema(&self) -> serde_json::Value {
        serde_json::json!({
            "content": [{"type": "text", "text": self.to_string()}],
            "isError": true,
            "_meta": {REJECTION_META_KEY: self.structured()},
        })
    }

    /// `{"code": "VALIDATION_ERROR", "issues": [...]}`, with `"truncated": true` when the
    /// issues listed are the first of more.
    fn structured(&self) -> serde_json::Value {
        if self.truncated {
            serde_json::json!({"code": "VALIDATION_ERROR", "issues": self.issues, "truncated": true})
        } else {
            serde_json::json!({"code": "VALIDATION_ERROR", "issues": self.issues})
        }
    }

    /// The rejection as rmcp's result of a tool *with* an output schema (see
    /// [`to_tool_result_with_output_schema`](Self::to_tool_result_with_output_schema)); a
    /// tool without one converts with `CallToolResult::from(rejection)`.
    #[cfg(feature = "rmcp")]
    pub fn into_result_with_output_schema(self) -> rmcp::model::CallToolResult {
        let mut meta = rmcp::model::MetaObject::new();
        meta.0
            .insert(REJECTION_META_KEY.to_owned(), self.structured());
        rmcp::model::CallToolResult::error(vec![rmcp::model::ContentBlock::text(self.to_string())])
            .with_meta(Some(meta))
    }
}

/// A rejection as the result of an rmcp tool without an output schema: `isError`, the text a
/// model reads, and the issues as `structuredContent` — so a hand-written rmcp tool that
/// calls [`Contract::parse`](crate::Contract::parse) answers a bad call in one line, as
/// stitch's own tools do.
#[cfg(feature = "rmcp")]
impl From<Rejection> for rmcp::model::CallToolResult {
    fn from(rejection: Rejection) -> Self {
        let mut result = Self::error(vec![rmcp::model::ContentBlock::text(rejection.to_string())]);
        result.structured_content = Some(rejection.structured());
        result
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.issues.as_slice() {
            [] => write!(f, "the arguments were rejected"),
            [only] => write!(f, "{only}"),
            many if self.truncated => {
                write!(
                    f,
                    "the first {} issues in the arguments (there are more: correct these and \
                     call again):",
                    many.len()
                )?;
                for issue in many {
                    write!(f, "\n- {issue}")?;
                }
                Ok(())
            }
            many => {
                write!(f, "{} issues in the arguments:", many.len())?;
                for issue in many {
                    write!(f, "\n- {issue}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Rejection {}
