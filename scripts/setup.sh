#!/usr/bin/env bash
# Installs everything cyclebench needs on a Debian machine. Idempotent: a second run only
# checks. Needs root or sudo for apt; Rust comes from rustup (already on the machine, or see
# https://rustup.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Debian packages: QEMU for the qemu-virt target, a C toolchain and pkg-config for crates
# with build scripts, git for the firmware revision recorded in results, python3-venv for
# the OpenTitan register tooling, chromium for the test that renders the HTML report, and the
# RISC-V binutils under the snapshot's OTBN assembler and linker (the Earl Grey suite embeds
# the OTBN programs they build), and Slurm's controller, node daemon and client for the test
# of sharded runs on a cluster (scripts/slurm-test.sh starts its own daemons with its own
# configuration), and clang with LLVM's tools for the C implementations of `run --impl`
# (llvm-objcopy puts each implementation's names in a namespace of its own).
packages=(qemu-system-misc build-essential pkg-config git python3-venv chromium binutils-riscv64-unknown-elf
  slurmctld slurmd slurm-client clang llvm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

if ! command -v rustup >/dev/null 2>&1; then
  echo "setup: rustup not found; install Rust with rustup (https://rustup.rs) and rerun" >&2
  exit 1
fi
# rust-toolchain.toml names the exact compiler release, the riscv32imc target and the
# components: a cycle count depends on the code the compiler emits, so every machine builds
# with that release. rustup installs what is missing of it.
rustup toolchain install --no-self-update >/dev/null
rustup target add riscv32imc-unknown-none-elf >/dev/null
rustup component add clippy rustfmt >/dev/null
echo "setup: $(rustc --version)"

echo "setup: building the cyclebench host tool"
cargo build --release --quiet -p cyclebench
# On the PATH as `cyclebench`: a link into cargo's bin folder (which rustup puts on the PATH),
# so that a later build of the checkout is what runs.
bin="${CARGO_HOME:-$HOME/.cargo}/bin"
mkdir -p "$bin"
ln -sf "$PWD/target/release/cyclebench" "$bin/cyclebench"
echo "setup: done"
