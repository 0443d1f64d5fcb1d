//! A flattened union's key table, as data: which fields make each key, and how each key's
//! collision set is advertised. Built in constant evaluation by `union`, referred to by a
//! `Union`; it holds indices only, no pointer, so the constant holding
//! it is cheap for the compiler to intern and validate.

/// How a key's collision set is advertised. `Kept` is what `Keep` holds: nothing in a key
/// table ([`Decision`]), the node itself once resolved (`flatten::KeyMerge`).
#[derive(Clone, Copy, Debug)]
pub enum Merge<Kept> {
    /// Advertise this node as it is (one operation, or every operation agrees on the shape).
    Keep(Kept),
    /// One string `enum` of the union of every operation's values.
    StringEnum {
        /// Whether `null` is accepted too.
        nullable: bool,
    },
    /// One kind the operations share, each of its constraints as loose as the loosest
    /// operation's, and what they hold inside merged again by these rules: the tightest
    /// schema every operation's values meet.
    Hull {
        /// The JSON kind, with `null` when some operation accepts it (bits of `node::kinds`).
        kinds: u8,
    },
    /// The base type(s) only: the constraints cannot be advertised honestly.
    Base {
        /// The JSON kinds (bits of `node::kinds`).
        kinds: u8,
        /// Why the constraints were dropped.
        reason: BaseReason,
    },
    /// `{}`: no honest type exists.
    Free(FreeReason),
}

/// Why a collision was projected to its base type(s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseReason {
    /// The operations declare different shapes.
    DifferentShapes,
    /// A hidden check (refine, trim, case, via) sits in the set.
    HiddenCheck,
    /// Every operation carries the same hazard.
    SameHazard,
}

/// Why a collision has no honest type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreeReason {
    /// An operation declares an opaque value.
    Opaque,
    /// Some operations carry a hazard (`coerce`, `catch`) and others do not, or another one.
    MixedHazard,
}

/// A merge decision as a key table stores it, without references: `Keep` keeps the first
/// occurrence's node.
pub type Decision = Merge<()>;

/// A key as the table stores it: indices only.
#[derive(Clone, Copy, Debug)]
pub struct TableKey {
    /// Where its slots start.
    pub start: u32,
    /// How many operations declare it.
    pub count: u32,
    /// Which operations require it.
    pub requirement: Requirement,
    /// How it is advertised.
    pub decision: Decision,
    /// What its fields say of it: the slot of the first that describes it, where all that
    /// do agree.
    pub description: Described<Slot>,
    /// Whether the union's [`NameLists`] list this key's operations as its hint names them:
    /// every field under it is required exactly where the derive expected.
    pub named: bool,
}

/// What the fields making a key say of it, found once with the key rather than by a walk
/// over them wherever the key is written. `Said` is where the agreed text is: a slot in a
/// key table (which holds indices only), the description itself once resolved.
#[derive(Clone, Copy, Debug)]
pub enum Described<Said> {
    /// No field describes the key.
    Nowhere,
    /// Every field that describes it says the same.
    Agreed(Said),
    /// They word it differently: each text is written labelled by its operations.
    Differently,
}

/// An occurrence as the table stores it: the operation's index and the field's index in it.
#[derive(Clone, Copy, Debug)]
pub struct Slot {
    /// The operation's index in the union.
    pub variant: u32,
    /// The field's index in the operation's object.
    pub field: u32,
    /// Whether an earlier slot of its key holds a field of the same type, attributes and
    /// description (the derive says so, `KeyIndices::repeats`): the collision rules, which
    /// depend only on the set of a key's distinct fields, skip it.
    pub repeats: bool,
}

/// A union's key table, as slices (what a `Union` refers to).
#[derive(Clone, Copy, Debug)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub struct Flat<'a> {
    /// Keys in order of first appearance.
    pub keys: &'a [TableKey],
    /// Slots grouped by key, in operation order within each key.
    pub slots: &'a [Slot],
    /// The lists of operations the union's schema names, where the derive wrote them.
    pub names: Option<&'a NameLists<'a>>,
}

/// The lists of operations a union's schema names, as the derive writes them where it
/// numbers the union's keys itself (`stitch_rules::hint`): rendering copies a list whole
/// rather than write it name by name (for a 60 × 12 union, 640 names and a third of the
/// schema's text). Which operations a key's hint names depends on which require the key, and
/// whether a field is required on its type's shape, which only constant evaluation sees: the
/// derive says what it expects of each field, the key table checks it field by field, and a
/// key whose fields differ from it (not `named` in the table) is written name by name.
#[derive(Clone, Copy, Debug)]
#[allow(
    clippy::exhaustive_structs,
    reason = "the IR the derive's generated code builds in constants, by struct literal"
)]
pub struct NameLists<'a> {
    /// Whether each field, every operation's in order, is expected to be required: field
    /// `i`'s bit is bit `i % 64` of word `i / 64` (a few words rather than a literal per
    /// field, which every `cargo check` pays to read).
    pub required: &'a [u64],
    /// Per key: the operations its hint names, as expected, escaped and joined.
    pub lists: &'a [&'a str],
    /// Every operation with its summary line, as the tag's description lists them.
    pub operations: &'a str,
    /// Every operation's name as a JSON string, comma-separated: the tag's `enum`, copied
    /// whole where writing it name by name would cost constant evaluation a call for each.
    pub names: &'a str,
}

/// Which operations of a union require a key (the flat object requires it when every one
/// does, and its hint names those that do, or when none does, those that offer it), and what
/// its `null` means: where a client cannot leave out what it means by `null`, a dialect must
/// show `null` for it to be sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requirement {
    /// Every operation requires the key.
    pub by_every: bool,
    /// Some operation requires the key.
    pub by_some: bool,
    /// Some operation accepts `null` where leaving the key out means something else (it
    /// requires the key, or defaults it to something other than `None`).
    pub null_matters: bool,
    /// Some operation defaults the key to something `null` does not mean: a client that
    /// sends every key cannot ask for that default.
    pub default_matters: bool,
}

impl Requirement {
    /// No operation requires the key.
    pub const NONE: Requirement = Requirement {
        by_every: false,
        by_some: false,
        null_matters: false,
        default_matters: false,
    };

    /// What a value that cannot be left out (array items, map values, a schema's root)
    /// requires.
    pub const ALWAYS: Requirement = Requirement {
        by_every: true,
        by_some: true,
        null_matters: true,
        default_matters: false,
    };

    /// The requirement of one field of an object.
    pub const fn of_field(required: bool, nullable: bool, defaulted: bool) -> Requirement {
        Requirement {
            by_every: required,
            by_some: required,
            null_matters: nullable && (required || defaulted),
            default_matters: nullable && defaulted,
        }
    }

    /// The requirement of a key `required_by` of a union's `operations` require, given what
    /// the `null` of some of them means.
    pub const fn counted(
        required_by: u32,
        operations: usize,
        null_matters: bool,
        default_matters: bool,
    ) -> Requirement {
        Requirement {
            by_every: required_by as usize == operations,
            by_some: required_by > 0,
            null_matters,
            default_matters,
        }
    }
}
