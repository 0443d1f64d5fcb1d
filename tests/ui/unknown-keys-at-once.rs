use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[contract(nmae = "limits")]
struct Limits {
    #[contract(minimum = 0)]
    count: u32,
    #[contract(max_lenght = 3)]
    label: String,
}

fn main() {}
