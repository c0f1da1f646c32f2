#!/usr/bin/env python3
"""bench/e2e.py: whole models in onnxruntime, alone and with wherec's execution provider.

Per model (the models bench/models.py downloads, plus Silero VAD and the exported
build/models/yolo_silu.onnx and transformer_encoder.onnx when they are there):

1. fixed random inputs of the model's real shapes (seeded), saved as .npy;
2. `wherec import MODEL --ort build/e2e/<model>/ --input ...` with $WHEREC_ORT_PYTHON set to
   this python, so that gen/ort/measure.py times every region at those shapes (timed);
3. in one child process per model (a crash of the provider loses that model only): sessions
   at ORT_ENABLE_ALL with intra_op_num_threads 1 and 2, each three ways: onnxruntime alone
   (CPU EP), + wherec EP claim=measured (the default), + claim=all. Every session runs the
   same inputs; 3 warm-ups, then at 1 thread one run of each session in turn, at 2 threads
   5 blocks per session in turn (see child()), the median kept; before each set, a wait (up to
   --quiet-wait s) for other processes to leave the cores, and the CPU they took is recorded;
   then the same three at ORT_DISABLE_ALL, 1 thread (--no-o0 leaves them out): the provider
   on the graph as imported, before onnxruntime's level-1 fusions rewrite it;
4. regions claimed per policy (the provider's report file), the largest absolute difference of
   every output against onnxruntime alone (and, as the scale of onnxruntime's own rounding,
   onnxruntime alone at ORT_ENABLE_ALL against ORT_DISABLE_ALL), and the share of time in the
   claimed nodes: onnxruntime's profiler on an onnxruntime-alone session, the "Node" events'
   dur of the nodes the manifest names for the claimed kernels over all "Node" events.

Against float64, and what users decode from the outputs: bench/accuracy.py.

Prints a table, writes bench/e2e.csv (one row per model, level, thread count and policy) and
bench/e2e.png (speed-up per model; needs matplotlib in this python, else skipped, said so).

usage: build/ort-venv/bin/python bench/e2e.py [--models det,rec,...] [--budget S] [--no-import]
                                              [--no-o0] [--quiet-wait S] [--replot]
Needs onnxruntime >= 1.23, onnx and numpy in this python; build/gen/wherec and
build/ep/libwherec_ep.so built (cmake --build build --target wherec wherec_ep).
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import models  # noqa: E402  (bench/models.py: fetch, extract, MODELS, PACKAGES)

EP_NAME = "WherecExecutionProvider"
SILERO = ("silero-vad==6.2.3", "silero_vad-")
SILERO_MEMBER = "silero_vad/data/silero_vad_op18_ifless.onnx"

# key, label, where the model comes from, input shapes by graph input name (else the model's)
E2E = [
    ("det", "PP-OCRv4 det", ("rapidocr", "PP-OCRv4 det"), {"x": (1, 3, 640, 640)}),
    ("rec", "PP-OCRv4 rec", ("rapidocr", "PP-OCRv4 rec"), {"x": (1, 3, 48, 320)}),
    ("cls", "PP-OCR cls", ("rapidocr", "PP-OCR cls"), {"x": (1, 3, 48, 192)}),
    ("resnet50", "ResNet-50", ("onnx", "resnet50"), {}),
    ("densenet121", "DenseNet-121", ("onnx", "densenet121"), {}),
    # 16 kHz: a chunk of 512 samples after the 64 of context, as silero_vad's OnnxWrapper feeds it
    ("silero", "Silero VAD op18", ("silero", SILERO_MEMBER), {"input": (1, 576), "state": (2, 1, 128)}),
    ("yolo_silu", "YOLO (SiLU)", ("file", "yolo_silu.onnx"), {}),
    ("transformer", "Transformer encoder", ("file", "transformer_encoder.onnx"), {}),
]
POLICIES = ("alone", "measured", "all")
THREADS = (1, 2)


# ---- the models and their inputs ------------------------------------------------------

def model_paths(dest, keys):
    """{key: path} of the models that are there (downloading what bench/models.py does)."""
    wheels = models.fetch(dest)
    by_name = {name: (pkg, member) for name, pkg, member in models.MODELS}
    out, missing = {}, {}
    for key, _, (kind, what), _ in E2E:
        if key not in keys:
            continue
        if kind in ("rapidocr", "onnx"):
            pkg, member = by_name.get(what, (None, None))
            if member is None:
                missing[key] = "bench/models.py has no model %s" % what
                continue
            out[key] = models.extract(wheels[pkg], member, dest)
        elif kind == "silero":
            # bench/models.py does not download silero-vad: its fetch() on this one package
            saved = dict(models.PACKAGES)
            models.PACKAGES.clear()
            models.PACKAGES["silero"] = SILERO
            try:
                out[key] = models.extract(models.fetch(dest)["silero"], what, dest)
            except SystemExit:
                missing[key] = "cannot download %s" % SILERO[0]
            finally:
                models.PACKAGES.clear()
                models.PACKAGES.update(saved)
        else:
            path = os.path.join(dest, what)
            if os.path.exists(path):
                out[key] = path
            else:
                missing[key] = "%s is not there (bench/export_models.py writes it)" % path
    return out, missing


NP_DTYPE = {1: "float32", 2: "uint8", 3: "int8", 6: "int32", 7: "int64", 9: "bool", 10: "float16",
            11: "float64"}


def graph_inputs(path):
    """[(name, numpy dtype, dims with None for a named dimension)] of the model's real inputs."""
    import onnx
    m = onnx.load(path, load_external_data=False)
    inits = {t.name for t in m.graph.initializer}
    out = []
    for vi in m.graph.input:
        if vi.name in inits:
            continue
        tt = vi.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else None for d in tt.shape.dim]
        out.append((vi.name, NP_DTYPE[tt.elem_type], dims))
    return out


