#!/usr/bin/env python3
"""Checks that results directory B holds what A holds: every record but for its timestamp, in
the same order, none twice; results.csv; and the .out file of every input file named.

    scripts/same-results.py A B FILE.bench...
"""
import json
import os
import sys


def records(directory):
    out = []
    with open(os.path.join(directory, "results.jsonl")) as f:
        for line in f:
            record = json.loads(line)
            record.pop("timestamp", None)
            out.append(record)
    return out


def main():
    a_dir, b_dir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    a, b = records(a_dir), records(b_dir)
    keys = [(r["file"], r["line"], (r.get("sweep") or {}).get("index")) for r in b]
    if len(set(keys)) != len(keys):
        sys.exit(f"{b_dir}: a request is recorded twice")
    if len(a) != len(b):
        sys.exit(f"{len(a)} records in {a_dir}, {len(b)} in {b_dir}")
    for x, y in zip(a, b):
        if x != y:
            sys.exit(f"records differ:\n{x}\n{y}")
    names = ["results.csv"] + [os.path.splitext(os.path.basename(f))[0] + ".out" for f in files]
    for name in names:
        with open(os.path.join(a_dir, name)) as fa, open(os.path.join(b_dir, name)) as fb:
            if fa.read() != fb.read():
                sys.exit(f"{name} differs between {a_dir} and {b_dir}")
    print(f"{b_dir} holds what {a_dir} holds: {len(b)} records (timestamps aside), results.csv and "
          f"{len(names) - 1} .out files; none lost or duplicated")


main()
