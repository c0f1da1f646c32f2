#!/usr/bin/env bash
# bench/crmath.sh: the correctly rounded functions (exp log tanh sigmoid erf sinh cosh, the
# circular functions and their inverses, the inverse hyperbolic ones, expm1 softplus softsign
# silu mish gelu) in generated kernels on 16M floats, built six ways (the last two for AVX2 machines:
# -mavx2 -mfma), and
# numpy (and onnxruntime, when the Python given has it) on the same inputs right after, in
# one run: ns per element, one thread.
# usage: bench/crmath.sh [PYTHON...]   (default: python3; e.g. build/ort-venv/bin/python)
# Needs a built wherec (WHEREC_BUILD, default build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${WHEREC_BUILD:-build}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/gen/wherec" gen bench/crmath.where -o "$dir"
for cc in "gcc -O2" "gcc -O3 -march=native" "clang -O2" "clang -O3 -march=native" \
          "gcc -O3 -mavx2 -mfma" "clang -O3 -mavx2 -mfma"; do # the last two: AVX2 machines
  $cc -std=c99 -Wall -Wextra -Werror -pedantic -Iinclude -I"$dir" "$dir/crb.c" bench/crmath_speed.c \
      -o "$dir/speed"
  "$dir/speed" | while read -r name ns; do printf '%-8s %-24s %s ns\n' "$name" "$cc" "$ns"; done
done | sort -s -k1,1
for py in "${@:-python3}"; do
  "$py" - <<'PY'
import time
import numpy as np
n = 1 << 24
rng = np.random.default_rng(1)
def best(f, x, o, reps=9):
    t = 1e9
    for _ in range(reps):
        t0 = time.perf_counter(); f(x, o); t = min(t, time.perf_counter() - t0)
    return t / n * 1e9
cases = {"exp": rng.random(n) * 20 - 10, "log": rng.random(n) * 100 + 0.01,
         "tanh": rng.random(n) * 20 - 10, "sigmoid": rng.random(n) * 20 - 10, "erf": rng.random(n) * 8 - 4,
         "sinh": rng.random(n) * 20 - 10, "cosh": rng.random(n) * 20 - 10,
         "sin": rng.random(n) * 20 - 10, "cos": rng.random(n) * 20 - 10, "tan": rng.random(n) * 20 - 10,
         "asin": rng.random(n) * 2 - 1, "acos": rng.random(n) * 2 - 1, "atan": rng.random(n) * 20 - 10,
         "asinh": rng.random(n) * 20 - 10, "acosh": rng.random(n) * 99 + 1,
         "atanh": rng.random(n) * 1.998 - 0.999}
cases = {k: v.astype(np.float32) for k, v in cases.items()}
o = np.empty(n, np.float32)
v = np.__version__
print(f"numpy {v} np.exp: {best(lambda x, o: np.exp(x, out=o), cases['exp'], o):.3f} ns")
print(f"numpy {v} np.log: {best(lambda x, o: np.log(x, out=o), cases['log'], o):.3f} ns")
print(f"numpy {v} np.tanh: {best(lambda x, o: np.tanh(x, out=o), cases['tanh'], o):.3f} ns")
print(f"numpy {v} np.sinh: {best(lambda x, o: np.sinh(x, out=o), cases['sinh'], o):.3f} ns")
print(f"numpy {v} np.cosh: {best(lambda x, o: np.cosh(x, out=o), cases['cosh'], o):.3f} ns")
for key, fn in [("sin", np.sin), ("cos", np.cos), ("tan", np.tan), ("asin", np.arcsin),
                ("acos", np.arccos), ("atan", np.arctan), ("asinh", np.arcsinh),
                ("acosh", np.arccosh), ("atanh", np.arctanh)]:
    print(f"numpy {v} np.{fn.__name__}: {best(lambda x, o: fn(x, out=o), cases[key], o):.3f} ns")
print(f"numpy {v} 1/(1+np.exp(-x)): "
      f"{best(lambda x, o: np.divide(1, 1 + np.exp(-x), out=o), cases['sigmoid'], o):.3f} ns")
try:
    import onnxruntime as ort
    from onnx import TensorProto, helper
except ImportError:
    raise SystemExit(0)
so = ort.SessionOptions(); so.intra_op_num_threads = 1; so.inter_op_num_threads = 1
for op, key in [("Exp", "exp"), ("Log", "log"), ("Tanh", "tanh"), ("Sigmoid", "sigmoid"), ("Erf", "erf"),
                ("Sinh", "sinh"), ("Cosh", "cosh"), ("Sin", "sin"), ("Cos", "cos"), ("Tan", "tan"),
                ("Asin", "asin"), ("Acos", "acos"), ("Atan", "atan"), ("Asinh", "asinh"),
                ("Acosh", "acosh"), ("Atanh", "atanh")]:
    g = helper.make_graph([helper.make_node(op, ["x"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]); m.ir_version = 8
    s = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    x = cases[key]; y = np.empty_like(x)
    io = s.io_binding(); io.bind_cpu_input("x", x)
    io.bind_output("y", "cpu", element_type=np.float32, shape=y.shape, buffer_ptr=y.ctypes.data)
    print(f"onnxruntime {ort.__version__} {op}: {best(lambda x, o: s.run_with_iobinding(io), x, y):.3f} ns")
PY
done
