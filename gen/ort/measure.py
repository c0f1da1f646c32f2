#!/usr/bin/env python3
"""measure.py: times each region of an import --ort directory in onnxruntime, alone and
as a wherec kernel, and records in the manifest which is faster.

Run by `wherec import MODEL --ort DIR` with $WHEREC_ORT_PYTHON (onnxruntime >= 1.23, onnx,
numpy). Each kernel of the model's graph becomes a model of its own nodes; its inputs are
the model's own tensors at those points (one run of the model on --input files, else on
inputs made from --seed). Both sessions run one thread with every optimization on, the
same session overhead each; the best of several rounds is kept. Kernels inside If/Loop
bodies are not timed (claim=all claims them). The manifest gains, per timed kernel,
"measured": {"faster", "ort_us", "won", "wherec_us", "with"}; it is rewritten atomically.
Then the whole model is timed with the regions found faster claimed, one thread; while
it is not faster, the half of them with the smallest margins is dropped
("measured_model" holds the last verdict; see check_whole_model).

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
from verify import EXIT_BAD_INPUT, EXIT_TOOLCHAIN, ONNX_ELEM, made_input  # noqa: E402

EP_NAME = "WherecExecutionProvider"


def fail(status, message):
    print("wherec: import --ort: %s" % message, file=sys.stderr)
    sys.exit(status)

# Faster means in all paired rounds but one at most, and by 2% in the median: a tie stays
# with onnxruntime. Were the two equally fast, winning 7 of 8 rounds or more would happen by
# chance 9 times in 256 (a sign test at 3.5%); demanding all 8 left regions 12% faster
# unclaimed when one round of a few runs of milliseconds fell on another process.
ROUNDS = 8
WINS = ROUNDS - 1
MARGIN = 0.98


def paired_us(a, b, feeds, budget=0.12, rounds=ROUNDS, min_runs=3):
    """Each session's median time of one run, in microseconds, and the number of rounds b
    beat a in: rounds of about budget/rounds/2 s each (min_runs runs at least, so that one
    slow run does not decide a round of a region of milliseconds), a's and b's in turn, so
    a change of the machine's load falls on both."""
    for s in (a, b):
        for _ in range(3):
            s.run(None, feeds)
    t = time.perf_counter()
    a.run(None, feeds)
    n = max(min_runs, int(budget / rounds / 2 / max(time.perf_counter() - t, 1e-6)))
    times = ([], [])
    for _ in range(rounds):
        for s, out in zip((a, b), times):
            s.run(None, feeds)  # untimed: the other session's pool threads spin on after its runs
            t = time.perf_counter()
            for _ in range(n):
                s.run(None, feeds)
            out.append((time.perf_counter() - t) / n * 1e6)
    median = [sorted(x)[len(x) // 2] for x in times]
    return median[0], median[1], sum(tb < ta for ta, tb in zip(*times))


def session_pair(ort, model, threads, devices, options):
    """onnxruntime alone and with the provider (its report file emptied first), every
    optimization on."""
    sessions = []
    for provider in (False, True):
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.log_severity_level = 3
        if provider:
            so.add_provider_for_devices(devices, options)
            open(options["report"], "w").close()
        sessions.append(ort.InferenceSession(model, so, providers=None if provider else ["CPUExecutionProvider"]))
    return sessions


def time_region(ort, sub, feeds, devices, options, name):
    """(onnxruntime's time, the provider's, the rounds the provider won, whether it claimed
    the kernel) for region model sub, one thread each, every optimization on."""
    sessions = session_pair(ort, sub, 1, devices, options)
    with open(options["report"]) as f:
        claimed = any(d["kernel"] == name and d["decision"] == "claimed" for d in map(json.loads, f))
    if not claimed:
        return 0.0, float("inf"), 0, False
    return paired_us(sessions[0], sessions[1], feeds) + (True,)


def write_manifest(manifest, path):
    tmp = path + ".tmp%d" % os.getpid()
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)


def check_whole_model(ort, path, feeds, devices, options, manifest, manifest_path, kernels):
    """The whole model with the regions measured faster claimed, against onnxruntime alone, one
    thread each, by the rule a region meets (more threads are left out: two sessions of 2
    threads on a 2-core machine with any other load ran rec at 2.5x its 1-thread time, and
    the rounds said nothing). Each region won
    on its own between its Conv neighbours; the model can still lose: there onnxruntime keeps
    its blocked layout across the convolutions without reordering at the edges of a region
    model, so a region's margin of a few percent can be the reorders' (ResNet-50's two
    Relu+Sum regions, 2.2% and 2.6% faster alone, left the model 0.99x on 1 thread and 0.95x
    on 2; one of 3.7%, 0.98x). While the model loses, the half of the claimed regions with the smallest margins
    is dropped. Writes the manifest each time; the last verdict goes into "measured_model"."""
    def margin(k):
        m = k["measured"]
        return (m["ort_us"] - m["wherec_us"]) / m["ort_us"]
    claimed = sorted((k for k in kernels if k.get("measured", {}).get("faster")), key=margin, reverse=True)
    threads = [1]
    while claimed:
        write_manifest(manifest, manifest_path)
        verdict = {"regions": len(claimed)}
        for t in threads:
            a, b = session_pair(ort, path, t, devices, options)
            t_ort, t_wc, won = paired_us(a, b, feeds, budget=0.5)
            del a, b
            verdict["%dthr" % t] = {"ort_us": round(t_ort, 1), "wherec_us": round(t_wc, 1), "won": won}
            print("wherec: measure: the model with %d regions claimed, %d thread%s: onnxruntime %.1f us, "
                  "with the provider %.1f us, %d of %d rounds won" % (len(claimed), t, "s"[:t > 1], t_ort,
                                                                      t_wc, won, ROUNDS))
            verdict["faster"] = won >= WINS and t_wc < t_ort
            if not verdict["faster"]:
                break
        manifest["measured_model"] = verdict
        if verdict["faster"]:
            break
        keep = len(claimed) // 2
        for k in claimed[keep:]:
            k["measured"]["faster"] = False
            k["measured"]["dropped"] = "the whole model was not faster with it claimed"
        claimed = claimed[:keep]
    write_manifest(manifest, manifest_path)


INSERTED_CAST = "InsertedPrecisionFreeCast_"


def undo_inserted_casts(onnx, path):
    """Takes out the Casts onnxruntime's InsertCastTransformer put around float16 nodes its
    CPU provider runs in float (x -> Cast -> InsertedPrecisionFreeCast_x -> node ->
    InsertedPrecisionFreeCast_y -> Cast -> y): that transformer runs after the graph is
    partitioned, so the graph the provider is handed has the float16 nodes as they were,
    and regions imported with the Casts would not be found there. Every tensor named with
    the prefix gets its name back; the Casts go, and so do the value types of the renamed
    tensors (they said float)."""
    model = onnx.load(path)
    changed = False

    def back(name):
        return name[len(INSERTED_CAST):] if name.startswith(INSERTED_CAST) else name

    def walk(g):
        nonlocal changed
        keep = []
        for n in g.node:
            if n.op_type == "Cast" and n.name.startswith(INSERTED_CAST) and len(n.input) == 1:
                changed = True
                continue
            for i, name in enumerate(n.input):
                n.input[i] = back(name)
            for i, name in enumerate(n.output):
                n.output[i] = back(name)
            for a in n.attribute:
                for sub in list(a.graphs) + ([a.g] if a.HasField("g") else []):
                    walk(sub)
            keep.append(n)
        if len(keep) != len(g.node):
            del g.node[:]
            g.node.extend(keep)
            vis = [vi for vi in g.value_info if not vi.name.startswith(INSERTED_CAST)]
            del g.value_info[:]
            g.value_info.extend(vis)
    walk(model.graph)
    if changed:
        onnx.save(model, path)


def embed_external_data(onnx, path, original):
    """onnxruntime writes the basic model's initializers that were external in the original
    as references to the original's data file, relative to the new file, where there is
    none: the data is read from beside the original and written into the basic model (the
    importer reads no external data)."""
    model = onnx.load(path, load_external_data=False)
    if not any(t.data_location == onnx.TensorProto.EXTERNAL for t in model.graph.initializer):
        return
    from onnx.external_data_helper import load_external_data_for_model
    load_external_data_for_model(model, os.path.dirname(os.path.abspath(original)))
    if model.ByteSize() > 2_000_000_000:
        fail(EXIT_BAD_INPUT, "%s with its external data is over 2 GB, which one ONNX file cannot hold" % original)
    onnx.save(model, path)


def drop_unread_inputs(onnx, path):
    """Removes the graph inputs no node reads any more: onnxruntime keeps a model's old-style
    initializer inputs (an initializer listed as an input too) after folding them away,
    and they would then look like inputs the caller must feed."""
    model = onnx.load(path)
    read = set(o.name for o in model.graph.output)

    def walk(g):
        for n in g.node:
            read.update(n.input)
            for a in n.attribute:
                for sub in list(a.graphs) + ([a.g] if a.HasField("g") else []):
                    walk(sub)
    walk(model.graph)
    kept = [vi for vi in model.graph.input if vi.name in read]
    if len(kept) != len(model.graph.input):
        del model.graph.input[:]
        model.graph.input.extend(kept)
        onnx.save(model, path)


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


# The producers a region is timed with: onnxruntime fuses an activation or an Add into
# them at level 2 (Conv with Relu, Clip, ..., MatMul with Add) and keeps a Conv's output in
# its blocked layout, so a region right after one costs what the fusion saved and the
# reorders, which the region alone would not show.
CONTEXT_OPS = {"Conv", "ConvTranspose", "Gemm", "MatMul"}


def context_nodes(graph, producer, k):
    """(the nodes of CONTEXT_OPS that compute kernel k's parameters, those that read its
    outputs): the region is timed between them."""
    before, after = {}, {}
    for p in k["params"]:
        n = producer.get(p["tensor"])
        if p["from"] == "node" and n is not None and n.op_type in CONTEXT_OPS:
            before[id(n)] = n
    outs = {o["tensor"] for o in k["outputs"]}
    for n in graph.node:
        if n.op_type in CONTEXT_OPS and outs.intersection(n.input):
            after[id(n)] = n
    return list(before.values()), list(after.values())


def region_model(onnx, numpy_helper, model, k, values, inits, contexts):
    """A model of kernel k's nodes between their context nodes: the inputs the model's own
    tensors at that point, constants initializers; its outputs the readers' outputs, else
    the kernel's."""
    graph = model.graph
    before, after = contexts
    context = before + after
    nodes = before + topological([graph.node[n["index"]] for n in k["nodes"]]) + after
    made = {o for n in nodes for o in n.output}
    params = {p["tensor"]: p for p in k["params"]}
    inputs, initializers, feeds = [], [], {}
    for name in dict.fromkeys(i for n in nodes for i in n.input if i and i not in made):
        if name in inits:
            initializers.append(inits[name])
        elif name in params and params[name]["constant"] and name in values:
            initializers.append(numpy_helper.from_array(values[name], name))
        elif name in values and name in params or any(name in n.input for n in context):
            if name not in values:
                return None, None
            elem = onnx.helper.np_dtype_to_tensor_dtype(values[name].dtype)
            inputs.append(onnx.helper.make_tensor_value_info(name, elem, list(values[name].shape)))
            feeds[name] = values[name]
        elif name in values:
            initializers.append(numpy_helper.from_array(values[name], name))
        else:
            return None, None
    elem = ONNX_ELEM[k["outputs"][0]["dtype"]]  # a Conv's, a MatMul's: its input's dtype
    outputs = [onnx.helper.make_tensor_value_info(o, elem, None) for n in after for o in n.output if o] or \
        [onnx.helper.make_tensor_value_info(o["tensor"], ONNX_ELEM[o["dtype"]], None) for o in k["outputs"]]
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
        embed_external_data(onnx, args.optimize, args.model)
        drop_unread_inputs(onnx, args.optimize)
        undo_inserted_casts(onnx, args.optimize)
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
    producer = {o: n for n in graph.node for o in n.output}
    contexts = {k["name"]: context_nodes(graph, producer, k) for k in kernels}
    wanted = {p["tensor"]: ONNX_ELEM[p["dtype"]] for k in kernels for p in k["params"] if p["tensor"] not in inits}
    if any(b for b, _ in contexts.values()):  # the context's inputs, typed by ONNX's inference
        try:
            inferred = onnx.shape_inference.infer_shapes(model).graph
        except Exception:  # inference is a help only: contexts without types are dropped
            inferred = graph
        types = {vi.name: vi.type.tensor_type.elem_type for vi in
                 list(inferred.value_info) + list(inferred.input) + list(inferred.output)}
        for name, (before, after) in contexts.items():
            reads = [i for n in before for i in n.input if i and i not in inits]
            if all(types.get(i) for i in reads):
                wanted.update({i: types[i] for i in reads})
            else:
                contexts[name] = ([], after)
    wanted.update({t["tensor"]: ONNX_ELEM[t["dtype"]] for k in kernels for t in k["literals"] + k["baked"]
                   if t["tensor"] not in inits})
    have = {o.name for o in graph.output} | {vi.name for vi in inputs}
    for name, dtype in wanted.items():
        if name not in have:
            graph.output.append(onnx.helper.make_tensor_value_info(name, dtype, None))
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
            sub, sub_feeds = region_model(onnx, numpy_helper, model, k, values, inits, contexts[k["name"]])
            if sub is None:
                print("%-40s %10s %10s  no (its inputs were not computed)" % (k["name"], "-", "-"))
                continue
            try:
                t_ort, t_wc, won, claimed = time_region(ort, sub, sub_feeds, devices, {
                    "manifest": os.path.abspath(manifest_path),
                    "kernels": os.path.abspath(os.path.join(args.dir, "kernels.so")),
                    "claim": "all", "report": report, "only": k["name"]}, k["name"])
            except Exception as e:  # a region onnxruntime cannot run alone stays untimed
                print("%-40s %10s %10s  no (%s)" % (k["name"], "-", "-", str(e).splitlines()[0][:120]))
                continue
            faster = claimed and won >= WINS and t_wc < MARGIN * t_ort
            k["measured"] = {"faster": faster, "ort_us": round(t_ort, 3), "won": won,
                             "wherec_us": round(t_wc, 3) if claimed else -1.0,
                             "with": [n.op_type for c in contexts[k["name"]] for n in c]}
            print("%-40s %10.2f %10s  %s" % (k["name"], t_ort, "%.2f" % t_wc if claimed else "-",
                                             "yes" if faster else "no" if claimed else "no (not found)"))
        model_feeds = {vi.name: feeds[vi.name] for vi in inputs}
        check_whole_model(ort, args.model, model_feeds, devices, {
            "manifest": os.path.abspath(manifest_path),
            "kernels": os.path.abspath(os.path.join(args.dir, "kernels.so")),
            "claim": "measured", "report": report}, manifest, manifest_path, kernels)
    n = sum(1 for k in kernels if k.get("measured", {}).get("faster"))
    print("wherec: measure: %d of %d kernels faster than onnxruntime; wrote %s" % (n, len(kernels), manifest_path))


if __name__ == "__main__":
    main()
