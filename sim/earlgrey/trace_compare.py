#!/usr/bin/env python3
"""Compares two Ibex instruction traces of the same request, instruction by instruction.

Each trace (the core tracer's log: time, cycle, PC, instruction, decoded instruction,
registers and memory) is read from the first instruction at ENTRY, the function the request
timed; from there every instruction of the next CYCLES cycles must be the same in both: the
same PC, instruction word, operands, results, memory addresses and data, at the same cycle
counted from that first instruction. What comes before (start-up, which differs between a
model variant and the whole chip: its probes of absent blocks) and after (the suite waiting for
the host) is not compared.

Usage: trace_compare.py TRACE_A TRACE_B --entry HEX --cycles N
Exit status 0 when the windows are identical, 1 at the first difference (printed with the
line of each trace), 2 when a trace lacks the entry or ends inside the window.
"""

import argparse
import itertools
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


def window(path, entry, cycles):
    """The (cycle from the entry, rest) of each instruction of the window in `path`."""
    with open(path, encoding="ascii", errors="replace") as trace:
        next(trace, None)  # the header
        first = None
        for number, line in enumerate(trace, start=2):
            cycle, rest = fields(line)
            if first is None:
                if int(rest.split("\t", 1)[0], 16) != entry:
                    continue
                first = cycle
            if cycle - first > cycles:
                return
            yield number, cycle - first, rest
        if first is None:
            unusable(f"{path} never reaches 0x{entry:08x}")
        unusable(f"{path} ends inside the window")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--entry", required=True, type=lambda s: int(s, 16))
    parser.add_argument("--cycles", required=True, type=int)
    args = parser.parse_args()
    compared = 0
    last = 0
    pairs = itertools.zip_longest(
        window(args.a, args.entry, args.cycles), window(args.b, args.entry, args.cycles)
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
    print(f"trace_compare: {compared} instructions identical over {last + 1} cycles from 0x{args.entry:08x}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
