#!/usr/bin/env bash
# Checks (default) or rewrites (--write) the drivers' generated register maps against the
# OpenTitan snapshot in PyPI pythondata-misc-opentitan, using the snapshot's own regtool.
# The Python environment is cached in ~/.cache/cyclebench/venv-regtool.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="${XDG_CACHE_HOME:-$HOME/.cache}/cyclebench/venv-regtool"
requirements=(pythondata-misc-opentitan==0.0.post5550 hjson==3.1.0 mako==1.3.5 pyyaml==6.0.2)

stamp="$venv/.requirements"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${requirements[*]}" ]; then
  echo "registers: preparing $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${requirements[@]}"
  echo "${requirements[*]}" > "$stamp"
fi
opentitan="$("$venv/bin/python" -c 'import pythondata_misc_opentitan as p; print(p.data_location)')"
# Drivers are versioned by chip revision; this snapshot is the March 2021 Earl Grey.
regs="$repo/firmware/drivers/src/opentitan/earlgrey_2021_03/regs"
mode=--check
[ "${1:-}" = "--write" ] && mode=""
"$venv/bin/python" "$here/gen_registers.py" "$opentitan" "$regs" $mode
echo "registers: ${mode:-written} ok" >&2
