//! Tool names at the edges of `^[a-zA-Z0-9_-]{1,64}$`, which the derive accepts; the runtime
//! guard must accept the same (`tests/guard.rs` reads this file and `ui/bad-tool-name.rs`).
use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[contract(name = "a")]
struct One {
    value: i64,
}

#[derive(stitch::Contract, Deserialize)]
#[contract(name = "a_name_of_sixty_four_characters_is_exactly_what_the_rule_allows_")]
struct SixtyFour {
    value: i64,
}

#[derive(stitch::Contract, Deserialize)]
#[contract(name = "Mixed-Case_09")]
struct Mixed {
    value: i64,
}

fn main() {}
