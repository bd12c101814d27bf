#!/usr/bin/env python3
"""Generates a reduced Earl Grey top inside a patched copy of the OpenTitan snapshot.

Usage: reduce_top.py [--no-rvfi] SRC BLOCK[,BLOCK...] [PATCH...]

SRC is the copy that build.sh made of the snapshot, with the patches PATCH... already applied.
This script
  1. edits the chip description in SRC (hw/top_earlgrey/data/top_earlgrey.hjson, xbar_main.hjson,
     xbar_peri.hjson; the originals are kept in data/full/) to drop the blocks BLOCK...: their
     module entries, inter-module connections, crossbar nodes and connections, pinmux entries;
  2. runs the snapshot's own topgen (util/topgen.py) on it, which rewrites the generated top
     (rtl/autogen), its crossbars, and the top-specific IPs (clock, reset and power managers,
     pinmux, interrupt controller, alert handler);
  3. puts back the full chip's top_earlgrey_rnd_cnst_pkg.sv, so that the blocks kept keep the
     random netlist constants they have in the full chip (topgen draws them block by block from
     one seeded stream: removing a block shifts every constant drawn after it);
  4. applies again each PATCH that touches a file topgen rewrote (a patch whose instance is gone
     is left out, and says so);
  5. fixes what the generated files get wrong for a small top: a clock manager with a single
     hinted block, and the Verilator testbench's connections to top-level ports that are gone
     (es_rng_* when the entropy source goes);
  6. with --no-rvfi, builds the core without the RISC-V Formal Interface (the RVFI define of
     the Verilator target), which only Ibex's instruction tracer reads: a model without it
     cannot write an instruction trace.

Every step is logged to stdout. Runs with the model's venv (hjson, mako, PyYAML, setuptools'
pkg_resources for topgen).
"""

import argparse
import collections
import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import hjson

TOP = Path("hw/top_earlgrey")
DATA = TOP / "data"
RND_CNST_PKG = TOP / "rtl/autogen/top_earlgrey_rnd_cnst_pkg.sv"
TOP_SV = TOP / "rtl/autogen/top_earlgrey.sv"
TESTBENCH = TOP / "rtl/top_earlgrey_verilator.sv"
CLKMGR_SV = TOP / "ip/clkmgr/rtl/autogen/clkmgr.sv"
VERILATOR_CORE = TOP / "top_earlgrey_verilator.core"

# Blocks topgen cannot do without (pitfalls in the notes on reduced tops): the only reset
# request (aon_timer), usbdev, and the blocks the CPU, its memories and the host link need.
REQUIRED = {
    "rv_core_ibex", "rv_dm", "rom", "ram_main", "eflash", "flash_ctrl", "sram_ctrl_main",
    "otp_ctrl", "lc_ctrl", "pwrmgr_aon", "rstmgr_aon", "clkmgr_aon", "pinmux_aon",
    "aon_timer_aon", "usbdev", "rv_plic", "alert_handler", "uart0", "ast",
}


def log(message):
    print(f"reduce_top: {message}", flush=True)


def load(path):
    with open(path) as f:
        return hjson.load(f, object_pairs_hook=collections.OrderedDict)


def dump(obj, path):
    with open(path, "w") as f:
        hjson.dump(obj, f, indent=2)
        f.write("\n")


def reduce_top(top, removed):
    """Drops `removed` from the top description `top` (in place)."""
    names = [m["name"] for m in top["module"]] + [m["name"] for m in top.get("memory", [])]
    unknown = removed - set(names)
    if unknown:
        sys.exit(f"reduce_top: no such block in top_earlgrey.hjson: {', '.join(sorted(unknown))}")
    required = removed & REQUIRED
    if required:
        sys.exit(f"reduce_top: a variant cannot drop {', '.join(sorted(required))}")
    top["module"] = [m for m in top["module"] if m["name"] not in removed]

    def kept(endpoint):  # "block.signal"
        return endpoint.split(".")[0] not in removed

    inter = top["inter_module"]
    connect = collections.OrderedDict()
    for source, sinks in inter["connect"].items():
        if not kept(source):
            continue
        left = [s for s in sinks if kept(s)]
        # An empty list on purpose (the clock manager's idle bus, which topgen fills in) stays;
        # a connection whose every sink went goes with them.
        if sinks and not left:
            continue
        connect[source] = left
    inter["connect"] = connect
    inter["top"] = [t for t in inter["top"] if kept(t)]
    inter["external"] = collections.OrderedDict(
        (k, v) for k, v in inter["external"].items() if kept(k))

    pinmux = top["pinmux"]
    pinmux["mio_modules"] = [m for m in pinmux.get("mio_modules", []) if m.split(".")[0] not in removed]
    pinmux["nc_modules"] = [m for m in pinmux.get("nc_modules", []) if m not in removed]
    pinmux["dio_modules"] = [m for m in pinmux.get("dio_modules", []) if m["name"] not in removed]
    # Resets of removed blocks stay: topgen generates them whether or not a block uses them,
    # and the reset manager's register map keeps its layout.


def reduce_xbar(xbar, removed):
    """Drops `removed` from the crossbar description `xbar` (in place)."""
    xbar["nodes"] = [n for n in xbar["nodes"] if n["name"] not in removed]
    xbar["connections"] = collections.OrderedDict(
        (host, [d for d in devices if d not in removed])
        for host, devices in xbar["connections"].items()
        if host not in removed)


def file_digests(root):
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*") if p.is_file()}


def patch_targets(patch):
    return [line[len("+++ b/"):].split("\t")[0].strip()
            for line in patch.read_text().splitlines() if line.startswith("+++ b/")]


