use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
struct HasOp {
    op: String,
    value: i64,
}

// serde reads the tag where `HasOp` expects its field `op`: the operation cannot be called.
#[derive(stitch::Contract, Deserialize)]
#[serde(tag = "op")]
enum Patch {
    Set(HasOp),
}

fn main() {}
