#!/usr/bin/python3
# node_tests.py: selects ONNX's backend node tests of the operators wherec imports (list) and
# writes them in the backend test layout (generate); run with Debian's python3-onnx 1.12.
#
#   node_tests.py --wherec WHEREC list [-o node_tests.txt]
#                                            the selection, with every exclusion and its reason
#   node_tests.py list --check LIST          fails unless LIST is that list, unchanged
#   node_tests.py list --besides node_tests.txt [-o node_tests_pypi.txt | --check LIST]
#                                            under a newer onnx (PyPI's, build/ort-venv): only
#                                            the tests node_tests.txt lacks, newer opsets' models
#                                            as <test>_opset<N>, refusals as '<test> refused: msg'
#   node_tests.py generate LIST OUT_DIR [--numpy-exp]
#                                            OUT_DIR/<test>/model.onnx, test_data_set_N/
#                                            {input,output}_N.pb, constants/N.pb; OUT_DIR/stamp;
#                                            and OUT_DIR/harness_chained_kernels (harness_case)
#
# A test is selected when every node of its model is one of OPERATORS (or a Constant, which
# the importer folds into a literal or a parameter) and at least one is an operator proper,
# so the "_expanded" function bodies made only of these operators are in and those with
# other nodes (Bernoulli's RandomUniformLike, Softmax's ReduceMax, ...) are out; the match
# is on the op_type of the nodes, never on the test's name. Tests of sequences or optionals
# and EXCLUDED are listed as comments with the reason. The data is deterministic: numpy's
# global generator is seeded before the test modules run (they draw from it unseeded).
import argparse
import math
import os
import shutil
import sys
import warnings

import numpy as np

# onnx 1.12's test modules use aliases numpy 1.24 removed (np.float in bernoulli.py, ...):
# put them back before the modules are imported, or the collection stops at the first one.
for _alias, _type in (("float", float), ("int", int), ("bool", bool), ("object", object),
                      ("str", str), ("complex", complex)):
    if _alias not in np.__dict__:
        setattr(np, _alias, _type)

import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402

SEED = 0

# Elu, Selu and Celu's expected outputs call np.exp on float32 arrays. numpy's float32 exp is
# a SIMD approximation, not correctly rounded, and differs with the CPU it dispatches to
# (numpy 1.24.2 on AVX512F: 12 of test_elu's 28 negative inputs are 1 ulp off), so the data
# would depend on the machine. ONNX's Exp is exp; wherec's is correctly rounded (float16 and
# bfloat16 computed in float): the generator computes it that way, in double and rounded
# to float, then to the half. --numpy-exp keeps numpy's own.
_numpy_exp = np.exp


def _exp_correctly_rounded(x, *args, **kwargs):
    a = np.asarray(x)
    if args or kwargs or a.dtype not in (np.float16, np.float32):
        return _numpy_exp(x, *args, **kwargs)
    return _numpy_exp(a.astype(np.float64)).astype(np.float32).astype(a.dtype)


# np.log and np.tanh on float32 are SIMD approximations too (test_log, test_tanh: 1 ulp off
# on some inputs), and wherec's log and tanh are correctly rounded: the same treatment, in
# double and rounded (test_softplus's log(exp(x) + 1) then is ONNX's function body computed
# from correctly rounded primitives, as wherec computes it).
_numpy_log, _numpy_tanh = np.log, np.tanh
# np.sinh and np.cosh too (test_sinh, test_cosh); wherec's sinh and cosh are correctly rounded.
_numpy_sinh, _numpy_cosh = np.sinh, np.cosh


def _in_double(fn):
    def f(x, *args, **kwargs):
        a = np.asarray(x)
        if args or kwargs or a.dtype not in (np.float16, np.float32):
            return fn(x, *args, **kwargs)
        return fn(a.astype(np.float64)).astype(np.float32).astype(a.dtype)
    return f


# Sigmoid's expected outputs are 1 / (1 + exp(-x)) rounded operation by operation; ONNX's
# Sigmoid is the function, and wherec's sigmoid is correctly rounded as a whole: these
# tests' outputs are recomputed so (in double, then rounded).
def _sigmoid_correctly_rounded(x):
    d = np.asarray(x).astype(np.float64)
    return (1.0 / (1.0 + _numpy_exp(-d))).astype(np.float32).astype(np.asarray(x).dtype)


ORACLE = {"test_sigmoid": _sigmoid_correctly_rounded,
          "test_sigmoid_example": _sigmoid_correctly_rounded}

# The PyPI onnx's tests of ONNX's composites compute their expected outputs other ways than
# ONNX's definition and with numpy's float math (SIMD approximations, not correctly rounded):
# Elu, Selu and Celu by np.expm1 (one rounding where the definition's exp(x) - 1 has two),
# Softplus by np.logaddexp, Mish by np.tanh(np.logaddexp(0, x)) in float32, Gelu by
# 0.5 * x * (1 + erf(x / np.sqrt(2))) in double. ONNX's reference (onnx.reference) computes
# the definition, in the element type, operation by operation; wherec does the same
# (docs/semantics.md), with exp, log, tanh and erf correctly rounded. REGENERATED recomputes
# the expected outputs so: each primitive in double (libm, math.*) and rounded once to the
# element type (float16 and bfloat16 straight from the double, not through float), the
# rest in the element type; _cr refuses to round a double that lies so near a rounding
# boundary of the element type (2^-45 relative) that libm's error could decide it.
_FORMATS = {np.dtype(np.float32): (24, -126), np.dtype(np.float16): (11, -14)}
try:
    import ml_dtypes
    _FORMATS[np.dtype(ml_dtypes.bfloat16)] = (8, -126)
