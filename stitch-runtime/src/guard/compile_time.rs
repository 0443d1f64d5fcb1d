//! What the derive's code evaluates of the guard at compile time: the first finding of a list
//! of tools (`validate_mcp_schemas`, at the crate's root), every finding as one compile
//! error's text, and a contract's findings in the dialects it names. Reached through the
//! root and the derive's hidden path, not through `guard`, whose public items are the run-time
//! ones.

use stitch_rules::{Dialect, Text};

use super::budget::{BudgetedTool, Budgets, Limit, Over};
use super::finding::Finding;
use super::findings::Findings;
use crate::tool::{ContractTool, SchemaProfile};

/// Checks every tool against the profile and returns the first finding, in tool order, then
/// depth-first property order. A `const fn`: the derive calls it at compile time.
pub const fn validate_mcp_schemas(
    tools: &[ContractTool],
    profile: &SchemaProfile,
) -> Result<(), Finding> {
    match Findings::of(tools, profile).next() {
        Some(finding) => Err(finding),
        None => Ok(()),
    }
}

/// Every finding of these tools in one text, or `None` when there is none: what the derive's
/// compile-time guard reports, so that one build names every untyped property at once.
pub const fn guard_report(tools: &[ContractTool], profile: &SchemaProfile) -> Option<Report> {
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

/// Every finding of one contract in each of `dialects`, as one compile error's text, or
/// `None`: what `#[contract(check_dialects(...))]` evaluates, so that a contract one of its
/// dialects cannot say, or whose schema there is past its provider's budget, does not
/// compile. The walk as [`guard_report`] makes it, then the budgets, on the schema rendered
/// in constant evaluation.
pub const fn dialect_report(tool: &ContractTool, dialects: &[Dialect]) -> Option<Report> {
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
