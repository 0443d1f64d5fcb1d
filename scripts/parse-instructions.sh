#!/usr/bin/env bash
# Counts the instructions of `parse` of the incident call (32 operations) and of its
# baselines, each in its own process under cachegrind, minus the shared setup (cloning the
# arguments), and prints the ratios. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -q --bench parse_instructions --no-run
bin=$(cargo bench -q --bench parse_instructions --no-run --message-format=json 2>/dev/null \
  | python3 -c "import sys, json
for line in sys.stdin:
    m = json.loads(line)
    if m.get('executable') and m['target']['name'] == 'parse_instructions':
        print(m['executable'])")
count() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" "$1" 2>&1 \
    | sed -n 's/.*I *refs: *//p' | tr -d ','
}
clone=$(count clone) serde=$(count serde) jsonschema=$(count jsonschema) stitch=$(count stitch)
python3 - "$clone" "$serde" "$jsonschema" "$stitch" <<'PY'
import sys
clone, serde, jsonschema, stitch = (int(x) for x in sys.argv[1:])
n = 2000
s, j, t = (serde - clone) / n, (jsonschema - clone) / n, (stitch - clone) / n
print("instructions per parse of the 32-operation incident call (setup subtracted):")
print(f"  serde_json::from_value (floor)  {s:10.0f}   1.00x")
print(f"  jsonschema exact + serde        {j:10.0f}   {j / s:.2f}x floor")
print(f"  stitch Contract::parse          {t:10.0f}   {t / s:.2f}x floor, {t / j:.2f}x jsonschema + serde")
PY
