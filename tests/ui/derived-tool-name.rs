use serde::Deserialize;

// The tool name is derived from the type's name, and breaks the rule twice over.
#[derive(stitch::Contract, Deserialize)]
struct Größe {
    value: i64,
}

#[derive(stitch::Contract, Deserialize)]
struct AVeryLongContractNameThatKeepsGoingWellPastTheSixtyFourCharacterLimitOfMcpToolNames {
    value: i64,
}

fn main() {}