except ImportError:  # Debian's python has no ml_dtypes, and its onnx no bfloat16 tests
    pass


def _round_to(v, p, emin):
    """v rounded to a p-bit significand, to nearest even; subnormal below 2^emin."""
    if v == 0 or not math.isfinite(v):
        return v
    lsb = max(math.frexp(v)[1], emin + 1) - p
    return math.ldexp(round(math.ldexp(v, -lsb)), lsb)


def _cr(fn, a):
    a = np.asarray(a)
    p, emin = _FORMATS[a.dtype]
    out = np.empty(a.shape, a.dtype)
    for i, x in np.ndenumerate(a):
        x = float(x)
        try:
            v = fn(x)
        except OverflowError:
            v = math.inf
        except ValueError:
            v = -math.inf if x == 0 else math.nan
        r = _round_to(v, p, emin)
        if (_round_to(v * (1 - 2.0 ** -45), p, emin) != r or
                _round_to(v * (1 + 2.0 ** -45), p, emin) != r):
            raise SystemExit("node_tests.py: %s(%r) = %r is too near a rounding boundary of %s "
                             "for the double oracle" % (fn.__name__, x, v, a.dtype))
        with np.errstate(over="ignore"):
            out[i] = np.array(r).astype(a.dtype)
    return out


def _attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


# wherec import writes Elu, Selu and Celu with expm1 (e^x - 1 rounded once: no
# cancellation near 0), Selu with ONNX's default alpha and gamma as selu (rounded once as a
# whole), Softplus as softplus (log(1 + e^x) rounded once) and Gelu
# (approximate="none") as gelu (x Phi(x) rounded once), all correctly rounded
# (docs/semantics.md); the oracles compute them so, the rest of the definition in the
# element type. Where ONNX's formula computed with correctly rounded
# exp, log and tanh rounds otherwise is listed in activations_differ.txt.
def _elu(node, x):
    t = x.dtype.type
    alpha = t(_attr(node, "alpha", 1.0))
    return np.where(x < t(0), alpha * _cr(math.expm1, x), x)


_SELU_ALPHA, _SELU_GAMMA = 1.67326319217681884765625, 1.05070102214813232421875


def _selu_value(v):
    """selu(v) with ONNX's default alpha and gamma: gamma v (exact in double) above 0,
    gamma alpha expm1(v) (gamma alpha exact in double) below."""
    return _SELU_GAMMA * v if v > 0 else (_SELU_GAMMA * _SELU_ALPHA) * math.expm1(v)


def _selu(node, x):
    """Selu with ONNX's defaults (the floats the node holds) is selu(x), rounded once;
    other alpha and gamma: expm1 rounded once, then ONNX's scalings in the element type."""
    t = x.dtype.type
    a, g = _attr(node, "alpha", _SELU_ALPHA), _attr(node, "gamma", _SELU_GAMMA)
    if np.float32(a) == np.float32(_SELU_ALPHA) and np.float32(g) == np.float32(_SELU_GAMMA):
        return _cr(_selu_value, x)
    alpha, gamma = t(a), t(g)
    return np.where(x > t(0), gamma * x, (_cr(math.expm1, x) * alpha) * gamma)


def _celu(node, x):
    t = x.dtype.type
    alpha = t(_attr(node, "alpha", 1.0))
    return (np.maximum(t(0), x) +
            np.minimum(t(0), alpha * _cr(math.expm1, x / alpha))).astype(x.dtype)


def _softplus_value(v):
    """log(1 + e^v) in double, without cancellation or overflow."""
    return v + math.log1p(math.exp(-v)) if v > 0 else math.log1p(math.exp(v))


def _softplus(node, x):
    return _cr(_softplus_value, x)


def _softsign(node, x):
    return _cr(lambda v: v / (1.0 + abs(v)), x)


def _mish(node, x):
    return _cr(lambda v: v * math.tanh(_softplus_value(v)), x)


def _mish_expanded(node, x):
    """Mish-18's body node by node: softplus (correctly rounded), Tanh, Mul, each rounded."""
    return (x * _cr(math.tanh, _softplus(node, x))).astype(x.dtype)


# The expanded function bodies (Softplus-1's Exp, Add, Log; Elu-6's Exp, Sub, Mul) import
# node by node: ONNX's formula, each step correctly rounded.
def _elu_literal(node, x):
    t = x.dtype.type
    alpha = t(_attr(node, "alpha", 1.0))
    return np.where(x < t(0), alpha * (_cr(math.exp, x) - t(1)), x)


def _softplus_literal(node, x):
    return _cr(math.log, _cr(math.exp, x) + x.dtype.type(1))


def _gelu_literal(node, x):
    """Gelu-20's approximate="none" body, step by step in x's dtype (its expanded test: the
    body's Sqrt(2) is no literal, so wherec import keeps the formula)."""
    t = x.dtype.type
    return (t(0.5) * x) * (_cr(math.erf, x / t(math.sqrt(2.0))) + t(1))


def _gelu(node, x):
    """gelu(x) = x Phi(x) = (x/2) erfc(-x/sqrt(2)), correctly rounded as a whole (wherec
    import's Gelu, approximate="none"); erfc: no cancellation for x < 0."""
    return _cr(lambda v: 0.5 * v * math.erfc(-v / math.sqrt(2.0)), x)


