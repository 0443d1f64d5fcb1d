use serde::{Deserialize, Serialize};

// A type inside a tool's input is read as serde reads it: it derives `Contract`, not `Shape`
// (which describes what `Serialize` writes, and would leave `default` out).
#[derive(stitch::Shape, Serialize, Deserialize)]
struct Window {
    #[serde(default)]
    days: u32,
}

#[derive(stitch::Shape, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Strict {
    #[serde(alias = "count")]
    total: u32,
}

fn main() {}
