#!/usr/bin/env python3
"""check_manifest.py: wherec import's manifest against its spec, model by model.

For every model.onnx under the directories given (or every .onnx file given), imports it
twice into a temporary directory and checks that the manifest is valid JSON, the same
bytes both times, and says what the spec says: the same kernels in the same order, each
parameter's name, dtype and shape as the kernel declares it, extents in the order of
first appearance, the output's dtype; that a flat kernel (a tensor of a shape unknown at import, read as its elements) reads
scalars besides it and writes flat outputs; and that it names real graph tensors: every node
output the kernel holds is no parameter of it, and the output is its root node's.

usage: check_manifest.py WHEREC MODEL_DIR_OR_FILE...   (python standard library only)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

KERNEL = re.compile(r"^kernel ([A-Za-z_][A-Za-z0-9_]*)\((.*?)\)(?: = | -> \(([A-Za-z0-9_]+)\))",
                    re.M)
PARAM = re.compile(r"([A-Za-z_][A-Za-z0-9_]*): ([a-z0-9]+)\[([^\]]*)\]")


def models(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for d in sorted(os.listdir(p)):
            m = os.path.join(p, d, "model.onnx")
            if os.path.isfile(m):
                yield m


def shape_text(shape):
    return ",".join(str(d) for d in shape)


def check(wherec, model, work):
    spec = os.path.join(work, "m.where")
    texts = []
    for _ in range(2):
        r = subprocess.run([wherec, "import", model, "-o", spec], capture_output=True, text=True)
        if r.returncode != 0:
            return ["import failed (%d): %s" % (r.returncode, r.stderr.strip()[-300:])]
        with open(spec + ".json", "rb") as f:
            texts.append(f.read())
    errors = []
    if texts[0] != texts[1]:
        errors.append("two imports gave different manifests")
    man = json.loads(texts[0].decode("utf-8"))
    with open(spec) as f:
        kernels = KERNEL.findall(f.read())
    if man.get("format") != "wherec-import-manifest" or man.get("version") != 3:
        errors.append("format/version: %r %r" % (man.get("format"), man.get("version")))
    if man.get("spec") != spec:
        errors.append("spec %r, expected %r" % (man.get("spec"), spec))
    names = [k["name"] for k in man["kernels"]]
    if names != [k[0] for k in kernels]:
        errors.append("kernels %s, the spec has %s" % (names, [k[0] for k in kernels]))
        return errors
    for k, (name, params, out_name) in zip(man["kernels"], kernels):
        declared = PARAM.findall(params)
        got = [(p["name"], p["dtype"], shape_text(p["shape"])) for p in k["params"]]
        if got != declared:
            errors.append("%s: params %s, the spec declares %s" % (name, got, declared))
        order = []
        for _, _, dims in declared:
            for d in filter(None, dims.split(",")):
                if not d.isdigit() and d not in order:
                    order.append(d)
        if [e["name"] for e in k["extents"]] != order:
            errors.append("%s: extents %s, expected %s" % (name, k["extents"], order))
        flat = [p for p in k["params"] + k["outputs"] if "tensor_shape" in p and p["tensor_shape"] is None]
        if flat and (len(k["extents"]) != 1 or k["extents"][0]["dim"] is not None or
                     any(p["shape"] != [k["extents"][0]["name"]] for p in flat) or
                     any(p["shape"] != [] for p in k["params"] if p not in flat) or
                     any(o not in flat for o in k["outputs"])):
            errors.append("%s: a flat kernel (tensor_shape null) whose other parameters are no "
                          "scalars, or whose outputs or extents are not flat: %s" % (name, k))
        produced = {o for n in k["nodes"] for o in n["outputs"]}
        for p in k["params"]:
            if p["tensor"] in produced:
                errors.append("%s: parameter %s is computed by the kernel" % (name, p["tensor"]))
        for lit in k["literals"]:
            if lit["tensor"] in produced:
                errors.append("%s: literal %s is computed by the kernel" % (name, lit["tensor"]))
        outs = k["outputs"]
        if len(outs) != 1 or outs[0]["name"] != (out_name or "out"):
            errors.append("%s: outputs %s, the spec's %r" % (name, outs, out_name or "out"))
        elif outs[0]["tensor"] not in k["nodes"][0]["outputs"]:
            errors.append("%s: output %s is not the root's" % (name, outs[0]["tensor"]))
    return errors


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    wherec, failed, n = sys.argv[1], 0, 0
    with tempfile.TemporaryDirectory() as work:
        for model in models(sys.argv[2:]):
            n += 1
            errors = check(wherec, model, work)
            for e in errors:
                print("%s: %s" % (model, e))
            failed += bool(errors)
    print("check_manifest.py: %d models, %d with a manifest that disagrees" % (n, failed))
    sys.exit(1 if failed or n == 0 else 0)


if __name__ == "__main__":
    main()
