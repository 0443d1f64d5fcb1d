//! The IR walk of the guard: the findings of a list of tools, one at a time. It stops at each
//! finding and resumes where it stopped; its stack is explicit, because constant evaluation
//! has no heap to collect findings into and a walk that resumes cannot recurse.

use stitch_rules::strings::str_eq;
use stitch_rules::{Dialect, Text};

use super::{Finding, FindingKind, advertises_object, format_allowed, invalid_name};
use crate::dialect::{self, Form};
use crate::flatten::{KeyMerge, Keys, NodeSet, SetProperties, Source, Step, decide, hull_node};
use crate::node::{Doc, Field, Hazard, Holds, Kind, Node, Tagging, Union};
use crate::render::Rendering;
use crate::table::{FreeReason, Merge, Requirement};
use crate::tool::{SchemaProfile, Tool};

/// How many containers deep the walk goes (a contract nesting objects deeper is reported).
const MAX_DEPTH: usize = 32;

/// The findings of a list of tools, one at a time: a walk over each tool's IR that stops at a
/// finding and resumes where it stopped. Its stack is explicit, because constant evaluation
/// has no heap to collect findings into and a walk that resumes cannot recurse.
pub(super) struct Findings<'a> {
    tools: &'a [Tool],
    profile: &'a SchemaProfile,
    /// The tool being checked, and how far.
    tool: usize,
    step: ToolStep,
    /// The containers being walked, outermost first; each names the property being walked in
    /// it, so together they are the path.
    frames: [Frame; MAX_DEPTH],
    depth: usize,
    /// A node met and not yet looked at.
    pending: Option<Pending>,
}

/// What is left to check of a tool before and around its walk.
#[derive(Clone, Copy)]
enum ToolStep {
    Name,
    Duplicate,
    Object,
    Walk,
}

/// A container being walked, and the segment of the property being walked in it.
#[derive(Clone, Copy)]
enum Frame {
    Empty,
    /// An object's fields, from `next`.
    Fields {
        fields: &'static [Field<'static>],
        next: usize,
        rendering: Rendering,
        segment: &'static str,
    },
    /// The fields of every operation of a union in its exact schema.
    Operations {
        union: &'static Union<'static>,
        variant: usize,
        field: usize,
        segment: &'static str,
    },
    /// The keys of a flattened union, by their merge decisions.
    Keys {
        union: &'static Union<'static>,
        keys: Keys<'static>,
        segment: &'static str,
    },
    /// A key holding what is walked next (an adjacently tagged union's content key): only a
    /// segment of the path.
    Named {
        segment: &'static str,
    },
    /// The operations of an externally tagged union, each its own key, from `next`.
    Variants {
        union: &'static Union<'static>,
        next: usize,
        rendering: Rendering,
        segment: &'static str,
    },
    /// A tuple's elements, each shown at its position (`prefixItems`), from `next`.
    Elements {
        elements: &'static [&'static Node<'static>],
        next: usize,
        rendering: Rendering,
    },
    /// The properties of a hull of objects (a key whose operations declare different objects),
    /// each by its merge decision.
    Hull {
        properties: SetProperties<'static>,
        segment: &'static str,
    },
}

impl Frame {
    const fn segment(&self) -> &'static str {
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

/// A node to look at: its type when it is a property, then what it contains.
#[derive(Clone, Copy)]
struct Pending {
    node: &'static Node<'static>,
    rendering: Rendering,
    /// Whether it is a property (whose type the guard judges).
    property: bool,
    /// Whether its schema is shown to a client as a value of its own (a property, an array's
    /// items, a map's values): what a dialect cannot say of it is a finding.
    shown: bool,
    description: Option<Doc<'static>>,
    /// Which operations require the property.
    presence: Requirement,
}

impl<'a> Findings<'a> {
    /// The walk over these tools, before its first step.
    pub(super) const fn of(tools: &'a [Tool], profile: &'a SchemaProfile) -> Findings<'a> {
        Findings {
            tools,
            profile,
            tool: 0,
            step: ToolStep::Name,
            frames: [Frame::Empty; MAX_DEPTH],
            depth: 0,
            pending: None,
        }
    }

