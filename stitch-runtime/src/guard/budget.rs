//! Budgets: what each provider takes in one request, by the limits it documents (or, where it
//! documents none, the ones its errors show), checked on the [`Measure`] of what each tool
//! advertises in the dialect its clients are shown. A schema past a limit is valid JSON
//! Schema; the provider refuses it at the user's first request, so the guard says it first.
//!
//! A dialect's budgets are its provider's, as its row says (`DialectRules::budgets`): each limit
//! here names its provider, never a dialect. `mcp` has none: MCP sets no size.

use stitch_rules::{Dialect, Provider, Text};

use super::{Finding, FindingKind};
use crate::text::measure::Measure;

/// A provider's limit on what one request may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// OpenAI strict: at most 5,000 object properties in one schema.
    ObjectProperties,
    /// OpenAI strict: at most 10 levels of object nesting.
    Nesting,
    /// OpenAI strict: at most 120,000 characters of property names, definition names, enum
    /// values and const values.
    NameAndValueChars,
    /// OpenAI strict: at most 1,000 enum values in one schema.
    EnumValues,
    /// OpenAI strict: an enum of more than 250 values holds at most 15,000 characters.
    LongEnumChars,
    /// OpenAI: at most 128 tools in one request.
    Tools,
    /// Gemini: at most 512 function declarations in one request.
    Declarations,
    /// Gemini: `maxItems` summed over one tool at most about 960.
    MaxItemsSum,
    /// Gemini: about 77 KB of function declarations in one request when a call is forced.
    DeclarationBytes,
    /// Gemini: tool and parameter names of at most 64 characters.
    NameLength,
    /// Anthropic strict tool use: at most 20 strict tools in one request.
    StrictTools,
    /// Anthropic strict tool use: at most 24 optional parameters over a request's tools.
    OptionalParameters,
    /// Anthropic strict tool use: at most 16 union-typed parameters over a request's tools.
    UnionParameters,
}

/// Where a limit counts: in each tool, or over every tool of one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    Tool,
    Request,
}

const OPENAI: &str = "OpenAI's Structured Outputs, developers.openai.com/api/docs/guides/structured-outputs, \"Supported schemas\"";
const OPENAI_TOOLS: &str = "OpenAI's API reference, `tools` (\"A max of 128 functions are supported\"; past it, `array_above_max_length`)";
const GEMINI_DOC: &str = "Gemini's function calling, google-gemini/gemini-cli#19083 (\"At most 512 function declarations can be specified\")";
const GEMINI_SEEN: &str =
    "undocumented; seen in Gemini's answers, googleapis/python-genai#2133, #2170, #2293";
const GEMINI_NAMES: &str =
    "Gemini's function declarations (python-genai `types.py`; errors in 2025-2026 say 64)";
const ANTHROPIC: &str =
    "Anthropic's strict tool use, platform.claude.com/docs/en/build-with-claude/structured-outputs";

impl Limit {
    /// Every limit, in the order the guard checks them.
    pub const ALL: [Limit; 13] = [
        Limit::ObjectProperties,
        Limit::Nesting,
        Limit::NameAndValueChars,
        Limit::EnumValues,
        Limit::LongEnumChars,
        Limit::Tools,
        Limit::Declarations,
        Limit::MaxItemsSum,
        Limit::DeclarationBytes,
        Limit::NameLength,
        Limit::StrictTools,
        Limit::OptionalParameters,
        Limit::UnionParameters,
    ];

    /// Whether any limit binds clients shown `dialect` (`mcp` has none).
    pub const fn binds(dialect: Dialect) -> bool {
        dialect.rules().budgets.is_some()
    }

    /// Whether the limit binds clients shown `dialect`: its provider's budgets are the
    /// dialect's.
    pub const fn binds_dialect(self, dialect: Dialect) -> bool {
        match dialect.rules().budgets {
            Some(provider) => provider as u8 == self.provider() as u8,
            None => false,
        }
    }

