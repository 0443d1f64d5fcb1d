//! What the derive lays out of a keyed union's table, from the key indices it writes: where
//! each field's slot goes (its key's place, after the fields of its key before it), so that
//! constant evaluation fills the table in one pass over the fields rather than two; and which
//! fields repeat an earlier field of their key: the same node code (type and attributes, one
//! constant per code), default and description, so one schema and one say in the key's
//! collision rules. The key table marks them, and the rules, which depend on the set of a
//! key's distinct fields only, skip them: in constant evaluation, a key declared alike by
//! many operations (`partIndex` in eight of fourteen) costs one field.

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

/// Where each field's slot goes, for fields (every operation's in order) of key indices
/// `of_field` over `keys` keys: the keys' slots in key order, each key's in operation order.
pub(super) fn slot_positions(of_field: &[u32], keys: usize) -> Vec<u32> {
    let mut next = vec![0u32; keys];
    for &key in of_field {
        next[key as usize] += 1;
    }
    let mut start = 0;
    for count in &mut next {
        (start, *count) = (start + *count, start);
    }
    of_field
        .iter()
        .map(|&key| {
            let position = next[key as usize];
            next[key as usize] += 1;
            position
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{repeated_fields, slot_positions};

    #[test]
    fn each_key_s_slots_follow_the_keys_before_it_in_operation_order() {
        // Keys 0, 1, 0, 2, 1: key 0 at 0 and 1, key 1 at 2 and 3, key 2 at 4.
        assert_eq!(slot_positions(&[0, 1, 0, 2, 1], 3), [0, 2, 1, 4, 3]);
        assert!(slot_positions(&[], 0).is_empty());
    }

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
