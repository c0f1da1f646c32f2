#!/usr/bin/env python3
# ort_compare.py: runs the generated node tests through onnxruntime and reports where it and
# ONNX's expected outputs disagree, under node_cmp's rules; informational, not a ctest.
#
# Needs onnxruntime, onnx and numpy (not needed to build wherec), e.g. in a venv under build/:
#   python3 -m venv build/ort-venv && build/ort-venv/bin/pip install onnxruntime numpy onnx
#   build/ort-venv/bin/python tests/gen/import/node/ort_compare.py \
#       build/tests/gen/import/node/data [tests/gen/import/node/node_tests.txt]
# Exit status 0 whatever the findings (1 only for a bad command line or a missing test).
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
SHOWN = 4                                       # differing elements printed per output


def read_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return t.name, numpy_helper.to_array(t)


def mismatches(expected, got):
    """Flat indices where got breaks node_cmp's rule: bits equal, an expected NaN takes any NaN."""
    if expected.dtype.kind in "OSU" or got.dtype.kind in "OSU":
        e = np.array([x.decode() if isinstance(x, bytes) else str(x) for x in expected.flat])
        g = np.array([x.decode() if isinstance(x, bytes) else str(x) for x in got.flat])
        return np.flatnonzero(e != g)
    e = np.ascontiguousarray(expected).reshape(-1)
    g = np.ascontiguousarray(got).reshape(-1)
    if e.dtype.kind == "c":
        e = e.view(e.real.dtype)
        g = g.view(g.real.dtype)
    bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[e.dtype.itemsize]
    bad = e.view(bits) != g.view(bits)
    if e.dtype.kind == "f":
        bad &= ~(np.isnan(e) & np.isnan(g))
    idx = np.flatnonzero(bad)
    if expected.dtype.kind == "c":
        idx = np.unique(idx // 2)
    return idx


def show(a, i):
    v = a.reshape(-1)[i]
    if a.dtype.kind in "fc" or a.dtype.kind in "iub":
        raw = np.ascontiguousarray(a).reshape(-1)[i:i + 1].view(np.uint8)[::-1].tobytes().hex()
        return "%r (0x%s)" % (v, raw)
    return repr(v)


def compare(case_dir):
    """(verdict, details) for one test directory."""
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.log_severity_level = 3
    try:
        sess = ort.InferenceSession(os.path.join(case_dir, "model.onnx"), opts,
                                    providers=["CPUExecutionProvider"])
    except Exception as e:                      # noqa: BLE001 - any refusal is a finding
        return "ort refuses the model", [str(e).splitlines()[0][:200]]
    details, worst = [], "agrees"
    sets = sorted(d for d in os.listdir(case_dir) if d.startswith("test_data_set_"))
    for ds in sets:
        d = os.path.join(case_dir, ds)
        feeds = {}
        for i, vi in enumerate(sess.get_inputs()):
            name, a = read_pb(os.path.join(d, "input_%d.pb" % i))
            feeds[vi.name] = a
        try:
            outs = sess.run(None, feeds)
        except Exception as e:                  # noqa: BLE001
            return "ort fails to run it", [str(e).splitlines()[0][:200]]
        for j, got in enumerate(outs):
            name, exp = read_pb(os.path.join(d, "output_%d.pb" % j))
            got = np.asarray(got)
            if got.shape != exp.shape or (got.dtype != exp.dtype and exp.dtype.kind != "O"):
                worst = "differs"
                details.append("%s: ort gives %s%s, expected %s%s" % (
                    name, got.dtype, got.shape, exp.dtype, exp.shape))
                continue
            idx = mismatches(exp, got)
            if len(idx):
                worst = "differs"
                details.append("%s: %d of %d elements differ" % (name, len(idx), exp.size))
                for i in idx[:SHOWN]:
                    details.append("  [%d] expected %s, ort %s" % (i, show(exp, i), show(got, i)))
    return worst, details


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: ort_compare.py DATA_DIR [LIST]")
    data = sys.argv[1]
    list_path = sys.argv[2] if len(sys.argv) == 3 else os.path.join(HERE, "node_tests.txt")
    with open(list_path) as f:
        names = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    print("onnxruntime %s, onnx %s, numpy %s: %d node tests of %s" % (
        ort.__version__, onnx.__version__, np.__version__, len(names), list_path))
    counts = {}
    for name in names:
        case = os.path.join(data, name)
        if not os.path.isdir(case):
            sys.exit("ort_compare.py: %s is missing (build the onnx_node_data target)" % case)
        verdict, details = compare(case)
        counts[verdict] = counts.get(verdict, 0) + 1
        if verdict != "agrees":
            print("%s: %s" % (name, verdict))
            for line in details:
                print("    " + line)
    print("summary: " + ", ".join("%d %s" % (n, v) for v, n in sorted(counts.items())))


if __name__ == "__main__":
    main()