def make_inputs(np, path, shapes, seed, dest):
    """Seeded inputs of the model's shapes (named dimensions: 1 first, else 32), saved as
    dest/NN_name.npy; ({name: array}, [files in graph order], notes)."""
    rng = np.random.default_rng(seed)
    feeds, files, notes = {}, [], []
    os.makedirs(dest, exist_ok=True)
    for i, (name, dtype, dims) in enumerate(graph_inputs(path)):
        shape = shapes.get(name)
        if shape is None:
            shape = tuple(d if d else (1 if k == 0 else 32) for k, d in enumerate(dims))
            if None in dims:
                notes.append("%s: named dimensions set to %s" % (name, shape))
        if name == "sr":
            a = np.array(16000, dtype)                       # silero's sample rate
        elif name == "state":
            a = np.zeros(shape, dtype)                       # silero's first chunk
        elif dtype.startswith("float"):
            a = rng.uniform(-1, 1, shape).astype(dtype)
        elif dtype == "bool":
            a = rng.random(shape) < 0.5
        else:
            a = rng.integers(0, 100, shape).astype(dtype)    # token ids and the like
        fn = os.path.join(dest, "%02d_%s.npy" % (i, re.sub(r"\W", "_", name)))
        np.save(fn, a)
        feeds[name] = a
        files.append(fn)
    return feeds, files, notes


# ---- one model in a child process ---------------------------------------------------------

def session(ort, path, threads, policy, devices, d, report=None, profile=None, level=None):
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.graph_optimization_level = level if level is not None else ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3
    if profile:
        so.enable_profiling = True
        so.profile_file_prefix = profile
    if policy == "alone":
        return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    so.add_provider_for_devices(devices, {"manifest": os.path.join(d, "kernels.where.json"),
                                          "kernels": os.path.join(d, "kernels.so"),
                                          "claim": policy, "report": report})
    return ort.InferenceSession(path, so)


