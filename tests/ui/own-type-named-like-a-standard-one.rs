use serde::Deserialize;

// stitch knows a field of a standard type by its name and passes it by in the walk of
// `refine` checks: a type of one's own by that name, with such checks, fails the build at
// the field rather than going unchecked.
mod own {
    use serde::Deserialize;

    fn not_blank(text: &std::string::String) -> Result<(), &'static str> {
        if text.trim().is_empty() { Err("blank") } else { Ok(()) }
    }

    #[derive(stitch::Contract, Deserialize)]
    pub struct String {
        #[contract(refine = not_blank)]
        text: std::string::String,
    }
}

use own::String;

#[derive(stitch::Contract, Deserialize)]
struct Greeting {
    name: String,
    count: u32,
}

fn main() {}
