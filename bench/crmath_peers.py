"""bench/crmath_peers.py: numpy's and onnxruntime's versions of the correctly rounded
functions and activations of bench/crmath.where, on the inputs crmath_speed.c draws
(the same ranges, 16M floats, one thread, best of 9 calls), for bench/crmath.sh.

Prints one line per measurement: KERNEL<TAB>PEER VERSION<TAB>ns per element, KERNEL being
the crmath.where kernel it is set against. onnxruntime runs each ONNX node (or, for SiLU,
the Mul of a value and its Sigmoid, as models write it) in a session of its own at
ORT_ENABLE_ALL, its default, which applies every fusion it has.
usage: PYTHON bench/crmath_peers.py        (onnxruntime and onnx optional)
"""
import os
import re
import time

import numpy as np

N = 1 << 24
rng = np.random.default_rng(1)

HERE = os.path.dirname(os.path.abspath(__file__))


def ranges():
    """crmath_speed.c's kernel -> the range [lo, hi) its inputs are drawn from, read from
    its table, so that the peers get the same distribution."""
    with open(os.path.join(HERE, "crmath_speed.c")) as f:
        src = f.read()
    row = r'\{"(\w+)", crb_\w+_k, ([-\d.]+), ([-\d.]+)\}'
    return {k: (float(lo), float(hi)) for k, lo, hi in re.findall(row, src)}


RANGES = ranges()
_inputs = {}


def inputs(kernel):
    if kernel not in _inputs:
        lo, hi = RANGES[kernel]
        _inputs[kernel] = (rng.random(N) * (hi - lo) + lo).astype(np.float32)
    return _inputs[kernel]


def best(f, reps=9):
    t = 1e9
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - t0)
    return t / N * 1e9


def emit(kernel, peer, ns):
    print(f"{kernel}\t{peer}\t{ns:.3f}", flush=True)


NUMPY = [("exp", np.exp), ("log", np.log), ("tanh", np.tanh), ("sinh", np.sinh),
         ("cosh", np.cosh), ("sin", np.sin), ("cos", np.cos), ("tan", np.tan),
         ("asin", np.arcsin), ("acos", np.arccos), ("atan", np.arctan),
         ("asinh", np.arcsinh), ("acosh", np.arccosh), ("atanh", np.arctanh)]

# (kernel, ONNX op, opset, attributes); "SiLU" is Mul(x, Sigmoid(x))
ORT = [("exp", "Exp", 13, {}), ("log", "Log", 13, {}), ("tanh", "Tanh", 13, {}),
       ("sigmoid", "Sigmoid", 13, {}), ("erf", "Erf", 13, {}), ("sinh", "Sinh", 13, {}),
       ("cosh", "Cosh", 13, {}), ("sin", "Sin", 13, {}), ("cos", "Cos", 13, {}),
       ("tan", "Tan", 13, {}), ("asin", "Asin", 13, {}), ("acos", "Acos", 13, {}),
       ("atan", "Atan", 13, {}), ("asinh", "Asinh", 13, {}), ("acosh", "Acosh", 13, {}),
       ("atanh", "Atanh", 13, {}), ("elu_cr", "Elu", 13, {"alpha": 1.0}),
       ("selu_cr", "Selu", 13, {}),
       ("silu_cr", "SiLU", 13, {}), ("softplus", "Softplus", 13, {}),
       ("softsign", "Softsign", 13, {}), ("mish", "Mish", 18, {}),
       ("gelu_cr", "Gelu", 20, {}), ("gelu_tanh", "Gelu", 20, {"approximate": "tanh"})]


def numpy_rows():
    v = np.__version__
    o = np.empty(N, np.float32)
    for kernel, fn in NUMPY:
        x = inputs(kernel)
        emit(kernel, f"numpy {v}", best(lambda: fn(x, out=o)))
    x = inputs("sigmoid")
    emit("sigmoid", f"numpy {v}", best(lambda: np.divide(1, 1 + np.exp(-x), out=o)))


def ort_model(op, opset, attrs):
    from onnx import TensorProto, helper
    io = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [N]) for n in ("x", "y")]
    if op == "SiLU":
        nodes = [helper.make_node("Sigmoid", ["x"], ["s"]), helper.make_node("Mul", ["x", "s"], ["y"])]
    else:
        nodes = [helper.make_node(op, ["x"], ["y"], **attrs)]
    m = helper.make_model(helper.make_graph(nodes, "g", io[:1], io[1:]),
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m.SerializeToString()


def ort_rows():
    try:
        import onnxruntime as ort
    except ImportError:
        return
    so = ort.SessionOptions()
    so.intra_op_num_threads = so.inter_op_num_threads = 1
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    for kernel, op, opset, attrs in ORT:
        s = ort.InferenceSession(ort_model(op, opset, attrs), so, providers=["CPUExecutionProvider"])
        x = inputs(kernel)
        y = np.empty_like(x)
        io = s.io_binding()
        io.bind_cpu_input("x", x)
        io.bind_output("y", "cpu", element_type=np.float32, shape=y.shape, buffer_ptr=y.ctypes.data)
        emit(kernel, f"onnxruntime {ort.__version__}", best(lambda: s.run_with_iobinding(io)))


if __name__ == "__main__":
    numpy_rows()
    ort_rows()
