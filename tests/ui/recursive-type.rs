use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
struct Tree {
    label: String,
    children: Vec<Tree>,
}

#[derive(stitch::Contract, Deserialize)]
#[serde(tag = "op")]
enum Expr {
    Neg { inner: Box<Self> },
    Lit { value: i64 },
    Wrap(Option<Box<Expr>>),
}

fn main() {}
