//! One problem in a value, at its JSON Pointer: what a call's check finds, and what a type's
//! own [`refine`](crate::Shape::refine) reports.

use std::fmt;

use stitch_rules::IssueCode;

/// One problem in a call's arguments.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[allow(
    clippy::exhaustive_structs,
    reason = "a rejection's documented wire form, which a server wrapping another (stitch-gateway) builds"
)]
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

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.pointer, self.message)
        }
    }
}

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