def _pow_value(x, y):
    """x^y in double (C's special values), for x, y floats."""
    if y == 0 or x == 1:
        return 1.0
    if math.isnan(x) or math.isnan(y):
        return math.nan
    odd = math.isfinite(y) and y == math.floor(y) and abs(y) < 2.0 ** 53 and y % 2 == 1
    if x == 0:
        return (math.copysign(math.inf, x) if odd else math.inf) if y < 0 else \
            (x if odd else 0.0)
    try:
        return math.pow(x, y)
    except OverflowError:
        return -math.inf if x < 0 and odd else math.inf
    except ValueError:
        return math.nan


def _pow(node, x, y):
    """ONNX Pow as wherec computes it: the exponent converted to the base's dtype, then
    x^y correctly rounded (in double by libm, refused within 2^-45 of a rounding
    boundary, as _cr)."""
    t = x.dtype
    p, emin = _FORMATS[t]
    y = np.asarray(y).astype(t)
    xb, yb = np.broadcast_arrays(x, y)
    out = np.empty(xb.shape, t)
    for i in np.ndindex(xb.shape):
        a, b = float(xb[i]), float(yb[i])
        v = _pow_value(a, b)
        r = _round_to(v, p, emin)
        if (_round_to(v * (1 - 2.0 ** -45), p, emin) != r or
                _round_to(v * (1 + 2.0 ** -45), p, emin) != r):
            raise SystemExit("node_tests.py: pow(%r, %r) = %r is too near a rounding boundary "
                             "of %s for the double oracle" % (a, b, v, t))
        with np.errstate(over="ignore"):
            out[i] = np.array(r).astype(t)
    return out


def _gelu_tanh(node, x):
    """Gelu-20's approximate="tanh" function body, step by step in x's dtype: its float
    constants 2/pi and 0.044715 cast to the dtype, sqrt(2/pi) a Sqrt in the dtype,
    (0.5 * x) * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * pow(x, 3))))."""
    t = x.dtype.type
    p, emin = _FORMATS[x.dtype]
    two_over_pi = float(t(np.float32(0.63661977236)))
    c0 = t(np.float32(0.044715))
    s = t(_round_to(math.sqrt(two_over_pi), p, emin))
    inner = x + c0 * _pow(node, x, np.full(x.shape, 3, x.dtype))
    return (t(0.5) * x) * (t(1) + _cr(math.tanh, s * inner))


def _gelu_tanh_value(v):
    """x/2 (1 + tanh(s (x + 0.044715 x^3))) = x/(1 + e^-z), z = 2 s (x + 0.044715 x^3), s =
    sqrt(2/pi), in double (no cancellation; e^-z capped where the result is 0 anyway)."""
    z = math.sqrt(8 / math.pi) * (v + 0.044715 * v ** 3)
    return v / (1 + math.exp(min(-z, 700.0)))


def _gelu_tanh_cr(node, x):
    """wherec import's Gelu with approximate="tanh": gelu_tanh, rounded once."""
    return _cr(_gelu_tanh_value, x)


def _fold(op, row, ident):
    """wherec's row reduction (include/wherec/rows.h): element j into lane j % 16 from the
    identity, in order, then lanes l and l + 8, l + 4, l + 2, l + 1 combined, each step
    rounded to the row's dtype."""
    acc = [ident] * 16
    for j, v in enumerate(row):
        acc[j % 16] = op(acc[j % 16], v)
    w = 8
    while w:
        for lane in range(w):
            acc[lane] = op(acc[lane], acc[lane + w])
        w //= 2
    return acc[0]


def _rows(x, axis, fn):
    """fn applied to each row of x along axis (a row reductions' last axis)."""
    moved = np.moveaxis(x, axis, -1)
    out = np.empty_like(moved)
    for i in np.ndindex(moved.shape[:-1]):
        out[i] = fn(moved[i])
    return np.moveaxis(out, -1, axis)


def _softmax_row(r, log):
    t = r.dtype.type
    m = _fold(np.maximum, r, t(-np.inf))
    d = (r - m).astype(r.dtype)
    e = _cr(math.exp, d)
    s = _fold(lambda a, b: t(a + b), e, t(-0.0))
    return (d - _cr(math.log, np.array([s], r.dtype))[0]) if log else (e / s).astype(r.dtype)


def _softmax(node, x):
    return _rows(x, -1, lambda r: _softmax_row(r, False))


def _log_softmax(node, x):
    return _rows(x, -1, lambda r: _softmax_row(r, True))


def _rms_norm(node, x, scale):
    """x * (1 / sqrt(mean(x * x) + epsilon)) * scale along the last axis, in float (float16 widened
    and rounded once at the end), sqrt correctly rounded as IEEE's."""
    eps = np.float32(_attr(node, "epsilon", 1e-5))
    xf, sf = x.astype(np.float32), np.broadcast_to(scale, x.shape).astype(np.float32)
    n = np.float32(x.shape[-1])

    def row(r):
        ms = _fold(lambda a, b: np.float32(a + b), (r * r).astype(np.float32), np.float32(-0.0)) / n
        return (r * (np.float32(1) / np.sqrt(np.float32(ms + eps)))).astype(np.float32)
    return (_rows(xf, -1, row) * sf).astype(x.dtype)


