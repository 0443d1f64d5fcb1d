//! The collision rules: how a set of nodes (a key's collision set, or what its members hold
//! inside) is advertised, decided over the whole set so that the order of the operations never
//! matters.

use stitch_rules::strings::str_eq;

use super::KeyMerge;
use super::set::{NodeSet, for_each_distinct_member};
use crate::ir::key_table::{BaseReason, FreeReason, Merge};
use crate::ir::several;
use crate::ir::{Hazard, Holds, Kind, Node, Object, Tagging, checks, kinds, leaf_kinds};

/// Decides how a set of nodes is advertised (the rules in the README's table). The decision
/// depends only on the set's members, never on their order.
pub const fn decide<'a>(set: NodeSet<'a>) -> KeyMerge<'a> {
    let mut members = set.members();
    let first = match members.next() {
        Some(member) => member.node,
        None => return Merge::Free(FreeReason::Opaque),
    };
    if members.next().is_none() {
        return Merge::Keep(first);
    }
    // One pass gathers the flags every rule looks at, each member's own hidden checks
    // included (constant evaluation pays for every statement of every walk); whether hazards
    // agree, what the members hold inside, and the comparison of shapes, run afterwards,
    // only when a rule still depends on them, and stop at the first member that answers.
    let mut any_opaque = false;
    let mut any_hazard = false;
    let mut all_enums = true;
    let mut any_nullable = false;
    let mut any_hidden_check = false;
    let mut any_holder = false;
    let mut kind_bits = 0u8;
    for_each_distinct_member!(set, |member| {
        let node = member.node;
        any_opaque |= matches!(node.kind, Kind::Opaque);
        any_hazard |= !matches!(node.hazard, Hazard::None);
        all_enums &= matches!(node.kind, Kind::StringEnum(..));
        any_nullable |= node.nullable;
        any_hidden_check |= node.checks & checks::HIDDEN != 0;
        any_holder |= !matches!(node.kind, leaf_kinds!());
        kind_bits |= node.kind.json_kinds();
    });
    if any_opaque {
        return Merge::Free(FreeReason::Opaque);
    }
    // Whether the hazards agree is asked only where there is one (a second walk, rarely).
    if any_hazard && any_other_hazard(set, first.hazard) {
        return Merge::Free(FreeReason::MixedHazard);
    }
    // Nodes of different JSON kinds never have one shape (`same_shape` implies the same
    // kinds), so where the kinds differ no walk comparing shapes is needed.
    let kinds_differ = kind_bits != first.kind.json_kinds();
    if any_nullable {
        kind_bits |= kinds::NULL;
    }
    if kind_bits & kinds::NUMBER != 0 {
        kind_bits &= !kinds::INTEGER;
    }
    if any_hazard {
        return Merge::Base {
            kinds: kind_bits,
            reason: BaseReason::SameHazard,
        };
    }
    // A check hidden inside a member (an array's items, an object's fields, a branch)
    // matters where the members share one kind; where their kinds differ, the base kinds are
    // all that is said whatever they hold, so no walk goes inside them.
    if any_hidden_check
        || (any_holder && !several(kind_bits & !kinds::NULL) && any_hidden_inside(set))
    {
        return Merge::Base {
            kinds: kind_bits,
            reason: BaseReason::HiddenCheck,
        };
    }
    if all_enums {
        return Merge::StringEnum {
            nullable: any_nullable,
        };
    }
    if !kinds_differ && !any_other_shape(set, first) {
        return Merge::Keep(first);
    }
    if set.can_step() && one_shape_inside(set, kind_bits & !kinds::NULL) {
        return Merge::Hull { kinds: kind_bits };
    }
    Merge::Base {
        kinds: kind_bits,
        reason: BaseReason::DifferentShapes,
    }
}

/// Whether members of one kind (`plain`) hold their contents alike, so that what every one
/// accepts has a tighter schema than the kind alone: every scalar does; arrays when none is a
/// tuple; objects when all are maps or all have named fields.
const fn one_shape_inside(set: NodeSet<'_>, plain: u8) -> bool {
    if several(plain) || plain == 0 {
        return false;
    }
    if plain != kinds::ARRAY && plain != kinds::OBJECT {
        return !any_verbatim(set);
    }
    let (mut arrays, mut maps, mut objects, mut count) = (0, 0, 0, 0);
    let mut members = set.members();
    while let Some(member) = members.next() {
        count += 1;
        match member.node.kind {
            Kind::Array(..) => arrays += 1,
            Kind::Map(..) => maps += 1,
            Kind::Object(_) => objects += 1,
            // What a verbatim part or one of several schemas holds inside is not the IR's to
            // merge.
            Kind::Verbatim(_) | Kind::AnyOf(_) => return false,
            _ => {}
        }
    }
    arrays == count || maps == count || objects == count
}

