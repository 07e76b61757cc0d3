"""Compares two batch files line by line, each line's `seconds` (its timing) left out.

Usage: python3 same_apart_from_seconds.py SINGLE MERGED; exit 0 when equal, else a message naming
the first line that differs.
"""
import json
import sys
from collections import OrderedDict


def lines(path):
    out = []
    with open(path) as f:
        for line in f:
            value = json.loads(line, object_pairs_hook=OrderedDict)
            value.pop("seconds", None)
            out.append(json.dumps(value))
    return out


single, merged = lines(sys.argv[1]), lines(sys.argv[2])
if len(single) != len(merged):
    sys.exit(f"{len(single)} lines in {sys.argv[1]}, {len(merged)} in {sys.argv[2]}")
for i, (a, b) in enumerate(zip(single, merged), 1):
    if a != b:
        sys.exit(f"line {i} differs:\n  {a[:300]}\n  {b[:300]}")
print(f"{len(merged)} lines equal apart from `seconds`")