    /// The next finding, or `None` when every tool is checked.
    #[allow(clippy::should_implement_trait)] // a `const fn`, which `Iterator::next` cannot be
    pub(super) const fn next(&mut self) -> Option<Finding> {
        loop {
            let found = if let Some(pending) = self.pending.take() {
                self.look_at(pending)
            } else if self.depth > 0 {
                self.advance()
            } else if self.tool < self.tools.len() {
                self.tool_step()
            } else {
                return None;
            };
            if found.is_some() {
                return found;
            }
        }
    }

    /// The checks of the tool itself, then its walk, then the next tool.
    const fn tool_step(&mut self) -> Option<Finding> {
        let tool = &self.tools[self.tool];
        match self.step {
            ToolStep::Name => {
                self.step = ToolStep::Duplicate;
                invalid_name(tool.name)
            }
            ToolStep::Duplicate => {
                self.step = ToolStep::Object;
                let mut earlier = 0;
                while earlier < self.tool {
                    if str_eq(self.tools[earlier].name, tool.name) {
                        let why = "another tool has the same name; tool names must be unique";
                        return Some(
                            Finding::new(FindingKind::DuplicateName, tool.name).because(why),
                        );
                    }
                    earlier += 1;
                }
                None
            }
            ToolStep::Object => {
                self.step = ToolStep::Walk;
                // Every dialect but `Mcp` advertises the flat schema.
                let rendering = match self.profile.dialect {
                    Dialect::Mcp => tool.advertised(),
                    dialect => Rendering::Flat(dialect),
                };
                // The input itself is shown: what a dialect cannot say of it (the keys of a
                // flattened map, in a strict mode) is a finding too.
                self.pending = Some(Pending {
                    node: tool.input,
                    rendering,
                    property: false,
                    shown: true,
                    description: None,
                    presence: Requirement::ALWAYS,
                });
                if advertises_object(tool.input, rendering) {
                    None
                } else {
                    let why =
                        "its input schema must be an object (MCP requires `\"type\": \"object\"`)";
                    Some(Finding::new(FindingKind::NotAnObject, tool.name).because(why))
                }
            }
            ToolStep::Walk => {
                self.tool += 1;
                self.step = ToolStep::Name;
                None
            }
        }
    }

    /// A node: its type when it is a property, then what it contains.
    const fn look_at(&mut self, pending: Pending) -> Option<Finding> {
        let node = pending.node;
        if pending.property && node.advertises_no_type() && self.judges_this_property() {
            // Looked at again for what it contains, once this finding is reported.
            self.pending = Some(Pending {
                property: false,
                shown: false,
                ..pending
            });
            let why = Text::new()
                .push("it is an opaque value (`#[contract(opaque)]`), advertised as `{}`");
            return Some(self.untyped(why, pending.description));
        }
        if pending.shown
            && !matches!(self.profile.dialect, Dialect::Mcp)
            && let Some(why) =
                dialect::loss(self.profile.dialect, Form::Node(node), pending.presence)
        {
            self.pending = Some(Pending {
                property: false,
                shown: false,
                ..pending
            });
            return Some(self.inexpressible(why, pending.description));
        }
        match node.kind {
            Kind::String(rules) => match rules.format {
                Some(format) if self.profile.portable_formats => self.format(format),
                _ => None,
            },
            // A strict dialect advertises a map as an empty object: its values are not shown.
            Kind::Map(..) if self.profile.dialect.is_strict() => None,
            Kind::Array(item, _) | Kind::Map(item, _) => {
                self.pending = Some(Pending {
                    node: item,
                    property: false,
                    shown: true,
                    description: None,
                    presence: Requirement::ALWAYS,
                    ..pending
                });
                None
            }
            // Shown position by position in `Mcp`; elsewhere, as one `items` for them all.
            Kind::Tuple(elements) if matches!(self.profile.dialect, Dialect::Mcp) => {
                self.enter(Frame::Elements {
                    elements,
                    next: 0,
                    rendering: pending.rendering,
                })
            }
            Kind::Tuple(elements) => {
                let set = NodeSet::elements(elements);
                self.set(set, decide(set), Requirement::ALWAYS, false)
            }
            Kind::Object(object) => {
                let found = self.enter(Frame::Fields {
                    fields: object.fields,
                    next: 0,
                    rendering: pending.rendering,
                    segment: "",
                });
                // A flattened map's values, shown where the dialect leaves the object open.
                if let Some(rest) = object.rest
                    && !self.profile.dialect.is_strict()
                    && found.is_none()
                {
                    self.pending = Some(Pending {
                        node: rest,
                        property: false,
                        shown: true,
                        description: None,
                        presence: Requirement::ALWAYS,
                        ..pending
                    });
                }
                found
            }
            Kind::Union(union) => {
                let operations = match (union.tagging, pending.rendering) {
                    (Tagging::External, rendering) => {
                        return self.enter(Frame::Variants {
                            union,
                            next: 0,
                            rendering,
                            segment: "",
                        });
                    }
                    (_, Rendering::Flat(_) | Rendering::Output) => Frame::Keys {
                        union,
                        keys: Keys::of(union),
                        segment: "",
                    },
                    (_, Rendering::Exact) => Frame::Operations {
                        union,
                        variant: 0,
                        field: 0,
                        segment: "",
                    },
                };
                if let Tagging::Adjacent(content) = union.tagging
                    && let Some(finding) = self.enter(Frame::Named { segment: content })
                {
                    return Some(finding);
                }
                self.enter(operations)
            }
            _ => None,
        }
    }

