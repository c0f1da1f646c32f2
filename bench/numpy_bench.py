#!/usr/bin/env python3
# numpy_bench.py: times numpy on the cases wherec_bench just ran (read from its
# records), the way users write them; prints `time <case> numpy <ns>` records.
"""usage: numpy_bench.py C_RECORDS [-o FILE] [--reps N]"""
import argparse
import sys
import time

import numpy as np

from cases import numpy_call, read_cases

SAMPLE_NS = 2e6  # short calls repeat within a sample to last this long (as bench.c)


def calibrate(fn):
    """Calls per sample; the call timed here is the warm-up."""
    t0 = time.perf_counter_ns()
    fn()
    one = time.perf_counter_ns() - t0
    return 1 if one >= SAMPLE_NS else int(SAMPLE_NS / max(one, 1)) + 1


def sample_ns(fn, inner):
    """ns per call over one sample of `inner` calls."""
    t0 = time.perf_counter_ns()
    for _ in range(inner):
        fn()
    return (time.perf_counter_ns() - t0) / inner


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def median_ns(fn, reps):
    """Median ns per call over reps samples, after a warm-up call."""
    inner = calibrate(fn)
    return median([sample_ns(fn, inner) for _ in range(reps)])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("records")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--reps", type=int, default=11)
    args = ap.parse_args()
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    print(f"numpy\t{np.__version__}", file=out)
    for case in read_cases(args.records):
        ns = median_ns(numpy_call(case, case.operands()), args.reps)
        print(f"time\t{case.name}\tnumpy\t{ns:.3f}", file=out, flush=True)
        print(f"  {case.name:22} numpy {ns / 1e3:12.3f} us", file=sys.stderr)
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
