#!/usr/bin/env python3
"""verify.py: `wherec import --verify`'s other half: each imported kernel against
onnxruntime on the model's own tensors.

`wherec import MODEL.onnx -o SPEC --verify` writes SPEC and its manifest, then runs this
script with the python of $WHEREC_ORT_PYTHON (default python3), which must have
onnxruntime, onnx and numpy. It exposes every tensor a kernel of the model's graph reads or
writes as an output of the model, runs the model in onnxruntime (graph optimizations off,
so it runs the nodes as the model has them) on the inputs given (--input, one .npy per
graph input in order) or made from --seed, then runs each kernel through `wherec run` on
both paths (specialized and --interp) on those tensors and compares its output with
onnxruntime's, bit for bit, else by the largest distance in units in the last place. The
kernels of an If branch (of an If of the model's graph) are checked on that branch run
alone, on the model's tensors it reads; those of Loop and Scan bodies are skipped.

Prints one row per kernel. Exit status: 0 every kernel agrees or differs only where
onnxruntime approximates (the row says which operator); 3 a kernel of exact operators
differs, or the two paths differ; 1 bad input (the model does not run, an --input does not
fit); 4 onnxruntime, onnx or numpy missing, or onnxruntime has no kernel for a node.

usage: verify.py --wherec WHEREC --model M --spec S --manifest J [--input F.npy]...
                 [--seed N] [--work DIR]
"""
import argparse
import os
import subprocess
import sys
import tempfile

EXIT_OK, EXIT_BAD_INPUT, EXIT_MISMATCH, EXIT_TOOLCHAIN = 0, 1, 3, 4

# How onnxruntime's kernel of each operator compares with wherec's form: the operator table
# of `wherec import --list-operators` (operator_table): the operators it approximates where
# wherec is correctly rounded (or computes ONNX's function body from correctly rounded
# parts), and those it computes in another order than ONNX's reference, which wherec follows
# (why, and the output dtypes where it shows; None: every dtype).
APPROXIMATED = set()
REORDERED = {}


def operator_table(wherec):
    """APPROXIMATED and REORDERED from the tool's operator table."""
    import json
    r = subprocess.run([wherec, "import", "--list-operators"], capture_output=True, text=True)
    if r.returncode != 0:
        fail(EXIT_TOOLCHAIN, "%s import --list-operators: %s" % (wherec, r.stderr.strip()))
    for op in json.loads(r.stdout)["operators"]:
        if op["onnxruntime"] == "approximates":
            APPROXIMATED.add(op["name"])
        elif op["onnxruntime"] == "reorders":
            REORDERED[op["name"]] = (op["onnxruntime_note"], tuple(op["onnxruntime_dtypes"]) or None)


NUMPY_DTYPES = {
    "bool": "bool", "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "float16": "float16", "float": "float32", "double": "float64", "bfloat16": "uint16",
    "complex64": "complex64", "complex128": "complex128", "string": "object",
}
ONNX_ELEM = {
    "float": 1, "uint8": 2, "int8": 3, "uint16": 4, "int16": 5, "int32": 6, "int64": 7,
    "string": 8, "bool": 9, "float16": 10, "double": 11, "uint32": 12, "uint64": 13,
    "complex64": 14, "complex128": 15, "bfloat16": 16,
}


def elem_of(np, a):
    """The ONNX elem type of numpy array a (bfloat16 never: numpy has none)."""
    if a.dtype.kind == "O":
        return ONNX_ELEM["string"]
    for name, np_name in NUMPY_DTYPES.items():
        if name != "bfloat16" and np_name != "object" and np.dtype(np_name) == a.dtype:
            return ONNX_ELEM[name]
    return None


def free_names(g, defined=frozenset()):
    """The names g's nodes (and their sub-graphs') read that g does not define: the values
    of the scopes around it, in order of first reading."""
    defined = set(defined) | {t.name for t in g.initializer} | {i.name for i in g.input}
    for n in g.node:
        defined.update(n.output)
    free = []
    for n in g.node:
        reads = list(n.input)
        for a in n.attribute:
            for s in ([a.g] if a.HasField("g") else list(a.graphs)):
                reads += free_names(s, defined)
        free += [x for x in reads if x and x not in defined and x not in free]
    return free


