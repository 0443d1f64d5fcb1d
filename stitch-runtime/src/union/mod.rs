//! Flattening a tagged union into one object: the key table and the collision rules.
//!
//! A union's keys (in order of first appearance) and each key's *collision set* (the
//! operations declaring it) are computed once per union, into a [`FlatTable`] whose sizes
//! the generated code names, so the work stays linear in the number of fields. Which field
//! is which key ([`KeyIndices`]) is written out by the derive when it knows every name, and
//! otherwise (a newtype operation) computed by [`key_indices`], one pass that hashes each
//! name (the derive's native hashing is free; see `const_text` for what constant evaluation
//! charges).
//! Generic unions cannot size an array by a generic constant, so they carry no table and
//! [`Keys`] walks their variants directly; both paths feed the same [`decide`], so the rules
//! exist once.
//!
//! This file walks a union's keys and collision sets; `keys` builds the key table, `decide`
//! holds the collision rules.

mod decide;
mod hull;
mod keys;
mod set;

use crate::ir::key_table::{Decision, Described, Merge, Requirement, Slot};
use crate::ir::{Doc, Field, Node, Union};
use set::field_named;

pub use decide::decide;
pub use hull::hull_node;
pub use keys::{
    FlatTable, KeyIndices, KeyTable, flat_table, key_indices, key_table, keyed_shape, keyed_union,
    slots_for, total_fields,
};
pub use set::{Member, NodeSet, SetProperties, Source, Step, all_deny_unknown};

/// One key of a flattened union, as the renderer and the guard see it.
#[derive(Clone, Copy, Debug)]
pub struct FlatKey<'a> {
    /// The key.
    pub name: &'a str,
    /// Whether the key needs no JSON escape (see [`crate::ir::Field::plain`]).
    pub plain: bool,
    /// Which operations require it.
    pub requirement: Requirement,
    /// How it is advertised.
    pub merge: KeyMerge<'a>,
    /// What its fields say of it.
    pub description: Described<Doc<'a>>,
    /// The operations its hint names, escaped and joined, where the derive wrote them
    /// right (`NameLists`).
    pub listed: Option<&'a str>,
}

/// One operation declaring a key.
#[derive(Clone, Copy, Debug)]
pub struct Occurrence<'a> {
    /// The operation's index in the union.
    pub variant: u32,
    /// The operation's field.
    pub field: &'a Field<'a>,
}

/// How a key is advertised, with the node it keeps.
pub type KeyMerge<'a> = Merge<&'a Node<'a>>;

impl<'a> KeyMerge<'a> {
    /// The decision without the node it keeps.
    const fn decision(self) -> Decision {
        match self {
            Merge::Keep(_) => Merge::Keep(()),
            Merge::StringEnum { nullable } => Merge::StringEnum { nullable },
            Merge::Hull { kinds } => Merge::Hull { kinds },
            Merge::Base { kinds, reason } => Merge::Base { kinds, reason },
            Merge::Free(reason) => Merge::Free(reason),
        }
    }
}

impl Decision {
    /// The decision with the node it keeps.
    const fn keeping<'a>(self, node: &'a Node<'a>) -> KeyMerge<'a> {
        match self {
            Merge::Keep(()) => Merge::Keep(node),
            Merge::StringEnum { nullable } => Merge::StringEnum { nullable },
            Merge::Hull { kinds } => Merge::Hull { kinds },
            Merge::Base { kinds, reason } => Merge::Base { kinds, reason },
            Merge::Free(reason) => Merge::Free(reason),
        }
    }
}

impl Slot {
    const fn resolve<'a>(self, union: &'a Union<'a>) -> Occurrence<'a> {
        Occurrence {
            variant: self.variant,
            field: &union.variants[self.variant as usize].object.fields[self.field as usize],
        }
    }
}

