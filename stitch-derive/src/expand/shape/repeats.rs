//! Which fields of a keyed union repeat an earlier field of their key: the same node code
//! (type and attributes, one constant per code), default and description, so one schema and
//! one say in the key's collision rules. The key table marks them, and the rules, which
//! depend on the set of a key's distinct fields only, skip them: in constant evaluation, a
//! key declared alike by many operations (`partIndex` in eight of fourteen) costs one field.

use std::collections::HashSet;

/// The fields (every operation's in order, of key indices `of_field`) that repeat an earlier
/// field of their key by `sameness`, as bits: field `i`'s is bit `i % 64` of word `i / 64`.
/// None where the two do not list the same fields (the table then looks at every field).
pub(super) fn repeated_fields(of_field: &[u32], sameness: &[String]) -> Vec<u64> {
    if of_field.len() != sameness.len() {
        return Vec::new();
    }
    let mut words = vec![0u64; of_field.len().div_ceil(64)];
    let mut seen = HashSet::with_capacity(of_field.len());
    for (at, (key, same)) in of_field.iter().zip(sameness).enumerate() {
        if !seen.insert((key, same)) {
            words[at / 64] |= 1 << (at % 64);
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::repeated_fields;

    #[test]
    fn a_field_repeats_only_an_earlier_field_of_its_key_that_it_is_the_same_as() {
        let of_field = [0, 1, 0, 0, 1, 0, 1];
        let sameness =
            ["i64", "i64", "i64", "i64 min", "String", "i64 min", "i64"].map(String::from);
        // 2 repeats 0 (key 0, `i64`), 5 repeats 3 (key 0, `i64 min`), 6 repeats 1 (key 1);
        // 3 differs from 0 and 4 from 1, each the first of its kind.
        assert_eq!(
            repeated_fields(&of_field, &sameness),
            [1 << 2 | 1 << 5 | 1 << 6]
        );
        assert!(repeated_fields(&of_field, &sameness[..6]).is_empty());
    }
}
