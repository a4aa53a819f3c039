#!/usr/bin/env python3
"""Where the instructions of one configuration go beyond another's.

    profile-diff.py PROFILE.TSV BASE CONFIG [TOP]

PROFILE.TSV is bench/profile.sh's output (config, symbol, instructions per
iteration). Prints the symbols that CONFIG runs more than BASE, per
iteration of the loop (one traced call of ksys_read in the syscall loop),
largest first. The figures come from sampling: a symbol's share is exact
only to a few instructions, and a sample can land in a neighbour.
"""
import collections
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tsv, base, cfg = sys.argv[1:4]
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 15
    prof = collections.defaultdict(dict)
    with open(tsv) as f:
        for line in f:
            c, sym, v = line.rstrip("\n").split("\t")
            prof[c][sym] = float(v)
    for c in (base, cfg):
        if c not in prof:
            sys.exit(f"no configuration {c} in {tsv}")
    a, b = prof[base], prof[cfg]
    total = sum(b.values()) - sum(a.values())
    rows = sorted(((b.get(k, 0) - a.get(k, 0), k) for k in set(a) | set(b)), reverse=True)
    print(f"--- {cfg} minus {base}: {total:.0f} instructions per iteration")
    print(f"{'more':>8} {base:>14} {cfg:>14}  symbol")
    for d, k in rows[:top]:
        print(f"{d:8.1f} {a.get(k, 0):14.1f} {b.get(k, 0):14.1f}  {k}")


if __name__ == "__main__":
    main()
