//! The guard's one run-time entry point: every tool a server lists, a contract's (walked from
//! its IR) or any other (walked from its JSON), held to a profile in the profile's dialect and
//! in each dialect the server shows when the profile requires it, their output schemas, and
//! the budgets over the whole listing.

use serde_json::Value;
use stitch_rules::Dialect;

use super::{
    Finding, all_findings_walked, over_budget, validate_output_schema, validate_tool_schema,
};
use crate::ir::Node;
use crate::tool::{ContractTool, SchemaProfile};

/// One tool the guard checks.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Checked<'a> {
    /// A contract's tool, walked from its IR, with its result type's schema when it
    /// advertises one as its output schema (`stitch::mcp` knows it).
    Contract {
        /// The contract's tool.
        tool: ContractTool,
        /// The result type's node and its name, when the tool advertises an output schema.
        output: Option<(&'static Node<'static>, &'a str)>,
    },
    /// Any tool as it is listed (a plain rmcp tool, one stitch did not write), walked from
    /// its input schema.
    Listed {
        /// The tool's name.
        name: &'a str,
        /// The tool's description.
        description: &'a str,
        /// The tool's input schema, as written.
        input: &'a Value,
    },
}

impl From<ContractTool> for Checked<'_> {
    fn from(tool: ContractTool) -> Self {
        Checked::Contract { tool, output: None }
    }
}

/// Every finding of `tools` held to `profile`, in order: each contract's walk, then each
/// listed tool's, in the profile's dialect; with
/// [`require_expressible`](SchemaProfile::require_expressible), what each dialect the profile
/// is [`shown_to`](SchemaProfile::shown_to) cannot say of them; each output schema that is not
/// an object; with [`require_descriptions`](SchemaProfile::require_descriptions), each tool
/// listed without a description; then the tools past their provider's budgets, over the whole listing, in the
/// profile's dialect and, with [`require_within_budgets`](SchemaProfile::require_within_budgets),
/// in each dialect it is shown to.
///
/// ```
/// use serde_json::json;
/// use stitch::SchemaProfile;
/// use stitch::guard::{Checked, FindingKind};
///
/// let untyped = json!({"type": "object", "properties": {"payload": {"description": "any"}}});
/// let tools = [Checked::Listed { name: "send", description: "", input: &untyped }];
/// let findings = stitch::guard::check(&tools, &SchemaProfile::new().require_typed_properties());
/// assert_eq!(findings[0].kind(), FindingKind::Untyped);
/// ```
pub fn check(tools: &[Checked<'_>], profile: &SchemaProfile) -> Vec<Finding> {
    let contracts: Vec<ContractTool> = tools
        .iter()
        .filter_map(|checked| match checked {
            Checked::Contract { tool, .. } => Some(*tool),
            Checked::Listed { .. } => None,
        })
        .collect();
    let mut findings = all_findings_walked(&contracts, profile);
    let listed = || {
        tools.iter().filter_map(|checked| match checked {
            Checked::Listed {
                name,
                description,
                input,
            } => Some((*name, *description, *input)),
            Checked::Contract { .. } => None,
        })
    };
    for (name, _, input) in listed() {
        findings.extend(validate_tool_schema(name, input, profile));
    }
    if profile.expressible_required {
        for dialect in profile
            .shown()
            .filter(|dialect| *dialect != profile.dialect)
        {
            let shown = profile.dialect(dialect);
            let mut more = all_findings_walked(&contracts, &shown);
            for (name, _, input) in listed() {
                more.extend(validate_tool_schema(name, input, &shown));
            }
            for finding in more {
                if !findings.contains(&finding) {
                    findings.push(finding);
                }
            }
        }
    }
    for checked in tools {
        if let Checked::Contract {
            tool,
            output: Some((output, type_name)),
        } = checked
            && let Err(finding) = validate_output_schema(tool.name, output, type_name)
        {
            findings.push(finding);
        }
    }
    if profile.descriptions_required {
        findings.extend(tools.iter().filter_map(undescribed));
    }
    findings.extend(budgets(tools, profile.dialect));
    if profile.budgets_required {
        for dialect in profile
            .shown()
            .filter(|dialect| *dialect != profile.dialect)
        {
            findings.extend(budgets(tools, dialect));
        }
    }
    findings
}

/// A tool listed with an empty description, as a finding.
fn undescribed(checked: &Checked<'_>) -> Option<Finding> {
    let (name, description) = match checked {
        Checked::Contract { tool, .. } => (tool.name, tool.description),
        Checked::Listed {
            name, description, ..
        } => (*name, *description),
    };
    if !description.trim().is_empty() {
        return None;
    }
    let mut finding = Finding::new(super::FindingKind::NoDescription, name);
    finding.why = finding.why.push(
        "it is listed with an empty description, so a model choosing between tools sees only its name; \
         give the contract a doc comment, or its mount a description (`Tools::described`)",
    );
    Some(finding)
}

/// The tools past their provider's budgets, each read as the dialect lists it.
fn budgets(tools: &[Checked<'_>], dialect: Dialect) -> Vec<Finding> {
    if !super::Limit::binds(dialect) {
        // Nothing to count: the schemas are not even rendered.
        return Vec::new();
    }
    let shown: Vec<(&str, &str, String)> = tools
        .iter()
        .map(|checked| match checked {
            Checked::Contract { tool, .. } => (
                tool.name,
                tool.description,
                tool.input_schema_for(dialect).to_owned(),
            ),
            Checked::Listed {
                name,
                description,
                input,
            } => (
                *name,
                *description,
                crate::foreign::tool_schema_for(input, dialect).to_string(),
            ),
        })
        .collect();
    over_budget(
        dialect,
        shown
            .iter()
            .map(|(name, description, schema)| (*name, *description, schema.as_str())),
    )
}
