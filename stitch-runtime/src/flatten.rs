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

use crate::node::{Field, Hazard, Kind, Node, Union, for_each_operation_field, kinds};
use crate::strings::{hash, str_eq};
use crate::table::{BaseReason, Decision, FreeReason, Merge, Requirement, Slot, TableKey};

/// One key of a flattened union, as the renderer and the guard see it.
#[derive(Clone, Copy, Debug)]
pub struct FlatKey {
    /// The key.
    pub name: &'static str,
    /// Whether the key needs no JSON escape (see [`crate::node::Field::plain`]).
    pub plain: bool,
    /// Which operations require it.
    pub requirement: Requirement,
    /// How it is advertised.
    pub merge: KeyMerge,
}

/// One operation declaring a key.
#[derive(Clone, Copy, Debug)]
pub struct Occurrence {
    /// The operation's index in the union.
    pub variant: u32,
    /// The operation's field.
    pub field: &'static Field,
}

/// How a key is advertised, with the node it keeps.
pub type KeyMerge = Merge<&'static Node>;

impl KeyMerge {
    /// The decision without the node it keeps.
    const fn decision(self) -> Decision {
        match self {
            Merge::Keep(_) => Merge::Keep(()),
            Merge::StringEnum { nullable } => Merge::StringEnum { nullable },
            Merge::Base { kinds, reason } => Merge::Base { kinds, reason },
            Merge::Free(reason) => Merge::Free(reason),
        }
    }
}

impl Decision {
    /// The decision with the node it keeps.
    const fn keeping(self, node: &'static Node) -> KeyMerge {
        match self {
            Merge::Keep(()) => Merge::Keep(node),
            Merge::StringEnum { nullable } => Merge::StringEnum { nullable },
            Merge::Base { kinds, reason } => Merge::Base { kinds, reason },
            Merge::Free(reason) => Merge::Free(reason),
        }
    }
}

impl Slot {
    const fn resolve(self, union: &'static Union) -> Occurrence {
        Occurrence {
            variant: self.variant,
            field: &union.variants[self.variant as usize].object.fields[self.field as usize],
        }
    }
}

/// A union's key table with sizes known in constant evaluation.
#[derive(Clone, Copy, Debug)]
pub struct FlatTable<const KEYS: usize, const FIELDS: usize> {
    /// Keys in order of first appearance.
    pub keys: [TableKey; KEYS],
    /// Slots grouped by key.
    pub slots: [Slot; FIELDS],
}

const EMPTY_KEY: TableKey = TableKey {
    start: 0,
    count: 0,
    requirement: Requirement::NONE,
    decision: Merge::Free(FreeReason::Opaque),
};

const EMPTY_SLOT: Slot = Slot {
    variant: 0,
    field: 0,
};

/// The number of fields over all operations of a union.
pub const fn total_fields(union: &Union) -> usize {
    let mut total = 0;
    let mut v = 0;
    let variant_count = union.variants.len();
    while v < variant_count {
        total += union.variants[v].object.fields.len();
        v += 1;
    }
    total
}

/// The size of the hash table used while building a table for `fields` fields.
pub const fn slots_for(fields: usize) -> usize {
    fields * 2 + 1
}

/// Assigns every field a key index, in order of first appearance, with an open-addressing
/// hash table of `SLOTS` slots. It stores integers only: constant evaluation handles arrays
/// of references (with their provenance) far more slowly than arrays of numbers.
struct KeyIndex<const SLOTS: usize> {
    /// Slot → key index + 1 (0 is empty).
    slots: [u32; SLOTS],
    /// Key index → its name's hash.
    hashes: [u64; SLOTS],
    /// Key index → the first field with that name, as (operation, field).
    first: [(u32, u32); SLOTS],
    count: usize,
}

impl<const SLOTS: usize> KeyIndex<SLOTS> {
    const fn new() -> Self {
        KeyIndex {
            slots: [0; SLOTS],
            hashes: [0; SLOTS],
            first: [(0, 0); SLOTS],
            count: 0,
        }
    }

