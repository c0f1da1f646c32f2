#!/usr/bin/env python3
# run_threads.py: `wherec run --threads N` gives the same output bytes for N = 1, 2, 3 on
# both paths (specialized and --interp), on calls large enough to split; bad N is a usage error.
#
# Usage: run_threads.py WHEREC WORK_DIR
import os
import shutil
import subprocess
import sys

import numpy as np

SPEC = """\
option prefix = "threadtest";
kernel pick(c: bool[N,1], x: float[N,M], y: float[1,M]) = where(c, x, y);
kernel leaky(x: double[N]) = where(x < 0, x * 0.01, x);
kernel rows(c: bool[B], x: uint8[B,M], y: uint8[B,M]) = where_v1(c, x, y);
"""

wherec, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
env = dict(os.environ, WHEREC_CACHE_DIR=os.path.join(work, "cache"))
spec = os.path.join(work, "threadtest.where")
with open(spec, "w") as f:
    f.write(SPEC)
rng = np.random.default_rng(13)
failed = 0


def saved(name, a):
    path = os.path.join(work, name)
    np.save(path, a)
    return path


def run(kernel, inputs, out, *flags):
    p = subprocess.run([wherec, "run", spec, kernel, *inputs, "-o", out, *flags], env=env,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stderr


# Outputs of 1.2 to 4 MiB (the default threshold is 1 MiB), odd extents.
N, M = 1237, 301
cases = {
    "pick": [saved("c.npy", rng.integers(0, 2, (N, 1)).astype(bool)),
             saved("x.npy", rng.standard_normal((N, M)).astype(np.float32)),
             saved("y.npy", rng.standard_normal((1, M)).astype(np.float32))],
    "leaky": [saved("d.npy", rng.standard_normal(300007))],
    "rows": [saved("r.npy", rng.integers(0, 2, N).astype(bool)),
             saved("u.npy", rng.integers(0, 256, (N, 1013)).astype(np.uint8)),
             saved("v.npy", rng.integers(0, 256, (N, 1013)).astype(np.uint8))],
}
for kernel, inputs in cases.items():
    for path in ([], ["--interp"]):
        want = None
        for n in (1, 2, 3):
            out = os.path.join(work, "%s%s_%d.npy" % (kernel, "_i" if path else "", n))
            rc, err = run(kernel, inputs, out, "--threads", str(n), *path)
            if rc != 0:
                print("FAIL: %s %s --threads %d: exit %d: %s" % (kernel, path, n, rc, err))
                failed += 1
                continue
            got = open(out, "rb").read()
            if want is None:
                want = got
            elif got != want:
                print("FAIL: %s %s --threads %d: bytes differ from --threads 1" % (kernel, path, n))
                failed += 1

for bad in ("0", "-1", "257", "two", "2x"):
    rc, err = run("leaky", cases["leaky"], os.path.join(work, "bad.npy"), "--threads", bad)
    if rc != 2 or "--threads" not in err or os.path.exists(os.path.join(work, "bad.npy")):
        print("FAIL: --threads %s: exit %d, %s" % (bad, rc, err))
        failed += 1

print("run_threads: %s" % ("all passed" if failed == 0 else "%d failed" % failed))
sys.exit(1 if failed else 0)
