//! What a dialect's row (`stitch_rules::DIALECTS`) means where a rule needs more than one of
//! its fields: how a property's `null` is said, what the dialect cannot say of a property (the
//! guard's finding, named after the branch of the renderer that writes it instead), and which
//! branch of a foreign `anyOf` a dialect that merges them shows. The renderer and the guard's
//! walk both ask here, so the guard judges the schema that is sent.

use crate::ir::several;
use stitch_rules::{AnyOf, DialectRules, FreeValues, NullSaid, Omitted, SeveralKinds};

use crate::ir::key_table::{Merge, Requirement};
use crate::ir::{Kind, Node, kinds};
use crate::union::KeyMerge;

/// How a property's `null` is advertised.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Null {
    /// Not at all.
    No,
    /// In its `type` (and its `enum`).
    InType,
    /// As `anyOf` of the type and `null` (in its `enum`, for an enum).
    AnyOf,
}

/// How a property accepting `null` (`nullable`), required by `presence`, shows it.
pub(crate) const fn null(rules: &DialectRules, nullable: bool, presence: Requirement) -> Null {
    let said = match rules.null {
        NullSaid::InType => nullable,
        NullSaid::BranchWhereItMatters => {
            if nullable && presence.null_matters {
                return Null::AnyOf;
            }
            false
        }
        // Omission says what `null` says, except where it matters (the guard reports it).
        NullSaid::Absence => false,
    };
    // Every key is sent; one that may be omitted is sent as `null`.
    let omittable = matches!(rules.omitted, Omitted::SentAsNull) && !presence.by_every;
    if said || omittable {
        Null::InType
    } else {
        Null::No
    }
}

/// A property as the dialect rules judge it: a node, or a flattened key's merge.
#[derive(Clone, Copy)]
pub(crate) enum Form<'a> {
    /// A node advertised as it is (or a hull, what it holds inside judged on its own).
    Node(&'a Node<'a>),
    /// The union of the operations' string enums.
    Enum { nullable: bool },
    /// The base kinds only (bits of [`kinds`]).
    Base(u8),
    /// `{}`: no honest type.
    Free,
}

const NULL_REQUIRED: &str = "it may be `null` where leaving it out means something else (it cannot be left out, or its default is not `None`), and this dialect cannot say `null` without a `type` array: it is advertised without `null` (parse still accepts `null`)";
const DEFAULT_UNREACHABLE: &str = "strict mode sends every key, so `null` and leaving the key out cannot both be asked for, and here they differ (its default is not `null`): a contract reads the `null` as `None`, a foreign schema as the default, unless its description gives `null` a meaning";
const ANY_VALUE: &str = "it holds any JSON value, which one type cannot name without a `type` array: it is advertised as `{}`";
const KINDS: &str = "its operations declare it with different kinds, which one type cannot name without a `type` array: it is advertised as `{}`, its kinds in its description";
const SCALARS: &str = "strict mode needs a type on every property, and no type fits this free or opaque value: it is advertised as a string, number, boolean or null";
const JSON_TEXT: &str = "strict mode needs a type on every property, and no type fits a free value: it is advertised as a string, number, boolean or null, and an object or array is sent as its JSON text (read back before the tool sees it), which the model must be told to write";
const CLOSED_REST: &str = "strict mode closes every object, so the keys of its flattened map cannot be advertised: it is advertised with its named fields only, and its description says the client cannot send others";
const CLOSED_OBJECT: &str = "strict mode closes every object, and its operations declare different objects here: it is advertised as an empty object";
const OPEN_ITEMS: &str = "its operations declare different arrays here, so its items have no type: they are advertised as `{}`, which clients without `type` arrays cannot always read";
const OPEN_OBJECT: &str = "its operations declare different objects here, so its keys have no type: it is advertised as an object of any keys";
const VERBATIM: &str = "its foreign schema says what stitch cannot rebuild (a `not`, a number `enum`, a recursive `$ref`, a union without a discriminator, ...): it is advertised as it was written, which this dialect may not take";
const SCALAR_ITEMS: &str = "strict mode needs a type on every array's items, and its operations declare different arrays here: its items are advertised as strings, numbers, booleans or null";

/// What the dialect cannot say of a property required by `presence`, and how the renderer
/// advertises it instead: the guard's finding. (Each case names the branch of the renderer
/// that writes it.)
pub(crate) const fn loss(
    rules: &DialectRules,
    form: Form<'_>,
    presence: Requirement,
) -> Option<&'static str> {
    let closed = rules.objects_closed;
    let json_text = matches!(rules.free, FreeValues::JsonText);
    let described = matches!(rules.kinds, SeveralKinds::Described);
    let absence = matches!(rules.null, NullSaid::Absence);
    if matches!(rules.omitted, Omitted::SentAsNull) && presence.default_matters {
        return Some(DEFAULT_UNREACHABLE);
    }
    match form {
        Form::Node(Node {
            kind: Kind::Kinds(kind_bits),
            nullable,
            ..
        }) => {
            let null = if *nullable { kinds::NULL } else { 0 };
            loss(rules, Form::Base(*kind_bits | null), presence)
        }
        Form::Node(node) => {
            if absence && node.nullable && presence.null_matters {
                return Some(NULL_REQUIRED);
            }
            match node.kind {
                Kind::Any if matches!(rules.free, FreeValues::Untyped) => Some(ANY_VALUE),
                Kind::Any if json_text => Some(JSON_TEXT),
                Kind::Opaque if json_text => Some(SCALARS),
                Kind::Object(object) if closed && object.rest.is_some() => Some(CLOSED_REST),
                Kind::Verbatim(_) if !rules.whole_json_schema => Some(VERBATIM),
                _ => None,
            }
        }
        Form::Enum { nullable } => {
            if absence && nullable && presence.null_matters {
                Some(NULL_REQUIRED)
            } else {
                None
            }
        }
        Form::Base(kind_bits) => {
            let plain = kind_bits & !kinds::NULL;
            if described && several(plain) {
                Some(KINDS)
            } else if absence && kind_bits & kinds::NULL != 0 && presence.null_matters {
                Some(NULL_REQUIRED)
            } else if described && plain == kinds::ARRAY {
                Some(OPEN_ITEMS)
            } else if described && plain == kinds::OBJECT {
                Some(OPEN_OBJECT)
            } else if closed && plain & kinds::OBJECT != 0 {
                Some(CLOSED_OBJECT)
            } else if json_text && plain & kinds::ARRAY != 0 {
                Some(SCALAR_ITEMS)
            } else {
                None
            }
        }
        Form::Free if json_text => Some(SCALARS),
        Form::Free => None,
    }
}