    /// The key index of field `field` of operation `variant`, adding its name when new.
    const fn index_of(&mut self, union: &Union, variant: usize, field: usize) -> usize {
        let name = union.variants[variant].object.fields[field].name;
        let hashed = hash(name);
        let mut slot = (hashed % SLOTS as u64) as usize;
        loop {
            let entry = self.slots[slot] as usize;
            if entry == 0 {
                let key = self.count;
                self.slots[slot] = key as u32 + 1;
                self.hashes[key] = hashed;
                self.first[key] = (variant as u32, field as u32);
                self.count += 1;
                return key;
            }
            let key = entry - 1;
            if self.hashes[key] == hashed {
                let (v, f) = self.first[key];
                if str_eq(
                    union.variants[v as usize].object.fields[f as usize].name,
                    name,
                ) {
                    return key;
                }
            }
            slot = (slot + 1) % SLOTS;
        }
    }
}

/// Every field's key index (fields in operation order) and the number of distinct keys: the
/// one pass that hashes names. The generated code sizes the key table by `keys`.
#[derive(Clone, Copy, Debug)]
pub struct KeyIndices<const FIELDS: usize> {
    /// The key index of each field, in operation order.
    pub of_field: [u32; FIELDS],
    /// How many distinct keys the union has.
    pub keys: usize,
}

/// The key indices of a union's fields (`SLOTS` = `slots_for(FIELDS)`).
pub const fn key_indices<const FIELDS: usize, const SLOTS: usize>(
    union: &Union,
) -> KeyIndices<FIELDS> {
    let mut index = KeyIndex::<SLOTS>::new();
    let mut of_field = [0u32; FIELDS];
    let mut at = 0;
    for_each_operation_field!(union, |operation, field| {
        of_field[at] = index.index_of(union, operation, field) as u32;
        at += 1;
    });
    KeyIndices {
        of_field,
        keys: index.count,
    }
}

/// Builds a union's key table from its key indices: keys in order of first appearance,
/// occurrences grouped by key, and every key's merge decided once.
pub const fn flat_table<const KEYS: usize, const FIELDS: usize>(
    union: &'static Union,
    indices: &KeyIndices<FIELDS>,
) -> FlatTable<KEYS, FIELDS> {
    let mut table = FlatTable {
        keys: [EMPTY_KEY; KEYS],
        slots: [EMPTY_SLOT; FIELDS],
    };
    // Pass 1: count occurrences per key and how many operations require it.
    let mut required_by = [0u32; KEYS];
    let mut at = 0;
    for_each_operation_field!(union, |_operation, _index, field| {
        let k = indices.of_field[at] as usize;
        table.keys[k].count += 1;
        if field.required {
            required_by[k] += 1;
        }
        at += 1;
    });
    assert!(
        at == FIELDS,
        "stitch: the key indices do not cover the union's fields (a bug in stitch-derive)"
    );
    // Pass 2: prefix sums give each key its place; fill occurrences in operation order.
    let mut start = 0;
    let mut k = 0;
    while k < KEYS {
        table.keys[k].start = start;
        start += table.keys[k].count;
        table.keys[k].requirement = Requirement::counted(required_by[k], union.variants.len());
        k += 1;
    }
    let mut filled = [0u32; KEYS];
    at = 0;
    for_each_operation_field!(union, |operation, field| {
        let k = indices.of_field[at] as usize;
        let slot = (table.keys[k].start + filled[k]) as usize;
        table.slots[slot] = Slot {
            variant: operation as u32,
            field: field as u32,
        };
        filled[k] += 1;
        at += 1;
    });
    // Pass 3: decide every key once.
    k = 0;
    while k < KEYS {
        let key = table.keys[k];
        let slots = table
            .slots
            .split_at(key.start as usize)
            .1
            .split_at(key.count as usize)
            .0;
        table.keys[k].decision = decide(CollisionSet::Listed { union, slots }).decision();
        k += 1;
    }
    table
}

