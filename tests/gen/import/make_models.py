#!/usr/bin/env python3
# make_models.py: writes the ONNX test models of tests/onnx/models in the backend test layout
# (<case>/model.onnx, <case>/test_data_set_0/input_N.pb, output_0.pb); test-time only.
#
# Needs the onnx package; the expected outputs come from onnxruntime when it is
# installed (the reference wherec must match bit for bit), else from onnx's
# ReferenceEvaluator. Usage: python3 tests/onnx/make_models.py [OUT_DIR]
import os
import shutil
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

OPSET = 17
IR_VERSION = 8                      # old enough for every onnxruntime in use

try:
    import onnxruntime as ort
except ImportError:                 # pragma: no cover - depends on the machine
    ort = None


def f32(*bits):
    """float32 values from their bit patterns (NaN payloads survive)."""
    return np.array(bits, dtype=np.uint32).view(np.float32)


EDGE = np.concatenate([
    np.array([-0.0, 0.0, 1.5, -1.5, np.inf, -np.inf, 3e-45, -3e-45, 0.1, -2.25, 7.0, -0.5],
             dtype=np.float32),
    f32(0x7fc00000, 0xffc00001, 0x7fa00000 | 0x400000, 0xfff00000),
])


def edge(shape, seed):
    """float32 values of the shape drawn from the edge cases (NaNs, -0.0, infs, subnormals)."""
    rng = np.random.default_rng(seed)
    return EDGE[rng.integers(0, len(EDGE), size=shape)].reshape(shape)


def vi(name, elem, shape):
    return h.make_tensor_value_info(name, elem, shape)


def scalar(name, value, dtype):
    return numpy_helper.from_array(np.array(value, dtype=dtype), name)


def evaluate(model, feeds):
    if ort is not None:
        # no graph rewrites: the reference is each operator's own kernel
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        sess = ort.InferenceSession(model.SerializeToString(), opts,
                                    providers=["CPUExecutionProvider"])
        return sess.run(None, feeds)
    from onnx.reference import ReferenceEvaluator
    return ReferenceEvaluator(model).run(None, feeds)


