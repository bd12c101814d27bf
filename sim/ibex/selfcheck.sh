#!/usr/bin/env bash
# Self-check of the Ibex simulator: builds selfcheck/selfcheck.s (assembly, assembled and linked
# by rustc for riscv32imc-unknown-none-elf; no C cross toolchain needed), builds the simulator
# with build.sh and checks the host link, the instruction timings (exact mcycle deltas, see
# selfcheck/expected-*.txt) and the simulator's exit statuses. Also prints the simulation speed.
#
# Usage: sim/ibex/selfcheck.sh [rv32imc] [zbb]     (default: both)
# Exit status 0 when every check passes, 1 otherwise.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
configs=("$@")
[ "${#configs[@]}" -gt 0 ] || configs=(rv32imc zbb)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# rustc from the repository root, so that rust-toolchain.toml picks the toolchain.
build_elf() { # build_elf LINKER_SCRIPT OUTPUT
  (cd "$here/../.." && rustc --edition 2021 --target riscv32imc-unknown-none-elf \
    -C opt-level=s -C panic=abort -C "link-arg=-T$1" -o "$2" "$here/selfcheck/main.rs")
}
build_elf "$here/selfcheck/link.x" "$tmp/selfcheck.elf"
# The same program linked at 0x8000_0000: outside the RAM, the simulator must refuse it.
sed 's/0x00100/0x80000/g' "$here/selfcheck/link.x" >"$tmp/bad.x"
build_elf "$tmp/bad.x" "$tmp/bad.elf"

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "selfcheck $config: ok   $1"; }
bad() {
  failed=$((failed + 1))
  echo "selfcheck $config: FAIL $1"
  echo "  exit status $status; stdout:"; sed 's/^/    | /' "$tmp/out"
  echo "  stderr:"; sed 's/^/    | /' "$tmp/err"
}

# run INPUT ARGS... : runs the simulator with INPUT on stdin ("-" = /dev/null); sets $status.
run() {
  local input="$1"
  shift
  status=0
  if [ "$input" = "-" ]; then
    timeout 120 "$sim" "$@" </dev/null >"$tmp/out" 2>"$tmp/err" || status=$?
  else
    printf '%s' "$input" | timeout 120 "$sim" "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
  fi
}

# expect NAME STATUS STDOUT_FILE_OR_EMPTY STDERR_PATTERN_OR_EMPTY
expect() {
  local name="$1" want_status="$2" want_out="$3" want_err="$4"
  if [ "$status" != "$want_status" ]; then
    bad "$name (wanted exit status $want_status)"
  elif [ -n "$want_out" ] && ! cmp -s "$want_out" "$tmp/out"; then
    bad "$name (stdout differs from $want_out:)"
    diff "$want_out" "$tmp/out" | sed 's/^/    /' || true
  elif [ -n "$want_err" ] && ! grep -q -- "$want_err" "$tmp/err"; then
    bad "$name (stderr lacks '$want_err')"
  else
    ok "$name"
  fi
}

for config in "${configs[@]}"; do
  sim="$("$here/build.sh" "$config" | tail -n 1)"
  elf="$tmp/selfcheck.elf"

  run $'hello\n' --max-cycles=1000000 "$elf"
  expect "echo + RX empty + timings (expected-$config.txt)" 0 "$here/selfcheck/expected-$config.txt" ""

  printf 'ibex-selfcheck\nX\n' >"$tmp/want"
  run $'x\n' "$elf"
  expect "EXIT 0x107 -> status 7" 7 "$tmp/want" ""

  run $'wfi\n' "$elf"
  expect "wfi -> status 4" 4 "" "went to sleep (wfi)"

  run $'j\n' "$elf"
  expect "jump to 0 -> status 4" 4 "" "instruction fetch from 0x00000000 outside the RAM"

  run $'d\n' "$elf"
  expect "double fault -> status 4" 4 "" "double fault"

  printf 'ibex-selfcheck\n' >"$tmp/want"
  run - --max-cycles=5000 "$elf"
  expect "stdin at EOF, cycle limit -> status 3" 3 "$tmp/want" "cycle limit 5000 reached"

  run $'hello\n' "$tmp/bad.elf"
  expect "ELF outside RAM -> status 2" 2 "" "lies outside the RAM"

  # Input that arrives a second after the start (non-blocking stdin).
  status=0
  (sleep 1; printf 'late\n') | timeout 120 "$sim" "$elf" >"$tmp/out" 2>"$tmp/err" || status=$?
  printf 'ibex-selfcheck\nLATE\n' >"$tmp/want"
  head -n 2 "$tmp/out" >"$tmp/out2"
  if [ "$status" = 0 ] && cmp -s "$tmp/want" "$tmp/out2"; then ok "late input"; else bad "late input"; fi

  run $'loop\n' --stats "$elf"
  expect "2M-iteration loop" 0 "" "cycles/s"
  echo "selfcheck $config: speed: $(grep -o '[0-9]* cycles in .*' "$tmp/err")"
done

echo "selfcheck: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
