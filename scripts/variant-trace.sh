#!/usr/bin/env bash
# Holds a model variant to the whole chip instruction by instruction: one request, software
# ECDSA P-256 verification (16 M cycles) by default, runs with the core's instruction trace on
# the whole chip and on a variant built with RVFI, side by side (one instance each, one per
# core); their records must be identical (`cyclebench compare --identical`), and so must every
# instruction the core retires in the request's timed window: PC, instruction, operands,
# results, memory addresses and data, at the same cycle from the window's opening counter read
# (sim/earlgrey/trace_compare.py). Start-up, where a variant probes for its absent blocks, is
# not compared.
#
# Usage: scripts/variant-trace.sh [--model VARIANT] [--target T] [--out DIR] [BENCH]
#   --model VARIANT  a variant of sim/earlgrey/variants built with RVFI
#                    (default: software-small-traced)
#   --target T       earlgrey-sim (default) or earlgrey-sim-unmasked
#   --out DIR        where records and traces go (default: target/variant-trace); the traces
#                    take about 80 bytes per simulated cycle
#   BENCH            a .bench file of one software request (default: ECDSA P-256 verification)
# How long it takes: docs/speed.md ("Model variants").
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

model=software-small-traced
target=earlgrey-sim
out="$root/target/variant-trace"
bench=""
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model="$2"; shift 2 ;;
    --target) target="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -*) echo "variant-trace: unknown option $1" >&2; exit 2 ;;
    *) bench="$1"; shift ;;
  esac
done

rm -rf "$out"
mkdir -p "$out"
if [ -z "$bench" ]; then
  bench="$out/ecdsa.bench"
  echo '{"software": {"primitive": "ecdsa-p256-verify", "variant": "rust"}}' > "$bench"
fi
cargo build --release --quiet -p cyclebench
cli="$root/target/release/cyclebench"

run() { # name model
  mkdir -p "$out/$1-trace"
  "$cli" run --target "$target" --model "$2" --jobs 1 --no-report --yes \
    --instruction-trace "$out/$1-trace" --out "$out/$1" "$bench" > "$out/$1.log" 2>&1 ||
    { echo "variant-trace: the run on $2 failed:" >&2; tail -n 20 "$out/$1.log" >&2; return 1; }
}
echo "variant-trace: $bench on the whole chip and on $model, traced, side by side ..."
start=$SECONDS
run full full & full_pid=$!
run variant "$model"
wait "$full_pid"
echo "variant-trace: both runs done in $((SECONDS - start)) s"

"$cli" compare "$out/full" "$out/variant" --identical

# Each record's window: the raw cycles of its run phase, between the two counter reads that
# trace_compare.py finds in each trace.
python3 - "$out/full/results.jsonl" <<'EOF' > "$out/windows"
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "run" not in (r.get("raw_phases") or {}):
        sys.exit(f"variant-trace: line {r['line']} is not a timed software request")
    print(r["raw_phases"]["run"])
EOF
trace() { find "$out/$1-trace" -name '*.log' | head -n 1; }
status=0
while read -r cycles; do
  echo "variant-trace: the window of $cycles cycles"
  python3 sim/earlgrey/trace_compare.py "$(trace full)" "$(trace variant)" --cycles "$cycles" || status=1
done < "$out/windows"
exit "$status"
