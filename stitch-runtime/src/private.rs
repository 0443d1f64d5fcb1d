//! What the code `#[derive(Contract)]` generates names, and the two walks of a call's check
//! (which a test holds to each other and a benchmark compares), and nothing else: one path
//! for all of it, hidden, not a public API (its items change with every compile-time
//! optimisation). The constructors here take facts the derive computed at expansion (a
//! name's plainness, a description's escape, hash and summary line), which a hand-written
//! `Shape` has the public constructors compute instead.

pub use stitch_rules::Dialect;

pub use crate::call::check::{check as check_call, passes as passes_as_sent};
pub use crate::call::parse::{refine_field, refine_issue};
pub use crate::call::rejection::{Issue, JsonPointer};
pub use crate::contract::Contract;
pub use crate::guard::compile_time::{dialect_report, guard_report};
pub use crate::ir::attributes::{
    applied, catch, coerce, fallback, hidden, keyword, newtype_object, values,
};
use crate::ir::checked_field_literal;
pub use crate::ir::key_table::{Flat, NameLists};
pub use crate::ir::serde_buffer::{Buffered, unbufferable};
pub use crate::ir::serde_flatten::{
    Flattened, flatten_misfit, flattened_count, flattened_fields, with_flattened_rest,
};
pub use crate::ir::{
    Bound, Doc, Escape, Field, Hints, Holds, KeywordValue, Kind, Node, Object, QuickCheck, Tagging,
    Union, Variant,
};
pub use crate::shape::Shape;
pub use crate::text::const_text::{
    AdvertisedScratch, AdvertisedScratchOf, advertised_scratch, advertised_text, exact_text,
    keyed_advertised_text,
};
pub use crate::tool::{ContractTool, SchemaProfile};
pub use crate::union::{
    FlatTable, KeyIndices, KeyTable, flat_table, key_indices, keyed_shape, keyed_union, slots_for,
    total_fields,
};
pub use serde::de::DeserializeOwned;
pub use stitch_rules::{Attribute, Keyword};

/// A contract's tool.
pub const fn tool(
    name: &'static str,
    description: &'static str,
    input: &'static Node<'static>,
    flatten: bool,
    profile: SchemaProfile,
) -> ContractTool {
    ContractTool::new(name, description, input)
        .with_flatten(flatten)
        .with_profile(profile)
}

/// A description whose escape and hash the derive computed.
pub const fn doc<'a>(text: &'static str, escape: Escape<'a>, hash: u64) -> Doc<'a> {
    Doc::declared(text, escape, hash)
}

/// A description that needs no JSON escape, with the hash the derive computed: the common
/// case, in the fewest tokens (a documented contract writes one per field).
pub const fn plain_doc(text: &'static str, hash: u64) -> Option<Doc<'static>> {
    Some(Doc::declared(text, Escape::Plain, hash))
}

/// A description with its JSON escape and hash, computed by the derive.
pub const fn escaped_doc(
    text: &'static str,
    escaped: &'static str,
    hash: u64,
) -> Option<Doc<'static>> {
    Some(Doc::declared(text, Escape::Escaped(escaped), hash))
}

// The constructors below take and give `'static` data only, as the derive's constants are:
// a contract makes hundreds of calls, and a lifetime each call leaves to infer is work for
// rustc's borrow checker in every one.

/// A field whose name's plainness the derive decided.
pub const fn field(
    name: &'static str,
    plain: bool,
    node: &'static Node<'static>,
    has_default: bool,
    description: Option<Doc<'static>>,
) -> Field<'static> {
    Field::declared(name, plain, node, has_default, description)
}

/// A field's check at a glance (how `parse` judges its value): the derive computes it once
/// for every field of one node, as a constant beside the node, and gives it to
/// [`checked_field`] and [`bare_field`] (computed for each field, it cost a contract's
/// constant evaluation more than anything else its fields do).
pub const fn quick_check(node: &Node<'_>) -> QuickCheck {
    QuickCheck::of(node)
}

