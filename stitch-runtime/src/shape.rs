//! The [`Shape`] trait and its implementations for the standard types: the type mapping the
//! README lists (`bool` is a boolean, `Option<T>` is `T` or null and may be missing, ...).

use crate::node::{ArrayRules, Bound, Kind, MapRules, Node, NumberRules, NumberType, StringRules};
use crate::rejection::{Issue, JsonPointer};

/// The compile-time schema of a type.
///
/// Implemented for the standard types and by `#[derive(Contract)]`. Composition happens in
/// constant evaluation: `Vec<T>`'s shape refers to `T::SHAPE`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no stitch schema (it does not implement `Shape`)",
    label = "stitch cannot describe this type",
    note = "derive it: `#[derive(stitch::Contract, serde::Deserialize)]` on a tool's input, `#[derive(stitch::Shape)]` on a type a tool returns",
    note = "or, when JSON Schema cannot describe a field's value, mark the field `#[contract(opaque)]`"
)]
pub trait Shape {
    /// The type's schema node.
    const SHAPE: &'static Node;

    /// Whether this type, or anything inside it, has a `refine` check: walks skip the
    /// values that cannot have one.
    const REFINES: bool = false;

    /// Runs the hidden `refine` checks of this value and of everything inside it, pushing an
    /// issue at `pointer` for each one that fails. Most types have none.
    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        let _ = (pointer, issues);
    }
}

const fn integer(rust: NumberType, minimum: Option<Bound>, maximum: Option<Bound>) -> Node {
    Node::of(Kind::Integer(NumberRules {
        minimum,
        maximum,
        rust,
        ..NumberRules::NONE
    }))
}

macro_rules! ranged_integers {
    ($($ty:ty as $rust:ident => $min:literal ..= $max:literal),*) => {$(
        impl Shape for $ty {
            const SHAPE: &'static Node = &integer(
                NumberType::$rust,
                Some(Bound::int($min, <$ty>::MIN as f64)),
                Some(Bound::int($max, <$ty>::MAX as f64)),
            );
        }
    )*};
}

ranged_integers!(
    i8 as I8 => "-128" ..= "127",
    i16 as I16 => "-32768" ..= "32767",
    i32 as I32 => "-2147483648" ..= "2147483647",
    u8 as U8 => "0" ..= "255",
    u16 as U16 => "0" ..= "65535",
    u32 as U32 => "0" ..= "4294967295"
);

macro_rules! wide_integers {
    (signed: $($s:ty as $srust:ident),*; unsigned: $($u:ty as $urust:ident),*) => {
        $(impl Shape for $s {
            const SHAPE: &'static Node = &integer(NumberType::$srust, None, None);
        })*
        $(impl Shape for $u {
            const SHAPE: &'static Node =
                &integer(NumberType::$urust, Some(Bound::int("0", 0.0)), None);
        })*
    };
}

wide_integers!(
    signed: i64 as I64, i128 as I128, isize as Isize;
    unsigned: u64 as U64, u128 as U128, usize as Usize
);

macro_rules! non_zero {
    ($($ty:ty => $inner:ty),*) => {$(
        impl Shape for $ty {
            const SHAPE: &'static Node = &crate::attributes::positive(<$inner as Shape>::SHAPE);
        }
    )*};
}

non_zero!(
    core::num::NonZeroU8 => u8, core::num::NonZeroU16 => u16, core::num::NonZeroU32 => u32,
    core::num::NonZeroU64 => u64, core::num::NonZeroU128 => u128,
    core::num::NonZeroUsize => usize
);

impl Shape for bool {
    const SHAPE: &'static Node = &Node::of(Kind::Boolean);
}

/// The largest magnitude an `f32` holds, as a JSON number: what is within it reads as a
/// finite `f32` (the nearest one), what is past it would be infinity.
const F32_LIMIT: f64 = 3.4028235e38;

impl Shape for f32 {
    const SHAPE: &'static Node = &Node::of(Kind::Number(NumberRules {
        minimum: Some(Bound::new("-3.4028235e38", -F32_LIMIT, false)),
        maximum: Some(Bound::new("3.4028235e38", F32_LIMIT, false)),
        rust: NumberType::F32,
        ..NumberRules::NONE
    }));
}

impl Shape for f64 {
    const SHAPE: &'static Node = &Node::of(Kind::Number(NumberRules {
        rust: NumberType::F64,
        ..NumberRules::NONE
    }));
}

const STRING: Node = Node::of(Kind::String(StringRules::NONE));

macro_rules! strings {
    ($($ty:ty),*) => {$(
        impl Shape for $ty {
            const SHAPE: &'static Node = &STRING;
        }
    )*};
}

strings!(
    String,
    &str,
    std::borrow::Cow<'_, str>,
    Box<str>,
    std::rc::Rc<str>,
    std::sync::Arc<str>
);

