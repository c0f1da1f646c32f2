#!/usr/bin/env python3
"""bench/ep_models.py: the execution provider on models nobody tuned it on, as a user would
run it: every graph of the onnx wheel's pytorch-converted, pytorch-operator and light/
sets, the six graphs of the silero-vad wheel, the PP-OCR models, and the exported YOLO and
transformer when build/models has them.

Per model, in a child process of its own (a crash loses that model only, and is counted):
1. `wherec import MODEL --ort build/ep_models/<name>/` on the case's own inputs (the
   pytorch cases' test_data_set_0) or seeded ones (named dimensions 1 first, else 32), with
   $WHEREC_ORT_PYTHON set to this python so the regions are measured (--no-import: reuse);
2. three sessions at ORT_ENABLE_ALL, one thread: onnxruntime alone; + the provider with
   claim=measured; + claim=all with check=1, where every claimed call is compared with
   wherec's reference on the very tensors onnxruntime handed it and a differing byte fails
   the run;
3. the outputs against onnxruntime alone (largest absolute difference) and, as the scale of
   onnxruntime's own rounding, onnxruntime at ORT_DISABLE_ALL against ORT_ENABLE_ALL.

A model fails when a session cannot be made or run with the provider though it can without,
when check=1 finds a difference, or when claim=measured differs from onnxruntime alone by
more than onnxruntime's two levels do (and more than 1e-5 relative to the output's scale).
Prints one line per model and a summary; writes bench/ep_models.csv.

usage: build/ort-venv/bin/python bench/ep_models.py [--only SUBSTR] [--no-import] [--csv F]
Needs build/gen/wherec and build/ep/libwherec_ep.so.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import e2e  # noqa: E402
import models  # noqa: E402

SILERO_GRAPHS = re.compile(r"silero_vad/data/[^/]+\.onnx$")
PYTORCH_CASES = re.compile(r"onnx/backend/test/data/pytorch-(operator|converted)/[^/]+/model\.onnx$")
ROUNDING_FLOOR = 1e-5  # relative to the outputs' largest magnitude


def silero_wheel(dest):
    saved = dict(models.PACKAGES)
    models.PACKAGES.clear()
    models.PACKAGES["silero"] = e2e.SILERO
    try:
        return models.fetch(dest)["silero"]
    except SystemExit:
        return None
    finally:
        models.PACKAGES.clear()
        models.PACKAGES.update(saved)


def all_models(dest):
    """[(name, path, [input .pb files] or None)]."""
    wheels = models.fetch(dest)
    out = []
    for name, pkg, member in models.MODELS:
        out.append((name.replace(" ", "_"), models.extract(wheels[pkg], member, dest), None))
    with zipfile.ZipFile(wheels["onnx"]) as z:
        names = z.namelist()
    for member in sorted(n for n in names if PYTORCH_CASES.search(n)):
        case = os.path.dirname(member)
        pbs = sorted(n for n in names if n.startswith(case + "/test_data_set_0/input_"))
        path = models.extract(wheels["onnx"], member, dest)
        out.append((case.split("/")[-2][8:] + "/" + case.split("/")[-1], path,
                    [models.extract(wheels["onnx"], p, dest) for p in pbs]))
    wheel = silero_wheel(dest)
    if wheel:
        with zipfile.ZipFile(wheel) as z:
            for member in sorted(n for n in z.namelist() if SILERO_GRAPHS.search(n)):
                out.append(("silero/" + os.path.basename(member)[:-5], models.extract(wheel, member, dest), None))
    for f in ("yolo_silu.onnx", "transformer_encoder.onnx"):
        if os.path.exists(os.path.join(dest, f)):
            out.append((f[:-5], os.path.join(dest, f), None))
    tv = os.path.join(dest, "torchvision")  # export_models.py --torchvision
    for f in sorted(os.listdir(tv)) if os.path.isdir(tv) else []:
        if f.endswith(".onnx"):
            out.append(("torchvision/" + f[:-5], os.path.join(tv, f), None))
    return out


def inputs_for(np, path, pbs, d):
    """([.npy files in graph order], {name: array})."""
    inputs = [(name, dtype, dims) for name, dtype, dims in e2e.graph_inputs(path)]
    if pbs is None:
        shapes = {"input": (1, 576), "state": (2, 1, 128)} if "silero" in path else {}
        feeds, files, _ = e2e.make_inputs(np, path, shapes, 1, os.path.join(d, "inputs"))
        return files, feeds
    import onnx
    from onnx import numpy_helper
    os.makedirs(os.path.join(d, "inputs"), exist_ok=True)
    files, feeds = [], {}
    for i, ((name, _, _), pb) in enumerate(zip(inputs, pbs)):
        a = numpy_helper.to_array(onnx.load_tensor(pb))
        fn = os.path.join(d, "inputs", "%02d.npy" % i)
        np.save(fn, a)
        files.append(fn)
        feeds[name] = a
    return files, feeds


def child(a):
    import numpy as np
    import onnxruntime as ort
    ort.set_default_logger_severity(3)
    d = a.child_dir
    path = a.child_model
    with open(os.path.join(d, "feeds.json")) as f:
        feeds = {n: np.load(fn) for n, fn in json.load(f).items()}
    res = {}
    ort.register_execution_provider_library("wherec", os.path.abspath(a.ep))
    devices = [x for x in ort.get_ep_devices() if x.ep_name == e2e.EP_NAME]

    def make(policy, level=None, check=False):
        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        so.log_severity_level = 3
        so.graph_optimization_level = level if level is not None else ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if policy == "alone":
            return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
        opts = {"manifest": os.path.join(d, "kernels.where.json"), "kernels": os.path.join(d, "kernels.so"),
                "claim": policy, "report": os.path.join(d, "report-%s.jsonl" % policy)}
        if os.path.exists(opts["report"]):
            os.remove(opts["report"])  # the provider appends
        if check:
            opts["check"] = "1"
        so.add_provider_for_devices(devices, opts)
        return ort.InferenceSession(path, so)

    alone = make("alone")
    names = [o.name for o in alone.get_outputs()]
    base = alone.run(names, feeds)
    o0 = make("alone", ort.GraphOptimizationLevel.ORT_DISABLE_ALL).run(names, feeds)
    res["levels"] = e2e.worst([e2e.max_abs(np, x, y) for x, y in zip(base, o0)])
    res["scale"] = max([float(np.nanmax(np.abs(np.asarray(y, np.float64))))
                        for y in base if np.asarray(y).size and np.asarray(y).dtype.kind in "fiub"] + [0.0])
    for policy, check in (("measured", False), ("all", True)):
        t0 = time.perf_counter()
        try:
            s = make(policy, check=check)
            out = s.run(names, feeds)
        except Exception as e:  # onnxruntime raises its own classes
            res[policy] = {"error": str(e).splitlines()[0][:300]}
            continue
        by, why, nf = e2e.read_report(os.path.join(d, "report-%s.jsonl" % policy))
        claims = 0
        with open(os.path.join(d, "report-%s.jsonl" % policy)) as f:
            claims = sum(json.loads(line)["decision"] == "claimed" for line in f)
        res[policy] = {"claimed": claims, "diff": e2e.worst([e2e.max_abs(np, x, y) for x, y in zip(out, base)]),
                       "s": time.perf_counter() - t0,
                       "refused": len(by.get("refused", [])), "why": list(why.values())[:1]}
    print(json.dumps(res))
    return 0


def verdict(r):
    """'' when the model passes, else what failed."""
    if "error" in r:
        return r["error"]
    bad = []
    for policy in ("measured", "all"):
        p = r.get(policy, {})
        if "error" in p:
            bad.append("%s: %s" % (policy, p["error"]))
    m = r.get("measured", {}).get("diff")
    if isinstance(m, str) or (m is not None and m != m):
        bad.append("measured: output %s" % m)
    elif m and m > max(r["levels"] if isinstance(r["levels"], float) else 0.0, ROUNDING_FLOOR * r["scale"]):
        bad.append("measured: differs by %.3g, onnxruntime's levels by %s" % (m, r["levels"]))
    return "; ".join(bad)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="models whose name holds this")
    ap.add_argument("--no-import", action="store_true", help="reuse build/ep_models/<name>/")
    ap.add_argument("--ep", default=os.path.join(ROOT, "build/ep/libwherec_ep.so"))
    ap.add_argument("--wherec", default=os.path.join(ROOT, "build/gen/wherec"))
    ap.add_argument("--dir", default=os.path.join(ROOT, "build/models"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build/ep_models"))
    ap.add_argument("--csv", default=os.path.join(HERE, "ep_models.csv"))
    ap.add_argument("--child-dir")
    ap.add_argument("--child-model")
    a = ap.parse_args()
    if a.child_dir:
        return child(a)
    import numpy as np
    import onnxruntime as ort
    ort.set_default_logger_severity(3)
    rows = []
    env = dict(os.environ, WHEREC_ORT_PYTHON=sys.executable)
    t_start = time.time()
    for name, path, pbs in all_models(a.dir):
        if a.only not in name:
            continue
        d = os.path.join(a.out, re.sub(r"[^\w.-]", "_", name))
        os.makedirs(d, exist_ok=True)
        r = {"model": name, "ort": ort.__version__}
        files, feeds = inputs_for(np, path, pbs, d)
        with open(os.path.join(d, "feeds.json"), "w") as f:
            json.dump({n: fn for n, fn in zip(feeds, files)}, f)
        try:
            ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(None, feeds)
        except Exception as e:  # onnxruntime raises its own classes
            r["import"] = "onnxruntime alone cannot run it: %s" % str(e).splitlines()[0][:150]
        if "import" in r:
            pass
        elif not a.no_import or not os.path.exists(os.path.join(d, "kernels.so")):
            p = subprocess.run([a.wherec, "import", path, "--ort", d] + sum((["--input", fn] for fn in files), []),
                               capture_output=True, text=True, env=env)
            if p.returncode != 0:
                tail = (p.stderr or p.stdout).strip().splitlines()[-1:] or ["(no output)"]
                r["import"] = "exit %d: %s" % (p.returncode, tail[0][:200])
        if "import" not in r:
            with open(os.path.join(d, "kernels.where.json")) as f:
                r["kernels"] = len(json.load(f)["kernels"])
            p = subprocess.run([sys.executable, os.path.abspath(__file__), "--child-dir", d, "--child-model", path,
                                "--ep", a.ep], capture_output=True, text=True)
            if p.returncode != 0 or not p.stdout.strip():
                r["error"] = "child exit %d: %s" % (p.returncode, (p.stderr.strip().splitlines() or ["?"])[-1][:200])
            else:
                r.update(json.loads(p.stdout.strip().splitlines()[-1]))
            r["verdict"] = verdict(r)
        rows.append(r)
        m, al = r.get("measured", {}), r.get("all", {})
        print("ep_models: %-55s %s" % (name, r["import"] if "import" in r else "%2d kernels, claimed %2s / %2s, diff %s / %s %s" % (
            r["kernels"], m.get("claimed", "-"), al.get("claimed", "-"), m.get("diff", "-"), al.get("diff", "-"),
            "ok" if not r["verdict"] else "FAILED: " + r["verdict"])))
        sys.stdout.flush()
    ran = [r for r in rows if "verdict" in r]
    failed = [r for r in ran if r["verdict"]]
    print("ep_models: onnxruntime %s, %d models in %.0f s: %d imported with kernels (%d without a region or "
          "not imported), %d passed, %d failed; regions claimed: %d with claim=measured, %d with claim=all, "
          "every claimed call checked against the reference" % (
              ort.__version__, len(rows), time.time() - t_start, len(ran), len(rows) - len(ran),
              len(ran) - len(failed), len(failed), sum(r.get("measured", {}).get("claimed", 0) for r in ran),
              sum(r.get("all", {}).get("claimed", 0) for r in ran)))
    with open(a.csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["model", "ort", "kernels", "claimed_measured", "claimed_all", "diff_measured", "diff_all",
                    "ort_levels_diff", "verdict", "import"])
        for r in rows:
            w.writerow([r["model"], r["ort"], r.get("kernels", ""), r.get("measured", {}).get("claimed", ""),
                        r.get("all", {}).get("claimed", ""), r.get("measured", {}).get("diff", ""),
                        r.get("all", {}).get("diff", ""), r.get("levels", ""), r.get("verdict", ""),
                        r.get("import", "")])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
