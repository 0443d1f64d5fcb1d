use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
struct Paging {
    per_page: u32,
}

/// Two fields on one key.
#[derive(stitch::Contract, Deserialize)]
struct Twice {
    per_page: u32,
    #[serde(flatten)]
    paging: Paging,
}

/// serde reads an `Option` as `None` when its keys do not fit.
#[derive(stitch::Contract, Deserialize)]
struct Maybe {
    name: String,
    #[serde(flatten)]
    paging: Option<Paging>,
}

#[derive(stitch::Contract, Deserialize)]
struct Sorting {
    order: String,
}

/// The `Option` is said at its own field, not at the first flattened one.
#[derive(stitch::Contract, Deserialize)]
struct SecondMaybe {
    #[serde(flatten)]
    paging: Paging,
    #[serde(flatten)]
    sorting: Option<Sorting>,
}

/// Only an object's keys flatten.
#[derive(stitch::Contract, Deserialize)]
struct Scalar {
    #[serde(flatten)]
    count: u32,
}

fn main() {}
