use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
struct Word {
    // An ordinary-looking bound that the `regex` crate compiles past its size limit: `parse`
    // could not check it, so the derive refuses it.
    #[contract(pattern = "^[a-z]{1,100000}$")]
    word: String,
}

fn main() {}
