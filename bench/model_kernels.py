#!/usr/bin/env python3
"""model_kernels.py: the fused kernels of a real model against onnxruntime running the same
nodes unfused, in one run.

Downloads the rapidocr-onnxruntime wheel (pip download --no-deps, into --dir; no model is
committed), reads PP-OCRv4's recognizer (or detector) out of it, and:

1. `wherec import`s it (spec and manifest), `wherec gen`s the spec, and compiles the
   generated C with the system compiler twice, `cc -O2` and `cc -O3 -march=native`, each
   with a small driver (a timing loop around each kernel's function) into a shared object;
2. runs the whole model once in onnxruntime (graph optimizations off, so it runs the nodes
   the model has) on an input of the model's real shape, every tensor a kernel reads or
   writes exposed as an output: each kernel's real operands;
3. per kernel (the manifest's nodes, parameters and output), builds a model of the
   kernel's nodes alone (its inputs the kernel's non-constant parameters; initializers and
   the constants it reads as initializers), and checks the kernel's output, bit for bit,
   against that model's in onnxruntime (the kernels of exact operators must agree;
   those with an operator onnxruntime approximates or reorders count what differs);
4. times, samples going round the four ways: wherec -O2, wherec -O3 -march=native (the
   kernel's function called straight, in a C loop), onnxruntime on the kernel's nodes
   with optimizations off (the same nodes unfused) and with all of them (what users get:
   it may fuse some), one thread, sequential, through an io_binding into preallocated
   outputs. Prints per kernel: nodes, elements, each way's ns per call, the ratios; and a
   total.

usage: model_kernels.py --wherec build/gen/wherec [--model rec|det] [--shape 1,3,48,320]
                        [--dir build/models] [--quick] [--reps N] [--rounds N] [--cc cc]
                        [--python build/ort-venv/bin/python] [--skip-status N] [--work DIR]
--quick: the first kernels only, checked, not timed (a ctest, seconds).
Exits 77 (--skip-status) when the wheel cannot be downloaded or onnxruntime/onnx/numpy do not import,
1 when a kernel of exact operators disagrees with onnxruntime, 4 on a toolchain failure.
"""
import argparse
import ctypes
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SKIP = 77
WHEEL = ("rapidocr-onnxruntime==1.4.4", "rapidocr_onnxruntime-")
MODELS = {"rec": ("rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx", "1,3,48,320"),
          "det": ("rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx", "1,3,640,640")}
# the operators onnxruntime does not compute as ONNX defines them (gen/import/verify.py)
APPROX = set("Exp Log Tanh Sigmoid Erf Softplus Mish Gelu Elu Selu Celu Pow BatchNormalization "
             "HardSigmoid HardSwish Sum Mean".split())
DTYPES = {"float": "float32", "double": "float64", "float16": "float16", "bool": "bool",
          "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8",
          "uint16": "uint16", "uint32": "uint32", "uint64": "uint64"}
BUILDS = [("wherec -O2", "-O2"), ("wherec -O3 -march=native", "-O3 -march=native")]


def reexec(python, status):
    try:
        import numpy, onnx, onnxruntime  # noqa: F401
        return
    except ImportError as e:
        why = str(e)
    if python and os.path.exists(python) and os.path.realpath(python) != os.path.realpath(sys.executable):
        os.execv(python, [python, "-B", os.path.abspath(__file__)] + sys.argv[1:])
    print("model_kernels.py: skipped: %s (give --python with onnxruntime, onnx and numpy: "
          "scripts/ort-venv.sh makes one)" % why)
    sys.exit(status)