def read_report(path):
    """{decision: sorted kernels}, the refused ones' reasons and the not found ones' (the
    first given: onnxruntime asks once per graph and sub-graph), from a report file. The
    kernels claimed are listed once per place: a kernel of an If's then-branch also claims
    its twin in the else-branch (the same nodes and constants), which the twin's own kernel
    then reports as taken."""
    by, why, nf = {}, {}, {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r["decision"] == "claimed":
                    by.setdefault("claimed", []).append(r["kernel"])
                    continue
                by.setdefault(r["decision"], set()).add(r["kernel"])
                if r["decision"] == "refused":
                    why[r["kernel"]] = r["why"]
                elif r["decision"] == "not found":
                    nf.setdefault(r["kernel"], r["why"])
    return {k: sorted(v) for k, v in by.items()}, why, nf


def max_abs(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return "shape %s vs %s" % (a.shape, b.shape)
    if a.size == 0:
        return 0.0
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    if np.array_equal(a64, b64, equal_nan=True):
        return 0.0
    d = np.abs(a64 - b64)
    if np.isnan(d).any() and not np.isnan(d).all():
        return float("nan")                                  # NaN on one side only
    return float(np.nanmax(d))


def worst(diffs):
    """The largest of per-output differences (a string, e.g. a shape mismatch, wins)."""
    bad = [d for d in diffs if isinstance(d, str) or d != d]
    return bad[0] if bad else max(diffs, default=0.0)


def cpu_busy():
    """(busy, all) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return sum(v) - v[3] - v[4], sum(v)


def others_cores(before, after, mine_s, wall_s):
    """Cores that other processes kept busy between two cpu_busy() readings."""
    hz = os.sysconf("SC_CLK_TCK")
    return max(0.0, (after[0] - before[0]) / hz - mine_s) / max(wall_s, 1e-9)


def wait_quiet(limit_s, max_others=0.3):
    """Waits (up to limit_s) for a second in which other processes use under max_others
    of a core; the last second's use."""
    t_end = time.time() + limit_s
    while True:
        b, m0, w0 = cpu_busy(), sum(os.times()[:2]), time.perf_counter()
        time.sleep(1.0)
        use = others_cores(b, cpu_busy(), sum(os.times()[:2]) - m0, time.perf_counter() - w0)
        if use < max_others or time.time() > t_end:
            return use


def child(a):
    """Everything timed for one model, in this process; prints one JSON line."""
    import numpy as np
    import onnxruntime as ort
    d = os.path.abspath(a.child_dir)
    path = a.child_model
    with open(os.path.join(d, "inputs", "names.json")) as f:
        feeds = {name: np.load(os.path.join(d, "inputs", fn)) for fn, name in sorted(json.load(f).items())}
    res = {"ort": ort.__version__, "load_before": os.getloadavg()[0]}
    with_ep = os.path.exists(os.path.join(d, "kernels.so")) and not a.child_no_ep
    devices = []
    if with_ep:
        ort.register_execution_provider_library("wherec", os.path.abspath(a.ep))
        devices = [x for x in ort.get_ep_devices() if x.ep_name == EP_NAME]
    policies = POLICIES if with_ep else ("alone",)

    names = [o.name for o in ort.InferenceSession(path, providers=["CPUExecutionProvider"]).get_outputs()]
    # ORT_ENABLE_ALL at 1 and 2 threads; then ORT_DISABLE_ALL at 1 thread (with the provider only):
    # onnxruntime's own rounding between the two levels, and the provider on the graph as
    # imported, before onnxruntime's fusions rewrite it
    configs = [(t, "") for t in THREADS] + ([(1, "/O0")] if with_ep and a.o0 else [])
    res["sessions"] = {}
    alone_out = {}
    for t, lv in configs:
        level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL if lv else ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        sess, outs = {}, {}
        for pol in policies:
            key = "%s/%d%s" % (pol, t, lv)
            rep = os.path.join(d, "report-%s-%dthr%s.jsonl" % (pol, t, lv.replace("/", "-")))
            if os.path.exists(rep):
                os.remove(rep)
            t0 = time.perf_counter()
            sys.stderr.write("e2e: %s: creating session %s\n" % (a.child_key, key))
            sys.stderr.flush()
            sess[pol] = session(ort, path, t, pol, devices, d, report=rep, level=level)
            create_s = time.perf_counter() - t0
            sys.stderr.write("e2e: %s: running %s\n" % (a.child_key, key))
            sys.stderr.flush()
            outs[pol] = sess[pol].run(names, feeds)
            by, why, nf = read_report(rep) if pol != "alone" else ({}, {}, {})
            res["sessions"][key] = {"create_s": create_s, "report": by, "refused_why": why,
                                    "not_found_why": nf}
        # warm-ups, then the number of runs from the warm-ups' time
        one = []
        for pol in policies:
            for _ in range(a.warmup):
                s0 = time.perf_counter()
                sess[pol].run(names, feeds)
                one.append(time.perf_counter() - s0)
        per = statistics.median(one)
        n = int(min(max(a.runs, a.budget / max(per, 1e-6)), a.max_runs))
        # one thread: one run of each session in turn (drift and other processes' load are
        # shared). More: 5 blocks per session, each after one untimed run, since a session's
        # pool threads spin on after its run and, on 2 cores, take the core the next session's
        # pool needs (sessions of 2 threads run in turn take twice as long)
        block = 1 if t == 1 else max(1, n // 5)
        n = max(block, n - n % block)
        times = {pol: [] for pol in policies}
        quiet = wait_quiet(a.quiet_wait)
        b0, m0, w0 = cpu_busy(), sum(os.times()[:2]), time.perf_counter()
        for b in range(n // block):
            order = policies[b % len(policies):] + policies[:b % len(policies)]
            for pol in order:
                if block > 1:
                    sess[pol].run(names, feeds)
                for _ in range(block):
                    s0 = time.perf_counter()
                    sess[pol].run(names, feeds)
                    times[pol].append(time.perf_counter() - s0)
        others = others_cores(b0, cpu_busy(), sum(os.times()[:2]) - m0, time.perf_counter() - w0)
        alone_out[lv] = outs["alone"]
        for pol in policies:
            ts = sorted(times[pol])
            r = res["sessions"]["%s/%d%s" % (pol, t, lv)]
            r["runs"] = len(ts)
            r["median_ms"] = 1e3 * statistics.median(ts)
            r["p25_ms"] = 1e3 * ts[len(ts) // 4]
            r["p75_ms"] = 1e3 * ts[(3 * len(ts)) // 4]
            r["min_ms"] = 1e3 * ts[0]
            r["others_cores"] = others
            r["others_cores_before"] = quiet
            r["diff"] = {o: max_abs(np, x, y) for o, x, y in zip(names, outs[pol], outs["alone"])}
            r["max_abs_diff"] = worst(list(r["diff"].values()))
            r["max_abs_out"] = max(float(np.nanmax(np.abs(np.asarray(y, np.float64)))) if np.asarray(y).size
                                   else 0.0 for y in outs["alone"])
        del sess, outs
    if "/O0" not in alone_out:
        ref = session(ort, path, 1, "alone", devices, d, level=ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
        alone_out["/O0"] = ref.run(names, feeds)
        del ref
    res["sessions"]["alone/1"]["opt_level_diff"] = worst(
        [max_abs(np, x, y) for x, y in zip(alone_out[""], alone_out["/O0"])])

    # the profile of onnxruntime alone, one thread (and at ORT_DISABLE_ALL with those sessions)
    res["profile"] = {}
    for lv in alone_out:
        if lv and not (with_ep and a.o0):
            continue
        level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL if lv else ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        prof = session(ort, path, 1, "alone", devices, d, level=level,
                       profile=os.path.join(d, "profile" + lv.replace("/", "-")))
        for _ in range(max(3, min(20, a.runs))):
            prof.run(names, feeds)
        pfile = prof.end_profiling()
        with open(pfile) as f:
            events = json.load(f)
        node_us = {}
        for e in events:
            if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
                nm = e["name"][:-len("_kernel_time")]
                node_us[nm] = node_us.get(nm, 0) + e["dur"]
        res["profile"][lv] = node_us
        del prof
    res["load_after"] = os.getloadavg()[0]
    print("E2E-RESULT " + json.dumps(res))


# ---- the parent: import, run the child, tabulate ------------------------------------------

def claimed_share(manifest, claimed, node_us):
    """Share of the profiled Node time in the nodes of the claimed kernels, and how many of
    those nodes have an event of their own (the others onnxruntime fused into another)."""
    names = {n["name"] for k in manifest["kernels"] if k["name"] in claimed for n in k["nodes"]}
    total = sum(node_us.values())
    inside = sum(us for nm, us in node_us.items() if nm in names)
    seen = sum(1 for nm in names if nm in node_us)
    return (inside / total if total else 0.0), seen, len(names)


def summary(why, kernels):
    """The reasons of kernels, counted with the tensor names left out, one example each."""
    counts, example = {}, {}
    for k in kernels:
        r = re.sub(r"'[^']*'", "'…'", why.get(k, "?"))
        r = re.sub(r"\[[^\]]*\]", "[…]", r)
        counts[r] = counts.get(r, 0) + 1
        example.setdefault(r, "%s: %s" % (k, why.get(k, "?")))
    return "; ".join("%d x %s (e.g. %s)" % (c, r, example[r]) for r, c in
                     sorted(counts.items(), key=lambda x: -x[1]))


def fmt_diff(d):
    if isinstance(d, str):
        return d
    return "0" if d == 0 else "%.1e" % d


def run_model(a, key, label, path, shapes, np):
    d = os.path.join(a.out, key)
    row = {"key": key, "model": label, "path": os.path.relpath(path, ROOT), "problems": []}
    feeds, files, notes = make_inputs(np, path, shapes, a.seed, os.path.join(d, "inputs"))
    with open(os.path.join(d, "inputs", "names.json"), "w") as f:
        json.dump({os.path.basename(fn): nm for fn, nm in zip(files, feeds)}, f)
    row["inputs"] = "; ".join("%s %s%s" % (nm, v.dtype, list(v.shape)) for nm, v in feeds.items())
    row["problems"] += notes
    man_path = os.path.join(d, "kernels.where.json")
    if not a.no_import or not os.path.exists(man_path):
        for fn in ("kernels.so", "kernels.where.json"):
            if os.path.exists(os.path.join(d, fn)):
                os.remove(os.path.join(d, fn))
        env = dict(os.environ, WHEREC_ORT_PYTHON=sys.executable)
        cmd = [a.wherec, "import", path, "--ort", d] + sum((["--input", fn] for fn in files), [])
        print("e2e: %s: %s" % (label, " ".join(os.path.relpath(c, ROOT) if c.startswith("/") else c for c in cmd)),
              flush=True)
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        row["import_s"] = time.perf_counter() - t0
        with open(os.path.join(d, "import.log"), "w") as f:
            f.write(r.stdout + r.stderr)
        if r.returncode != 0:
            tail = (r.stderr.strip().splitlines() or ["(no output)"])[-1]
            row["problems"].append("wherec import exit %d: %s" % (r.returncode, tail))
    else:
        row["import_s"] = float("nan")
    manifest = None
    if os.path.exists(man_path) and os.path.exists(os.path.join(d, "kernels.so")):
        with open(man_path) as f:
            manifest = json.load(f)
        ks = manifest["kernels"]
        row["kernels"] = len(ks)
        row["measured_faster"] = sum(1 for k in ks if k.get("measured", {}).get("faster"))
        row["not_measured"] = sum(1 for k in ks if "measured" not in k)
    cmd = [sys.executable, os.path.abspath(__file__), "--child-model", path, "--child-dir", d,
           "--child-key", key, "--ep", a.ep, "--runs", str(a.runs), "--warmup", str(a.warmup),
           "--budget", str(a.budget), "--max-runs", str(a.max_runs),
           "--quiet-wait", str(a.quiet_wait)] + ([] if a.o0 else ["--no-o0"])
    if manifest is None:
        cmd.append("--child-no-ep")
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    row["bench_s"] = time.perf_counter() - t0
    with open(os.path.join(d, "bench.log"), "w") as f:
        f.write(r.stdout + r.stderr)
    line = [l for l in r.stdout.splitlines() if l.startswith("E2E-RESULT ")]
    if r.returncode != 0 or not line:
        how = "signal %d" % -r.returncode if r.returncode < 0 else "exit %d" % r.returncode
        err = [l for l in r.stderr.strip().splitlines() if l.strip()]
        row["problems"].append("benchmark process %s; last lines: %s" % (how, " | ".join(err[-3:])))
        row["res"] = None
        return row
    res = json.loads(line[0][len("E2E-RESULT "):])
    row["res"] = res
    if manifest:
        ss = res["sessions"]
        for key, s in ss.items():
            pol, t, lv = (key.split("/") + [""])[:3]
            if pol == "alone":
                continue
            claimed = s["report"].get("claimed", [])
            s["claimed"] = len(claimed)
            node_us = res["profile"].get("/" + lv if lv else "")
            if node_us is not None:
                s["share"], seen, total = claimed_share(manifest, set(claimed), node_us)
                s["profiled_nodes"] = "%d/%d" % (seen, total)
            first = "%s/1%s" % (pol, "/" + lv if lv else "")
            if key != first and claimed != ss[first]["report"].get("claimed", []):
                row["problems"].append("claim=%s claims other kernels at %s threads than at 1" % (pol, t))
            if key == first and pol == "all":
                at = " at ORT_DISABLE_ALL" if lv else ""
                decided = set().union(*[set(v) for dd, v in s["report"].items() if dd != "not found"])
                nf = [k for k in s["report"].get("not found", []) if k not in decided]
                if nf:
                    row["problems"].append("%d of %d kernels not found in onnxruntime's graph%s: %s" % (
                        len(nf), len(manifest["kernels"]), at, summary(s["not_found_why"], nf)))
                ref = sorted(s["refused_why"])
                if ref:
                    row["problems"].append("%d kernels refused%s: %s" % (len(ref), at, summary(s["refused_why"], ref)))
            if s.get("max_abs_diff") not in (0.0, None) and (isinstance(s["max_abs_diff"], str)
                                                              or not s["max_abs_diff"] < 1e-3 * max(1.0, s["max_abs_out"])):
                row["problems"].append("%s: outputs differ from onnxruntime alone by %s (largest |output| %.3g)"
                                       % (key, s["max_abs_diff"], s["max_abs_out"]))
    return row


def sess(row, key):
    return (row.get("res") or {}).get("sessions", {}).get(key)


def ms(row, pol, t, lv=""):
    s = sess(row, "%s/%d%s" % (pol, t, lv))
    return s["median_ms"] if s and "median_ms" in s else None


def table(rows):
    head = ("model", "import s", "ORT 1thr ms", "+EP 1thr ms", "x", "x all", "ORT 2thr ms", "+EP 2thr ms",
            "x", "x all", "claimed m / all", "share m / all", "max abs diff m / all",
            "O0: claimed all, x all, diff", "ORT O3 vs O0", "others' cores 1 / 2 thr")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        c = [r["model"], "%.0f" % r["import_s"] if r.get("import_s") == r.get("import_s") else "-"]
        for t in THREADS:
            al, me, aa = ms(r, "alone", t), ms(r, "measured", t), ms(r, "all", t)
            c += ["%.2f" % al if al else "-", "%.2f" % me if me else "-",
                  "%.2f" % (al / me) if al and me else "-", "%.2f" % (al / aa) if al and aa else "-"]
        m, al = sess(r, "measured/1"), sess(r, "all/1")
        if m and al and "claimed" in m:
            c += ["%d / %d of %d" % (m["claimed"], al["claimed"], r["kernels"]),
                  "%.1f%% / %.1f%%" % (100 * m.get("share", 0), 100 * al.get("share", 0)),
                  "%s / %s" % (fmt_diff(m["max_abs_diff"]), fmt_diff(al["max_abs_diff"]))]
        else:
            c += ["-", "-", "-"]
        o0, o0a = sess(r, "all/1/O0"), ms(r, "alone", 1, "/O0")
        if o0 and "claimed" in o0:
            c.append("%d, %.2f, %s" % (o0["claimed"], o0a / o0["median_ms"], fmt_diff(o0["max_abs_diff"])))
        else:
            c.append("-")
        a1 = sess(r, "alone/1")
        c.append(fmt_diff(a1["opt_level_diff"]) if a1 and "opt_level_diff" in a1 else "-")
        oc = [sess(r, "alone/%d" % t) for t in THREADS]
        c.append(" / ".join("%.2f" % o["others_cores"] if o else "-" for o in oc))
        lines.append("| " + " | ".join(c) + " |")
    return "\n".join(lines)


def write_csv(rows, path):
    fields = ["model", "opt_level", "threads", "policy", "median_ms", "p25_ms", "p75_ms", "min_ms", "runs",
              "speedup_vs_alone", "kernels", "measured_faster", "claimed", "claimed_share_of_node_time",
              "claimed_nodes_profiled", "max_abs_diff_vs_alone", "max_abs_output", "ort_O3_vs_O0_diff",
              "session_create_s", "others_cores", "import_s", "inputs", "problems"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            for key, s in ((r.get("res") or {}).get("sessions") or {}).items():
                pol, t, lv = (key.split("/") + [""])[:3]
                al = ms(r, "alone", int(t), "/" + lv if lv else "")
                w.writerow({
                    "model": r["model"], "opt_level": "ORT_DISABLE_ALL" if lv else "ORT_ENABLE_ALL",
                    "threads": t, "policy": pol,
                    "median_ms": "%.4f" % s["median_ms"], "p25_ms": "%.4f" % s["p25_ms"],
                    "p75_ms": "%.4f" % s["p75_ms"], "min_ms": "%.4f" % s["min_ms"], "runs": s["runs"],
                    "speedup_vs_alone": "%.4f" % (al / s["median_ms"]),
                    "kernels": r.get("kernels", ""), "measured_faster": r.get("measured_faster", ""),
                    "claimed": s.get("claimed", ""),
                    "claimed_share_of_node_time": "%.4f" % s["share"] if "share" in s else "",
                    "claimed_nodes_profiled": s.get("profiled_nodes", ""),
                    "max_abs_diff_vs_alone": s["max_abs_diff"], "max_abs_output": "%.6g" % s["max_abs_out"],
                    "ort_O3_vs_O0_diff": s.get("opt_level_diff", ""),
                    "session_create_s": "%.3f" % s["create_s"], "others_cores": "%.2f" % s["others_cores"],
                    "import_s": "%.1f" % r["import_s"] if r.get("import_s") == r.get("import_s") else "",
                    "inputs": r["inputs"], "problems": " || ".join(r["problems"])})


def plot(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        return "no plot: matplotlib is not installed in %s (%s)" % (sys.executable, e)
    rows = [r for r in rows if ms(r, "measured", 1)]
    bars = [("measured", 1, "claim=measured, 1 thread", "#1f6fb4"),
            ("all", 1, "claim=all, 1 thread", "#9ecae1"),
            ("measured", 2, "claim=measured, 2 threads", "#e6550d"),
            ("all", 2, "claim=all, 2 threads", "#fdae6b")]
    fig, ax = plt.subplots(figsize=(10, 4.8))
    w = 0.2
    for i, (pol, t, lab, col) in enumerate(bars):
        xs = [g + (i - 1.5) * w for g in range(len(rows))]
        ys = [ms(r, "alone", t) / ms(r, pol, t) for r in rows]
        ax.bar(xs, ys, w, label=lab, color=col)
    ax.axhline(1.0, color="black", linewidth=0.8)
    top = max(ms(r, "alone", t) / ms(r, pol, t) for r in rows for pol, t, _, _ in bars)
    ax.set_ylim(0, max(1.3, top) + 0.25)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r["model"] for r in rows], rotation=20, ha="right")
    ax.set_ylabel("speed-up: onnxruntime alone / with wherec EP")
    ax.set_title("wherec execution provider in onnxruntime, whole models (median, ORT_ENABLE_ALL)")
    ax.legend(fontsize=8, ncol=4, loc="upper center")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return "wrote %s" % os.path.relpath(path, ROOT)


def rows_from_csv(path):
    """The rows plot() needs, from a CSV write_csv() wrote (--replot)."""
    rows = {}
    with open(path, newline="") as f:
        for c in csv.DictReader(f):
            r = rows.setdefault(c["model"], {"model": c["model"], "res": {"sessions": {}}})
            lv = "/O0" if c["opt_level"] == "ORT_DISABLE_ALL" else ""
            r["res"]["sessions"]["%s/%s%s" % (c["policy"], c["threads"], lv)] = {"median_ms": float(c["median_ms"])}
    return list(rows.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wherec", default=os.path.join(ROOT, "build/gen/wherec"))
    ap.add_argument("--ep", default=os.path.join(ROOT, "build/ep/libwherec_ep.so"))
    ap.add_argument("--dir", default=os.path.join(ROOT, "build/models"), help="where the models are")
    ap.add_argument("--out", default=os.path.join(ROOT, "build/e2e"), help="import directories")
    ap.add_argument("--models", default=",".join(k for k, *_ in E2E),
                    help="comma-separated keys: " + ",".join(k for k, *_ in E2E))
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--runs", type=int, default=20, help="timed runs per session, at least")
    ap.add_argument("--max-runs", type=int, default=400)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--budget", type=float, default=3.0, help="seconds of timed runs per session, about")
    ap.add_argument("--quiet-wait", type=float, default=60,
                    help="seconds to wait, before each set of timed runs, for other processes to go quiet")
    ap.add_argument("--no-o0", dest="o0", action="store_false",
                    help="leave out the sessions at ORT_DISABLE_ALL (1 thread)")
    ap.add_argument("--no-import", action="store_true", help="reuse build/e2e/<model>/ when it is there")
    ap.add_argument("--csv", default=os.path.join(HERE, "e2e.csv"))
    ap.add_argument("--png", default=os.path.join(HERE, "e2e.png"))
    ap.add_argument("--replot", action="store_true", help="only draw --png again from --csv")
    ap.add_argument("--child-model", help=argparse.SUPPRESS)
    ap.add_argument("--child-dir", help=argparse.SUPPRESS)
    ap.add_argument("--child-key", help=argparse.SUPPRESS)
    ap.add_argument("--child-no-ep", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child_model:
        return child(a)
    if a.replot:
        return print("e2e: " + plot(rows_from_csv(a.csv), a.png))
    import numpy as np
    import onnxruntime as ort
    for f in (a.wherec, a.ep):
        if not os.path.exists(f):
            sys.exit("e2e.py: %s is missing: cmake --build build --target wherec wherec_ep" % f)
    keys = a.models.split(",")
    paths, missing = model_paths(a.dir, keys)
    print("e2e: onnxruntime %s, numpy %s, %d cores, load %.2f; models: %s" % (
        ort.__version__, np.__version__, os.cpu_count(), os.getloadavg()[0], ", ".join(paths)), flush=True)
    for k, why in missing.items():
        print("e2e: %s: skipped: %s" % (k, why))
    rows = []
    t_all = time.perf_counter()
    for key, label, _, shapes in E2E:
        if key not in paths:
            continue
        row = run_model(a, key, label, paths[key], shapes, np)
        rows.append(row)
        r1 = ms(row, "alone", 1)
        print("e2e: %s: import %.0f s, bench %.0f s; alone %s ms, +EP %s ms (1 thread)%s" % (
            label, row.get("import_s", float("nan")), row["bench_s"], "%.2f" % r1 if r1 else "-",
            "%.2f" % ms(row, "measured", 1) if ms(row, "measured", 1) else "-",
            "".join("\n    problem: " + p for p in row["problems"])), flush=True)
    print("\n" + table(rows))
    print("\n(ORT_ENABLE_ALL unless O0; ms: median of one run; x: speed-up, onnxruntime alone / with the "
          "provider, claim=measured; x all: the same with claim=all; claimed: kernels claimed of those imported, "
          "claim=measured / claim=all, 1 thread; share: the claimed kernels' nodes' share of onnxruntime's Node "
          "time (profiler, onnxruntime alone, 1 thread); max abs diff: largest absolute difference of any output "
          "against onnxruntime alone, 1 thread; O0: the same at ORT_DISABLE_ALL, 1 thread, claim=all; ORT O3 vs "
          "O0: onnxruntime alone at ORT_ENABLE_ALL against ORT_DISABLE_ALL, the scale of its own rounding; others' "
          "cores: CPU other processes used while the sessions were timed, in cores of the machine's %d)" % os.cpu_count())
    print("e2e: %.0f s in all" % (time.perf_counter() - t_all))
    probs = [(r["model"], p) for r in rows for p in r["problems"]]
    if probs:
        print("\nproblems:")
        for m, p in probs:
            print("  %s: %s" % (m, p))
    write_csv(rows, a.csv)
    print("e2e: wrote %s" % os.path.relpath(a.csv, ROOT))
    print("e2e: " + plot(rows, a.png))


if __name__ == "__main__":
    main()
