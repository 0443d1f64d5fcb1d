//! The tool a contract is, as a server advertises it, and the checks a server asks the guard
//! to make of its tools.

use stitch_rules::Dialect;

use crate::ir::Node;
use crate::text::measure::Measure;
use crate::text::render::{Rendering, rendered};

/// The `Tool` a contract is: what a server advertises for it. `#[derive(Contract)]` writes it
/// (a contract's [`TOOL`](crate::Contract::TOOL)); a hand-written contract builds it with
/// [`ContractTool::new`]. Named so as not to be confused with `rmcp::model::Tool` (a listed
/// tool, the JSON a server sends), which a server's code holds beside it; [`Tool`] is the
/// same type under its first name.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ContractTool {
    /// The tool's name (`^[a-zA-Z0-9_-]{1,64}$`).
    pub name: &'static str,
    /// The tool's description (the type's doc comment).
    pub description: &'static str,
    /// The schema IR of the tool's input.
    pub input: &'static Node<'static>,
    /// Whether the advertised input flattens tagged unions (`#[contract(flatten = false)]`
    /// advertises the exact schema instead).
    pub flatten: bool,
    /// The checks the contract declared for itself.
    pub profile: SchemaProfile,
}

/// The name [`ContractTool`] was first given, which contracts' code is written with
/// (`const TOOL: stitch::Tool`): the same type. Code that also holds rmcp's tools writes
/// `ContractTool`.
pub type Tool = ContractTool;

impl ContractTool {
    /// The tool of an input schema: flattened, with no profile of its own.
    pub const fn new(
        name: &'static str,
        description: &'static str,
        input: &'static Node<'static>,
    ) -> ContractTool {
        ContractTool {
            name,
            description,
            input,
            flatten: true,
            profile: SchemaProfile::new(),
        }
    }

    /// The same tool, its tagged unions flattened (`true`, the default) or advertised as
    /// `oneOf` (`false`).
    pub const fn with_flatten(self, flatten: bool) -> ContractTool {
        ContractTool { flatten, ..self }
    }

    /// The same tool, with the checks its contract declares for itself.
    pub const fn with_profile(self, profile: SchemaProfile) -> ContractTool {
        ContractTool { profile, ..self }
    }

    /// Which schema the tool advertises to `Mcp` clients.
    pub(crate) const fn advertised(&self) -> Rendering {
        if self.flatten {
            Rendering::ADVERTISED
        } else {
            Rendering::Exact
        }
    }

    /// Which schema the tool advertises to clients shown `dialect`: every dialect but `Mcp`
    /// is flat, whatever `flatten` says (the others have no composition keywords to say
    /// `oneOf` with).
    pub(crate) const fn rendering_in(&self, dialect: Dialect) -> Rendering {
        Rendering::shown_in(self.advertised(), dialect)
    }

    /// What the advertised input schema weighs in a dialect: bytes, a token estimate, a
    /// digest and the figures providers limit, read from the kept text (rendered once per
    /// dialect). In a constant, a contract's [`MEASURES`](crate::Contract::MEASURES) are the
    /// same figures computed by the compiler.
    pub fn measure_in(&self, dialect: Dialect) -> Measure {
        Measure::of(self.input_schema_for(dialect))
    }

    /// What the advertised input schema weighs in each dialect (in the order of
    /// [`Dialect::ALL`]), in constant evaluation: what a contract's
    /// [`MEASURES`](crate::Contract::MEASURES) are. Constants only (see
    /// `const_text::measure_rendered`).
    pub(crate) const fn measures(&self) -> [Measure; Dialect::ALL.len()] {
        let mut measures = [Measure::EMPTY; Dialect::ALL.len()];
        let mut i = 0;
        while i < Dialect::ALL.len() {
            let rendering = self.rendering_in(Dialect::ALL[i]);
            measures[i] = crate::text::const_text::measure_rendered(self.input, rendering, true);
            i += 1;
        }
        measures
    }

    /// The advertised input schema, rendered (once per node) at run time.
    pub fn input_schema(&self) -> &'static str {
        rendered(self.input, self.advertised())
    }

    /// The advertised input schema in a dialect, rendered (once per node and dialect) at run
    /// time. Every dialect but `Mcp` is flat, whatever `flatten` says: the others have no
    /// composition keywords to say `oneOf` with.
    pub fn input_schema_for(&self, dialect: Dialect) -> &'static str {
        rendered(self.input, self.rendering_in(dialect))
    }
}

