//! The contracts of the failing guard tests compile once the profile names their exceptions.
use serde::Deserialize;
use stitch::Contract;

#[derive(Contract, Deserialize)]
#[contract(require_typed_properties, allow_untyped("amount"))]
#[serde(tag = "op", rename_all = "camelCase")]
enum Patch {
    SetA {
        #[contract(coerce)]
        amount: i64,
    },
    SetB {
        amount: i64,
    },
}

#[derive(Contract, Deserialize)]
struct Step {
    #[contract(opaque)]
    index: std::time::Duration,
}

#[derive(Contract, Deserialize)]
#[contract(name = "plan", require_typed_properties, allow_untyped("steps.index"))]
struct Plan {
    steps: Vec<Step>,
}

#[derive(Contract, Deserialize)]
#[contract(require_portable_formats, allow_formats("cuid2"))]
struct Lookup {
    #[contract(format = "cuid2")]
    id: String,
}

fn main() {
    assert_eq!(Plan::TOOL.profile.untyped_allowed, ["plan.steps.index"]);
    assert_eq!(Patch::TOOL.profile.untyped_allowed, ["patch.amount"]);
    assert_eq!(Lookup::TOOL.profile.formats_allowed, ["cuid2"]);
}