/// Where a foreign value several schemas describe (`anyOf`) is shown to a client whose row
/// merges them (`AnyOf::Merged`), and what its branches meet keeps no kind
/// (several base kinds, or none): the branch shown in its place, the first that is an object
/// (an object, a union of operations, a map), with every branch's kind said in its
/// description. The structure a model must send stays typed (Notion's page parent is an object
/// of typed keys, or a string); the other kinds are left to the description, and the guard
/// reports them ([`ONE_BRANCH`]). `None` where the merge is shown.
pub(crate) const fn shown_branch(
    rules: &DialectRules,
    branches: &[&Node<'_>],
    merge: &KeyMerge<'_>,
) -> Option<usize> {
    if !matches!(rules.any_of, AnyOf::Merged) {
        return None;
    }
    match merge {
        Merge::Base {
            kinds: kind_bits, ..
        } if several(*kind_bits & !kinds::NULL) => {}
        Merge::Free(_) => {}
        _ => return None,
    }
    let mut i = 0;
    while i < branches.len() {
        if matches!(
            branches[i].kind,
            Kind::Object(_) | Kind::Union(_) | Kind::Map(..)
        ) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The kinds of a value several schemas describe (`anyOf`) that is one value of several
/// scalar kinds said alike by a `type` array: each branch a boolean, a number or a string,
/// none nullable, no two of one class (an integer and a number would both say `minimum`),
/// and at most one with keywords (each keyword constrains its own kind only, so the branches'
/// keywords stand together beside one `type` array and say what the `anyOf` said; the one
/// branch's moved keywords are what a description notes). A decimal, `"9.99"` or `9.99`, is
/// `{"type": ["string", "number"], "pattern": ...}`. `None` for any other `anyOf`.
pub(crate) const fn scalar_union(branches: &[&Node<'_>]) -> Option<u8> {
    let mut kind_bits = 0;
    let mut with_keywords = 0;
    let mut i = 0;
    while i < branches.len() {
        let branch = branches[i];
        let class = match branch.kind {
            Kind::Boolean => kinds::BOOLEAN,
            Kind::Integer(_) | Kind::Number(_) => kinds::INTEGER | kinds::NUMBER,
            Kind::String(_) => kinds::STRING,
            _ => return None,
        };
        if branch.nullable || kind_bits & class != 0 {
            return None;
        }
        kind_bits |= branch.kind.json_kinds();
        if keywords_of(branches[i]).is_some() {
            with_keywords += 1;
        }
        i += 1;
    }
    if with_keywords > 1 || branches.len() < 2 {
        return None;
    }
    Some(kind_bits)
}

/// The branch of a [`scalar_union`] that has keywords, if one has.
pub(crate) const fn keywords_of<'a>(node: &'a Node<'a>) -> Option<&'a Kind<'a>> {
    let slots = node.kind.keyword_slots();
    let mut i = 0;
    while i < slots.keywords.len() {
        if slots.values[i].is_some() {
            return Some(&node.kind);
        }
        i += 1;
    }
    None
}

/// What the guard says where [`shown_branch`] shows one branch of several.
pub(crate) const ONE_BRANCH: &str = "its schemas are of different kinds, which one type cannot name without `anyOf` or a `type` array: it is advertised as its object branch, every kind named in its description";

/// Whether a value several schemas describe is one number in one of several ranges (a signed
/// non-zero integer: below zero or above it): a dialect that merges them says the range that
/// holds them all, which takes values none does, so its description names each range.
pub(crate) const fn numeric_ranges(branches: &[&Node<'_>]) -> bool {
    let mut i = 0;
    while i < branches.len() {
        if !matches!(branches[i].kind, Kind::Integer(_) | Kind::Number(_)) {
            return false;
        }
        i += 1;
    }
    branches.len() > 1
}

/// What the guard says where a dialect merges a number's ranges (`numeric_ranges`).
pub(crate) const RANGES: &str = "it is a number in one of several ranges, which this dialect merges into one: it is advertised as the range that holds them all, each range named in its description";

/// What the guard says where a dialect that takes `anyOf` only alone on its node
/// (`AnyOf::Alone`) leaves out a foreign `anyOf`'s description.
pub(crate) const ALONE: &str = "this dialect takes `anyOf` only alone on its node, so its description is left out (each branch keeps its own)";
