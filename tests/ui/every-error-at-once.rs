use serde::Deserialize;

#[derive(stitch::Contract, Deserialize)]
#[contract(name = "")]
#[serde(tag = "op")]
enum Patch {
    SetText {
        #[contract(pattern = "(unclosed")]
        text: String,
        #[serde(deserialize_with = "parse_color")]
        color: String,
        #[contract(lowercase, uppercase)]
        label: String,
    },
    Mix {
        #[serde(flatten)]
        rest: std::collections::HashMap<String, String>,
        #[contract(opaque, min = 0)]
        blob: Vec<u8>,
    },
}

fn parse_color<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    String::deserialize(d)
}

fn main() {}
