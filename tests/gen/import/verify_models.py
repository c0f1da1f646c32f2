#!/usr/bin/env python3
"""verify_models.py: `wherec import --verify` (gen/import/verify.py) end to end.

Imports models of models/ with --verify and checks the table: every kernel of exact
operators bit-exact on both paths, elu_selu's difference put down to onnxruntime's exp;
the inputs given as .npy; the errors (an --input count that does not fit, no python);
and verify.py's comparison on made arrays (ulp distances, -0.0, NaN, bfloat16 bits).

usage: verify_models.py WHEREC MODELS_DIR WORK_DIR   (with onnxruntime, onnx, numpy)
Exit 0: all passed; 1: a check failed; 77 (ctest's skip): onnxruntime is not installed.
"""
import importlib.util
import os
import shutil
import subprocess
import sys

try:
    import numpy as np
    import onnxruntime  # noqa: F401 - verify.py's python needs it
    import onnx  # noqa: F401
except ImportError as e:
    print("skipped: onnxruntime, onnx or numpy is not installed for %s (%s)" % (sys.executable, e))
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
VERIFY_PY = os.path.join(HERE, "..", "..", "..", "gen", "import", "verify.py")
failures = []


def check(cond, what):
    print("%s: %s" % ("ok" if cond else "FAILED", what))
    if not cond:
        failures.append(what)


def verify(wherec, model, work, *extra, env=None):
    spec = os.path.join(work, os.path.basename(os.path.dirname(model)) + ".where")
    r = subprocess.run([wherec, "import", model, "-o", spec, "--verify"] + list(extra),
                       capture_output=True, text=True, env=env)
    return r.returncode, r.stdout, r.stderr


def row(out, kernel):
    for line in out.splitlines():
        if line.split(" ")[0] == kernel:
            return line
    return ""


def if_model(path):
    """y = Softmax(If(c, then: Relu(|x0| * two), else: Sigmoid(|x0|))), two an initializer
    of the then branch."""
    from onnx import TensorProto as T, helper as h, numpy_helper
    two = numpy_helper.from_array(np.array([2.0, -1.0, 0.5], np.float32), "two")
    th = h.make_graph([h.make_node("Mul", ["x", "two"], ["m"]), h.make_node("Relu", ["m"], ["t"])],
                      "then", [], [h.make_tensor_value_info("t", T.FLOAT, [2, 3])],
                      initializer=[two])
    el = h.make_graph([h.make_node("Sigmoid", ["x"], ["e"])], "else", [],
                      [h.make_tensor_value_info("e", T.FLOAT, [2, 3])])
    g = h.make_graph([h.make_node("Abs", ["x0"], ["x"]),
                      h.make_node("If", ["c"], ["r"], name="branch", then_branch=th,
                                  else_branch=el),
                      h.make_node("Softmax", ["r"], ["y"])], "if_model",
                     [h.make_tensor_value_info("c", T.BOOL, []),
                      h.make_tensor_value_info("x0", T.FLOAT, [2, 3])],
                     [h.make_tensor_value_info("y", T.FLOAT, [2, 3])])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)
    return path


def frames_model(path):
    """y = Relu(If(T == 1, Squeeze(x, 1), x) * s), x: [B, T], s a scalar input: the If's
    branches differ in rank, so the kernel reads r flat, as the vector of its elements."""
    from onnx import TensorProto as T, helper as h
    th = h.make_graph([h.make_node("Squeeze", ["x", "ax1"], ["t"])], "then", [],
                      [h.make_tensor_value_info("t", T.FLOAT, None)],
                      initializer=[h.make_tensor("ax1", T.INT64, [1], [1])])
    el = h.make_graph([h.make_node("Identity", ["x"], ["e"])], "else", [],
                      [h.make_tensor_value_info("e", T.FLOAT, None)])
    g = h.make_graph([h.make_node("Shape", ["x"], ["shp"]),
                      h.make_node("Gather", ["shp", "one"], ["t_len"]),
                      h.make_node("Equal", ["t_len", "one"], ["c"]),
                      h.make_node("If", ["c"], ["r"], then_branch=th, else_branch=el),
                      h.make_node("Mul", ["r", "s"], ["m"]),
                      h.make_node("Relu", ["m"], ["y"])], "frames",
                     [h.make_tensor_value_info("x", T.FLOAT, ["B", "T"]),
                      h.make_tensor_value_info("s", T.FLOAT, [])],
                     [h.make_tensor_value_info("y", T.FLOAT, None)],
                     initializer=[h.make_tensor("one", T.INT64, [], [1])])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)
    return path


