#!/usr/bin/env bash
# Runs FILES once on TARGET, then as N shards one after the other (each with the same --jobs as
# the whole run), merges the shards and checks that the merged directory holds what the one run
# holds (`cyclebench compare --identical`: records, results.csv, every .out file). Prints each
# run's wall time.
#
#   scripts/shard-check.sh [--out DIR] TARGET N FILE.bench...
#
# e.g. the thesis sets on the chip model in three shards (each run builds nothing new once the
# model and firmware are cached; about as long as the sets take four times):
#
#   scripts/shard-check.sh earlgrey-sim-unmasked 3 benchmarks/*.bench
set -euo pipefail
cd "$(dirname "$0")/.."

out=
if [ "${1:-}" = --out ]; then
  out=$2
  shift 2
fi
if [ "$#" -lt 3 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
target=$1
count=$2
shift 2
files=("$@")
out=${out:-results/$(date +%Y%m%d-%H%M%S)-$target-shard-check}
mkdir -p "$out"

cargo build --release --quiet -p cyclebench
cli=target/release/cyclebench

# Runs a command, says how long it took; exit status 1 (a line failed) is a finished run.
timed() {
  local what=$1
  shift
  local start=$SECONDS
  local status=0
  "$@" > "$out/$what.log" 2>&1 || status=$?
  if [ "$status" -gt 1 ]; then
    tail -n 20 "$out/$what.log" >&2
    echo "shard-check: $what failed (status $status)" >&2
    exit 1
  fi
  echo "shard-check: $what: $((SECONDS - start)) s wall$([ "$status" -eq 1 ] && echo ', some lines failed')"
}

timed one "$cli" run --target "$target" --no-report --out "$out/one" "${files[@]}"
shards=()
for i in $(seq 0 $((count - 1))); do
  timed "shard-$i" "$cli" run --target "$target" --no-report --shard "$i/$count" --out "$out/shard-$i" "${files[@]}"
  shards+=("$out/shard-$i")
done
timed merge "$cli" merge "${shards[@]}" --out "$out/merged"
"$cli" compare "$out/one" "$out/merged" --identical
