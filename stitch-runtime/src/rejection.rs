//! A rejected call: every issue found in one call's arguments, each at its JSON Pointer.

use std::fmt;

use stitch_rules::IssueCode;

/// One problem in a call's arguments.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Issue {
    /// Where: an RFC 6901 JSON Pointer into the arguments (`/operations/0/partIndex`).
    pub pointer: String,
    /// What kind of problem: [`IssueCode::as_str`] is its stable snake_case code, which is
    /// what the structured content carries.
    #[serde(serialize_with = "code_as_str")]
    pub code: IssueCode,
    /// What is wrong and what to send instead, written for a model to act on.
    pub message: String,
}

/// An issue's code as its snake_case text.
fn code_as_str<S: serde::Serializer>(code: &IssueCode, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(code.as_str())
}

/// A call's arguments were rejected; `issues` lists the problems found, in document order, up
/// to [`Rejection::MAX_ISSUES`].
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// A JSON Pointer (RFC 6901) that grows and shrinks as a walk goes in and out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsonPointer(String);

impl JsonPointer {
    /// The pointer to the whole document (`""`).
    pub fn root() -> JsonPointer {
        JsonPointer(String::new())
    }

    /// Goes into a key; returns the length to [`truncate`](Self::truncate) back to.
    pub fn push_key(&mut self, key: &str) -> usize {
        let mark = self.0.len();
        self.0.push('/');
        if !key.contains(['~', '/']) {
            self.0.push_str(key);
            return mark;
        }
        for ch in key.chars() {
            match ch {
                '~' => self.0.push_str("~0"),
                '/' => self.0.push_str("~1"),
                _ => self.0.push(ch),
            }
        }
        mark
    }

    /// Goes into an array index; returns the length to truncate back to.
    pub fn push_index(&mut self, index: usize) -> usize {
        let mark = self.0.len();
        self.0.push('/');
        // Digits written in place: no string allocated, no formatting machinery.
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut rest = index;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        self.0
            .extend(digits[at..].iter().map(|&digit| char::from(digit)));
        mark
    }

    /// Comes back out to a length returned by a push.
    pub fn truncate(&mut self, mark: usize) {
        self.0.truncate(mark);
    }

    /// The pointer text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl JsonPointer {
    /// The pointer text, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::JsonPointer;

    #[test]
    fn pointers_escape_tilde_and_slash() {
        let mut pointer = JsonPointer::root();
        let mark = pointer.push_key("a/b~c");
        pointer.push_index(3);
        assert_eq!(pointer.as_str(), "/a~1b~0c/3");
        pointer.truncate(mark);
        assert_eq!(pointer.as_str(), "");
    }
}
