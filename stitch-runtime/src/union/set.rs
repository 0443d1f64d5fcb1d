//! Sets of nodes one schema must accept together: a flattened key's collision set, or a
//! tuple's elements, seen through a path of steps into them (their items, their values, one of
//! their fields). The collision rules decide a set, and where its members share a kind the
//! set steps into them, so the rules apply again inside: the tightest honest superset, merged
//! recursively.

use stitch_rules::strings::str_eq;

use super::{CollisionSet, Members};
use crate::ir::key_table::Requirement;
use crate::ir::{Field, Kind, Node};

/// How many steps into its members a set goes: past it, members sharing a kind are advertised
/// by that kind alone (a bound on the work, and on recursive types).
pub const SET_DEPTH: usize = 6;

/// One step into a set's members.
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// An array's items.
    Items,
    /// A map's values.
    Values,
    /// An object's field of this name.
    Field(&'a str),
}

/// Where a set's members come from.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// The operations declaring a flattened key.
    Collision(CollisionSet<'a>),
    /// A tuple's elements (advertised as one `items` where a dialect has no `prefixItems`).
    Elements(&'a [&'a Node<'a>]),
}

/// Nodes one schema must accept together: a source's, each seen through the steps.
#[derive(Clone, Copy, Debug)]
pub struct NodeSet<'a> {
    source: Source<'a>,
    steps: [Step<'a>; SET_DEPTH],
    depth: usize,
}

/// One member of a set: its node, the field it is (a flattened key's operations, an object's
/// field), and the operation or element it comes from.
#[derive(Clone, Copy, Debug)]
pub struct Member<'a> {
    /// The node.
    pub node: &'a Node<'a>,
    /// The field, where the member is one.
    pub field: Option<&'a Field<'a>>,
    /// The index of the operation (or tuple element) it comes from.
    pub origin: u32,
}

impl<'a> NodeSet<'a> {
    /// A flattened key's collision set.
    pub const fn of(set: CollisionSet<'a>) -> NodeSet<'a> {
        NodeSet {
            source: Source::Collision(set),
            steps: [Step::Items; SET_DEPTH],
            depth: 0,
        }
    }

    /// A tuple's elements.
    pub const fn elements(elements: &'a [&'a Node<'a>]) -> NodeSet<'a> {
        NodeSet {
            source: Source::Elements(elements),
            steps: [Step::Items; SET_DEPTH],
            depth: 0,
        }
    }

    /// Where the members come from.
    pub const fn source(&self) -> Source<'a> {
        self.source
    }

    /// Whether the set can step further into its members.
    pub const fn can_step(&self) -> bool {
        self.depth < SET_DEPTH
    }

    /// The set of what each member holds at `step` (members without it drop out). A set as
    /// deep as it goes stays where it is: `decide` never steps past [`SET_DEPTH`].
    pub const fn step(mut self, step: Step<'a>) -> NodeSet<'a> {
        if self.depth < SET_DEPTH {
            self.steps[self.depth] = step;
            self.depth += 1;
        }
        self
    }

    /// A walk over the members, in the source's order.
    pub const fn members(self) -> NodeMembers<'a> {
        NodeMembers {
            scanned: match self.source {
                Source::Collision(set @ CollisionSet::Scanned { .. }) => Some(set.members()),
                _ => None,
            },
            set: self,
            at: match self.source {
                Source::Collision(set) => set.first_slot(),
                Source::Elements(_) => 0,
            },
        }
    }

    /// The set's collision set, where it is a key table's listed one and no step is taken
    /// into its members: what [`for_each_distinct_member!`] walks by index.
    pub const fn listed_as_is(&self) -> Option<CollisionSet<'a>> {
        match self.source {
            Source::Collision(set @ CollisionSet::Listed { .. }) if self.depth == 0 => Some(set),
            _ => None,
        }
    }

