#!/usr/bin/env python3
"""The public surface of the `stitch` facade, one line per item, member and implementation.

Usage: scripts/public-api.py DOC_DIR > public-api.txt

DOC_DIR is `target/doc/stitch`, rustdoc's HTML for the facade built with every feature
(`cargo doc --no-deps --all-features`): what users see is what they may rely on. Each item's
page gives its declaration (a struct's public fields, an enum's variants, a function's
signature), the signatures of its inherent members, and the traits it implements (auto and
blanket implementations left out: they follow from the rest); a trait's page its members and
its implementors. CI compares the output with `public-api.txt`, so a change to the surface is
a change to that file, made on purpose and read in review.
"""

import html
import pathlib
import re
import sys

TAG = re.compile(r"<[^>]+>")
# A long list's toggle ("Show 17 fields") is the page's, not the item's.
TOGGLE = re.compile(r"<summary.*?</summary>", re.S)
# rustdoc also writes a page at each private path an item was defined under, which only
# sends the reader on to the public one.
REDIRECT = 'http-equiv="refresh"'
SPACE = re.compile(r"\s+")
DECLARATION = re.compile(r'<pre class="rust item-decl"><code>(.*?)</code></pre>', re.S)
IMPL_HEADER = re.compile(r'<h3 class="code-header">(.*?)</h3>', re.S)
MEMBER_HEADER = re.compile(r'<h4 class="code-header">(.*?)</h4>', re.S)
# The sections of a page whose headers are part of the surface, and whether their members'
# signatures are too (a trait implementation's members are the trait's).
SECTIONS = {
    "implementations-list": True,
    "trait-implementations-list": False,
    "required-methods": True,
    "provided-methods": True,
    "required-associated-types": True,
    "required-associated-consts": True,
    "provided-associated-consts": True,
    "implementors-list": False,
    "foreign-impls": False,
}
SECTION_START = re.compile(r'<(?:div|h2|section) id="([a-z-]+)"')
ITEM_PAGE = re.compile(r"^(struct|enum|trait|fn|constant|type|derive|macro|static|union|attr)\.")


def text_of(fragment):
    """One line of a fragment's text, as a reader sees it (tags dropped, spaces single)."""
    text = TAG.sub("", TOGGLE.sub("", fragment).replace("<br>", " "))
    return SPACE.sub(" ", html.unescape(text)).strip()


def item_path(page, doc_dir):
    """`stitch::guard::check` for `guard/fn.check.html`."""
    parts = page.relative_to(doc_dir).with_suffix("").parts
    kind, name = parts[-1].split(".", 1)
    return kind, "::".join(["stitch", *parts[:-1], name])


def sections(body):
    """(section id, its text) for each section of a page, in order."""
    starts = [(m.start(), m.group(1)) for m in SECTION_START.finditer(body)]
    for (start, name), (end, _) in zip(starts, starts[1:] + [(len(body), "")]):
        yield name, body[start:end]


def surface(doc_dir):
    lines = []
    for page in sorted(doc_dir.rglob("*.html")):
        if not ITEM_PAGE.match(page.name):
            continue
        body = page.read_text()
        if REDIRECT in body:
            continue
        kind, path = item_path(page, doc_dir)
        declaration = DECLARATION.search(body)
        lines.append(f"{path} ({kind}): {text_of(declaration.group(1)) if declaration else ''}")
        for name, section in sections(body):
            if name not in SECTIONS:
                continue
            for header in IMPL_HEADER.findall(section):
                lines.append(f"{path}: {text_of(header)}")
            if SECTIONS[name]:
                for member in MEMBER_HEADER.findall(section):
                    lines.append(f"{path}:     {text_of(member)}")
    return lines


def main():
    doc_dir = pathlib.Path(sys.argv[1])
    lines = surface(doc_dir)
    if not lines:
        sys.exit(f"no item pages in {doc_dir}: were the docs built?")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