    /// The provider whose limit it is.
    pub const fn provider(self) -> Provider {
        match self {
            Limit::ObjectProperties
            | Limit::Nesting
            | Limit::NameAndValueChars
            | Limit::EnumValues
            | Limit::LongEnumChars
            | Limit::Tools => Provider::OpenAi,
            Limit::Declarations
            | Limit::MaxItemsSum
            | Limit::DeclarationBytes
            | Limit::NameLength => Provider::Gemini,
            Limit::StrictTools | Limit::OptionalParameters | Limit::UnionParameters => {
                Provider::Anthropic
            }
        }
    }

    /// The most the provider takes.
    pub const fn max(self) -> u64 {
        match self {
            Limit::ObjectProperties => 5_000,
            Limit::Nesting => 10,
            Limit::NameAndValueChars => 120_000,
            Limit::EnumValues => 1_000,
            Limit::LongEnumChars => 15_000,
            Limit::Tools => 128,
            Limit::Declarations => 512,
            Limit::MaxItemsSum => 960,
            Limit::DeclarationBytes => 77_000,
            Limit::NameLength => 64,
            Limit::StrictTools => 20,
            Limit::OptionalParameters => 24,
            Limit::UnionParameters => 16,
        }
    }

    /// What is counted, as the finding says it after the figure.
    pub const fn counted(self) -> &'static str {
        match self {
            Limit::ObjectProperties => "object properties in one schema",
            Limit::Nesting => "levels of object nesting",
            Limit::NameAndValueChars => {
                "characters of property names, definition names, enum values and const values"
            }
            Limit::EnumValues => "enum values in one schema",
            Limit::LongEnumChars => "characters in one enum of more than 250 values",
            Limit::Tools => "tools in one request",
            Limit::Declarations => "tools in one request",
            Limit::MaxItemsSum => "as the sum of `maxItems` over one tool",
            Limit::DeclarationBytes => "bytes of tool declarations in one request",
            Limit::NameLength => "characters in a tool or parameter name",
            Limit::StrictTools => "strict tools in one request",
            Limit::OptionalParameters => "optional parameters over a request's tools",
            Limit::UnionParameters => "union-typed parameters over a request's tools",
        }
    }

    /// Where the limit is documented, or seen.
    pub const fn source(self) -> &'static str {
        match self {
            Limit::Tools => OPENAI_TOOLS,
            Limit::Declarations => GEMINI_DOC,
            Limit::NameLength => GEMINI_NAMES,
            Limit::MaxItemsSum | Limit::DeclarationBytes => GEMINI_SEEN,
            Limit::StrictTools | Limit::OptionalParameters | Limit::UnionParameters => ANTHROPIC,
            _ => OPENAI,
        }
    }

    const fn scope(self) -> Scope {
        match self {
            Limit::Tools
            | Limit::Declarations
            | Limit::DeclarationBytes
            | Limit::StrictTools
            | Limit::OptionalParameters
            | Limit::UnionParameters => Scope::Request,
            _ => Scope::Tool,
        }
    }

    /// A tool's own figure for a limit that counts in each tool, or what it adds to the
    /// request's figure.
    const fn figure(self, tool: &BudgetedTool<'_>) -> u64 {
        let m = &tool.measure;
        (match self {
            Limit::ObjectProperties => m.properties,
            Limit::Nesting => m.nesting,
            Limit::NameAndValueChars => m.name_and_value_chars,
            Limit::EnumValues => m.enum_values,
            Limit::LongEnumChars => m.long_enum_chars,
            Limit::Tools | Limit::Declarations | Limit::StrictTools => 1,
            Limit::MaxItemsSum => return m.max_items,
            Limit::DeclarationBytes => tool.name.len() + tool.description.len() + m.bytes,
            Limit::NameLength => {
                let name = chars(tool.name);
                if name > m.longest_name {
                    name
                } else {
                    m.longest_name
                }
            }
            Limit::OptionalParameters => m.optional_properties,
            Limit::UnionParameters => m.union_properties,
        }) as u64
    }
}

