use serde::Deserialize;

#[path = "../budgets/deep.rs"]
mod deep;

// Objects 12 levels deep: OpenAI's strict mode takes 10.
#[derive(stitch::Contract, Deserialize)]
#[contract(name = "deep", check_dialects("mcp", "openai-strict"))]
struct Deep12 {
    next: deep::Twelve2,
}

fn main() {}
