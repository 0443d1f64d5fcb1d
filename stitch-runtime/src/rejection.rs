//! A rejected call: every issue found in one call's arguments, each at its JSON Pointer.

use std::fmt;

/// One problem in a call's arguments.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Issue {
    /// Where: an RFC 6901 JSON Pointer into the arguments (`/operations/0/partIndex`).
    pub pointer: String,
    /// What kind of problem, as a stable snake_case identifier.
    pub code: &'static str,
    /// What is wrong and what to send instead, written for a model to act on.
    pub message: String,
}

/// A call's arguments were rejected; `issues` lists every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// Every problem found, in document order.
    pub issues: Vec<Issue>,
}

impl Rejection {
    /// The rejection as an MCP tool result (MCP 2025-11-25): `isError: true`, a text a model
    /// reads, and `structuredContent` with `{"code": "VALIDATION_ERROR", "issues": [...]}`.
    /// Tool-argument errors are results the model can correct, not protocol errors.
    pub fn to_tool_result(&self) -> serde_json::Value {
        serde_json::json!({
            "content": [{"type": "text", "text": self.to_string()}],
            "structuredContent": {"code": "VALIDATION_ERROR", "issues": self.issues},
            "isError": true,
        })
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.pointer, self.message)
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.issues.as_slice() {
            [] => write!(f, "the arguments were rejected"),
            [only] => write!(f, "{only}"),
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
