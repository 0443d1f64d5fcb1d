//! What `check` reports of an upstream's listing: for each tool and dialect, what the dialect
//! cannot say of the tool as stitch renders it there (the guard's findings, each at the JSON
//! Pointer of the arguments it is about), what the rendering changed (`changes`), and for each
//! dialect how much of each of its provider's budgets the whole listing uses and whether the
//! provider would refuse it (a budget crossed, a tool name or an input it refuses). The guard
//! is the one judge (`check_tools`, what `check_router` checks of a router): what it reports
//! of a contract, it reports here; the rendering compared is the one the gateway lists.

use std::fmt::Write;

use rmcp::model::Tool;
use serde_json::{Value, json};
use stitch::guard::{FindingKind, Limit};
use stitch::mcp::{ClientDialects, Listings, check_tools, listing_budget_use};
use stitch::{Dialect, Finding, SchemaProfile};

use crate::changes::{Change, changes};

/// How much a finding weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The provider refuses the whole request: no tool of the listing can be used.
    Refused,
    /// The tool is shown saying less than its schema says (a type a dialect cannot name, a
    /// keyword dropped, a type widened, a part kept as written).
    Lost,
    /// The tool is shown saying the same another way (a keyword moved into the description, a
    /// union flattened, a map as entries, an object closed, a `null` made absence).
    Changed,
}

impl Severity {
    fn name(self) -> &'static str {
        match self {
            Severity::Refused => "refused",
            Severity::Lost => "lost",
            Severity::Changed => "changed",
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
    /// The guard's findings, dialect by dialect in `Dialect::ALL`'s order.
    pub said: Vec<Said>,
    /// What each dialect's rendering changed, in the same order.
    pub changed: Vec<Said>,
    /// For each dialect, each budget of its provider and the listing's figure.
    pub budgets: Vec<(Dialect, Limit, u64)>,
}

impl Report {
    /// The report of `tools` as the upstream lists them.
    pub fn of(tools: &[Tool]) -> Report {
        let mut report = Report {
            tools: tools.iter().map(|tool| tool.name.to_string()).collect(),
            ..Report::default()
        };
        for &dialect in Dialect::ALL {
            for finding in check_tools(tools, &SchemaProfile::new().dialect(dialect)) {
                report.said.push(Said {
                    dialect,
                    tool: finding.tool().to_owned(),
                    severity: Severity::of(&finding),
                    pointer: pointer(finding.path()),
                    message: finding.to_string(),
                });
            }
            let shown =
                Listings::from(ClientDialects::new(dialect)).listing(tools.to_vec(), dialect);
            for (source, shown) in tools.iter().zip(&shown) {
                let source_schema = Value::Object(source.input_schema.as_ref().clone());
                let shown_schema = Value::Object(shown.input_schema.as_ref().clone());
                for (at, change) in changes(&source_schema, &shown_schema) {
                    report.changed.push(Said {
                        dialect,
                        tool: source.name.to_string(),
                        severity: if change.loses() {
                            Severity::Lost
                        } else {
                            Severity::Changed
                        },
                        pointer: at,
                        message: Change::said(&change),
                    });
                }
            }
            for (limit, used) in listing_budget_use(&shown, dialect) {
                report.budgets.push((dialect, limit, used));
            }
        }
        report
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

    /// What the rendering in `dialect` changed.
    fn changed_in(&self, dialect: Dialect) -> impl Iterator<Item = &Said> {
        self.changed
            .iter()
            .filter(move |said| said.dialect == dialect)
    }

    /// Each budget of `dialect`'s provider, and the listing's figure.
    fn budgets_in(&self, dialect: Dialect) -> impl Iterator<Item = (Limit, u64)> + '_ {
        self.budgets
            .iter()
            .filter(move |(of, _, _)| *of == dialect)
            .map(|&(_, limit, used)| (limit, used))
    }

    /// The report for a person: each dialect, whether its provider takes the listing and how
    /// much of each budget it uses, then each finding and each change by tool.
    pub fn text(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "{} tools listed", self.tools.len());
        for &dialect in Dialect::ALL {
            let (here, refused) = self.in_dialect(dialect);
            let verdict = if refused {
                "its provider refuses the listing"
            } else {
                "its provider takes the listing"
            };
            let changed: Vec<&Said> = self.changed_in(dialect).collect();
            let _ = writeln!(
                text,
                "\n{dialect}: {verdict}; {} findings, {} changes",
                here.len(),
                changed.len()
            );
            for (limit, used) in self.budgets_in(dialect) {
                let _ = writeln!(
                    text,
                    "  budget {used} of {} {}",
                    limit.max(),
                    limit.counted()
                );
            }
            for said in here.into_iter().chain(changed) {
                let at = if said.pointer.is_empty() {
                    "(the arguments)"
                } else {
                    &said.pointer
                };
                let _ = writeln!(
                    text,
                    "  {} {} {at}: {}",
                    said.severity.name(),
                    said.tool,
                    said.message
                );
            }
        }
        text
    }

    /// The report for a machine: `{"tools": [...], "dialects": {dialect: {"refused",
    /// "budgets": [{"limit", "used", "max"}], "findings": [{"tool", "severity", "pointer",
    /// "message"}], "changes": [same]}}}`.
    pub fn json(&self) -> Value {
        let listed = |said: &&Said| {
            json!({"tool": said.tool, "severity": said.severity.name(),
                   "pointer": said.pointer, "message": said.message})
        };
        let mut dialects = serde_json::Map::new();
        for &dialect in Dialect::ALL {
            let (here, refused) = self.in_dialect(dialect);
            let findings: Vec<Value> = here.iter().map(listed).collect();
            let changes: Vec<Value> = self
                .changed_in(dialect)
                .collect::<Vec<_>>()
                .iter()
                .map(listed)
                .collect();
            let budgets: Vec<Value> = self
                .budgets_in(dialect)
                .map(|(limit, used)| json!({"limit": limit.counted(), "used": used, "max": limit.max()}))
                .collect();
            dialects.insert(
                dialect.to_string(),
                json!({"refused": refused, "budgets": budgets, "findings": findings, "changes": changes}),
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
    fn what_the_rendering_changed_and_each_budgets_use_are_said() {
        let bounded =
            json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}});
        let report = Report::of(&[tool("count", bounded)]);
        let json = report.json();
        let changes = json["dialects"]["anthropic-strict"]["changes"].to_string();
        assert!(
            changes.contains("`minimum` moved into the description"),
            "{changes}"
        );
        assert!(changes.contains(r#""pointer":"/n""#), "{changes}");
        let budgets = &json["dialects"]["anthropic-strict"]["budgets"];
        assert!(
            budgets
                .as_array()
                .unwrap()
                .iter()
                .any(|budget| budget["limit"] == "strict tools in one request"
                    && budget["used"] == 1
                    && budget["max"] == 20),
            "{budgets}"
        );
        assert_eq!(json["dialects"]["mcp"]["budgets"], json!([]));
        assert!(
            report
                .text()
                .contains("budget 1 of 20 strict tools in one request")
        );
    }

    #[test]
    fn a_path_is_a_json_pointer() {
        assert_eq!(pointer("parent.page_id"), "/parent/page_id");
        assert_eq!(pointer("a/b.c~d"), "/a~1b/c~0d");
        assert_eq!(pointer(""), "");
    }
}
