#!/usr/bin/env bash
# Compile-time benchmark: generates one big contract crate three ways (serde only, serde +
# schemars, serde + stitch) in a scratch directory, builds the dependencies first, then times
# `cargo check` of the user crate alone, in interleaved rounds, and prints the ratios of the
# best and of the median times. Also checks that one enum of 200 operations compiles without
# the `long_running_const_eval` lint.
#
# Usage: scripts/compile-bench.sh [enums=4] [operations=60] [fields=12] [rounds=5]
# DOCS=1 puts a doc comment on every operation and field (one text per field name), as a
# documented contract has: descriptions are most of a schema's text.
# BASELINE=DIR adds a fourth crate, the same stitch crate built against the checkout in DIR,
# interleaved with the others: a change's cost as a ratio against schemars in the same run.
# READ=fn reads each stitch schema in a function (`fn schema_0() -> &'static str`), as a
# server listing its tools does and as the schemars crate reads its own, instead of in a
# constant (`const SCHEMA_0: &str`, the default), which `cargo check` must evaluate.
# COMMAND=build times `cargo build` instead of `cargo check`: code generation too, where a
# schema read in a function is rendered, and where the schemars crate's schema-building
# functions are compiled.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
# --crate DIR FLAVOR ENUMS OPS FIELDS: only write that crate (for compile-instructions.sh).
MODE=run
if [ "${1:-}" = "--crate" ]; then MODE=crate; scratch="$2"; shift 2; fi
enums="${1:-4}" ops="${2:-60}" fields="${3:-12}" runs="${4:-5}"
if [ "$MODE" = run ]; then
  scratch="${SCRATCH:-$(mktemp -d)}"
  export CARGO_TARGET_DIR="$scratch/target" CARGO_INCREMENTAL=0
fi

generate() { # flavor enums ops fields -> src/lib.rs on stdout
  python3 - "$@" <<'PY'
import os, sys
flavor, enums, ops, fields = sys.argv[1], *map(int, sys.argv[2:])
docs = os.environ.get("DOCS") == "1"
doc = (lambda text: f"\n        /// {text}\n        ") if docs else (lambda text: "")
derive = {"serde": "Deserialize", "schemars": "Deserialize, schemars::JsonSchema",
          "stitch": "Deserialize, stitch::Contract"}[flavor]
attr = (lambda a: f"#[contract({a})] ") if flavor == "stitch" else (lambda a: "")
types = ["i64", "String", "Option<u32>", "Vec<String>", "bool", "Inner"]
out = ["#![allow(dead_code)]", "use serde::Deserialize;",
       f"#[derive({derive})]\n#[serde(tag = \"kind\")]\npub enum Inner {{ A {{ x: i64 }}, B {{ y: String }} }}"]
for e in range(enums):
    out.append(f"#[derive({derive})]\n#[serde(tag = \"op\", rename_all_fields = \"camelCase\")]\npub enum Ops{e} {{")
    for o in range(ops):
        fs = []
        for f in range(fields):
            name = f"field_{(o * 7 + f) % 40}"   # 40 names over 12 fields a variant: collisions
            ty = types[(o + f) % 6] if f % 3 else "i64"
            fs.append(doc(f"The {name} of the record, as this operation reads it.")
                      + (attr("min = 0") if ty == "i64" else "") + f"{name}: {ty}")
        operation_doc = f"    /// Operation {o}: changes one part of the record.\n" if docs else ""
        out.append(operation_doc + f"    Op{o} {{ {', '.join(fs)} }},")
    out.append("}")
    if flavor == "stitch" and os.environ.get("READ") == "fn":
        out.append(f"pub fn schema_{e}() -> &'static str {{ Ops{e}::INPUT_SCHEMA }}")
    elif flavor == "stitch":
        out.append(f"pub const SCHEMA_{e}: &str = Ops{e}::INPUT_SCHEMA;")
    if flavor == "schemars":
        out.append(f"pub fn schema_{e}() -> String {{ schemars::schema_for!(Ops{e}).as_value().to_string() }}")
print("\n".join(out))
PY
}

