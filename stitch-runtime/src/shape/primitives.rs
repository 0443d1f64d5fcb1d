//! Numbers, booleans, strings and characters, `Option`, and the pointers that are their
//! contents on the wire.

use std::rc::Rc;
use std::sync::Arc;

use super::Shape;
use crate::ir::{Bound, Kind, Node, NumberRules, NumberType, StringRules};
use crate::shape::issue::{Issue, JsonPointer};

const fn integer<'a>(
    rust: NumberType,
    minimum: Option<Bound<'a>>,
    maximum: Option<Bound<'a>>,
) -> Node<'a> {
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
            const SHAPE: &'static Node<'static> = &integer(
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
            const SHAPE: &'static Node<'static> = &integer(NumberType::$srust, None, None);
        })*
        $(impl Shape for $u {
            const SHAPE: &'static Node<'static> =
                &integer(NumberType::$urust, Some(Bound::int("0", 0.0)), None);
        })*
    };
}

wide_integers!(
    signed: i64 as I64, isize as Isize;
    unsigned: u64 as U64, usize as Usize
);

// The 128-bit types state their range, past what any JSON parser reads exactly: a client
// told nothing may send 1e40 (serde_json without `arbitrary_precision` carries 64 bits, and
// `parse` says so where a value passes the schema and not the build).
ranged_integers!(
    i128 as I128 => "-170141183460469231731687303715884105728" ..= "170141183460469231731687303715884105727",
    u128 as U128 => "0" ..= "340282366920938463463374607431768211455"
);

macro_rules! non_zero {
    ($($ty:ty => $inner:ty),*) => {$(
        impl Shape for $ty {
            const SHAPE: &'static Node<'static> = &crate::ir::attributes::positive(<$inner as Shape>::SHAPE);
        }
    )*};
}

non_zero!(
    core::num::NonZeroU8 => u8, core::num::NonZeroU16 => u16, core::num::NonZeroU32 => u32,
    core::num::NonZeroU64 => u64, core::num::NonZeroU128 => u128,
    core::num::NonZeroUsize => usize
);

impl Shape for bool {
    const SHAPE: &'static Node<'static> = &Node::of(Kind::Boolean);
}

/// The largest magnitude an `f32` holds, as a JSON number: what is within it reads as a
/// finite `f32` (the nearest one), what is past it would be infinity.
const F32_LIMIT: f64 = 3.4028235e38;

impl Shape for f32 {
    const SHAPE: &'static Node<'static> = &Node::of(Kind::Number(NumberRules {
        minimum: Some(Bound::new("-3.4028235e38", -F32_LIMIT, false)),
        maximum: Some(Bound::new("3.4028235e38", F32_LIMIT, false)),
        rust: NumberType::F32,
        ..NumberRules::NONE
    }));
}

impl Shape for f64 {
    const SHAPE: &'static Node<'static> = &Node::of(Kind::Number(NumberRules {
        rust: NumberType::F64,
        ..NumberRules::NONE
    }));
}

const STRING: Node = Node::of(Kind::String(StringRules::NONE));

macro_rules! strings {
    ($($ty:ty),*) => {$(
        impl Shape for $ty {
            const SHAPE: &'static Node<'static> = &STRING;
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
    const SHAPE: &'static Node<'static> = &Node::of(Kind::String(StringRules::ONE_CHARACTER));
}

impl<T: Shape> Shape for Option<T> {
    const SHAPE: &'static Node<'static> = &T::SHAPE.nullable();
    const REFINES: bool = T::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        if let Some(value) = self {
            value.refine(pointer, issues);
        }
    }
}

macro_rules! pointers {
    ($($ty:ident),*) => {$(
        impl<T: Shape + ?Sized> Shape for $ty<T> {
            const SHAPE: &'static Node<'static> = T::SHAPE;
            const REFINES: bool = T::REFINES;

            fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
                T::refine(self, pointer, issues);
            }
        }
    )*};
}

pointers!(Box, Rc, Arc);
