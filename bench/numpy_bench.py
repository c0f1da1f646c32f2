#!/usr/bin/env python3
# numpy_bench.py: times numpy on the cases wherec_bench just ran (read from its
# records), the way users write them; prints `time <case> numpy <ns>` records.
"""usage: numpy_bench.py C_RECORDS [-o FILE] [--reps N]"""
import argparse
import sys
import time

import numpy as np

SAMPLE_NS = 2e6  # short calls repeat within a sample to last this long (as bench.c)
DTYPES = {"float": np.float32, "double": np.float64}  # ONNX names numpy spells otherwise


def parse_shape(text):
    return tuple(int(e) for e in text.split(",")) if text else ()


def operand(rng, dtype, shape, p):
    """Random operands as bench.c draws them: bools true with probability p,
    floats in [-1, 1), integers over their whole range."""
    if dtype == np.bool_:
        return np.asarray(rng.random(shape) < p)
    if np.issubdtype(dtype, np.floating):
        return np.asarray(rng.random(shape, dtype=np.float64) * 2 - 1, dtype=dtype)
    info = np.iinfo(dtype)
    return np.asarray(rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True))


def expression(kind, dtype, shapes, p, rng):
    """The numpy call a user writes for the case, as a closure."""
    if kind == "where":
        c = operand(rng, np.bool_, shapes[0], p)
        x, y = (operand(rng, dtype, s, p) for s in shapes[1:3])
        return lambda: np.where(c, x, y)
    if kind == "leaky":
        x = operand(rng, dtype, shapes[0], p)
        return lambda: np.where(x > 0, x, x * 0.01)  # x * 0.01 stays float32
    c = operand(rng, np.bool_, shapes[0], p)
    return (lambda: np.argwhere(c)) if kind == "argwhere" else (lambda: np.nonzero(c))


def median_ns(fn, reps):
    """Median ns per call over reps samples, after a warm-up call."""
    t0 = time.perf_counter_ns()
    fn()
    one = time.perf_counter_ns() - t0
    inner = 1 if one >= SAMPLE_NS else int(SAMPLE_NS / max(one, 1)) + 1
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter_ns() - t0) / inner)
    samples.sort()
    return samples[len(samples) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("records")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--reps", type=int, default=11)
    args = ap.parse_args()
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    rng = np.random.default_rng(5)
    print(f"numpy\t{np.__version__}", file=out)
    with open(args.records) as f:
        for line in f:
            rec = line.rstrip("\n").split("\t")
            if rec[0] != "case":
                continue
            name, kind, dtype, p, shapes = rec[1], rec[2], rec[3], float(rec[4]), rec[5]
            dt = DTYPES.get(dtype, np.dtype(dtype).type)
            fn = expression(kind, dt, [parse_shape(s) for s in shapes.split(";")], p, rng)
            ns = median_ns(fn, args.reps)
            print(f"time\t{name}\tnumpy\t{ns:.3f}", file=out, flush=True)
            print(f"  {name:22} numpy {ns / 1e3:12.3f} us", file=sys.stderr)
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
