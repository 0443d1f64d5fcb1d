use serde::Deserialize;

#[path = "../budgets/codes.rs"]
mod codes;

// An enum of 1,001 values: OpenAI's strict mode takes 1,000.
#[derive(stitch::Contract, Deserialize)]
#[contract(name = "pick", check_dialects("openai-strict"))]
struct PickCode {
    code: codes::Code,
}

fn main() {}