/// The operations declaring one key.
#[derive(Clone, Copy, Debug)]
pub enum CollisionSet<'a> {
    /// From a key table.
    Listed {
        /// The union.
        union: &'a Union<'a>,
        /// The table's slots, grouped by key.
        slots: &'a [Slot],
        /// Where the key's slots start in them.
        start: u32,
        /// Where they end (exclusive).
        end: u32,
    },
    /// Found by walking a union's operations (unions without a table).
    Scanned {
        /// The union.
        union: &'a Union<'a>,
        /// The key.
        key: &'a str,
    },
}

/// Runs `$body` for each operation declaring a collision set's key, in operation order,
/// naming the operation's index and its field: [`Members`]' walk, written out for the
/// writers that run it for every field of a union (a hint names each operation taking its
/// key), because constant evaluation pays for the call each step of an iterator is. The
/// body must not `continue` (a listed set would not advance); `return` is fine.
macro_rules! for_each_occurrence {
    ($set:expr, |$variant:ident, $field:ident| $body:block) => {{
        match $set {
            $crate::union::CollisionSet::Listed {
                union,
                slots,
                start,
                end,
            } => {
                let mut at = start as usize;
                while at < end as usize {
                    let slot = slots[at];
                    at += 1;
                    let $variant = slot.variant as usize;
                    let $field = &union.variants[$variant].object.fields[slot.field as usize];
                    $body
                }
            }
            set @ $crate::union::CollisionSet::Scanned { .. } => {
                let mut members = set.members();
                while let Some(occurrence) = members.next() {
                    let $variant = occurrence.variant as usize;
                    let $field = occurrence.field;
                    $body
                }
            }
        }
    }};
}
pub(crate) use for_each_occurrence;

/// Walks a collision set in operation order.
pub struct Members<'a> {
    set: CollisionSet<'a>,
    at: usize,
}

impl<'a> Members<'a> {
    /// The next operation declaring the key.
    pub const fn next(&mut self) -> Option<Occurrence<'a>> {
        match self.set {
            CollisionSet::Listed {
                union, slots, end, ..
            } => {
                if self.at < end as usize {
                    // `Slot::resolve`, written out: this runs for every member of every
                    // walk (a call's cost: see `const_text`).
                    let slot = slots[self.at];
                    self.at += 1;
                    let variant = &union.variants[slot.variant as usize];
                    Some(Occurrence {
                        variant: slot.variant,
                        field: &variant.object.fields[slot.field as usize],
                    })
                } else {
                    None
                }
            }
            CollisionSet::Scanned { union, key } => {
                while self.at < union.variants.len() {
                    let v = self.at;
                    self.at += 1;
                    if let Some(field) = field_named(union.variants[v].object.fields, key) {
                        return Some(Occurrence {
                            variant: v as u32,
                            field,
                        });
                    }
                }
                None
            }
        }
    }
}

impl<'a> CollisionSet<'a> {
    /// The union whose operations declare the key.
    pub const fn union(self) -> &'a Union<'a> {
        match self {
            CollisionSet::Listed { union, .. } | CollisionSet::Scanned { union, .. } => union,
        }
    }

    /// A walk over the set.
    pub const fn members(self) -> Members<'a> {
        Members {
            set: self,
            at: self.first_slot(),
        }
    }

    /// Where a walk over the set starts: a listed set's first slot in its table, read by
    /// index rather than through a subslice (`split_at` and `len` are calls, which constant
    /// evaluation charges for: see `const_text`).
    pub(crate) const fn first_slot(self) -> usize {
        match self {
            CollisionSet::Listed { start, .. } => start as usize,
            CollisionSet::Scanned { .. } => 0,
        }
    }
}

/// A union's keys in order of first appearance, each with its collision set and merge.
#[derive(Clone, Copy)]
pub struct Keys<'a> {
    union: &'a Union<'a>,
    /// Table mode: the next key index. Scan mode: the next (variant, field) position.
    key: usize,
    variant: usize,
    field: usize,
}