REGENERATED = {}
for _names, _fn, _why in (
        (("test_elu_opset22", "test_elu_default_opset22", "test_elu_example_opset22"), _elu,
         "np.expm1 for exp(x) - 1"),
        (("test_elu_default_expanded_ver18",), _elu_literal, "np.expm1 for exp(x) - 1"),
        (("test_elu", "test_elu_default", "test_elu_example"), _elu,
         "exp(x) - 1, two roundings where wherec's expm1 has one"),
        (("test_selu_opset22", "test_selu_default_opset22", "test_selu_example_opset22"), _selu,
         "np.expm1 for exp(x) - 1"),
        (("test_selu", "test_selu_example"), _selu,
         "exp(x) - 1, two roundings where wherec's expm1 has one"),
        (("test_selu_default",), _selu,
         "exp(x) - 1 and two products, four roundings where wherec's selu has one"),
        (("test_celu_opset28", "test_celu_float16", "test_celu_bfloat16"), _celu,
         "np.expm1 for exp(x / alpha) - 1"),
        (("test_celu",), _celu, "exp(x / alpha) - 1, two roundings where wherec's expm1 has one"),
        (("test_softplus_opset22", "test_softplus_example_opset22"), _softplus,
         "np.logaddexp(0, x) for log(exp(x) + 1)"),
        (("test_softplus_expanded_ver18", "test_softplus_example_expanded_ver18"),
         _softplus_literal, "np.logaddexp(0, x) for log(exp(x) + 1)"),
        (("test_softplus", "test_softplus_example"), _softplus,
         "log(exp(x) + 1), three roundings where wherec's softplus has one"),
        (("test_softsign", "test_softsign_example", "test_softsign_opset22",
          "test_softsign_example_opset22"), _softsign,
         "x / (1 + abs(x)), two roundings where wherec's softsign has one"),
        (("test_mish",), _mish,
         "x * np.tanh(np.logaddexp(0, x)) in float32 (numpy's float32 tanh)"),
        (("test_mish_expanded",), _mish_expanded,
         "x * np.tanh(np.logaddexp(0, x)) in float32; the body's Softplus, Tanh and Mul each "
         "rounded"),
        (("test_gelu_default_1", "test_gelu_default_2"), _gelu,
         "0.5 * x * (1 + erf(x / np.sqrt(2))) computed in double, rounded once, where "
         "wherec's gelu is rounded once from x Phi(x)"),
        (("test_gelu_default_1_expanded", "test_gelu_default_2_expanded"), _gelu_literal,
         "0.5 * x * (1 + erf(x / np.sqrt(2))) computed in double, rounded once"),
        (("test_gelu_tanh_1", "test_gelu_tanh_2"), _gelu_tanh_cr,
         "the formula in double with np.sqrt(2 / np.pi), rounded once"),
        (("test_gelu_tanh_1_expanded", "test_gelu_tanh_2_expanded"), _gelu_tanh,
         "the formula in double with np.sqrt(2 / np.pi), rounded once"),
        (("test_pow_example", "test_pow", "test_pow_bcast_scalar", "test_pow_bcast_array",
          "test_pow_types_float32_int64", "test_pow_types_float32_int32",
          "test_pow_types_float32_uint64", "test_pow_types_float32_uint32"), _pow,
         "numpy's float32 power (libm's powf, not correctly rounded)"),
        (tuple(n + e for n in ("test_softmax_example", "test_softmax_large_number",
                                "test_softmax_axis_2", "test_softmax_negative_axis",
                                "test_softmax_default_axis")
               for e in ("", "_expanded", "_expanded_ver18")), _softmax,
         "numpy's float32 exp and pairwise sum; wherec's exp is correctly rounded, its sum in "
         "16 lanes (include/wherec/rows.h)"),
        (tuple(n + e for n in ("test_logsoftmax_example_1", "test_logsoftmax_large_number",
                                "test_logsoftmax_axis_2", "test_logsoftmax_negative_axis",
                                "test_logsoftmax_default_axis")
               for e in ("", "_expanded", "_expanded_ver18")), _log_softmax,
         "numpy's float32 exp, log and pairwise sum, where wherec's are correctly rounded and "
         "in 16 lanes"),
        (("test_rms_normalization_4d_axis3", "test_rms_normalization_4d_axis_negative_1",
          "test_rms_normalization_default_axis", "test_rms_normalization_2d_axis1",
          "test_rms_normalization_2d_axis_negative_1", "test_rms_normalization_3d_axis2_epsilon",
          "test_rms_normalization_3d_axis_negative_1_epsilon"), _rms_norm,
         "numpy's pairwise mean, where wherec's sum is in 16 lanes")):
    for _name in _names:
        REGENERATED[_name] = (_fn, _why)

# Expected refusals of node_tests_pypi.txt: refusal(case) is (why, the message wherec import
# gives) for a model wherec import refuses, asserted by run_node.cmake -DREFUSED; found from
# the model (its dtypes and attributes), not from the test's name.
_NO_DTYPE = ("FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "FLOAT8E8M0",
             "FLOAT4E2M1", "INT4", "UINT4", "INT2", "UINT2")


def _elem_types(graph):
    types = {vi.name: vi.type.tensor_type.elem_type
             for vi in list(graph.input) + list(graph.output) + list(graph.value_info)}
    types.update({t.name: t.data_type for t in graph.initializer})
    for node in graph.node:
        if node.op_type == "Constant":
            for a in node.attribute:
                if a.name == "value":
                    types[node.output[0]] = a.t.data_type
    return types


