#!/usr/bin/env bash
# Re-measures the published figures and regenerates docs/reproduction.md (the thesis,
# optimized software crypto on RV32I (Stoffelen 2019) and OpenTitan as a co-processor (Musa
# et al. 2024)) and docs/reproduction-otbn.md (public-key operations on OTBN).
#
#   scripts/reproduce.sh [earlgrey] [ibex] [offload] [otbn]   (default: the first three)
#
# earlgrey: the thesis's evaluation on both Earl Grey models (builds them on first use).
# ibex:     the RV32I software-crypto study (Stoffelen 2019) on ibex-sim and ibex-sim-zbb.
# offload:  the co-processor study (Musa et al. 2024, benchmarks/offload/) on
#           earlgrey-sim-unmasked; most of its time goes to the software runs over 8 and 16 KiB.
# otbn:     public-key operations on OTBN and their software counterparts (benchmarks/otbn/,
#           with the study-only RSA-2048 decryption on OTBN) on earlgrey-sim-unmasked, nearly
#           all of its time the software baselines; then the software counterparts on ibex-sim,
#           where RSA-2048 decryption in software (half a billion cycles) is measured. It has a
#           document of its own, rendered whenever its results exist.
# How long each takes: docs/speed.md.
# A study not named reuses its results under results/reproduction/ from an earlier run.
# Each study is a template and its published figures under studies/ (docs/studies.md); the
# document's prose states only numbers from these results and those figures, and the reasons
# behind the differences are in docs/analysis.md.
set -euo pipefail
cd "$(dirname "$0")/.."
studies=("$@")
[ ${#studies[@]} -eq 0 ] && studies=(earlgrey ibex offload)
for s in "${studies[@]}"; do
    case "$s" in earlgrey|ibex|offload|otbn) ;; *) echo "reproduce: unknown study '$s' (earlgrey, ibex, offload, otbn)" >&2; exit 2 ;; esac
done
wants() { [[ " ${studies[*]} " == *" $1 "* ]]; }

out=results/reproduction
cargo build --release --quiet -p cyclebench
bin=target/release/cyclebench
# Builds a target's firmware (and model) and starts it once, so that the timed runs below
# ("Tool speed") time the benchmarks and not a firmware build that only the first run does.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf '# no requests: builds and starts the target\n' > "$scratch/none.bench"
warm_up() { "$bin" run --target "$1" --no-report --out "$scratch/$1" "$scratch/none.bench" > /dev/null 2>&1 || true; }
# A failed benchmark is recorded (and shown in the document); it does not stop the script.
if wants earlgrey; then
    # Every thesis set, as the README's main command runs them (its "Tool speed" figure).
    sets=(benchmarks/*.bench)
    rm -rf "$out/unmasked" "$out/masked"
    warm_up earlgrey-sim-unmasked
    warm_up earlgrey-sim
    "$bin" run --target earlgrey-sim-unmasked --no-report --out "$out/unmasked" "${sets[@]}" || true
    "$bin" run --target earlgrey-sim --no-report --out "$out/masked" "${sets[@]}" || true
fi
if wants ibex; then
    rm -rf "$out/ibex" "$out/ibex-zbb" "$out/ibex-one-instance"
    warm_up ibex-sim
    warm_up ibex-sim-zbb
    "$bin" run --target ibex-sim --no-report --out "$out/ibex" benchmarks/swcrypto/*.bench || true
    # The same sets with one instance: the speed-up of --jobs (default: one per core).
    "$bin" run --target ibex-sim --jobs 1 --no-report --out "$out/ibex-one-instance" benchmarks/swcrypto/*.bench || true
    "$bin" run --target ibex-sim-zbb --no-report --out "$out/ibex-zbb" benchmarks/swcrypto/*.bench || true
fi
if wants offload; then
    rm -rf "$out/offload"
    warm_up earlgrey-sim-unmasked
    "$bin" run --target earlgrey-sim-unmasked --no-report --out "$out/offload" benchmarks/offload/*.bench || true
    # The software primitives at 8 placements of the measured code: the spread each software
    # figure on the chip is stated with (docs/analysis.md, "Same code, same cycles").
    rm -rf "$out/placements"
    "$bin" run --target earlgrey-sim-unmasked --no-report --out "$out/placements" benchmarks/layout/placements.bench || true
fi
if wants otbn; then
    rm -rf "$out/otbn" "$out/otbn-ibex"
    warm_up earlgrey-sim-unmasked
    "$bin" run --target earlgrey-sim-unmasked --timeout 7200 --no-report --out "$out/otbn" \
        benchmarks/otbn/*.bench benchmarks/otbn/study/rsa_decrypt_2048.bench || true
    "$bin" run --target ibex-sim --timeout 3600 --no-report --out "$out/otbn-ibex" \
        benchmarks/otbn/software.bench benchmarks/otbn/study/rsa_decrypt_2048_software.bench || true
fi
if [ -f "$out/otbn/results.jsonl" ]; then
    otbn_ibex=()
    [ -f "$out/otbn-ibex/results.jsonl" ] && otbn_ibex=(--results otbn_ibex="$out/otbn-ibex")
    "$bin" study render studies/otbn --results otbn="$out/otbn" "${otbn_ibex[@]}" \
        --title "Public-key operations on OTBN, measured" --out docs/reproduction-otbn.md
    echo "reproduce: wrote docs/reproduction-otbn.md"
fi
# Asked only for the OTBN study: the other document is left as it is.
[ "${studies[*]}" = otbn ] && exit 0
for d in unmasked masked ibex ibex-zbb ibex-one-instance offload; do
    if [ ! -f "$out/$d/results.jsonl" ]; then
        echo "reproduce: no results in $out/$d; run scripts/reproduce.sh with its study first" >&2
        exit 1
    fi
done
placements=()
[ -f "$out/placements/results.jsonl" ] && placements=(--results placements="$out/placements")
"$bin" study render studies/thesis studies/rv32i-software studies/offload \
    --results unmasked="$out/unmasked" --results masked="$out/masked" \
    --results ibex="$out/ibex" --results ibex_zbb="$out/ibex-zbb" \
    --results ibex_one_instance="$out/ibex-one-instance" \
    --results offload="$out/offload" "${placements[@]}" --out docs/reproduction.md
echo "reproduce: wrote docs/reproduction.md"
