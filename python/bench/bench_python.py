"""bench_python.py: per-call time of wherec kernels through the Python layer against numpy
and numexpr on the same arrays, at 4 (2x2), 1K, 64K and 16M elements, in one run.
usage: python bench_python.py [--sizes 4,1024,65536,16777216] [--threads N]
Prints one row per (case, size): nanoseconds per call, best of 5 repeats, for wherec
allocating the output, wherec with out=, numpy, and numexpr (when installed)."""
import argparse
import timeit

import numpy as np

import wherec

SPEC = """
option prefix = "pybench";
kernel where_f32(c: bool[N], x: float[N], y: float[N]) = where(c, x, y);
kernel where_row(c: bool[R,1], x: float[R,C], y: float[R,C]) = where(c, x, y);
kernel leaky(x: float[N]) = where(x > 0, x, x * 0.01);
kernel clamp(x: float[N], lo: float[], hi: float[]) = where(x < lo, lo, where(x > hi, hi, x));
"""


def cases(n, rng):
    c = rng.integers(0, 2, n).astype(bool)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    rows = 2 if n == 4 else 64
    cr = rng.integers(0, 2, (rows, 1)).astype(bool)
    xr, yr = x.reshape(rows, -1), y.reshape(rows, -1)
    lo, hi = np.float32(-0.5), np.float32(0.5)
    a = np.float32(0.01)
    return [
        ("where", "where_f32", (c, x, y), lambda: np.where(c, x, y), "where(c, x, y)", dict(c=c, x=x, y=y)),
        ("where row-cond", "where_row", (cr, xr, yr), lambda: np.where(cr, xr, yr), "where(c, x, y)",
         dict(c=cr, x=xr, y=yr)),
        ("leaky relu", "leaky", (x,), lambda: np.where(x > 0, x, x * a), "where(x > 0, x, x * a)", dict(x=x, a=a)),
        ("clamp", "clamp", (x, lo, hi), lambda: np.where(x < lo, lo, np.where(x > hi, hi, x)),
         "where(x < lo, lo, where(x > hi, hi, x))", dict(x=x, lo=lo, hi=hi)),
    ]


def best(f, n_elems):
    number = max(1, min(200000, 20_000_000 // max(n_elems, 1)))
    return min(timeit.repeat(f, number=number, repeat=5)) / number * 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="4,1024,65536,16777216")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    try:
        import numexpr
        numexpr.set_num_threads(args.threads)
    except ImportError:
        numexpr = None
    if args.threads > 1:
        wherec.set_threads(args.threads)
    k = wherec.compile(SPEC, cflags="-O2")
    rng = np.random.default_rng(0)
    print(f"{'case':16s} {'elements':>9s} {'wherec':>10s} {'wherec out=':>12s} {'numpy':>10s} "
          f"{'numexpr':>10s}   ns per call, threads {args.threads}")
    for n in [int(s) for s in args.sizes.split(",")]:
        for name, kname, arrays, npf, expr, env in cases(n, rng):
            kern = k[kname]
            got = kern(*arrays)
            assert np.array_equal(got, npf(), equal_nan=True), name
            o = np.empty_like(got)
            t_wc = best(lambda: kern(*arrays), n)
            t_out = best(lambda: kern(*arrays, out=o), n)
            t_np = best(npf, n)
            t_ne = best(lambda: numexpr.evaluate(expr, local_dict=env), n) if numexpr else float("nan")
            print(f"{name:16s} {n:9d} {t_wc:10.0f} {t_out:12.0f} {t_np:10.0f} {t_ne:10.0f}")


if __name__ == "__main__":
    main()
