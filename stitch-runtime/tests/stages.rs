//! The runtime's stages import downwards only: a file of one stage names nothing of a later
//! stage (`crate::...`), so a newcomer finds each rule in the folder of its stage and below.
//! The order is this list's; `lib.rs` and the derive's hidden path (`private.rs`) sit above
//! every stage.

use std::fs;
use std::path::Path;

/// The stages, from the bottom up: a folder or a file at the top of `src/`.
const STAGES: [&str; 9] = [
    "ir", "shape", "union", "text", "call", "foreign", "tool", "guard", "contract",
];

/// Where a module of `src/` sits in [`STAGES`] (its first path segment; `None` above them).
fn stage(module: &str) -> Option<usize> {
    STAGES.iter().position(|stage| *stage == module)
}

/// Every `crate::STAGE` a source names (outside comments) from a later stage than `own`'s,
/// as `line: text`.
fn upward_imports(own: usize, source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in source.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let named: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if stage(&named).is_some_and(|named| named > own) {
                found.push(format!("{}: {}", number + 1, line.trim()));
            }
        }
        // `use crate::{a, b}` names several at once.
        if let Some(group) = code.split("use crate::{").nth(1) {
            for named in group.split([',', '}']).map(|part| part.trim()) {
                let head = named.split("::").next().unwrap_or_default();
                if stage(head).is_some_and(|named| named > own) {
                    found.push(format!("{}: {}", number + 1, line.trim()));
                }
            }
        }
    }
    found
}

/// Each `.rs` file under `dir`, with its path.
fn sources(dir: &Path, into: &mut Vec<(String, String)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, into);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let text = fs::read_to_string(&path).unwrap();
            into.push((path.display().to_string(), text));
        }
    }
}

#[test]
fn no_stage_imports_from_a_later_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut upward = Vec::new();
    let mut staged = 0;
    for (path, text) in &files {
        let relative = Path::new(path).strip_prefix(&src).unwrap();
        let first = relative.iter().next().unwrap().to_string_lossy();
        let module = first.trim_end_matches(".rs");
        let Some(own) = stage(module) else {
            assert!(
                ["lib", "private"].contains(&module),
                "{module} is in no stage: add it to STAGES"
            );
            continue;
        };
        staged += 1;
        for import in upward_imports(own, text) {
            upward.push(format!("{}:{import}", relative.display()));
        }
    }
    assert!(staged > 50, "the stages' files were found ({staged})");
    assert!(
        upward.is_empty(),
        "imports from a later stage:\n{}",
        upward.join("\n")
    );
}

#[test]
fn an_upward_import_is_found() {
    let guard = stage("guard").unwrap();
    let ir = stage("ir").unwrap();
    let source = "use crate::ir::Node;\nuse crate::guard::Finding; // upward\n\
                  // crate::contract in a comment is no import\n\
                  use crate::{shape::Shape, contract::Contract};\n";
    assert_eq!(upward_imports(guard, source).len(), 1);
    assert_eq!(
        upward_imports(ir, source),
        [
            "2: use crate::guard::Finding; // upward",
            "4: use crate::{shape::Shape, contract::Contract};",
            "4: use crate::{shape::Shape, contract::Contract};",
        ]
    );
}