    /// A `format` outside the portable ones and the allowed ones.
    const fn format(&self, format: &str) -> Option<Finding> {
        if format_allowed(format, self.profile) {
            return None;
        }
        let mut finding = Finding::new(FindingKind::NonPortableFormat, self.tools[self.tool].name);
        finding.path = self.path();
        finding.why = Text::new()
            .push("the format \"")
            .push(format)
            .push("\", which many clients and models do not know");
        Some(finding)
    }

    /// Walks into a container, unless the walk is as deep as it goes.
    const fn enter(&mut self, frame: Frame) -> Option<Finding> {
        if self.depth == MAX_DEPTH {
            let mut finding = Finding::new(FindingKind::TooDeep, self.tools[self.tool].name);
            finding.path = self.path();
            finding.why = Text::new().push("the input nests objects deeper than the guard walks");
            return Some(finding);
        }
        self.frames[self.depth] = frame;
        self.depth += 1;
        None
    }

    /// The next property of the innermost container, or out of it when it has no more.
    const fn advance(&mut self) -> Option<Finding> {
        let top = self.depth - 1;
        match self.frames[top] {
            Frame::Empty | Frame::Named { .. } => {}
            Frame::Variants {
                union,
                next,
                rendering,
                ..
            } => {
                if next < union.variants.len() {
                    let variant = &union.variants[next];
                    self.frames[top] = Frame::Variants {
                        union,
                        next: next + 1,
                        rendering,
                        segment: variant.name,
                    };
                    return match variant.holds {
                        Holds::Value(node) => {
                            self.property(node, rendering, variant.description, Requirement::NONE);
                            None
                        }
                        Holds::Fields => self.enter(Frame::Fields {
                            fields: variant.object.fields,
                            next: 0,
                            rendering,
                            segment: "",
                        }),
                        Holds::Nothing => None,
                    };
                }
            }
            Frame::Fields {
                fields,
                next,
                rendering,
                ..
            } => {
                if next < fields.len() {
                    let field = &fields[next];
                    self.frames[top] = Frame::Fields {
                        fields,
                        next: next + 1,
                        rendering,
                        segment: field.name,
                    };
                    self.property(
                        field.node,
                        rendering,
                        field.description,
                        field.requirement(),
                    );
                    return None;
                }
            }
            Frame::Operations {
                union,
                mut variant,
                mut field,
                ..
            } => {
                // The next field: the operation's next one, or the next operation's first.
                while variant < union.variants.len()
                    && field >= union.variants[variant].object.fields.len()
                {
                    variant += 1;
                    field = 0;
                }
                if variant < union.variants.len() {
                    let current = &union.variants[variant].object.fields[field];
                    self.frames[top] = Frame::Operations {
                        union,
                        variant,
                        field: field + 1,
                        segment: current.name,
                    };
                    let presence = current.requirement();
                    self.property(
                        current.node,
                        Rendering::Exact,
                        current.description,
                        presence,
                    );
                    return None;
                }
            }
            Frame::Keys {
                union, mut keys, ..
            } => {
                if let Some((key, set)) = keys.next() {
                    self.frames[top] = Frame::Keys {
                        union,
                        keys,
                        segment: key.name,
                    };
                    return self.set(NodeSet::of(set), key.merge, key.requirement, true);
                }
            }
            Frame::Elements {
                elements,
                next,
                rendering,
            } => {
                if next < elements.len() {
                    self.frames[top] = Frame::Elements {
                        elements,
                        next: next + 1,
                        rendering,
                    };
                    self.pending = Some(Pending {
                        node: elements[next],
                        rendering,
                        property: false,
                        shown: true,
                        description: None,
                        presence: Requirement::ALWAYS,
                    });
                    return None;
                }
            }
            Frame::Hull { mut properties, .. } => {
                if let Some(property) = properties.next() {
                    self.frames[top] = Frame::Hull {
                        properties,
                        segment: property.name,
                    };
                    let merge = decide(property.set);
                    return self.set(property.set, merge, property.requirement, true);
                }
            }
        }
        self.depth -= 1;
        None
    }

