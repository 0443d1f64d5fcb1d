//! A union's key table, computed once in constant evaluation: which field is which key
//! (numbered by the shared rule, `stitch_rules::keys`), the keys in order of first
//! appearance with their collision sets, and each key's merge decided once. The generated
//! code names its sizes, so the work stays linear in the number of fields.

use stitch_rules::keys::number_keys;

use super::{CollisionSet, NodeSet, decide};
use crate::Shape;
use crate::ir::key_table::{
    Described, Flat, FreeReason, Merge, NameLists, Requirement, Slot, TableKey,
};
use crate::ir::{Doc, Node, Union, for_each_operation_field};

pub use stitch_rules::keys::slots_for;

/// A union's key table with sizes known in constant evaluation.
#[derive(Clone, Copy, Debug)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub struct FlatTable<const KEYS: usize, const FIELDS: usize> {
    /// Keys in order of first appearance.
    pub keys: [TableKey; KEYS],
    /// Slots grouped by key.
    pub slots: [Slot; FIELDS],
}

/// A non-generic union's key table, as the derive implements it for a type of its own,
/// generic over a parameter it never uses, which also carries the union's shape (`Shape`,
/// whose node holds the union with [`FLAT`](Self::FLAT), made by [`keyed_union`] in a call of
/// the derive's that names the operations' static): the texts are read from that type, the
/// contract's own `Shape::SHAPE` is a call reading it ([`keyed_shape`]).
///
/// Two costs shape this. A reference to a computed constant in a constant's body is a
/// promoted, and rustc's lint of known panics evaluates a body's promoteds when it checks the
/// body, even in `cargo check` and even where nothing reads the constant; in a generic body, a
/// reference is evaluated only where the constant is, so `cargo check` of a crate that reads
/// its schemas in function bodies computes no key table at all. And rustc validates every
/// constant's value through every reference in it, into statics too: each constant holding a
/// pointer to the union's operations walks all of them again (for a 60 × 12 union, 27M of
/// rustc's instructions a constant), though not a promoted, which stops at statics. So the
/// shape is the one constant holding the operations a text reads: the union with its table
/// is a promoted inside it.
pub trait KeyTable<const KEYS: usize, const FIELDS: usize> {
    /// Its keys' hint lists, where the derive wrote them (a static: a constant referring to
    /// it is validated without them).
    const NAMES: Option<&'static NameLists<'static>>;
    /// Its key table ([`flat_table`] of the union's operations and [`NAMES`](Self::NAMES)).
    const TABLE: FlatTable<KEYS, FIELDS>;
    /// The table as the union refers to it.
    const FLAT: Flat<'static> = Flat {
        keys: &Self::TABLE.keys,
        slots: &Self::TABLE.slots,
        names: Self::NAMES,
    };
}

/// A union's operations with their key table.
pub const fn keyed_union<'a>(operations: &Union<'a>, flat: &'a Flat<'a>) -> Union<'a> {
    operations.with_flat(flat)
}

/// A key-tabled union's shape, read through a call from the type carrying its table: a
/// constant whose body names another constant is evaluated by the same lint when it is
/// checked, one whose body is a call is not (`Shape::SHAPE` of a union is this call).
pub const fn keyed_shape<T: Shape + ?Sized>() -> &'static Node<'static> {
    T::SHAPE
}

const EMPTY_KEY: TableKey = TableKey {
    start: 0,
    count: 0,
    requirement: Requirement::NONE,
    decision: Merge::Free(FreeReason::Opaque),
    description: Described::Nowhere,
    named: false,
};