impl Shape for char {
    const SHAPE: &'static Node = &Node::of(Kind::String(StringRules::ONE_CHARACTER));
}

impl<T: Shape> Shape for Option<T> {
    const SHAPE: &'static Node = &T::SHAPE.nullable();
    const REFINES: bool = T::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        if let Some(value) = self {
            value.refine(pointer, issues);
        }
    }
}

/// Refines every element of a sequence, each at its index.
fn refine_elements<'a, T: Shape + 'a>(
    elements: impl IntoIterator<Item = &'a T>,
    pointer: &mut JsonPointer,
    issues: &mut Vec<Issue>,
) {
    if !T::REFINES {
        return;
    }
    for (index, element) in elements.into_iter().enumerate() {
        let mark = pointer.push_index(index);
        element.refine(pointer, issues);
        pointer.truncate(mark);
    }
}

/// Refines every value of a map, each at its key.
fn refine_entries<'a, K: AsRef<str> + 'a, V: Shape + 'a>(
    entries: impl IntoIterator<Item = (&'a K, &'a V)>,
    pointer: &mut JsonPointer,
    issues: &mut Vec<Issue>,
) {
    if !V::REFINES {
        return;
    }
    for (key, value) in entries {
        let mark = pointer.push_key(key.as_ref());
        value.refine(pointer, issues);
        pointer.truncate(mark);
    }
}

macro_rules! pointers {
    ($($ty:ident),*) => {$(
        impl<T: Shape + ?Sized> Shape for $ty<T> {
            const SHAPE: &'static Node = T::SHAPE;
            const REFINES: bool = T::REFINES;

            fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
                T::refine(self, pointer, issues);
            }
        }
    )*};
}

use std::rc::Rc;
use std::sync::Arc;
pointers!(Box, Rc, Arc);

const fn array_of(item: &'static Node, rules: ArrayRules) -> Node {
    Node::of(Kind::Array(item, rules))
}

macro_rules! sequences {
    ($($ty:ty),*) => {$(
        impl<T: Shape> Shape for $ty {
            const SHAPE: &'static Node = &array_of(T::SHAPE, ArrayRules::NONE);
            const REFINES: bool = T::REFINES;

            fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
                refine_elements(self, pointer, issues);
            }
        }
    )*};
}

sequences!(
    Vec<T>,
    [T],
    std::collections::VecDeque<T>,
    std::collections::LinkedList<T>
);

impl<T: Shape, const N: usize> Shape for [T; N] {
    const SHAPE: &'static Node = &array_of(
        T::SHAPE,
        ArrayRules {
            min_items: Some(N as u64),
            max_items: Some(N as u64),
            unique_items: false,
        },
    );
    const REFINES: bool = T::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_elements(self, pointer, issues);
    }
}

const UNIQUE: ArrayRules = ArrayRules {
    min_items: None,
    max_items: None,
    unique_items: true,
};

impl<T: Shape, S> Shape for std::collections::HashSet<T, S> {
    const SHAPE: &'static Node = &array_of(T::SHAPE, UNIQUE);
    const REFINES: bool = T::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_elements(self, pointer, issues);
    }
}

impl<T: Shape> Shape for std::collections::BTreeSet<T> {
    const SHAPE: &'static Node = &array_of(T::SHAPE, UNIQUE);
    const REFINES: bool = T::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_elements(self, pointer, issues);
    }
}

/// A map key that is a string on the wire.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a string map key stitch can describe",
    note = "JSON object keys are strings: use `String` keys"
)]
pub trait StringKey: AsRef<str> {}

impl StringKey for String {}
impl StringKey for Box<str> {}
impl StringKey for std::rc::Rc<str> {}
impl StringKey for std::sync::Arc<str> {}
impl StringKey for std::borrow::Cow<'_, str> {}

impl<K: StringKey, V: Shape, S> Shape for std::collections::HashMap<K, V, S> {
    const SHAPE: &'static Node = &Node::of(Kind::Map(V::SHAPE, MapRules::NONE));
    const REFINES: bool = V::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_entries(self, pointer, issues);
    }
}

impl<K: StringKey, V: Shape> Shape for std::collections::BTreeMap<K, V> {
    const SHAPE: &'static Node = &Node::of(Kind::Map(V::SHAPE, MapRules::NONE));
    const REFINES: bool = V::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_entries(self, pointer, issues);
    }
}

impl Shape for serde_json::Value {
    const SHAPE: &'static Node = &Node::of(Kind::Any);
}

impl Shape for serde_json::Map<String, serde_json::Value> {
    const SHAPE: &'static Node = &Node::of(Kind::Map(
        <serde_json::Value as Shape>::SHAPE,
        MapRules::NONE,
    ));
}
