#!/usr/bin/env python3
"""infer_vs_onnx.py: wherec import's type and shape rules against onnx's own inference, one
row of the operator table at a time.

For every operator of `wherec import --list-operators`, single-node models of random shapes
(some extents a dim_param) at the newest opset onnx knows for it: CASES says how each
operator's inputs and attributes are made (the element-wise rows from their columns). onnx
infers the output with data propagation (onnx.shape_inference.infer_shapes(data_prop=True));
`wherec import --shapes` gives wherec's. Where onnx infers a dtype, a rank or an extent,
wherec must infer the same dtype, rank, and the same number or the same dim_param.

usage: infer_vs_onnx.py --wherec WHEREC [--seed S] [--rounds N] [--only OPS] [-v]
Exit 0: all agree; 1: a disagreement (listed); 77: onnx or numpy missing for this python.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import onnx
    from onnx import TensorProto as T, helper, numpy_helper
except ImportError as e:
    print("skipped: onnx or numpy is not installed for %s (%s); scripts/ort-venv.sh makes a "
          "venv with them" % (sys.executable, e))
    sys.exit(77)
if tuple(int(p) for p in onnx.__version__.split(".")[:2]) < (1, 16):
    # the cases are written for each operator's newest form (Reduce*'s axes as an input, ...);
    # an older onnx would check them against an older opset's
    print("skipped: onnx %s is older than 1.16 (%s); scripts/ort-venv.sh makes a venv with a "
          "newer one" % (onnx.__version__, sys.executable))
    sys.exit(77)

ELEM = {"float": T.FLOAT, "double": T.DOUBLE, "float16": T.FLOAT16, "int8": T.INT8,
        "int16": T.INT16, "int32": T.INT32, "int64": T.INT64, "uint8": T.UINT8,
        "uint16": T.UINT16, "uint32": T.UINT32, "uint64": T.UINT64, "bool": T.BOOL,
        "bfloat16": T.BFLOAT16, "string": T.STRING}
NAMES = {v: k for k, v in ELEM.items()}
# Operators whose models need sub-graphs: tests/gen/import/test_infer.c checks their rules
# (If's branches inferred in place, a decided condition, Loop and Scan bodies).
UNTESTED = {"If": "sub-graphs (test_infer.c)", "Loop": "sub-graphs (test_infer.c)",
            "Scan": "sub-graphs (test_infer.c)", "Constant": "a value, no input (every case)",
            "ImageDecoder": "encoded bytes, shape known when it runs",
            "CausalConvWithState": "shape known when it runs (opaque rule)",
            "LinearAttention": "shape known when it runs (opaque rule)"}
for _s in ("SequenceConstruct", "SequenceEmpty", "SequenceAt", "SequenceErase", "SequenceInsert",
           "SequenceLength", "SequenceMap", "SplitToSequence", "ConcatFromSequence", "Optional",
           "OptionalGetElement", "OptionalHasElement"):
    UNTESTED[_s] = "sequences and optionals are no tensors (opaque rule)"


class Case:
    """One model: inputs (name, elem, dims with 'N'/'M' for dim_params), initializers, a node."""

    def __init__(self, rng):
        self.rng = rng
        self.inputs, self.inits, self.attrs, self.names = [], [], {}, []
        self.n_outputs = 1

    def dims(self, rank, lo=1, hi=5, sym=True):
        d = [self.rng.randint(lo, hi) for _ in range(rank)]
        if sym and rank and self.rng.random() < 0.5:
            d[self.rng.randrange(rank)] = self.rng.choice(["N", "M"])
        return d

    def x(self, elem, dims):
        name = "in%d" % len(self.names)
        self.inputs.append(helper.make_tensor_value_info(name, elem, dims))
        self.names.append(name)
        return name

    def c(self, array, elem=None):
        name = "c%d" % len(self.names)
        a = np.asarray(array)
        t = numpy_helper.from_array(a, name)
        if elem is not None:
            t = helper.make_tensor(name, elem, a.shape, a.reshape(-1).tolist())
        self.inits.append(t)
        self.names.append(name)
        return name

    def skip(self):
        self.names.append("")


def fixed(d):
    return [x if isinstance(x, int) else 3 for x in d]


def elementwise(op, case, rng):
    """A node of an element-wise row from its columns: T inputs of one dtype of its classes
    and broadcasting shapes, B inputs bool, the other inputs as the operator wants them."""
    classes = op["dtype_classes"]
    elem = {"float": T.FLOAT, "signed": T.INT32, "unsigned": T.UINT8, "bool": T.BOOL,
            "string": T.STRING}[next(c for c in ("float", "signed", "unsigned", "bool", "string")
                                     if c in classes)]
    name = op["name"]
    if name == "DequantizeLinear":
        elem = T.UINT8
    out = case.dims(rng.randint(0, 4))
    n = op["min_inputs"] if op["max_inputs"] != -1 else rng.randint(1, 3)
    for k in range(max(n, 1)):
        spec = op["inputs"][min(k, len(op["inputs"]) - 1)]
        if spec["kind"] == "B":
            case.x(T.BOOL, out)
        elif spec["kind"] == "T":
            shape = out if k == 0 or op["shape"] == "first" else out[rng.randint(0, len(out)):]
            case.x(elem, shape if op["shape"] != "first" or k == 0 else [])
        elif name == "CastLike":
            case.x(T.DOUBLE, [2])
        elif name == "Pow":
            case.c(np.array(2.0, np.float32))
        elif name in ("QuantizeLinear", "DequantizeLinear"):
            case.c(np.array(0.5, np.float32))
        elif name == "Dropout":
            case.skip()
    if name in ("QuantizeLinear",):
        case.c(np.array(3, np.uint8))
    if name == "Cast":
        case.attrs["to"] = T.INT64
    if name == "BitShift":
        case.attrs["direction"] = "LEFT"


def conv(case, rng, transpose=False, integer=False):
    rank = rng.randint(1, 2)
    c, m = rng.randint(1, 3), rng.randint(1, 3)
    k = [rng.randint(1, 3) for _ in range(rank)]
    elem = T.UINT8 if integer else T.FLOAT
    case.x(elem, [rng.choice([1, 2, "N"]), c] + case.dims(rank, 4, 9))
    w = np.zeros([c, m] + k if transpose else [m, c] + k, np.uint8 if integer else np.float32)
    case.c(w)
    case.attrs["strides"] = [rng.randint(1, 2) for _ in range(rank)]
    case.attrs["pads"] = [rng.randint(0, 1) for _ in range(2 * rank)]


def pool(case, rng):
    rank = rng.randint(1, 2)
    case.x(T.FLOAT, [2, 3] + case.dims(rank, 4, 9))
    case.attrs["kernel_shape"] = [rng.randint(1, 3) for _ in range(rank)]
    case.attrs["strides"] = [rng.randint(1, 2) for _ in range(rank)]


def axes_input(case, rng, rank, n=1):
    case.c(np.array(sorted(rng.sample(range(-rank, rank), n)) if rank else [], np.int64))


CASES = {
    "Conv": lambda c, r: conv(c, r),
    "ConvInteger": lambda c, r: conv(c, r, integer=True),
    "ConvTranspose": lambda c, r: conv(c, r, transpose=True),
    "MaxPool": pool, "AveragePool": pool, "LpPool": pool,
    "GlobalAveragePool": lambda c, r: c.x(T.FLOAT, [2, 3] + c.dims(2)),
    "GlobalMaxPool": lambda c, r: c.x(T.FLOAT, [2, 3] + c.dims(2)),
    "GlobalLpPool": lambda c, r: c.x(T.FLOAT, [2, 3] + c.dims(2)),
    "InstanceNormalization": lambda c, r: (c.x(T.FLOAT, [2, 3, 4]), c.c(np.ones(3, np.float32)),
                                           c.c(np.zeros(3, np.float32))),
    "LRN": lambda c, r: (c.x(T.FLOAT, [1, 3] + c.dims(2)), c.attrs.update(size=3)),
    "Softmax": lambda c, r: c.x(T.FLOAT, c.dims(3)),
    "LogSoftmax": lambda c, r: c.x(T.FLOAT, c.dims(3)),
    "Hardmax": lambda c, r: c.x(T.FLOAT, c.dims(3)),
    "LayerNormalization": lambda c, r: (c.x(T.FLOAT, c.dims(2) + [4]), c.c(np.ones(4, np.float32))),
    "MeanVarianceNormalization": lambda c, r: c.x(T.FLOAT, [2, 3, 4, 5]),
    "GroupNormalization": lambda c, r: (c.x(T.FLOAT, [2, 4, 3]), c.c(np.ones(4, np.float32)),
                                        c.c(np.zeros(4, np.float32)), c.attrs.update(num_groups=2)),
    "Trilu": lambda c, r: c.x(T.FLOAT, c.dims(2)),
    "CumSum": lambda c, r: (c.x(T.FLOAT, c.dims(2)), c.c(np.array(1, np.int64))),
    "ReverseSequence": lambda c, r: (c.x(T.FLOAT, [4, 2, 3]), c.c(np.array([4, 2], np.int64))),
    "Gemm": lambda c, r: (c.x(T.FLOAT, [r.choice([2, "N"]), 3]), c.c(np.zeros((3, 4), np.float32)),
                          c.c(np.zeros(4, np.float32))),
    "MatMul": lambda c, r: (c.x(T.FLOAT, c.dims(r.randint(0, 2)) + [2, 3]),
                            c.c(np.zeros((3, 4), np.float32))),
    "MatMulInteger": lambda c, r: (c.x(T.UINT8, [2, 3]), c.c(np.zeros((3, 4), np.uint8))),
    "Reshape": lambda c, r: (c.x(T.FLOAT, [2, 3, 4]), c.c(np.array(r.choice([[-1], [0, -1], [6, 4],
                                                                               [2, 0, 2, 2]]),
                                                                     np.int64))),
    "Flatten": lambda c, r: (c.x(T.FLOAT, c.dims(3)), c.attrs.update(axis=r.randint(0, 3))),
    "Transpose": lambda c, r: (c.x(T.FLOAT, c.dims(3)), c.attrs.update(perm=r.sample(range(3), 3))),
    "Concat": lambda c, r: (c.x(T.FLOAT, [2, 3]), c.x(T.FLOAT, [2, r.randint(1, 4)]),
                            c.attrs.update(axis=1)),
    "Split": lambda c, r: (c.x(T.FLOAT, [6, 2]), c.c(np.array([2, 4], np.int64)),
                           setattr(c, "n_outputs", 2)),
    "Slice": lambda c, r: (c.x(T.FLOAT, [5, 6]), c.c(np.array([1, -4], np.int64)),
                           c.c(np.array([4, 100], np.int64)), c.c(np.array([0, 1], np.int64)),
                           c.c(np.array([1, r.choice([1, 2])], np.int64))),
    # indices in range whatever the extent (onnx does not check them; wherec refuses, saying so)
    "Gather": lambda c, r: (c.x(T.FLOAT, c.dims(2)), c.c(np.array(r.choice([0, [0, -1], [[0]]]),
                                                               np.int64))),
    "Squeeze": lambda c, r: (c.x(T.FLOAT, [3, 1, 4]), c.c(np.array([1], np.int64))),
    "Unsqueeze": lambda c, r: (c.x(T.FLOAT, c.dims(2)), c.c(np.array([0, 3], np.int64))),
    "Expand": lambda c, r: (c.x(T.FLOAT, [3, 1]), c.c(np.array([2, 3, 4], np.int64))),
    "Tile": lambda c, r: (c.x(T.FLOAT, [2, 3]), c.c(np.array([2, 1], np.int64))),
    "Resize": lambda c, r: (c.x(T.FLOAT, [1, 2, 4, 4]), c.skip(),
                            c.c(np.array([1, 1, 2, 0.5], np.float32))),
    "Upsample": lambda c, r: (c.x(T.FLOAT, [1, 2, 4, 4]), c.c(np.array([1, 1, 2, 2], np.float32))),
    "Pad": lambda c, r: (c.x(T.FLOAT, c.dims(2)), c.c(np.array([1, 0, 2, 3], np.int64))),
    "ArgMax": lambda c, r: (c.x(T.FLOAT, c.dims(3)), c.attrs.update(axis=1, keepdims=r.randint(0, 1))),
    "ArgMin": lambda c, r: (c.x(T.FLOAT, c.dims(3)), c.attrs.update(axis=-1)),
    "Shape": lambda c, r: c.x(T.FLOAT, c.dims(3)),
    "Size": lambda c, r: c.x(T.FLOAT, [2, 3]),
    "ConstantOfShape": lambda c, r: c.c(np.array([2, 3], np.int64)),
    "Range": lambda c, r: (c.c(np.array(1, np.int64)), c.c(np.array(9, np.int64)),
                           c.c(np.array(2, np.int64))),
    "DynamicQuantizeLinear": lambda c, r: (c.x(T.FLOAT, c.dims(2)), setattr(c, "n_outputs", 3)),
    "BatchNormalization": lambda c, r: (c.x(T.FLOAT, [r.choice([2, "N"]), 3] + c.dims(r.randint(0, 2))),
                                        [c.c(np.ones(3, np.float32)) for _ in range(4)]),
    "LpNormalization": lambda c, r: c.x(T.FLOAT, c.dims(3)),
    "RMSNormalization": lambda c, r: (c.x(T.FLOAT, c.dims(2) + [4]), c.c(np.ones(4, np.float32))),
    "RotaryEmbedding": lambda c, r: (c.x(T.FLOAT, [2, 3, 5, 8]), c.c(np.ones((5, 4), np.float32)),
                                     c.c(np.ones((5, 4), np.float32))),
    "Swish": lambda c, r: c.x(T.FLOAT, c.dims(3)),
    "SwiGLU": lambda c, r: (c.x(T.FLOAT, c.dims(2)), c.x(T.FLOAT, c.dims(2))),
    "CumProd": lambda c, r: (c.x(T.FLOAT, c.dims(2)), c.c(np.array(1, np.int64))),
    "ScatterElements": lambda c, r: (c.x(T.FLOAT, c.dims(2)), c.c(np.zeros((1, 1), np.int64)),
                                     c.x(T.FLOAT, [1, 1])),
    "ScatterND": lambda c, r: (c.x(T.FLOAT, c.dims(2)), c.c(np.zeros((1, 2), np.int64)),
                               c.x(T.FLOAT, [1])),
    "TensorScatter": lambda c, r: (c.x(T.FLOAT, [2, 3, 8, 4]), c.x(T.FLOAT, [2, 3, 1, 4])),
    "TopK": lambda c, r: (c.x(T.FLOAT, c.dims(2, 2, 5)), c.c(np.array([1], np.int64)),
                          c.attrs.update(axis=r.choice([0, 1, -1])), setattr(c, "n_outputs", 2)),
    "GatherElements": lambda c, r: (c.x(T.FLOAT, c.dims(2)), c.c(np.zeros((1, 2), np.int64))),
    "GatherND": lambda c, r: (c.x(T.FLOAT, c.dims(3)), c.c(np.zeros((2, r.randint(1, 3)), np.int64))),
    "OneHot": lambda c, r: (c.x(T.INT64, c.dims(2)), c.c(np.array(r.randint(2, 5), np.int64)),
                            c.c(np.array([0, 1], np.float32)), c.attrs.update(axis=r.choice([0, -1, 1]))),
    "Compress": lambda c, r: (c.x(T.FLOAT, [3, 4]), c.x(T.BOOL, [3]), c.attrs.update(axis=0)),
    "Unique": lambda c, r: (c.x(T.FLOAT, c.dims(2)), setattr(c, "n_outputs", 4)),
    "DepthToSpace": lambda c, r: (c.x(T.FLOAT, [1, 8, r.randint(1, 4), 3]), c.attrs.update(blocksize=2)),
    "SpaceToDepth": lambda c, r: (c.x(T.FLOAT, [1, 3, 4, 2 * r.randint(1, 3)]),
                                  c.attrs.update(blocksize=2)),
    "Einsum": lambda c, r: (c.x(T.FLOAT, [2, 3]), c.x(T.FLOAT, [3, r.choice([4, "M"])]),
                            c.attrs.update(equation=r.choice(["ij,jk->ik", "ij,jk", "ij,jk->ki"]))),
    "Det": lambda c, r: c.x(T.FLOAT, c.dims(r.randint(0, 2)) + [3, 3]),
    "NonMaxSuppression": lambda c, r: (c.x(T.FLOAT, [1, 6, 4]), c.x(T.FLOAT, [1, 1, 6])),
    "RoiAlign": lambda c, r: (c.x(T.FLOAT, [1, 3, 8, 8]), c.x(T.FLOAT, [5, 4]),
                              c.x(T.INT64, [5]), c.attrs.update(output_height=2, output_width=3)),
    "MaxRoiPool": lambda c, r: (c.x(T.FLOAT, [1, 3, 8, 8]), c.x(T.FLOAT, [5, 5]),
                                c.attrs.update(pooled_shape=[2, 2])),
    "GridSample": lambda c, r: (c.x(T.FLOAT, [1, 3, 8, 8]), c.x(T.FLOAT, [1, 5, 6, 2])),
    "AffineGrid": lambda c, r: (c.x(T.FLOAT, [2, 2, 3]), c.c(np.array([2, 3, 5, 7], np.int64))),
    "MaxUnpool": lambda c, r: (c.x(T.FLOAT, [1, 1, 2, 2]), c.x(T.INT64, [1, 1, 2, 2]),
                               c.attrs.update(kernel_shape=[2, 2], strides=[2, 2])),
    "Col2Im": lambda c, r: (c.x(T.FLOAT, [1, 4, 9]), c.c(np.array([4, 4], np.int64)),
                            c.c(np.array([2, 2], np.int64))),
    "CenterCropPad": lambda c, r: (c.x(T.FLOAT, [5, 6]), c.c(np.array([3, 8], np.int64))),
    "DeformConv": lambda c, r: (c.x(T.FLOAT, [1, 2, 5, 5]), c.c(np.zeros((3, 2, 3, 3), np.float32)),
                                c.x(T.FLOAT, [1, 18, 3, 3])),
    "DFT": lambda c, r: (c.x(T.FLOAT, [2, 8, 1]),),
    # onesided given: onnx's inference takes its absence as 0, onnxruntime and the spec as 1
    "STFT": lambda c, r: (c.x(T.FLOAT, [1, 64, 1]), c.c(np.array(8, np.int64)),
                          c.c(np.ones(16, np.float32)), c.attrs.update(onesided=r.randint(0, 1))),
    "HannWindow": lambda c, r: c.c(np.array(10, np.int64)),
    "HammingWindow": lambda c, r: c.c(np.array(10, np.int64)),
    "BlackmanWindow": lambda c, r: c.c(np.array(10, np.int64)),
    "MelWeightMatrix": lambda c, r: (c.c(np.array(8, np.int64)), c.c(np.array(16, np.int64)),
                                     c.c(np.array(16000, np.int64)), c.c(np.array(0.0, np.float32)),
                                     c.c(np.array(8000.0, np.float32))),
    "QLinearConv": lambda c, r: (c.x(T.UINT8, [1, 2, 5, 5]), c.c(np.array(0.1, np.float32)),
                                 c.c(np.array(0, np.uint8)), c.c(np.zeros((3, 2, 3, 3), np.uint8)),
                                 c.c(np.array(0.1, np.float32)), c.c(np.array(0, np.uint8)),
                                 c.c(np.array(0.1, np.float32)), c.c(np.array(0, np.int8))),
    "QLinearMatMul": lambda c, r: (c.x(T.UINT8, [2, 3]), c.c(np.array(0.1, np.float32)),
                                   c.c(np.array(0, np.uint8)), c.c(np.zeros((3, 4), np.uint8)),
                                   c.c(np.array(0.1, np.float32)), c.c(np.array(0, np.uint8)),
                                   c.c(np.array(0.1, np.float32)), c.c(np.array(0, np.uint8))),
    "Attention": lambda c, r: (c.x(T.FLOAT, [2, 4, 5, 8]), c.x(T.FLOAT, [2, 4, 6, 8]),
                               c.x(T.FLOAT, [2, 4, 6, 16])),
    "RandomNormal": lambda c, r: c.attrs.update(shape=[2, 3]),
    "RandomUniform": lambda c, r: c.attrs.update(shape=[4], dtype=T.DOUBLE),
    "RandomNormalLike": lambda c, r: c.x(T.FLOAT, c.dims(2)),
    "RandomUniformLike": lambda c, r: (c.x(T.FLOAT, c.dims(2)), c.attrs.update(dtype=T.DOUBLE)),
    "Bernoulli": lambda c, r: c.x(T.FLOAT, c.dims(2)),
    "EyeLike": lambda c, r: (c.x(T.INT32, c.dims(2)), c.attrs.update(dtype=T.FLOAT)),
    "Multinomial": lambda c, r: (c.x(T.FLOAT, [2, 5]), c.attrs.update(sample_size=3)),
    "BitCast": lambda c, r: (c.x(T.FLOAT, c.dims(2)), c.attrs.update(to=T.INT32)),
    "NegativeLogLikelihoodLoss": lambda c, r: (c.x(T.FLOAT, [3, 5]), c.x(T.INT64, [3]),
                                               c.attrs.update(reduction=r.choice(["none", "mean"]))),
    "SoftmaxCrossEntropyLoss": lambda c, r: (c.x(T.FLOAT, [3, 5]), c.x(T.INT64, [3]),
                                             setattr(c, "n_outputs", 2)),
    "RegexFullMatch": lambda c, r: (c.x(T.STRING, c.dims(2)), c.attrs.update(pattern="a+")),
    "StringConcat": lambda c, r: (c.x(T.STRING, c.dims(2)), c.x(T.STRING, [1])),
    "StringNormalizer": lambda c, r: c.x(T.STRING, [4]),
    "StringSplit": lambda c, r: (c.x(T.STRING, c.dims(2)), setattr(c, "n_outputs", 2)),
    "TfIdfVectorizer": lambda c, r: (c.x(T.INT64, [2, 6]), c.attrs.update(
        mode="TF", min_gram_length=1, max_gram_length=1, max_skip_count=0,
        ngram_counts=[0], ngram_indexes=[0, 1, 2], pool_int64s=[1, 2, 3])),
    "LSTM": lambda c, r: rnn(c, r, 4),
    "GRU": lambda c, r: rnn(c, r, 3),
    "RNN": lambda c, r: rnn(c, r, 1),
}
for _reduce in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"):
    CASES[_reduce] = lambda c, r: (c.x(T.FLOAT, [2, 3, 4]), axes_input(c, r, 3),
                                   c.attrs.update(keepdims=r.randint(0, 1)))


def rnn(case, rng, gates):
    seq, batch, inp, hid = 5, rng.choice([1, 2]), 3, 4
    case.x(T.FLOAT, [seq, batch, inp])
    case.c(np.zeros((1, gates * hid, inp), np.float32))
    case.c(np.zeros((1, gates * hid, hid), np.float32))
    case.attrs["hidden_size"] = hid
    case.n_outputs = 3 if gates == 4 else 2


def model_of(op, opset, case):
    outs = ["out%d" % k for k in range(case.n_outputs)]
    node = helper.make_node(op["name"], [n for n in case.names], outs, **case.attrs)
    g = helper.make_graph([node], op["name"].lower(), case.inputs,
                          [helper.make_tensor_value_info(o, T.UNDEFINED, None) for o in outs],
                          case.inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m, outs


def onnx_view(m, outs):
    """{output: (dtype name or None, [extent or dim_param or None] or None)} by onnx; an
    extent onnx made up (unk__N, no dim_param of the inputs) is None, as wherec's are."""
    inferred = onnx.shape_inference.infer_shapes(m, data_prop=True)
    params = {d.dim_param for vi in m.graph.input for d in vi.type.tensor_type.shape.dim
              if d.dim_param}
    got = {}
    for vi in list(inferred.graph.value_info) + list(inferred.graph.output):
        if vi.name not in outs or not vi.type.HasField("tensor_type"):
            continue
        t = vi.type.tensor_type
        dims = None
        if t.HasField("shape"):
            dims = [d.dim_value if d.HasField("dim_value") else
                    d.dim_param if d.dim_param in params else None for d in t.shape.dim]
        got[vi.name] = (NAMES.get(t.elem_type) if t.elem_type else None, dims)
    return got


