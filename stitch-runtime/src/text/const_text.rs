//! How a `&'static str` is obtained from constant evaluation: a contract's schemas are written
//! by the compiler, and this module sizes the arrays they are written into.
//!
//! Both texts of a non-generic contract are calls of `const fn`s inside its constants, so
//! each is rendered only where it is read: `cargo check` of a crate that reads a schema in
//! a function body (a server listing its tools) renders none, and a build renders each once.
//! (A length in a const-generic argument of a generated item would be evaluated for every
//! contract at type checking, read or not.) The advertised schema is written once into a
//! 64 KiB [`Scratch`] and its prefix copied into a buffer of its size class
//! ([`advertised_text`], or for a keyed union, from the scratch its table type writes,
//! [`keyed_advertised_text`]); the exact one is counted, then written into a buffer of its size
//! class ([`exact_text`]). A size class is the next power of two, so a text's buffer is at
//! most twice the text.
//!
//! # What constant evaluation costs
//!
//! The one cost model every `const fn` of this crate is written against, measured with
//! cachegrind on rustc 1.95 (instructions of rustc itself):
//!
//! - every statement is interpreted: a loop iteration of three or four simple statements
//!   costs about 7k instructions; writing a byte into a local array about 6k, reading a byte
//!   of a `&'static str` about 10k more, so a byte loop costs about 17k a byte;
//! - a call costs about 20k, as much as a dozen statements, `<[T]>::len` and
//!   `str::as_bytes` included (the interpreter does not inline): loops read a length once,
//!   absent rules cost a test rather than a call, hot walks resolve what they need inline;
//! - `copy_from_slice` is a single step however long the text, about 740k: cheaper than a
//!   byte loop past about 44 bytes ([`Sink::raw`](crate::text::sink::Sink::raw) copies long texts
//!   whole, short ones byte by byte);
//! - a count pass costs about as much as a write pass (calls dominate, not bytes), which is
//!   why the advertised schema is written once into a scratch rather than counted first;
//! - one evaluation of a constant may run about 2 million basic blocks before rustc's
//!   `long_running_const_eval` lint stops the build: every algorithm here is linear in the
//!   contract's size, and facts the derive can compute natively (plainness, hashes, summary
//!   lines, escapes, key indices, the lists of operations a union's schema names) are
//!   computed there, not here; where such a fact depends on a type's shape, the derive's
//!   expectation is checked here, field by field, before it is used.

use core::marker::PhantomData;

use crate::ir::Node;
use crate::shape::Shape;
use crate::text::measure::Measure;
use crate::text::render::{Rendering, schema_len, write_schema};
use crate::text::sink::Sink;

/// Returns `$text` for the first size class, from `2^$from` bytes up to 16 MiB, that holds
/// `$len` bytes (naming it `$capacity`). `$text` must be a call, not a constant: rustc
/// evaluates every constant a function names when it runs it, and a call only when it is
/// made, so only the class taken is written.
macro_rules! in_the_first_class_that_fits {
    ($len:expr, $from:literal, |$capacity:ident| $text:expr) => {
        in_the_first_class_that_fits!(@classes $len, $from, $capacity, $text;
            8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24)
    };
    (@classes $len:expr, $from:literal, $capacity:ident, $text:expr; $($bits:literal)*) => {
        $(
            if $bits >= $from && $len <= 1 << $bits {
                const $capacity: usize = 1 << $bits;
                return $text;
            }
        )*
    };
}

/// The exact schema of a non-generic contract, rendered in constant evaluation only where
/// it is read: `EXACT_SCHEMA` is a call of this `const fn`, and rustc evaluates a call inside
/// a constant only when that constant is evaluated. Counted, then written into a buffer of
/// its size class (the array's length cannot depend on the count without a const-generic
/// argument, so the size class stands in for it).
pub const fn exact_text<T: Shape + ?Sized>() -> &'static str {
    let len = schema_len(T::SHAPE, Rendering::Exact);
    in_the_first_class_that_fits!(len, 8, |CAPACITY| class_text::<T, CAPACITY, false>());
    panic!("stitch: this contract's exact schema is over 16 MiB")
}

/// The advertised schema of a non-generic contract, rendered in constant evaluation only
/// where it is read (`INPUT_SCHEMA` is a call of this `const fn`, as `EXACT_SCHEMA` is of
/// [`exact_text`]): written once into a scratch buffer, its prefix copied into a buffer of its
/// size class; when it does not fit the scratch, counted and written as the exact schema is.
pub const fn advertised_text<T: Shape + ?Sized>() -> &'static str {
    text_from_scratch::<T, Advertised<T>>()
}

/// The advertised schema of a keyed union, read from the scratch its key table type writes
/// ([`AdvertisedScratchOf`]), as [`advertised_text`] reads a shape's.
pub const fn keyed_advertised_text<T: Shape + AdvertisedScratchOf + ?Sized>() -> &'static str {
    text_from_scratch::<T, T>()
}

