#!/usr/bin/env python3
"""What a user copies from stitch's rendered docs, checked as a user's crate would take it.

Usage: scripts/copied-examples.py DOC_DIR CRATE_DIR

DOC_DIR is `target/doc/stitch` (rustdoc's HTML for the facade). Every Rust example on its
pages that is not marked as failing to compile is taken as rendered, without the lines
rustdoc hides, and written into CRATE_DIR as a module of a binary crate that depends on
`stitch-mcp` (by path) and the crates a user of it writes beside it (serde, serde_json,
tokio). Each example is wrapped as rustdoc wraps one: in `fn main` unless it has its own.
Building CRATE_DIR then says whether every example compiles where a user pastes it.

It also reads every `stitch::…` path the pages' prose and examples name, and fails on one that
names no item of the facade (`all.html` lists them), such as a path the runtime once had.
"""

import html
import pathlib
import re
import sys

EXAMPLE = re.compile(
    r'<div class="example-wrap( [^"]*)?">(?:<a [^>]*>[^<]*</a>)?'
    r'<pre class="rust rust-example-rendered"><code>(.*?)</code></pre>',
    re.S,
)
TAG = re.compile(r"<[^>]+>")
# Tags that break the text (a heading, a breadcrumb's parts) as against those inside a line.
BREAKING_TAG = re.compile(r"<(?!/?(?:a|code|span|em|strong|wbr)\b)[^>]+>")
PATH = re.compile(r"\bstitch::[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*")
ITEM_LINK = re.compile(r'<a href="([^"]+)\.html">([^<]+)</a>')

MANIFEST = """\
[package]
name = "stitch-copied-examples"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
stitch-mcp = {{ path = "{stitch}", features = ["http"] }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
tokio = {{ version = "1", features = ["macros", "rt-multi-thread"] }}

[workspace]
"""


def text_of(fragment):
    return html.unescape(TAG.sub("", fragment))


def examples(doc_dir):
    """Each distinct example's visible text, with the pages that show it."""
    found = {}
    for page in sorted(doc_dir.rglob("*.html")):
        for match in EXAMPLE.finditer(page.read_text()):
            # One shown failing to compile (`compile_fail`) or not compiled (`ignore`) says so.
            if match.group(1):
                continue
            found.setdefault(text_of(match.group(2)), []).append(str(page.relative_to(doc_dir)))
    return found


def as_rustdoc_runs(code):
    """The example as rustdoc compiles it: its own `fn main`, or wrapped in one."""
    if re.search(r"^\s*(#\[[^\]]*\]\s*)*(async\s+)?fn main\s*\(", code, re.M):
        return code
    return "fn main() {\n" + code + "\n}\n"


def facade_items(doc_dir):
    """Every path under `stitch::` that names an item or a module."""
    items = {"stitch"}
    for href, name in ITEM_LINK.findall((doc_dir / "all.html").read_text()):
        parts = href.split("/")
        modules = parts[:-1]
        items.add("::".join(["stitch", *modules, name.split("::")[-1]]))
        for depth in range(1, len(modules) + 1):
            items.add("::".join(["stitch", *modules[:depth]]))
    return items


def unknown_paths(doc_dir, items):
    """`stitch::…` paths the pages write that no item starts: (path, page)."""
    unknown = set()
    for page in sorted(doc_dir.rglob("*.html")):
        prose = text_of(BREAKING_TAG.sub("\n", page.read_text()))
        for path in PATH.findall(prose):
            parts = path.split("::")
            # What the facade re-exports of rmcp is rmcp's to name.
            if parts[:3] == ["stitch", "mcp", "rmcp"]:
                continue
            if not any("::".join(parts[:n]) in items for n in range(2, len(parts) + 1)):
                unknown.add((path, str(page.relative_to(doc_dir))))
    return sorted(unknown)


def main():
    doc_dir, crate_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    stitch = pathlib.Path(__file__).resolve().parent.parent
    found = examples(doc_dir)
    if not found:
        sys.exit(f"no Rust example in {doc_dir}: were the docs built?")
    src = crate_dir / "src"
    src.mkdir(parents=True, exist_ok=True)
    for old in src.glob("example_*.rs"):
        old.unlink()
    (crate_dir / "Cargo.toml").write_text(MANIFEST.format(stitch=stitch))
    modules = []
    for n, (code, pages) in enumerate(found.items()):
        name = f"example_{n:02}"
        shown = "\n".join(f"// Shown on {page}" for page in pages)
        (src / f"{name}.rs").write_text(f"{shown}\n{as_rustdoc_runs(code)}")
        modules.append(f"#[allow(dead_code)]\nmod {name};")
    (src / "main.rs").write_text(
        "//! Every example of stitch's rendered docs, as a user copies it.\n"
        + "\n".join(modules)
        + "\nfn main() {}\n"
    )
    unknown = unknown_paths(doc_dir, facade_items(doc_dir))
    for path, page in unknown:
        print(f"{page}: `{path}` names nothing in the facade", file=sys.stderr)
    print(f"{len(found)} examples written to {crate_dir}", file=sys.stderr)
    sys.exit(1 if unknown else 0)


if __name__ == "__main__":
    main()
