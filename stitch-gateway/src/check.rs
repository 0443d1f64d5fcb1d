//! What `check` reports of an upstream's listing: for each tool and dialect, what the dialect
//! cannot say of the tool as stitch renders it there (the guard's findings, each at the JSON
//! Pointer of the arguments it is about), and for each dialect, whether its provider would
//! refuse the whole listing (a budget crossed over every tool, a tool name or an input it
//! refuses). The guard is the one judge (`check_tools`, what `check_router` checks of a
//! router): what it reports of a contract, it reports here.

use std::fmt::Write;

use rmcp::model::Tool;
use serde_json::{Value, json};
use stitch::guard::FindingKind;
use stitch::mcp::check_tools;
use stitch::{Dialect, Finding, SchemaProfile};

/// How much a finding weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The provider refuses the whole request: no tool of the listing can be used.
    Refused,
    /// The tool is shown saying less than its schema says (a keyword moved into the
    /// description, a type a dialect cannot name, a part kept as written).
    Lost,
}

impl Severity {
    fn name(self) -> &'static str {
        match self {
            Severity::Refused => "refused",
            Severity::Lost => "lost",
        }
    }

    fn of(finding: &Finding) -> Severity {
        match finding.kind() {
            FindingKind::OverBudget | FindingKind::InvalidName | FindingKind::NotAnObject => {
                Severity::Refused
            }
            _ => Severity::Lost,
        }
    }
}

/// One thing a dialect cannot say, or refuses.
#[derive(Debug)]
pub struct Said {
    pub dialect: Dialect,
    /// The tool it is about.
    pub tool: String,
    pub severity: Severity,
    /// Where in the tool's arguments, as a JSON Pointer (array positions add no segment).
    pub pointer: String,
    /// The guard's whole message.
    pub message: String,
}

/// The report of one listing in every dialect.
#[derive(Debug, Default)]
pub struct Report {
    /// The tools listed, in the upstream's order.
    pub tools: Vec<String>,
    /// Everything said, dialect by dialect in `Dialect::ALL`'s order.
    pub said: Vec<Said>,
}

impl Report {
    /// The report of `tools` as the upstream lists them.
    pub fn of(tools: &[Tool]) -> Report {
        let mut said = Vec::new();
        for dialect in Dialect::ALL {
            for finding in check_tools(tools, &SchemaProfile::new().dialect(dialect)) {
                said.push(Said {
                    dialect,
                    tool: finding.tool().to_owned(),
                    severity: Severity::of(&finding),
                    pointer: pointer(finding.path()),
                    message: finding.to_string(),
                });
            }
        }
        Report {
            tools: tools.iter().map(|tool| tool.name.to_string()).collect(),
            said,
        }
    }

    /// What is said in `dialect`, and whether its provider refuses the listing.
    fn in_dialect(&self, dialect: Dialect) -> (Vec<&Said>, bool) {
        let here: Vec<&Said> = self
            .said
            .iter()
            .filter(|said| said.dialect == dialect)
            .collect();
        let refused = here.iter().any(|said| said.severity == Severity::Refused);
        (here, refused)
    }

    /// Whether a provider would refuse the listing in some dialect.
    pub fn refused(&self) -> bool {
        self.said
            .iter()
            .any(|said| said.severity == Severity::Refused)
    }

    /// The report for a person: each dialect, whether its provider takes the listing, then
    /// each finding by tool.
    pub fn text(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "{} tools listed", self.tools.len());
        for dialect in Dialect::ALL {
            let (here, refused) = self.in_dialect(dialect);
            let verdict = if refused {
                "its provider refuses the listing"
            } else {
                "its provider takes the listing"
            };
            let _ = writeln!(text, "\n{dialect}: {verdict}; {} findings", here.len());
            for said in here {
                let _ = writeln!(
                    text,
                    "  {} {} {}: {}",
                    said.severity.name(),
                    said.tool,
                    if said.pointer.is_empty() {
                        "(the tool)"
                    } else {
                        &said.pointer
                    },
                    said.message
                );
            }
        }
        text
    }

    /// The report for a machine: `{"tools": [...], "dialects": {dialect: {"refused", "findings":
    /// [{"tool", "severity", "pointer", "message"}]}}}`.
    pub fn json(&self) -> Value {
        let mut dialects = serde_json::Map::new();
        for dialect in Dialect::ALL {
            let (here, refused) = self.in_dialect(dialect);
            let findings: Vec<Value> = here
                .iter()
                .map(|said| {
                    json!({"tool": said.tool, "severity": said.severity.name(),
                           "pointer": said.pointer, "message": said.message})
                })
                .collect();
            dialects.insert(
                dialect.to_string(),
                json!({"refused": refused, "findings": findings}),
            );
        }
        json!({"tools": self.tools, "dialects": dialects})
    }
}

/// A guard path (`parent.page_id`, array positions adding no segment) as a JSON Pointer into
/// the arguments (`/parent/page_id`), each segment escaped as RFC 6901 says.
fn pointer(path: &str) -> String {
    if path.is_empty() {
        return String::new();
    }
    path.split('.')
        .map(|segment| format!("/{}", segment.replace('~', "~0").replace('/', "~1")))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn tool(name: &str, schema: Value) -> Tool {
        let Value::Object(schema) = schema else {
            panic!("an object")
        };
        Tool::new(name.to_owned(), "A tool.", Arc::new(schema))
    }

    #[test]
    fn a_listing_within_every_budget_is_taken() {
        let report = Report::of(&[tool(
            "add",
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}),
        )]);
        assert!(!report.refused(), "{}", report.text());
        assert_eq!(report.json()["tools"], json!(["add"]));
    }

    #[test]
    fn a_listing_past_a_providers_budget_is_refused_in_that_dialect_only() {
        let tools: Vec<Tool> = (0..21)
            .map(|i| {
                tool(
                    &format!("t{i}"),
                    json!({"type": "object", "properties": {}}),
                )
            })
            .collect();
        let report = Report::of(&tools);
        assert!(report.refused());
        let json = report.json();
        assert_eq!(
            json["dialects"]["anthropic-strict"]["refused"], true,
            "{json}"
        );
        assert_eq!(json["dialects"]["mcp"]["refused"], false, "{json}");
        assert!(
            report
                .text()
                .contains("anthropic-strict: its provider refuses the listing")
        );
    }

    #[test]
    fn a_loss_is_said_at_its_pointer() {
        let negated = json!({"type": "object", "properties": {"v": {"not": {"type": "null"}}}});
        let report = Report::of(&[tool("neg", negated)]);
        let lost = report
            .said
            .iter()
            .find(|said| said.dialect == Dialect::Portable)
            .expect("portable cannot say a `not`");
        assert_eq!(lost.pointer, "/v");
        assert_eq!(lost.severity, Severity::Lost);
    }

    #[test]
    fn a_path_is_a_json_pointer() {
        assert_eq!(pointer("parent.page_id"), "/parent/page_id");
        assert_eq!(pointer("a/b.c~d"), "/a~1b/c~0d");
        assert_eq!(pointer(""), "");
    }
}
