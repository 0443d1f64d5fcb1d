#!/usr/bin/env python3
"""The schema snapshot: every text the test suite's contracts render, one per line.

Reads the directory the test harness writes under `STITCH_DIALECT_EXPORT` (one JSON file per
test file and export, each contract's `texts`: its advertised schema as the contract gives
it, its exact schema and its schema in each dialect but `mcp`, which is the advertised one;
and schemars' documents as `tool_schema_for` shows them in each dialect) and prints
`<export> <contract> <rendering>` and the text, tab-separated, sorted. CI compares the
listing with `tests/snapshots/schemas.txt`: a change that makes the derive or the renderer
cheaper must leave every byte as it was, and one that changes a schema on purpose changes
that file with it.

Usage: scripts/schema-snapshot.py EXPORT_DIR > tests/snapshots/schemas.txt
       scripts/schema-snapshot.py EXPORT_DIR --check tests/snapshots/schemas.txt
(`--check` names each text that changed, appeared or went, and exits 1 if any did.)
"""
import json
import pathlib
import sys


def listing(export: pathlib.Path) -> list[str]:
    lines = []
    for path in sorted(export.glob("*.json")):
        for contract, entry in json.loads(path.read_text()).items():
            texts = entry.get("texts")
            if texts is None:
                sys.exit(f"{path.name}: {contract} has no texts (an export from an older harness?)")
            for rendering, text in texts.items():
                # The harness holds `mcp` to the advertised schema: one line says both.
                if rendering == "mcp" and text == texts.get("advertised"):
                    continue
                if "\n" in text or "\t" in text:
                    sys.exit(f"{path.name}: {contract} {rendering}: the text is not on one line")
                lines.append(f"{path.stem} {contract} {rendering}\t{text}")
    if not lines:
        sys.exit(f"{export}: no contract was exported (was STITCH_DIALECT_EXPORT set?)")
    return sorted(lines)


def check(lines: list[str], snapshot: pathlib.Path) -> None:
    def texts(rows):
        return dict(row.split("\t", 1) for row in rows)

    now, held = texts(lines), texts(snapshot.read_text().splitlines())
    changed = [key for key in now if key in held and now[key] != held[key]]
    report = [f"changed: {key}" for key in changed]
    report += [f"new:     {key}" for key in now if key not in held]
    report += [f"gone:    {key}" for key in held if key not in now]
    if report:
        print("\n".join(report))
        sys.exit(
            f"{len(report)} schema texts differ from {snapshot}: if on purpose, rewrite it with "
            f"`scripts/schema-snapshot.py EXPORT_DIR > {snapshot}`"
        )
    print(f"{len(now)} schema texts, each as {snapshot} holds it")


if __name__ == "__main__":
    if len(sys.argv) == 2:
        print("\n".join(listing(pathlib.Path(sys.argv[1]))))
    elif len(sys.argv) == 4 and sys.argv[2] == "--check":
        check(listing(pathlib.Path(sys.argv[1])), pathlib.Path(sys.argv[3]))
    else:
        sys.exit(__doc__)