impl<'a> Keys<'a> {
    /// The keys of a union (from its table when it has one).
    pub const fn of(union: &'a Union<'a>) -> Keys<'a> {
        Keys {
            union,
            key: 0,
            variant: 0,
            field: 0,
        }
    }

    /// The next key with its collision set.
    pub const fn next(&mut self) -> Option<(FlatKey<'a>, CollisionSet<'a>)> {
        let union = self.union;
        if let Some(flat) = union.flat {
            if self.key >= flat.keys.len() {
                return None;
            }
            let k = self.key;
            let key = flat.keys[k];
            self.key += 1;
            let first = flat.slots[key.start as usize].resolve(union);
            let merge = key.decision.keeping(first.field.node);
            let description = match key.description {
                Described::Agreed(slot) => match slot.resolve(union).field.description {
                    Some(doc) => Described::Agreed(doc),
                    None => Described::Nowhere,
                },
                Described::Nowhere => Described::Nowhere,
                Described::Differently => Described::Differently,
            };
            let resolved = FlatKey {
                name: first.field.name,
                plain: first.field.plain,
                requirement: key.requirement,
                merge,
                description,
                listed: match flat.names {
                    Some(names) if key.named => Some(names.lists[k]),
                    _ => None,
                },
            };
            let set = CollisionSet::Listed {
                union,
                slots: flat.slots,
                start: key.start,
                end: key.start + key.count,
            };
            return Some((resolved, set));
        }
        while self.variant < union.variants.len() {
            let fields = union.variants[self.variant].object.fields;
            if self.field >= fields.len() {
                self.variant += 1;
                self.field = 0;
                continue;
            }
            let field = &fields[self.field];
            let name = field.name;
            self.field += 1;
            let mut earlier = 0;
            let mut seen = false;
            while earlier < self.variant && !seen {
                seen = field_named(union.variants[earlier].object.fields, name).is_some();
                earlier += 1;
            }
            if seen {
                continue;
            }
            let set = CollisionSet::Scanned { union, key: name };
            let mut members = set.members();
            let mut required_by = 0;
            let (mut null_matters, mut default_matters) = (false, false);
            let mut description = Described::Nowhere;
            while let Some(occurrence) = members.next() {
                let field = occurrence.field;
                if field.required {
                    required_by += 1;
                }
                if field.node.nullable {
                    null_matters |= field.required || field.defaulted;
                    default_matters |= field.defaulted;
                }
                if let Some(doc) = field.description {
                    description = description.and(doc);
                }
            }
            let key = FlatKey {
                name,
                plain: field.plain,
                requirement: Requirement::counted(
                    required_by,
                    union.variants.len(),
                    null_matters,
                    default_matters,
                ),
                merge: decide(NodeSet::of(set)),
                description,
                listed: None,
            };
            return Some((key, set));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::key_table::{BaseReason, FreeReason};
    use crate::ir::{Kind, Object, Variant, kinds};
    use crate::shape::Shape;

    fn leak<T>(value: T) -> &'static T {
        Box::leak(Box::new(value))
    }

    fn union(fields: Vec<Vec<(&'static str, &'static Node<'static>)>>) -> &'static Union<'static> {
        let variants: Vec<Variant> = fields
            .into_iter()
            .enumerate()
            .map(|(i, fields)| {
                Variant::new(
                    Box::leak(format!("v{i}").into_boxed_str()),
                    &[],
                    None,
                    leak(Object::new(
                        fields
                            .into_iter()
                            .map(|(name, node)| Field::new(name, node, false, None))
                            .collect::<Vec<_>>()
                            .leak(),
                        false,
                        None,
                    )),
                )
            })
            .collect();
        leak(Union::new("op", variants.leak(), None))
    }

    /// Three operations of integer fields, `b`, `a b` and `c a`: keys `b a c`.
    fn b_a_b_c_a() -> &'static Union<'static> {
        let int = <i64 as Shape>::SHAPE;
        union(vec![
            vec![("b", int)],
            vec![("a", int), ("b", int)],
            vec![("c", int), ("a", int)],
        ])
    }

    #[test]
    fn the_table_lists_keys_in_first_appearance_order() {
        let u = b_a_b_c_a();
        assert_eq!(total_fields(u), 5);
        let indices = key_indices::<5, 11>(u);
        assert_eq!(indices.of_field, [0, 1, 0, 2, 1]);
        assert_eq!(indices.keys, 3);
        let table = flat_table::<3, 5>(u, &indices, None);
        let names: Vec<&str> = table
            .keys
            .iter()
            .map(|k| table.slots[k.start as usize].resolve(u).field.name)
            .collect();
        assert_eq!(names, ["b", "a", "c"]);
        assert_eq!(table.keys[0].count, 2);
        let b_slots: Vec<(u32, u32)> = table.slots[..2]
            .iter()
            .map(|s| (s.variant, s.field))
            .collect();
        assert_eq!(b_slots, [(0, 0), (1, 1)]);
    }

    #[test]
    fn slots_placed_where_the_derive_says_are_the_slots_the_table_places_itself() {
        let u = b_a_b_c_a();
        let mut indices = key_indices::<5, 11>(u);
        let slots = |indices: &KeyIndices<5>| {
            let table = flat_table::<3, 5>(u, indices, None);
            let starts = table.keys.map(|key| (key.start, key.count));
            (starts, table.slots.map(|slot| (slot.variant, slot.field)))
        };
        let placed_here = slots(&indices);
        assert_eq!(placed_here.1, [(0, 0), (1, 1), (1, 0), (2, 1), (2, 0)]);
        // The derive's layout of the same key indices (`b a b c a`).
        indices.positions = &[0, 2, 1, 4, 3];
        assert_eq!(slots(&indices), placed_here);
    }

    #[test]
    fn the_derive_lists_name_a_key_only_where_its_fields_are_required_as_expected() {
        use crate::ir::key_table::NameLists;
        let int = <i64 as Shape>::SHAPE;
        let maybe = <Option<i64> as Shape>::SHAPE;
        // Fields in order: v0.a, v0.b, v1.a (optional), v1.b.
        let u = union(vec![
            vec![("a", int), ("b", int)],
            vec![("a", maybe), ("b", int)],
        ]);
        let indices = key_indices::<4, 9>(u);
        let named = |required: &[u64]| {
            let names = NameLists {
                required,
                lists: &["v0", "v0 | v1"],
                operations: "v0; v1",
                names: "\"v0\",\"v1\"",
            };
            let table = flat_table::<2, 4>(u, &indices, Some(&names));
            table.keys.map(|key| key.named)
        };
        assert_eq!(named(&[0b1011]), [true, true]);
        // Expected required, found optional: `a` is written name by name.
        assert_eq!(named(&[0b1111]), [false, true]);
        // Expected optional, found required: `b` is written name by name.
        assert_eq!(named(&[0b0011]), [true, false]);
        // Without lists, or with too few bits for the fields, no key is named.
        assert_eq!(named(&[]), [false, false]);
        let table = flat_table::<2, 4>(u, &indices, None);
        assert_eq!(table.keys.map(|key| key.named), [false, false]);
    }

    #[test]
    fn the_collision_rules_skip_a_field_the_derive_says_repeats_an_earlier_one() {
        let int = <i64 as Shape>::SHAPE;
        let text = <String as Shape>::SHAPE;
        // Fields in order: v0.x, v1.x, v2.x; the last two are told to repeat the first.
        let u = union(vec![vec![("x", int)], vec![("x", int)], vec![("x", text)]]);
        let mut indices = key_indices::<3, 7>(u);
        let decided = |indices: &KeyIndices<3>| {
            let table = flat_table::<1, 3>(u, indices, None);
            let repeats = table.slots.map(|slot| slot.repeats);
            let key = table.keys[0];
            (repeats, key.count, key.requirement.by_every, key.decision)
        };
        let (repeats, count, by_every, decision) = decided(&indices);
        assert_eq!(repeats, [false, false, false]);
        assert!(matches!(decision, Merge::Base { .. }), "{decision:?}");
        assert!((count, by_every) == (3, true));
        // Told (wrongly, here) that the string repeats the integer, the rules never look at
        // it: proof that a repeated field costs a test, not a walk. Every field still counts.
        indices.repeats = &[0b110];
        let (repeats, count, by_every, decision) = decided(&indices);
        assert_eq!(repeats, [false, true, true]);
        assert!(matches!(decision, Merge::Keep(())), "{decision:?}");
        assert!((count, by_every) == (3, true));
    }

    #[test]
    fn a_check_hidden_inside_counts_where_the_kinds_agree() {
        let text = <String as Shape>::SHAPE;
        let trimmed = leak(
            crate::ir::attributes::hidden(text, stitch_rules::Attribute::Trim, "x")
                .expect("a string trims"),
        );
        let hiding = leak(Node::of(Kind::Array(trimmed, crate::ir::ArrayRules::NONE)));
        let plain = <Vec<String> as Shape>::SHAPE;
        let decide_x = |nodes: Vec<&'static Node<'static>>| {
            let u = union(nodes.into_iter().map(|n| vec![("x", n)]).collect());
            decide(NodeSet::of(CollisionSet::Scanned { union: u, key: "x" }))
        };
        // The base kinds and reason two members are decided to, in either order.
        let base = |a: &'static Node<'static>, b: &'static Node<'static>| {
            [vec![a, b], vec![b, a]].map(|nodes| match decide_x(nodes) {
                Merge::Base { kinds, reason } => Some((kinds, reason)),
                _ => None,
            })
        };
        let expect = |kinds: u8, reason: BaseReason| [Some((kinds, reason)); 2];
        // One kind: what the items hide drops the hull to the base kind.
        assert_eq!(
            base(hiding, plain),
            expect(kinds::ARRAY, BaseReason::HiddenCheck)
        );
        // A branch of one kind that hides a check counts too.
        let any_of = leak(Node::of(Kind::AnyOf(leak([trimmed, text]))));
        assert_eq!(
            base(any_of, text),
            expect(kinds::STRING, BaseReason::HiddenCheck)
        );
        // Kinds that differ are said by their kinds alone, whatever the members hold; a
        // member's own hidden check is still the reason given.
        let both = kinds::ARRAY | kinds::STRING;
        assert_eq!(
            base(hiding, text),
            expect(both, BaseReason::DifferentShapes)
        );
        assert_eq!(base(trimmed, plain), expect(both, BaseReason::HiddenCheck));
    }

    #[test]
    fn decisions_follow_the_rules() {
        let int = <i64 as Shape>::SHAPE;
        let float = <f64 as Shape>::SHAPE;
        let text = <String as Shape>::SHAPE;
        let decide_x = |nodes: Vec<&'static Node<'static>>| {
            let u = union(nodes.into_iter().map(|n| vec![("x", n)]).collect());
            decide(NodeSet::of(CollisionSet::Scanned { union: u, key: "x" }))
        };
        assert!(matches!(decide_x(vec![int, int]), Merge::Keep(_)));
        assert!(matches!(
            decide_x(vec![int, float]),
            Merge::Hull {
                kinds: kinds::NUMBER
            }
        ));
        assert!(matches!(
            decide_x(vec![text, int]),
            Merge::Base {
                kinds,
                reason: BaseReason::DifferentShapes
            } if kinds == kinds::STRING | kinds::INTEGER
        ));
        let map = <std::collections::BTreeMap<String, i64> as Shape>::SHAPE;
        let object = leak(Node::of(Kind::Object(leak(Object::new(
            leak([Field::new("a", int, false, None)]),
            false,
            None,
        )))));
        assert!(matches!(
            decide_x(vec![map, object]),
            Merge::Base {
                kinds: kinds::OBJECT,
                reason: BaseReason::DifferentShapes
            }
        ));
        assert!(matches!(
            decide_x(vec![&Node::OPAQUE, int]),
            Merge::Free(FreeReason::Opaque)
        ));
        let coerced = leak(crate::ir::attributes::coerce(int, "x").expect("an integer coerces"));
        assert!(matches!(
            decide_x(vec![coerced, int]),
            Merge::Free(FreeReason::MixedHazard)
        ));
        assert!(matches!(
            decide_x(vec![coerced, coerced]),
            Merge::Base {
                reason: BaseReason::SameHazard,
                ..
            }
        ));
    }
}