def refusal(case):
    graph = case.model.graph
    types = _elem_types(graph)
    name = {getattr(onnx.TensorProto, n): n for n in _NO_DTYPE if hasattr(onnx.TensorProto, n)}
    for node in graph.node:
        if node.op_type == "Constant":
            continue
        for i in node.input:
            if i and types.get(i) in name:
                return ("%s is no dtype of wherec's" % name[types[i]].lower(),
                        "input '%s' has %s, which wherec does not support"
                        % (i, name[types[i]].lower()))
        if node.op_type in ("QuantizeLinear", "DequantizeLinear") and _attr(node, "block_size", 0):
            return ("blocked quantization: each scale repeated block_size times along an axis, "
                    "which a kernel's broadcasting cannot express",
                    "block_size=%d: block quantization repeats each scale along an axis, which a "
                    "kernel's broadcasting cannot express" % _attr(node, "block_size", 0))
        for o in node.output:
            if node.op_type in ("Cast", "CastLike") and types.get(o) in name:
                return ("%s is no dtype of wherec's" % name[types[o]].lower(),
                        "casts to %s are not supported" % name[types[o]].lower())
    return None

# The operators wherec imports: the element-wise rows of `wherec import --list-operators`
# but Constant (FOLDED), in the table's order; load_operators fills it.
OPERATORS = ()
FOLDED = {"Constant"}

# Tests left out although their nodes qualify, and why (the list file says so too).
EXCLUDED = {
    "test_cast_FLOAT_to_BFLOAT16":
        "expects truncation (the Cast-13 reference of onnx 1.12); wherec rounds to "
        "nearest even as Cast-19 specifies",
    "test_castlike_FLOAT_to_BFLOAT16_expanded":
        "the same Cast node and data as test_cast_FLOAT_to_BFLOAT16: expects truncation",
    "test_castlike_FLOAT_to_BFLOAT16":
        "the data of test_cast_FLOAT_to_BFLOAT16, through CastLike: expects truncation",
}
# Function bodies whose expected output np.expm1 gives (ONNX's reference) where the body
# computes exp(x) - 1, with alpha (and gamma) in Constants of the body rather than in an
# attribute REGENERATED could read, and Selu-18's body in an order of its own
# (gamma * (alpha * exp(x) - alpha)): their expected outputs are no correctly rounded
# evaluation of the body. The nodes' own tests (test_elu, test_selu, test_celu_float16, ...)
# check the forms; wherec imports these bodies node by node, as the other expanded tests show.
for _name in ("test_elu_expanded_ver18", "test_elu_example_expanded_ver18",
              "test_selu_expanded_ver18", "test_selu_default_expanded_ver18",
              "test_selu_example_expanded_ver18", "test_celu_float16_expanded",
              "test_celu_bfloat16_expanded"):
    EXCLUDED[_name] = ("a function body whose expected output is np.expm1's, with its alpha in a "
                       "Constant (not recomputable from the node's attributes)")

# Casts to and from string: refused by wherec import (a kernel neither formats nor parses
# numbers; generated code allocates nothing and its strings borrow the inputs'), with the
# reason "casts from float to string are not supported" (tests/gen/import/test_import.c).
for _name in ("test_cast_FLOAT_to_STRING", "test_cast_STRING_to_FLOAT",
              "test_castlike_FLOAT_to_STRING_expanded", "test_castlike_STRING_to_FLOAT_expanded",
              "test_castlike_FLOAT_to_STRING", "test_castlike_STRING_to_FLOAT"):
    EXCLUDED[_name] = "a cast to or from string, which wherec import refuses"

# Refused by wherec import with a reason (tests/gen/import/test_import.c checks the reasons).
for _name in ("test_batchnorm_example_training_mode", "test_batchnorm_epsilon_training_mode"):
    EXCLUDED[_name] = "BatchNormalization with training_mode=1, which wherec import refuses"
for _name in ("test_training_dropout_default", "test_training_dropout_default_mask",
              "test_training_dropout", "test_training_dropout_mask",
              "test_training_dropout_zero_ratio", "test_training_dropout_zero_ratio_mask"):
    EXCLUDED[_name] = "Dropout with a runtime training_mode, which wherec import refuses"
for _name in ("test_dropout_default_mask", "test_dropout_default_mask_ratio"):
    EXCLUDED[_name] = "Dropout's mask output is a graph output: a kernel computes one output"
for _name in ("test_pow_types_int64_float32", "test_pow_types_int32_float32"):
    EXCLUDED[_name] = ("Pow of an integer base by a float exponent (ONNX: in double, then "
                       "truncated), which wherec import refuses: its pow is on float, float16 "
                       "and bfloat16")
for _name in ("test_pow_types_int64_int64", "test_pow_types_int32_int32"):
    EXCLUDED[_name] = ("Pow of an integer base by a runtime exponent, which wherec import "
                       "refuses: an integer base takes a constant whole exponent")


# The circular functions, their inverses and the inverse hyperbolic ones: numpy's float32
# versions are not correctly rounded either; each element is computed in double by libm
# (math.*) and rounded once to the element type by _cr, which refuses a value too near a
# rounding boundary. The domain's edges are C99's (atanh(+-1) = +-inf, acosh below 1 NaN).
def _atanh_value(x):
    return math.copysign(math.inf, x) if abs(x) == 1 else math.atanh(x)