def main():
    wherec, models, work = sys.argv[1], sys.argv[2], sys.argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, WHEREC_ORT_PYTHON=sys.executable,
               WHEREC_CACHE_DIR=os.path.join(work, "cache"))

    # exact operators: bit-exact on both paths, exit 0
    for name in ("padding_mask", "attention_mask", "hardswish_add", "nan_shrink_sign",
                 "int_mod_bitwise", "where_broadcast", "where_string"):
        rc, out, err = verify(wherec, os.path.join(models, name, "model.onnx"), work, env=env)
        r = row(out, name)
        check(rc == 0 and r.count("bit-exact") == 2 and "1 kernels: 1 bit-exact" in out,
              "%s: bit-exact on both paths (exit %d)\n%s%s" % (name, rc, out, err))

    # onnxruntime's exp is an approximation: said, and no failure
    rc, out, err = verify(wherec, os.path.join(models, "elu_selu", "model.onnx"), work, env=env)
    check(rc == 0 and "onnxruntime approximates Selu, Elu" in row(out, "elu_selu") and
          "ulp max" in row(out, "elu_selu"),
          "elu_selu: its difference is put down to onnxruntime's exp (exit %d)\n%s%s"
          % (rc, out, err))

    # the kernels of an If's branches: each branch run on its own on the model's tensors
    # (the one the If did not take too), a branch initializer as its parameter
    model = if_model(os.path.join(work, "if_model.onnx"))
    rc, out, err = verify(wherec, model, work, env=env)
    check(rc == 0 and row(out, "then").count("bit-exact") == 2 and
          ("bit-exact" in row(out, "else") or "approximates Sigmoid" in row(out, "else")) and
          row(out, "x").count("bit-exact") == 2 and "0 wrong, 0 skipped" in out,
          "an If's branches are verified (exit %d)\n%s%s" % (rc, out, err))

    # a value of no known rank read flat: bit-exact whichever rank the If gives it
    model = frames_model(os.path.join(work, "frames.onnx"))
    np.save(os.path.join(work, "s.npy"), np.array(-1.5, np.float32))
    for shape in ((3, 1), (3, 5)):
        np.save(os.path.join(work, "x.npy"), np.linspace(-2, 2, shape[0] * shape[1],
                                                         dtype=np.float32).reshape(shape))
        rc, out, err = verify(wherec, model, work, "--input", os.path.join(work, "x.npy"),
                              "--input", os.path.join(work, "s.npy"), env=env)
        check(rc == 0 and row(out, "y").count("bit-exact") == 2 and
              " %d " % (shape[0] if shape[1] == 1 else shape[0] * shape[1]) in row(out, "y"),
              "a flat kernel on an If's value of rank %d (exit %d)\n%s%s"
              % (1 if shape[1] == 1 else 2, rc, out, err))

    # the inputs as .npy files, in graph input order; the same seed, the same table
    x = np.linspace(-3, 3, 16, dtype=np.float32).reshape(4, 4)
    np.save(os.path.join(work, "x.npy"), x)
    np.save(os.path.join(work, "y.npy"), -x)
    model = os.path.join(models, "hardswish_add", "model.onnx")
    rc, out, err = verify(wherec, model, work, "--input", os.path.join(work, "x.npy"),
                          "--input", os.path.join(work, "y.npy"), env=env)
    check(rc == 0 and "inputs from " in out and row(out, "hardswish_add").count("bit-exact") == 2,
          "hardswish_add: inputs given with --input (exit %d)\n%s%s" % (rc, out, err))
    rc, out, err = verify(wherec, model, work, "--input", os.path.join(work, "x.npy"), env=env)
    check(rc == 1 and "1 --input files for the model's 2 inputs (x, y)" in err,
          "one --input for two graph inputs: exit 1 (got %d)\n%s" % (rc, err))
    a = verify(wherec, model, work, "--seed", "7", env=env)
    b = verify(wherec, model, work, "--seed", "0x7", env=env)
    check(a[0] == 0 and a[1] == b[1] and "seed 7" in a[1],
          "the same --seed (decimal or 0x hex) gives the same table")

    # a kernel that computes the wrong thing (the spec tampered with after import): exit 3
    spec = os.path.join(work, "padding_mask.where")
    rc, out, err = verify(wherec, os.path.join(models, "padding_mask", "model.onnx"), work, env=env)
    with open(spec) as f:
        text = f.read()
    with open(spec, "w") as f:
        f.write(text.replace(") + bias;", ") - bias;"))
    r = subprocess.run([sys.executable, VERIFY_PY, "--wherec", wherec, "--model",
                        os.path.join(models, "padding_mask", "model.onnx"), "--spec", spec,
                        "--manifest", spec + ".json"], capture_output=True, text=True, env=env)
    check(r.returncode == 3 and
          "exact operators only (Add, Mul, Where): a wrong result" in row(r.stdout, "padding_mask")
          and "1 wrong" in r.stdout,
          "a wrong kernel of exact operators: exit 3 (got %d)\n%s%s"
          % (r.returncode, r.stdout, r.stderr))

    # no python to run verify.py with: a toolchain failure that says what to set
    bad = dict(env, WHEREC_ORT_PYTHON=os.path.join(work, "no-such-python"))
    rc, out, err = verify(wherec, model, work, env=bad)
    check(rc == 4 and "set WHEREC_ORT_PYTHON" in err, "no python: exit 4 (got %d)\n%s" % (rc, err))
    rc = subprocess.run([wherec, "import", model, "-o", os.path.join(work, "m.where"), "--seed",
                         "3"], capture_output=True, text=True).returncode
    check(rc == 2, "--seed without --verify is a usage error (got %d)" % rc)

    # the comparison itself
    spec = importlib.util.spec_from_file_location("verify", VERIFY_PY)
    v = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(v)
    f = np.array([1.0, -0.0, 0.0, np.nan], dtype=np.float32)
    check(v.compare(np, f, f.copy(), False) == (True, "bit-exact"), "equal bits are bit-exact")
    g = f.copy()
    g[0] = np.nextafter(np.float32(1), np.float32(2))
    check(v.compare(np, f, g, False) == (False, "1 ulp max, 1 of 4 differ"), "one ulp apart")
    g = f.copy()
    g[1] = 0.0
    check(v.compare(np, f, g, False) == (False, "0 ulp max, 1 of 4 differ"),
          "-0.0 against 0.0: other bits, no ulp apart")
    g = np.array([1.0, -0.0, 0.0, 1.0], dtype=np.float32)
    check(v.compare(np, f, g, False) == (False, "NaN for a number at 1 of 4"), "a NaN for a number")
    h = np.array([np.float32(-1e-45), np.float32(1e-45)], dtype=np.float32)
    check(v.compare(np, h[:1], h[1:], False) == (False, "2 ulp max, 1 of 1 differ"),
          "the smallest subnormals either side of zero are 2 ulp apart")
    bf = np.array([0x3f80, 0x3f81], dtype=np.uint16)  # bfloat16 1.0 and its successor
    check(v.compare(np, bf[:1], bf[1:], True) == (False, "1 ulp max, 1 of 1 differ"),
          "bfloat16 bits are compared as bfloat16")
    i = np.array([1, 2, 3], dtype=np.int64)
    check(v.compare(np, i, np.array([1, 5, 3], dtype=np.int64), False) ==
          (False, "1 of 3 differ"), "integers count the elements that differ")

    print("verify_models.py: %d failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
