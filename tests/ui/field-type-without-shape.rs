use serde::Deserialize;

#[derive(Deserialize)]
struct Color(u8, u8, u8);

#[derive(stitch::Contract, Deserialize)]
struct Paint {
    color: Color,
}

fn main() {}
