#!/usr/bin/env bash
# The project's test command: set-up, formatting, lints on both workspaces, host tests of the
# protocol, datasets and primitives, and end-to-end tests of the real CLI against the suite
# on QEMU (including the on-target self-tests) and on the Earl Grey model (a smoke set with
# every hardware result checked against its known answer). Every simulator run has a timeout.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

host=$(rustc -vV | sed -n 's/^host: //p')
fw_target_dir="$PWD/target/firmware/check"

# First, because the Earl Grey suite's build embeds OTBN programs made with the snapshot the
# model's build installs (its venv), and the lints below build that suite.
echo "== Earl Grey model (built once, then cached in ~/.cache/cyclebench)"
bash sim/earlgrey/build.sh masked > /dev/null
# The tests need two Earl Grey models, the whole chip (masked) and the variant software runs on,
# about 15 minutes on a fresh, idle machine (docs/speed.md); the unmasked chip is left to the
# runs that ask for it.
echo "== Earl Grey model variant for software (built once, then cached): the end-to-end tests hold it to the chip"
bash sim/earlgrey/build.sh software-small > /dev/null

echo "== register maps match the OpenTitan snapshot's descriptions"
sim/earlgrey/registers.sh

echo "== format"
cargo fmt --all --check
(cd firmware && cargo fmt --all --check)

echo "== generated assembly matches its generators"
firmware/swcrypto/gen/check.sh

echo "== clippy (host workspace)"
cargo clippy --workspace --all-targets --quiet -- -D warnings
echo "== clippy (firmware workspace)"
(cd firmware && cargo clippy --workspace --release --quiet --features cyclebench-suite/qemu-virt --target-dir "$fw_target_dir" -- -D warnings)
(cd firmware && cargo clippy --release --quiet -p cyclebench-suite --features qemu-virt,selftest --target-dir "$fw_target_dir" -- -D warnings)
(cd firmware && cargo clippy --release --quiet -p cyclebench-suite --features earlgrey,aes-unmasked --target-dir "$fw_target_dir" -- -D warnings)
(cd firmware && cargo clippy --release --quiet -p cyclebench-suite --features earlgrey,aes-unmasked,sim-link --target-dir "$fw_target_dir" -- -D warnings)
# The NexysVideo board's image (`cyclebench prepare --board nexysvideo`).
(cd firmware && cargo clippy --release --quiet -p cyclebench-suite --features earlgrey,board-nexysvideo --target-dir "$fw_target_dir" -- -D warnings)
(cd firmware && cargo clippy --release --quiet -p cyclebench-suite --features ibex-sim,selftest --target-dir "$fw_target_dir" -- -D warnings)
# The image of a run with implementations from outside the tree: only the kinds it uses.
(cd firmware && cargo clippy --release --quiet -p cyclebench-suite --no-default-features --features earlgrey,sim-link,implementations --target-dir "$fw_target_dir" -- -D warnings)
(cd firmware && cargo clippy --quiet -p cyclebench-datasets -p cyclebench-swcrypto -p cyclebench-modules --all-targets --target "$host" --target-dir "$fw_target_dir" -- -D warnings)

echo "== firmware host tests (datasets against reference crates, CTR_DRBG against NIST)"
(cd firmware && cargo test --quiet -p cyclebench-datasets -p cyclebench-swcrypto --target "$host" --target-dir "$fw_target_dir")

echo "== host workspace tests (protocol, CLI, end to end on QEMU)"
timeout 1200 cargo test --workspace --quiet

echo "== docs/extending.md by construction: throw-away additions made in a scratch copy, built, run on QEMU"
timeout 2400 cargo test --quiet -p cyclebench --test extending -- --ignored

echo "== end to end on the Earl Grey model: smoke set verified, mailbox and UART agree; accelerators beside software; offload and OTBN smoke sets; an implementation from outside the tree; the NexysVideo board's image over a UART at the board's ratio"
# One test at a time: each already runs two model instances, one per core.
timeout 2700 cargo test --quiet -p cyclebench --test earlgrey -- --ignored --test-threads 1

echo "== Ibex model (built once, then cached in ~/.cache/cyclebench)"
bash sim/ibex/build.sh rv32imc > /dev/null
bash sim/ibex/build.sh zbb > /dev/null
echo "== Ibex simulator self-check (host link, exit statuses, documented timings)"
timeout 300 bash sim/ibex/selfcheck.sh rv32imc

echo "== end to end on the Ibex model: calibration self-test, software primitives verified"
timeout 1200 cargo test --quiet -p cyclebench --test ibex -- --ignored
echo "== implementations from outside the tree on the Ibex model: verified, constant-time verdicts, the CI gate"
timeout 1500 cargo test --quiet -p cyclebench --test implementations -- --ignored --test-threads 1

echo "== same code, same cycles on the Ibex and Earl Grey models: the checkout in another folder, unrelated code, the order of C sources, an unrelated Rust function"
timeout 2700 cargo test --quiet -p cyclebench --test layout -- --ignored --test-threads 1

echo "== sharded runs on Slurm: a single-node cluster, a node taken down mid-run, merged equals one machine"
timeout 900 bash scripts/slurm-test.sh

echo "== on-target self-test (qemu-virt)"
timeout 300 cargo run --release --quiet -p cyclebench -- selftest --target qemu-virt --timeout 240 | tail -n 1
echo "test.sh: all passed"