    /// The first member.
    pub const fn first(self) -> Option<Member<'a>> {
        self.members().next()
    }

    /// What a member of the source holds through the steps, if it holds it.
    const fn follow(&self, mut member: Member<'a>) -> Option<Member<'a>> {
        let mut i = 0;
        while i < self.depth {
            member = match (self.steps[i], member.node.kind) {
                (Step::Items, Kind::Array(item, _)) | (Step::Values, Kind::Map(item, _)) => {
                    Member {
                        node: item,
                        field: None,
                        ..member
                    }
                }
                (Step::Field(name), Kind::Object(object)) => {
                    match field_named(object.fields, name) {
                        Some(field) => Member {
                            node: field.node,
                            field: Some(field),
                            ..member
                        },
                        None => return None,
                    }
                }
                _ => return None,
            };
            i += 1;
        }
        Some(member)
    }
}

/// Runs `$body` for each distinct member of a set (naming it `$member`, a [`Member`]), in the
/// source's order: [`NodeMembers`]' walk, written out where a key's collision set is walked
/// as it is listed in its table (no steps taken), because the collision rules walk every
/// field of a union and constant evaluation pays for the call each step of an iterator is;
/// there, a slot its table marks as repeating an earlier one ([`Slot::repeats`]) is skipped,
/// as no collision rule depends on how many operations declare one schema. Any other set
/// goes through the iterator, every member. The body must not `continue`; `return` is fine.
///
/// [`Slot::repeats`]: crate::ir::key_table::Slot::repeats
macro_rules! for_each_distinct_member {
    ($set:expr, |$member:ident| $body:block) => {{
        let set: $crate::union::NodeSet<'_> = $set;
        match set.listed_as_is() {
            Some($crate::union::CollisionSet::Listed {
                union,
                slots,
                start,
                end,
            }) => {
                let mut at = start as usize;
                while at < end as usize {
                    let slot = slots[at];
                    at += 1;
                    if !slot.repeats {
                        let field = &union.variants[slot.variant as usize].object.fields
                            [slot.field as usize];
                        let $member = $crate::union::Member {
                            node: field.node,
                            field: Some(field),
                            origin: slot.variant,
                        };
                        $body
                    }
                }
            }
            _ => {
                let mut members = set.members();
                while let Some($member) = members.next() {
                    $body
                }
            }
        }
    }};
}
pub(crate) use for_each_distinct_member;

/// Walks a set's members.
pub struct NodeMembers<'a> {
    set: NodeSet<'a>,
    /// The walk of a collision set found by scanning a union (no key table).
    scanned: Option<Members<'a>>,
    /// The next slot or element.
    at: usize,
}

impl<'a> NodeMembers<'a> {
    /// The next member.
    pub const fn next(&mut self) -> Option<Member<'a>> {
        loop {
            // A key table's slots and a tuple's elements are read here, not through another
            // walk: this runs for every member of every set (a call's cost: see `const_text`).
            let member = match (self.set.source, &mut self.scanned) {
                (
                    Source::Collision(CollisionSet::Listed {
                        union, slots, end, ..
                    }),
                    _,
                ) => {
                    if self.at >= end as usize {
                        return None;
                    }
                    let slot = slots[self.at];
                    self.at += 1;
                    let variant = &union.variants[slot.variant as usize];
                    let field = &variant.object.fields[slot.field as usize];
                    Member {
                        node: field.node,
                        field: Some(field),
                        origin: slot.variant,
                    }
                }
                (Source::Collision(_), Some(members)) => match members.next() {
                    Some(occurrence) => Member {
                        node: occurrence.field.node,
                        field: Some(occurrence.field),
                        origin: occurrence.variant,
                    },
                    None => return None,
                },
                (Source::Collision(_), None) => return None,
                (Source::Elements(elements), _) => {
                    if self.at >= elements.len() {
                        return None;
                    }
                    self.at += 1;
                    Member {
                        node: elements[self.at - 1],
                        field: None,
                        origin: (self.at - 1) as u32,
                    }
                }
            };
            if self.set.depth == 0 {
                return Some(member);
            }
            if let Some(member) = self.set.follow(member) {
                return Some(member);
            }
        }
    }
}

