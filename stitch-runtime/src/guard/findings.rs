//! The guard's walk as data: where it is (the tool, the step of the tool, the stack of
//! containers whose segments are the path) and the node it met and has not yet looked at.
//! What the walk does with them is in `walk` (each node), `frames` (each container) and
//! `words` (the path and the findings); each of those depends on this file only, not on one
//! another's.

use crate::ir::key_table::Requirement;
use crate::ir::{Doc, Field, Node, Union};
use crate::text::render::Rendering;
use crate::tool::{ContractTool, SchemaProfile};
use crate::union::{Keys, SetProperties};

/// How many containers deep the walk goes (a contract nesting objects deeper is reported).
pub(super) const MAX_DEPTH: usize = 32;

/// The findings of a list of tools, one at a time: a walk over each tool's IR that stops at a
/// finding and resumes where it stopped. Its stack is explicit, because constant evaluation
/// has no heap to collect findings into and a walk that resumes cannot recurse.
pub(super) struct Findings<'a> {
    pub(super) subjects: Subjects<'a>,
    pub(super) profile: &'a SchemaProfile,
    /// The tool being checked, and how far.
    pub(super) tool: usize,
    pub(super) step: ToolStep,
    /// The containers being walked, outermost first; each names the property being walked in
    /// it, so together they are the path.
    pub(super) frames: [Frame<'a>; MAX_DEPTH],
    pub(super) depth: usize,
    /// A node met and not yet looked at.
    pub(super) pending: Option<Pending<'a>>,
}

/// What is left to check of a tool before and around its walk.
#[derive(Clone, Copy)]
pub(super) enum ToolStep {
    Name,
    Duplicate,
    Object,
    Walk,
}

/// What the walk checks: a list of tools, or one foreign schema read into the IR.
#[derive(Clone, Copy)]
pub(super) enum Subjects<'a> {
    Tools(&'a [ContractTool]),
    Foreign { name: &'a str, input: &'a Node<'a> },
}

impl<'a> Subjects<'a> {
    pub(super) const fn len(&self) -> usize {
        match self {
            Subjects::Tools(tools) => tools.len(),
            Subjects::Foreign { .. } => 1,
        }
    }

    /// The name of the `i`th tool.
    pub(super) const fn name(&self, i: usize) -> &'a str {
        match self {
            Subjects::Tools(tools) => tools[i].name,
            Subjects::Foreign { name, .. } => name,
        }
    }

    pub(super) const fn input(&self, i: usize) -> &'a Node<'a> {
        match self {
            Subjects::Tools(tools) => tools[i].input,
            Subjects::Foreign { input, .. } => input,
        }
    }

    /// What the `i`th tool shows `Mcp` clients: a foreign schema is shown flattened.
    pub(super) const fn advertised(&self, i: usize) -> Rendering {
        match self {
            Subjects::Tools(tools) => tools[i].advertised(),
            Subjects::Foreign { .. } => Rendering::ADVERTISED,
        }
    }
}

/// A node to look at: its type when it is a property, then what it contains.
#[derive(Clone, Copy)]
pub(super) struct Pending<'a> {
    pub(super) node: &'a Node<'a>,
    pub(super) rendering: Rendering,
    /// Whether it is a property (whose type the guard judges).
    pub(super) property: bool,
    /// Whether its schema is shown to a client as a value of its own (a property, an array's
    /// items, a map's values): what a dialect cannot say of it is a finding.
    pub(super) shown: bool,
    pub(super) description: Option<Doc<'a>>,
    /// Which operations require the property.
    pub(super) presence: Requirement,
}

impl<'a> Findings<'a> {
    /// The walk over these tools, before its first step.
    pub(super) const fn of(tools: &'a [ContractTool], profile: &'a SchemaProfile) -> Findings<'a> {
        Findings::over(Subjects::Tools(tools), profile)
    }

    /// The walk over one foreign schema read into the IR, named `name`, before its first
    /// step.
    pub(super) const fn of_foreign(
        name: &'a str,
        input: &'a Node<'a>,
        profile: &'a SchemaProfile,
    ) -> Findings<'a> {
        Findings::over(Subjects::Foreign { name, input }, profile)
    }

    const fn over(subjects: Subjects<'a>, profile: &'a SchemaProfile) -> Findings<'a> {
        Findings {
            subjects,
            profile,
            tool: 0,
            step: ToolStep::Name,
            frames: [Frame::Empty; MAX_DEPTH],
            depth: 0,
            pending: None,
        }
    }
}

/// A container being walked, and the segment of the property being walked in it.
#[derive(Clone, Copy)]
pub(super) enum Frame<'a> {
    Empty,
    /// An object's fields, from `next`.
    Fields {
        fields: &'a [Field<'a>],
        next: usize,
        rendering: Rendering,
        segment: &'a str,
    },
    /// The fields of every operation of a union in its exact schema.
    Operations {
        union: &'a Union<'a>,
        variant: usize,
        field: usize,
        segment: &'a str,
    },
    /// The keys of a flattened union, by their merge decisions.
    Keys {
        union: &'a Union<'a>,
        keys: Keys<'a>,
        segment: &'a str,
    },
    /// A key holding what is walked next (an adjacently tagged union's content key): only a
    /// segment of the path.
    Named {
        segment: &'a str,
    },
    /// The operations of an externally tagged union, each its own key, from `next`.
    Variants {
        union: &'a Union<'a>,
        next: usize,
        rendering: Rendering,
        segment: &'a str,
    },
    /// A tuple's elements, each shown at its position (`prefixItems`), from `next`.
    Elements {
        elements: &'a [&'a Node<'a>],
        next: usize,
        rendering: Rendering,
    },
    /// The properties of a hull of objects (a key whose operations declare different objects),
    /// each by its merge decision.
    Hull {
        properties: SetProperties<'a>,
        segment: &'a str,
    },
}

impl<'a> Frame<'a> {
    pub(super) const fn segment(&self) -> &'a str {
        match *self {
            Frame::Empty | Frame::Elements { .. } => "",
            Frame::Fields { segment, .. }
            | Frame::Operations { segment, .. }
            | Frame::Keys { segment, .. }
            | Frame::Named { segment }
            | Frame::Variants { segment, .. }
            | Frame::Hull { segment, .. } => segment,
        }
    }
}