/// The text written into `S`'s scratch (`T`'s advertised schema), copied into a buffer of its
/// size class; when it did not fit, `T`'s counted and written again.
const fn text_from_scratch<T: Shape + ?Sized, S: AdvertisedScratchOf + ?Sized>() -> &'static str {
    let scratch = S::SCRATCH;
    if scratch.fits() {
        let len = scratch.len;
        in_the_first_class_that_fits!(len, 8, |CAPACITY| copied::<S, CAPACITY>());
    }
    counted_advertised_text::<T>()
}

/// An advertised schema too long for the scratch: counted, then written into a buffer of its
/// size class. A call of its own: rustc evaluates every constant a function names when it
/// runs it, and only this path reads the shape's.
const fn counted_advertised_text<T: Shape + ?Sized>() -> &'static str {
    let len = schema_len(T::SHAPE, Rendering::ADVERTISED);
    in_the_first_class_that_fits!(len, 17, |CAPACITY| class_text::<T, CAPACITY, true>());
    panic!("stitch: this contract's advertised schema is over 16 MiB")
}

/// A type whose advertised schema is written once, into a scratch in a constant of its own.
///
/// A keyed union's table type implements it in the derive's code, writing the scratch from
/// its union as a promoted (`&Node::of(..)`, an argument inside the constant's body) rather
/// than from its `Shape::SHAPE`: rustc validates a constant's value through every reference
/// in it, statics included, so reading the shape's constant walked the union's every field
/// once more (27M instructions for a 60 × 12 union), while a promoted stops at the statics
/// and the scratch itself holds bytes only.
pub trait AdvertisedScratchOf {
    /// The scratch, read by reference: the interpreter never copies the buffer.
    const SCRATCH: &'static AdvertisedScratch;
}

/// A node's advertised schema written into a scratch (the body of a derive-written
/// [`AdvertisedScratchOf::SCRATCH`]).
pub const fn advertised_scratch(node: &'static Node<'static>) -> AdvertisedScratch {
    Scratch::write(node, Rendering::ADVERTISED)
}

/// A non-generic contract's advertised schema, written once into the scratch.
struct Advertised<T: ?Sized>(PhantomData<T>);

impl<T: Shape + ?Sized> AdvertisedScratchOf for Advertised<T> {
    const SCRATCH: &'static AdvertisedScratch = &advertised_scratch(T::SHAPE);
}

/// The written prefix in a buffer of `CAPACITY` bytes, as text.
const fn copied<S: AdvertisedScratchOf + ?Sized, const CAPACITY: usize>() -> &'static str {
    Copied::<S, CAPACITY>::TEXT
}

/// The advertised schema's written prefix, copied into a buffer of its size class.
struct Copied<S: ?Sized, const CAPACITY: usize>(PhantomData<S>);

impl<S: AdvertisedScratchOf + ?Sized, const CAPACITY: usize> Copied<S, CAPACITY> {
    const BYTES: [u8; CAPACITY] = S::SCRATCH.prefix::<CAPACITY>();
    const TEXT: &'static str = utf8(Self::BYTES.split_at(S::SCRATCH.len).0);
}

const fn class_text<T: Shape + ?Sized, const CAPACITY: usize, const ADVERTISED: bool>()
-> &'static str {
    SizeClass::<T, CAPACITY, ADVERTISED>::TEXT
}

/// A schema counted, then written into a buffer of `CAPACITY` bytes, its size class: the
/// advertised one when `ADVERTISED`, else the exact one.
struct SizeClass<T: ?Sized, const CAPACITY: usize, const ADVERTISED: bool>(PhantomData<T>);

impl<T: Shape + ?Sized, const CAPACITY: usize, const ADVERTISED: bool>
    SizeClass<T, CAPACITY, ADVERTISED>
{
    const RENDERING: Rendering = if ADVERTISED {
        Rendering::ADVERTISED
    } else {
        Rendering::Exact
    };
    const SCRATCH: &'static Scratch<CAPACITY> = &Scratch::write(T::SHAPE, Self::RENDERING);
    const TEXT: &'static str = Self::SCRATCH.text();
}

/// The measure of a node's schema in a rendering, in constant evaluation, with its costs
/// (tokens, digest) or without ([`Measure`]'s figures only): written once into a
/// [`Scratch`], or when it does not fit, counted and written into a buffer of its size class
/// (as [`exact_text`] does), then measured. For constants only: a call at run time would put
/// the buffer on the stack (at run time, measure the kept text).
pub const fn measure_rendered(
    node: &'static Node<'static>,
    rendering: Rendering,
    costs: bool,
) -> Measure {
    let scratch = AdvertisedScratch::write(node, rendering);
    if scratch.fits() {
        return Measure::of_bytes(scratch.bytes.split_at(scratch.len).0, costs);
    }
    let len = scratch.len;
    in_the_first_class_that_fits!(len, 17, |CAPACITY| measure_in::<CAPACITY>(
        node, rendering, costs
    ));
    panic!("stitch: this schema is over 16 MiB")
}

