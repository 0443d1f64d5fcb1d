//! The standard library's other types a tool takes: paths (strings), durations and system times (serde's objects), tuples
//! (positional arrays), ranges (objects of `start` and `end`), the wrappers whose wire form is
//! their content's, atomics, and the signed non-zero integers.

use std::marker::PhantomData;

use super::{Shape, converted, text};
use crate::ir::{Doc, Field, Kind, Node, Object};
use crate::shape::issue::{Issue, JsonPointer};

macro_rules! texts {
    ($($ty:ty => $node:expr),* $(,)?) => {$(
        impl Shape for $ty {
            const SHAPE: &'static Node<'static> = &$node;
        }
    )*};
}

texts!(
    std::path::PathBuf => text(None, None, false),
    std::path::Path => text(None, None, false),
);

const DURATION_FIELDS: &[Field] = &[
    Field::new("secs", <u64 as Shape>::SHAPE, false, Some("Whole seconds.")),
    Field::new(
        "nanos",
        <u32 as Shape>::SHAPE,
        false,
        Some("Nanoseconds past the whole seconds."),
    ),
];
const DURATION: Node = Node::of(Kind::Object(&Object::new(
    DURATION_FIELDS,
    true,
    Some(Doc::new("A duration: whole seconds and nanoseconds.")),
)));

/// serde's form: an object of seconds and nanoseconds, refusing other keys, and a sum past
/// the type's range (converted).
impl Shape for std::time::Duration {
    const SHAPE: &'static Node<'static> = &converted(&DURATION);
}

const SYSTEM_TIME_FIELDS: &[Field] = &[
    Field::new(
        "secs_since_epoch",
        <u64 as Shape>::SHAPE,
        false,
        Some("Whole seconds since 1970-01-01T00:00:00Z."),
    ),
    Field::new(
        "nanos_since_epoch",
        <u32 as Shape>::SHAPE,
        false,
        Some("Nanoseconds past the whole seconds."),
    ),
];
const SYSTEM_TIME: Node = Node::of(Kind::Object(&Object::new(
    SYSTEM_TIME_FIELDS,
    true,
    Some(Doc::new(
        "A point in time: whole seconds and nanoseconds since the Unix epoch.",
    )),
)));

/// serde's form: an object of seconds and nanoseconds since the Unix epoch, refusing other
/// keys, and a time past the platform's range (converted).
impl Shape for std::time::SystemTime {
    const SHAPE: &'static Node<'static> = &converted(&SYSTEM_TIME);
}

/// Generic shapes built of other shapes: constants of a type of their own, where a generic
/// constant can refer to what it builds.
struct Parts<T: ?Sized>(PhantomData<T>);

macro_rules! tuples {
    ($(($($name:ident . $index:tt),+))*) => {$(
        impl<$($name: Shape),+> Parts<($($name,)+)> {
            const ELEMENTS: &'static [&'static Node<'static>] = &[$($name::SHAPE),+];
        }

        impl<$($name: Shape),+> Shape for ($($name,)+) {
            const SHAPE: &'static Node<'static> = &Node::of(Kind::Tuple(Parts::<($($name,)+)>::ELEMENTS));
            const REFINES: bool = $($name::REFINES)||+;

            fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
                $(if $name::REFINES {
                    let mark = pointer.push_index($index);
                    self.$index.refine(pointer, issues);
                    pointer.truncate(mark);
                })+
            }
        }
    )*};
}

tuples! {
    (A.0)
    (A.0, B.1)
    (A.0, B.1, C.2)
    (A.0, B.1, C.2, D.3)
    (A.0, B.1, C.2, D.3, E.4)
    (A.0, B.1, C.2, D.3, E.4, F.5)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, L.11)
}

macro_rules! bounds {
    ($($range:ident [$($key:literal => $field:ident),+]),* $(,)?) => {$(
        impl<T: Shape> Parts<std::ops::$range<T>> {
            const FIELDS: &'static [Field<'static>] = &[$(Field::new($key, T::SHAPE, false, None)),+];
            const OBJECT: &'static Object<'static> = &Object::new(Self::FIELDS, true, None);
        }

        /// serde's form: an object of its bounds, refusing other keys.
        impl<T: Shape> Shape for std::ops::$range<T> {
            const SHAPE: &'static Node<'static> =
                &Node::of(Kind::Object(Parts::<std::ops::$range<T>>::OBJECT));
            const REFINES: bool = T::REFINES;

            fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
                $(
                    let mark = pointer.push_key($key);
                    self.$field.refine(pointer, issues);
                    pointer.truncate(mark);
                )+
            }
        }
    )*};
}