def write_case(out_dir, name, nodes, inputs, outputs, feeds, initializers=(), value_info=(),
               run=True, opset=OPSET, expect=None):
    """expect(feeds) gives the expected outputs where neither onnxruntime nor onnx's
    reference computes them as ONNX defines them (exp correctly rounded)."""
    graph = h.make_graph(nodes, name, inputs, outputs, initializer=list(initializers),
                         value_info=list(value_info))
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)],
                         producer_name="wherec-tests")
    model.ir_version = IR_VERSION if opset >= 7 else 3
    onnx.checker.check_model(model)
    case = os.path.join(out_dir, name)
    os.makedirs(case, exist_ok=True)
    onnx.save(model, os.path.join(case, "model.onnx"))
    if not run:
        return
    data = os.path.join(case, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    for i, (vin, arr) in enumerate(zip(inputs, feeds)):
        with open(os.path.join(data, "input_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(arr, vin.name).SerializeToString())
    if expect is not None:
        results = expect(feeds)
    elif opset < 7:                 # onnxruntime runs opset 7 and later only
        from onnx.reference import ReferenceEvaluator
        results = ReferenceEvaluator(model).run(None, {vin.name: arr
                                                       for vin, arr in zip(inputs, feeds)})
    else:
        results = evaluate(model, {vin.name: arr for vin, arr in zip(inputs, feeds)})
    for i, (vout, arr) in enumerate(zip(outputs, results)):
        with open(os.path.join(data, "output_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(np.asarray(arr), vout.name).SerializeToString())


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "models")
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    F, B, I64 = T.FLOAT, T.BOOL, T.INT64

    # Where with broadcasting of all three inputs
    write_case(out_dir, "where_broadcast",
               [h.make_node("Where", ["condition", "x", "y"], ["out"])],
               [vi("condition", B, [2, 1]), vi("x", F, [2, 3]), vi("y", F, [1, 3])],
               [vi("out", F, [2, 3])],
               [np.array([[True], [False]]), edge((2, 3), 1), edge((1, 3), 2)])

    # NonZero of a float tensor: NaN counts, -0.0 does not
    x = edge((3, 4), 3)
    x[0, 0], x[1, 2] = 0.0, -0.0
    write_case(out_dir, "nonzero",
               [h.make_node("NonZero", ["x"], ["out"])],
               [vi("x", F, [3, 4])], [vi("out", I64, [2, None])], [x])

    # LeakyRelu over a symbolic batch extent
    write_case(out_dir, "leaky_relu",
               [h.make_node("LeakyRelu", ["x"], ["out"], alpha=0.1)],
               [vi("x", F, ["N", 5])], [vi("out", F, ["N", 5])], [edge((3, 5), 4)])

    write_case(out_dir, "relu",
               [h.make_node("Relu", ["x"], ["out"])],
               [vi("x", F, [2, 8])], [vi("out", F, [2, 8])], [edge((2, 8), 5)])

    # Clip with scalar bounds from initializers
    write_case(out_dir, "clip",
               [h.make_node("Clip", ["x", "lo", "hi"], ["out"])],
               [vi("x", F, [4, 4])], [vi("out", F, [4, 4])], [edge((4, 4), 6)],
               initializers=[scalar("lo", -1.5, np.float32), scalar("hi", 2.25, np.float32)])

    # The attention mask of a transformer: scores where the mask is 0 become -inf
    mask = np.array([[[[1, 1, 0, 1]]]], dtype=np.int64)
    scores = np.random.default_rng(7).standard_normal((1, 2, 4, 4)).astype(np.float32)
    write_case(out_dir, "attention_mask",
               [h.make_node("Equal", ["mask", "zero"], ["is_pad"]),
                h.make_node("Where", ["is_pad", "neg_inf", "scores"], ["masked"])],
               [vi("scores", F, [1, 2, 4, 4]), vi("mask", I64, [1, 1, 1, 4])],
               [vi("masked", F, [1, 2, 4, 4])], [scores, mask],
               initializers=[scalar("zero", 0, np.int64), scalar("neg_inf", -np.inf, np.float32)])

    # One region of many fusable producers: comparisons, logic, arithmetic, Min/Max
    write_case(out_dir, "fused_chain",
               [h.make_node("Greater", ["x", "t"], ["gt"]),
                h.make_node("Less", ["y", "x"], ["lt"]),
                h.make_node("Xor", ["gt", "lt"], ["sel"]),
                h.make_node("Abs", ["y"], ["ay"]),
                h.make_node("Neg", ["x"], ["nx"]),
                h.make_node("Max", ["ay", "nx"], ["big"]),
                h.make_node("Add", ["x", "y"], ["s"]),
                h.make_node("Div", ["s", "two"], ["mean"]),
                h.make_node("Where", ["sel", "big", "mean"], ["out"])],
               [vi("x", F, [3, 4]), vi("y", F, [3, 4]), vi("t", F, [])],
               [vi("out", F, [3, 4])],
               [edge((3, 4), 8), edge((3, 4), 9), np.array(0.5, dtype=np.float32)],
               initializers=[scalar("two", 2.0, np.float32)])

    # Integer Relu and Clip, and a Cast into a Where
    write_case(out_dir, "int_relu_clip",
               [h.make_node("Relu", ["x"], ["r"]),
                h.make_node("Clip", ["r", "lo", "hi"], ["c"]),
                h.make_node("Cast", ["c"], ["cf"], to=T.FLOAT),
                h.make_node("Where", ["keep", "cf", "y"], ["out"])],
               [vi("x", T.INT32, [6]), vi("keep", B, [6]), vi("y", F, [1])],
               [vi("out", F, [6])],
               [np.array([-5, 0, 3, 9, 2147483647, -2147483648], dtype=np.int32),
                np.array([True, True, True, False, True, True]), np.array([-0.0], dtype=np.float32)],
               initializers=[scalar("lo", 1, np.int32), scalar("hi", 8, np.int32)])

    # Where on strings
    write_case(out_dir, "where_string",
               [h.make_node("Where", ["c", "x", "y"], ["out"])],
               [vi("c", B, [3]), vi("x", T.STRING, [3]), vi("y", T.STRING, [1])],
               [vi("out", T.STRING, [3])],
               [np.array([True, False, True]), np.array(["ab", "", "xyz"], dtype=object),
                np.array(["default"], dtype=object)])

    # Import only: a Hardmax is not taken; the Where still is, with its output as a parameter
    write_case(out_dir, "partial",
               [h.make_node("Hardmax", ["x"], ["p"], axis=-1),
                h.make_node("Where", ["c", "p", "x"], ["out"])],
               [vi("x", F, [2, 3]), vi("c", B, [2, 3])], [vi("out", F, [2, 3])], [],
               value_info=[vi("p", F, [2, 3])], run=False)

    chains(out_dir)
    print("wrote %s (expected outputs from %s)" % (out_dir, "onnxruntime " + ort.__version__
          if ort is not None else "onnx.reference"))


def plain(shape, seed):
    """float32 values of the shape without NaNs (onnxruntime's NaN payloads are its own)."""
    x = edge(shape, seed)
    x[np.isnan(x)] = 3.0
    return x


def chains(out_dir):
    """Models that chain several element-wise operators into one kernel."""
    F, B, I32 = T.FLOAT, T.BOOL, T.INT32
    # LeakyRelu feeding Min with a broadcast operand
    write_case(out_dir, "leaky_min",
               [h.make_node("LeakyRelu", ["x"], ["lr"], alpha=0.2),
                h.make_node("Min", ["lr", "cap"], ["out"])],
               [vi("x", F, [3, 4]), vi("cap", F, [1, 4])], [vi("out", F, [3, 4])],
               [plain((3, 4), 20), plain((1, 4), 21)])

    # Celu after Abs: the exp of a non-negative operand never reaches the output
    write_case(out_dir, "abs_celu",
               [h.make_node("Abs", ["x"], ["a"]), h.make_node("Celu", ["a"], ["out"], alpha=2.0)],
               [vi("x", F, [2, 6])], [vi("out", F, [2, 6])], [plain((2, 6), 22)])

    # A padding mask: Where -> Mul -> Add, one kernel
    write_case(out_dir, "padding_mask",
               [h.make_node("Where", ["keep", "x", "zero"], ["masked"]),
                h.make_node("Mul", ["masked", "scale"], ["scaled"]),
                h.make_node("Add", ["scaled", "bias"], ["out"])],
               [vi("keep", B, [2, 1, 4]), vi("x", F, [2, 3, 4]), vi("scale", F, []),
                vi("bias", F, [4])],
               [vi("out", F, [2, 3, 4])],
               [np.array([[[True, True, False, True]], [[True, False, False, False]]]),
                plain((2, 3, 4), 23), np.array(0.125, dtype=np.float32), plain((4,), 24)],
               initializers=[scalar("zero", 0.0, np.float32)])

    # PRelu with a slope that broadcasts (unidirectionally) to x
    write_case(out_dir, "prelu_broadcast",
               [h.make_node("PRelu", ["x", "slope"], ["out"])],
               [vi("x", F, [2, 3, 4]), vi("slope", F, [3, 1])], [vi("out", F, [2, 3, 4])],
               [plain((2, 3, 4), 25), np.array([[0.25], [-1.5], [0.0]], dtype=np.float32)])

    # Max of three inputs, multidirectional broadcasting
    write_case(out_dir, "max3",
               [h.make_node("Max", ["a", "b", "c"], ["out"])],
               [vi("a", F, [2, 3]), vi("b", F, [3]), vi("c", F, [2, 1])], [vi("out", F, [2, 3])],
               [plain((2, 3), 26), plain((3,), 27), plain((2, 1), 28)])

    # HardSwish into Add
    write_case(out_dir, "hardswish_add",
               [h.make_node("HardSwish", ["x"], ["hs"]), h.make_node("Add", ["hs", "y"], ["out"])],
               [vi("x", F, [4, 4]), vi("y", F, [4, 4])], [vi("out", F, [4, 4])],
               [np.linspace(-4, 4, 16, dtype=np.float32).reshape(4, 4), plain((4, 4), 29)])

    # Softsign, HardSigmoid and ThresholdedRelu in a row
    write_case(out_dir, "soft_hard_thresholded",
               [h.make_node("Softsign", ["x"], ["s"]),
                h.make_node("HardSigmoid", ["s"], ["hsig"], alpha=0.75, beta=0.25),
                h.make_node("ThresholdedRelu", ["hsig"], ["out"], alpha=0.4)],
               [vi("x", F, [3, 5])], [vi("out", F, [3, 5])], [plain((3, 5), 30)])

    # NaNs replaced by zero, then Shrink and Sign
    write_case(out_dir, "nan_shrink_sign",
               [h.make_node("IsNaN", ["x"], ["isnan"]),
                h.make_node("Where", ["isnan", "zero", "x"], ["clean"]),
                h.make_node("Shrink", ["clean"], ["sh"], lambd=1.0, bias=0.5),
                h.make_node("Sign", ["sh"], ["out"])],
               [vi("x", F, [4, 4])], [vi("out", F, [4, 4])], [edge((4, 4), 31)],
               initializers=[scalar("zero", 0.0, np.float32)])

    # Reciprocal and Neg, Cast to int32 and back, Identity
    write_case(out_dir, "reciprocal_cast",
               [h.make_node("Reciprocal", ["x"], ["r"]), h.make_node("Neg", ["r"], ["n"]),
                h.make_node("Cast", ["n"], ["i"], to=I32), h.make_node("Identity", ["i"], ["j"]),
                h.make_node("Cast", ["j"], ["out"], to=F)],
               [vi("x", F, [8])], [vi("out", F, [8])],
               [np.array([0.25, -0.125, 3.0, -0.0625, 1.0, -7.5, 0.5, 100.0], dtype=np.float32)])

    # Opset 6: Mul with the legacy broadcast attribute, Clip with min/max attributes
    write_case(out_dir, "opset6_mul_clip",
               [h.make_node("Mul", ["x", "s"], ["m"], broadcast=1),
                h.make_node("Clip", ["m"], ["out"], min=-1.0, max=2.0)],
               [vi("x", F, [3, 4]), vi("s", F, [4])], [vi("out", F, [3, 4])],
               [plain((3, 4), 32), np.array([0.5, -2.0, 4.0, 1.0], dtype=np.float32)], opset=6)

    # Integer Mod (divisor's sign), float fmod and bitwise operators (opset 18)
    a = np.array([7, -7, 7, -7, 0, 5, -2147483648, 9], dtype=np.int32)
    b = np.array([3, 3, -3, -3, 4, 1, -1, 4], dtype=np.int32)
    write_case(out_dir, "int_mod_bitwise",
               [h.make_node("Mod", ["a", "b"], ["m"]),
                h.make_node("BitwiseXor", ["m", "b"], ["x"]),
                h.make_node("BitwiseNot", ["x"], ["out"])],
               [vi("a", I32, [8]), vi("b", I32, [8])], [vi("out", I32, [8])], [a, b], opset=18)

    # Elu (alpha 1) and Selu (ONNX's defaults), expected as wherec import writes them: expm1
    # (e^x - 1) and selu(x) = gamma x or gamma alpha (e^x - 1), each computed in double and
    # rounded once (gamma x and gamma alpha are exact in double; none of these 16 values
    # lies near a float midpoint)
    def elu_selu(feeds):
        x = feeds[0].astype(np.float64)
        e = np.where(x < 0, np.float32(1.0) * np.expm1(x).astype(np.float32),
                     feeds[0]).astype(np.float32)
        ed = e.astype(np.float64)
        alpha, gamma = 1.67326319217681884765625, 1.05070102214813232421875
        return [np.where(ed > 0, gamma * ed, (gamma * alpha) * np.expm1(ed)).astype(np.float32)]
    write_case(out_dir, "elu_selu",
               [h.make_node("Elu", ["x"], ["e"]), h.make_node("Selu", ["e"], ["out"])],
               [vi("x", F, [2, 8])], [vi("out", F, [2, 8])],
               [np.array([[-3.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 2.0],
                          [-10.0, -0.001, 0.001, 7.0, -1e-8, -88.0, 3e-45, -3e-45]],
                         dtype=np.float32)], expect=elu_selu)

    unnamed_dims(out_dir)
    baked_constants(out_dir)


def baked_constants(out_dir):
    """PRelu with a per-channel slope and BatchNormalization with its scale, bias, mean and
    variance, all initializers: baked into the generated C as constants (--bake-limit), the
    slope's -0.0 and the bias's infinity kept exact, the model still onnxruntime's."""
    F = T.FLOAT
    slope = np.array([0.25, -0.0, -1.5], dtype=np.float32).reshape(3, 1, 1)
    write_case(out_dir, "prelu_bn_baked",
               [h.make_node("PRelu", ["x", "slope"], ["p"]),
                h.make_node("BatchNormalization", ["p", "scale", "bias", "mean", "var"], ["out"],
                            epsilon=1e-3)],
               [vi("x", F, [2, 3, 2, 2])], [vi("out", F, [2, 3, 2, 2])],
               [edge((2, 3, 2, 2), 31)],
               initializers=[numpy_helper.from_array(slope, "slope"),
                             numpy_helper.from_array(np.array([0.5, 2.0, -1.0], np.float32), "scale"),
                             numpy_helper.from_array(np.array([0.125, np.inf, -3.0], np.float32), "bias"),
                             numpy_helper.from_array(np.array([1.0, -0.25, 0.0], np.float32), "mean"),
                             numpy_helper.from_array(np.array([4.0, 0.5, 1e-3], np.float32), "var")])


def unnamed_dims(out_dir):
    """Add of two inputs whose first dims are unnamed (unk__N each): ONNX leaves them to
    the runtime to reconcile, wherec generates them as one extent; the data binds it once
    (reconciled_symbols.cmake then binds it two ways through wherec check)."""
    F = T.FLOAT
    write_case(out_dir, "unnamed_dims_add",
               [h.make_node("Add", ["a", "b"], ["s"]), h.make_node("Relu", ["s"], ["out"])],
               [vi("a", F, [None, 3]), vi("b", F, [None, 3])], [vi("out", F, [None, 3])],
               [plain((2, 3), 11), plain((2, 3), 12)])


if __name__ == "__main__":
    main()
