#!/usr/bin/env python3
"""rows.py: wherec's row kernels (rows.where) against onnxruntime's own nodes, in one run.

Cases, at BERT-base and GPT-2 shapes (batch 1, 12 heads, hidden 768, sequence 128 and 512):

  softmax_bcast   y = softmax(where(mask, s, -inf)), mask bool [1,1,S,S] (causal) over s [1,12,S,S]
  softmax_full    the same with a mask of its own per head, bool [1,12,S,S]
  layernorm       LayerNormalization(axis=-1, epsilon=1e-5) of x [1,S,768]
  rmsnorm         x / sqrt(mean(x * x) + 1e-5) * g over x [1,S,768]

against onnxruntime (ORT_ENABLE_ALL, CPU): Where(mask, s, -inf) -> Softmax(axis=-1) (opset 17);
LayerNormalization (opset 17); RMSNormalization (opset 23) and the chain an exporter writes,
Pow, ReduceMean, Add, Sqrt, Div, Mul (opset 18). Each at one and two threads
(intra_op_num_threads; wherec through wc_set_parallel with a 2-thread pool), the kernels
built four ways (gcc and clang, -O2 and -O3 -march=native) beside plain C loops of the same
math (rows_set.c), and numpy at one thread.

Runs wherec_bench_rows (the C side: it checks that every build and both thread counts give
the same bytes, then times), then onnxruntime and numpy, for --rounds rounds; each column
keeps its best round's median. Before timing, every output is checked against
onnxruntime's within a tolerance, and each way's largest error against float64 is printed.
Writes the table on the terminal, --csv (rows.csv) and, with --readme, the table into
README.md between its rows markers.

usage: rows.py --bench build/bench/wherec_bench_rows [--quick] [--seq S,S] [--rounds N] [--reps N]
               [--csv FILE] [--readme FILE] [--python PY] [--skip-status N]
--quick: the checks alone, no timing (a ctest), at sequence lengths 5 and 37 unless --seq
(rows shorter than wherec's 16 lanes, and 2 x 16 + 5). --python: rerun under that
python if this one lacks onnxruntime, onnx or numpy. Exit 77 (--skip-status) without them;
1 when an output is out of tolerance or the C side fails.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77
HEADS, HIDDEN, EPS = 12, 768, 1e-5
BUILDS = ["gcc-O3-native", "clang-O3-native", "gcc-O2", "clang-O2"]
TARGET = {"softmax": 1.5, "layernorm": 1.0, "rmsnorm": 1.0}  # ORT / wherec, the issue's
# rows.where's profile kernels: parts of softmax_full and layernorm, timed alone
PROFILE = {"softmax": ["p_sm_max", "p_sm_exp", "p_exp"],
           "layernorm": ["p_ln_mean", "p_ln_var", "p_ln_affine"]}
MARK_BEGIN, MARK_END = "<!-- rows.py table begin -->", "<!-- rows.py table end -->"


def reexec(a):
    try:
        import numpy, onnx, onnxruntime  # noqa: F401
        return
    except ImportError as e:
        why = str(e)
    py = a.python
    if py and os.path.exists(py) and os.path.realpath(py) != os.path.realpath(sys.executable):
        os.execv(py, [py, "-B", os.path.abspath(__file__)] + sys.argv[1:])
    print("rows.py: not run: %s (give --python with onnxruntime, onnx, numpy)" % why)
    sys.exit(a.skip_status)


# ---- the cases: inputs, onnxruntime's graphs, numpy, float64 ----

def softmax_np(np, mask, s):
    z = np.where(mask, s, np.float32(-np.inf))
    z -= z.max(axis=-1, keepdims=True)
    np.exp(z, out=z)
    z /= z.sum(axis=-1, keepdims=True)
    return z


def layernorm_np(np, x, g, b):
    d = x - x.mean(axis=-1, keepdims=True)
    return d / np.sqrt((d * d).mean(axis=-1, keepdims=True) + x.dtype.type(EPS)) * g + b


def rmsnorm_np(np, x, g):
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + x.dtype.type(EPS)) * g


def make_cases(np, seqs):
    """[(name, kernel, family, extents, {param: array}, numpy fn)]; params in rows.where's order."""
    rng = np.random.default_rng(7)
    out = []
    for S in seqs:
        s = (rng.standard_normal((1, HEADS, S, S)) * 3).astype(np.float32)
        causal = np.tril(np.ones((S, S), bool))[None, None]
        per_head = rng.random((1, HEADS, S, S)) < 0.8
        per_head |= np.eye(S, dtype=bool)[None, None]  # no row wholly masked
        sm = lambda mask, s: softmax_np(np, mask, s)  # noqa: E731
        out.append(("softmax_bcast-%d" % S, "softmax_bcast", "softmax",
                    dict(B=1, S=S, H=HEADS), {"mask": causal, "s": s}, sm))
        out.append(("softmax_full-%d" % S, "softmax_full", "softmax",
                    dict(B=1, H=HEADS, S=S), {"mask": per_head, "s": s}, sm))
        for k in PROFILE["softmax"]:
            out.append(("%s-%d" % (k, S), k, "profile", dict(B=1, H=HEADS, S=S),
                        {"mask": per_head, "s": s} if k != "p_exp" else {"s": s}, None))
    for S in seqs:
        x = (rng.standard_normal((1, S, HIDDEN)) * 2 + 0.5).astype(np.float32)
        g = (1 + 0.1 * rng.standard_normal(HIDDEN)).astype(np.float32)
        b = (0.1 * rng.standard_normal(HIDDEN)).astype(np.float32)
        out.append(("layernorm-%d" % S, "layernorm", "layernorm", dict(N=1, S=S),
                    {"x": x, "g": g, "b": b}, lambda x, g, b: layernorm_np(np, x, g, b)))
        out.append(("rmsnorm-%d" % S, "rmsnorm", "rmsnorm", dict(N=1, S=S),
                    {"x": x, "g": g}, lambda x, g: rmsnorm_np(np, x, g)))
        for k in PROFILE["layernorm"]:
            out.append(("%s-%d" % (k, S), k, "profile", dict(N=1, S=S),
                        {"x": x, "g": g, "b": b} if k == "p_ln_affine" else {"x": x}, None))
    return out


