use serde::Deserialize;

// Patterns the `regex` crate reads but an ECMA-262 engine refuses: clients could not compile
// what would be advertised.
#[derive(stitch::Contract, Deserialize)]
struct Codes {
    #[contract(pattern = "^a{1, 3}$")]
    spaced_count: String,
    #[contract(pattern = "^\\p{Greek}+$")]
    bare_script: String,
    #[contract(pattern = "^a++$")]
    stacked: String,
}

fn main() {}
