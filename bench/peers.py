#!/usr/bin/env python3
# peers.py: times the libraries one could use instead of wherec (numexpr, onnxruntime,
# jax.jit; peer_libs.py) on the cases wherec_bench just ran, each one that imports,
# and checks each one's output byte for byte against numpy's, which is wherec's.
"""usage: peers.py C_RECORDS [-o FILE] [--reps N] [--only TEXT] [--venv DIR]

Records (tab-separated), for report.py:
  peer VARIANT HEADING VERSION          a peer that imports
  missing VARIANT HEADING REASON        one that does not ("numexpr: not installed")
  time CASE VARIANT NS                  median ns per call
  skip CASE VARIANT REASON              a case the peer cannot run
  mismatch CASE VARIANT CLASS COUNT N   COUNT of N output elements differ, of CLASS:
                                        -0.0 lost, subnormal flushed, other, dtype, shape
"""
import argparse
import os
import sys

import numpy as np

from cases import expected, read_cases
from numpy_bench import calibrate, median, sample_ns
from peer_libs import PEERS, Unsupported


def reexec_in(venv):
    """Runs this script with the venv's python (the peers are installed there),
    unless this is it or the venv does not exist."""
    py = os.path.join(venv, "bin", "python")
    if os.path.exists(py) and os.path.realpath(sys.prefix) != os.path.realpath(venv):
        os.execv(py, [py, "-B", os.path.abspath(__file__)] + sys.argv[1:])


def mismatches(want, got):
    """{class: count} of the elements of got that differ from want in their bytes."""
    got = np.asarray(got)
    if got.dtype != want.dtype:
        return {f"dtype {got.dtype}": want.size}
    if got.shape != want.shape:
        return {f"shape {got.shape}": want.size}
    bits = np.dtype(f"u{want.itemsize}")
    w, g = want.reshape(-1), got.reshape(-1)
    bad = w.view(bits) != g.view(bits)
    if not bad.any():
        return {}
    w, g = w[bad], g[bad]
    if not np.issubdtype(want.dtype, np.floating):
        return {"other": int(bad.sum())}
    lost = (w == 0) & np.signbit(w) & (g == 0) & ~np.signbit(g)
    flushed = (w != 0) & (np.abs(w) < np.finfo(want.dtype).tiny) & (g == 0)
    out = {"-0.0 lost": int(lost.sum()), "subnormal flushed": int(flushed.sum()),
           "other": int((~lost & ~flushed).sum())}
    return {k: v for k, v in out.items() if v}


def run_case(case, peers, reps, out):
    """Every peer that can run the case: checked once, then timed, samples going
    round the peers (sample s of each before s + 1 of any), as bench.c does."""
    ops = case.operands()
    want = expected(case, ops)
    timed = []
    for p in peers:
        try:
            before, call = p.prepare(case, ops)
        except Unsupported as e:
            print(f"skip\t{case.name}\t{p.variant}\t{e}", file=out)
            continue
        if before:
            before()
        for cls, n in mismatches(want, call()).items():
            print(f"mismatch\t{case.name}\t{p.variant}\t{cls}\t{n}\t{want.size}", file=out)
        timed.append((p, before, call))
    inner = []
    for _, before, call in timed:
        if before:
            before()
        inner.append(calibrate(call))
    samples = [[] for _ in timed]
    for _ in range(reps):
        for (_, before, call), k, s in zip(timed, inner, samples):
            if before:
                before()
            s.append(sample_ns(call, k))
    line = []
    for (p, _, _), s in zip(timed, samples):
        ns = median(s)
        print(f"time\t{case.name}\t{p.variant}\t{ns:.3f}", file=out)
        line.append(f"{p.heading} {ns / 1e3:.3f} us")
    out.flush()
    print(f"  {case.name:22} " + ", ".join(line), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--only", help="cases whose name contains this")
    ap.add_argument("--venv", help="run with this venv's python if it exists (bench/peers-venv.sh makes it)")
    args = ap.parse_args()
    if args.venv:
        reexec_in(args.venv)
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    peers = []
    for p in PEERS:
        try:
            print(f"peer\t{p.variant}\t{p.heading}\t{p.load()}", file=out)
            peers.append(p)
        except ImportError as e:
            why = f"{e.name}: not installed" if isinstance(e, ModuleNotFoundError) else f"cannot import: {e}"
            print(f"missing\t{p.variant}\t{p.heading}\t{why}", file=out)
            print(f"peers.py: {p.heading}: {why}", file=sys.stderr)
    for case in read_cases(args.records):
        if peers and (not args.only or args.only in case.name):
            run_case(case, peers, args.reps, out)
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
