#!/usr/bin/env python3
"""measure.py: times each region of an import --ort directory in onnxruntime, alone and
as a wherec kernel, and records in the manifest which is faster.

Run by `wherec import MODEL --ort DIR` with $WHEREC_ORT_PYTHON (onnxruntime >= 1.23, onnx,
numpy). Each kernel of the model's graph becomes a model of its own nodes; its inputs are
the model's own tensors at those points (one run of the model on --input files, else on
inputs made from --seed). Both sessions run one thread with every optimization on, the
same session overhead each; the best of several rounds is kept. Kernels inside If/Loop
bodies are not timed (claim=all claims them). The manifest gains, per timed kernel,
"measured": {"faster", "ort_us", "wherec_us"}; it is rewritten atomically.

usage: measure.py --model M --dir DIR --ep-library LIB [--input IN.npy]... [--seed S]
       measure.py --model M --optimize OUT.onnx
The second form writes the model as onnxruntime sees it after its basic (level 1)
rewrites (Conv with BatchNormalization or a bias Add fused, Identity removed, constants
folded): the graph the provider is handed, which `import --ort` then imports.
"""
import argparse
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "import"))
from verify import EXIT_BAD_INPUT, EXIT_TOOLCHAIN, ONNX_ELEM, fail, made_input  # noqa: E402

EP_NAME = "WherecExecutionProvider"


def best_us(sess, feeds, budget=0.06):
    """The fastest round's time of one run, in microseconds: rounds of about budget/6 s."""
    for _ in range(3):
        sess.run(None, feeds)
    t = time.perf_counter()
    sess.run(None, feeds)
    one = max(time.perf_counter() - t, 1e-6)
    n = max(1, int(budget / 6 / one))
    best = float("inf")
    for _ in range(6):
        t = time.perf_counter()
        for _ in range(n):
            sess.run(None, feeds)
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6


def topological(nodes):
    """The nodes in an order where each comes after the producers of its inputs."""
    made = {o for n in nodes for o in n.output}
    done, out, left = set(), [], list(nodes)
    while left:
        ready = [n for n in left if all(i not in made or i in done for i in n.input)]
        if not ready:
            return nodes
        for n in ready:
            out.append(n)
            done.update(n.output)
            left.remove(n)
    return out


