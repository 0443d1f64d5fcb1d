//! A guard finding: plain data of bounded size, built without allocation, so that one type
//! serves the compile-time check and the run-time forms; and the message it is said in.

use core::fmt;

use stitch_rules::{Message, Text};

use super::budget::Limit;

/// What a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FindingKind {
    /// The tool name breaks `^[a-zA-Z0-9_-]{1,64}$`.
    InvalidName,
    /// Two tools share a name.
    DuplicateName,
    /// The input schema is not an object.
    NotAnObject,
    /// A property carries no type information.
    Untyped,
    /// A `format` outside the portable list and the allowed ones.
    NonPortableFormat,
    /// The input nests objects deeper than the guard walks (32 levels).
    TooDeep,
    /// The profile's dialect cannot say this property as the contract means it (see
    /// [`SchemaProfile::dialect`](crate::SchemaProfile::dialect)).
    Inexpressible,
    /// The tool's schema in the profile's dialect is past a limit of the provider whose
    /// clients the dialect is written for (see [`Limit`]): the provider refuses the request.
    OverBudget,
    /// The tool is listed with an empty description: a model choosing between tools sees only
    /// its name (see [`SchemaProfile::require_descriptions`](crate::SchemaProfile::require_descriptions)).
    NoDescription,
}

/// One problem in what a tool advertises. `Display` gives a message naming the tool, the
/// property path, what is wrong and why, the property's description, and the remedy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finding {
    pub(super) kind: FindingKind,
    pub(super) tool: Text<128>,
    pub(super) path: Text<256>,
    pub(super) why: Text<384>,
    pub(super) description: Text<320>,
    /// For a finding over budget: the limit and the tool's (or the request's) figure.
    pub(super) budget: Option<(Limit, u64)>,
}

impl Finding {
    pub(super) const fn new(kind: FindingKind, tool: &str) -> Finding {
        Finding {
            kind,
            tool: Text::new().push(tool),
            path: Text::new(),
            why: Text::new(),
            description: Text::new(),
            budget: None,
        }
    }

    /// The finding, saying why.
    pub(super) const fn because(mut self, why: &str) -> Finding {
        self.why.push_str(why);
        self
    }

    /// What the finding is about.
    pub const fn kind(&self) -> FindingKind {
        self.kind
    }

    /// The tool's name.
    pub const fn tool(&self) -> &str {
        self.tool.as_str()
    }

    /// The property's dotted path inside the tool's input (array items add no segment);
    /// empty for findings about the tool itself.
    pub const fn path(&self) -> &str {
        self.path.as_str()
    }

    /// Why the property is flagged (for example which operations disagree on a hazard).
    pub const fn why(&self) -> &str {
        self.why.as_str()
    }

    /// The property's description, if it has one: all a model sees of an untyped property.
    pub const fn description(&self) -> Option<&str> {
        if self.description.is_empty() {
            None
        } else {
            Some(self.description.as_str())
        }
    }

    /// For a finding over budget, the limit exceeded.
    pub const fn limit(&self) -> Option<Limit> {
        match self.budget {
            Some((limit, _)) => Some(limit),
            None => None,
        }
    }

    /// For a finding over budget, the figure past the limit: the tool's own, or for a limit
    /// over a request's tools (Anthropic's 20 strict tools, say), the request's.
    pub const fn figure(&self) -> Option<u64> {
        match self.budget {
            Some((_, figure)) => Some(figure),
            None => None,
        }
    }

    /// The finding as a message (what `Display` writes and the compile error shows).
    pub(crate) const fn message(&self) -> Message {
        let tool = self.tool.as_str();
        let path = self.path.as_str();
        let mut m = Message::new().push("stitch guard: ");
        match self.kind {
            FindingKind::InvalidName
            | FindingKind::DuplicateName
            | FindingKind::NotAnObject
            | FindingKind::TooDeep
            | FindingKind::NoDescription => {
                m = m
                    .push("tool \"")
                    .push(tool)
                    .push("\": ")
                    .push(self.why.as_str());
                return m;
            }
            FindingKind::OverBudget => {
                return m
                    .push("tool \"")
                    .push(tool)
                    .push("\" is over budget: ")
                    .push(self.why.as_str())
                    .push(". The provider refuses the whole request; split the tool, or serve these clients another dialect.");
            }
            FindingKind::Untyped => {
                m = m
                    .push("property \"")
                    .push(tool)
                    .push(".")
                    .push(path)
                    .push("\" has no type: ")
                    .push(self.why.as_str())
                    .push(".");
            }
            FindingKind::NonPortableFormat => {
                m = m
                    .push("property \"")
                    .push(tool)
                    .push(".")
                    .push(path)
                    .push("\" uses ")
                    .push(self.why.as_str())
                    .push(".");
            }
            FindingKind::Inexpressible => {
                m = m
                    .push("property \"")
                    .push(tool)
                    .push(".")
                    .push(path)
                    .push("\" cannot be advertised as it is: ")
                    .push(self.why.as_str())
                    .push(".");
            }
        }
        if let Some(description) = self.description() {
            m = m.push(" Its description: \"").push(description).push("\".");
        }
        match self.kind {
            FindingKind::Inexpressible => m.push(
                " Parse still holds calls to the contract; to show it whole, serve this client \
                 another dialect, or give the property a type the dialect can say.",
            ),
            FindingKind::Untyped => m
                .push(" A model shown this property can only guess what to send. Declare a type")
                .push(
                    " for it; or, if the value is genuinely free-form, allow it: `allow_untyped(\"",
                )
                .push(path)
                .push("\")` on the contract, or `SchemaProfile::allow_untyped(&[\"")
                .push(tool)
                .push(".")
                .push(path)
                .push("\"])`."),
            _ => m
                .push(" Use a portable format (")
                .push("date, time, date-time, duration, uri, uuid, email, ...); or allow it:")
                .push(" `allow_formats(...)`."),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().as_str())
    }
}

impl std::error::Error for Finding {}
