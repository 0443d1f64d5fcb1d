//! The runtime's stages import downwards only: a file of one stage names nothing of a later
//! stage (`crate::...`, in a `use` tree of any shape or a path in code), so a newcomer finds
//! each rule in the folder of its stage and below. The order is this list's; `lib.rs` and the
//! derive's hidden path (`private.rs`) sit above every stage. Sources are read as Rust (by
//! `syn`), so no layout of a `use` hides one.

use std::fs;
use std::path::Path;

use syn::visit::Visit;

/// The stages, from the bottom up: a folder or a file at the top of `src/`.
const STAGES: [&str; 9] = [
    "ir", "shape", "union", "text", "call", "foreign", "tool", "guard", "contract",
];

/// Where a module of `src/` sits in [`STAGES`] (its first path segment; `None` above them).
fn stage(module: &str) -> Option<usize> {
    STAGES.iter().position(|stage| *stage == module)
}

/// The stages a source names after `crate::`, each with the line it is named on: every `use`
/// tree (groups and nesting resolved) and every path in code.
struct Named(Vec<(String, usize)>);

impl Named {
    fn crate_child(&mut self, first: &syn::Ident, second: &syn::Ident) {
        if first == "crate" {
            self.0
                .push((second.to_string(), second.span().start().line));
        }
    }
}

impl<'ast> Visit<'ast> for Named {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if let syn::UseTree::Path(path) = &item.tree
            && path.ident == "crate"
        {
            crate_children(&path.tree, &mut self.0);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let mut segments = path.segments.iter();
        if let (Some(first), Some(second)) = (segments.next(), segments.next()) {
            self.crate_child(&first.ident, &second.ident);
        }
        syn::visit::visit_path(self, path);
    }
}

/// The first segment of every path a `use crate::...` tree names below `crate`.
fn crate_children(tree: &syn::UseTree, into: &mut Vec<(String, usize)>) {
    match tree {
        syn::UseTree::Path(path) => {
            into.push((path.ident.to_string(), path.ident.span().start().line))
        }
        syn::UseTree::Name(name) => {
            into.push((name.ident.to_string(), name.ident.span().start().line))
        }
        syn::UseTree::Rename(rename) => {
            into.push((rename.ident.to_string(), rename.ident.span().start().line));
        }
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                crate_children(tree, into);
            }
        }
        syn::UseTree::Glob(_) => {}
    }
}

/// Every stage later than `own` a source names, as `line: stage`.
fn upward_imports(own: usize, source: &str) -> Vec<String> {
    let file = syn::parse_file(source).expect("the runtime's sources parse");
    let mut named = Named(Vec::new());
    named.visit_file(&file);
    named
        .0
        .into_iter()
        .filter(|(module, _)| stage(module).is_some_and(|named| named > own))
        .map(|(module, line)| format!("{line}: crate::{module}"))
        .collect()
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
fn an_upward_import_is_found_in_any_layout() {
    let guard = stage("guard").unwrap();
    let ir = stage("ir").unwrap();
    let source = "use crate::ir::Node;\n\
                  use crate::guard::Finding; // upward\n\
                  // crate::contract in a comment is no import\n\
                  use crate::{\n    shape::Shape,\n    contract::{\n        Contract,\n    },\n};\n\
                  fn f() { let _ = crate::tool::Tool::default; }\n";
    assert_eq!(upward_imports(guard, source), ["6: crate::contract"]);
    assert_eq!(
        upward_imports(ir, source),
        [
            "2: crate::guard",
            "5: crate::shape",
            "6: crate::contract",
            "10: crate::tool"
        ]
    );
}