def region_model(onnx, numpy_helper, model, k, values, inits):
    """A model of kernel k's nodes alone: parameters become inputs, constants initializers."""
    graph = model.graph
    nodes = topological([graph.node[n["index"]] for n in k["nodes"]])
    made = {o for n in nodes for o in n.output}
    params = {p["tensor"]: p for p in k["params"]}
    inputs, initializers, feeds = [], [], {}
    for name in dict.fromkeys(i for n in nodes for i in n.input if i and i not in made):
        if name in params and not params[name]["constant"]:
            inputs.append(onnx.helper.make_tensor_value_info(
                name, ONNX_ELEM[params[name]["dtype"]], list(values[name].shape)))
            feeds[name] = values[name]
        elif name in inits:
            initializers.append(inits[name])
        elif name in values:
            initializers.append(numpy_helper.from_array(values[name], name))
        else:
            return None, None
    outputs = [onnx.helper.make_tensor_value_info(o["tensor"], ONNX_ELEM[o["dtype"]], None)
               for o in k["outputs"]]
    g = onnx.helper.make_graph(nodes, k["name"], inputs, outputs, initializer=initializers)
    sub = onnx.helper.make_model(g, opset_imports=model.opset_import, ir_version=model.ir_version)
    return sub.SerializeToString(), feeds


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--model", required=True)
    p.add_argument("--dir")
    p.add_argument("--ep-library")
    p.add_argument("--optimize")
    p.add_argument("--input", action="append", default=[])
    p.add_argument("--seed", type=lambda s: int(s, 0), default=1)
    args = p.parse_args()
    try:
        import numpy as np
        import onnx
        import onnxruntime as ort
        from onnx import numpy_helper
    except ImportError as e:
        fail(EXIT_TOOLCHAIN, "needs onnxruntime, onnx and numpy in %s: %s" % (sys.executable, e))
    if not hasattr(ort, "register_execution_provider_library"):
        fail(EXIT_TOOLCHAIN, "onnxruntime %s has no plugin execution providers (1.23 and later "
             "have)" % ort.__version__)
    if args.optimize:
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        so.optimized_model_filepath = args.optimize
        so.log_severity_level = 3
        try:
            ort.InferenceSession(args.model, so, providers=["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime raises its own classes
            fail(EXIT_BAD_INPUT, "onnxruntime cannot load %s (%s)" % (args.model, str(e).splitlines()[0][:300]))
        return
    if not args.dir or not args.ep_library:
        fail(EXIT_BAD_INPUT, "--dir and --ep-library are required to measure")
    manifest_path = os.path.join(args.dir, "kernels.where.json")
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)
    model = onnx.load(args.model)
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    inputs = [vi for vi in graph.input if vi.name not in inits]
    kernels = [k for k in manifest["kernels"] if k["scope"] is None]

    # the model's own tensors at every kernel's edge
    wanted = {p["tensor"]: p["dtype"] for k in kernels for p in k["params"] if p["tensor"] not in inits}
    wanted.update({t["tensor"]: t["dtype"] for k in kernels for t in k["literals"] + k["baked"]
                   if t["tensor"] not in inits})
    have = {o.name for o in graph.output} | {vi.name for vi in inputs}
    for name, dtype in wanted.items():
        if name not in have:
            graph.output.append(onnx.helper.make_tensor_value_info(name, ONNX_ELEM[dtype], None))
    if args.input and len(args.input) != len(inputs):
        fail(EXIT_BAD_INPUT, "%d --input files for the model's %d inputs" % (len(args.input), len(inputs)))
    rng = np.random.default_rng(args.seed)
    feeds = {vi.name: np.load(args.input[i]) if args.input else made_input(np, rng, vi, 32)
             for i, vi in enumerate(inputs)}
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 3
    try:
        sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        names = [o.name for o in sess.get_outputs()]
        values = dict(zip(names, sess.run(names, feeds)))
    except Exception as e:  # onnxruntime raises its own classes
        fail(EXIT_BAD_INPUT, "onnxruntime cannot run %s (%s)" % (args.model, str(e).splitlines()[0][:300]))
    values.update(feeds)

    ort.register_execution_provider_library("wherec-measure", os.path.abspath(args.ep_library))
    devices = [d for d in ort.get_ep_devices() if d.ep_name == EP_NAME]
    print("wherec: measure: %d kernels of %s, one thread, onnxruntime %s" %
          (len(kernels), args.model, ort.__version__))
    print("%-40s %10s %10s  %s" % ("kernel", "ort us", "wherec us", "claim"))
    with tempfile.TemporaryDirectory(prefix="wherec_measure_") as work:
        report = os.path.join(work, "report.jsonl")
        for k in kernels:
            sub, sub_feeds = region_model(onnx, numpy_helper, model, k, values, inits)
            if sub is None:
                print("%-40s %10s %10s  no (its inputs were not computed)" % (k["name"], "-", "-"))
                continue
            base = ort.SessionOptions()
            base.intra_op_num_threads = 1
            base.log_severity_level = 3
            alone = ort.InferenceSession(sub, base, providers=["CPUExecutionProvider"])
            with_ep = ort.SessionOptions()
            with_ep.intra_op_num_threads = 1
            with_ep.log_severity_level = 3
            with_ep.add_provider_for_devices(devices, {
                "manifest": os.path.abspath(manifest_path),
                "kernels": os.path.abspath(os.path.join(args.dir, "kernels.so")),
                "claim": "all", "report": report, "only": k["name"]})
            open(report, "w").close()
            ours = ort.InferenceSession(sub, with_ep)
            with open(report) as f:
                claimed = any(json.loads(line)["kernel"] == k["name"] and
                              json.loads(line)["decision"] == "claimed" for line in f)
            t_ort = best_us(alone, sub_feeds)
            t_wc = best_us(ours, sub_feeds) if claimed else float("inf")
            faster = claimed and t_wc < t_ort
            k["measured"] = {"faster": faster, "ort_us": round(t_ort, 3),
                             "wherec_us": round(t_wc, 3) if claimed else -1.0}
            print("%-40s %10.2f %10s  %s" % (k["name"], t_ort, "%.2f" % t_wc if claimed else "-",
                                             "yes" if faster else "no" if claimed else "no (not found)"))
    tmp = manifest_path + ".tmp%d" % os.getpid()
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, manifest_path)
    n = sum(1 for k in kernels if k.get("measured", {}).get("faster"))
    print("wherec: measure: %d of %d kernels faster than onnxruntime; wrote %s" % (n, len(kernels), manifest_path))


if __name__ == "__main__":
    main()