/// The field named `name` among `fields`.
pub(super) const fn field_named<'a>(
    fields: &'a [Field<'a>],
    name: &'a str,
) -> Option<&'a Field<'a>> {
    let mut f = 0;
    let field_count = fields.len();
    while f < field_count {
        if str_eq(fields[f].name, name) {
            return Some(&fields[f]);
        }
        f += 1;
    }
    None
}

/// One property of a set of objects: its name and the set of its declarations, with which of
/// the objects require it.
#[derive(Clone, Copy, Debug)]
pub struct SetProperty<'a> {
    /// The wire name.
    pub name: &'a str,
    /// Whether the name needs no JSON escape.
    pub plain: bool,
    /// Which of the objects require it.
    pub requirement: Requirement,
    /// Its declarations.
    pub set: NodeSet<'a>,
}

/// The properties of a set of objects (every member an object), in order of first appearance.
#[derive(Clone, Copy)]
pub struct SetProperties<'a> {
    set: NodeSet<'a>,
    /// The member being read, and the next field in it.
    member: usize,
    field: usize,
}

impl<'a> SetProperties<'a> {
    /// The properties of a set of objects.
    pub const fn of(set: NodeSet<'a>) -> SetProperties<'a> {
        SetProperties {
            set,
            member: 0,
            field: 0,
        }
    }

    /// The next property not met before.
    pub const fn next(&mut self) -> Option<SetProperty<'a>> {
        loop {
            let fields = match nth_object_fields(self.set, self.member) {
                Some(fields) => fields,
                None => return None,
            };
            if self.field >= fields.len() {
                self.member += 1;
                self.field = 0;
                continue;
            }
            let field = &fields[self.field];
            self.field += 1;
            let mut earlier = 0;
            let mut seen = false;
            while earlier < self.member && !seen {
                if let Some(fields) = nth_object_fields(self.set, earlier) {
                    seen = field_named(fields, field.name).is_some();
                }
                earlier += 1;
            }
            if seen {
                continue;
            }
            let set = self.set.step(Step::Field(field.name));
            let (mut objects, mut required_by) = (0, 0);
            let (mut null_matters, mut default_matters) = (false, false);
            let mut members = self.set.members();
            while let Some(member) = members.next() {
                objects += 1;
                if let Kind::Object(object) = member.node.kind
                    && let Some(declared) = field_named(object.fields, field.name)
                {
                    if declared.required {
                        required_by += 1;
                    }
                    if declared.node.nullable {
                        null_matters |= declared.required || declared.defaulted;
                        default_matters |= declared.defaulted;
                    }
                }
            }
            return Some(SetProperty {
                name: field.name,
                plain: field.plain,
                requirement: Requirement::counted(
                    required_by,
                    objects,
                    null_matters,
                    default_matters,
                ),
                set,
            });
        }
    }
}

/// The fields of the set's `n`th member, an object.
const fn nth_object_fields<'a>(set: NodeSet<'a>, n: usize) -> Option<&'a [Field<'a>]> {
    let mut members = set.members();
    let mut i = 0;
    while let Some(member) = members.next() {
        if i == n {
            return match member.node.kind {
                Kind::Object(object) => Some(object.fields),
                _ => Some(&[]),
            };
        }
        i += 1;
    }
    None
}

/// Whether every member of a set of objects refuses unknown keys.
pub const fn all_deny_unknown(set: NodeSet<'_>) -> bool {
    let mut members = set.members();
    while let Some(member) = members.next() {
        match member.node.kind {
            Kind::Object(object) if object.deny_unknown && object.rest.is_none() => {}
            _ => return false,
        }
    }
    true
}
