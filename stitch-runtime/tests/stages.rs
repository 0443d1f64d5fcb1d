//! The runtime's stages import downwards only: a file of one stage names nothing of a later
//! stage (`crate::...`, in a `use` tree of any shape or a path in code), so a newcomer finds
//! each rule in the folder of its stage and below. The order is this list's; `lib.rs` and the
//! derive's hidden path (`private.rs`) sit above every stage. Sources are read as Rust (by
//! `syn`), so no layout of a `use` hides one. Within a folder, no file names another that
//! names it back, through any chain (the runtime's folders and the facade's), but the
//! renderer's writers.

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

/// Every path a source names, as its segments: each `use` tree's leaves (groups resolved)
/// and every path in code.
struct Paths(Vec<Vec<String>>);

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        use_leaves(&item.tree, &mut Vec::new(), &mut self.0);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.0.push(segments);
        syn::visit::visit_path(self, path);
    }
}

/// The full path of every leaf of a `use` tree.
fn use_leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, into: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            use_leaves(&path.tree, prefix, into);
            prefix.pop();
        }
        syn::UseTree::Name(syn::UseName { ident })
        | syn::UseTree::Rename(syn::UseRename { ident, .. }) => {
            let mut leaf = prefix.clone();
            leaf.push(ident.to_string());
            into.push(leaf);
        }
        syn::UseTree::Glob(_) => into.push(prefix.clone()),
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                use_leaves(tree, prefix, into);
            }
        }
    }
}

/// The sibling modules each file of one folder names (`super::x`, or `crate::folder::x`),
/// by file: the folder's module path from the crate root, and its files' own module names
/// (`mod.rs` aside, which is the folder itself).
fn sibling_imports(module: &[String], files: &[(String, String)]) -> Vec<(String, Vec<String>)> {
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    files
        .iter()
        .map(|(name, source)| {
            let file = syn::parse_file(source).expect("the sources parse");
            let mut paths = Paths(Vec::new());
            paths.visit_file(&file);
            let mut named: Vec<String> = paths
                .0
                .iter()
                .filter_map(|path| {
                    let rest = match path.first().map(String::as_str) {
                        Some("super") => &path[1..],
                        Some("crate") if path[1..].starts_with(module) => &path[1 + module.len()..],
                        _ => return None,
                    };
                    rest.first()
                        .filter(|first| names.contains(&first.as_str()) && *first != name)
                        .cloned()
                })
                .collect();
            named.sort();
            named.dedup();
            (name.clone(), named)
        })
        .collect()
}

/// A circle among the files of one folder, if any, as the names around it.
fn circle(imports: &[(String, Vec<String>)]) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        imports: &[(String, Vec<String>)],
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|name| name == at) {
            let mut found = path[start..].to_vec();
            found.push(at.to_owned());
            return Some(found);
        }
        if done.iter().any(|name| name == at) {
            return None;
        }
        path.push(at.to_owned());
        let next = imports
            .iter()
            .find(|(name, _)| name == at)
            .map(|(_, named)| named.clone())
            .unwrap_or_default();
        for name in &next {
            if let Some(found) = visit(name, imports, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.push(at.to_owned());
        None
    }
    let mut done = Vec::new();
    imports
        .iter()
        .find_map(|(name, _)| visit(name, imports, &mut Vec::new(), &mut done))
}

/// A folder: its module path, and its files' module names and sources.
type Folder = (Vec<String>, Vec<(String, String)>);

/// Each folder under `dir` (its module path from `root`), with its files' module names and
/// sources (a sub-folder is a module of the folder; its `mod.rs` is read as it).
fn folders(root: &Path, dir: &Path, into: &mut Vec<Folder>) {
    let module: Vec<String> = dir
        .strip_prefix(root)
        .unwrap()
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            folders(root, &path, into);
            files.push((
                name,
                fs::read_to_string(path.join("mod.rs")).unwrap_or_default(),
            ));
        } else if path.extension().is_some_and(|ext| ext == "rs")
            && !["mod", "lib"].contains(&name.as_str())
        {
            files.push((name, fs::read_to_string(&path).unwrap()));
        }
    }
    into.push((module, files));
}

/// The folders whose files may name one another in a circle, and why.
const CIRCLES_ALLOWED: [&str; 1] = [
    // The renderer's writers: a recursive writer, each kind of node written by its own file,
    // which writes what it holds through the others.
    "text/render",
];

#[test]
fn no_folder_holds_an_import_circle_but_the_renderers() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The runtime's sources, and the facade's.
    let mut circles = Vec::new();
    for src in [manifest.join("src"), manifest.join("../src")]
        .into_iter()
        .filter(|src| src.is_dir())
    {
        let mut found = Vec::new();
        folders(&src, &src, &mut found);
        for (module, files) in found {
            let imports = sibling_imports(&module, &files);
            if let Some(circle) = circle(&imports) {
                let folder = module.join("/");
                if !CIRCLES_ALLOWED.contains(&folder.as_str()) {
                    circles.push(format!(
                        "{}: {}",
                        src.join(&folder).display(),
                        circle.join(" -> ")
                    ));
                }
            }
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn a_circle_is_found_through_a_multi_line_group() {
    let files = [
        ("a".to_owned(), "use super::{\n    b::B,\n};\n".to_owned()),
        (
            "b".to_owned(),
            "fn f() { crate::folder::c::g(); }\n".to_owned(),
        ),
        (
            "c".to_owned(),
            "use crate::folder::{\n    x,\n    a::A,\n};\n".to_owned(),
        ),
        ("d".to_owned(), "use super::a::A;\n".to_owned()),
    ];
    let imports = sibling_imports(&["folder".to_owned()], &files);
    assert_eq!(
        circle(&imports),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    assert_eq!(circle(&imports[1..]), None, "without a, no circle");
}
