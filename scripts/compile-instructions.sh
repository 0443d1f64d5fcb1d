#!/usr/bin/env bash
# Compile-time instructions: the instructions rustc itself retires checking one generated
# contract crate (serde + stitch, `INPUT_SCHEMA` read per enum), counted with cachegrind.
# Repeatable where wall-clock times on a shared machine are not; compare two checkouts by
# pointing STITCH at each. Needs valgrind.
#
# Usage: scripts/compile-instructions.sh [enums=1] [operations=60] [fields=12]
# STITCH=path/to/a/stitch/checkout (default: this one); DOCS=1 documents every operation
# and field, and READ=fn reads the schemas in functions, as in compile-bench.sh;
# FLAVOR=serde or FLAVOR=schemars counts the same crate with serde alone or serde +
# schemars (the baselines); TARGET=DIR shares one target directory between runs (the
# dependencies are then built once); COMMAND=build counts `cargo build` (code generation
# too) instead of `cargo check`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
stitch="${STITCH:-$repo}"
enums="${1:-1}" ops="${2:-60}" fields="${3:-12}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export CARGO_TARGET_DIR="${TARGET:-$scratch/target}" CARGO_INCREMENTAL=0

STITCH="$stitch" "$repo/scripts/compile-bench.sh" --crate "$scratch" "${FLAVOR:-stitch}" \
  "$enums" "$ops" "$fields"
cd "$scratch/bench_stitch"
cargo "${COMMAND:-check}" -q
touch src/lib.rs
command=$(cargo "${COMMAND:-check}" -v 2>&1 | sed -n 's/^ *Running `\(.*rustc .*--crate-name bench_stitch.*\)`$/\1/p')
rustc="$(rustc --print sysroot)/bin/rustc"
# The command as cargo ran it, with the real compiler (not the rustup proxy) under valgrind.
eval "set -- ${command}"
shift
touch src/lib.rs
valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$rustc" "$@" 2>&1 \
  | sed -n 's/.*I *refs: *//p'
