//! Finding what a key or a tag names: a field of an object, an operation of a union. Names
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

/// The index of the field `key` names (under its name or an alias).
#[inline(always)]
pub(super) fn field_named(fields: &[Field<'static>], key: &str) -> Option<usize> {
    for (index, field) in fields.iter().enumerate() {
        if same(field.name, key) {
            return Some(index);
        }
    }
    by_alias(fields.iter().map(|field| field.aliases), key)
}

/// The operation `tag` names (under its name or an alias).
#[inline(always)]
pub(super) fn variant_named<'u>(
    variants: &'u [Variant<'static>],
    tag: &str,
) -> Option<&'u Variant<'static>> {
    for variant in variants {
        if same(variant.name, tag) {
            return Some(variant);
        }
    }
    by_alias(variants.iter().map(|variant| variant.aliases), tag).map(|index| &variants[index])
}

/// The index of the alias list holding `key`: names are tried first, since aliases are
/// rare and a call uses them rarely.
#[cold]
fn by_alias<'a>(mut aliases: impl Iterator<Item = &'a [&'static str]>, key: &str) -> Option<usize> {
    aliases.position(|aliases| aliases.iter().any(|alias| same(alias, key)))
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
