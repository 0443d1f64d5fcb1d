use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[contract(name = "broadcast patch!")]
struct BroadcastPatch {
    broadcast_id: String,
}

#[derive(stitch::Contract, Deserialize)]
#[contract(name = "")]
struct Empty {
    value: i64,
}

#[derive(stitch::Contract, Deserialize)]
#[contract(name = "a_name_of_sixty_five_characters_is_one_more_than_the_rule_allows_")]
struct TooLong {
    value: i64,
}

#[derive(stitch::Contract, Deserialize)]
#[contract(name = "naïve.tool")]
struct NotAscii {
    value: i64,
}

fn main() {}
