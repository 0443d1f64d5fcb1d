//! Fields spelled alike under one key are one field to the collision rules (the derive marks
//! the repeats, the key table skips them): one that differs by an attribute or by its
//! description, among many alike, must still count.

use super::*;

both_orders!(
    AlikeA,
    AlikeB,
    [A {
        #[contract(min = 0)]
        x: i64,
        /// The first text.
        y: bool
    }],
    [B {
        #[contract(min = 0)]
        x: i64,
        /// The first text.
        y: bool
    }],
    [C {
        x: i64,
        /// The second text.
        y: bool
    }],
    [D {
        #[contract(min = 0)]
        x: i64,
        /// The first text.
        y: bool
    }],
);

#[test]
fn fields_spelled_alike_count_once_and_one_spelled_otherwise_still_counts() {
    assert_eq!(merged::<AlikeA, AlikeB>("x"), json!({"type": "integer"}));
    assert_eq!(merged::<AlikeA, AlikeB>("y"), json!({"type": "boolean"}));
    assert_eq!(
        description::<AlikeA>("y"),
        "A, B, D: The first text. C: The second text."
    );
    assert_eq!(
        description::<AlikeB>("y"),
        "D, B, A: The first text. C: The second text."
    );
}

every_contract_here!(AlikeA, AlikeB);