    /// A property met in a container: looked at next.
    const fn property(
        &mut self,
        node: &'static Node<'static>,
        rendering: Rendering,
        description: Option<Doc<'static>>,
        presence: Requirement,
    ) {
        self.pending = Some(Pending {
            node,
            rendering,
            property: true,
            shown: true,
            description,
            presence,
        });
    }

    /// A set of nodes advertised as one (a flattened key, a hull's items or properties), by
    /// its merge decision: kept, it is a node like any other; a hull, what it holds inside is
    /// walked as sets again; free, it has no type, and the finding says why.
    const fn set(
        &mut self,
        set: NodeSet<'static>,
        merge: KeyMerge<'static>,
        presence: Requirement,
        property: bool,
    ) -> Option<Finding> {
        let description = first_description(set);
        let form = match merge {
            Merge::Keep(node) => {
                self.pending = Some(Pending {
                    node,
                    rendering: Rendering::ADVERTISED,
                    property,
                    shown: true,
                    description,
                    presence,
                });
                return None;
            }
            Merge::Hull { kinds } => {
                let hull = hull_node(set, kinds);
                let found = self.hull_inside(set, &hull);
                let loss = match dialect::loss(self.profile.dialect, Form::Node(&hull), presence) {
                    Some(why) => Some(self.inexpressible(why, description)),
                    None => None,
                };
                return match found {
                    Some(finding) => Some(finding),
                    None => loss,
                };
            }
            Merge::Free(reason) if property && self.judges_this_property() => {
                return Some(self.untyped(free_reason(set, reason), description));
            }
            Merge::Free(_) => Form::Free,
            Merge::StringEnum { nullable } => Form::Enum { nullable },
            Merge::Base { kinds, .. } => Form::Base(kinds),
        };
        match dialect::loss(self.profile.dialect, form, presence) {
            Some(why) => Some(self.inexpressible(why, description)),
            None => None,
        }
    }

    /// Walks into a hull: its items or values as a set (decided now; what that finds is
    /// returned), its objects' properties as a frame walked next.
    const fn hull_inside(
        &mut self,
        set: NodeSet<'static>,
        hull: &Node<'static>,
    ) -> Option<Finding> {
        let step = match hull.kind {
            Kind::Array(..) => Step::Items,
            // A strict dialect advertises a map as an empty object: its values are not shown.
            Kind::Map(..) if self.profile.dialect.is_strict() => return None,
            Kind::Map(..) => Step::Values,
            Kind::Object(_) => {
                return self.enter(Frame::Hull {
                    properties: SetProperties::of(set),
                    segment: "",
                });
            }
            _ => return None,
        };
        let inner = set.step(step);
        self.set(inner, decide(inner), Requirement::ALWAYS, false)
    }

    /// Whether untyped properties are findings, and this one is not allowed to be untyped.
    const fn judges_this_property(&self) -> bool {
        self.profile.typed_properties && !self.untyped_allowed()
    }