def models(onnx, np, family, params):
    """[(way, model bytes, names of the graph's inputs)]: what onnxruntime runs for a family.
    Scale and bias are initializers, as in an exported model."""
    from onnx import TensorProto, helper, numpy_helper
    f, shp = TensorProto.FLOAT, lambda k: list(params[k].shape)

    def model(nodes, inputs, inits, opset):
        types = {"mask": TensorProto.BOOL}
        g = helper.make_graph(
            nodes, family, [helper.make_tensor_value_info(k, types.get(k, f), shp(k)) for k in inputs],
            [helper.make_tensor_value_info("y", f, shp(inputs[-1]))],
            [numpy_helper.from_array(np.asarray(v), k) for k, v in inits])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = 10 if opset < 23 else 11
        onnx.checker.check_model(m)
        return m.SerializeToString()

    if family == "softmax":
        return [("Where+Softmax", model([helper.make_node("Where", ["mask", "s", "ninf"], ["z"]),
                                         helper.make_node("Softmax", ["z"], ["y"], axis=-1)],
                                        ["mask", "s"], [("ninf", np.float32(-np.inf))], 17),
                 ["mask", "s"])]
    if family == "layernorm":
        return [("LayerNormalization", model(
            [helper.make_node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1, epsilon=EPS)],
            ["x"], [("g", params["g"]), ("b", params["b"])], 17), ["x"])]
    chain = [helper.make_node("Pow", ["x", "two"], ["x2"]),
             helper.make_node("ReduceMean", ["x2", "axes"], ["ms"], keepdims=1),
             helper.make_node("Add", ["ms", "eps"], ["mse"]),
             helper.make_node("Sqrt", ["mse"], ["r"]),
             helper.make_node("Div", ["x", "r"], ["n"]),
             helper.make_node("Mul", ["n", "g"], ["y"])]
    return [("RMSNormalization", model(
                [helper.make_node("RMSNormalization", ["x", "g"], ["y"], axis=-1, epsilon=EPS)],
                ["x"], [("g", params["g"])], 23), ["x"]),
            ("Pow,ReduceMean,Add,Sqrt,Div,Mul", model(
                chain, ["x"], [("g", params["g"]), ("two", np.float32(2)),
                               ("axes", np.array([-1], np.int64)), ("eps", np.float32(EPS))], 18),
             ["x"])]


def session(ort, np, blob, feeds, shape, threads, optimized=None):
    """A session of blob at `threads` threads, bound to feeds and an output buffer:
    (call, output, op types onnxruntime runs after its graph optimizations)."""
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3
    if optimized:
        so.optimized_model_filepath = optimized
    s = ort.InferenceSession(blob, so, providers=["CPUExecutionProvider"])
    io = s.io_binding()
    for k, v in feeds.items():
        io.bind_cpu_input(k, v)
    y = np.empty(shape, np.float32)
    io.bind_output("y", "cpu", element_type=np.float32, shape=y.shape, buffer_ptr=y.ctypes.data)
    return (lambda: s.run_with_iobinding(io)), y


