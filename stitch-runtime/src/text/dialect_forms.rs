//! Dialects: the advertised schema as each kind of client takes it. One contract, one IR and
//! one set of collision rules serve every client; what differs is how the flat object says
//! `null`, an optional key, a key whose operations disagree on its kind, a free value, and the
//! keywords a client does not take (the keyword table's, in `stitch_rules`). The renderer asks
//! this module at each of those points, the guard asks the same questions to report what a
//! dialect cannot say, and `parse` reads a strict client's `null`s as absence
//! (`Dialect::OpenAiStrict`).

use crate::ir::several;
use stitch_rules::Dialect;

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
pub(crate) const fn null(dialect: Dialect, nullable: bool, presence: Requirement) -> Null {
    match dialect {
        Dialect::Mcp => {
            if nullable {
                Null::InType
            } else {
                Null::No
            }
        }
        // Omission says what `null` says, except where it matters (the guard reports it).
        Dialect::Portable => Null::No,
        // Every key is sent; one that may be omitted is sent as `null`.
        Dialect::OpenAiStrict => {
            if nullable || !presence.by_every {
                Null::InType
            } else {
                Null::No
            }
        }
        Dialect::AnthropicStrict => {
            if nullable && presence.null_matters {
                Null::AnyOf
            } else {
                Null::No
            }
        }
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
const CLOSED_REST: &str = "strict mode closes every object, so the keys of its flattened map cannot be advertised: it is advertised with its named fields only";
const CLOSED_OBJECT: &str = "strict mode closes every object, and its operations declare different objects here: it is advertised as an empty object";
const OPEN_ITEMS: &str = "its operations declare different arrays here, so its items have no type: they are advertised as `{}`, which clients without `type` arrays cannot always read";
const OPEN_OBJECT: &str = "its operations declare different objects here, so its keys have no type: it is advertised as an object of any keys";
const VERBATIM: &str = "its foreign schema says what stitch cannot rebuild (a `not`, a number `enum`, a recursive `$ref`, a union without a discriminator, ...): it is advertised as it was written, which this dialect may not take";
const SCALAR_ITEMS: &str = "strict mode needs a type on every array's items, and its operations declare different arrays here: its items are advertised as strings, numbers, booleans or null";

/// What the dialect cannot say of a property required by `presence`, and how the renderer
/// advertises it instead: the guard's finding. (Each case names the branch of the renderer
/// that writes it.)
pub(crate) const fn loss(
    dialect: Dialect,
    form: Form<'_>,
    presence: Requirement,
) -> Option<&'static str> {
    let strict = dialect.is_strict();
    let portable = matches!(dialect, Dialect::Portable);
    if matches!(dialect, Dialect::OpenAiStrict) && presence.default_matters {
        return Some(DEFAULT_UNREACHABLE);
    }
    match form {
        Form::Node(Node {
            kind: Kind::Kinds(kind_bits),
            nullable,
            ..
        }) => {
            let null = if *nullable { kinds::NULL } else { 0 };
            loss(dialect, Form::Base(*kind_bits | null), presence)
        }
        Form::Node(node) => {
            if portable && node.nullable && presence.null_matters {
                return Some(NULL_REQUIRED);
            }
            match node.kind {
                Kind::Any if portable => Some(ANY_VALUE),
                Kind::Any if strict => Some(JSON_TEXT),
                Kind::Opaque if strict => Some(SCALARS),
                Kind::Object(object) if strict && object.rest.is_some() => Some(CLOSED_REST),
                Kind::Verbatim(_) if !matches!(dialect, Dialect::Mcp) => Some(VERBATIM),
                _ => None,
            }
        }
        Form::Enum { nullable } => {
            if portable && nullable && presence.null_matters {
                Some(NULL_REQUIRED)
            } else {
                None
            }
        }
        Form::Base(kind_bits) => {
            let plain = kind_bits & !kinds::NULL;
            if portable && several(plain) {
                Some(KINDS)
            } else if portable && kind_bits & kinds::NULL != 0 && presence.null_matters {
                Some(NULL_REQUIRED)
            } else if portable && plain == kinds::ARRAY {
                Some(OPEN_ITEMS)
            } else if portable && plain == kinds::OBJECT {
                Some(OPEN_OBJECT)
            } else if strict && plain & kinds::OBJECT != 0 {
                Some(CLOSED_OBJECT)
            } else if strict && plain & kinds::ARRAY != 0 {
                Some(SCALAR_ITEMS)
            } else {
                None
            }
        }
        Form::Free if strict => Some(SCALARS),
        Form::Free => None,
    }
}

/// Where a foreign value several schemas describe (`anyOf`) is shown to a client that takes
/// neither `anyOf` nor `type` arrays (`portable`), and what its branches meet keeps no kind
/// (several base kinds, or none): the branch shown in its place, the first that is an object
/// (an object, a union of operations, a map), with every branch's kind said in its
/// description. The structure a model must send stays typed (Notion's page parent is an object
/// of typed keys, or a string); the other kinds are left to the description, and the guard
/// reports them ([`ONE_BRANCH`]). `None` where the merge is shown.
pub(crate) const fn shown_branch(
    dialect: Dialect,
    branches: &[&Node<'_>],
    merge: &KeyMerge<'_>,
) -> Option<usize> {
    if !matches!(dialect, Dialect::Portable) {
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

/// What the guard says where [`shown_branch`] shows one branch of several.
pub(crate) const ONE_BRANCH: &str = "its schemas are of different kinds, which one type cannot name without `anyOf` or a `type` array: it is advertised as its object branch, every kind named in its description";