    const fn path(&self) -> Text<256> {
        let mut path = Text::new();
        let mut i = 0;
        while i < self.depth {
            if i > 0 {
                path.push_str(".");
            }
            path.push_str(self.frames[i].segment());
            i += 1;
        }
        path
    }

    /// Whether `tool.path` is listed in `allow_untyped`.
    const fn untyped_allowed(&self) -> bool {
        let mut i = 0;
        let allowed_count = self.profile.untyped_allowed.len();
        while i < allowed_count {
            if self.is_current_path(self.profile.untyped_allowed[i]) {
                return true;
            }
            i += 1;
        }
        false
    }

    const fn is_current_path(&self, entry: &str) -> bool {
        let tool = self.tools[self.tool].name;
        let entry = entry.as_bytes();
        if !starts_with_at(entry, 0, tool.as_bytes()) {
            return false;
        }
        let mut at = tool.len();
        let mut i = 0;
        while i < self.depth {
            if at >= entry.len() || entry[at] != b'.' {
                return false;
            }
            at += 1;
            let segment = self.frames[i].segment().as_bytes();
            if !starts_with_at(entry, at, segment) {
                return false;
            }
            at += segment.len();
            i += 1;
        }
        at == entry.len()
    }

    const fn inexpressible(&self, why: &str, description: Option<Doc<'static>>) -> Finding {
        let mut finding = Finding::new(FindingKind::Inexpressible, self.tools[self.tool].name);
        finding.path = self.path();
        finding.why = Text::new()
            .push("in the ")
            .push(self.profile.dialect.name())
            .push(" dialect, ")
            .push(why);
        if let Some(description) = description {
            finding.description.push_str(description.text);
        }
        finding
    }

    const fn untyped(&self, why: Text<384>, description: Option<Doc<'static>>) -> Finding {
        let mut finding = Finding::new(FindingKind::Untyped, self.tools[self.tool].name);
        finding.path = self.path();
        finding.why = why;
        if let Some(description) = description {
            finding.description.push_str(description.text);
        }
        finding
    }
}

const fn starts_with_at(haystack: &[u8], at: usize, needle: &[u8]) -> bool {
    if at + needle.len() > haystack.len() {
        return false;
    }
    let mut i = 0;
    let needle_len = needle.len();
    while i < needle_len {
        if haystack[at + i] != needle[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn first_description(set: NodeSet<'static>) -> Option<Doc<'static>> {
    let mut members = set.members();
    while let Some(member) = members.next() {
        if let Some(field) = member.field
            && field.description.is_some()
        {
            return field.description;
        }
    }
    None
}

/// Why a set of nodes has no honest type, naming the operations (or tuple elements).
const fn free_reason(set: NodeSet<'_>, reason: FreeReason) -> Text<384> {
    let mut why = Text::new();
    let mut members = set.members();
    match reason {
        FreeReason::Opaque => {
            while let Some(member) = members.next() {
                if matches!(member.node.kind, Kind::Opaque) {
                    if let Source::Collision(_) = set.source() {
                        why.push_str("operation `");
                        push_origin(&mut why, set, member.origin);
                        why.push_str("`");
                    } else {
                        push_origin(&mut why, set, member.origin);
                    }
                    why.push_str(" declares it an opaque value, so no type fits every operation");
                    break;
                }
            }
        }
        FreeReason::MixedHazard => {
            why.push_str("the operations disagree on leniency: ");
            let mut first = true;
            while let Some(member) = members.next() {
                if !first {
                    why.push_str(", ");
                }
                first = false;
                push_origin(&mut why, set, member.origin);
                why.push_str(match member.node.hazard {
                    Hazard::Coerce => " coerces strings",
                    Hazard::Catch(_) => " replaces invalid values (catch)",
                    Hazard::None => " does not",
                });
            }
        }
    }
    why
}

/// Names where a member comes from: its operation, or `element 1` of a tuple.
const fn push_origin(why: &mut Text<384>, set: NodeSet<'_>, origin: u32) {
    match set.source() {
        Source::Collision(collision) => {
            why.push_str(collision.union().variants[origin as usize].name);
        }
        Source::Elements(_) => {
            why.push_str("element ");
            *why = why.push_u64(origin as u64);
        }
    }
}