def _acosh_value(x):
    return math.nan if x < 1 else math.acosh(x)


_NUMPY_CR = {"sin": math.sin, "cos": math.cos, "tan": math.tan, "arcsin": math.asin,
             "arccos": math.acos, "arctan": math.atan, "arcsinh": math.asinh,
             "arccosh": _acosh_value, "arctanh": _atanh_value}
_numpy_own = {name: getattr(np, name) for name in _NUMPY_CR}


def _rounded_once(own, fn):
    def f(x, *args, **kwargs):
        a = np.asarray(x)
        if args or kwargs or a.dtype not in _FORMATS:
            return own(x, *args, **kwargs)
        return _cr(fn, a)
    f.__name__ = fn.__name__
    return f


def collect(numpy_exp=False):
    """Every node test case of the installed onnx, in its own order."""
    np.random.seed(SEED)
    np.exp = _numpy_exp if numpy_exp else _exp_correctly_rounded
    np.log = _numpy_log if numpy_exp else _in_double(_numpy_log)
    np.tanh = _numpy_tanh if numpy_exp else _in_double(_numpy_tanh)
    np.sinh = _numpy_sinh if numpy_exp else _in_double(_numpy_sinh)
    np.cosh = _numpy_cosh if numpy_exp else _in_double(_numpy_cosh)
    for name, fn in _NUMPY_CR.items():
        setattr(np, name, _numpy_own[name] if numpy_exp else _rounded_once(_numpy_own[name], fn))
    # the test modules' own overflows and invalid casts (onnx 1.23's cast.py, ...) are theirs
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        import onnx.backend.test.case.node as node_cases
        return node_cases.collect_testcases(None)


ROW_REDUCTIONS = {"Softmax", "LogSoftmax", "LayerNormalization", "RMSNormalization",
                  "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceL2",
                  "ReduceLogSumExp", "ReduceSumSquare"}


def _ranks(model):
    """The ranks of the values of the model's graph, from onnx's shape inference (those the
    row rules need); an inference that fails leaves the inputs' and initializers' only."""
    try:
        graph = onnx.shape_inference.infer_shapes(model).graph
    except Exception:  # noqa: BLE001 - a model onnx cannot infer: what it declares
        graph = model.graph
    r = {vi.name: len(vi.type.tensor_type.shape.dim)
         for vi in list(graph.input) + list(graph.value_info) + list(graph.output)
         if vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape")}
    r.update({t.name: len(t.dims) for t in graph.initializer})
    return r


def _const_ints(graph, name):
    for t in graph.initializer:
        if t.name == name:
            return list(onnx.numpy_helper.to_array(t).reshape(-1))
    for node in graph.node:
        if node.op_type == "Constant" and node.output[0] == name:
            for a in node.attribute:
                if a.name == "value":
                    return list(onnx.numpy_helper.to_array(a.t).reshape(-1))
    return None


def row_refusal(case):
    """Why wherec import leaves a row reduction of the case to onnxruntime, or None: a
    kernel reduces the last axis of its output, keeping it, and reads the reduced value at
    every element of the row (docs/cli.md; the importer's checks and fusion.c say so)."""
    graph = case.model.graph
    ranks, outputs = _ranks(case.model), {o.name for o in graph.output}
    opset = onnx_opset(case.model)
    for node in graph.node:
        op = node.op_type
        if op not in ROW_REDUCTIONS:
            continue
        rank = ranks.get(node.input[0])
        if rank is None:
            return "a row reduction of a value inside the graph (rank not known here)"
        if op in ("Softmax", "LogSoftmax", "LayerNormalization", "RMSNormalization"):
            axis = _attr(node, "axis", 1 if op.endswith("Softmax") and opset < 13 else -1)
            if len([o for o in node.output if o]) > 1:
                return "LayerNormalization's Mean or InvStdDev output is read"
        else:
            if _attr(node, "keepdims", 1) == 0:
                return "a Reduce with keepdims=0"
            if node.output[0] in outputs:
                return "a Reduce whose value is the graph's output (its shape lacks the row)"
            axes = _attr(node, "axes", None)
            if axes is None and len(node.input) > 1 and node.input[1]:
                axes = _const_ints(graph, node.input[1])
            if axes is None or len(axes) == 0:
                if _attr(node, "noop_with_empty_axes", 0):
                    return "a Reduce with no axes and noop_with_empty_axes=1"
                axes = [-1] if rank == 1 else list(range(rank))
            if len(axes) != 1:
                return "a Reduce over several axes"
            axis = axes[0]
        if (axis + rank if axis < 0 else axis) != rank - 1:
            return "a row reduction along another axis than the last"
    return None


def verdict(case):
    """(selected, reason): reason says why a case is not selected."""
    graph = case.model.graph
    ops = [n.op_type for n in graph.node]
    if not any(op in OPERATORS for op in ops):
        return False, None                       # a test of something else: not listed
    others = sorted({op for op in ops if op not in OPERATORS and op not in FOLDED})
    if others:
        return False, "nodes of operators outside the list: " + ", ".join(others)
    for vi in list(graph.input) + list(graph.output):
        if not vi.type.HasField("tensor_type"):
            return False, "'%s' is a %s, not a tensor" % (vi.name, vi.type.WhichOneof("value"))
    if case.name in EXCLUDED:
        return False, EXCLUDED[case.name]
    why = row_refusal(case)
    if why:
        return False, "wherec import leaves it to onnxruntime: " + why
    return True, None


def onnx_opset(model):
    return max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))