bounds!(
    Range ["start" => start, "end" => end],
    RangeFrom ["start" => start],
    RangeTo ["end" => end],
);

impl<T: Shape> Parts<std::ops::RangeInclusive<T>> {
    const FIELDS: &'static [Field<'static>] = &[
        Field::new("start", T::SHAPE, false, None),
        Field::new("end", T::SHAPE, false, None),
    ];
    const OBJECT: &'static Object<'static> = &Object::new(Self::FIELDS, true, None);
}

/// serde's form: an object of its bounds, refusing other keys.
impl<T: Shape> Shape for std::ops::RangeInclusive<T> {
    const SHAPE: &'static Node<'static> =
        &Node::of(Kind::Object(Parts::<std::ops::RangeInclusive<T>>::OBJECT));
    const REFINES: bool = T::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        for (key, bound) in [("start", self.start()), ("end", self.end())] {
            let mark = pointer.push_key(key);
            bound.refine(pointer, issues);
            pointer.truncate(mark);
        }
    }
}

/// Wrappers whose wire form is their content's, and how to reach it.
macro_rules! transparent {
    ($($ty:ident<T> $(where T: $bound:ident)? => |$value:ident| $inner:expr),* $(,)?) => {$(
        impl<T: Shape $(+ $bound)?> Shape for $ty<T> {
            const SHAPE: &'static Node<'static> = T::SHAPE;
            const REFINES: bool = T::REFINES;

            fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
                let $value = self;
                $inner.refine(pointer, issues);
            }
        }
    )*};
}

use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::num::{Saturating, Wrapping};
use std::sync::{Mutex, RwLock};

transparent!(
    Wrapping<T> => |value| value.0,
    Saturating<T> => |value| value.0,
    Reverse<T> => |value| value.0,
    Cell<T> where T: Copy => |value| value.get(),
    RefCell<T> => |value| value.borrow(),
);

/// A lock's content; a poisoned lock (a panic while it was held) has nothing to refine.
macro_rules! locks {
    ($($ty:ident => $read:ident),*) => {$(
        impl<T: Shape> Shape for $ty<T> {
            const SHAPE: &'static Node<'static> = T::SHAPE;
            const REFINES: bool = T::REFINES;

            fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
                if let Ok(value) = self.$read() {
                    value.refine(pointer, issues);
                }
            }
        }
    )*};
}

locks!(Mutex => lock, RwLock => read);

macro_rules! same_shape {
    ($($ty:ty => $as:ty),* $(,)?) => {$(
        impl Shape for $ty {
            const SHAPE: &'static Node<'static> = <$as as Shape>::SHAPE;
        }
    )*};
}

use std::sync::atomic;

same_shape!(
    atomic::AtomicBool => bool,
    atomic::AtomicI8 => i8, atomic::AtomicI16 => i16, atomic::AtomicI32 => i32,
    atomic::AtomicI64 => i64, atomic::AtomicIsize => isize,
    atomic::AtomicU8 => u8, atomic::AtomicU16 => u16, atomic::AtomicU32 => u32,
    atomic::AtomicU64 => u64, atomic::AtomicUsize => usize,
);

/// Signed non-zero integers: below zero or above it, within the type's range. Said as the two
/// ranges (`anyOf`), exactly; a dialect that merges branches says their hull, zero included,
/// and the guard reports it.
macro_rules! signed_non_zero {
    ($($ty:ty => $inner:ty),* $(,)?) => {$(
        impl Shape for $ty {
            const SHAPE: &'static Node<'static> = &Node::of(Kind::AnyOf(&[
                &crate::ir::attributes::negative(<$inner as Shape>::SHAPE),
                &crate::ir::attributes::positive(<$inner as Shape>::SHAPE),
            ]));
        }
    )*};
}

signed_non_zero!(
    std::num::NonZeroI8 => i8, std::num::NonZeroI16 => i16, std::num::NonZeroI32 => i32,
    std::num::NonZeroI64 => i64, std::num::NonZeroI128 => i128,
    std::num::NonZeroIsize => isize,
);
