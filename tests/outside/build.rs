//! Generates what no one would commit: a contract of 200 operations with long, three-paragraph
//! docs, and one operation whose doc is a single paragraph of about 500 KB. Both must compile
//! (no `long_running_const_eval`), and each operation must be named by its first line only.

use std::fmt::Write;

fn paragraph(seed: usize, bytes: usize) -> String {
    let mut text = String::new();
    let mut word = seed;
    while text.len() < bytes {
        word = word.wrapping_mul(2_654_435_761).wrapping_add(12_345) % 1_000;
        write!(text, "word{word} ").unwrap();
    }
    text.trim_end().to_owned() + "."
}

fn main() {
    let mut out = String::new();
    out.push_str("/// Many long-documented operations.\n");
    out.push_str("#[derive(stitch::Contract, serde::Deserialize)]\n");
    out.push_str("#[serde(tag = \"op\")]\n#[allow(dead_code)]\npub enum ManyDocumented {\n");
    for op in 0..200 {
        writeln!(
            out,
            "    /// Operation {op} changes part {op} of the record."
        )
        .unwrap();
        for (i, seed) in [op * 3 + 1, op * 3 + 2].into_iter().enumerate() {
            out.push_str("    ///\n");
            writeln!(out, "    /// Paragraph {i}: {}", paragraph(seed, 800)).unwrap();
        }
        writeln!(out, "    Op{op} {{").unwrap();
        for field in 0..12 {
            let name = (op * 7 + field) % 40;
            writeln!(
                out,
                "        /// The field {name}: {}",
                paragraph(name, 200)
            )
            .unwrap();
            writeln!(out, "        field_{name}: i64,").unwrap();
        }
        out.push_str("    },\n");
    }
    out.push_str("}\n\n");
    out.push_str("/// One operation with a very long doc.\n");
    out.push_str("#[derive(stitch::Contract, serde::Deserialize)]\n");
    out.push_str("#[serde(tag = \"op\")]\n#[allow(dead_code)]\npub enum LongDoc {\n");
    writeln!(out, "    /// {}", paragraph(7, 500_000)).unwrap();
    out.push_str("    Only { x: i64 },\n    /// Short.\n    Other,\n}\n");
    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("big_docs.rs");
    std::fs::write(path, out).unwrap();
}