def fetch(dest, member, status):
    """The model file, read out of the wheel (downloaded once into dest)."""
    os.makedirs(dest, exist_ok=True)
    req, prefix = WHEEL
    have = [f for f in os.listdir(dest) if f.startswith(prefix) and f.endswith(".whl")]
    if not have:
        r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                            "--disable-pip-version-check", "--only-binary=:all:", req, "-d", dest],
                           capture_output=True, text=True)
        have = [f for f in os.listdir(dest) if f.startswith(prefix) and f.endswith(".whl")]
        if r.returncode != 0 or not have:
            print("model_kernels.py: skipped: cannot download %s: %s" % (req, r.stderr.strip()[-300:]))
            sys.exit(status)
    out = os.path.join(dest, member)
    if not os.path.exists(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with zipfile.ZipFile(os.path.join(dest, sorted(have)[-1])) as z, open(out + ".part", "wb") as f:
            f.write(z.read(member))
        os.replace(out + ".part", out)
    return out


def run(cmd, what):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print("model_kernels.py: %s failed (%d): %s\n%s" % (what, r.returncode, " ".join(cmd),
                                                             r.stderr.strip()[-2000:]))
        sys.exit(4 if r.returncode in (4, 127) or what.startswith("cc") else 1)
    return r


def driver(header, prefix, kernels):
    """C: double wk_time(int k, const size_t *e, void *const *p, long reps): ns of reps calls
    of kernel k, its extents e, its parameters then outputs p."""
    out = ["#define _POSIX_C_SOURCE 200809L", "#include <stddef.h>", "#include <time.h>",
           '#include "%s"' % header, "",
           "static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);",
           "  return 1e9 * (double)t.tv_sec + (double)t.tv_nsec; }", "",
           "double wk_time(int k, const size_t *e, void *const *p, long reps);",
           "double wk_time(int k, const size_t *e, void *const *p, long reps) {",
           "  double t0 = now();", "  switch (k) {"]
    for i, k in enumerate(kernels):
        args = ["e[%d]" % j for j in range(len(k["extents"]))]
        args += ["p[%d]" % j for j in range(len(k["params"]) + len(k["outputs"]))]
        out.append("  case %d: for (long r = 0; r < reps; r++) %s_%s(%s); break;"
                   % (i, prefix, k["c_name"], ", ".join(args)))
    out += ["  default: return -1.0;", "  }", "  return now() - t0;", "}", ""]
    return "\n".join(out)


def sub_model(onnx, model, k, values, inits):
    """The kernel's nodes alone as a model: inputs its non-constant parameters, the rest it
    reads as initializers; outputs the kernel's outputs."""
    from onnx import helper, numpy_helper
    g = model.graph
    idx = sorted(n["index"] for n in k["nodes"])
    nodes = [g.node[i] for i in idx]
    made = {o for n in nodes for o in n.output}
    params = {p["tensor"]: p for p in k["params"]}
    ins, init, seen = [], [], set()
    for n in nodes:
        for t in n.input:
            if not t or t in made or t in seen:
                continue
            seen.add(t)
            if t in params and not params[t]["constant"]:
                v = values[t]
                ins.append(helper.make_tensor_value_info(
                    t, helper.np_dtype_to_tensor_dtype(v.dtype), list(v.shape)))
            elif t in inits:
                init.append(inits[t])
            else:
                init.append(numpy_helper.from_array(values[t], t))
    outs = [helper.make_tensor_value_info(o["tensor"], helper.np_dtype_to_tensor_dtype(
        values[o["tensor"]].dtype), list(values[o["tensor"]].shape)) for o in k["outputs"]]
    sg = helper.make_graph(nodes, k["name"], ins, outs, init)
    m = helper.make_model(sg, opset_imports=list(model.opset_import))
    m.ir_version = model.ir_version
    return m


def session(ort, blob, level):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = level
    so.log_severity_level = 3
    return ort.InferenceSession(blob, so, providers=["CPUExecutionProvider"])


def bound(np, sess, feeds, outs):
    """A call of sess on feeds into preallocated outputs (like), and those outputs."""
    io = sess.io_binding()
    for name, v in feeds.items():
        io.bind_cpu_input(name, v)
    bufs = []
    for name, like in outs:
        b = np.empty_like(like)
        io.bind_output(name, "cpu", element_type=b.dtype, shape=b.shape, buffer_ptr=b.ctypes.data)
        bufs.append(b)
    return (lambda: sess.run_with_iobinding(io)), bufs


def fmt_ns(ns):
    return "%.0f" % ns if ns < 1e5 else "%.0fk" % (ns / 1e3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wherec", default=os.path.join(ROOT, "build/gen/wherec"))
    ap.add_argument("--model", choices=sorted(MODELS), default="rec")
    ap.add_argument("--shape", help="the model input's shape (default: rec 1,3,48,320 as "
                    "rapidocr feeds it; det 1,3,640,640)")
    ap.add_argument("--dir", default=os.path.join(ROOT, "build/models"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--kernels", type=int, default=6, help="kernels checked with --quick")
    ap.add_argument("--reps", type=int, default=5, help="samples per kernel and way in a round")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds over all kernels; each way's best round's median is shown")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--python")
    ap.add_argument("--work", help="keep the spec, the C and the builds here")
    ap.add_argument("--skip-status", type=int, default=SKIP,
                    help="exit status when skipped (offline, no onnxruntime; a target: 0)")
    a = ap.parse_args()
    reexec(a.python, a.skip_status)
    sys.path.insert(0, HERE)  # numpy_bench
    member, shape = MODELS[a.model]
    shape = [int(d) for d in (a.shape or shape).split(",")]
    path = fetch(a.dir, member, a.skip_status)
    if not a.work:
        with tempfile.TemporaryDirectory(prefix="bench_model_") as work:
            return measure(a, path, shape, work)
    os.makedirs(a.work, exist_ok=True)
    return measure(a, path, shape, a.work)


def measure(a, path, shape, work):
    """Steps 1 to 4 of the docstring, the spec and the builds in work."""
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import numpy_helper
    from numpy_bench import calibrate, median, sample_ns
    prefix = "ocr_" + a.model
    spec = os.path.join(work, prefix + ".where")
    run([a.wherec, "import", path, "-o", spec], "wherec import")
    run([a.wherec, "gen", spec, "-o", work], "wherec gen")
    manifest = json.load(open(spec + ".json", encoding="utf-8"))
    header = open(os.path.join(work, prefix + ".h")).read()
    kernels = []
    for k in manifest["kernels"]:
        if k["scope"] is not None:
            continue
        c = k["name"] if re.search(r"\b%s_%s\(" % (prefix, k["name"]), header) else None
        if c is None:  # a name the C spells with a trailing _
            c = k["name"] + "_" if re.search(r"\b%s_%s_\(" % (prefix, k["name"]), header) else None
        if c is None:
            continue
        k["c_name"] = c
        kernels.append(k)
    if a.quick:
        kernels = kernels[:a.kernels]
    with open(os.path.join(work, "driver.c"), "w") as f:
        f.write(driver(prefix + ".h", prefix, kernels))
    builds = BUILDS[1:] if a.quick else BUILDS
    libs = []
    for name, flags in builds:
        so = os.path.join(work, "lib%s%s.so" % (prefix, re.sub(r"\W", "", flags)))
        run(shlex.split(a.cc) + shlex.split(flags) + [
            "-std=c99", "-fPIC", "-shared", "-I" + os.path.join(ROOT, "include"), "-I" + work,
            "-o", so, os.path.join(work, prefix + ".c"), os.path.join(work, "driver.c")],
            "cc %s" % flags)
        lib = ctypes.CDLL(so)
        lib.wk_time.restype = ctypes.c_double
        lib.wk_time.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_size_t),
                                ctypes.POINTER(ctypes.c_void_p), ctypes.c_long]
        libs.append((name, lib))

    # the model once, every tensor of a kernel exposed: the kernels' real operands
    model = onnx.load(path)
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    have = {o.name for o in g.output}
    want = set()
    for k in kernels:
        made = {o for i in (n["index"] for n in k["nodes"]) for o in g.node[i].output}
        for i in (n["index"] for n in k["nodes"]):
            want.update(t for t in g.node[i].input if t and t not in made and t not in inits)
        want.update(o["tensor"] for o in k["outputs"])
    full = onnx.load(path)
    inputs = [vi for vi in full.graph.input if vi.name not in inits]
    types = {}  # tensor -> ONNX element type: the manifest's, else inference's
    try:
        inferred = onnx.shape_inference.infer_shapes(model).graph
        types = {vi.name: vi.type.tensor_type.elem_type
                 for vi in list(inferred.value_info) + list(inferred.output)}
    except Exception:  # a help only
        pass
    for k in kernels:
        for t in k["params"] + k["outputs"] + k.get("literals", []):
            if t["dtype"] in DTYPES:
                types[t["tensor"]] = onnx.helper.np_dtype_to_tensor_dtype(np.dtype(DTYPES[t["dtype"]]))
    for t in sorted(want - have - {vi.name for vi in inputs}):
        full.graph.output.append(onnx.helper.make_tensor_value_info(t, types.get(t, 0), None))
    rng = np.random.default_rng(1)
    feeds = {inputs[0].name: rng.uniform(-1, 1, shape).astype(np.float32)}  # a normalized image
    s = session(ort, full.SerializeToString(), ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
    names = [o.name for o in s.get_outputs()]
    values = dict(zip(names, s.run(names, feeds)))
    values.update(feeds)
    del s

    print("%s (%s), input %s: %d kernels; onnxruntime %s, one thread; %s"
          % (os.path.basename(path), a.model, shape, len(kernels), ort.__version__,
             "checked only (--quick)" if a.quick else "ns per call: the best of %d rounds over "
             "all kernels of the median of %d samples going round the ways" % (a.rounds, a.reps)))
    heads = [n for n, _ in builds] + ([] if a.quick else ["ort, opt off", "ort, opt all"])
    print("%-22s %5s %9s  %-28s " % ("kernel", "nodes", "elements", "operators")
          + " ".join("%12s" % h.replace("wherec ", "").replace(" -march=native", "n") for h in heads)
          + ("" if a.quick else " %9s %9s" % ("off/-O2", "off/-O3n")) + "  output vs ort")
    totals = [0.0] * len(heads)
    prep = []
    groups = {}  # (operators, nodes) -> [kernels, elements, ns per way, faster than ort off per build]
    bad = exact_n = approx_n = 0
    for ki, k in enumerate(kernels):
        ops = [n["op_type"] for n in k["nodes"]]
        # wherec's operands
        keep, ptrs = [], []
        ext = {}
        for p in k["params"]:
            t = p["tensor"]
            v = numpy_helper.to_array(inits[t]) if t in inits else values[t]
            v = np.ascontiguousarray(v, dtype=DTYPES[p["dtype"]])
            if "tensor_shape" in p and p["tensor_shape"] is None:  # flat: its elements
                v = v.reshape(-1)
            elif len(p["shape"]) > v.ndim:
                v = v.reshape(v.shape + (1,) * (len(p["shape"]) - v.ndim))
            for d, n in zip(p["shape"], v.shape):
                if isinstance(d, str):
                    ext.setdefault(d, n)
            keep.append(v)
        outs = []
        for o in k["outputs"]:
            ref = values[o["tensor"]]
            b = np.empty(ref.shape, dtype=DTYPES[o["dtype"]])
            outs.append(b)
            keep.append(b)
        for v in keep:
            ptrs.append(v.ctypes.data)
        e = (ctypes.c_size_t * max(1, len(k["extents"])))(*[ext[x["name"]] for x in k["extents"]])
        p = (ctypes.c_void_p * len(ptrs))(*ptrs)
        # onnxruntime on the same nodes
        sm = sub_model(onnx, model, k, values, inits).SerializeToString()
        sfeeds = {t: values[t] for t in
                  (i.name for i in onnx.load_from_string(sm).graph.input)}
        levels = [ort.GraphOptimizationLevel.ORT_DISABLE_ALL] + (
            [] if a.quick else [ort.GraphOptimizationLevel.ORT_ENABLE_ALL])
        ort_calls = []
        for level in levels:
            call, bufs = bound(np, session(ort, sm, level), sfeeds,
                               [(o["tensor"], values[o["tensor"]]) for o in k["outputs"]])
            call()
            ort_calls.append((call, bufs))
        # the check: the last build's output against onnxruntime's (the nodes unfused)
        libs[-1][1].wk_time(ki, e, p, 1)
        diff = sum(int(np.count_nonzero(o.view(np.uint8) != r.view(np.uint8)))
                   for o, r in zip(outs, ort_calls[0][1]))
        elements = sum(o.size for o in outs)
        approx = sorted(set(ops) & APPROX)
        if diff == 0:
            verdict = "same bytes"
            exact_n += 1
        elif approx:
            verdict = "differs (ort approximates %s)" % ",".join(approx)
            approx_n += 1
        else:
            verdict = "DIFFERS: %d bytes" % diff
            bad += 1
        if a.quick:
            summary = " ".join(sorted(set(ops)))
            print("%-22s %5d %9d  %-28s %12s  %s" % (k["name"][:22], len(ops), elements,
                                                     summary[:28], "", verdict))
            continue
        fns = [lambda n, lib=lib, ki=ki, e=e, p=p: lib.wk_time(ki, e, p, n) for _, lib in libs]
        inner = []
        for fn in fns:  # calls per sample: each sample lasts about 1 ms
            one = max(fn(1), fn(1), 1.0)
            inner.append(max(1, int(1e6 / one)))
        inner += [calibrate(c) for c, _ in ort_calls]
        prep.append(dict(k=k, ops=ops, elements=elements, verdict=verdict, fns=fns,
                         ort=ort_calls, inner=inner, keep=(keep, e, p),
                         best=[float("inf")] * len(heads)))
    # rounds over every kernel, a load burst falls on one round: each way's best round
    for _ in range(a.rounds):
        for q in prep:
            samples = [[] for _ in heads]
            for _ in range(a.reps):  # samples go round the ways
                for j, fn in enumerate(q["fns"]):
                    samples[j].append(fn(q["inner"][j]) / q["inner"][j])
                for j, (c, _) in enumerate(q["ort"]):
                    jj = len(q["fns"]) + j
                    samples[jj].append(sample_ns(c, q["inner"][jj]))
            q["best"] = [min(b, median(x)) for b, x in zip(q["best"], samples)]
    for q in prep:
        k, ops, elements, ns, nf = q["k"], q["ops"], q["elements"], q["best"], len(q["fns"])
        totals = [t + x for t, x in zip(totals, ns)]
        summary = " ".join(sorted(set(ops)))
        grp = groups.setdefault((summary, len(ops)), [0, 0, [0.0] * len(heads), [0] * nf])
        grp[0] += 1
        grp[1] += elements
        grp[2] = [t + x for t, x in zip(grp[2], ns)]
        grp[3] = [w + (ns[j] < ns[nf]) for j, w in enumerate(grp[3])]
        print("%-22s %5d %9d  %-28s " % (k["name"][:22], len(ops), elements, summary[:28])
              + " ".join("%12s" % fmt_ns(x) for x in ns)
              + " %8.1fx %8.1fx  %s" % (ns[2] / ns[0], ns[2] / ns[1], q["verdict"]))
    if not a.quick:
        n_nodes = sum(len(k["nodes"]) for k in kernels)
        print("%-22s %5d %9s  %-28s " % ("total", n_nodes, "", "")
              + " ".join("%12s" % fmt_ns(x) for x in totals)
              + " %8.1fx %8.1fx" % (totals[2] / totals[0], totals[2] / totals[1]))
        print("ort, opt off: onnxruntime on the kernel's nodes, graph optimizations off (the same "
              "nodes, unfused); opt all: ORT_ENABLE_ALL. off/-O2, off/-O3n: onnxruntime (opt off) "
              "time / wherec's. wherec: the generated function called straight from C; "
              "onnxruntime: run_with_iobinding into preallocated outputs.")
    if groups:
        print("\nby operators (kernels of the same operators and node count together; faster: "
              "kernels where wherec beats onnxruntime with optimizations off):")
        print("%-32s %7s %9s " % ("operators, nodes", "kernels", "elements")
              + " ".join("%12s" % h.replace("wherec ", "").replace(" -march=native", "n")
                         for h in heads) + " %9s %9s %14s" % ("off/-O2", "off/-O3n", "faster -O2/-O3n"))
        for (ops, n), (cnt, el, ns, faster) in sorted(groups.items(), key=lambda g: -g[1][2][2]):
            print("%-32s %7d %9d " % (("%s, %d" % (ops, n))[:32], cnt, el)
                  + " ".join("%12s" % fmt_ns(x) for x in ns)
                  + " %8.1fx %8.1fx %14s" % (ns[2] / ns[0], ns[2] / ns[1],
                                              "%d/%d of %d" % (faster[0], faster[1], cnt)))
        fast = [sum(g[3][j] for g in groups.values()) for j in range(len(libs))]
        print("wherec faster than onnxruntime (opt off) on %d of %d kernels at -O2, %d at "
              "-O3 -march=native" % (fast[0], len(kernels), fast[1]))
    print("%d kernels: %d same bytes as onnxruntime, %d differ where onnxruntime approximates or "
          "reorders, %d wrong" % (len(kernels), exact_n, approx_n, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
