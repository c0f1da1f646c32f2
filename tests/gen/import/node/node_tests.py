#!/usr/bin/python3
# node_tests.py: selects ONNX's backend node tests of the operators wherec imports (list) and
# writes them in the backend test layout (generate); run with Debian's python3-onnx 1.12.
#
#   node_tests.py list [-o node_tests.txt]   the selection, with every exclusion and its reason
#   node_tests.py list --check LIST          fails unless LIST is that list, unchanged
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
import os
import shutil
import sys

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

OPERATORS = (
    "Where NonZero Relu LeakyRelu PRelu Clip ThresholdedRelu Shrink Sign HardSigmoid "
    "HardSwish Elu Selu Celu Max Min Abs Neg IsNaN IsInf Not And Or Xor Equal Greater "
    "GreaterOrEqual Less LessOrEqual Add Sub Mul Div Mod Floor Ceil Round Sqrt Reciprocal "
    "Softsign BitwiseAnd BitwiseOr BitwiseXor BitwiseNot BitShift Cast Identity "
    "Exp Sum Mean Dropout Pow BatchNormalization QuantizeLinear DequantizeLinear "
    "Log Tanh Sigmoid Erf Softplus Mish Gelu").split()
FOLDED = {"Constant"}

# Tests left out although their nodes qualify, and why (the list file says so too).
EXCLUDED = {
    "test_cast_FLOAT_to_BFLOAT16":
        "expects truncation (the Cast-13 reference of onnx 1.12); wherec rounds to "
        "nearest even as Cast-19 specifies",
    "test_castlike_FLOAT_to_BFLOAT16_expanded":
        "the same Cast node and data as test_cast_FLOAT_to_BFLOAT16: expects truncation",
}
# Casts to and from string: refused by wherec import (a kernel neither formats nor parses
# numbers; generated code allocates nothing and its strings borrow the inputs'), with the
# reason "casts from float to string are not supported" (tests/gen/import/test_import.c).
for _name in ("test_cast_FLOAT_to_STRING", "test_cast_STRING_to_FLOAT",
              "test_castlike_FLOAT_to_STRING_expanded", "test_castlike_STRING_to_FLOAT_expanded"):
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
for _name in ("test_pow_example", "test_pow", "test_pow_bcast_scalar", "test_pow_bcast_array",
              "test_pow_types_float32_int64", "test_pow_types_int64_float32",
              "test_pow_types_float32_int32", "test_pow_types_int32_float32",
              "test_pow_types_float32_uint64", "test_pow_types_float32_uint32",
              "test_pow_types_int64_int64", "test_pow_types_int32_int32"):
    EXCLUDED[_name] = ("Pow with a runtime exponent: wherec has no pow function yet, only "
                       "constant exponents")


def collect(numpy_exp=False):
    """Every node test case of the installed onnx, in its own order."""
    np.random.seed(SEED)
    np.exp = _numpy_exp if numpy_exp else _exp_correctly_rounded
    np.log = _numpy_log if numpy_exp else _in_double(_numpy_log)
    np.tanh = _numpy_tanh if numpy_exp else _in_double(_numpy_tanh)
    import onnx.backend.test.case.node as node_cases
    return node_cases.collect_testcases(None)


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
    return True, None


def list_text():
    cases = collect()
    selected, left = [], []
    for case in cases:
        ok, why = verdict(case)
        if ok:
            selected.append(case)
        elif why:
            left.append((case.name, why))
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


def write_list(out, check):
    text = list_text()
    if check:
        with open(check) as f:
            if f.read() != text:
                raise SystemExit("node_tests.py: %s is not what onnx %s selects: rerun "
                                 "node_tests.py list -o %s" % (check, onnx.__version__, check))
    elif out:
        with open(out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def read_list(path):
    with open(path) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


def save(path, value, vi):
    if vi.type.HasField("tensor_type"):
        proto = numpy_helper.from_array(value, vi.name)
    else:
        raise SystemExit("%s: '%s' is not a tensor" % (path, vi.name))
    with open(path, "wb") as f:
        f.write(proto.SerializeToString())


def write_case(case, out_dir):
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
        if case.name in ORACLE:
            outputs = [ORACLE[case.name](*inputs)]
        ds = os.path.join(out_dir, "test_data_set_%d" % d)
        os.makedirs(ds)
        for j, value in enumerate(inputs):
            save(os.path.join(ds, "input_%d.pb" % j), value, model.graph.input[j])
        for j, value in enumerate(outputs):
            save(os.path.join(ds, "output_%d.pb" % j), value, model.graph.output[j])


def harness_case():
    """A model of the runner's harder paths (not an ONNX test): three kernels chained by
    value (w feeds two nodes, so it ends a kernel), two outputs, a constant that becomes a
    parameter, two data sets; the expected outputs are numpy's."""
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
    missing = [name for name in wanted if name not in cases]
    if missing:
        raise SystemExit("node_tests.py: onnx %s has no node test %s (the list is of another "
                         "onnx: rerun node_tests.py list)" % (onnx.__version__, ", ".join(missing)))
    os.makedirs(out, exist_ok=True)
    for name in wanted:
        write_case(cases[name], os.path.join(out, name))
    harness = harness_case()
    write_case(harness, os.path.join(out, harness.name))
    with open(os.path.join(out, "stamp"), "w") as f:
        f.write("%d node tests of onnx %s\n" % (len(wanted), onnx.__version__))


def main():
    p = argparse.ArgumentParser(description="ONNX backend node tests for wherec")
    sub = p.add_subparsers(dest="cmd", required=True)
    lp = sub.add_parser("list")
    lp.add_argument("-o", "--output", help="write the list here (default: stdout)")
    lp.add_argument("--check", metavar="LIST", help="fail unless LIST is the list, unchanged")
    gp = sub.add_parser("generate")
    gp.add_argument("list")
    gp.add_argument("out_dir")
    gp.add_argument("--numpy-exp", action="store_true",
                    help="expected outputs with numpy's float32 exp, not a correctly rounded one")
    args = p.parse_args()
    if args.cmd == "list":
        write_list(args.output, args.check)
    else:
        generate(args.list, args.out_dir, args.numpy_exp)


if __name__ == "__main__":
    main()
