#!/usr/bin/env python3
# run_numpy.py: `wherec run` on .npy files against numpy, bit for bit, on both paths (specialized
# and --interp); its error classes (exit status, message, no output); its compile cache.
#
# Usage: run_numpy.py WHEREC WORK_DIR   (WHEREC: the wherec CLI, or any program with `run`)
import os
import shutil
import subprocess
import sys

import numpy as np

SPEC = """\
option prefix = "npytest";
kernel pick<T: bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
            bfloat16, float, double, complex64, complex128, string>
  (c: bool[N,1], x: T[N,M], y: T[1,M]) = where(c, x, y);
kernel leaky(x: float[N,5]) = where(x < 0, x * 0.01, x);
kernel clamp16(x: float16[8,3], lo: float16[], hi: float16[]) = where(x < lo, lo, where(x > hi, hi, x));
kernel rows(c: bool[B], x: double[B,7], y: double[B,7]) = where_v1(c, x, y);
kernel coords(c: bool[4,4]) = argwhere(c);
kernel nz(x: float[N,3]) = nonzero(x);
kernel mixed(a: int32[N], b: int32[N]) = where(a > b, a - b, b / a);
kernel scalar(c: bool[], x: int64[], y: int64[]) = where(c, x, y);
"""

FLOAT_EDGES = np.array([0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, 1e-45, -1e-45, 3.4e38], np.float32)
NANS = np.array([0x7fc00000, 0xffc00001, 0x7f800001], np.uint32).view(np.float32)

rng = np.random.default_rng(2024)
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def floats(shape, dtype=np.float32):
    """Edge values (NaN payloads, -0.0, infinities, subnormals) of a float dtype."""
    with np.errstate(all="ignore"):
        pool = np.concatenate([FLOAT_EDGES, NANS]).astype(dtype)
    return pool[rng.integers(0, len(pool), size=shape)]


def values(dtype, shape):
    """Random values of a kernel dtype (bfloat16 as uint16 bits, strings as bytes)."""
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype == "bfloat16":
        return rng.integers(0, 1 << 16, size=shape, dtype=np.uint16)
    if dtype == "string":
        words = np.array([b"", b"a", b"bb", b"longer string", b"x" * 17])
        return words[rng.integers(0, len(words), size=shape)]
    if dtype in ("float16", "float", "double"):
        return floats(shape, {"float16": np.float16, "float": np.float32, "double": np.float64}[dtype])
    if dtype.startswith("complex"):
        ft = np.float32 if dtype == "complex64" else np.float64
        return floats(tuple(shape) + (2,), ft).view(np.dtype(dtype)).reshape(shape)
    info = np.iinfo(np.dtype(dtype))
    return rng.integers(info.min, info.max, size=shape, dtype=np.dtype(dtype), endpoint=True)


def run(wherec, args, env):
    p = subprocess.run([wherec, "run"] + args, capture_output=True, text=True, env=env)
    return p.returncode, p.stderr


def same(a, b):
    """Equal dtype kind, shape and bits (strings: the same values)."""
    if a.shape != b.shape:
        return False
    if a.dtype.kind == "S" or b.dtype.kind == "S":
        return a.dtype.kind == b.dtype.kind and a.tolist() == b.tolist()
    return a.dtype == b.dtype and a.tobytes() == b.tobytes()


def kernel_cases():
    """(kernel, inputs, expected output) triples."""
    cases = []
    for t in ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "bfloat16", "float", "double", "complex64", "complex128", "string"]:
        for n, m in [(3, 5), (1, 1), (0, 4)]:
            c, x, y = values("bool", (n, 1)), values(t, (n, m)), values(t, (1, m))
            cases.append(("pick_" + t, [c, x, y], np.where(c, x, y)))
    x = floats((6, 5))
    with np.errstate(all="ignore"):
        cases.append(("leaky", [x], np.where(x < 0, x * np.float32(0.01), x)))
    x16 = floats((8, 3), np.float16)
    lo, hi = np.array(-1.0, np.float16), np.array(2.0, np.float16)
    cases.append(("clamp16", [x16, lo, hi], np.where(x16 < lo, lo, np.where(x16 > hi, hi, x16))))
    c, xd, yd = values("bool", (5,)), floats((5, 7), np.float64), floats((5, 7), np.float64)
    cases.append(("rows", [c, xd, yd], np.where(c[:, None], xd, yd)))
    cb = values("bool", (4, 4))
    cases.append(("coords", [cb], np.argwhere(cb).astype(np.int64)))
    xf = floats((7, 3))
    cases.append(("nz", [xf], np.array(np.nonzero(xf), dtype=np.int64)))
    a = np.array([5, -7, 0, np.iinfo(np.int32).min, 9, 3, -1], np.int32)
    b = np.array([2, 2, 4, -1, 0, 3, np.iinfo(np.int32).min], np.int32)
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    with np.errstate(all="ignore"):
        safe = np.where(a64 == 0, 1, a64)
        q = np.abs(b64) // np.abs(safe) * np.sign(b64) * np.sign(safe)   # truncating division
        q = np.where(a64 == 0, 0, q)
        expect = np.where(a > b, (a64 - b64).astype(np.int32), q.astype(np.int32))
    cases.append(("mixed", [a, b], expect))
    cases.append(("scalar", [np.array(True), np.array(-5, np.int64), np.array(7, np.int64)],
                  np.array(-5, np.int64)))
    return cases