def newest_opset(version):
    """The newest ai.onnx opset onnx VERSION knows (onnx.helper.VERSION_TABLE)."""
    for row in onnx.helper.VERSION_TABLE:
        if row[0] == version:
            return row[2]
    raise SystemExit("node_tests.py: onnx %s is not in onnx %s's VERSION_TABLE"
                     % (version, onnx.__version__))


def list_version(path):
    with open(path) as f:
        for ln in f:
            if ln.startswith("# node_tests"):
                return ln.split("(onnx ", 1)[1].split(")", 1)[0]
    raise SystemExit("node_tests.py: %s names no onnx version" % path)


def besides_filter(cases, besides):
    """The cases of this onnx that the list BESIDES (another onnx's) does not have: the tests
    it does not name, and, under the name <test>_opset<N>, those it names whose model here
    imports an opset newer than any that onnx knows (the test of a newer version of the
    operator: same name, new model). The rest are its tests again, left to it."""
    theirs = set(read_list(besides))
    newest = newest_opset(list_version(besides))
    out = []
    for case in cases:
        if case.name not in theirs:
            out.append((case.name, case))
        elif onnx_opset(case.model) > newest:
            out.append(("%s_opset%d" % (case.name, onnx_opset(case.model)), case))
    return out


def list_text(besides=None):
    cases = collect()
    selected, left = [], []
    for case in cases:
        ok, why = verdict(case)
        if ok:
            selected.append(case)
        elif why:
            left.append((case.name, why))
    named = [(case.name, case) for case in selected]
    if besides:
        named = besides_filter(selected, besides)
        refused = [(n, c, refusal(c)) for n, c in named if refusal(c)]
        named = [(n, c) for n, c in named if not refusal(c)]
        lines = [
            "# node_tests_pypi.txt: the ONNX backend node tests (onnx %s) of the operators wherec "
            "imports" % onnx.__version__,
            "# that %s (onnx %s, opsets to %d) does not have: new tests, and as <test>_opset<N> "
            "the new" % (os.path.basename(besides), list_version(besides),
                         newest_opset(list_version(besides))),
            "# opset's model of a test it has; written by node_tests.py list --besides (do not "
            "edit).",
            "# One ctest onnx_node_<name> per line; a line '<name> refused: <message>' is a model "
            "wherec",
            "# import must refuse with that message (node_tests.py refusal(), the comment above it "
            "says why).",
            "# %d tests, %d of them expected refusals" % (len(named) + len(refused), len(refused)),
        ]
        lines += [n for n, _ in named]
        why = None
        for n, _, (w, message) in sorted(refused, key=lambda r: (r[2][0], r[0])):
            if w != why:
                lines.append("# refused: %s" % w)
                why = w
            lines.append("%s refused: %s" % (n, message))
        lines.append("# left out:")
        lines += ["# %s: %s" % (name, why) for name, why in left]
        return "\n".join(lines) + "\n"
    lines = [
        "# node_tests.txt: the ONNX backend node tests (onnx %s) of the operators wherec imports;"
        % onnx.__version__,
        "# written by node_tests.py list (do not edit). One ctest onnx_node_<name> per line.",
    ]
    by_op = {}
    for case in selected:
        op = next(n.op_type for n in case.model.graph.node if n.op_type in OPERATORS)
        by_op.setdefault(op, []).append(case.name)
    lines.append("# %d tests; operators with none in onnx %s: %s" % (
        len(selected), onnx.__version__,
        " ".join(op for op in OPERATORS if op not in by_op) or "-"))
    lines += [case.name for case in selected]
    lines.append("# left out:")
    lines += ["# %s: %s" % (name, why) for name, why in left]
    return "\n".join(lines) + "\n"