def wherec_view(wherec, m, work):
    path = os.path.join(work, "m.onnx")
    onnx.save(m, path)
    r = subprocess.run([wherec, "import", path, "--shapes"], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return {v["name"]: (v["dtype"], v["shape"]) for v in json.loads(r.stdout)["values"]}, None


def disagreements(want, got):
    """Where onnx knows more than wherec or says otherwise."""
    out = []
    for name, (dt, dims) in want.items():
        mdt, mdims = got.get(name, (None, None))
        if dt and dt != mdt:
            out.append("%s: dtype %s, onnx %s" % (name, mdt, dt))
        if dims is None:
            continue
        if mdims is None or len(mdims) != len(dims):
            out.append("%s: shape %s, onnx %s" % (name, mdims, dims))
            continue
        for d, (a, b) in enumerate(zip(mdims, dims)):
            if b is not None and a != b:
                out.append("%s: extent %d is %s, onnx %s (shape %s, onnx %s)"
                           % (name, d, a, b, mdims, dims))
                break
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wherec", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=6, help="random models per operator")
    ap.add_argument("--only")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    r = subprocess.run([args.wherec, "import", "--list-operators"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("infer_vs_onnx.py: %s import --list-operators: %s" % (args.wherec, r.stderr))
    ops = json.loads(r.stdout)["operators"]
    if args.only:
        ops = [o for o in ops if o["name"] in args.only.split(",")]
    newest = onnx.defs.onnx_opset_version()
    failures, checked, cases, untested = [], 0, 0, []
    with tempfile.TemporaryDirectory() as work:
        for op in ops:
            if op["domain"] != "ai.onnx":  # onnx has no inference of com.microsoft's
                untested.append("%s (%s: test_infer.c)" % (op["name"], op["domain"]))
                continue
            if op["name"] in UNTESTED:
                untested.append("%s (%s)" % (op["name"], UNTESTED[op["name"]]))
                continue
            make = CASES.get(op["name"])
            if make is None and not op["elementwise"]:
                failures.append("%s: no case in CASES: add one" % op["name"])
                continue
            known = [v for v in op["since"] if v <= newest]
            if not known:  # an older onnx (Debian's 1.12: opset 17) has no Mish, Gelu, ...
                untested.append("%s (newer than onnx %s's opset %d)" % (op["name"], onnx.__version__, newest))
                continue
            opset = max(known)
            for k in range(args.rounds):
                rng = random.Random("%d %s %d" % (args.seed, op["name"], k))
                case = Case(rng)
                if make:
                    make(case, rng)
                else:
                    elementwise(op, case, rng)
                m, outs = model_of(op, opset, case)
                try:
                    want = onnx_view(m, outs)
                except Exception as e:  # noqa: BLE001 - a case onnx refuses: a defect of the case
                    failures.append("%s-%d case %d: onnx refuses it: %s" % (op["name"], opset, k,
                                                                          str(e)[:200]))
                    continue
                got, err = wherec_view(args.wherec, m, work)
                cases += 1
                if got is None:
                    failures.append("%s-%d case %d: wherec import --shapes: %s"
                                    % (op["name"], opset, k, err))
                    continue
                bad = disagreements(want, got)
                checked += len(want)
                for b in bad:
                    failures.append("%s-%d case %d: %s" % (op["name"], opset, k, b))
                if args.v:
                    print("%s-%d case %d: %s" % (op["name"], opset, k, "ok" if not bad else bad))
    for f in failures:
        print("FAIL: %s" % f)
    print("%d operators, %d models, %d outputs compared with onnx %s's inference; %d "
          "disagreements; not here: %s" % (len(ops), cases, checked, onnx.__version__,
                                           len(failures), ", ".join(untested) or "-"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
