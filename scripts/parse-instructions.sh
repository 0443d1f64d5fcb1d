#!/usr/bin/env bash
# Counts the instructions of `parse` of the incident call (32 operations) and of its
# baselines, each in its own process under cachegrind, minus the shared setup (cloning the
# arguments), and prints the ratios. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -q -p stitch-bench --bench parse_instructions --no-run
bin=$(cargo bench -q -p stitch-bench --bench parse_instructions --no-run --message-format=json 2>/dev/null \
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
generated=$(count generated) by_hand=$(count by_hand) format_checks=$(count format_checks)
full_check=$(count full_check)
python3 - "$clone" "$serde" "$jsonschema" "$stitch" "$by_hand" "$format_checks" "$generated" "$full_check" <<'PY'
import sys
clone, serde, jsonschema, stitch, by_hand, format_checks, generated, full_check = (int(x) for x in sys.argv[1:])
n = 2000
s, j, t = (serde - clone) / n, (jsonschema - clone) / n, (stitch - clone) / n
g = (generated - clone) / n
c = (full_check - clone) / n
h, f = (by_hand - clone) / n, (format_checks - clone) / n
print("instructions per parse of the 32-operation incident call (setup subtracted):")
print(f"  serde_json::from_value (floor)  {s:10.0f}   1.00x")
print(f"  jsonschema exact + serde        {j:10.0f}   {j / s:.2f}x floor")
print(f"  jsonschema generated + serde    {g:10.0f}   {g / s:.2f}x floor")
print(f"  stitch Contract::parse          {t:10.0f}   {t / s:.2f}x floor, {t / j:.2f}x jsonschema + serde, {t / g:.2f}x generated + serde")
print(f"  stitch full check + serde       {c:10.0f}   {c / s:.2f}x floor (a call that does not pass as sent)")
print("bounds (what any implementation spends):")
print(f"  construction by hand, no derive {h:10.0f}   {h / s:.2f}x floor")
print(f"  format and pattern checks only  {f:10.0f}   {f / s:.2f}x floor")
print(f"  1.2x the floor leaves {0.2 * s:.0f} for validation; the checks above take {f / (0.2 * s):.0%} of it")
PY