/// What the guard requires of the tools' schemas. Every builder method is a `const fn`.
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct SchemaProfile {
    /// Every advertised property must carry type information.
    pub typed_properties: bool,
    /// Property paths (`tool.dotted.path`) allowed to stay untyped.
    pub untyped_allowed: &'static [&'static str],
    /// Every `format` must be portable (or listed in `formats_allowed`).
    pub portable_formats: bool,
    /// Formats allowed beyond the portable ones.
    pub formats_allowed: &'static [&'static str],
    /// The dialect the tools are advertised in: the guard also reports what it cannot say.
    pub dialect: Dialect,
    /// Every dialect a server shows must say each property as the contract means it (see
    /// [`require_expressible`](Self::require_expressible)).
    pub expressible_required: bool,
    /// The dialects a server shows its clients besides `dialect`, a bit each (see
    /// [`shown_to`](Self::shown_to)).
    pub shown: u8,
    /// Every dialect a server shows must be within its provider's budgets (see
    /// [`require_within_budgets`](Self::require_within_budgets)).
    pub budgets_required: bool,
    /// Every tool must be listed with a description (see
    /// [`require_descriptions`](Self::require_descriptions)).
    pub descriptions_required: bool,
}

impl SchemaProfile {
    /// A profile that requires nothing.
    pub const fn new() -> SchemaProfile {
        SchemaProfile {
            typed_properties: false,
            untyped_allowed: &[],
            portable_formats: false,
            formats_allowed: &[],
            dialect: Dialect::Mcp,
            expressible_required: false,
            shown: 0,
            budgets_required: false,
            descriptions_required: false,
        }
    }

    /// Requires every tool to be listed with a description (a contract's doc comment, or the
    /// one its mount gives: `stitch::mcp::Tools::described`): a model choosing between tools
    /// listed without one sees only their names. Checked by [`check`](crate::guard::check) over
    /// contracts and listed tools alike, so `stitch::mcp::check_router` holds plain tools to
    /// it too.
    pub const fn require_descriptions(self) -> SchemaProfile {
        SchemaProfile {
            descriptions_required: true,
            ..self
        }
    }

    /// Requires every advertised property to carry type information.
    pub const fn require_typed_properties(self) -> SchemaProfile {
        SchemaProfile {
            typed_properties: true,
            ..self
        }
    }

    /// Allows these property paths (`tool.dotted.path`) to stay untyped.
    pub const fn allow_untyped(self, paths: &'static [&'static str]) -> SchemaProfile {
        SchemaProfile {
            untyped_allowed: paths,
            ..self
        }
    }

    /// Requires every `format` to be a portable one.
    pub const fn require_portable_formats(self) -> SchemaProfile {
        SchemaProfile {
            portable_formats: true,
            ..self
        }
    }

    /// Allows these formats beyond the portable ones.
    pub const fn allow_formats(self, formats: &'static [&'static str]) -> SchemaProfile {
        SchemaProfile {
            formats_allowed: formats,
            ..self
        }
    }

    /// Checks the tools as advertised in `dialect`: the guard then also reports each property
    /// the dialect cannot say as the contract means it (a finding of kind
    /// [`Inexpressible`](crate::guard::FindingKind::Inexpressible), naming the tool, the path and
    /// how it is advertised instead).
    pub const fn dialect(self, dialect: Dialect) -> SchemaProfile {
        SchemaProfile { dialect, ..self }
    }

    /// Requires every dialect a server shows its clients to say each property as the
    /// contract means it: `stitch::mcp::Tools` then refuses to build while one cannot (a
    /// finding of kind [`Inexpressible`](crate::guard::FindingKind::Inexpressible) per property and
    /// dialect). Without it, a dialect says what it can, and `parse` still holds every call to
    /// the contract.
    pub const fn require_expressible(self) -> SchemaProfile {
        SchemaProfile {
            expressible_required: true,
            ..self
        }
    }

    /// Requires the tools, listed together in each dialect a server shows, to be within that
    /// dialect's provider's budgets ([`Limit`](crate::guard::Limit)): `stitch::mcp::Tools` then
    /// refuses to build while they are not. Without it, the profile's own dialect is still
    /// held to its budgets, and a server logs what is over budget in the others.
    pub const fn require_within_budgets(self) -> SchemaProfile {
        SchemaProfile {
            budgets_required: true,
            ..self
        }
    }

    /// Notes that a server shows `dialect` to some of its clients: with
    /// [`require_expressible`](Self::require_expressible), the guard holds the tools to what
    /// it can say too. `stitch::mcp::Tools` notes every dialect its rules show.
    pub const fn shown_to(self, dialect: Dialect) -> SchemaProfile {
        SchemaProfile {
            shown: self.shown | 1 << dialect as u8,
            ..self
        }
    }

    /// The dialects noted with [`shown_to`](Self::shown_to), in [`Dialect::ALL`]'s order.
    pub fn shown(&self) -> impl Iterator<Item = Dialect> + '_ {
        Dialect::ALL
            .iter()
            .copied()
            .filter(|dialect| self.shown & 1 << *dialect as u8 != 0)
    }
}