make_crate() { # name flavor enums ops fields stitch-checkout
  local dir="$scratch/$1"
  # The checkout's package name (`stitch-mcp`; `stitch` before it was renamed), as `stitch`.
  local package
  package=$(sed -n '/^\[package\]/,/^\[/ s/^name = "\(.*\)"/\1/p' "$6/Cargo.toml" | head -n 1)
  mkdir -p "$dir/src"
  cat > "$dir/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
[dependencies]
serde = { version = "1", features = ["derive"] }
schemars = "1"
stitch = { package = "$package", path = "$6" }
[workspace]
TOML
  generate "$2" "$3" "$4" "$5" > "$dir/src/lib.rs"
}

if [ "$MODE" = crate ]; then
  make_crate bench_stitch "$@" "${STITCH:-$repo}"
  exit 0
fi

check_once() { # dir -> seconds of one `cargo check` (or COMMAND) of the crate alone
  touch "$1/src/lib.rs"
  local start end
  start=$(date +%s.%N)
  (cd "$1" && cargo "$command" -q)
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}

command="${COMMAND:-check}"
export COMMAND="$command"
flavors=(serde schemars stitch)
for flavor in "${flavors[@]}"; do
  make_crate "bench_$flavor" "$flavor" "$enums" "$ops" "$fields" "${STITCH:-$repo}"
done
if [ -n "${BASELINE:-}" ]; then
  flavors+=(baseline)
  make_crate bench_baseline stitch "$enums" "$ops" "$fields" "$BASELINE"
fi
for flavor in "${flavors[@]}"; do
  (cd "$scratch/bench_$flavor" && cargo "$command" -q)    # dependencies, and a warm-up
done
# Rounds interleave the three crates, so a slow moment of a shared machine hits all three.
times=()
for _ in $(seq "$runs"); do
  for flavor in "${flavors[@]}"; do
    times+=("$flavor=$(check_once "$scratch/bench_$flavor")")
  done
done
python3 - "$enums" "$ops" "$fields" "${times[@]}" <<'PY'
import os, statistics, sys
enums, ops, fields = sys.argv[1:4]
runs = {}
for entry in sys.argv[4:]:
    flavor, seconds = entry.split("=")
    runs.setdefault(flavor, []).append(float(seconds))
best = {f: min(t) for f, t in runs.items()}
median = {f: statistics.median(t) for f, t in runs.items()}
docs = " (documented)" if os.environ.get("DOCS") == "1" else ""
read = ", stitch's schemas read in functions" if os.environ.get("READ") == "fn" else ""
print(f"cargo {os.environ['COMMAND']} of {enums} enums x {ops} operations x {fields} fields{docs}{read}, {len(runs['serde'])} interleaved rounds:")
print("                    best      median    (ratios: best / median)")
labels = [("serde", "serde only"), ("schemars", "serde + schemars"), ("stitch", "serde + stitch")]
if "baseline" in runs:
    labels.append(("baseline", "baseline stitch"))
for flavor, label in labels:
    print(f"  {label:17} {best[flavor]:6.2f} s  {median[flavor]:6.2f} s   "
          f"{best[flavor] / best['serde']:.2f}x / {median[flavor] / median['serde']:.2f}x serde")
print(f"  stitch vs schemars: {best['stitch'] / best['schemars']:.2f}x best, "
      f"{median['stitch'] / median['schemars']:.2f}x median (target <= 1.5x)")
own = {f: median[f] - median["serde"] for f in runs}
print(f"  own cost over serde (medians): stitch {own['stitch']:.2f} s, schemars {own['schemars']:.2f} s: "
      f"{own['stitch'] / own['schemars']:.2f}x (target <= 1x)")
if "baseline" in runs:
    print(f"  own cost over serde of the baseline: {own['baseline']:.2f} s")
    print(f"  baseline stitch vs schemars: {best['baseline'] / best['schemars']:.2f}x best, "
          f"{median['baseline'] / median['schemars']:.2f}x median")
    print(f"  stitch vs baseline: {best['stitch'] / best['baseline']:.3f}x best, "
          f"{median['stitch'] / median['baseline']:.3f}x median")
PY

make_crate bench_stitch_200 stitch 1 200 "$fields" "${STITCH:-$repo}"
log="$scratch/200.log"
start=$(date +%s.%N)
(cd "$scratch/bench_stitch_200" && cargo check 2> "$log") || { cat "$log"; exit 1; }
end=$(date +%s.%N)
if grep -q long_running_const_eval "$log"; then
  echo "one enum of 200 operations: long_running_const_eval fired"; exit 1
fi
python3 -c "print(f'one enum of 200 operations x $fields fields: {$end - $start:.2f} s, no long_running_const_eval')"
