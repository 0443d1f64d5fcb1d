use serde::Deserialize;

/// Each literal fallback breaks the field's own rule; the last keeps within them.
#[derive(stitch::Contract, Deserialize)]
struct Limits {
    #[contract(min = 5, catch = 0)]
    count: u32,
    #[contract(max_length = 3, catch = String::from("toolong"))]
    code: String,
    #[contract(values("a", "b"), catch = "c".to_owned())]
    choice: String,
    #[contract(pattern = "^[a-z]+$", catch = "ABC".into())]
    name: String,
    #[contract(exclusive_max = -1, catch = (-1))]
    below: i32,
    #[contract(min = -5, max = 5, catch = -3)]
    fine: i32,
    #[contract(min_length = 2, values("ab", "cd"), catch = "ab".to_owned())]
    kept: String,
}

fn main() {}