const fn measure_in<const CAPACITY: usize>(
    node: &'static Node<'static>,
    rendering: Rendering,
    costs: bool,
) -> Measure {
    let scratch = Scratch::<CAPACITY>::write(node, rendering);
    Measure::of_bytes(scratch.bytes.split_at(scratch.len).0, costs)
}

/// The scratch buffer of a schema written in one pass: 64 KiB, about twice the advertised
/// schema of a documented 200-operation contract (34 KB); a larger schema is counted first
/// instead.
pub const SCRATCH_CAPACITY: usize = 1 << 16;

/// A schema written once into a scratch buffer: its length is then known without a count
/// pass (which costs constant evaluation about as much as writing: calls dominate, not
/// bytes), and the written prefix is copied whole into a buffer of its size class.
pub struct Scratch<const CAPACITY: usize> {
    bytes: [u8; CAPACITY],
    len: usize,
}

impl<const CAPACITY: usize> Scratch<CAPACITY> {
    /// Writes a node's schema; what does not fit is only counted.
    pub const fn write(node: &'static Node<'static>, rendering: Rendering) -> Scratch<CAPACITY> {
        let mut bytes = [0u8; CAPACITY];
        let mut sink = Sink::writer(&mut bytes);
        write_schema(&mut sink, node, rendering);
        let len = sink.len();
        Scratch { bytes, len }
    }

    /// Whether the whole schema was written.
    pub const fn fits(&self) -> bool {
        self.len <= CAPACITY
    }

    /// The first `PREFIX` bytes of the buffer (at most its capacity): the written text and
    /// zeros after it.
    pub const fn prefix<const PREFIX: usize>(&self) -> [u8; PREFIX] {
        let mut bytes = [0u8; PREFIX];
        bytes.copy_from_slice(self.bytes.split_at(PREFIX).0);
        bytes
    }

    /// The written schema, which must [fit](Self::fits).
    pub const fn text(&'static self) -> &'static str {
        assert!(self.fits(), "stitch: a schema did not fit its buffer");
        utf8(self.bytes.split_at(self.len).0)
    }
}

/// The scratch a contract's advertised schema is written into.
pub type AdvertisedScratch = Scratch<SCRATCH_CAPACITY>;

/// Rendered bytes as text: the writers write UTF-8 only, so the panic is a bug in stitch.
const fn utf8(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("stitch rendered invalid UTF-8"),
    }
}

#[cfg(test)]
mod tests {
    use super::{Scratch, advertised_text, exact_text};
    use crate::__private::{field, plain_doc};
    use crate::Shape;
    use crate::ir::{Kind, Node, Object};
    use crate::text::render::{Rendering, schema_len, schema_string};

    const NODE: &Node = <Vec<Option<String>> as Shape>::SHAPE;
    const LEN: usize = schema_len(NODE, Rendering::ADVERTISED);

    #[test]
    fn a_schema_written_once_is_the_schema_counted_then_written() {
        let expected = schema_string(NODE, Rendering::ADVERTISED);
        let roomy = Scratch::<256>::write(NODE, Rendering::ADVERTISED);
        let tight = Scratch::<8>::write(NODE, Rendering::ADVERTISED);
        assert!(roomy.fits() && !tight.fits(), "{expected}");
        assert_eq!(roomy.len, LEN);
        assert_eq!(tight.len, LEN, "what does not fit is counted");
        assert_eq!(roomy.prefix::<LEN>(), expected.as_bytes());
        assert_eq!(
            roomy.prefix::<256>()[LEN..],
            [0; 256][LEN..],
            "zeros after the text"
        );
    }

    /// A text bigger than the scratch, so the advertised one is counted and written again.
    struct Wide;

    impl Shape for Wide {
        const SHAPE: &'static Node<'static> = &Node::of(Kind::Object(&Object::new(
            &[field(
                "wide",
                true,
                <String as Shape>::SHAPE,
                false,
                plain_doc(WIDE_TEXT, 0),
            )],
            false,
            None,
        )));
    }

    const WIDE_TEXT: &str = {
        #[allow(
            clippy::large_const_arrays,
            reason = "read once, in constant evaluation, into the text"
        )]
        const BYTES: [u8; 70_000] = [b'w'; 70_000];
        match core::str::from_utf8(&BYTES) {
            Ok(text) => text,
            Err(_) => panic!(),
        }
    };

    #[test]
    fn each_text_is_its_rendering_in_its_size_class() {
        const SMALL: &str = advertised_text::<Vec<Option<String>>>();
        const SMALL_EXACT: &str = exact_text::<Vec<Option<String>>>();
        assert_eq!(SMALL, schema_string(NODE, Rendering::ADVERTISED));
        assert_eq!(SMALL_EXACT, schema_string(NODE, Rendering::Exact));
        const WIDE: &str = advertised_text::<Wide>();
        let expected = schema_string(Wide::SHAPE, Rendering::ADVERTISED);
        assert!(
            expected.len() > super::SCRATCH_CAPACITY,
            "{}",
            expected.len()
        );
        assert_eq!(WIDE, expected);
    }
}