def if_branch(graph, scope):
    """The GraphProto of the If branch a kernel's scope names, when the If is a node of the
    model's graph (its branch runs on the model's tensors), else None."""
    path = scope["path"]
    if len(path) != 1 or path[0]["op_type"] != "If":
        return None
    for a in graph.node[path[0]["node"]].attribute:
        if a.name == path[0]["attribute"] and a.HasField("g"):
            return a.g
    return None


def run_branches(np, onnx, ort, so, model, kernels, values, inits):
    """Each If branch that holds kernels, run on its own as a model whose inputs are the
    values of the model's graph it reads (values: those tensors, from the model's run;
    inits: its initializers) and whose outputs are its kernels' tensors: {branch title:
    its tensors}, whichever way the If went."""
    out = {}
    for k in kernels:
        if k["scope"] is None or k["scope"]["title"] in out:
            continue
        g = if_branch(model.graph, k["scope"])
        free = free_names(g) if g is not None else []
        for x in free:
            if x not in values and x in inits:
                values[x] = onnx.numpy_helper.to_array(inits[x])
        if g is None or any(x not in values for x in free):
            continue
        tensors = [t for kk in kernels if kk["scope"] and kk["scope"]["title"] ==
                   k["scope"]["title"] for t in [p for p in kk["params"] if p["from"] == "node"]
                   + kk["outputs"]]
        names, outs = set(), []
        for t in tensors:
            if t["tensor"] not in names and t["tensor"] not in free:
                names.add(t["tensor"])
                outs.append(onnx.helper.make_tensor_value_info(t["tensor"],
                                                               ONNX_ELEM[t["dtype"]], None))
        ins = [onnx.helper.make_tensor_value_info(x, elem_of(np, values[x]),
                                                  list(values[x].shape)) for x in free]
        sub = onnx.helper.make_graph(list(g.node), g.name or "branch", ins, outs,
                                     initializer=list(g.initializer))
        m = onnx.helper.make_model(sub, opset_imports=list(model.opset_import))
        m.ir_version = model.ir_version
        sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
        got = sess.run([o.name for o in outs], {x: values[x] for x in free})
        mine = {t.name: onnx.numpy_helper.to_array(t) for t in g.initializer}
        mine.update(zip([o.name for o in outs], got))
        out[k["scope"]["title"]] = dict(values, **mine)
    return out


def fail(status, message):
    print("wherec: import --verify: %s" % message, file=sys.stderr)
    sys.exit(status)


def made_input(np, rng, vi, dims_default):
    """Random data for graph input vi: its fixed dims, 1 for a symbolic first dim and
    dims_default for any other symbolic one; values with both signs (floats), small
    integers, both truth values."""
    t = vi.type.tensor_type
    shape = []
    for d, dim in enumerate(t.shape.dim):
        shape.append(dim.dim_value if dim.HasField("dim_value") and dim.dim_value > 0
                     else (1 if d == 0 else dims_default))
    names = {code: name for name, code in ONNX_ELEM.items()}
    if t.elem_type not in names:
        fail(EXIT_BAD_INPUT, "input '%s' has elem type %d: give it with --input"
             % (vi.name, t.elem_type))
    dtype = np.dtype(NUMPY_DTYPES[names[t.elem_type]])
    if dtype.kind == "f":
        return np.asarray(rng.standard_normal(shape) * 2, dtype=dtype)
    if dtype.kind == "b":
        return np.asarray(rng.integers(0, 2, shape), dtype=bool)
    if dtype.kind in "iu":
        lo = 0 if dtype.kind == "u" else -8
        return np.asarray(rng.integers(lo, 9, shape), dtype=dtype)
    if dtype.kind == "O":  # strings, the empty one too
        words = np.array(["", "a", "bc", "where"], dtype=object)
        return words[rng.integers(0, len(words), shape)]
    fail(EXIT_BAD_INPUT, "cannot make input '%s' of %s: give it with --input" % (vi.name, dtype))


def ordered(np, a):
    """Floats (or bfloat16 bits) as integers in the order of their values, -0.0 and +0.0
    both 0, as float64: the distance of two is how many ulps apart they are."""
    width = a.dtype.itemsize
    i = a.view({2: np.int16, 4: np.int32, 8: np.int64}[width]).astype(np.int64)
    mag = i & ((1 << (8 * width - 1)) - 1)
    return np.where(i < 0, -mag, mag).astype(np.float64)


