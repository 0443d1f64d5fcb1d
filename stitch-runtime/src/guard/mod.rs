//! The guard: checks what a list of tools advertises, as a `const fn` over the IR (so a
//! contract can refuse to compile) and at run time, over the IR or over any foreign JSON
//! Schema (schemars output, hand-written tools).
//!
//! `walk` is the IR walk: it sees exactly what the renderer writes, following the same key
//! tables and merge decisions, so a property is reported untyped precisely when the
//! advertised schema leaves it without type information, and the finding can say *why* (an
//! opaque value; operations that disagree on a hazard). `foreign` walks a foreign schema as
//! stitchkit does. `finding` is what both report.

// `Finding` is ~1 KiB of inline text because constant evaluation has no heap to box it in;
// a finding is the rare path, so its size costs nothing when the schemas are fine.
#![allow(clippy::result_large_err)]

mod budget;
mod check;
mod finding;
mod findings;
mod foreign;
mod frames;
mod walk;
mod words;

use stitch_rules::strings::listed;
use stitch_rules::{Dialect, DialectRules, NAME_PATTERN, Text, name_problem};

use crate::ir::{Kind, Node};
use crate::text::render::Rendering;
use crate::tool::{SchemaProfile, Tool};
pub use budget::Limit;
use budget::{BudgetedTool, Budgets, Over};
pub use check::{Checked, check};
pub use finding::{Finding, FindingKind};
use findings::Findings;
pub(crate) use foreign::validate_tool_schema;

/// The formats every common JSON Schema validator and model provider understands: what
/// `require_portable_formats` accepts without `allow_formats`.
///
/// ```
/// # use stitch_runtime as stitch;
/// assert_eq!(
///     stitch::PORTABLE_FORMATS,
///     [
///         "date", "time", "date-time", "duration", "uri", "uri-reference", "uri-template",
///         "email", "hostname", "ipv4", "ipv6", "regex", "uuid", "json-pointer",
///         "relative-json-pointer",
///     ]
/// );
/// ```
pub const PORTABLE_FORMATS: [&str; 15] = stitch_rules::PORTABLE_FORMATS;

/// Checks every tool against the profile and returns the first finding, in tool order, then
/// depth-first property order. A `const fn`: the derive calls it at compile time.
pub const fn validate_mcp_schemas(tools: &[Tool], profile: &SchemaProfile) -> Result<(), Finding> {
    match Findings::of(tools, profile).next() {
        Some(finding) => Err(finding),
        None => Ok(()),
    }
}

/// Every finding of these tools in one text, or `None` when there is none: what the derive's
/// compile-time guard reports, so that one build names every untyped property at once.
pub const fn guard_report(tools: &[Tool], profile: &SchemaProfile) -> Option<Report> {
    let mut walk = Findings::of(tools, profile);
    let mut report = Report::new();
    let mut count = 0;
    while let Some(finding) = walk.next() {
        append(&mut report, &mut count, &finding);
    }
    if count == 0 { None } else { Some(report) }
}

/// A finding appended to a report, after a blank line when it is not the first.
const fn append(report: &mut Report, count: &mut usize, finding: &Finding) {
    if *count > 0 {
        report.push_str("\n\n");
    }
    report.push_str(finding.message().as_str());
    *count += 1;
}

/// Every finding of a contract, as one compile error's text.
pub type Report = Text<8192>;

/// The walk's findings for these tools, in the order `validate_mcp_schemas` reports the
/// first (one walk, which stops at each finding and resumes where it stopped).
fn all_findings_walked(tools: &[Tool], profile: &SchemaProfile) -> Vec<Finding> {
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
/// # use stitch_runtime as stitch;
/// use stitch::{Dialect, Limit, over_budget};
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
/// # use stitch_runtime as stitch;
/// use stitch::{Dialect, Limit, budget_use};
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

/// Every finding of one contract in each of `dialects`, as one compile error's text, or
/// `None`: what `#[contract(check_dialects(...))]` evaluates, so that a contract one of its
/// dialects cannot say, or whose schema there is past its provider's budget, does not
/// compile. The walk as [`guard_report`] makes it, then the budgets, on the schema rendered
/// in constant evaluation.
pub const fn dialect_report(tool: &Tool, dialects: &[Dialect]) -> Option<Report> {
    let mut report = Report::new();
    let mut count = 0;
    let mut i = 0;
    while i < dialects.len() {
        let dialect = dialects[i];
        let profile = tool.profile.dialect(dialect);
        let tools = core::slice::from_ref(tool);
        let mut walk = Findings::of(tools, &profile);
        while let Some(finding) = walk.next() {
            append(&mut report, &mut count, &finding);
        }
        if Limit::binds(dialect) {
            let mut budgets = Budgets::new(dialect);
            let measured = BudgetedTool {
                name: tool.name,
                description: tool.description,
                // The figures only: the budgets read no token or digest.
                measure: crate::text::const_text::measure_rendered(
                    tool.input,
                    tool.rendering_in(dialect),
                    false,
                ),
            };
            append_over(&mut report, &mut count, &budgets.add(&measured));
            append_over(&mut report, &mut count, &budgets.finish());
        }
        i += 1;
    }
    if count == 0 { None } else { Some(report) }
}

/// The findings of one budget step appended to a report.
const fn append_over(report: &mut Report, count: &mut usize, over: &Over) {
    let mut i = 0;
    while i < over.len() {
        if let Some(finding) = &over[i] {
            append(report, count, finding);
        }
        i += 1;
    }
}

/// Whether a node's schema in this mode is an object (`"type": "object"` at its root), as MCP
/// requires of a tool's input and output schemas.
pub const fn advertises_object(node: &Node, rendering: Rendering) -> bool {
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