def main():
    wherec, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, WHEREC_CACHE_DIR=os.path.join(work, "cache"))
    spec = os.path.join(work, "npytest.where")
    with open(spec, "w") as f:
        f.write(SPEC)

    # every kernel on both paths
    for k, (kernel, inputs, expect) in enumerate(kernel_cases()):
        paths = []
        for i, arr in enumerate(inputs):
            paths.append(os.path.join(work, "in_%d_%d.npy" % (k, i)))
            np.save(paths[-1], arr)
        for flag, path in [([], "specialized"), (["--interp"], "interpreted")]:
            out = os.path.join(work, "out_%d_%s.npy" % (k, path))
            rc, err = run(wherec, [spec, kernel] + paths + ["-o", out] + flag, env)
            ok = rc == 0 and ("ran %s (%s)" % (kernel, path)) in err
            got = np.load(out) if rc == 0 else None
            if got is not None and kernel == "pick_bfloat16":
                ok = ok and got.dtype == np.uint16
            check(ok and got is not None and same(got, expect),
                  "%s %s: rc %d %s" % (kernel, path, rc, err.strip()))

    # the cache: a second run compiles nothing; a damaged shared object is rebuilt
    x = os.path.join(work, "x.npy")
    np.save(x, floats((2, 5)))
    out = os.path.join(work, "cached.npy")
    rc, err = run(wherec, [spec, "leaky", x, "-o", out], env)
    check(rc == 0 and "compiled" not in err, "second run compiles again: " + err)
    cache = env["WHEREC_CACHE_DIR"]
    libs = [os.path.join(d, f) for d, _, fs in os.walk(cache) for f in fs if f.endswith(".so")]
    check(len(libs) == 1, "one shared object in the cache: %s" % libs)
    with open(libs[0], "wb") as f:
        f.write(b"not an ELF file")
    rc, err = run(wherec, [spec, "leaky", x, "-o", out], env)
    check(rc == 0 and "compiled" in err and "specialized" in err, "damaged .so not rebuilt: " + err)

    # error classes: status, message, and the output left as it was
    def bad(args, status, message, what):
        marker = os.path.join(work, "marker.npy")
        with open(marker, "w") as f:
            f.write("old")
        rc, err = run(wherec, args + ["-o", marker], env)
        with open(marker) as f:
            untouched = f.read() == "old"
        check(rc == status and message in err and untouched,
              "%s: rc %d, untouched %s, stderr: %s" % (what, rc, untouched, err.strip()))

    def saved(name, arr, **kw):
        path = os.path.join(work, name)
        np.save(path, arr, **kw)
        return path

    fortran = saved("fortran.npy", np.asfortranarray(floats((3, 5))))
    bigend = saved("big.npy", floats((3, 5)).astype(">f4"))
    obj = saved("obj.npy", np.array([[1, "a", None, 2, 3]] * 3, dtype=object), allow_pickle=True)
    wrong_dtype = saved("i32.npy", np.zeros((3, 5), np.int32))
    wrong_shape = saved("shape.npy", np.zeros((3, 4), np.float32))
    trunc = os.path.join(work, "trunc.npy")
    with open(saved("full.npy", floats((3, 5))), "rb") as f, open(trunc, "wb") as g:
        g.write(f.read()[:-3])
    bad([spec, "leaky", fortran], 1, "Fortran-order", "Fortran order")
    bad([spec, "leaky", bigend], 1, "big-endian dtype '>f4'", "big-endian")
    bad([spec, "leaky", obj], 1, "object arrays", "object array")
    bad([spec, "leaky", trunc], 1, "truncated data", "truncated file")
    bad([spec, "leaky", wrong_dtype], 1,
        "parameter 'x' of kernel 'leaky' is float; the file holds int32 ('<i4')", "wrong dtype")
    bad([spec, "leaky", wrong_shape], 1,
        "parameter 'x' of kernel 'leaky' is float[N,5]; the file's shape is (3, 4)", "wrong shape")
    bad([spec, "leaky", x, x], 1, "kernel 'leaky' takes 1 input; 2 given", "input count")
    bad([spec, "nope", x], 1, "has no kernel 'nope'", "unknown kernel")
    bad([spec, "leaky", os.path.join(work, "missing.npy")], 1, "cannot open", "missing input")
    broken = os.path.join(work, "broken.where")
    with open(broken, "w") as f:
        f.write("kernel k(x: float[3]) = x +;\n")
    bad([broken, "k", x], 1, "broken.where:1:28: error:", "spec with an error")
    bad([spec, "leaky", x, "--cc", "/nonexistent/cc"], 4, "cannot run the compiler",
        "missing compiler")
    rc, err = run(wherec, [spec, "leaky", x], env)
    check(rc == 2 and "missing -o" in err, "usage without -o: %d %s" % (rc, err))
    rc, err = run(wherec, [spec, "leaky", x, "-o", os.path.join(work, "no", "dir.npy")], env)
    check(rc == 1 and not os.path.exists(os.path.join(work, "no")), "unwritable output: " + err)

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
