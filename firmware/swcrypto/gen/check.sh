#!/usr/bin/env bash
# Checks that the committed assembly of the swcrypto crate is exactly what its generators write:
# re-runs each generator into a scratch directory and diffs every output against the committed
# file, so a hand edit of a generated .S, or a generator change whose output was not
# regenerated, fails here. Needs python3 and nothing beyond its standard library (the
# generators run with -S, without site-packages, to keep it that way); no network.
set -euo pipefail

crate=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=$(cd "$crate/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

failed=0

# check NAME GENERATOR OUTPUT...: runs GENERATOR (relative to the repository root) with
# --out-dir into the scratch directory, then compares each OUTPUT (a path relative to the
# repository root) with the file of the same name it wrote.
check() {
    local name=$1 generator=$2
    shift 2
    local out="$scratch/$name"
    local regenerate="python3 -B $generator"
    mkdir -p "$out"
    # -I: ignore PYTHON* variables and the user's site-packages; -S: no site-packages at all;
    # -B: leave no __pycache__ next to the generators.
    if ! python3 -I -S -B "$root/$generator" --out-dir "$out" >"$out.log" 2>&1; then
        cat "$out.log" >&2
        echo "check.sh: $generator failed (output above)" >&2
        failed=1
        return
    fi
    local committed
    for committed in "$@"; do
        local generated
        generated="$out/$(basename "$committed")"
        if ! diff -u --label "$committed (committed)" --label "$committed (generated)" \
            "$root/$committed" "$generated" >"$out.diff"; then
            head -n 60 "$out.diff" >&2
            echo "check.sh: $committed differs from what its generator writes;" \
                "edit the generator, not the .S, and regenerate (from the repository root) with: $regenerate" >&2
            failed=1
        fi
    done
}

check aes_bitsliced firmware/swcrypto/src/aes_bitsliced/gen/gen_bs.py \
    firmware/swcrypto/src/aes_bitsliced/rv32i.S firmware/swcrypto/src/aes_bitsliced/zbb.S
check keccak firmware/swcrypto/src/keccak/gen_asm.py \
    firmware/swcrypto/src/keccak/rv32i.S firmware/swcrypto/src/keccak/zbb.S

if [ "$failed" -ne 0 ]; then
    exit 1
fi
echo "generated assembly matches its generators"