const EMPTY_SLOT: Slot = Slot {
    variant: 0,
    field: 0,
    repeats: false,
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
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub struct KeyIndices<const FIELDS: usize> {
    /// The key index of each field, in operation order.
    pub of_field: [u32; FIELDS],
    /// How many distinct keys the union has.
    pub keys: usize,
    /// Which fields repeat an earlier field of their key: the same type, attributes and
    /// description, which the derive sees in their spelling (its fields' nodes are one
    /// constant per spelling), so their schemas are one. Field `i`'s bit is bit `i % 64` of
    /// word `i / 64`; empty, none does.
    pub repeats: &'static [u64],
    /// Where each field's slot goes in the table (its key's place, after the fields of its
    /// key before it), as the derive lays it out from the key indices; empty, the table
    /// lays the slots out in a pass of its own.
    pub positions: &'static [u32],
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
    KeyIndices {
        of_field,
        keys,
        repeats: &[],
        positions: &[],
    }
}

/// Builds a union's key table from its key indices: keys in order of first appearance,
/// occurrences grouped by key, and every key's merge decided once; with the derive's hint
/// lists, which keys they name right.
pub const fn flat_table<'a, const KEYS: usize, const FIELDS: usize>(
    union: &'a Union<'a>,
    indices: &KeyIndices<FIELDS>,
    names: Option<&NameLists>,
) -> FlatTable<KEYS, FIELDS> {
    let mut table = FlatTable {
        keys: [EMPTY_KEY; KEYS],
        slots: [EMPTY_SLOT; FIELDS],
    };
    let mut tallies = [KeyTally::NONE; KEYS];
    let expected = match names {
        Some(names) => names.required,
        None => &[],
    };
    let facts = FieldFacts {
        of_field: &indices.of_field,
        positions: indices.positions,
        repeats: indices.repeats,
        expected,
    };
    fill_table(
        union,
        facts,
        &mut table.keys,
        &mut table.slots,
        &mut tallies,
    );
    table
}

/// A union's key table built at run time, for a union read from a foreign document: the same
/// table the derive computes in constant evaluation, so a union of many operations is
/// flattened in time linear in its fields rather than walked once per key.
pub fn key_table<'a>(union: &'a Union<'a>) -> (Vec<TableKey>, Vec<Slot>) {
    let mut names = Vec::with_capacity(total_fields(union));
    for variant in union.variants {
        names.extend(variant.object.fields.iter().map(|field| field.name));
    }
    let (of_field, key_count) = stitch_rules::keys::numbered(&names);
    let mut keys = vec![EMPTY_KEY; key_count];
    let mut slots = vec![EMPTY_SLOT; names.len()];
    let mut tallies = vec![KeyTally::NONE; key_count];
    let facts = FieldFacts {
        of_field: &of_field,
        positions: &[],
        repeats: &[],
        expected: &[],
    };
    fill_table(union, facts, &mut keys, &mut slots, &mut tallies);
    (keys, slots)
}

/// What the first pass learns of one key.
#[derive(Clone, Copy)]
struct KeyTally<'a> {
    /// How many operations require it (then, in the second pass, how many slots are filled).
    required_by: u32,
    null_matters: bool,
    default_matters: bool,
    /// What its fields say of it, and where the first that describes it is.
    description: Described<Doc<'a>>,
    described_at: Slot,
    /// Whether some field under it is required where the derive expected otherwise.
    unexpected: bool,
}

impl KeyTally<'_> {
    const NONE: Self = KeyTally {
        required_by: 0,
        null_matters: false,
        default_matters: false,
        description: Described::Nowhere,
        described_at: EMPTY_SLOT,
        unexpected: false,
    };
}

/// What is known of a union's fields, every operation's in order, before their table is
/// filled: each one's key index, and where the derive wrote them (each empty where it did
/// not), where its slot goes, whether it repeats an earlier field of its key and whether it
/// is expected required (bit `i % 64` of word `i / 64`).
#[derive(Clone, Copy)]
struct FieldFacts<'f> {
    of_field: &'f [u32],
    positions: &'f [u32],
    repeats: &'f [u64],
    expected: &'f [u64],
}

