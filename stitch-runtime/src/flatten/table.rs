//! A union's key table, computed once in constant evaluation: which field is which key
//! (numbered by the shared rule, `stitch_rules::keys`), the keys in order of first
//! appearance with their collision sets, and each key's merge decided once. The generated
//! code names its sizes, so the work stays linear in the number of fields.

use stitch_rules::keys::number_keys;

use super::{CollisionSet, NodeSet, decide};
use crate::node::{Union, for_each_operation_field};
use crate::table::{FreeReason, Merge, Requirement, Slot, TableKey};

pub use stitch_rules::keys::slots_for;

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

/// Every field's key index (fields in operation order) and the number of distinct keys: the
/// one pass that hashes names. The generated code sizes the key table by `keys`.
#[derive(Clone, Copy, Debug)]
pub struct KeyIndices<const FIELDS: usize> {
    /// The key index of each field, in operation order.
    pub of_field: [u32; FIELDS],
    /// How many distinct keys the union has.
    pub keys: usize,
}

/// The key indices of a union's fields (`SLOTS` = `slots_for(FIELDS)`): the shared numbering
/// (`stitch_rules::keys`), which the derive runs natively when it knows every name.
pub const fn key_indices<const FIELDS: usize, const SLOTS: usize>(
    union: &Union,
) -> KeyIndices<FIELDS> {
    let mut names = [""; FIELDS];
    let mut at = 0;
    for_each_operation_field!(union, |_operation, _index, field| {
        names[at] = field.name;
        at += 1;
    });
    let mut of_field = [0u32; FIELDS];
    let mut slots = [0u32; SLOTS];
    let mut hashes = [0u64; FIELDS];
    let mut first = [0u32; FIELDS];
    let names = names.split_at(at).0;
    let keys = number_keys(names, &mut of_field, &mut slots, &mut hashes, &mut first);
    KeyIndices { of_field, keys }
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
    let mut null_matters = [false; KEYS];
    let mut default_matters = [false; KEYS];
    let mut at = 0;
    for_each_operation_field!(union, |_operation, _index, field| {
        let k = indices.of_field[at] as usize;
        table.keys[k].count += 1;
        if field.required {
            required_by[k] += 1;
        }
        if field.node.nullable {
            null_matters[k] |= field.required || field.defaulted;
            default_matters[k] |= field.defaulted;
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
        table.keys[k].requirement = Requirement::counted(
            required_by[k],
            union.variants.len(),
            null_matters[k],
            default_matters[k],
        );
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
        table.keys[k].decision =
            decide(NodeSet::of(CollisionSet::Listed { union, slots })).decision();
        k += 1;
    }
    table
}