def optimized_ops(onnx, path):
    return ",".join(n.op_type for n in onnx.load(path).graph.node)


def call_overhead(ort, np, onnx, reps):
    """Median ns of one run_with_iobinding of a one-float Identity: the per-call cost of
    calling onnxruntime from Python, which the net ratio takes off."""
    from onnx import TensorProto, helper
    from numpy_bench import median_ns
    g = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "id",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 10
    call, _ = session(ort, np, m.SerializeToString(), {"x": np.zeros(1, np.float32)}, (1,), 1)
    return median_ns(call, reps)


# ---- checks ----

def errors(np, got, want):
    """(max abs difference, max relative difference where |want| > 1e-30)."""
    d = np.abs(got.astype(np.float64) - want.astype(np.float64))
    big = np.abs(want) > 1e-30
    rel = (d[big] / np.abs(want[big].astype(np.float64))).max() if big.any() else 0.0
    return float(d.max()), float(rel)


def close(np, got, want):
    """Within tolerance: what separates another rounding order (an approximate exp, another
    fold) from a wrong kernel (errors of 1e-2 and more)."""
    return bool(np.all(np.abs(got.astype(np.float64) - want) <= 1e-6 + 1e-4 * np.abs(want)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", required=True, help="the wherec_bench_rows program")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seq", help="sequence lengths, comma-separated (default 128,512; "
                    "--quick: 5,37)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--csv")
    ap.add_argument("--readme")
    ap.add_argument("--python")
    ap.add_argument("--skip-status", type=int, default=SKIP)
    a = ap.parse_args()
    reexec(a)
    import numpy as np
    import onnx
    import onnxruntime as ort
    sys.path.insert(0, HERE)
    from numpy_bench import calibrate, median, sample_ns

    seqs = [int(v) for v in (a.seq or ("5,37" if a.quick else "128,512")).split(",")]
    cases = make_cases(np, seqs)
    bad = 0
    with tempfile.TemporaryDirectory(prefix="bench_rows_") as work:
        for name, _, _, _, params, _ in cases:
            for k, v in params.items():
                v.tofile(os.path.join(work, "%s.%s.bin" % (name, k)))
        args = ["%s:%s:%s" % (n, k, ",".join("%s=%d" % e for e in ext.items()))
                for n, k, _, ext, _, _ in cases]
        rec = os.path.join(work, "c.tsv")
        c = {}

        def run_c(quick):
            r = subprocess.run([a.bench, "--data", work, "-o", rec] + (["--quick"] if quick else [])
                               + args)
            if r.returncode != 0:
                print("rows.py: %s failed (%d)" % (a.bench, r.returncode))
                sys.exit(1)
            for line in open(rec):
                n, t, build, way, ns = line.rstrip("\n").split("\t")
                key = (n, int(t), "%s %s" % (way, build))
                c[key] = min(float(ns), c.get(key, float("inf")))

        run_c(True)  # the C side's checks; it writes the outputs
        print("rows.py: onnxruntime %s, numpy %s; every output within |d| <= 1e-6 + 1e-4 |ort| "
              "of onnxruntime's (the first graph's); largest differences:\n  %-17s %-36s %-15s   %s"
              % (ort.__version__, np.__version__, "case", "way", "vs ORT abs rel", "vs float64 abs rel"))
        timed, errs, ran = [], {}, {}
        for name, kernel, family, ext, params, np_fn in cases:
            if family == "profile":
                continue
            f64 = np_fn(*[v.astype(np.float64) if v.dtype != bool else v for v in params.values()])
            shape = f64.shape
            load = lambda f: np.fromfile(os.path.join(work, "%s.%s.bin" % (name, f)),  # noqa: E731
                                         np.float32).reshape(shape)
            outs = {"wherec": load("wherec")}
            outs.update({"plain " + b: load("plain-" + b) for b in BUILDS
                         if os.path.exists(os.path.join(work, "%s.plain-%s.bin" % (name, b)))})
            outs["numpy"] = np_fn(*params.values())
            sessions = []
            for way, blob, inputs in models(onnx, np, family, params):
                feeds = {k: params[k] for k in inputs}
                opt = os.path.join(work, "opt.onnx")
                call, y = session(ort, np, blob, feeds, shape, 1, opt)
                call()
                ran[(family, way)] = optimized_ops(onnx, opt)
                outs["ort " + way] = y.copy()
                sessions.append((way, blob, feeds))
            ref = outs["ort " + sessions[0][0]].astype(np.float64)
            for way, got in outs.items():
                ok = close(np, got, ref)
                bad += not ok
                e, d = errors(np, got, f64), errors(np, got, ref)
                errs[(name, way)] = e + d
                print("  %-17s %-36s %.1e %.1e   %.1e %.1e%s" % (
                    name, way, d[0], d[1], e[0], e[1], "" if ok else "  OUT OF TOLERANCE"))
            timed.append((name, family, ext, params, np_fn, sessions, shape))
        print("onnxruntime ran (after ORT_ENABLE_ALL):")
        for (family, way), ops in ran.items():
            print("  %-10s %-32s -> %s" % (family, way, ops))
        if bad:
            print("rows.py: %d outputs out of tolerance: not timed" % bad)
            return 1
        if a.quick:
            return 0

        a.started = machine()
        overhead = call_overhead(ort, np, onnx, a.reps)
        peers = {}
        for r in range(a.rounds):  # each round: wherec_bench_rows, then onnxruntime and numpy
            print("rows.py: round %d of %d" % (r + 1, a.rounds), flush=True)
            run_c(False)
            for name, family, ext, params, np_fn, sessions, shape in timed:
                for threads in (1, 2):
                    # (call, y): onnxruntime writes into y, kept alive with the call
                    ways = [("ort " + way, session(ort, np, blob, feeds, shape, threads))
                            for way, blob, feeds in sessions]
                    if threads == 1:
                        ways.append(("numpy", (lambda: np_fn(*params.values()), None)))
                    inner = [calibrate(call) for _, (call, _) in ways]
                    samples = [[] for _ in ways]
                    for _ in range(a.reps):  # samples go round the ways
                        for (_, (call, _)), k, s in zip(ways, inner, samples):
                            s.append(sample_ns(call, k))
                    for (way, _), s in zip(ways, samples):
                        key = (name, threads, way)
                        peers[key] = min(median(s), peers.get(key, float("inf")))
    c.update(peers)
    a.ended = machine()
    rows = report(cases, c, overhead, errs, ort.__version__, a)
    if a.csv:
        with open(os.path.join(HERE, a.csv) if not os.path.isabs(a.csv) else a.csv, "w",
                  newline="") as f:
            w = csv.writer(f)
            w.writerow(["case", "shape", "threads", "way", "us_per_call", "ns_per_element",
                        "vs_wherec", "max_abs_err_vs_f64", "max_abs_diff_vs_ort"])
            w.writerows(rows)
    return 0


def elements(params):
    n = 1
    for d in params["s" if "s" in params else "x"].shape:
        n *= d
    return n


PARTS = {"softmax_full": "the whole kernel: pass 1, exp and sum, exp and divide",
         "p_sm_max": "row_max of where(mask, s, -inf): pass 1, a store",
         "p_sm_exp": "exp(z - row_max(z)): pass 1, exp per element",
         "p_exp": "exp(s) element-wise (raw exp, NaN redo)",
         "layernorm": "the whole kernel: mean, variance, output",
         "p_ln_mean": "row_mean(x): pass 1, a store",
         "p_ln_var": "row_mean(d * d): passes 1 and 2, a store",
         "p_ln_affine": "x * g + b element-wise (raw ops)"}


def machine():
    """When and on what, for the table's note: UTC time, CPU, load average."""
    import time
    cpu = "?"
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                   if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return "%s, %s, %d cores, load %.1f" % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                           cpu, os.cpu_count(), os.getloadavg()[0])


