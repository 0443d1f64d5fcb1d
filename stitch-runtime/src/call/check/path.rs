//! Where the walk is: a chain of segments on the stack, turned into a JSON Pointer only when an
//! issue needs one (the happy path builds no text at all).

use crate::call::rejection::JsonPointer;

#[derive(Clone, Copy)]
pub(super) struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    segment: Segment<'a>,
}

#[derive(Clone, Copy)]
enum Segment<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

impl<'a> Path<'a> {
    pub(super) const ROOT: Path<'static> = Path {
        parent: None,
        segment: Segment::Root,
    };

    pub(super) fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Segment::Key(key),
        }
    }

    pub(super) fn index(&'a self, index: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Segment::Index(index),
        }
    }

    pub(super) fn pointer(&self) -> String {
        let mut segments = Vec::new();
        let mut at = Some(self);
        while let Some(path) = at {
            segments.push(path.segment);
            at = path.parent;
        }
        let mut pointer = JsonPointer::root();
        for segment in segments.into_iter().rev() {
            match segment {
                Segment::Root => {}
                Segment::Key(key) => {
                    pointer.push_key(key);
                }
                Segment::Index(index) => {
                    pointer.push_index(index);
                }
            }
        }
        pointer.into_string()
    }
}
