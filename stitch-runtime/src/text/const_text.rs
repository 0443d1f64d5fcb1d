//! How a `&'static str` is obtained from constant evaluation: a contract's schemas are written
//! by the compiler, and this module sizes the arrays they are written into.
//!
//! The advertised schema, always read (the tool shows it), is written once into a 64 KiB
//! [`Scratch`] and its prefix copied into a `[u8; LEN]` ([`WrittenOnce`], [`written_once`]);
//! the exact one, often never read, costs nothing until it is read, then is counted and
//! written into a buffer of its size class ([`exact_text`]). A length in a const-generic
//! argument of a generated item would be evaluated for every contract at type checking, read
//! or not; a call inside a constant is evaluated only where the constant is.
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
//!   lines, escapes, key indices) are computed there, not here.

use core::marker::PhantomData;

use crate::ir::Node;
use crate::shape::Shape;
use crate::text::measure::Measure;
use crate::text::render::{Rendering, schema_len, write_schema};
use crate::text::sink::Sink;

/// A node's schema as bytes; `LEN` must be [`schema_len`] of the same node and mode.
pub const fn schema_bytes<const LEN: usize>(
    node: &'static Node<'static>,
    rendering: Rendering,
) -> [u8; LEN] {
    let mut buf = [0u8; LEN];
    let mut sink = Sink::writer(&mut buf);
    write_schema(&mut sink, node, rendering);
    assert!(
        sink.len() == LEN,
        "stitch: the schema length does not match its count"
    );
    buf
}

/// The exact schema of a non-generic contract, rendered in constant evaluation only where
/// it is read: `EXACT_SCHEMA` is a call of this `const fn`, and rustc evaluates a call inside
/// a constant only when that constant is evaluated. (A length in a const-generic argument
/// would be evaluated for every contract at type checking, read or not; most crates never
/// read the exact schema.)
///
/// The text is counted, then written into a buffer of the next power-of-two size: its array
/// length cannot depend on the count without a const-generic argument, so the size class
/// stands in for it, and the buffer is at most twice the text.
pub const fn exact_text<T: Shape + ?Sized>() -> &'static str {
    let len = schema_len(T::SHAPE, Rendering::Exact);
    macro_rules! in_the_first_class_that_fits {
        ($($bits:literal)*) => {
            $(
                if len <= 1 << $bits {
                    // A call, not the constant itself: rustc evaluates every constant a
                    // function names when it runs it, and only one class may be written.
                    return size_class_text::<T, { 1 << $bits }>();
                }
            )*
        };
    }
    in_the_first_class_that_fits!(8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);
    panic!("stitch: this contract's exact schema is over 16 MiB")
}

const fn size_class_text<T: Shape + ?Sized, const CAPACITY: usize>() -> &'static str {
    SizeClass::<T, CAPACITY>::TEXT
}

/// A schema written into a buffer of `CAPACITY` bytes, its size class (see [`exact_text`]).
struct SizeClass<T: ?Sized, const CAPACITY: usize>(PhantomData<T>);

impl<T: Shape + ?Sized, const CAPACITY: usize> SizeClass<T, CAPACITY> {
    const SCRATCH: &'static Scratch<CAPACITY> = &Scratch::write(T::SHAPE, Rendering::Exact);
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
    macro_rules! in_the_first_class_that_fits {
        ($($bits:literal)*) => {
            $(
                if len <= 1 << $bits {
                    return measure_in::<{ 1 << $bits }>(node, rendering, costs);
                }
            )*
        };
    }
    in_the_first_class_that_fits!(17 18 19 20 21 22 23 24);
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
/// bytes), and the written prefix is copied whole into an array of exactly that length.
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

    /// The schema's bytes, `LEN` of them: the written prefix when it fits, else written
    /// again into an array of their count (the node and mode must be the ones written).
    pub const fn bytes<const LEN: usize>(
        &self,
        node: &'static Node<'static>,
        rendering: Rendering,
    ) -> [u8; LEN] {
        if self.fits() {
            let mut bytes = [0u8; LEN];
            bytes.copy_from_slice(self.bytes.split_at(LEN).0);
            bytes
        } else {
            schema_bytes::<LEN>(node, rendering)
        }
    }

    /// The written schema, which must [fit](Self::fits).
    pub const fn text(&'static self) -> &'static str {
        assert!(self.fits(), "stitch: a schema did not fit its buffer");
        utf8(self.bytes.split_at(self.len).0)
    }

    /// The schema's length: the written one, or counted again when it did not fit (the node
    /// and mode must be the ones written).
    pub const fn schema_len(&self, node: &'static Node<'static>, rendering: Rendering) -> usize {
        if self.fits() {
            self.len
        } else {
            schema_len(node, rendering)
        }
    }
}

/// The scratch a contract's advertised schema is written into.
pub type AdvertisedScratch = Scratch<SCRATCH_CAPACITY>;

/// A non-generic contract's advertised schema, written once: the derive implements it next
/// to the contract, so a contract whose IR fails to build is reported there, not here.
pub trait WrittenOnce: Shape {
    /// `&Scratch::write(Self::SHAPE, Rendering::ADVERTISED)`, read by reference: the interpreter
    /// never copies the buffer.
    const SCRATCH: &'static AdvertisedScratch;
    /// `Self::SCRATCH.schema_len(Self::SHAPE, Rendering::ADVERTISED)`: the length the text's
    /// array is given.
    const LEN: usize;
}

/// The advertised schema in an array of its length: `LEN` is [`WrittenOnce::LEN`].
pub struct WrittenText<T: ?Sized, const LEN: usize>(PhantomData<T>);

impl<T: WrittenOnce + ?Sized, const LEN: usize> WrittenText<T, LEN> {
    const BYTES: [u8; LEN] = T::SCRATCH.bytes::<LEN>(T::SHAPE, Rendering::ADVERTISED);
    const TEXT: &'static str = utf8(&Self::BYTES);
}

/// Rendered bytes as text: the writers write UTF-8 only, so the panic is a bug in stitch.
const fn utf8(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("stitch rendered invalid UTF-8"),
    }
}

/// The text of `WrittenText`: the advertised schema in an array of its length.
pub const fn written_once<T: WrittenOnce + ?Sized, const LEN: usize>() -> &'static str {
    WrittenText::<T, LEN>::TEXT
}

#[cfg(test)]
mod tests {
    use super::Scratch;
    use crate::Shape;
    use crate::ir::Node;
    use crate::text::render::{Rendering, schema_len, schema_string};

    const NODE: &Node = <Vec<Option<String>> as Shape>::SHAPE;
    const LEN: usize = schema_len(NODE, Rendering::ADVERTISED);

    #[test]
    fn a_schema_written_once_is_the_schema_counted_then_written() {
        let expected = schema_string(NODE, Rendering::ADVERTISED);
        let roomy = Scratch::<256>::write(NODE, Rendering::ADVERTISED);
        let tight = Scratch::<8>::write(NODE, Rendering::ADVERTISED);
        assert!(roomy.fits() && !tight.fits(), "{expected}");
        assert_eq!(roomy.schema_len(NODE, Rendering::ADVERTISED), LEN);
        assert_eq!(
            tight.schema_len(NODE, Rendering::ADVERTISED),
            LEN,
            "counted again"
        );
        let copied = roomy.bytes::<LEN>(NODE, Rendering::ADVERTISED);
        let rewritten = tight.bytes::<LEN>(NODE, Rendering::ADVERTISED);
        assert_eq!(copied, expected.as_bytes());
        assert_eq!(rewritten, expected.as_bytes());
    }
}