def write_list(out, check, besides=None):
    text = list_text(besides)
    if check:
        with open(check) as f:
            if f.read() != text:
                raise SystemExit("node_tests.py: %s is not what onnx %s selects: rerun "
                                 "node_tests.py list %s-o %s"
                                 % (check, onnx.__version__,
                                    "--besides %s " % besides if besides else "", check))
    elif out:
        with open(out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def read_list(path):
    """The test names of a list (a refusal line's name too)."""
    with open(path) as f:
        return [ln.split()[0] for ln in f if ln.strip() and not ln.startswith("#")]


def save(path, value, vi):
    if vi.type.HasField("tensor_type") and isinstance(value, onnx.TensorProto):
        proto = onnx.TensorProto()
        proto.CopyFrom(value)
        proto.name = vi.name
    elif vi.type.HasField("tensor_type"):
        # a scalar as a 0-d array (onnx 1.23's test_dequantizelinear_* give numpy scalars)
        proto = numpy_helper.from_array(np.asarray(value), vi.name)
    else:
        raise SystemExit("%s: '%s' is not a tensor" % (path, vi.name))
    with open(path, "wb") as f:
        f.write(proto.SerializeToString())


def write_case(case, out_dir, name=None):
    model = case.model
    if os.path.exists(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    with open(os.path.join(out_dir, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    # constants a kernel may take as parameters, each a TensorProto named by its value
    consts = list(model.graph.initializer)
    for node in model.graph.node:
        if node.op_type == "Constant":
            for a in node.attribute:
                if a.name == "value":
                    t = onnx.TensorProto()
                    t.CopyFrom(a.t)
                    t.name = node.output[0]
                    consts.append(t)
    if consts:
        os.makedirs(os.path.join(out_dir, "constants"))
        for i, t in enumerate(consts):
            with open(os.path.join(out_dir, "constants", "%d.pb" % i), "wb") as f:
                f.write(t.SerializeToString())
    for d, (inputs, outputs) in enumerate(case.data_sets):
        oracle = ORACLE.get(name or case.name)
        if oracle:
            outputs = [oracle(*inputs)]
        if (name or case.name) in REGENERATED:
            outputs = [REGENERATED[name or case.name][0](model.graph.node[0], *inputs)]
        ds = os.path.join(out_dir, "test_data_set_%d" % d)
        os.makedirs(ds)
        for j, value in enumerate(inputs):
            save(os.path.join(ds, "input_%d.pb" % j), value, model.graph.input[j])
        for j, value in enumerate(outputs):
            save(os.path.join(ds, "output_%d.pb" % j), value, model.graph.output[j])


def harness_case():
    """A model of the runner's harder paths (not an ONNX test): kernels chained by value (w
    feeds a node of its kernel and one outside it: that kernel writes it too, as a second
    output the next kernel reads), two graph outputs, a constant that becomes a parameter,
    two data sets; the expected outputs are numpy's."""
    from onnx import TensorProto as T
    from onnx import helper as h
    k = np.array([[0.5, -0.0, np.inf], [-2.0, 3.0, -np.inf]], dtype=np.float32)
    nodes = [
        h.make_node("Constant", [], ["k"], value=numpy_helper.from_array(k, "k")),
        h.make_node("Where", ["c", "x", "y"], ["w"]),
        h.make_node("Where", ["c", "k", "w"], ["o1"]),
        h.make_node("Relu", ["w"], ["o2"]),
    ]
    graph = h.make_graph(nodes, "harness_chained_kernels",
                         [h.make_tensor_value_info("c", T.BOOL, [2, 3]),
                          h.make_tensor_value_info("x", T.FLOAT, [2, 3]),
                          h.make_tensor_value_info("y", T.FLOAT, [2, 3])],
                         [h.make_tensor_value_info("o1", T.FLOAT, [2, 3]),
                          h.make_tensor_value_info("o2", T.FLOAT, [2, 3])])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 16)])
    rng = np.random.default_rng(SEED)
    data_sets = []
    for _ in range(2):
        c = rng.random((2, 3)) < 0.5
        x = rng.standard_normal((2, 3)).astype(np.float32)
        y = rng.standard_normal((2, 3)).astype(np.float32)
        w = np.where(c, x, y)
        data_sets.append(([c, x, y], [np.where(c, k, w), np.maximum(w, np.float32(0))]))

    class Case:
        name = "harness_chained_kernels"
    case = Case()
    case.model, case.data_sets = model, data_sets
    return case


def generate(list_path, out, numpy_exp):
    wanted = read_list(list_path)
    cases = {case.name: case for case in collect(numpy_exp)}
    for name in wanted:                     # <test>_opset<N>: <test> of this onnx, at opset N
        base, _, n = name.rpartition("_opset")
        if name not in cases and base in cases and n == str(onnx_opset(cases[base].model)):
            cases[name] = cases[base]
    missing = [name for name in wanted if name not in cases]
    if missing:
        raise SystemExit("node_tests.py: onnx %s has no node test %s (the list is of another "
                         "onnx: rerun node_tests.py list)" % (onnx.__version__, ", ".join(missing)))
    os.makedirs(out, exist_ok=True)
    for name in wanted:
        write_case(cases[name], os.path.join(out, name), name)
    harness = harness_case()
    write_case(harness, os.path.join(out, harness.name))
    with open(os.path.join(out, "stamp"), "w") as f:
        f.write("%d node tests of onnx %s\n" % (len(wanted), onnx.__version__))


def load_operators(wherec):
    global OPERATORS
    import json
    import subprocess
    r = subprocess.run([wherec, "import", "--list-operators"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("node_tests.py: %s import --list-operators: %s" % (wherec, r.stderr.strip()))
    OPERATORS = tuple(op["name"] for op in json.loads(r.stdout)["operators"]
                      if op["elementwise"] and op["name"] not in FOLDED)


def main():
    p = argparse.ArgumentParser(description="ONNX backend node tests for wherec")
    p.add_argument("--wherec", required=True, help="the wherec whose operator table selects")
    sub = p.add_subparsers(dest="cmd", required=True)
    lp = sub.add_parser("list")
    lp.add_argument("-o", "--output", help="write the list here (default: stdout)")
    lp.add_argument("--check", metavar="LIST", help="fail unless LIST is the list, unchanged")
    lp.add_argument("--besides", metavar="LIST",
                    help="only the tests another onnx's LIST does not have (node_tests_pypi.txt)")
    gp = sub.add_parser("generate")
    gp.add_argument("list")
    gp.add_argument("out_dir")
    gp.add_argument("--numpy-exp", action="store_true",
                    help="expected outputs with numpy's float32 exp, not a correctly rounded one")
    args = p.parse_args()
    load_operators(args.wherec)
    if args.cmd == "list":
        write_list(args.output, args.check, args.besides)
    else:
        generate(args.list, args.out_dir, args.numpy_exp)


if __name__ == "__main__":
    main()