/// A tool as the budgets see it: its name, its description and the measure of its input
/// schema in the dialect checked.
#[derive(Clone, Copy)]
pub(crate) struct BudgetedTool<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub measure: Measure,
}

/// The budgets of one request in a dialect: tools are added one by one, each reporting its
/// own limits; the request's are reported at the end, each naming the tool that crossed it.
pub(crate) struct Budgets {
    dialect: Dialect,
    totals: [u64; Limit::ALL.len()],
    /// For a limit that counts in each tool, the largest tool's figure.
    peaks: [u64; Limit::ALL.len()],
    crossed_by: [Option<Text<128>>; Limit::ALL.len()],
}

/// The findings of one step: at most one per limit.
pub(crate) type Over = [Option<Finding>; Limit::ALL.len()];

impl Budgets {
    pub(crate) const fn new(dialect: Dialect) -> Budgets {
        Budgets {
            dialect,
            totals: [0; Limit::ALL.len()],
            peaks: [0; Limit::ALL.len()],
            crossed_by: [None; Limit::ALL.len()],
        }
    }

    /// Adds a tool: the findings of the limits that count in it.
    pub(crate) const fn add(&mut self, tool: &BudgetedTool<'_>) -> Over {
        let mut over: Over = [None; Limit::ALL.len()];
        let mut i = 0;
        while i < Limit::ALL.len() {
            let limit = Limit::ALL[i];
            if limit.binds_dialect(self.dialect) {
                let figure = limit.figure(tool);
                match limit.scope() {
                    Scope::Tool => {
                        if figure > self.peaks[i] {
                            self.peaks[i] = figure;
                        }
                        if figure > limit.max() {
                            over[i] = Some(finding(limit, self.dialect, tool.name, figure));
                        }
                    }
                    Scope::Request => {
                        self.totals[i] = self.totals[i].saturating_add(figure);
                        if self.totals[i] > limit.max() && self.crossed_by[i].is_none() {
                            self.crossed_by[i] = Some(Text::new().push(tool.name));
                        }
                    }
                }
            }
            i += 1;
        }
        over
    }

    /// The figure of each limit (in [`Limit::ALL`]'s order) over the tools added so far: the
    /// request's total, or the largest tool's figure for a limit that counts in each tool.
    pub(crate) const fn used(&self) -> [u64; Limit::ALL.len()] {
        let mut used = [0; Limit::ALL.len()];
        let mut i = 0;
        while i < Limit::ALL.len() {
            used[i] = match Limit::ALL[i].scope() {
                Scope::Tool => self.peaks[i],
                Scope::Request => self.totals[i],
            };
            i += 1;
        }
        used
    }

    /// The findings of the limits that count over the request, after its last tool.
    pub(crate) const fn finish(&self) -> Over {
        let mut over: Over = [None; Limit::ALL.len()];
        let mut i = 0;
        while i < Limit::ALL.len() {
            if let Some(tool) = &self.crossed_by[i] {
                let limit = Limit::ALL[i];
                over[i] = Some(finding(limit, self.dialect, tool.as_str(), self.totals[i]));
            }
            i += 1;
        }
        over
    }
}

/// The finding of a limit exceeded: the figure, the limit, its source.
const fn finding(limit: Limit, dialect: Dialect, tool: &str, figure: u64) -> Finding {
    let mut finding = Finding::new(FindingKind::OverBudget, tool);
    finding.budget = Some((limit, figure));
    finding.why = finding
        .why
        .push_u64(figure)
        .push(" ")
        .push(limit.counted())
        .push(if matches!(limit.scope(), Scope::Request) {
            " (this tool crosses the limit)"
        } else {
            ""
        })
        .push(", where ")
        .push(dialect.name())
        .push(" clients take at most ")
        .push_u64(limit.max())
        .push(" (")
        .push(limit.source())
        .push(")");
    finding
}

/// The characters of a text (its bytes that start one).
const fn chars(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut count = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] & 0xC0 != 0x80 {
            count += 1;
        }
        i += 1;
    }
    count
}
