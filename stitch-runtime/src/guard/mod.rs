//! The guard: what a list of tools advertises, held to a [`SchemaProfile`] at compile time
//! (a contract's own profile) and at run time (every tool a server mounts, stitch's or
//! another's), with the limits of the providers each dialect is written for.
//!
//! [`check`] is its one run-time entry point, over any mix of contracts and listed tools;
//! [`validate_mcp_schemas`](crate::validate_mcp_schemas), at the crate's root, is the
//! `const fn` a contract's own profile is checked with at compile time; [`over_budget`]
//! measures schema texts as a listing sends them against the providers' limits, and
//! [`budget_use`] says how much of each limit a listing uses.

// Inside: `walk` is the IR walk. It sees exactly what the renderer writes, following the
// same key tables and merge decisions, so a property is reported untyped precisely when the
// advertised schema leaves it without type information, and the finding can say *why* (an
// opaque value; operations that disagree on a hazard). `foreign` walks a foreign schema as
// stitchkit does. `finding` is what both report; `compile_time` what the derive evaluates.

// `Finding` is ~1 KiB of inline text because constant evaluation has no heap to box it in;
// a finding is the rare path, so its size costs nothing when the schemas are fine.
#![allow(clippy::result_large_err)]

mod budget;
mod check;
pub(crate) mod compile_time;
pub(crate) mod finding;
mod findings;
mod foreign;
mod frames;
mod walk;
mod words;

use stitch_rules::strings::listed;
use stitch_rules::{Dialect, DialectRules, NAME_PATTERN, Text, name_problem};

use crate::ir::{Kind, Node};
use crate::text::render::Rendering;
use crate::tool::{ContractTool, SchemaProfile};
pub use budget::Limit;
use budget::{BudgetedTool, Budgets};
pub use check::{Checked, check};
use finding::Finding;
pub use finding::FindingKind;
use findings::Findings;
pub(crate) use foreign::validate_tool_schema;

/// The formats every common JSON Schema validator and model provider understands: what
/// `require_portable_formats` accepts without `allow_formats`.
///
/// ```
/// assert_eq!(
///     stitch::guard::PORTABLE_FORMATS,
///     [
///         "date", "time", "date-time", "duration", "uri", "uri-reference", "uri-template",
///         "email", "hostname", "ipv4", "ipv6", "regex", "uuid", "json-pointer",
///         "relative-json-pointer",
///     ]
/// );
/// ```
pub const PORTABLE_FORMATS: [&str; 15] = stitch_rules::PORTABLE_FORMATS;

/// The walk's findings for these tools, in the order `validate_mcp_schemas` reports the
/// first (one walk, which stops at each finding and resumes where it stopped).
fn all_findings_walked(tools: &[ContractTool], profile: &SchemaProfile) -> Vec<Finding> {
    let mut walk = Findings::of(tools, profile);
    let mut findings = Vec::new();
    while let Some(finding) = walk.next() {
        findings.push(finding);
    }
    findings
}

/// What one request's tools, listed together to clients shown `dialect`, hold past that
/// dialect's budgets ([`Limit`]): each tool's schema past a limit that counts in one tool,
/// then the request past one that counts over all of them, naming the tool that crossed it.
/// Each tool is its name, its description and its input schema's text as listed in the
/// dialect, so any tool can be checked, a plain rmcp tool's included.
///
/// ```
/// use stitch::Dialect;
/// use stitch::guard::{Limit, over_budget};
///
/// let deep = (0..11).fold(r#"{"type":"string"}"#.to_string(), |inner, _| {
///     format!(r#"{{"type":"object","properties":{{"x":{inner}}},"required":["x"],"additionalProperties":false}}"#)
/// });
/// let findings = over_budget(Dialect::OpenAiStrict, [("deep", "", deep.as_str())]);
/// assert_eq!(findings[0].limit(), Some(Limit::Nesting));
/// assert_eq!(findings[0].figure(), Some(11));
/// assert!(over_budget(Dialect::Mcp, [("deep", "", deep.as_str())]).is_empty());
/// ```
pub fn over_budget<'a>(
    dialect: Dialect,
    tools: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
) -> Vec<Finding> {
    measure_budgets(dialect, tools).0
}