def reapply_patches(src, patches, rewritten, removed):
    """Applies again every patch that touches a file topgen rewrote."""
    for patch in patches:
        touched = [t for t in patch_targets(patch) if t in rewritten]
        if not touched:
            continue
        dry = subprocess.run(["patch", "-d", str(src), "-p1", "--forward", "--batch", "--dry-run",
                              "-i", str(patch)], capture_output=True, text=True)
        if dry.returncode != 0:
            # A patch on an instance of a block this variant lacks has nothing to change.
            text = patch.read_text()
            gone = sorted(b for b in removed if re.search(rf"\bu_{re.escape(b)}\b|\b{re.escape(b)}_", text))
            if gone:
                log(f"{patch.name}: not applied, its block is not in this top ({', '.join(gone)})")
                continue
            sys.exit(f"reduce_top: {patch.name} does not apply to the generated files:\n{dry.stdout}")
        subprocess.run(["patch", "-d", str(src), "-p1", "--forward", "--batch", "-i", str(patch)],
                       check=True, stdout=subprocess.DEVNULL)
        log(f"{patch.name}: applied again to {', '.join(touched)}")


def fix_single_hint_clkmgr(src):
    """With exactly one hinted block, reggen flattens the single-field registers CLK_HINTS and
    CLK_HINTS_STATUS (`reg2hw.clk_hints.q`), while topgen's clkmgr.sv still names the field
    (`reg2hw.clk_hints.clk_main_hmac_hint.q`) and does not compile. Returns whether it changed
    anything."""
    path = src / CLKMGR_SV
    text = path.read_text()
    hints = set(re.findall(r"reg2hw\.clk_hints\.(\w+)\.q", text))
    if len(hints) != 1:
        return False
    fixed = re.sub(r"(reg2hw\.clk_hints)\.\w+(\.q)\b", r"\1\2", text)
    fixed = re.sub(r"(hw2reg\.clk_hints_status)\.\w+(\.de?)\b", r"\1\2", fixed)
    path.write_text(fixed)
    return True


def top_names(top_sv):
    """The parameter and port names of module top_earlgrey in the generated top."""
    text = re.sub(r"//[^\n]*", "", top_sv.read_text())
    m = re.search(r"module top_earlgrey\s*#\((.*?)\)\s*\((.*?)\);", text, re.S)
    names = set()
    for part in (m.group(1), m.group(2)):
        for item in part.split(","):
            words = re.findall(r"\w+", item.split("=")[0])
            if words:
                names.add(words[-1])
    return names


def fix_testbench(src):
    """Drops the testbench's connections to top-level ports the reduced top no longer has."""
    names = top_names(src / TOP_SV)
    path = src / TESTBENCH
    lines = path.read_text().splitlines(keepends=True)
    start = next(i for i, l in enumerate(lines) if re.match(r"\s*top_earlgrey\s+#\(", l))
    end = next(i for i in range(start, len(lines)) if re.match(r"\s*\);", lines[i])
               and any(re.match(r"\s*\)\s*top_earlgrey\s*\(", l) for l in lines[start:i]))
    kept, dropped = [], []
    for line in lines[start:end]:
        m = re.match(r"\s*\.(\w+)\s*\(", line)
        if m and m.group(1) not in names:
            dropped.append(m.group(1))
            continue
        kept.append(line)
    if dropped:
        path.write_text("".join(lines[:start] + kept + lines[end:]))
        log(f"testbench: dropped connections to ports the top no longer has: {', '.join(dropped)}")


def drop_rvfi(src):
    """Takes the RVFI define out of the Verilator target's parameters."""
    path = src / VERILATOR_CORE
    text = path.read_text()
    fixed, count = re.subn(r"\n\s*- RVFI=true\n", "\n", text)
    if count != 1:
        sys.exit(f"reduce_top: {path} does not set RVFI=true once")
    path.write_text(fixed)
    log("top_earlgrey_verilator.core: built without RVFI (no instruction trace)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-rvfi", action="store_true")
    parser.add_argument("src", type=Path)
    parser.add_argument("blocks")
    parser.add_argument("patches", nargs="*", type=Path)
    args = parser.parse_args()
    src = args.src.resolve()
    removed = set(b for b in args.blocks.split(",") if b)
    patches = [p.resolve() for p in args.patches]

    data, full = src / DATA, src / DATA / "full"
    if not full.is_dir():
        full.mkdir()
        for name in ("top_earlgrey.hjson", "xbar_main.hjson", "xbar_peri.hjson"):
            shutil.copy2(data / name, full / name)
    top = load(full / "top_earlgrey.hjson")
    reduce_top(top, removed)
    dump(top, data / "top_earlgrey.hjson")
    for name in ("xbar_main.hjson", "xbar_peri.hjson"):
        xbar = load(full / name)
        reduce_xbar(xbar, removed)
        dump(xbar, data / name)
    log(f"removed {', '.join(sorted(removed))}; kept {', '.join(m['name'] for m in top['module'])}")

    rnd_cnst = (src / RND_CNST_PKG).read_bytes()
    before = file_digests(src / TOP)
    subprocess.run([sys.executable, "util/topgen.py", "-t", str(DATA / "top_earlgrey.hjson"),
                    "-o", str(TOP)], cwd=src, check=True)
    (src / RND_CNST_PKG).write_bytes(rnd_cnst)
    after = file_digests(src / TOP)
    rewritten = {str(p.relative_to(src)) for p, d in after.items() if before.get(p) != d}
    log(f"topgen rewrote {len(rewritten)} files; {RND_CNST_PKG.name} kept from the full chip")

    reapply_patches(src, patches, rewritten, removed)
    if fix_single_hint_clkmgr(src):
        log("clkmgr.sv: fixed for a single hinted block")
    fix_testbench(src)
    if args.no_rvfi:
        drop_rvfi(src)


if __name__ == "__main__":
    main()
