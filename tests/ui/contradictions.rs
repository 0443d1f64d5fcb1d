use serde::Deserialize;

// Limits that leave no value to send: refused where they are written, with every other error.
#[derive(stitch::Contract, Deserialize)]
struct Limits {
    #[contract(min = 10, max = 1)]
    count: i64,
    #[contract(exclusive_min = 1, exclusive_max = 2)]
    between: u32,
    #[contract(min_length = 5, max_length = 2)]
    name: String,
    #[contract(min_items = 3, max_items = 1)]
    tags: Vec<String>,
    // The type's own range counts: a `u8` holds at most 255.
    #[contract(min = 300)]
    level: u8,
}

// A format name stitch does not know is refused, naming the closest it knows.
#[derive(stitch::Contract, Deserialize)]
struct Contact {
    #[contract(format = "emial")]
    email: String,
}

// Unless the contract allows it.
#[derive(stitch::Contract, Deserialize)]
#[contract(allow_formats("cuid2"))]
struct Lookup {
    #[contract(format = "cuid2")]
    id: String,
}

fn main() {}
