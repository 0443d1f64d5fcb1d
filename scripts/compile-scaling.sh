#!/usr/bin/env bash
# How the compile cost grows: scripts/compile-bench.sh over 1, 2 and 4 enums of 15, 60 and
# 240 operations (12 fields each), every size its own interleaved run of serde alone, serde +
# schemars and serde + stitch, so each figure has its baseline from the same run. Prints a
# Markdown table of medians: each crate's time, and stitch's and schemars' own cost over serde.
#
# Usage: scripts/compile-scaling.sh [rounds=3]   (DOCS=1 for documented contracts)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-3}"
export SCRATCH="${SCRATCH:-$(mktemp -d)}"
logs="$SCRATCH/scaling"
mkdir -p "$logs"
for enums in 1 2 4; do
  for ops in 15 60 240; do
    "$repo/scripts/compile-bench.sh" "$enums" "$ops" 12 "$rounds" > "$logs/$enums-$ops.log"
  done
done
python3 - "$logs" <<'PY'
import pathlib, re, sys
rows = []
for log in sorted(pathlib.Path(sys.argv[1]).glob("*.log"),
                  key=lambda p: tuple(map(int, p.stem.split("-")))):
    enums, ops = log.stem.split("-")
    median = {label: float(m) for label, m in
              re.findall(r"^  (serde only|serde \+ schemars|serde \+ stitch)\s+[\d.]+ s\s+([\d.]+) s",
                         log.read_text(), re.M)}
    serde, schemars, stitch = (median[k] for k in ("serde only", "serde + schemars", "serde + stitch"))
    own, theirs = stitch - serde, schemars - serde
    rows.append(f"| {enums} x {ops} | {serde:.2f} s | {schemars:.2f} s | {stitch:.2f} s | "
                f"{own:.2f} s | {theirs:.2f} s | {own / theirs if theirs > 0 else float('nan'):.2f}x |")
print("| enums x operations | serde only | serde + schemars | serde + stitch | stitch's own | schemars' own | own / own |")
print("|---|---:|---:|---:|---:|---:|---:|")
print("\n".join(rows))
PY
