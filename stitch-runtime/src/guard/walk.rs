//! The IR walk of the guard: the findings of a list of tools (or of one foreign schema read
//! into the IR), one at a time. It stops at each finding and resumes where it stopped; its
//! stack is explicit (`frames`), because constant evaluation has no heap to collect findings
//! into and a walk that resumes cannot recurse. This file looks at each node met; `frames`
//! moves through containers; `words` says the path and the findings; `findings` holds the
//! walk's state, which the three share.

use stitch_rules::strings::str_eq;
use stitch_rules::{AnyOf, DIALECTS, DialectRules, SeveralKinds, Text, Tuples};

use super::findings::{Findings, Frame, MAX_DEPTH, Pending, ToolStep};
use super::words::{first_description, free_reason};
use super::{Finding, FindingKind, advertises_object, format_allowed, invalid_name, name_refused};
use crate::ir::key_table::{Merge, Requirement};
use crate::ir::{Doc, Kind, Node, Object, Tagging, Union};
use crate::text::dialect_forms::{self, Form};
use crate::text::render::Rendering;
use crate::union::{KeyMerge, Keys, NodeSet, SetProperties, Step, decide, hull_node};

impl<'a> Findings<'a> {
    /// The next finding, or `None` when every tool is checked.
    #[allow(clippy::should_implement_trait)] // a `const fn`, which `Iterator::next` cannot be
    pub(super) const fn next(&mut self) -> Option<Finding> {
        loop {
            let found = if let Some(pending) = self.pending.take() {
                self.look_at(pending)
            } else if self.depth > 0 {
                self.advance()
            } else if self.tool < self.subjects.len() {
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
        let name = self.subjects.name(self.tool);
        let input = self.subjects.input(self.tool);
        match self.step {
            ToolStep::Name => {
                self.step = ToolStep::Duplicate;
                match invalid_name(name) {
                    Some(finding) => Some(finding),
                    None => name_refused(name, self.rules()),
                }
            }
            ToolStep::Duplicate => {
                self.step = ToolStep::Object;
                let mut earlier = 0;
                while earlier < self.tool {
                    if str_eq(self.subjects.name(earlier), name) {
                        let why = "another tool has the same name; tool names must be unique: \
                                   rename one (`#[contract(name = \"...\")]`), or, to serve one \
                                   contract as two tools, mount it again with \
                                   `Tools::tool_named(\"other_name\", handler)`";
                        return Some(Finding::new(FindingKind::DuplicateName, name).because(why));
                    }
                    earlier += 1;
                }
                None
            }
            ToolStep::Object => {
                self.step = ToolStep::Walk;
                let rendering =
                    Rendering::shown_in(self.subjects.advertised(self.tool), self.profile.dialect);
                // The input itself is shown: what a dialect cannot say of it (the keys of a
                // flattened map, in a strict mode) is a finding too.
                self.pending = Some(Pending {
                    node: input,
                    rendering,
                    property: false,
                    shown: true,
                    description: None,
                    presence: Requirement::ALWAYS,
                });
                if advertises_object(input, rendering) {
                    None
                } else {
                    let why =
                        "its input schema must be an object (MCP requires `\"type\": \"object\"`)";
                    Some(Finding::new(FindingKind::NotAnObject, name).because(why))
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
    const fn look_at(&mut self, pending: Pending<'a>) -> Option<Finding> {
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
        // A dialect that takes JSON Schema whole loses nothing (and is the one constant
        // evaluation walks: no call is made for it).
        if pending.shown
            && !self.rules().whole_json_schema
            && let Some(why) = dialect_forms::loss(self.rules(), Form::Node(node), pending.presence)
        {
            self.pending = Some(Pending {
                property: false,
                shown: false,
                ..pending
            });
            return Some(self.inexpressible(why, pending.description));
        }
        self.look_inside(pending)
    }

    /// What a node contains: its format, its items or values, its fields, elements or
    /// operations, walked next.
    const fn look_inside(&mut self, pending: Pending<'a>) -> Option<Finding> {
        let node = pending.node;
        match node.kind {
            Kind::String(rules) => match rules.format {
                Some(format) if self.profile.portable_formats => self.format(format),
                _ => None,
            },
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
            // Shown position by position, or as one `items` for them all.
            Kind::Tuple(elements) if matches!(self.rules().tuples, Tuples::PrefixItems) => self
                .enter(Frame::Elements {
                    elements,
                    next: 0,
                    rendering: pending.rendering,
                }),
            Kind::Tuple(elements) => {
                let set = NodeSet::elements(elements);
                self.set(set, decide(set), Requirement::ALWAYS, false)
            }
            // Scalars said by one `type` array: nothing inside to walk.
            Kind::AnyOf(branches)
                if dialect_forms::scalar_union(branches).is_some()
                    && matches!(self.rules().kinds, SeveralKinds::TypeArray) =>
            {
                None
            }
            // Shown branch by branch, except where the dialect merges them (or they are
            // scalars the dialect cannot say by one `type` array): what every branch's values
            // meet, or where that keeps no kind, one branch.
            Kind::AnyOf(branches)
                if matches!(self.rules().any_of, AnyOf::Merged)
                    || dialect_forms::scalar_union(branches).is_some()
                        && matches!(self.rules().kinds, SeveralKinds::Described) =>
            {
                if dialect_forms::numeric_ranges(branches) {
                    return Some(self.inexpressible(dialect_forms::RANGES, pending.description));
                }
                let set = NodeSet::elements(branches);
                let merge = decide(set);
                if let Some(shown) = dialect_forms::shown_branch(self.rules(), branches, &merge) {
                    // Shown as one branch: reported here, and that branch walked next.
                    self.pending = Some(Pending {
                        node: branches[shown],
                        shown: true,
                        ..pending
                    });
                    return Some(
                        self.inexpressible(dialect_forms::ONE_BRANCH, pending.description),
                    );
                }
                self.set(set, merge, pending.presence, false)
            }
            Kind::AnyOf(branches) => {
                let found = self.enter(Frame::Elements {
                    elements: branches,
                    next: 0,
                    rendering: pending.rendering,
                });
                // Alone on its node, its description is left out.
                let alone = matches!(self.rules().any_of, AnyOf::Alone);
                match (found, pending.description) {
                    (None, Some(_)) if alone => {
                        Some(self.inexpressible(dialect_forms::ALONE, pending.description))
                    }
                    (found, _) => found,
                }
            }
            Kind::Object(object) => self.object(object, pending),
            Kind::Union(union) => self.union(union, pending.rendering),
            _ => None,
        }
    }

    /// An object's fields, walked next; then, where the dialect leaves the object open, a
    /// flattened map's values.
    const fn object(&mut self, object: &'a Object<'a>, pending: Pending<'a>) -> Option<Finding> {
        let found = self.enter(Frame::Fields {
            fields: object.fields,
            next: 0,
            rendering: pending.rendering,
            segment: "",
        });
        if let Some(rest) = object.rest
            && !self.rules().objects_closed
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

    /// A union's operations, walked next as `rendering` shows them: by variant (externally
    /// tagged), by key (flat), or operation by operation (exact); an adjacent tagging's
    /// content key first.
    const fn union(&mut self, union: &'a Union<'a>, rendering: Rendering) -> Option<Finding> {
        let operations = match (union.tagging, rendering) {
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

    /// A `format` outside the portable ones and the allowed ones.
    const fn format(&self, format: &str) -> Option<Finding> {
        if format_allowed(format, self.profile) {
            return None;
        }
        let mut finding = Finding::new(
            FindingKind::NonPortableFormat,
            self.subjects.name(self.tool),
        );
        finding.path = self.path();
        finding.why = Text::new()
            .push("the format \"")
            .push(format)
            .push("\", which many clients and models do not know");
        Some(finding)
    }

    /// Walks into a container, unless the walk is as deep as it goes.
    pub(super) const fn enter(&mut self, frame: Frame<'a>) -> Option<Finding> {
        if self.depth == MAX_DEPTH {
            let mut finding = Finding::new(FindingKind::TooDeep, self.subjects.name(self.tool));
            finding.path = self.path();
            finding.why = Text::new().push("the input nests objects deeper than the guard walks");
            return Some(finding);
        }
        self.frames[self.depth] = frame;
        self.depth += 1;
        None
    }

    /// A property met in a container: looked at next.
    pub(super) const fn property(
        &mut self,
        node: &'a Node<'a>,
        rendering: Rendering,
        description: Option<Doc<'a>>,
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
    pub(super) const fn set(
        &mut self,
        set: NodeSet<'a>,
        merge: KeyMerge<'a>,
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
                let loss = match dialect_forms::loss(self.rules(), Form::Node(&hull), presence) {
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
        match dialect_forms::loss(self.rules(), form, presence) {
            Some(why) => Some(self.inexpressible(why, description)),
            None => None,
        }
    }

    /// Walks into a hull: its items or values as a set (decided now; what that finds is
    /// returned), its objects' properties as a frame walked next.
    const fn hull_inside(&mut self, set: NodeSet<'a>, hull: &Node<'a>) -> Option<Finding> {
        let step = match hull.kind {
            Kind::Array(..) => Step::Items,
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

    /// The row of the dialect checked (an array read: constant evaluation pays for calls, and
    /// this is read at every node).
    const fn rules(&self) -> &'static DialectRules {
        &DIALECTS[self.profile.dialect as usize]
    }

    /// Whether untyped properties are findings, and this one is not allowed to be untyped.
    const fn judges_this_property(&self) -> bool {
        self.profile.typed_properties && !self.untyped_allowed()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use stitch_rules::Dialect;

    use super::*;
    use crate::guard::FindingKind;
    use crate::tool::{ContractTool, SchemaProfile};

    /// Every finding of one foreign schema, as (kind, path).
    fn walked(schema: &Value, profile: &SchemaProfile) -> Vec<(FindingKind, String)> {
        crate::foreign::with_ir(schema, |node| {
            let mut walk = Findings::of_foreign("tool", node, profile);
            let mut found = Vec::new();
            while let Some(finding) = walk.next() {
                found.push((finding.kind(), finding.path().to_owned()));
            }
            found
        })
        .expect("the schema is read")
    }

    static OPAQUE: Node<'static> = Node::of(Kind::Opaque);
    static LIST: Node<'static> = Node::of(Kind::Array(&OPAQUE, crate::ir::ArrayRules::NONE));
    static FIELDS: [crate::ir::Field<'static>; 4] = [
        crate::ir::Field::new("payload", &OPAQUE, false, None),
        crate::ir::Field::new("items", &LIST, false, None),
        crate::ir::Field::new("count", <i64 as crate::Shape>::SHAPE, false, None),
        crate::ir::Field::new("blob", &OPAQUE, false, None),
    ];
    static OBJECT: Object<'static> = Object::new(&FIELDS, false, None);
    static ROOT: Node<'static> = Node::of(Kind::Object(&OBJECT));

    /// Every finding of one contract whose input is `input`, as (kind, path).
    fn of_contract(
        input: &'static Node<'static>,
        profile: &SchemaProfile,
    ) -> Vec<(FindingKind, String)> {
        let tools = [ContractTool::new("tool", "", input)];
        let mut walk = Findings::of(&tools, profile);
        let mut found = Vec::new();
        while let Some(finding) = walk.next() {
            found.push((finding.kind(), finding.path().to_owned()));
        }
        found
    }

    #[test]
    fn an_untyped_property_is_found_at_its_path_and_the_walk_resumes_after_it() {
        let typed = SchemaProfile::new().require_typed_properties();
        // An array's items are no property: the array says its type.
        assert_eq!(
            of_contract(&ROOT, &typed),
            [
                (FindingKind::Untyped, "payload".to_owned()),
                (FindingKind::Untyped, "blob".to_owned()),
            ]
        );
        assert_eq!(of_contract(&ROOT, &SchemaProfile::new()), []);
    }

    #[test]
    fn what_a_dialect_cannot_say_of_a_foreign_schema_is_found_at_its_path() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string"},
            "not_a_name": {"not": {"type": "string"}}
        }});
        // `mcp` says the part as it was written.
        assert_eq!(walked(&schema, &SchemaProfile::new()), []);
        let found = walked(&schema, &SchemaProfile::new().dialect(Dialect::Portable));
        assert_eq!(
            found,
            [(FindingKind::Inexpressible, "not_a_name".to_owned())]
        );
    }
}
