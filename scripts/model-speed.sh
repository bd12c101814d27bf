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
#                   ECDSA set on both sides (two instances each) and require identical records.
#                   Not held to identity: requests whose counts depend on the cycle they
#                   arrive at, which the host's timing decides: those of CSRNG and, on
#                   earlgrey-sim, of masked AES (it reseeds its masks from EDN), and any other
#                   request whose counts differ between two runs of the baseline, which runs
#                   them twice for that. They are listed.
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
    -h | --help) sed -n '2,25s/^# \{0,1\}//p' "$0"; exit 0 ;;
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
  python3 - "$target" "$out"/records-{baseline,baseline-again,current}/results.jsonl <<'EOF'
import json, os, sys

def counts(path):
    runs = {}
    for line in open(path):
        r = json.loads(line)
        key = (os.path.basename(r["file"]), r["line"], json.dumps(r.get("sweep")))
        runs[key] = (r["status"], r.get("phases"), r.get("total_cycles"))
    return runs

target, paths = sys.argv[1], sys.argv[2:]
base, again, new = (counts(p) for p in paths)
requests = {}
for line in open(paths[0]):
    r = json.loads(line)
    requests[(os.path.basename(r["file"]), r["line"], json.dumps(r.get("sweep")))] = r
name = lambda k: f"{k[0]}:{k[1]}" + ("" if k[2] == "null" else f" {k[2]}")

def on_arrival(k):
    r = requests[k]
    return r.get("module") == "rng" or (target == "earlgrey-sim" and "aes" in r["request"])

varying = sorted(k for k in base if on_arrival(k) or again.get(k) != base[k])
held = [k for k in base if k not in varying]
changed = [k for k in held if new.get(k) != base[k]]
for k in varying:
    print(f"  depends on the arrival cycle, not held: {name(k)}")
for k in changed:
    print(f"  CHANGED: {name(k)}: {base[k]} -> {new.get(k)}")
print(f"records: {len(held) - len(changed)} of {len(held)} identical on both sides, "
      f"{len(varying)} depend on the arrival cycle")
sys.exit(1 if changed else 0)
EOF
fi
