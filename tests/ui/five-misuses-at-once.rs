use serde::Deserialize;

// Five different misuses, each reported in the same build.
#[derive(stitch::Contract, Deserialize)]
#[contract(require_typed_properties)]
struct Event {
    #[contract(min = 0)]
    title: String,
    #[contract(min_length = 1)]
    attendees: u32,
    #[contract(pattern = "(?i)^room")]
    room: String,
    #[contract(catch = None)]
    note: Option<String>,
    #[contract(unique_items)]
    all_day: bool,
}

// And every guard finding of a contract, in one error.
#[derive(stitch::Contract, Deserialize)]
#[contract(require_typed_properties, require_portable_formats)]
#[allow(dead_code)]
struct Invite {
    #[contract(opaque)]
    payload: String,
    #[contract(format = "idn-email")]
    email: String,
    #[contract(format = "iri")]
    phone: String,
}

fn main() {}