/// Whether a member is a verbatim part of a foreign schema, whose keywords the IR cannot
/// loosen: the set is then advertised by its kinds alone.
const fn any_verbatim(set: NodeSet<'_>) -> bool {
    let mut members = set.members();
    while let Some(member) = members.next() {
        if matches!(member.node.kind, Kind::Verbatim(_) | Kind::AnyOf(_)) {
            return true;
        }
    }
    false
}

/// Whether a hidden check sits in some member, at any depth.
const fn any_hidden_inside(set: NodeSet<'_>) -> bool {
    for_each_distinct_member!(set, |member| {
        if member.node.has_hidden_check() {
            return true;
        }
    });
    false
}

/// Whether some member's hazard is not the same kind as the first member's.
const fn any_other_hazard(set: NodeSet<'_>, first: Hazard) -> bool {
    for_each_distinct_member!(set, |member| {
        if !member.node.hazard.same(first) {
            return true;
        }
    });
    false
}

/// Whether some member's shape differs from the first member's (stopping at the first that
/// does; the first itself is not compared).
const fn any_other_shape(set: NodeSet<'_>, first: &Node) -> bool {
    let mut after_first = false;
    for_each_distinct_member!(set, |member| {
        if after_first && !same_shape(member.node, first) {
            return true;
        }
        after_first = true;
    });
    false
}

/// Whether two nodes advertise the same JSON, descriptions aside.
pub const fn same_shape(a: &Node, b: &Node) -> bool {
    if a.nullable != b.nullable || a.checks != b.checks || !a.hazard.same(b.hazard) {
        return false;
    }
    match (a.kind, b.kind) {
        (Kind::Kinds(x), Kind::Kinds(y)) => x == y,
        (Kind::Boolean, Kind::Boolean) | (Kind::Any, Kind::Any) | (Kind::Opaque, Kind::Opaque) => {
            true
        }
        (Kind::Integer(_), Kind::Integer(_))
        | (Kind::Number(_), Kind::Number(_))
        | (Kind::String(_), Kind::String(_)) => a.kind.same_keywords(&b.kind),
        (Kind::StringEnum(x, ..), Kind::StringEnum(y, ..)) => same_strs(x, y),
        (Kind::Array(x, _), Kind::Array(y, _)) | (Kind::Map(x, _), Kind::Map(y, _)) => {
            a.kind.same_keywords(&b.kind) && same_shape(x, y)
        }
        (Kind::Verbatim(x), Kind::Verbatim(y)) => str_eq(x.body, y.body),
        (Kind::Tuple(x), Kind::Tuple(y)) | (Kind::AnyOf(x), Kind::AnyOf(y)) => {
            if x.len() != y.len() {
                return false;
            }
            let mut i = 0;
            while i < x.len() {
                if !same_shape(x[i], y[i]) {
                    return false;
                }
                i += 1;
            }
            true
        }
        (Kind::Object(x), Kind::Object(y)) => same_object(x, y),
        (Kind::Union(x), Kind::Union(y)) => {
            let same_tagging = match (x.tagging, y.tagging) {
                (Tagging::Internal, Tagging::Internal) | (Tagging::External, Tagging::External) => {
                    true
                }
                (Tagging::Adjacent(a), Tagging::Adjacent(b)) => str_eq(a, b),
                _ => false,
            };
            if !same_tagging || !str_eq(x.tag, y.tag) || x.variants.len() != y.variants.len() {
                return false;
            }
            let mut i = 0;
            let variant_count = x.variants.len();
            while i < variant_count {
                let (v, w) = (&x.variants[i], &y.variants[i]);
                let same_content = match (v.holds, w.holds) {
                    (Holds::Fields, Holds::Fields) | (Holds::Nothing, Holds::Nothing) => true,
                    (Holds::Value(a), Holds::Value(b)) => same_shape(a, b),
                    _ => false,
                };
                if !str_eq(v.name, w.name) || !same_content || !same_object(v.object, w.object) {
                    return false;
                }
                i += 1;
            }
            true
        }
        _ => false,
    }
}

const fn same_object(x: &Object, y: &Object) -> bool {
    if x.fields.len() != y.fields.len() || x.deny_unknown != y.deny_unknown {
        return false;
    }
    match (x.rest, y.rest) {
        (None, None) => {}
        (Some(a), Some(b)) if same_shape(a, b) => {}
        _ => return false,
    }
    let mut i = 0;
    let field_count = x.fields.len();
    while i < field_count {
        let (f, g) = (&x.fields[i], &y.fields[i]);
        if !str_eq(f.name, g.name) || f.required != g.required || !same_shape(f.node, g.node) {
            return false;
        }
        i += 1;
    }
    true
}

const fn same_strs(x: &[&str], y: &[&str]) -> bool {
    if x.len() != y.len() {
        return false;
    }
    let mut i = 0;
    let count = x.len();
    while i < count {
        if !str_eq(x[i], y[i]) {
            return false;
        }
        i += 1;
    }
    true
}