def differing(np, expected, got):
    """Elements whose bytes differ."""
    w = expected.dtype.itemsize
    if expected.dtype.kind == "O" or w not in (1, 2, 4, 8, 16):
        return int(np.count_nonzero(expected != got))
    words = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64, 16: np.uint64}[w]
    e = np.ascontiguousarray(expected).reshape(-1).view(words).reshape(expected.size, -1)
    g = np.ascontiguousarray(got).reshape(-1).view(words).reshape(got.size, -1)
    return int(np.count_nonzero((e != g).any(axis=1)))


def as_float(np, a, bf16):
    """bfloat16 bits (uint16) widened to float32, other arrays as they are."""
    return (a.astype(np.uint32) << 16).view(np.float32) if bf16 else a


def compare(np, expected, got, bf16):
    """(bit-exact?, 'bit-exact' or the largest distance and how many elements differ)."""
    if expected.shape != got.shape or expected.dtype != got.dtype:
        return False, "%s%s, onnxruntime %s%s" % (got.dtype, list(got.shape), expected.dtype,
                                                  list(expected.shape))
    if expected.tobytes() == got.tobytes():
        return True, "bit-exact"
    differ = differing(np, expected, got)
    if expected.dtype.kind == "f" or bf16:
        e, g = as_float(np, expected, bf16), as_float(np, got, bf16)
        one_nan = np.isnan(e) ^ np.isnan(g)
        if one_nan.any():
            return False, "NaN for a number at %d of %d" % (int(one_nan.sum()), e.size)
        dist = np.where(np.isnan(e), 0, np.abs(ordered(np, expected) - ordered(np, got)))
        return False, "%d ulp max, %d of %d differ" % (int(dist.max()), differ, e.size)
    return False, "%d of %d differ" % (differ, expected.size)


def expected_of(np, a, dtype):
    """onnxruntime's tensor as `wherec run` writes it: bfloat16 as its bits, strings as bytes."""
    if dtype == "bfloat16":
        return a.copy(order="C").view(np.uint16)
    if dtype == "string":
        return np.array([s.encode() for s in a.reshape(-1)], dtype=object).astype("S").reshape(a.shape)
    return a


def compare_outputs(np, outs, expected, got):
    """compare() over a kernel's outputs: bit-exact when all are; else the first that
    differs, named when the kernel writes several."""
    for o, e, g in zip(outs, expected, got):
        exact, text = compare(np, e, g, o["dtype"] == "bfloat16")
        if not exact:
            return False, text if len(outs) == 1 else "%s: %s" % (o["name"], text)
    return True, "bit-exact"


