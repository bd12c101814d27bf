#!/usr/bin/env python3
"""Compares two Ibex instruction traces of the same request, instruction by instruction.

Each trace is the core tracer's log (time, cycle, PC, instruction, decoded instruction,
registers and memory). In each, the request's timed window is found by its two reads of the
cycle counter (`csrrs rd, mcycle, x0`, one after the other in the trace) that lie exactly
CYCLES apart, the raw count the record states. Every instruction from the first read to the
second must be the same in both traces: the same PC, instruction word, operands, results,
memory addresses and data, at the same cycle counted from the first read. What comes before
(start-up, which differs between a model variant and the whole chip: its probes of absent
blocks) and after (the suite waiting for the host) is not compared.

Usage: trace_compare.py TRACE_A TRACE_B --cycles N
Exit status 0 when the windows are identical, 1 at the first difference (printed with the
line of each trace), 2 when a trace holds no such window.
"""

import argparse
import itertools
import re
import sys


def unusable(why):
    """Stops with status 2: the trace cannot be compared."""
    print(f"trace_compare: {why}", file=sys.stderr)
    sys.exit(2)


def fields(line):
    """(cycle, the compared rest) of a trace line."""
    time, cycle, rest = line.rstrip("\n").split("\t", 2)
    del time  # the simulation time: the cycle times the clock period, compared via the cycle
    return int(cycle), rest


def is_counter_read(rest):
    """Whether an instruction (the fields after the cycle) reads the cycle counter."""
    decoded = rest.split("\t", 3)[2:3]
    return bool(decoded) and decoded[0] == "csrrs" and ",mcycle,x0" in rest.split("\t", 4)[3]


STORES = {"sb", "sh", "sw", "c.sw", "c.swsp"}


def defined_data(rest):
    """The fields of an instruction whose values RVFI defines. The snapshot's tracer prints the
    write data as `store:` whenever the read mask is set and the read data as `load:` whenever
    the write mask is set, so a load's line carries the data of the last store before it (from
    before the window, maybe), and a store's the read data; what a load read is in its
    destination register, what a store wrote is its `store:` field."""
    if rest.split("\t", 3)[2] not in STORES:
        rest = re.sub(r" store:0x[0-9a-f]{8}", "", rest)
    return re.sub(r" load:0x[0-9a-f]{8}", "", rest)


def window_start(path, cycles):
    """The line number of the counter read that opens the window of `cycles` cycles."""
    previous = None
    with open(path, encoding="ascii", errors="replace") as trace:
        next(trace, None)  # the header
        for number, line in enumerate(trace, start=2):
            if "mcycle" not in line:
                continue
            cycle, rest = fields(line)
            if not is_counter_read(rest):
                continue
            if previous is not None and cycle - previous[1] == cycles:
                return previous[0]
            previous = (number, cycle)
    unusable(f"{path} holds no two counter reads {cycles} cycles apart")


def window(path, cycles):
    """The (line number, cycle from the window's start, rest) of each instruction of the
    window in `path`."""
    first_line = window_start(path, cycles)
    with open(path, encoding="ascii", errors="replace") as trace:
        first = None
        for number, line in enumerate(trace, start=1):
            if number < first_line:
                continue
            cycle, rest = fields(line)
            if first is None:
                # The counter reads' values count from reset, and start-up differs: the two
                # reads' values, wherever they go (registers, the stack), stand as names.
                first = cycle
                opened = int(re.search(r"=0x([0-9a-f]{8})", rest).group(1), 16)
                values = {
                    f"0x{opened:08x}": "(window opened)",
                    f"0x{(opened + cycles) & 0xFFFFFFFF:08x}": "(window closed)",
                }
            if cycle - first > cycles:
                return
            for value, name in values.items():
                rest = rest.replace(value, name)
            yield number, cycle - first, defined_data(rest)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--cycles", required=True, type=int)
    args = parser.parse_args()
    compared = 0
    last = 0
    pairs = itertools.zip_longest(
        window(args.a, args.cycles), window(args.b, args.cycles)
    )
    for a, b in pairs:
        if a is None or b is None or a[1:] != b[1:]:
            print(f"trace_compare: instruction {compared + 1} of the window differs")
            for path, line in ((args.a, a), (args.b, b)):
                shown = f"{line[0]}: cycle +{line[1]}\t{line[2]}" if line else " (the window ended)"
                print(f"  {path}:{shown}")
            return 1
        compared += 1
        last = a[1]
    print(f"trace_compare: {compared} instructions identical over {last + 1} cycles of the window")
    return 0


if __name__ == "__main__":
    sys.exit(main())
