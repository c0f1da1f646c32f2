#!/usr/bin/env python3
"""graph_peers.py: the graph cases of bench_graph (graph.where, graph.c) against onnxruntime,
in one run: the peer comparison of the graph cases.

Runs wherec_bench_graph (HardSwish as one pass, the two-output kernel -> (y, t), the same
nodes as four separate kernels, the tuned loops), then onnxruntime right after on the same
inputs (the x that wherec_bench_graph wrote), one thread (intra_op_num_threads=1,
sequential, the graph optimizations users get by default), at 64K, 1M and 16M floats:

  ort Add,Clip,Mul,Div     the HardSwish nodes as a model exports them: Div(Mul(x, Clip(Add(x, 3), 0, 6)), 6)
  ort HardSwish            onnxruntime's own HardSwish operator (opset 14)
  ort two outputs          the four nodes with both y and the clipped t as graph outputs

Each onnxruntime session is run through an io_binding into output buffers allocated once,
as wherec writes into the caller's (sess.run would allocate them on every call). Prints
one table: ns per call and the ratio to wherec's one pass of the same case, and checks
onnxruntime's outputs against wherec's bit for bit (the four nodes are exact operators:
they must agree; onnxruntime's HardSwish computes x * max(0, min(1, x / 6 + 0.5)), another
order, so its differing elements are counted, not failed).

usage: graph_peers.py --bench build/bench/wherec_bench_graph [--quick] [--reps N] [--rounds N]
                      [--python build/ort-venv/bin/python] [--skip-status N]
--quick: wherec_bench_graph --quick sizes (n / 64 + 3), no timing: the check alone (a ctest).
--python: run under that python (one with onnxruntime, onnx, numpy) if this one lacks them.
Exits 77 (--skip-status) when onnxruntime, onnx or numpy cannot be imported (after running
wherec_bench_graph alone, unless --quick); 1 when the outputs disagree.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77


def reexec(a):
    """Runs this script under a.python if this one cannot import onnxruntime; when neither
    can, runs wherec_bench_graph alone (its own table) and exits a.skip_status."""
    try:
        import numpy, onnx, onnxruntime  # noqa: F401  (importable here?)
        return
    except ImportError as e:
        why = str(e)
    py = a.python
    if py and os.path.exists(py) and os.path.realpath(py) != os.path.realpath(sys.executable):
        os.execv(py, [py, "-B", os.path.abspath(__file__)] + sys.argv[1:])
    print("graph_peers.py: onnxruntime not run: %s (give --python with onnxruntime, onnx and "
          "numpy: scripts/ort-venv.sh makes one)" % why, flush=True)
    if not a.quick:
        subprocess.run([a.bench])
    sys.exit(a.skip_status)


def models(onnx):
    """{way: (model bytes, output names)}: the graphs onnxruntime runs."""
    from onnx import TensorProto, helper
    f = TensorProto.FLOAT

    def model(nodes, outs, opset, inits):
        g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", f, ["N"])],
                              [helper.make_tensor_value_info(o, f, ["N"]) for o in outs],
                              [helper.make_tensor(n, f, [], [v]) for n, v in inits])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = 8
        onnx.checker.check_model(m)
        return m.SerializeToString(), outs

    nodes = [helper.make_node("Add", ["x", "three"], ["s"]),
             helper.make_node("Clip", ["s", "zero", "six"], ["t"]),
             helper.make_node("Mul", ["x", "t"], ["m"]),
             helper.make_node("Div", ["m", "six"], ["y"])]
    consts = [("three", 3.0), ("zero", 0.0), ("six", 6.0)]
    return {
        "ort Add,Clip,Mul,Div": model(nodes, ["y"], 14, consts),
        "ort HardSwish": model([helper.make_node("HardSwish", ["x"], ["y"])], ["y"], 14, []),
        "ort two outputs": model(nodes, ["y", "t"], 14, consts),
    }


def session(ort, np, blob, outs, x):
    """A one-thread session of blob bound to x and to output buffers: (call, outputs)."""
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.log_severity_level = 3
    s = ort.InferenceSession(blob, so, providers=["CPUExecutionProvider"])
    io = s.io_binding()
    io.bind_cpu_input("x", x)
    bufs = {}
    for o in outs:
        bufs[o] = np.empty_like(x)
        io.bind_output(o, "cpu", element_type=np.float32, shape=x.shape,
                       buffer_ptr=bufs[o].ctypes.data)
    return (lambda: s.run_with_iobinding(io)), bufs


def differ(np, want, got):
    return int(np.count_nonzero(want.view(np.uint32) != got.view(np.uint32)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", required=True, help="the wherec_bench_graph program")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of wherec_bench_graph then onnxruntime; each row's best")
    ap.add_argument("--python")
    ap.add_argument("--skip-status", type=int, default=SKIP,
                    help="exit status when onnxruntime cannot be imported (a target: 0)")
    a = ap.parse_args()
    reexec(a)
    import numpy as np
    import onnx
    import onnxruntime as ort
    sys.path.insert(0, HERE)
    from numpy_bench import calibrate, median, sample_ns

    c = {}

    def run_c(work, dump):
        """wherec_bench_graph once: its records folded into c (each row's best round)."""
        rec = os.path.join(work, "c.tsv")
        cmd = [a.bench, "-o", rec] + (["--dump", work] if dump else []) + \
            (["--quick"] if a.quick else [])
        r = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
        if r.returncode != 0:
            print("graph_peers.py: %s failed (%d)" % (" ".join(cmd), r.returncode))
            sys.exit(1)
        for line in open(rec):
            _, n, way, ns = line.rstrip("\n").split("\t")
            c[(int(n), way)] = min(float(ns), c.get((int(n), way), float("inf")))

    with tempfile.TemporaryDirectory(prefix="bench_graph_") as work:
        run_c(work, True)
        sizes = sorted(int(f[2:-4]) for f in os.listdir(work) if f.startswith("x-"))
        ms = models(onnx)
        bad, keep, per_n = 0, [], []
        for n in sizes:
            x = np.fromfile(os.path.join(work, "x-%d.f32" % n), np.float32)
            y = np.fromfile(os.path.join(work, "y-%d.f32" % n), np.float32)
            t = np.fromfile(os.path.join(work, "t-%d.f32" % n), np.float32)
            calls = []
            for way, (blob, outs) in ms.items():
                call, bufs = session(ort, np, blob, outs, x)
                call()
                dy = differ(np, y, bufs["y"])
                dt = differ(np, t, bufs["t"]) if "t" in bufs else 0
                exact = way != "ort HardSwish"
                if exact and (dy or dt):
                    bad += 1
                    print("graph_peers.py: n=%d %s: %d of y, %d of t differ from wherec's"
                          % (n, way, dy, dt))
                calls.append((way, call, dy + dt, exact))
                keep.append((bufs, x))  # onnxruntime writes into bufs on every call
            for f in "xyt":
                os.remove(os.path.join(work, "%s-%d.f32" % (f, n)))
            del y, t
            if a.quick:
                for way, _, d, exact in calls:
                    print("n=%-8d %-22s %s" % (n, way, "same bytes as wherec" if not d else
                                               "%d elements differ%s" % (d, "" if exact else
                                                                        " (another order)")))
                continue
            per_n.append((n, calls, [calibrate(call) for _, call, _, _ in calls],
                          [float("inf")] * len(calls)))
        if a.quick:
            return 1 if bad else 0
        for r in range(a.rounds):  # each round: wherec_bench_graph, then onnxruntime
            if r:
                run_c(work, False)
            for n, calls, inner, best in per_n:
                samples = [[] for _ in calls]
                for _ in range(a.reps):  # samples go round the ways
                    for (_, call, _, _), k, s in zip(calls, inner, samples):
                        s.append(sample_ns(call, k))
                best[:] = [min(b, median(s)) for b, s in zip(best, samples)]
        rows = [(n, way, ns, d) for n, calls, _, best in per_n
                for (way, _, d, _), ns in zip(calls, best)]

    print("\nbench_graph + onnxruntime %s, one thread (float32; ns per call: the best of %d "
          "rounds of each way's median, of 31 calls for wherec_bench_graph's rows, of %d "
          "samples for onnxruntime's):" % (ort.__version__, a.rounds, a.reps))
    print("%-9s %-32s %12s %11s  %s" % ("n", "way", "ns", "/ one pass", "output vs wherec's"))
    names = [("hard_swish", "wherec HardSwish, one pass"), ("separate", "wherec 4 separate kernels"),
             ("tuned", "tuned loop"), ("hs_two", "wherec -> (y, t), one pass"),
             ("tuned_two", "tuned loop, 2 outputs")]
    for n in sizes:
        base = {"hs": c[(n, "hard_swish")], "two": c[(n, "hs_two")]}
        for key, label in names:
            ref = base["two"] if "two" in key else base["hs"]
            print("%-9d %-32s %12.0f %10.2fx  %s" % (n, label, c[(n, key)], c[(n, key)] / ref, ""))
        for m, way, ns, d in rows:
            if m != n:
                continue
            ref = base["two"] if "two" in way else base["hs"]
            print("%-9d %-32s %12.0f %10.2fx  %s" % (n, way + " 1t", ns, ns / ref,
                                                     "same bytes" if not d else "%d differ" % d))
    print("/ one pass: the way's time over wherec's one pass of the same case (HardSwish, "
          "or -> (y, t) for the two-output rows). wherec_bench_graph (its kernels and loops "
          "built -O3 -march=native) runs just before onnxruntime in each round.")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