def run_kernel(args, kernel, files, outs, interp):
    cmd = [args.wherec, "run", args.spec, kernel] + files
    for o in outs:
        cmd += ["-o", o]
    if interp:
        cmd.append("--interp")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        lines = [l for l in r.stderr.splitlines() if "error" in l] or r.stderr.splitlines()
        return False, (lines[0] if lines else "exit %d" % r.returncode).replace("wherec: ", "")
    return True, None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--wherec", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("--spec", required=True)
    p.add_argument("--manifest", required=True)
    p.add_argument("--input", action="append", default=[])
    p.add_argument("--seed", type=lambda s: int(s, 0), default=1)  # decimal or 0x hex
    p.add_argument("--work")
    args = p.parse_args()
    operator_table(args.wherec)
    try:
        import numpy as np
        import onnx
        import onnxruntime as ort
        from onnx import numpy_helper
    except ImportError as e:
        fail(EXIT_TOOLCHAIN, "needs onnxruntime, onnx and numpy in %s (set WHEREC_ORT_PYTHON "
             "to a python that has them): %s" % (sys.executable, e))
    import json
    with open(args.manifest, encoding="utf-8") as f:
        manifest = json.load(f)
    model = onnx.load(args.model)
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    inputs = [vi for vi in graph.input if vi.name not in inits]

    # every tensor of a kernel of the model's graph, exposed as a graph output, and every
    # value of the model's graph an If branch with kernels reads (typed by inference)
    kernels = manifest["kernels"]
    have = {o.name for o in graph.output} | {vi.name for vi in inputs}
    for k in kernels:
        if k["scope"] is not None:
            continue
        for t in [p for p in k["params"] if p["tensor"] not in inits] + k["outputs"]:
            if t["tensor"] not in have:
                graph.output.append(onnx.helper.make_tensor_value_info(
                    t["tensor"], ONNX_ELEM[t["dtype"]], None))
                have.add(t["tensor"])
    branches = [if_branch(graph, k["scope"]) for k in kernels if k["scope"] is not None]
    if any(branches):
        try:
            inferred = onnx.shape_inference.infer_shapes(model).graph
        except Exception:  # inference is a help only: untyped values are left out
            inferred = graph
        types = {vi.name: vi.type.tensor_type.elem_type
                 for vi in list(inferred.value_info) + list(inferred.output)}
        for g in filter(None, branches):
            for x in free_names(g):
                if x not in have and x not in inits and types.get(x):
                    graph.output.append(onnx.helper.make_tensor_value_info(x, types[x], None))
                    have.add(x)

    # the inputs: given, or made
    if args.input and len(args.input) != len(inputs):
        fail(EXIT_BAD_INPUT, "%d --input files for the model's %d inputs (%s)"
             % (len(args.input), len(inputs), ", ".join(vi.name for vi in inputs)))
    rng = np.random.default_rng(args.seed)
    feeds = {}
    for k, vi in enumerate(inputs):
        feeds[vi.name] = np.load(args.input[k]) if args.input else made_input(np, rng, vi, 32)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 3
    try:
        sess = ort.InferenceSession(model.SerializeToString(), so,
                                    providers=["CPUExecutionProvider"])
        names = [o.name for o in sess.get_outputs()]
        values = dict(zip(names, sess.run(names, feeds)))
    except Exception as e:  # onnxruntime raises its own classes
        first = str(e).splitlines()[0][:300]
        if "NOT_IMPLEMENTED" in first:  # an operator (or opset) onnxruntime has no kernel for
            fail(EXIT_TOOLCHAIN, "onnxruntime cannot run %s (%s)" % (args.model, first))
        fail(EXIT_BAD_INPUT, "onnxruntime cannot run %s on these inputs (%s); give them with "
             "--input" % (args.model, first))
    values.update(feeds)
    try:
        branch_values = run_branches(np, onnx, ort, so, model, kernels, values, inits)
    except Exception as e:  # a branch onnxruntime cannot run alone: its kernels are skipped
        print("wherec: verify: If branches not run (%s)" % str(e).splitlines()[0][:200])
        branch_values = {}
    print("wherec: verify: %s in onnxruntime %s (optimizations off), inputs %s"
          % (args.model, ort.__version__,
             "from " + ", ".join(args.input) if args.input else
             "made from seed %d (%s)" % (args.seed, ", ".join(
                 "%s %s%s" % (n, v.dtype, list(v.shape)) for n, v in feeds.items()))))

    if args.work:
        status = verify(np, numpy_helper, args, kernels, inits, values, branch_values, args.work)
    else:
        with tempfile.TemporaryDirectory(prefix="wherec_verify_") as work:
            status = verify(np, numpy_helper, args, kernels, inits, values, branch_values, work)
    sys.exit(status)


def param_files(np, numpy_helper, k, ki, inits, values, work):
    """One .npy per parameter of kernel k (number ki): its graph tensor from onnxruntime (or
    the initializer), with a per-channel parameter's 1s; bfloat16 as its bits, strings as
    bytes."""
    files = []
    for pi, prm in enumerate(k["params"]):
        t = prm["tensor"]
        a = numpy_helper.to_array(inits[t]) if t in inits else values[t]
        if "tensor_shape" in prm and prm["tensor_shape"] is None:  # flat: its elements
            a = a.reshape(-1)
        elif len(prm["shape"]) > a.ndim:  # a per-channel parameter: [C] as [C,1,...]
            a = a.reshape(a.shape + (1,) * (len(prm["shape"]) - a.ndim))
        a = a.copy(order="C")
        if prm["dtype"] == "bfloat16":
            a = a.view(np.uint16)
        elif prm["dtype"] == "string":
            a = np.array([s.encode() if isinstance(s, str) else s for s in a.reshape(-1)],
                         dtype=object).astype("S").reshape(a.shape)
        path = os.path.join(work, "k%d_p%d.npy" % (ki, pi))
        np.save(path, a)
        files.append(path)
    return files


