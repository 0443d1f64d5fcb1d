//! Sequences, sets and maps, and serde_json's own values.

use super::{Shape, StringKey, refine_elements, refine_entries};
use crate::ir::{ArrayRules, Kind, MapRules, Node};
use crate::shape::issue::{Issue, JsonPointer};

pub(crate) const fn array_of(item: &'static Node<'static>, rules: ArrayRules) -> Node<'static> {
    Node::of(Kind::Array(item, rules))
}

macro_rules! sequences {
    ($($ty:ty),*) => {$(
        impl<T: Shape> Shape for $ty {
            const SHAPE: &'static Node<'static> = &array_of(T::SHAPE, ArrayRules::NONE);
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
    const SHAPE: &'static Node<'static> = &array_of(
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
    const SHAPE: &'static Node<'static> = &array_of(T::SHAPE, UNIQUE);
    const REFINES: bool = T::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_elements(self, pointer, issues);
    }
}

impl<T: Shape> Shape for std::collections::BTreeSet<T> {
    const SHAPE: &'static Node<'static> = &array_of(T::SHAPE, UNIQUE);
    const REFINES: bool = T::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_elements(self, pointer, issues);
    }
}

impl<K: StringKey, V: Shape, S> Shape for std::collections::HashMap<K, V, S> {
    const SHAPE: &'static Node<'static> = &Node::of(Kind::Map(V::SHAPE, MapRules::NONE));
    const REFINES: bool = V::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_entries(self, pointer, issues);
    }
}

impl<K: StringKey, V: Shape> Shape for std::collections::BTreeMap<K, V> {
    const SHAPE: &'static Node<'static> = &Node::of(Kind::Map(V::SHAPE, MapRules::NONE));
    const REFINES: bool = V::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        refine_entries(self, pointer, issues);
    }
}

impl Shape for serde_json::Value {
    const SHAPE: &'static Node<'static> = &Node::of(Kind::Any);
}

impl Shape for serde_json::Map<String, serde_json::Value> {
    const SHAPE: &'static Node<'static> = &Node::of(Kind::Map(
        <serde_json::Value as Shape>::SHAPE,
        MapRules::NONE,
    ));
}