/// Fills a key table (`keys` and `tallies` one per key, `slots` one per field) from every
/// field's key index: the one algorithm of the compile-time and the run-time table. Where
/// the fields' positions are known, each slot is filled in the first pass; else a second
/// places them. Where each field is expected required or not, a key is
/// [`named`](TableKey::named) when all its fields are as expected; else none is. A field that
/// repeats one before it is counted, and its slot marked, but not looked at again: what it
/// would say of its key, its first says.
const fn fill_table<'a>(
    union: &'a Union<'a>,
    facts: FieldFacts<'_>,
    keys: &mut [TableKey],
    slots: &mut [Slot],
    tallies: &mut [KeyTally<'a>],
) {
    // Pass 1: count occurrences per key, how many operations require it, what its fields
    // say of it, and whether they are required where the derive expected; and where the
    // slots' positions are known, fill them.
    let FieldFacts {
        of_field,
        positions,
        repeats,
        expected,
    } = facts;
    let words = slots.len().div_ceil(64);
    let expecting = expected.len() == words;
    let deduplicated = repeats.len() == words;
    let placed = positions.len() == slots.len();
    let mut at = 0;
    for_each_operation_field!(union, |operation, index, field| {
        let k = of_field[at] as usize;
        keys[k].count += 1;
        if field.required {
            tallies[k].required_by += 1;
        }
        let repeat = deduplicated && repeats[at / 64] >> (at % 64) & 1 == 1;
        if placed {
            slots[positions[at] as usize] = Slot {
                variant: operation as u32,
                field: index as u32,
                repeats: repeat,
            };
        }
        // What a field repeating an earlier one would say of its key, that one has said.
        if !repeat {
            if expecting && field.required != (expected[at / 64] >> (at % 64) & 1 == 1) {
                tallies[k].unexpected = true;
            }
            if field.node.nullable {
                tallies[k].null_matters |= field.required || field.defaulted;
                tallies[k].default_matters |= field.defaulted;
            }
            if let Some(doc) = field.description {
                if matches!(tallies[k].description, Described::Nowhere) {
                    tallies[k].described_at = Slot {
                        variant: operation as u32,
                        field: index as u32,
                        repeats: false,
                    };
                }
                tallies[k].description = tallies[k].description.and(doc);
            }
        }
        at += 1;
    });
    assert!(
        at == slots.len(),
        "stitch: the key indices do not cover the union's fields (a bug in stitch-derive)"
    );
    // Pass 2: prefix sums give each key its place; where pass 1 did not, fill occurrences
    // in operation order.
    let mut start = 0;
    let mut k = 0;
    while k < keys.len() {
        keys[k].start = start;
        start += keys[k].count;
        keys[k].requirement = Requirement::counted(
            tallies[k].required_by,
            union.variants.len(),
            tallies[k].null_matters,
            tallies[k].default_matters,
        );
        keys[k].description = match tallies[k].description {
            Described::Nowhere => Described::Nowhere,
            Described::Agreed(_) => Described::Agreed(tallies[k].described_at),
            Described::Differently => Described::Differently,
        };
        keys[k].named = expecting && !tallies[k].unexpected;
        tallies[k].required_by = 0;
        k += 1;
    }
    if !placed {
        at = 0;
        for_each_operation_field!(union, |operation, field| {
            let k = of_field[at] as usize;
            let slot = (keys[k].start + tallies[k].required_by) as usize;
            slots[slot] = Slot {
                variant: operation as u32,
                field: field as u32,
                repeats: deduplicated && repeats[at / 64] >> (at % 64) & 1 == 1,
            };
            tallies[k].required_by += 1;
            at += 1;
        });
    }
    // Pass 3: decide every key once.
    k = 0;
    while k < keys.len() {
        let key = keys[k];
        keys[k].decision = decide(NodeSet::of(CollisionSet::Listed {
            union,
            slots,
            start: key.start,
            end: key.start + key.count,
        }))
        .decision();
        k += 1;
    }
}