def report(cases, c, overhead, errs, ort_version, a):
    """Prints the table and the profile (and writes both into the README); returns the
    CSV rows."""
    us = lambda v: "%9.1f" % (v / 1e3) if v else "%9s" % "-"  # noqa: E731
    blank = "%9s" % ""
    lines = ["%-17s %3s %9s %9s %9s %9s %9s %9s  %-31s %9s %9s %7s %7s %8s  %s" % (
        "case", "thr", "gcc-O3n", "clang-O3n", "gcc-O2", "clang-O2", "plain", "numpy",
        "onnxruntime node(s)", "ORT", "ORT net", "ORT/wc", "net/wc", "net/best", "target")]
    rows = []
    for name, kernel, family, ext, params, _ in cases:
        if family == "profile":
            continue
        shape, n_elem = "x".join(str(d) for d in params["s" if "s" in params else "x"].shape), \
            elements(params)
        for threads in (1, 2):
            gen = {b: c.get((name, threads, "wherec " + b)) for b in BUILDS}
            plain = {b: c.get((name, threads, "plain " + b)) for b in BUILDS}
            o3 = max(v for b, v in gen.items() if "O3" in b and v)  # the slower -O3 -march=native
            best = min(v for v in gen.values() if v)
            best_plain = min(v for v in plain.values() if v)
            npy = c.get((name, threads, "numpy"))
            ways = sorted(w for (n, t, w) in c if n == name and t == threads and w.startswith("ort "))
            for i, way in enumerate(ways):
                ort_ns = c[(name, threads, way)]
                net, goal = ort_ns - overhead, TARGET[family]
                lines.append("%-17s %3d %s %s %s  %-31s %9.1f %9.1f %6.2fx %6.2fx %7.2fx  %.1fx %s" % (
                    name if i == 0 else "", threads,
                    " ".join(us(gen[b]) if i == 0 else blank for b in BUILDS),
                    us(best_plain) if i == 0 else blank, us(npy) if i == 0 else blank,
                    way[4:], ort_ns / 1e3, net / 1e3, ort_ns / o3, net / o3, net / best,
                    goal, "met" if net / o3 >= goal else "NOT met"))
            for b in BUILDS:
                for way, v in (("wherec", gen[b]), ("plain", plain[b])):
                    if v:
                        e = errs[(name, "wherec" if way == "wherec" else "plain " + b)]
                        rows.append([name, shape, threads, "%s %s" % (way, b), "%.2f" % (v / 1e3),
                                     "%.3f" % (v / n_elem), "%.3f" % (v / gen[b]),
                                     "%.2e" % e[0], "%.2e" % e[2]])
            for way in ways + (["numpy"] if npy else []):
                v = c[(name, threads, way)]
                rows.append([name, shape, threads, way, "%.2f" % (v / 1e3), "%.3f" % (v / n_elem),
                             "%.3f" % (v / o3), "%.2e" % errs[(name, way)][0],
                             "%.2e" % errs[(name, way)][2]])
    lines.append("")
    lines.append("µs per call, the best of %d rounds of each column's median (%d samples).\n"
                 "gcc-O3n .. clang-O2: wherec's kernel under each build (O3n: -O3 -march=native); "
                 "plain: the fastest build of the plain C loop; numpy: one thread;\n"
                 "ORT: onnxruntime %s, run_with_iobinding from Python; ORT net: less %.1f µs, "
                 "that call's own cost (a one-float Identity);\n"
                 "ORT/wc, net/wc: over the slower O3n build of wherec, net/best: over its fastest "
                 "build; target: the issue's, on net/wc.\nRun: %s; ended %s." % (a.rounds, a.reps, ort_version, overhead / 1e3,
                                                      a.started, a.ended.split(", ")[0] + ", " +
                                                      a.ended.split(", ")[-1]))
    # the profile: the parts of softmax_full and layernorm, one thread
    lines.append("")
    lines.append("Where the time goes, one thread, ns per element (profile kernels of rows.where):")
    lines.append("%-16s %-52s %9s %9s %9s %9s" % ("case", "part", *[b.replace("-native", "n")
                                                                    for b in BUILDS]))
    for name, kernel, family, ext, params, _ in cases:
        if kernel not in ("softmax_full", "layernorm"):
            continue
        seq = name.rsplit("-", 1)[1]
        n_elem = elements(params)
        for part in [kernel] + PROFILE["softmax" if kernel == "softmax_full" else "layernorm"]:
            key = part + "-" + seq
            vals = [c.get((key, 1, "wherec " + b)) for b in BUILDS]
            lines.append("%-16s %-52s %s" % (key, PARTS[part], " ".join(
                "%9.2f" % (v / n_elem) if v else "%9s" % "-" for v in vals)))
            for b, v in zip(BUILDS, vals):
                if v and part != kernel:
                    rows.append([key, "", 1, "wherec " + b, "%.2f" % (v / 1e3), "%.3f" % (v / n_elem),
                                 "", "", ""])
        for way in sorted(w for (n, t, w) in c if n == name and t == 1 and w.startswith("ort ")):
            lines.append("%-16s %-52s %9.2f" % (name, "onnxruntime " + way[4:] + " (net)",
                                                 (c[(name, 1, way)] - overhead) / n_elem))
    text = "\n".join(lines)
    print("\n" + text)
    if a.readme:
        path = a.readme if os.path.isabs(a.readme) else os.path.join(HERE, a.readme)
        doc = open(path).read()
        if MARK_BEGIN in doc and MARK_END in doc:
            head, rest = doc.split(MARK_BEGIN, 1)
            doc = head + MARK_BEGIN + "\n```\n" + text + "\n```\n" + MARK_END + rest.split(MARK_END, 1)[1]
            open(path, "w").write(doc)
    return rows


if __name__ == "__main__":
    sys.exit(main())
