//! Finding what a key or a tag names: a field of an object, an operation of a union (an alias,
//! a spelling serde reads and no schema states, is looked up apart, when a name fails). Names
//! are short (an operation's tag, a field's camelCase key), so they are compared as machine
//! words, inline, rather than through a call to `memcmp` per candidate; the walk's valid path
//! compares a few hundred of them per call.

use crate::ir::{Field, Variant};

/// Whether two names are equal. Up to 16 bytes they are compared as at most two pairs of
/// (overlapping) words; longer ones as slices.
#[inline(always)]
pub(super) fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        8..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

#[inline(always)]
fn word4(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_ne_bytes(word)
}

#[inline(always)]
fn word8(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_ne_bytes(word)
}

/// The index of the field `key` names.
#[inline(always)]
pub(super) fn field_named(fields: &[Field<'static>], key: &str) -> Option<usize> {
    fields.iter().position(|field| same(field.name, key))
}

/// The operation `tag` names.
#[inline(always)]
pub(super) fn variant_named<'u>(
    variants: &'u [Variant<'static>],
    tag: &str,
) -> Option<&'u Variant<'static>> {
    variants.iter().find(|variant| same(variant.name, tag))
}

/// The index of the field whose alias `key` is: a spelling serde reads that the schema
/// states only where an object takes other keys (see `Checker::aliased`).
#[cold]
pub(super) fn field_aliased(fields: &[Field<'static>], key: &str) -> Option<usize> {
    fields.iter().position(|field| field.aliases.contains(&key))
}

/// The operation whose alias `tag` is: serde reads it, no schema states it.
#[cold]
pub(super) fn variant_aliased<'u>(
    variants: &'u [Variant<'static>],
    tag: &str,
) -> Option<&'u Variant<'static>> {
    variants
        .iter()
        .find(|variant| variant.aliases.contains(&tag))
}

#[cfg(test)]
mod tests {
    use super::same;

    #[test]
    fn names_are_equal_exactly_when_their_bytes_are() {
        let words = [
            "",
            "a",
            "b",
            "ab",
            "ba",
            "op",
            "abc",
            "abd",
            "xbc",
            "text",
            "texT",
            "label",
            "partIndex",
            "partIndey",
            "qartIndex",
            "setButtonUrl",
            "setButtonUrk",
            "duplicatePart",
            "removeButton",
            "sixteen_bytes_ab",
            "sixteen_bytes_ac",
            "a much longer name than sixteen",
            "a much longer name than sixteeN",
            "é",
            "e",
        ];
        for a in words {
            for b in words {
                assert_eq!(same(a, b), a == b, "{a:?} against {b:?}");
            }
        }
    }
}