/// The operations declaring one key.
#[derive(Clone, Copy, Debug)]
pub enum CollisionSet<'a> {
    /// From a key table.
    Listed {
        /// The union.
        union: &'static Union,
        /// Its slots for the key.
        slots: &'a [Slot],
    },
    /// Found by walking a union's operations (unions without a table).
    Scanned {
        /// The union.
        union: &'static Union,
        /// The key.
        key: &'static str,
    },
}

/// Walks a collision set in operation order.
pub struct Members<'a> {
    set: CollisionSet<'a>,
    at: usize,
}

impl<'a> Members<'a> {
    /// The next operation declaring the key.
    pub const fn next(&mut self) -> Option<Occurrence> {
        match self.set {
            CollisionSet::Listed { union, slots } => {
                if self.at < slots.len() {
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
    /// A walk over the set.
    pub const fn members(self) -> Members<'a> {
        Members { set: self, at: 0 }
    }
}

const fn field_named(fields: &'static [Field], key: &str) -> Option<&'static Field> {
    let mut f = 0;
    let field_count = fields.len();
    while f < field_count {
        if str_eq(fields[f].name, key) {
            return Some(&fields[f]);
        }
        f += 1;
    }
    None
}

/// A union's keys in order of first appearance, each with its collision set and merge.
#[derive(Clone, Copy)]
pub struct Keys {
    union: &'static Union,
    /// Table mode: the next key index. Scan mode: the next (variant, field) position.
    key: usize,
    variant: usize,
    field: usize,
}

impl Keys {
    /// The keys of a union (from its table when it has one).
    pub const fn of(union: &'static Union) -> Keys {
        Keys {
            union,
            key: 0,
            variant: 0,
            field: 0,
        }
    }

    /// The next key with its collision set.
    pub const fn next(&mut self) -> Option<(FlatKey, CollisionSet<'static>)> {
        let union = self.union;
        if let Some(flat) = union.flat {
            if self.key >= flat.keys.len() {
                return None;
            }
            let key = flat.keys[self.key];
            self.key += 1;
            let slots = flat
                .slots
                .split_at(key.start as usize)
                .1
                .split_at(key.count as usize)
                .0;
            let first = slots[0].resolve(union);
            let merge = key.decision.keeping(first.field.node);
            let resolved = FlatKey {
                name: first.field.name,
                plain: first.field.plain,
                requirement: key.requirement,
                merge,
            };
            return Some((resolved, CollisionSet::Listed { union, slots }));
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
            while let Some(occurrence) = members.next() {
                if occurrence.field.required {
                    required_by += 1;
                }
            }
            let key = FlatKey {
                name,
                plain: field.plain,
                requirement: Requirement::counted(required_by, union.variants.len()),
                merge: decide(set),
            };
            return Some((key, set));
        }
        None
    }
}

/// Decides how a key's collision set is advertised (the rules in the README's table). The
/// decision depends only
/// on the set's members, never on their order.
pub const fn decide(set: CollisionSet<'_>) -> KeyMerge {
    let mut members = set.members();
    let first = match members.next() {
        Some(occurrence) => occurrence.field.node,
        None => return Merge::Free(FreeReason::Opaque),
    };
    if members.next().is_none() {
        return Merge::Keep(first);
    }
    // One pass gathers the flags every rule looks at; the deep comparisons (hidden checks,
    // same shape) run afterwards, only when a rule still depends on them, and stop at the
    // first member that settles them.
    let mut any_opaque = false;
    let mut any_hazard = false;
    let mut same_hazard = true;
    let mut all_enums = true;
    let mut any_nullable = false;
    let mut kind_bits = 0u8;
    let mut members = set.members();
    while let Some(occurrence) = members.next() {
        let node = occurrence.field.node;
        any_opaque |= matches!(node.kind, Kind::Opaque);
        any_hazard |= !matches!(node.hazard, Hazard::None);
        same_hazard &= node.hazard.same(first.hazard);
        all_enums &= matches!(node.kind, Kind::StringEnum(..));
        any_nullable |= node.nullable;
        kind_bits |= node.kind.json_kinds();
    }
    if any_opaque {
        return Merge::Free(FreeReason::Opaque);
    }
    if any_hazard && !same_hazard {
        return Merge::Free(FreeReason::MixedHazard);
    }
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
    if any_member(set, first, Test::HiddenCheck) {
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
    if !any_member(set, first, Test::OtherShape) {
        return Merge::Keep(first);
    }
    Merge::Base {
        kinds: kind_bits,
        reason: BaseReason::DifferentShapes,
    }
}

/// A deep test of one member of a collision set.
#[derive(Clone, Copy)]
enum Test {
    /// The member carries a check its schema cannot show.
    HiddenCheck,
    /// The member's shape differs from the first member's.
    OtherShape,
}

/// Whether some member of the set passes the test (stopping at the first that does).
const fn any_member(set: CollisionSet<'_>, first: &Node, test: Test) -> bool {
    let mut members = set.members();
    while let Some(occurrence) = members.next() {
        let node = occurrence.field.node;
        let passes = match test {
            Test::HiddenCheck => node.has_hidden_check(),
            Test::OtherShape => !same_shape(node, first),
        };
        if passes {
            return true;
        }
    }
    false
}

/// Whether two nodes advertise the same JSON, descriptions aside.
pub const fn same_shape(a: &Node, b: &Node) -> bool {
    if a.nullable != b.nullable || a.checks != b.checks || !a.hazard.same(b.hazard) {
        return false;
    }
    match (a.kind, b.kind) {
        (Kind::Boolean, Kind::Boolean) | (Kind::Any, Kind::Any) | (Kind::Opaque, Kind::Opaque) => {
            true
        }
        (Kind::Integer(x), Kind::Integer(y)) | (Kind::Number(x), Kind::Number(y)) => {
            same_number_rules(&x, &y)
        }
        (Kind::String(x), Kind::String(y)) => {
            opt_u64_eq(x.min_length, y.min_length)
                && opt_u64_eq(x.max_length, y.max_length)
                && crate::strings::opt_str_eq(x.pattern, y.pattern)
                && crate::strings::opt_str_eq(x.format, y.format)
        }
        (Kind::StringEnum(x, _), Kind::StringEnum(y, _)) => same_strs(x, y),
        (Kind::Array(x, rx), Kind::Array(y, ry)) => {
            opt_u64_eq(rx.min_items, ry.min_items)
                && opt_u64_eq(rx.max_items, ry.max_items)
                && rx.unique_items == ry.unique_items
                && same_shape(x, y)
        }
        (Kind::Map(x), Kind::Map(y)) => same_shape(x, y),
        (Kind::Object(x), Kind::Object(y)) => same_object(x, y),
        (Kind::Union(x), Kind::Union(y)) => {
            if !str_eq(x.tag, y.tag) || x.variants.len() != y.variants.len() {
                return false;
            }
            let mut i = 0;
            let variant_count = x.variants.len();
            while i < variant_count {
                if !str_eq(x.variants[i].name, y.variants[i].name)
                    || !same_object(x.variants[i].object, y.variants[i].object)
                {
                    return false;
                }
                i += 1;
            }
            true
        }
        _ => false,
    }
}

const fn same_object(x: &crate::node::Object, y: &crate::node::Object) -> bool {
    if x.fields.len() != y.fields.len() || x.deny_unknown != y.deny_unknown {
        return false;
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

const fn same_number_rules(x: &crate::node::NumberRules, y: &crate::node::NumberRules) -> bool {
    same_bound(x.minimum, y.minimum)
        && same_bound(x.maximum, y.maximum)
        && same_bound(x.exclusive_minimum, y.exclusive_minimum)
        && same_bound(x.exclusive_maximum, y.exclusive_maximum)
        && same_bound(x.multiple_of, y.multiple_of)
}

const fn same_bound(x: Option<crate::node::Bound>, y: Option<crate::node::Bound>) -> bool {
    match (x, y) {
        (Some(x), Some(y)) => str_eq(x.text, y.text),
        (None, None) => true,
        _ => false,
    }
}

const fn opt_u64_eq(x: Option<u64>, y: Option<u64>) -> bool {
    match (x, y) {
        (Some(x), Some(y)) => x == y,
        (None, None) => true,
        _ => false,
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::{Object, Variant};
    use crate::shape::Shape;

    fn leak<T>(value: T) -> &'static T {
        Box::leak(Box::new(value))
    }

    fn union(fields: Vec<Vec<(&'static str, &'static Node)>>) -> &'static Union {
        let variants: Vec<Variant> = fields
            .into_iter()
            .enumerate()
            .map(|(i, fields)| {
                Variant::new(
                    Box::leak(format!("v{i}").into_boxed_str()),
                    &[],
                    None,
                    leak(Object {
                        fields: fields
                            .into_iter()
                            .map(|(name, node)| Field::new(name, node, false, None))
                            .collect::<Vec<_>>()
                            .leak(),
                        deny_unknown: false,
                        description: None,
                    }),
                )
            })
            .collect();
        leak(Union::new("op", variants.leak(), None))
    }

    #[test]
    fn the_key_index_finds_every_key_once_despite_hash_collisions() {
        // Seven slots for six keys: probe sequences wrap and collide.
        let int = <i64 as Shape>::SHAPE;
        let names = ["a", "b", "c", "a", "d", "b", "e", "f"];
        let u = union(vec![names.iter().map(|name| (*name, int)).collect()]);
        let mut index = KeyIndex::<7>::new();
        let got: Vec<usize> = (0..names.len()).map(|f| index.index_of(u, 0, f)).collect();
        assert_eq!(got, [0, 1, 2, 0, 3, 1, 4, 5]);
    }

    #[test]
    fn the_table_lists_keys_in_first_appearance_order() {
        let int = <i64 as Shape>::SHAPE;
        let u = union(vec![
            vec![("b", int)],
            vec![("a", int), ("b", int)],
            vec![("c", int), ("a", int)],
        ]);
        assert_eq!(total_fields(u), 5);
        let indices = key_indices::<5, 11>(u);
        assert_eq!(indices.of_field, [0, 1, 0, 2, 1]);
        assert_eq!(indices.keys, 3);
        let table = flat_table::<3, 5>(u, &indices);
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
    fn decisions_follow_the_rules() {
        let int = <i64 as Shape>::SHAPE;
        let float = <f64 as Shape>::SHAPE;
        let text = <String as Shape>::SHAPE;
        let decide_x = |nodes: Vec<&'static Node>| {
            let u = union(nodes.into_iter().map(|n| vec![("x", n)]).collect());
            decide(CollisionSet::Scanned { union: u, key: "x" })
        };
        assert!(matches!(decide_x(vec![int, int]), Merge::Keep(_)));
        assert!(matches!(
            decide_x(vec![int, float]),
            Merge::Base {
                kinds: kinds::NUMBER,
                reason: BaseReason::DifferentShapes
            }
        ));
        assert!(matches!(
            decide_x(vec![text, int]),
            Merge::Base { kinds, .. } if kinds == kinds::STRING | kinds::INTEGER
        ));
        assert!(matches!(
            decide_x(vec![&Node::OPAQUE, int]),
            Merge::Free(FreeReason::Opaque)
        ));
        let coerced = leak(crate::attributes::coerce(int, "x").expect("an integer coerces"));
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
