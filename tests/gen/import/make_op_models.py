#!/usr/bin/env python3
# make_op_models.py: writes op_models/: the cases of Sum, Mean, Dropout, Pow, BatchNormalization,
# QuantizeLinear, DequantizeLinear, Softplus, Mish and Gelu, one per opset where the operator's
# definition changed, with the expected outputs computed in ONNX's reference order (the numpy
# formulas of onnx.reference, or the function body), which wherec follows; ort_models.py then holds onnxruntime to them and
# lists where it differs (DEVIATIONS). Usage: make_op_models.py [OUT_DIR] (default op_models/);
# run with build/ort-venv/bin/python (onnx and numpy from Debian, onnxruntime from PyPI).
import os
import sys

import numpy as np
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_models as mm  # noqa: E402
from make_models import vi  # noqa: E402


def write_case(out_dir, name, nodes, inputs, outputs, feeds, initializers=(), check=True, **kw):
    """make_models.write_case, plus constants/N.pb of the initializers (the layout of
    node/run_node.cmake, which feeds the kernels' constant parameters from them). check=False
    skips onnx's checker, which Debian's onnx 1.12 fails on operators newer than it (Mish,
    Gelu)."""
    checker = mm.onnx.checker.check_model
    if not check:
        mm.onnx.checker.check_model = lambda model: None
    try:
        mm.write_case(out_dir, name, nodes, inputs, outputs, feeds, initializers=initializers, **kw)
    finally:
        mm.onnx.checker.check_model = checker
    if initializers:
        d = os.path.join(out_dir, name, "constants")
        os.makedirs(d, exist_ok=True)
        for i, t in enumerate(initializers):
            with open(os.path.join(d, "%d.pb" % i), "wb") as f:
                f.write(t.SerializeToString())


def rnd(shape, seed, dtype=np.float32, scale=4.0):
    x = np.random.default_rng(seed).standard_normal(shape) * scale
    return x.astype(dtype)


