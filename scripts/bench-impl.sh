#!/usr/bin/env bash
# How long measuring an implementation of your own takes on ibex-sim: the C SHA-256 of
# examples/impl/ copied outside the tree, one request, first from a clean image build (the
# suite compiled from nothing for the image), then again after only the implementation
# changed (its compile and the final link). Prints both in seconds; the Ibex model must be
# built (scripts/test.sh builds it) and cyclebench on the PATH (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r examples/impl/sha256-c "$work/"
echo '{"impl": {"name": "sha256-c", "length": 64}}' >"$work/time.bench"

measure() { # measure LABEL: one run, its wall time printed
  local start end
  start=$(date +%s%N)
  cyclebench run --target ibex-sim --jobs 1 --impl "$work/sha256-c" --no-report \
    --out "$work/results-$1" "$work/time.bench" >"$work/$1.log" 2>&1 ||
    { cat "$work/$1.log"; exit 1; }
  end=$(date +%s%N)
  printf '%s: %d.%d s (%s)\n' "$1" $(((end - start) / 1000000000)) $(((end - start) / 100000000 % 10)) \
    "$(grep -o 'impl: [0-9]* cycles, verified' "$work/$1.log")"
}

rm -rf target/firmware/impl/ibex-sim
measure clean
# A change to the implementation alone: one more function in its object.
echo 'int cyclebench_bench_changed(void) { return 1; }' >>"$work/sha256-c/sha256.c"
measure changed
