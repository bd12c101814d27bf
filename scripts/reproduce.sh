#!/usr/bin/env bash
# Re-measures the thesis's evaluation on both Earl Grey models and regenerates
# docs/reproduction.md. Builds the models on first use (10-15 minutes each on 2 cores); each
# run then takes tens of minutes of simulation.
set -euo pipefail
cd "$(dirname "$0")/.."
sets=(benchmarks/sha2.bench benchmarks/sha3.bench benchmarks/aes_total.bench benchmarks/aes_per_block.bench benchmarks/aes_tight.bench
      benchmarks/aes_timed_readout.bench benchmarks/rng.bench benchmarks/micro.bench)
out=results/reproduction
cargo build --release --quiet -p cyclebench
bin=target/release/cyclebench
# A failed benchmark is recorded (and shown in the document); it does not stop the script.
"$bin" run --target earlgrey-sim-unmasked --no-report --out "$out/unmasked" "${sets[@]}" || true
"$bin" run --target earlgrey-sim --no-report --out "$out/masked" "${sets[@]}" || true
"$bin" reproduction --unmasked "$out/unmasked" --masked "$out/masked" --out docs/reproduction.md
echo "reproduce: wrote docs/reproduction.md"