/// [`field`], with the check at a glance of its node ([`quick_check`]).
pub const fn checked_field(
    name: &'static str,
    plain: bool,
    node: &'static Node<'static>,
    has_default: bool,
    description: Option<Doc<'static>>,
    quick: QuickCheck,
) -> Field<'static> {
    Field::checked(name, plain, node, has_default, description, quick)
}

/// A field without a default or a description, with the check at a glance of its node: the
/// common field, in the fewest tokens.
pub const fn bare_field(
    name: &'static str,
    plain: bool,
    node: &'static Node<'static>,
    quick: QuickCheck,
) -> Field<'static> {
    Field::checked(name, plain, node, false, None, quick)
}

/// The fields of an object whose every field is bare ([`bare_field`]), built in one call
/// from one array literal: a call per field costs rustc a basic block, and every dataflow
/// pass over the body (borrow checking, const qualification) pays for each.
pub const fn bare_fields<const N: usize>(
    declared: [(&'static str, bool, &'static Node<'static>, QuickCheck); N],
) -> [Field<'static>; N] {
    let mut fields = [bare_field("", true, &Node::OPAQUE, QuickCheck::Walk); N];
    let mut i = 0;
    while i < N {
        let (name, plain, node, quick) = declared[i];
        fields[i] = bare_field(name, plain, node, quick);
        i += 1;
    }
    fields
}

/// A keyed union's operations as columns, where every field of every operation has its
/// node's check at a glance and no alias (the common union): every field of every operation
/// in one array (this), the objects over it ([`objects_over`]) and the operations over those
/// ([`operations_over`]), each a static of one call. rustc's passes over a static's body pay
/// for its calls, temporaries and paths, not for the length of an array literal: a 60 × 12
/// union's operations were 180 calls and 720 tuples, and are three calls. `nodes` are the
/// union's few distinct nodes with their checks at a glance, and `node_of` each field's place
/// among them (720 numbers cost rustc less than 1,440 constants' names); `escaped` lists, in
/// order, the fields whose names need a JSON escape and `defaults` those with a default (the
/// derive decided which; usually none); `descriptions` are the fields' own.
pub const fn field_columns<const N: usize>(
    names: [&'static str; N],
    escaped: &[u32],
    nodes: &[(&'static Node<'static>, QuickCheck)],
    node_of: [u32; N],
    defaults: &[u32],
    descriptions: DocColumn,
) -> [Field<'static>; N] {
    let mut fields = [bare_field("", true, &Node::OPAQUE, QuickCheck::Walk); N];
    let descriptions = descriptions.spread::<N>();
    let mut i = 0;
    while i < N {
        let (node, quick) = nodes[node_of[i] as usize];
        fields[i] = checked_field_literal!(names[i], true, node, false, descriptions[i], quick);
        i += 1;
    }
    // The few fields with an escaped name or a default, each visited once, so the loop over
    // every field reads no column of its own for them.
    let mut p = 0;
    while p < escaped.len() {
        fields[escaped[p] as usize].plain = false;
        p += 1;
    }
    p = 0;
    while p < defaults.len() {
        let at = defaults[p] as usize;
        let field = fields[at];
        fields[at] = checked_field_literal!(
            field.name,
            field.plain,
            field.node,
            true,
            field.description,
            field.quick
        );
        p += 1;
    }
    fields
}

/// Which of a column's `N` places are at the given positions: one call for the column, and
/// a loop over the (usually short) list, not a call per place.
const fn marked<const N: usize>(positions: &[u32]) -> [bool; N] {
    let mut marked = [false; N];
    let mut p = 0;
    let count = positions.len();
    while p < count {
        marked[positions[p] as usize] = true;
        p += 1;
    }
    marked
}

/// The descriptions of a column of fields or of operations, as the derive writes them:
/// the positions that have one (`at`, increasing), their texts and hashes in the same
/// order, and, for the few whose text needs a JSON escape, its index in `texts` with the
/// escaped text. Each part is one constant array, so a column's descriptions cost its
/// static's body no call or temporary each (a documented 60 × 12 union wrote 840 calls).
#[derive(Clone, Copy, Debug)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the derive's generated code builds it by struct literal"
)]
pub struct DocColumn {
    /// The positions in the column that have a description, increasing.
    pub at: &'static [u32],
    /// Their texts, one for each position.
    pub texts: &'static [&'static str],
    /// Their hashes, one for each position.
    pub hashes: &'static [u64],
    /// The index in `texts` and the escaped text of each that needs a JSON escape, in order.
    pub escaped: &'static [(u32, &'static str)],
}

