//! Numbering the keys of a flattened union: every field gets the index of its key, keys
//! numbered in order of first appearance. The derive numbers a union's fields natively when
//! it knows every name; constant evaluation numbers them when an operation's fields come from
//! another type's shape (a newtype operation). One algorithm for both.

use crate::json::fnv1a;
use crate::strings::str_eq;

/// The size of the hash table [`number_keys`] needs for `names` names.
pub const fn slots_for(names: usize) -> usize {
    names * 2 + 1
}

/// Numbers the keys of `names` (every field of every operation, in order): `of_name[i]`
/// becomes the key of `names[i]`, and the number of keys is returned. `slots` is the scratch
/// of an open-addressing hash table, [`slots_for`]`(names.len())` zeros; `hashes` and `first`
/// hold each key's hash and the index of its first name, `names.len()` long. The table holds
/// integers only: constant evaluation handles them far faster than references.
pub const fn number_keys(
    names: &[&str],
    of_name: &mut [u32],
    slots: &mut [u32],
    hashes: &mut [u64],
    first: &mut [u32],
) -> usize {
    let mut keys = 0;
    let mut i = 0;
    let count = names.len();
    let slot_count = slots.len() as u64;
    while i < count {
        let hash = fnv1a(names[i]);
        let mut slot = (hash % slot_count) as usize;
        loop {
            let entry = slots[slot] as usize;
            if entry == 0 {
                slots[slot] = keys as u32 + 1;
                hashes[keys] = hash;
                first[keys] = i as u32;
                of_name[i] = keys as u32;
                keys += 1;
                break;
            }
            let key = entry - 1;
            if hashes[key] == hash && str_eq(names[first[key] as usize], names[i]) {
                of_name[i] = key as u32;
                break;
            }
            slot = (slot + 1) % slots.len();
        }
        i += 1;
    }
    keys
}

/// [`number_keys`] with its scratch allocated: for the derive.
pub fn numbered(names: &[&str]) -> (Vec<u32>, usize) {
    let mut of_name = vec![0; names.len()];
    let mut slots = vec![0; slots_for(names.len())];
    let mut hashes = vec![0; names.len()];
    let mut first = vec![0; names.len()];
    let keys = number_keys(names, &mut of_name, &mut slots, &mut hashes, &mut first);
    (of_name, keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_numbered_in_order_of_first_appearance() {
        let (of_name, keys) = numbered(&["b", "a", "b", "c", "a"]);
        assert_eq!(of_name, [0, 1, 0, 2, 1]);
        assert_eq!(keys, 3);
        assert_eq!(numbered(&[]), (vec![], 0));
    }

    #[test]
    fn probes_that_wrap_and_collide_still_find_every_key_once() {
        // Seven slots for six keys: probe sequences wrap and collide.
        let names = ["a", "b", "c", "a", "d", "b", "e", "f"];
        let mut of_name = [0; 8];
        let (mut slots, mut hashes, mut first) = ([0; 7], [0; 8], [0; 8]);
        let keys = number_keys(&names, &mut of_name, &mut slots, &mut hashes, &mut first);
        assert_eq!((of_name, keys), ([0, 1, 2, 0, 3, 1, 4, 5], 6));
    }

    #[test]
    fn the_numbering_is_the_same_in_constant_evaluation() {
        const NAMES: [&str; 5] = ["x", "y", "x", "z", "y"];
        const NUMBERED: ([u32; 5], usize) = {
            let mut of_name = [0; 5];
            let mut slots = [0; slots_for(5)];
            let (mut hashes, mut first) = ([0; 5], [0; 5]);
            let keys = number_keys(&NAMES, &mut of_name, &mut slots, &mut hashes, &mut first);
            (of_name, keys)
        };
        let (of_name, keys) = numbered(&NAMES);
        assert_eq!(
            (of_name.as_slice(), keys),
            (NUMBERED.0.as_slice(), NUMBERED.1)
        );
    }
}