def why_differs(ops, dtype):
    """The operators of a kernel that onnxruntime does not compute as ONNX defines them
    (in a kernel whose output has dtype), said as a reason; "" when there are none."""
    approx = [o for o in ops if o in APPROXIMATED]
    reordered = [REORDERED[o][0] for o in ops if o in REORDERED and
                 (REORDERED[o][1] is None or dtype in REORDERED[o][1])]
    whys = (["onnxruntime approximates %s" % ", ".join(approx)] if approx else []) + \
        ["onnxruntime %s" % r for r in reordered]
    return "; ".join(whys)


def verify(np, numpy_helper, args, kernels, inits, model_values, branch_values, work):
    """Runs every kernel on both paths, prints the table; the exit status. model_values:
    the tensors of the model's graph; branch_values: those and an If branch's, per branch."""
    rows, status = [], EXIT_OK
    counts = {"exact": 0, "approx": 0, "wrong": 0, "skipped": 0}
    for ki, k in enumerate(kernels):
        ops = []
        for n in k["nodes"]:
            if n["op_type"] not in ops:
                ops.append(n["op_type"])
        row = [k["name"], str(len(k["nodes"])), "", "", "", ""]
        rows.append(row)
        values = model_values
        if k["scope"] is not None:
            values = branch_values.get(k["scope"]["title"])
            if values is None:
                row[5] = "skipped: in %s, whose tensors are no model outputs" % \
                    k["scope"]["title"]
                counts["skipped"] += 1
                continue
        files = param_files(np, numpy_helper, k, ki, inits, values, work)
        outs = k["outputs"]  # the root's, then the values it writes besides
        expected = [expected_of(np, values[o["tensor"]], o["dtype"]) for o in outs]
        row[2] = str(expected[0].size)
        got = {}
        for path_name, interp in (("specialized", False), ("interpreted", True)):
            paths = [os.path.join(work, "k%d_%s_%d.npy" % (ki, path_name, j))
                     for j in range(len(outs))]
            ok, why = run_kernel(args, k["name"], files, paths, interp)
            if not ok:
                row[5] = "skipped: wherec run: %s" % why
                break
            got[path_name] = [np.load(o) for o in paths]
            got[path_name] = [g.reshape(e.shape) if "tensor_shape" in o and o["tensor_shape"] is None
                              and g.size == e.size else g  # a flat output: the vector of its elements
                              for o, e, g in zip(outs, expected, got[path_name])]
        if len(got) < 2:
            counts["skipped"] += 1
            continue
        results = [compare_outputs(np, outs, expected, got[n]) for n in ("specialized",
                                                                          "interpreted")]
        row[3], row[4] = results[0][1], results[1][1]
        dtype = next((o["dtype"] for o, e, g in zip(outs, expected, got["specialized"])
                      if e.tobytes() != g.tobytes()), outs[0]["dtype"])
        if any(a.tobytes() != b.tobytes() for a, b in zip(got["specialized"], got["interpreted"])):
            row[5] = "the two paths differ"
            counts["wrong"] += 1
            status = EXIT_MISMATCH
        elif results[0][0]:
            counts["exact"] += 1
        elif why_differs(ops, dtype):
            row[5] = why_differs(ops, dtype)
            counts["approx"] += 1
        else:
            row[5] = "exact operators only (%s): a wrong result" % ", ".join(ops)
            counts["wrong"] += 1
            status = EXIT_MISMATCH

    head = ["kernel", "nodes", "elements", "specialized", "interpreted", "why"]
    widths = [max(len(r[c]) for r in rows + [head]) for c in range(5)]
    for r in [head] + rows:
        print(("%-*s  %*s  %*s  %-*s  %-*s  %s" % (
            widths[0], r[0], widths[1], r[1], widths[2], r[2], widths[3], r[3],
            widths[4], r[4], r[5])).rstrip())
    print("%d kernels: %d bit-exact, %d differ where onnxruntime approximates, %d wrong, "
          "%d skipped" % (len(kernels), counts["exact"], counts["approx"], counts["wrong"],
                          counts["skipped"]))
    return status


if __name__ == "__main__":
    main()
