#!/usr/bin/env python3
"""Summarizes the --log of tests/fuzz/csmith_diff.py (one JSON line per
program): how many programs were compared, skipped (and why) or mismatched,
their sizes, how long clang's builds ran, and how long each program took.

Usage: bench/csmith/summarize.py LOG.jsonl [--markdown]"""

import argparse
import json
import statistics
from collections import Counter


def pct(values, p):
    values = sorted(values)
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    rows = [json.loads(line) for line in open(args.log) if line.strip()]
    status = Counter(r["status"] for r in rows)
    reasons = Counter(r["reason"] for r in rows if r["status"] == "skip")
    compared = [r for r in rows if r["status"] in ("ok", "mismatch")]
    lines = [r["lines"] for r in rows if r["lines"]]
    run = [r["clang_run_seconds"] for r in compared if r.get("clang_run_seconds") is not None]
    secs = [r["seconds"] for r in rows]
    facts = [
        ("programs", f"{len(rows)}"),
        ("built and compared", f"{len(compared)}"),
        ("skipped", f"{status['skip']}" + (" (" + ", ".join(
            f"{n} {why}" for why, n in reasons.most_common()) + ")" if reasons else "")),
        ("mismatching", f"{status['mismatch']}"),
        ("errors", f"{status['error']}"),
        ("lines per program (median / 90th percentile / max)",
         f"{statistics.median(lines):.0f} / {pct(lines, 90)} / {max(lines)}" if lines else "-"),
        ("clang build's run time, compared programs (median / 99th percentile / max)",
         f"{statistics.median(run):.3f} / {pct(run, 99):.3f} / {max(run):.3f} s" if run else "-"),
        ("wall time per program, 2 at a time (median / max / sum)",
         f"{statistics.median(secs):.1f} / {max(secs):.1f} / {sum(secs):.0f} s" if secs else "-"),
    ]
    if args.markdown:
        print("| | |\n| --- | --- |")
        for k, v in facts:
            print(f"| {k} | {v} |")
    else:
        for k, v in facts:
            print(f"{k}: {v}")
    for r in rows:
        for m in r.get("mismatches", []):
            print(f"mismatch: csmith --seed {r['csmith_seed']} (program {r['index']}), "
                  f"-frandom-seed={m['divcc_seed']}: {m['what']}; alone: {m['alone']}; "
                  f"undefined behaviour: {m['ub']}")


if __name__ == "__main__":
    main()