/// How much of each budget of `dialect`'s provider the tools listed together use, measured as
/// [`over_budget`] measures them: for each limit that binds the dialect, in [`Limit::ALL`]'s
/// order, the listing's figure (over the whole request, or the largest tool's for a limit
/// that counts in each tool), beside which [`Limit::max`] is the most the provider takes.
///
/// ```
/// use stitch::Dialect;
/// use stitch::guard::{Limit, budget_use};
///
/// let tool = r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}"#;
/// let used = budget_use(Dialect::AnthropicStrict, [("one", "", tool), ("two", "", tool)]);
/// assert!(used.contains(&(Limit::StrictTools, 2)));
/// assert!(budget_use(Dialect::Mcp, [("one", "", tool)]).is_empty());
/// ```
pub fn budget_use<'a>(
    dialect: Dialect,
    tools: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
) -> Vec<(Limit, u64)> {
    let Some(budgets) = measure_budgets(dialect, tools).1 else {
        return Vec::new();
    };
    let used = budgets.used();
    Limit::ALL
        .iter()
        .zip(used)
        .filter(|(limit, _)| limit.binds_dialect(dialect))
        .map(|(&limit, figure)| (limit, figure))
        .collect()
}

/// The findings of the tools listed together against `dialect`'s budgets, and the budgets as
/// counted (none where no limit binds the dialect: nothing is measured).
fn measure_budgets<'a>(
    dialect: Dialect,
    tools: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
) -> (Vec<Finding>, Option<Budgets>) {
    let mut findings = Vec::new();
    if !Limit::binds(dialect) {
        // Nothing to count: the schemas are not even rendered.
        return (findings, None);
    }
    let mut budgets = Budgets::new(dialect);
    for (name, description, schema) in tools {
        let tool = BudgetedTool {
            name,
            description,
            measure: crate::text::measure::Measure::of(schema),
        };
        findings.extend(budgets.add(&tool).into_iter().flatten());
    }
    findings.extend(budgets.finish().into_iter().flatten());
    (findings, Some(budgets))
}

/// Whether a node's schema in this mode is an object (`"type": "object"` at its root), as MCP
/// requires of a tool's input and output schemas.
pub(crate) const fn advertises_object(node: &Node, rendering: Rendering) -> bool {
    !node.nullable
        && match node.kind {
            Kind::Object(_) | Kind::Map(..) => true,
            Kind::Union(_) => !matches!(rendering, Rendering::Exact),
            _ => false,
        }
}

/// Checks the output schema a tool advertises (its result type's advertised schema): MCP
/// requires an object, and rmcp drops any other without a word. `type_name` names the
/// result type in the finding.
pub(crate) fn validate_output_schema(
    tool: &str,
    output: &'static Node<'static>,
    type_name: &str,
) -> Result<(), Finding> {
    if advertises_object(output, Rendering::ADVERTISED) {
        return Ok(());
    }
    let mut finding = Finding::new(FindingKind::NotAnObject, tool);
    finding.why = Text::new()
        .push("its output schema must be an object (MCP requires `\"type\": \"object\"`), but the result type `")
        .push(type_name)
        .push("` is not one: return a struct, or mount the tool without an output schema");
    Err(finding)
}

/// A tool name that breaks the rule (`stitch_rules::name_problem`), as a finding.
pub(super) const fn invalid_name(name: &str) -> Option<Finding> {
    match name_problem(name) {
        Some(problem) => Some(
            Finding::new(FindingKind::InvalidName, name)
                .because("the name ")
                .because(problem.requirement())
                .because(" (")
                .because(NAME_PATTERN)
                .because(")"),
        ),
        None => None,
    }
}

/// A tool name the dialect's provider refuses, where its row states names it takes beyond
/// MCP's rule (`DialectRules::names`).
pub(super) const fn name_refused(name: &str, rules: &DialectRules) -> Option<Finding> {
    match rules.names {
        Some(rule) if !rule.takes(name) => Some(
            Finding::new(FindingKind::InvalidName, name)
                .because("the name is not one ")
                .because(rules.name)
                .because(" clients take: ")
                .because(rule.source),
        ),
        _ => None,
    }
}

/// Whether a format is portable or allowed by the profile.
pub(super) const fn format_allowed(format: &str, profile: &SchemaProfile) -> bool {
    listed(format, &PORTABLE_FORMATS) || listed(format, profile.formats_allowed)
}