impl DocColumn {
    /// A column without a description.
    pub const NONE: DocColumn = DocColumn {
        at: &[],
        texts: &[],
        hashes: &[],
        escaped: &[],
    };

    /// The description at each of the column's `N` places.
    const fn spread<const N: usize>(self) -> [Option<Doc<'static>>; N] {
        let mut descriptions = [None; N];
        let mut next_escaped = 0;
        let mut d = 0;
        let count = self.at.len();
        while d < count {
            let escape = if next_escaped < self.escaped.len()
                && self.escaped[next_escaped].0 as usize == d
            {
                next_escaped += 1;
                Escape::Escaped(self.escaped[next_escaped - 1].1)
            } else {
                Escape::Plain
            };
            descriptions[self.at[d] as usize] = Some(Doc {
                text: self.texts[d],
                escape,
                hash: self.hashes[d],
            });
            d += 1;
        }
        descriptions
    }
}

/// The objects of a column of fields ([`field_columns`]): the first `counts[0]` fields
/// are the first object's, and so on.
pub const fn objects_over<const N: usize>(
    mut fields: &'static [Field<'static>],
    counts: [u32; N],
    deny_unknown: bool,
) -> [Object<'static>; N] {
    let mut objects = [Object::EMPTY; N];
    let mut i = 0;
    while i < N {
        let (own, rest) = fields.split_at(counts[i] as usize);
        objects[i] = Object::new(own, deny_unknown, None);
        fields = rest;
        i += 1;
    }
    objects
}

/// The operations over a column of objects ([`objects_over`]), one each: `escaped` lists,
/// in order, the operations whose names need a JSON escape; `descriptions` and `summaries`
/// are the operations' own.
pub const fn operations_over<const N: usize>(
    names: [&'static str; N],
    escaped: &[u32],
    descriptions: DocColumn,
    summaries: DocColumn,
    objects: &'static [Object<'static>; N],
) -> [Variant<'static>; N] {
    let mut variants = [Variant::declared("", true, &[], None, None, &Object::EMPTY); N];
    let escaped = marked::<N>(escaped);
    let descriptions = descriptions.spread::<N>();
    let summaries = summaries.spread::<N>();
    let mut i = 0;
    while i < N {
        variants[i] = Variant::declared(
            names[i],
            !escaped[i],
            &[],
            descriptions[i],
            summaries[i],
            &objects[i],
        );
        i += 1;
    }
    variants
}

/// An object of the fields the derive wrote.
pub const fn object(
    fields: &'static [Field<'static>],
    deny_unknown: bool,
    description: Option<Doc<'static>>,
) -> Object<'static> {
    Object::new(fields, deny_unknown, description)
}

/// An operation whose name's plainness and summary line the derive found.
pub const fn variant(
    name: &'static str,
    plain: bool,
    aliases: &'static [&'static str],
    description: Option<Doc<'static>>,
    summary: Option<Doc<'static>>,
    object: &'static Object<'static>,
) -> Variant<'static> {
    Variant::declared(name, plain, aliases, description, summary, object)
}

/// A union with the key table the derive's constants computed.
pub const fn with_key_table<'a>(union: Union<'a>, flat: &'static Flat<'static>) -> Union<'a> {
    union.with_flat(flat)
}
