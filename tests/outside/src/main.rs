//! Checks, from a user's crate, what the workspace's own tests cannot see. Exits non-zero on
//! the first failure.

mod big_docs {
    include!(concat!(env!("OUT_DIR"), "/big_docs.rs"));
}

use serde_json::Value;

fn check(what: &str, holds: bool) {
    if !holds {
        eprintln!("FAIL {what}");
        std::process::exit(1);
    }
    println!("ok   {what}");
}

fn tag_description(schema: &str) -> String {
    let schema: Value = serde_json::from_str(schema).expect("stitch renders JSON");
    schema["properties"]["op"]["description"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn big_docs() {
    let many = tag_description(big_docs::ManyDocumented::INPUT_SCHEMA);
    check(
        "200 documented operations are each named by their first line",
        many.contains("Op0 \u{2014} Operation 0 changes part 0 of the record; Op1")
            && !many.contains("Paragraph")
            && many.len() < 20_000,
    );
    let long = tag_description(big_docs::LongDoc::INPUT_SCHEMA);
    check(
        "a 500 KB single-paragraph doc compiles and names its operation",
        long.len() > 500_000 && long.ends_with("; Other \u{2014} Short."),
    );
}

fn main() {
    big_docs();
}