def init(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


def bn_ref(x, s, b, m, v, eps, spatial=True):
    """onnx.reference's _batchnorm_test_mode: s * (x - mean) / sqrt(var + eps) + bias, in
    x's dtype, the parameters [C] as [C,1,...] (spatial) or as they are."""
    if spatial:
        shp = (-1,) + (1,) * (x.ndim - 2)
        s, b, m, v = (a.reshape(shp) for a in (s, b, m, v))
    e = np.array(eps, dtype=np.float32).astype(x.dtype)
    return (s * (x - m) / np.sqrt(v + e) + b).astype(x.dtype)


def q_ref(x, s, z, axis, to):
    """saturate(round_half_even(x / scale) + zero_point); NaN gives 0."""
    if s.ndim == 1 and s.size > 1:
        shp = [1] * x.ndim
        shp[axis] = -1
        s = s.reshape(shp)
        z = z.reshape(shp) if z is not None else None
    r = np.rint(x / s).astype(np.float64)
    if z is not None:
        r = r + z.astype(np.float64)
    info = np.iinfo(to)
    r = np.where(np.isnan(r), 0, np.clip(r, info.min, info.max))
    return r.astype(to)


def dq_ref(x, s, z, axis):
    """(float(x) - float(zero_point)) * scale, in float, rounded to the scale's dtype."""
    if s.ndim == 1 and s.size > 1:
        shp = [1] * x.ndim
        shp[axis] = -1
        s = s.reshape(shp)
        z = z.reshape(shp) if z is not None else None
    d = x.astype(np.float32)
    if z is not None:
        d = d - z.astype(np.float32)
    return (d * s.astype(np.float32)).astype(s.dtype)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "op_models")
    F, H, D = T.FLOAT, T.FLOAT16, T.DOUBLE

    # BatchNormalization: opsets 7 (spatial 1 and 0), 9 (rank 3), 14, 15 (double), with
    # per-channel parameters as initializers (as exported models have them)
    x = rnd((2, 3, 4, 5), 1)
    x.flat[:6] = [np.inf, -np.inf, -0.0, 0.0, 3e-45, np.nan]
    s, b, m = rnd(3, 2), rnd(3, 3), rnd(3, 4)
    v = np.abs(rnd(3, 5)) + np.float32(0.01)
    for opset, name in ((7, "bn_opset7"), (14, "bn_opset14")):
        write_case(out, name,
                   [h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"],
                                epsilon=1e-3)],
                   [vi("x", F, [2, 3, 4, 5])], [vi("y", F, [2, 3, 4, 5])], [x],
                   initializers=[init("s", s), init("b", b), init("m", m), init("v", v)],
                   opset=opset, expect=lambda f: [bn_ref(f[0], s, b, m, v, 1e-3)])
    ps = [rnd((3, 4, 5), k) for k in (6, 7, 8)] + [np.abs(rnd((3, 4, 5), 9)) + np.float32(0.01)]
    write_case(out, "bn_opset7_spatial0",
               [h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], spatial=0)],
               [vi("x", F, [2, 3, 4, 5])], [vi("y", F, [2, 3, 4, 5])], [x],
               initializers=[init(n, a) for n, a in zip("sbmv", ps)], opset=7,
               expect=lambda f: [bn_ref(f[0], *ps, 1e-5, spatial=False)])
    x3 = rnd((2, 4, 6), 10)
    p3 = [rnd(4, 11), rnd(4, 12), rnd(4, 13), np.abs(rnd(4, 14)) + np.float32(0.5)]
    write_case(out, "bn_opset9_rank3",
               [h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"])],
               [vi("x", F, [2, 4, 6])] + [vi(n, F, [4]) for n in "sbmv"], [vi("y", F, [2, 4, 6])],
               [x3] + p3, opset=9, expect=lambda f: [bn_ref(*f, 1e-5)])
    xd = rnd((2, 3, 5), 15, np.float64)
    pd = [rnd(3, 16, np.float64), rnd(3, 17, np.float64), rnd(3, 18, np.float64),
          np.abs(rnd(3, 19, np.float64)) + 0.5]
    write_case(out, "bn_opset15_double",
               [h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"],
                            training_mode=0)],
               [vi("x", D, [2, 3, 5])] + [vi(n, D, [3]) for n in "sbmv"], [vi("y", D, [2, 3, 5])],
               [xd] + pd, opset=15, expect=lambda f: [bn_ref(*f, 1e-5)])

    xh = rnd((2, 3, 5), 40, np.float16)
    ph = [rnd(3, 41, np.float16), rnd(3, 42, np.float16), rnd(3, 43, np.float16),
          (np.abs(rnd(3, 44)) + np.float32(0.5)).astype(np.float16)]
    write_case(out, "bn_opset15_float16",
               [h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"])],
               [vi("x", H, [2, 3, 5])] + [vi(n, H, [3]) for n in "sbmv"], [vi("y", H, [2, 3, 5])],
               [xh] + ph, opset=15, expect=lambda f: [bn_ref(*f, 1e-5)])

    # Sum and Mean: opset 6 (one shape), 8 (broadcasting), 13 (float16)
    a, bb, c = rnd((3, 4), 20), rnd((3, 4), 21), rnd((3, 4), 22)
    write_case(out, "sum_mean_opset6",
               [h.make_node("Sum", ["a", "b", "c"], ["s"]), h.make_node("Mean", ["s", "a", "b"], ["y"])],
               [vi(n, F, [3, 4]) for n in "abc"], [vi("y", F, [3, 4])], [a, bb, c], opset=6,
               expect=lambda f: [(((f[0] + f[1] + f[2]) + f[0] + f[1]) / np.float32(3))])
    a8, b8, c8 = rnd((2, 1, 4), 23), rnd((3, 1), 24), rnd((4,), 25)
    write_case(out, "sum_mean_opset8_broadcast",
               [h.make_node("Sum", ["a", "b", "c"], ["s"]), h.make_node("Mean", ["s", "c", "b", "a"], ["y"])],
               [vi("a", F, [2, 1, 4]), vi("b", F, [3, 1]), vi("c", F, [4])], [vi("y", F, [2, 3, 4])],
               [a8, b8, c8], opset=8,
               expect=lambda f: [((((f[0] + f[1]) + f[2]) + f[2] + f[1] + f[0]) / np.float32(4))])
    ah, bh = rnd((5,), 26, np.float16), rnd((5,), 27, np.float16)
    write_case(out, "sum_mean_opset13_float16",
               [h.make_node("Sum", ["a", "b"], ["s"]), h.make_node("Mean", ["s", "b"], ["y"])],
               [vi("a", H, [5]), vi("b", H, [5])], [vi("y", H, [5])], [ah, bh], opset=13,
               expect=lambda f: [((f[0] + f[1]) + f[1]) / np.float16(2)])

    # Dropout in inference: opset 7 (ratio attribute), 10, 12 (ratio and training_mode false)
    xd7 = mm.edge((3, 4), 30)
    write_case(out, "dropout_opset7_relu",
               [h.make_node("Dropout", ["x"], ["d"], ratio=0.3), h.make_node("Relu", ["d"], ["y"])],
               [vi("x", F, [3, 4])], [vi("y", F, [3, 4])], [mm.plain((3, 4), 30)], opset=7)
    write_case(out, "dropout_opset12_mode_false",
               [h.make_node("Dropout", ["x", "r", "t"], ["d"]), h.make_node("Neg", ["d"], ["y"])],
               [vi("x", F, [3, 4])], [vi("y", F, [3, 4])], [mm.plain((3, 4), 31)],
               initializers=[init("r", np.float32(0.5)), init("t", np.array(False))], opset=12)
    del xd7

    # Pow by constant exponents: float x^2, x^0.5, x^-1 (opset 7), integer bases (opset 12)
    xp = np.array([-0.0, 0.0, 2.0, -3.0, np.inf, -np.inf, 0.25, 1e-45, 1e30, 7.5, -1e-3, 2.0],
                  dtype=np.float32)
    for e, name in ((2.0, "pow_opset7_square"), (0.5, "pow_opset7_sqrt"), (-1.0, "pow_opset7_recip")):
        write_case(out, name, [h.make_node("Pow", ["x", "e"], ["y"])],
                   [vi("x", F, [12])], [vi("y", F, [12])], [xp],
                   initializers=[init("e", np.float32(e))], opset=7,
                   expect=lambda f, e=e: [np.power(f[0].astype(np.float64), e).astype(np.float32)])
    xi = np.array([0, 1, -1, 2, -3, 7, 1000, -46341, 2147483647, -2147483648], dtype=np.int32)
    write_case(out, "pow_opset12_int32_cube", [h.make_node("Pow", ["x", "e"], ["y"])],
               [vi("x", T.INT32, [10])], [vi("y", T.INT32, [10])], [xi],
               initializers=[init("e", np.int64(3))], opset=12,
               expect=lambda f: [f[0] * f[0] * f[0]])
    xi64 = np.array([1, -1, 2, -2, 5, 9], dtype=np.int64)
    write_case(out, "pow_opset15_int64_negative", [h.make_node("Pow", ["x", "e"], ["y"])],
               [vi("x", T.INT64, [6])], [vi("y", T.INT64, [6])], [xi64],
               initializers=[init("e", np.int32(-3))], opset=15,
               expect=lambda f: [np.where(f[0] == 1, 1, np.where(f[0] == -1, -1, 0)).astype(np.int64)])

    # QuantizeLinear: opset 10 (per tensor, uint8), 13 (per axis, int8), 19 (float16),
    # 21 (int16, uint16): halves round to even, saturation
    xq = np.array([[0.5, 1.5, 2.5, -0.5, -1.5, -2.5], [300, -300, 1e9, -1e9, 127.49, -128.5],
                   [3.0, -0.0, 0.75, 1.25, 100.5, -100.5]], dtype=np.float32)
    sq = np.float32(0.5)
    write_case(out, "quantize_opset10_uint8", [h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])],
               [vi("x", F, [3, 6])], [vi("y", T.UINT8, [3, 6])], [xq],
               initializers=[init("s", sq), init("z", np.uint8(128))], opset=10,
               expect=lambda f: [q_ref(f[0], sq, np.uint8(128), 1, np.uint8)])
    sa = np.array([1.0, 0.5, 3.0], dtype=np.float32)
    za = np.array([0, -10, 5], dtype=np.int8)
    write_case(out, "quantize_opset13_axis0_int8",
               [h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], axis=0)],
               [vi("x", F, [3, 6])], [vi("y", T.INT8, [3, 6])], [xq],
               initializers=[init("s", sa), init("z", za)], opset=13,
               expect=lambda f: [q_ref(f[0], sa, za, 0, np.int8)])
    write_case(out, "quantize_opset13_noz", [h.make_node("QuantizeLinear", ["x", "s"], ["y"])],
               [vi("x", F, [3, 6])], [vi("y", T.UINT8, [3, 6])], [xq],
               initializers=[init("s", sq)], opset=13,
               expect=lambda f: [q_ref(f[0], sq, None, 1, np.uint8)])
    xq32 = np.array([0, 1, 3, -3, 5, 255, -255, 1000, 2147483647, -2147483648], dtype=np.int32)
    write_case(out, "quantize_opset10_int32", [h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])],
               [vi("x", T.INT32, [10])], [vi("y", T.UINT8, [10])], [xq32],
               initializers=[init("s", np.float32(2.0)), init("z", np.uint8(100))], opset=10,
               expect=lambda f: [q_ref(f[0].astype(np.float64), np.float64(2.0), np.uint8(100), 0,
                                       np.uint8)])
    xh = xq.astype(np.float16)
    write_case(out, "quantize_opset19_float16", [h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])],
               [vi("x", H, [3, 6])], [vi("y", T.INT8, [3, 6])], [xh],
               initializers=[init("s", np.float16(0.5)), init("z", np.int8(-3))], opset=19,
               expect=lambda f: [q_ref(f[0], np.float16(0.5), np.int8(-3), 1, np.int8)])
    for to, npt, name in ((T.INT16, np.int16, "quantize_opset21_int16"),
                          (T.UINT16, np.uint16, "quantize_opset21_uint16")):
        z = npt(7)
        write_case(out, name,
                   [h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], axis=1)],
                   [vi("x", F, [3, 6])], [vi("y", to, [3, 6])], [xq * np.float32(100)],
                   initializers=[init("s", np.float32(0.25)), init("z", z)], opset=21,
                   expect=lambda f, z=z, npt=npt: [q_ref(f[0], np.float32(0.25), z, 1, npt)])

    # DequantizeLinear: opset 10 (uint8), 13 (per axis, int8; int32), 19 (float16 scale),
    # 21 (int16, uint16)
    xu = np.array([[0, 1, 127, 128, 255, 3]] * 3, dtype=np.uint8)
    write_case(out, "dequantize_opset10_uint8", [h.make_node("DequantizeLinear", ["x", "s", "z"], ["y"])],
               [vi("x", T.UINT8, [3, 6])], [vi("y", F, [3, 6])], [xu],
               initializers=[init("s", np.float32(0.1)), init("z", np.uint8(128))], opset=10,
               expect=lambda f: [dq_ref(f[0], np.float32(0.1), np.uint8(128), 1)])
    xs8 = np.array([[-128, -1, 0, 1, 127, 5]] * 3, dtype=np.int8)
    sa8 = np.array([0.1, 0.2, 0.3], dtype=np.float32)
    za8 = np.array([0, 10, -10], dtype=np.int8)
    write_case(out, "dequantize_opset13_axis0_int8",
               [h.make_node("DequantizeLinear", ["x", "s", "z"], ["y"], axis=0)],
               [vi("x", T.INT8, [3, 6])], [vi("y", F, [3, 6])], [xs8],
               initializers=[init("s", sa8), init("z", za8)], opset=13,
               expect=lambda f: [dq_ref(f[0], sa8, za8, 0)])
    x32 = np.array([0, 1, -1, 16777217, -2147483648, 2147483647], dtype=np.int32)
    write_case(out, "dequantize_opset13_int32", [h.make_node("DequantizeLinear", ["x", "s"], ["y"])],
               [vi("x", T.INT32, [6])], [vi("y", F, [6])], [x32],
               initializers=[init("s", np.float32(0.001))], opset=13,
               expect=lambda f: [dq_ref(f[0], np.float32(0.001), None, 0)])
    write_case(out, "dequantize_opset19_float16",
               [h.make_node("DequantizeLinear", ["x", "s", "z"], ["y"])],
               [vi("x", T.UINT8, [3, 6])], [vi("y", H, [3, 6])], [xu],
               initializers=[init("s", np.float16(0.1)), init("z", np.uint8(100))], opset=19,
               expect=lambda f: [dq_ref(f[0], np.float16(0.1), np.uint8(100), 1)])
    x16 = np.array([[-32768, -1, 0, 1, 32767, 500]] * 3, dtype=np.int16)
    write_case(out, "dequantize_opset21_int16",
               [h.make_node("DequantizeLinear", ["x", "s", "z"], ["y"])],
               [vi("x", T.INT16, [3, 6])], [vi("y", F, [3, 6])], [x16],
               initializers=[init("s", np.float32(0.01)), init("z", np.int16(-7))], opset=21,
               expect=lambda f: [dq_ref(f[0], np.float32(0.01), np.int16(-7), 1)])
    # Softplus (opset 1): softplus, log(1 + e^x) correctly rounded as a whole; Mish (18): mish,
    # x tanh(softplus(x)) correctly rounded as a whole; Gelu (20): gelu, x Phi(x) correctly
    # rounded as a whole (oracle: double, (x/2) erfc(-x/sqrt(2)), rounded to float)
    import math

    def cr(fn, a):
        return np.vectorize(lambda v: np.float32(fn(float(v))))(a).astype(np.float32)

    def f_exp(v):
        try:
            return math.exp(v)
        except OverflowError:
            return math.inf

    def f_log(v):
        return math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan)

    def softplus_value(v):  # without cancellation or overflow
        return v + math.log1p(math.exp(-v)) if v > 0 else math.log1p(math.exp(v))

    def softplus(x):
        return cr(softplus_value, x)

    def mish(x):  # x tanh(softplus(x)) rounded once
        return cr(lambda v: v * math.tanh(softplus_value(v)), x)

    xa = np.array([-100.0, -20.0, -3.5, -1.0, -0.0, 0.0, 0.25, 1.0, 2.5, 10.0, 88.0, 89.0],
                  dtype=np.float32)
    write_case(out, "softplus_opset7", [h.make_node("Softplus", ["x"], ["y"])],
               [vi("x", F, [12])], [vi("y", F, [12])], [xa], opset=7,
               expect=lambda f: [softplus(f[0])])
    write_case(out, "mish_opset18", [h.make_node("Mish", ["x"], ["y"])],
               [vi("x", F, [12])], [vi("y", F, [12])], [xa], opset=18, check=False,
               expect=lambda f: [mish(f[0])])
    write_case(out, "gelu_opset20", [h.make_node("Gelu", ["x"], ["y"])],
               [vi("x", F, [12])], [vi("y", F, [12])], [xa], opset=20, check=False,
               expect=lambda f: [cr(lambda v: 0.5 * v * math.erfc(-v / math.sqrt(2.0)), f[0])])
    print("wrote the operator cases into %s" % out)


if __name__ == "__main__":
    main()
