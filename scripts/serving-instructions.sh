#!/usr/bin/env bash
# Instructions per call of one handler served as a stitch tool and as a plain rmcp tool
# (`benches/serving.rs`): each tool called over an in-memory duplex under cachegrind, 2,200
# calls minus 200 (the server's start and the client's setup subtracted), and the ratio.
# Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -q -p stitch-bench --bench serving --no-run
bin=$(cargo bench -q -p stitch-bench --bench serving --no-run --message-format=json 2>/dev/null \
  | python3 -c "import sys, json
for line in sys.stdin:
    m = json.loads(line)
    if m.get('executable') and m['target']['name'] == 'serving':
        print(m['executable'])")
count() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" calls "$1" "$2" 2>&1 \
    | sed -n 's/.*I *refs: *//p' | tr -d ','
}
per_call() {
  echo $(( ($(count "$1" 2200) - $(count "$1" 200)) / 2000 ))
}
stitch=$(per_call read_stitch) plain=$(per_call read_plain)
python3 - "$stitch" "$plain" <<'PY'
import sys
stitch, plain = (int(x) for x in sys.argv[1:])
print("instructions per call over an in-memory duplex (rmcp's stdio framing), through InDialects:")
print(f"  plain rmcp tool (Parameters<T>, schemars)  {plain:8d}")
print(f"  stitch tool (parse, structured answer)     {stitch:8d}   {stitch / plain:.3f}x; "
      f"the stitch tool serves {plain / stitch:.3f}x the plain tool's calls per core")
PY
