//! Containers of other crates: `indexmap`'s map and set (a map, an array of unique items),
//! `smallvec::SmallVec` (an array), and `bytes`' buffers (arrays of bytes, as serde_json
//! writes them).

use super::super::Shape;
#[cfg(any(feature = "bytes1", feature = "indexmap2", feature = "smallvec1"))]
use super::super::collections::array_of;
#[cfg(any(feature = "indexmap2", feature = "smallvec1"))]
use super::super::refine_elements;
#[cfg(feature = "indexmap2")]
use super::super::{StringKey, refine_entries};
use crate::ir::Node;
#[cfg(feature = "indexmap2")]
use crate::ir::{ArrayRules, Kind, MapRules};
#[cfg(any(feature = "indexmap2", feature = "smallvec1"))]
use crate::shape::issue::{Issue, JsonPointer};

#[cfg(feature = "indexmap2")]
impl<K: StringKey, V: Shape, S> Shape for indexmap::IndexMap<K, V, S> {
    const SHAPE: &'static Node<'static> = &Node::of(Kind::Map(V::SHAPE, MapRules::NONE));
    const REFINES: bool = V::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_entries(self, pointer, issues);
    }
}

#[cfg(feature = "indexmap2")]
impl<T: Shape, S> Shape for indexmap::IndexSet<T, S> {
    const SHAPE: &'static Node<'static> = &array_of(
        T::SHAPE,
        ArrayRules {
            unique_items: true,
            ..ArrayRules::NONE
        },
    );
    const REFINES: bool = T::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_elements(self, pointer, issues);
    }
}

#[cfg(feature = "smallvec1")]
impl<A: smallvec::Array> Shape for smallvec::SmallVec<A>
where
    A::Item: Shape,
{
    const SHAPE: &'static Node<'static> =
        &array_of(<A::Item as Shape>::SHAPE, crate::ir::ArrayRules::NONE);
    const REFINES: bool = <A::Item as Shape>::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_elements(self.iter(), pointer, issues);
    }
}

/// serde_json writes bytes as an array of numbers.
#[cfg(feature = "bytes1")]
const BYTES: Node = array_of(<u8 as Shape>::SHAPE, crate::ir::ArrayRules::NONE);

#[cfg(feature = "bytes1")]
impl Shape for bytes::Bytes {
    const SHAPE: &'static Node<'static> = &BYTES;
}

#[cfg(feature = "bytes1")]
impl Shape for bytes::BytesMut {
    const SHAPE: &'static Node<'static> = &BYTES;
}
