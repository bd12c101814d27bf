# The steps every model build (sim/*/build.sh) shares, sourced by them: progress lines, long
# steps with their output in a log, Debian packages, a Python venv of pinned packages, and
# whether the model is compiled with a profile. Nothing here decides what a model computes.
#
# The sourcing script sets, before calling these:
#   build_name  the prefix of its progress lines (e.g. `ibex-build`)
#   logs        the directory the step logs go to
#   step_hint   a line shown after a failed step (may be empty)
#
# Defines:
#   log MESSAGE...                progress on stderr
#   step NAME LOGFILE COMMAND...  runs COMMAND with its output in $logs/LOGFILE; on failure
#                                 shows the log's tail and exits. COMMAND runs as an "if"
#                                 condition, where set -e does not apply: functions given to
#                                 it chain their commands with &&.
#   install_debian_packages PKG...   installs those of PKG not installed yet
#   pinned_venv VENV PKG...       a venv holding exactly PKG (remade when the list changes)
#   read_model_profile            sets `profiled` to `on` (the default) or `off`, from
#                                 CYCLEBENCH_MODEL_PROFILE

log() { echo "$build_name: $*" >&2; }

step() {
  local name="$1" logfile="$logs/$2"
  shift 2
  local t0=$SECONDS
  log "$name ..."
  if ! "$@" >"$logfile" 2>&1; then
    log "FAILED: $name; last lines of $logfile:"
    tail -n 30 "$logfile" >&2
    [ -z "${step_hint:-}" ] || log "$step_hint"
    exit 1
  fi
  log "$name done in $((SECONDS - t0)) s"
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_debian_packages() {
  local p missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ "${#missing[@]}" -gt 0 ] || return 0
  apt_install() {
    as_root apt-get update &&
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
  }
  step "installing Debian packages: ${missing[*]}" apt.log apt_install "${missing[@]}"
}

# A stamp holding the package list makes a change of pins reinstall; otherwise the venv is
# reused.
pinned_venv() {
  local venv="$1"
  shift
  local stamp="$venv/cyclebench-packages.txt"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$*" ]; then
    return 0
  fi
  make_venv() {
    # Debian's interpreter, whose venv module python3-venv provides.
    /usr/bin/python3 -m venv "$venv" &&
      "$venv/bin/pip" install --disable-pip-version-check "$@"
  }
  step "creating the Python venv $venv" venv.log make_venv "$@"
  echo "$*" >"$stamp"
}

read_model_profile() {
  case "${CYCLEBENCH_MODEL_PROFILE:-on}" in
    on | off) profiled="${CYCLEBENCH_MODEL_PROFILE:-on}" ;;
    *)
      echo "$build_name: CYCLEBENCH_MODEL_PROFILE must be 'on' or 'off'" >&2
      exit 2
      ;;
  esac
}
