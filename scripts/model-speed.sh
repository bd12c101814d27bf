#!/usr/bin/env bash
# How fast the Earl Grey model simulates one long request, against a baseline revision of this
# repository: software ECDSA P-256 verification (16 M cycles) on earlgrey-sim-unmasked, one
# instance, first with the baseline's tool, suite and model, then with this tree's, one after
# the other so that neither shares the cores. Prints simulated cycles per wall second of each
# and their ratio, and fails when the two runs' cycle counts differ in any phase
# (`cyclebench compare --fail-on-change`).
#
# Usage: scripts/model-speed.sh [--baseline REV] [--target T] [--records] [--out DIR] [BENCH...]
#   --baseline REV  the revision to measure against (default: a31b7e942e01, whose suite keeps
#                   every clock running; docs/speed.md quotes its figures)
#   --target T      earlgrey-sim-unmasked (default) or earlgrey-sim (masked AES)
#   --records       instead of timing, run the thesis sets, the offload smoke set and the OTBN
#                   ECDSA set on both sides (two instances each) and require identical records
#                   (`cyclebench compare --identical --other-image`). Not held to identity:
#                   requests whose records say their counts vary between runs (CSRNG; masked
#                   AES, which reseeds its masks from EDN), and any other request whose record
#                   differs between two runs of the baseline, which runs them twice for that
#                   (`compare --identical --list`). They are listed.
#   --out DIR       where the results go (default: target/model-speed/T)
#   BENCH...        other .bench files to time instead of the ECDSA verification
#
# The baseline is checked out as a git worktree under ~/.cache/cyclebench/baseline/REV (its
# tool is built there once); its model comes from its own sim/earlgrey/build.sh, so a
# baseline with the same model recipe reuses the cached model. docs/speed.md says what it
# measured and how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

baseline=a31b7e942e01
records=false
out=""
target=earlgrey-sim-unmasked
benches=()
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline) baseline="$2"; shift 2 ;;
    --target) target="$2"; shift 2 ;;
    --records) records=true; shift ;;
    --out) out="$2"; shift 2 ;;
    -h | --help) sed -n '2,26s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "model-speed: unknown option $1" >&2; exit 2 ;;
    *) benches+=("$1"); shift ;;
  esac
done
case "$target" in
  earlgrey-sim | earlgrey-sim-unmasked) ;;
  *) echo "model-speed: --target must be earlgrey-sim or earlgrey-sim-unmasked, not '$target'" >&2; exit 2 ;;
esac
out="${out:-$root/target/model-speed/$target}"
log() { echo "model-speed: $*" >&2; }

# The long request, unless other files were given.
if [ "${#benches[@]}" -eq 0 ]; then
  mkdir -p "$out"
  echo '{"software": {"primitive": "ecdsa-p256-verify", "variant": "rust"}}' >"$out/long.bench"
  benches=("$out/long.bench")
fi

# This tree's tool.
cargo build --release -q -p cyclebench
current_cli="$root/target/release/cyclebench"

# The baseline's tool, built once in its worktree.
rev="$(git rev-parse --short=12 "$baseline^{commit}")"
worktree="${CYCLEBENCH_CACHE:-$HOME/.cache/cyclebench}/baseline/$rev"
if [ ! -d "$worktree" ]; then
  log "checking out the baseline $rev in $worktree"
  git worktree add --detach "$worktree" "$rev" >/dev/null
fi
log "building the baseline's tool (once)"
(cd "$worktree" && cargo build --release -q -p cyclebench)
baseline_cli="$worktree/target/release/cyclebench"

# Runs FILES with CLI, one instance, into $out/NAME; prints the run's speed.
#   timed NAME CLI FILES...
timed() {
  local name="$1" cli="$2"
  shift 2
  rm -rf "${out:?}/$name"
  log "$name: $* (one instance)"
  if ! "$cli" run --target "$target" --jobs 1 --timeout 3600 --no-report --out "$out/$name" "$@" \
    >"$out/$name.log" 2>&1; then
    tail -n 20 "$out/$name.log" >&2
    log "$name: the run failed; its log is $out/$name.log"
    exit 1
  fi
  python3 - "$out/$name/run.json" "$name" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))
cycles, wall = run["simulated_cycles"], run["wall_seconds"]
print(f"{sys.argv[2]}: {cycles} cycles in {wall} s, {cycles / wall:,.0f} cycles per second")
EOF
}

# Both models and suites first, so that no build falls inside a timed run.
log "preparing the baseline's and this tree's model and suite (building a model takes minutes)"
(cd "$worktree" && "$baseline_cli" prepare --target "$target" >/dev/null)
"$current_cli" prepare --target "$target" >/dev/null

mkdir -p "$out"
if ! $records; then
  baseline_line="$(timed baseline "$baseline_cli" "${benches[@]}")"
  current_line="$(timed current "$current_cli" "${benches[@]}")"
  echo "$baseline_line"
  echo "$current_line"
  python3 - "$out/baseline/run.json" "$out/current/run.json" <<'EOF'
import json, sys
speed = [json.load(open(p)) for p in sys.argv[1:]]
rate = [r["simulated_cycles"] / r["wall_seconds"] for r in speed]
print(f"this tree simulates {rate[1] / rate[0]:.2f} times as many cycles per second as the baseline")
EOF
  "$current_cli" compare "$out/baseline" "$out/current" --fail-on-change >/dev/null
else
  sets=()
  for f in benchmarks/*.bench benchmarks/smoke/offload.bench benchmarks/otbn/ecdsa.bench; do
    sets+=("$root/$f")
  done
  # Records do not depend on the number of instances: two, to halve the wait.
  for side in baseline baseline-again current; do
    cli="$current_cli"
    [ "$side" = current ] || cli="$baseline_cli"
    rm -rf "${out:?}/records-$side"
    log "records-$side: ${#sets[@]} files"
    "$cli" run --target "$target" --jobs 2 --no-report --out "$out/records-$side" "${sets[@]}" \
      >"$out/records-$side.log" 2>&1 || { tail -n 20 "$out/records-$side.log" >&2; exit 1; }
  done
  # What two runs of the baseline's own image disagree on cannot be held against this tree.
  log "records: the baseline against itself; what differs is not held against this tree"
  "$current_cli" compare "$out/records-baseline" "$out/records-baseline-again" --identical --list \
    >"$out/records-varying" || [ $? -eq 1 ]
  not_held=()
  while IFS= read -r request; do
    not_held+=(--not-held "$request")
  done <"$out/records-varying"
  log "records: the baseline against this tree"
  "$current_cli" compare "$out/records-baseline" "$out/records-current" --identical --other-image "${not_held[@]}"
fi
