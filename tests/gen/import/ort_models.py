#!/usr/bin/env python3
# ort_models.py: the models of models/ through onnxruntime, against the outputs wherec must
# give (output_0.pb, which the onnx_model_* tests hold wherec to), under node_cmp's rule.
#
# Usage: ort_models.py MODELS_DIR. Exit 0: all agree but the deviations listed below;
# 1: a mismatch; 77 (ctest's skip): onnxruntime is not installed here, said on stdout.
# onnxruntime is a test-time oracle only: python3 -m venv build/ort-venv &&
# build/ort-venv/bin/pip install onnxruntime onnx numpy, then configure with
# -DWHEREC_ORT_PYTHON=build/ort-venv/bin/python.
import os
import sys

try:
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import numpy_helper
except ImportError as e:
    print("skipped: onnxruntime, onnx or numpy is not installed for %s (%s)" % (sys.executable, e))
    sys.exit(77)

# Where onnxruntime is known not to give ONNX's exact result, and why.
DEVIATIONS = {
    "elu_selu": "onnxruntime's exp is not correctly rounded (1 ulp on some inputs)",
}
# op_models/: onnxruntime folds BatchNormalization into x * (scale / sqrt(var + epsilon)) +
# (B - mean * that), where ONNX's reference (and wherec) computes scale * (x - mean) /
# sqrt(var + epsilon) + B; that folded form, in float without FMA, reproduces onnxruntime
# bit for bit on the float and double cases (0 of 438 elements differ); on float16 it computes
# in float and rounds once, where the reference rounds each operation to float16.
for _name in ("bn_opset7", "bn_opset7_spatial0", "bn_opset9_rank3", "bn_opset14",
              "bn_opset15_double", "bn_opset15_float16"):
    DEVIATIONS[_name] = ("onnxruntime folds BatchNormalization into a scale and a shift per "
                         "channel; ONNX's reference order rounds differently")
for _name in ("softplus_opset7", "mish_opset18", "gelu_opset20"):
    DEVIATIONS[_name] = ("onnxruntime's exp, log, tanh and erf are approximations (and its Softplus "
                         "a stable rewrite), not ONNX's function body from correctly rounded ones")
DEVIATIONS["sum_mean_opset13_float16"] = (
    "onnxruntime's float16 Sum and Mean add in float and round once; ONNX's reference rounds "
    "each addition to float16")


def read_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def differ(expected, got):
    """Elements whose bits differ; an expected NaN takes any NaN."""
    e = np.ascontiguousarray(expected).reshape(-1)
    g = np.ascontiguousarray(got).reshape(-1)
    if e.dtype != g.dtype or e.size != g.size:
        return e.size or 1
    if e.dtype.kind not in "fiub":
        return int((e != g).sum())
    bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[e.dtype.itemsize]
    bad = e.view(bits) != g.view(bits)
    if e.dtype.kind == "f":
        bad &= ~(np.isnan(e) & np.isnan(g))
    return int(bad.sum())


def main():
    root = sys.argv[1]
    failed = 0
    for name in sorted(os.listdir(root)):
        case = os.path.join(root, name)
        data = os.path.join(case, "test_data_set_0")
        if not os.path.exists(os.path.join(data, "output_0.pb")):
            continue
        model = onnx.load(os.path.join(case, "model.onnx"))
        opset = max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
        if opset < 7:
            print("%s: skipped: onnxruntime runs opset 7 and later only (opset %d)" % (name, opset))
            continue
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        try:
            sess = ort.InferenceSession(model.SerializeToString(), opts,
                                        providers=["CPUExecutionProvider"])
        except Exception as e:  # noqa: BLE001 - onnxruntime's NotImplemented has no stable type
            if "NOT_IMPLEMENTED" not in str(e):
                raise
            print("%s: skipped: onnxruntime has no kernel for it (%s)" % (name, str(e).split(": ")[-1]))
            continue
        feeds = {}
        for i, inp in enumerate(sess.get_inputs()):
            feeds[inp.name] = read_pb(os.path.join(data, "input_%d.pb" % i))
        got = sess.run(None, feeds)[0]
        n = differ(read_pb(os.path.join(data, "output_0.pb")), got)
        if n == 0:
            print("%s: onnxruntime agrees" % name)
        elif name in DEVIATIONS:
            print("%s: onnxruntime differs on %d elements: %s" % (name, n, DEVIATIONS[name]))
        else:
            print("%s: onnxruntime differs on %d elements" % (name, n))
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
