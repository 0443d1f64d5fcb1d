//! The containers the guard's walk is inside, each with the property being walked in it (so
//! the frames together are the path), and how the walk moves on in each: an object's next
//! field, a union's next operation or flattened key, a tuple's next element, a hull's next
//! property.

use super::Finding;
use super::findings::{Findings, Frame, Pending};
use crate::ir::key_table::Requirement;
use crate::ir::{Field, Holds, Node, Union};
use crate::text::render::Rendering;
use crate::union::{Keys, NodeSet, SetProperties, decide};

impl<'a> Findings<'a> {
    /// The next property of the innermost container, or out of it when it has no more.
    pub(super) const fn advance(&mut self) -> Option<Finding> {
        let top = self.depth - 1;
        // `Some(found)` where the container had one more to walk, `None` where it is done.
        let moved = match self.frames[top] {
            Frame::Empty | Frame::Named { .. } => None,
            Frame::Variants {
                union,
                next,
                rendering,
                ..
            } => self.next_variant(top, union, next, rendering),
            Frame::Fields {
                fields,
                next,
                rendering,
                ..
            } => self.next_field(top, fields, next, rendering),
            Frame::Operations {
                union,
                variant,
                field,
                ..
            } => self.next_operation_field(top, union, variant, field),
            Frame::Keys { union, keys, .. } => self.next_key(top, union, keys),
            Frame::Elements {
                elements,
                next,
                rendering,
            } => self.next_element(top, elements, next, rendering),
            Frame::Hull { properties, .. } => self.next_hull_property(top, properties),
        };
        match moved {
            Some(found) => found,
            None => {
                self.depth -= 1;
                None
            }
        }
    }

    /// An externally tagged union's next operation, its own key.
    const fn next_variant(
        &mut self,
        top: usize,
        union: &'a Union<'a>,
        next: usize,
        rendering: Rendering,
    ) -> Option<Option<Finding>> {
        if next >= union.variants.len() {
            return None;
        }
        let variant = &union.variants[next];
        self.frames[top] = Frame::Variants {
            union,
            next: next + 1,
            rendering,
            segment: variant.name,
        };
        Some(match variant.holds {
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
        })
    }

    /// An object's next field.
    const fn next_field(
        &mut self,
        top: usize,
        fields: &'a [Field<'a>],
        next: usize,
        rendering: Rendering,
    ) -> Option<Option<Finding>> {
        if next >= fields.len() {
            return None;
        }
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
        Some(None)
    }

    /// The next field of a union's operations in its exact schema: the operation's next one,
    /// or the next operation's first.
    const fn next_operation_field(
        &mut self,
        top: usize,
        union: &'a Union<'a>,
        mut variant: usize,
        mut field: usize,
    ) -> Option<Option<Finding>> {
        while variant < union.variants.len() && field >= union.variants[variant].object.fields.len()
        {
            variant += 1;
            field = 0;
        }
        if variant >= union.variants.len() {
            return None;
        }
        let current = &union.variants[variant].object.fields[field];
        self.frames[top] = Frame::Operations {
            union,
            variant,
            field: field + 1,
            segment: current.name,
        };
        self.property(
            current.node,
            Rendering::Exact,
            current.description,
            current.requirement(),
        );
        Some(None)
    }

    /// A flattened union's next key, by its merge decision.
    const fn next_key(
        &mut self,
        top: usize,
        union: &'a Union<'a>,
        mut keys: Keys<'a>,
    ) -> Option<Option<Finding>> {
        let Some((key, set)) = keys.next() else {
            return None;
        };
        self.frames[top] = Frame::Keys {
            union,
            keys,
            segment: key.name,
        };
        Some(self.set(NodeSet::of(set), key.merge, key.requirement, true))
    }

    /// A tuple's next element, shown at its position.
    const fn next_element(
        &mut self,
        top: usize,
        elements: &'a [&'a Node<'a>],
        next: usize,
        rendering: Rendering,
    ) -> Option<Option<Finding>> {
        if next >= elements.len() {
            return None;
        }
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
        Some(None)
    }

    /// A hull of objects' next property, by its merge decision.
    const fn next_hull_property(
        &mut self,
        top: usize,
        mut properties: SetProperties<'a>,
    ) -> Option<Option<Finding>> {
        let Some(property) = properties.next() else {
            return None;
        };
        self.frames[top] = Frame::Hull {
            properties,
            segment: property.name,
        };
        let merge = decide(property.set);
        Some(self.set(property.set, merge, property.requirement, true))
    }
}
