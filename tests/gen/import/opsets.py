#!/usr/bin/env python3
# opsets.py: every operator wherec import takes (gen/import/ops.h), at every opset where ONNX
# changed its definition and the one before: imported, run on both paths, compared with
# onnxruntime.
#
# Usage: opsets.py --wherec WHEREC --work DIR [--jobs N] [--list] [--only OPS] [-v]
# The operators are the element-wise rows of `wherec import --list-operators` (which also
# checks the table's since-versions and attributes against onnx.defs). The (operator, opset)
# pairs come from onnx.defs: for each operator, every
# since_version up to opset 21 (at least 6, the oldest opset wherec imports) and the opset
# before each change where the operator existed. Each pair gets the inputs and attributes
# that version defines (defaults, and a non-default value of each attribute), in the dtypes
# the version adds and the importer takes. Up to CHUNK cases of one opset make one model (one
# kernel per case), imported once and compiled once (at -O0: see --cc); each kernel runs on both
# paths (which must agree bit for bit) and is compared with onnxruntime (opset 6's cases
# at opset 7, less the attributes opset 7 dropped), or with onnx's reference evaluator where
# onnxruntime has no kernel or is known to differ (DEVIATIONS): bit for bit (an expected NaN
# takes any NaN) but for the operators of INEXACT, which onnxruntime approximates (4 ulps, or
# 2^-15 of the value). Refusals are checked by their diagnostics: an operator newer than the
# model's opset, an attribute the version lacks, the legacy forms of opsets 6 to 20.
# Exit 0: all pass; 1: a failure (listed); 77 (ctest's skip): onnxruntime, onnx >= 1.16 (opset
# 21) or numpy missing for this python, said on stdout (scripts/ort-venv.sh installs them).
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import time
import warnings

try:
    import numpy as np
    import onnx
    import onnx.defs
    import onnxruntime as ort
    from onnx import helper, numpy_helper, TensorProto
    from onnx.reference import ReferenceEvaluator
except ImportError as e:
    print("skipped: onnxruntime, onnx (>= 1.16) or numpy is not installed for %s (%s); "
          "scripts/ort-venv.sh makes a venv with them" % (sys.executable, e))
    sys.exit(77)

CHUNK = 16         # cases per model
LAST = 21          # the newest opset wherec imports
FIRST = 6          # the oldest
if onnx.defs.onnx_opset_version() < LAST:
    print("skipped: onnx %s knows opsets up to %d; this test reads the schemas up to %d "
          "(onnx >= 1.16; scripts/ort-venv.sh installs it)"
          % (onnx.__version__, onnx.defs.onnx_opset_version(), LAST))
    sys.exit(77)

# Operators whose result onnxruntime computes with other roundings than ONNX's reference
# order from correctly rounded primitives (README, "Semantics"): compared within TOL ulps.
# Filled from the operator table (read_ops: onnxruntime approximates or reorders them).
INEXACT = set()
TOL_ULPS = 4
TOL_REL = 2.0 ** -15
# Where onnxruntime is known not to give ONNX's result: (operator, opsets or None, the case's
# label, why). Such a case is compared with onnx's reference evaluator instead; a difference
# from that too is reported as a note, not a failure.
DEVIATIONS = [
    ("Clip", {11}, r"^float16 (no bounds|max input)",
     "onnxruntime's Clip-11 on float16 (and the reference evaluator) leave -inf and inf alone "
     "when a bound is absent; ONNX's default bounds are the dtype's lowest and max, which "
     "onnxruntime's Clip-12 and later and wherec apply"),
    ("Sign", None, r"^float16", "onnxruntime's float16 Sign gives 0 for NaN; its float Sign, "
     "ONNX's reference and wherec keep NaN"),
    ("Gelu", None, r"^float approximate=tanh", "wherec's gelu_tanh is correctly rounded as a "
     "whole, and gelu_tanh(-inf) is -0, the limit; ONNX's formula (0.5 * x) * (1 + tanh(...)) "
     "cancels in float for negative x and gives NaN at -inf, as onnxruntime and its reference do"),
    ("Gelu", None, r"^float16", "onnxruntime computes float16 Gelu in float and rounds once; "
     "wherec rounds gelu(x) or gelu_tanh(x) once, each correctly rounded as a whole"),
    ("Gelu", None, r"^float (defaults|approximate=none)", "gelu(x) is correctly rounded as a "
     "whole: gelu(-inf) is -0, the limit (ONNX's formula gives -inf * 0 = NaN), and ONNX's "
     "formula, which onnxruntime and its reference compute in float, cancels in 1 + erf for "
     "negative x (472 ulps at -3.5)"),
    ("Softplus", None, r"^float16", "onnxruntime computes float16 Softplus in float and rounds "
     "once; ONNX's function body rounds each operation to float16, as wherec does"),
    ("Softsign", None, r"^(float|float16) \[", "softsign(-inf) is -1, the limit, correctly rounded; "
     "ONNX's formula x / (1 + |x|) gives -inf / inf = NaN, as onnxruntime and its reference do"),
    ("Mish", None, r"^(float|float16) \[", "mish(-inf) is -0, the limit, correctly rounded; ONNX's "
     "formula x * tanh(softplus(x)) gives -inf * 0 = NaN, as onnxruntime and its reference do"),
    ("ReduceMax", None, r"^float", "onnxruntime's ReduceMax skips a NaN of the row; ONNX's "
     "reference (numpy's maximum) gives NaN, as wherec does"),
    ("ReduceMin", None, r"^float", "onnxruntime's ReduceMin skips a NaN of the row; ONNX's "
     "reference (numpy's minimum) gives NaN, as wherec does"),
]
# Attributes a version may carry although its schema lacks them: a memory hint of opset 1
# that exporters kept writing, which wherec ignores (docs/cli.md).
TOLERATED = {"consumed_inputs"}
# Attributes the legacy checks of opset 6 own (the broadcast/axis cases below).
LEGACY = {"broadcast", "axis"}

NP = {"float": np.float32, "float16": np.float16, "double": np.float64, "int8": np.int8,
      "int16": np.int16, "int32": np.int32, "int64": np.int64, "uint8": np.uint8,
      "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64, "bool": np.bool_}
CLASS = {"float": "F", "float16": "F", "double": "F", "int8": "S", "int16": "S", "int32": "S",
         "int64": "S", "uint8": "U", "uint16": "U", "uint32": "U", "uint64": "U", "bool": "B",
         "string": "STR"}
OPT = {"OPT_B": {"B"}, "OPT_S": {"S"}, "OPT_U": {"U"}, "OPT_F": {"F"}, "OPT_STR": {"STR"},
       "OPT_CX": {"CX"}, "OPT_INT": {"S", "U"}, "OPT_NUM": {"S", "U", "F"},
       "OPT_SGN": {"S", "F"}, "OPT_EQ": {"S", "U", "F", "B", "STR"},
       "OPT_ALL": {"S", "U", "F", "B", "STR", "CX"}}
# The dtypes tried, in order of preference: the first the version allows is always tried,
# then those the version adds (at most two more).
ORDER = ["float", "int32", "float16", "double", "int64", "int8", "uint8", "uint32", "int16",
         "uint16", "uint64", "bool"]

inf, nan = np.inf, np.nan
FDATA = [-inf, -3.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 2.5, 7.0, nan]
FDATA2 = [0.5, -2.0, 3.0, -0.0]
SDATA = [-9, -4, -1, 0, 1, 2, 3, 5, 8, -6, 7, 11]
SDATA2 = [3, -2, 5, 1]
UDATA = [0, 1, 2, 3, 5, 7, 8, 9, 100, 200, 255, 4]
UDATA2 = [3, 2, 5, 1]
BDATA = [True, False, True, False, True, True, False, False, False, False, True, True]
BDATA2 = [True, False, False, True]


def data(dt, second=False, shape=(3, 4)):
    """Values of dtype dt: specials for floats (NaN, infinities, -0.0), no zero divisors."""
    if dt == "string":
        v = [b"a", b"", b"b", b"ab"] * 3 if not second else [b"a", b"b", b"", b"ab"]
        a = np.array(v, dtype="S2")
    else:
        c = CLASS[dt]
        v = {"F": (FDATA2 if second else FDATA), "S": (SDATA2 if second else SDATA),
             "U": (UDATA2 if second else UDATA), "B": (BDATA2 if second else BDATA)}[c]
        a = np.array(v, dtype=NP[dt])
    n = int(np.prod(shape))
    return np.resize(a, n).reshape(shape)


# ---- the operators and their schemas -------------------------------------------------------

# The JSON classes of --list-operators, as the class letters of CLASS.
CLASSES = {"bool": {"B"}, "signed": {"S"}, "unsigned": {"U"}, "float": {"F"}, "string": {"STR"},
           "complex": {"CX"}}
# Operators whose cases need data of their own: their form depends on a dtype or on an
# attribute's value (the table's builders), or an input is of its own kind. Every other row
# is classed by its columns (kind_of), so that a new operator whose formula and columns say
# everything is tested here with no line of its own.
BESPOKE = {
    "Mod": "MOD", "BitShift": "BITSHIFT", "IsInf": "ISINF", "Min": "MINMAX", "Max": "MINMAX",
    "LeakyRelu": "LEAKY", "PRelu": "PRELU", "Clip": "CLIP", "ThresholdedRelu": "THRELU",
    "Shrink": "SHRINK", "Sign": "SIGN", "HardSigmoid": "HSIGMOID", "Elu": "ELU", "Selu": "SELU",
    "Celu": "CELU", "Cast": "CAST", "CastLike": "CASTLIKE", "Where": "WHERE",
    "NonZero": "NONZERO", "Constant": "CONSTANT", "Gelu": "GELU", "Sum": "SUM", "Mean": "MEAN",
    "Dropout": "DROPOUT", "Pow": "POW", "BatchNormalization": "BATCHNORM",
    "QuantizeLinear": "QUANTIZE", "DequantizeLinear": "DEQUANTIZE",
    "Softmax": "SOFTMAX", "LogSoftmax": "SOFTMAX", "LayerNormalization": "NORM",
    "RMSNormalization": "NORM", "ReduceSum": "REDUCE", "ReduceMean": "REDUCE",
    "ReduceMax": "REDUCE", "ReduceMin": "REDUCE", "ReduceL2": "REDUCE",
    "ReduceLogSumExp": "REDUCE", "ReduceSumSquare": "REDUCE",
}


def correctly_rounded_functions():
    """The spec's functions defined on float, float16 and bfloat16 but not double (domain CRF
    of include/wherec/operations.h): an operator whose formula calls one is refused on double."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "include",
                        "wherec", "operations.h")
    return set(re.findall(r'X\(P, \w+, +"(\w+)", +\d, CRF,', open(path).read()))


CR_FUNCTIONS = correctly_rounded_functions()
# Operators whose builder (forms.c) calls one of them, on double ONNX's formula, which does too
CR_BUILT = {"Softplus", "Mish"}


def kind_of(op):
    """The case generator of an operator of the table (BESPOKE, else from its columns)."""
    if op["name"] in BESPOKE:
        return BESPOKE[op["name"]]
    f, ins = op["formula"] or "", op["inputs"]
    if len(ins) == 2 and op["output_dtype"] == "bool":
        return "LOGIC" if op["dtype_classes"] == ["bool"] else "CMP"
    if len(ins) == 2 and re.fullmatch(r"A [-+*/&|^] B", f):
        return "ARITH"
    if len(ins) == 1 and op["dtype_classes"] == ["bool"]:
        return "NOT"
    if len(ins) == 1 and re.fullmatch(r"\w+\(\w+\)", f):
        return "FUNC"
    return "UNARY"  # one operand, a formula of its own: Relu, Softsign, HardSwish, ...


def read_ops(wherec):
    """The element-wise rows of `wherec import --list-operators`: name, kind, min and max
    inputs, since (the first since-version; versions: all of them), dtype classes, the
    attributes with the opsets that have them, and whether onnxruntime computes it exactly."""
    r = subprocess.run([wherec, "import", "--list-operators"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("opsets.py: %s import --list-operators: %s" % (wherec, r.stderr))
    import json
    ops = []
    for op in json.loads(r.stdout)["operators"]:
        if not op["elementwise"]:
            continue
        cls = set()
        for c in op["dtype_classes"]:
            cls |= CLASSES[c]
        calls = set(re.findall(r"(\w+)\(", op["formula"] or ""))
        ops.append(dict(name=op["name"], kind=kind_of(op), min=op["min_inputs"],
                        correctly_rounded=bool(calls & CR_FUNCTIONS) or op["name"] in CR_BUILT,
                        max=op["max_inputs"], since=op["since"][0], versions=op["since"],
                        classes=cls, attributes=op["attributes"],
                        exact=op["onnxruntime"] == "exact"))
    return ops


def table_problems(ops):
    """Where the operator table disagrees with onnx.defs: its since-versions, and its
    attributes (one a version has that the row lacks, or the opsets the row gives it)."""
    problems = []
    newest = onnx.defs.onnx_opset_version()
    for op in ops:
        h = history(op["name"], newest)
        if not h:
            problems.append("%s: onnx %s has no schema of it" % (op["name"], onnx.__version__))
            continue
        since = [v for v, _ in h]
        if [v for v in op["versions"] if v <= newest] != since:
            problems.append("%s: the table's since-versions are %s, onnx %s says %s"
                            % (op["name"], op["versions"], onnx.__version__, since))
        cols = {a["name"]: a for a in op["attributes"]}
        for v, sch in h:
            for aname in sch.attributes:
                if aname not in cols and aname not in TOLERATED and op["name"] != "Constant":
                    problems.append("%s-%d has attribute '%s', which the table's row lacks"
                                    % (op["name"], v, aname))
        for a in op["attributes"]:
            for v in range(op["since"], newest + 1):
                sch = schema(op["name"], v)
                has = sch is not None and a["name"] in sch.attributes
                want = a["from"] <= v and (a["until"] == 0 or v < a["until"])
                if sch is not None and has != want:
                    problems.append("%s at opset %d: attribute '%s' is %s the schema, the table "
                                    "says opsets %d to %s" % (op["name"], v, a["name"],
                                                              "in" if has else "not in", a["from"],
                                                              a["until"] - 1 if a["until"] else "now"))
                    break
    return problems


def schema(op, v):
    try:
        return onnx.defs.get_schema(op, v, "")
    except Exception:  # noqa: BLE001 - onnx raises SchemaError: no version at or before v
        return None


def history(op, last=None):
    """The since_versions of op up to LAST (or last): [(since, schema)]."""
    out = []
    for v in range(1, (last or LAST) + 1):
        s = schema(op, v)
        if s is not None and (not out or out[-1][0] != s.since_version):
            out.append((s.since_version, s))
    return out


def opsets_of(op):
    """(opset, why) pairs to test op at: each since_version (at least FIRST) and the opset
    before each change where op existed (refusals_before takes the one before it appeared)."""
    h = history(op)
    pts = {}
    for since, _ in h:
        v = max(since, FIRST)
        if v <= LAST:
            pts.setdefault(v, "since %d" % since)
        if since - 1 >= FIRST and schema(op, since - 1) is not None:
            pts.setdefault(since - 1, "before %d" % since)
    return sorted(pts.items())


def allowed_dtypes(s, param=0):
    """The dtype names input `param` of schema s allows."""
    if len(s.inputs) <= param:
        return set()
    tstr = s.inputs[param].type_str
    for tc in s.type_constraints:
        if tc.type_param_str == tstr:
            return {t[len("tensor("):-1] for t in tc.allowed_type_strs if t.startswith("tensor(")}
    return {tstr[len("tensor("):-1]} if tstr.startswith("tensor(") else set()


def pick_dtypes(opname, s, prev, classes, avoid=()):
    ok = [d for d in ORDER if d in allowed_dtypes(s) and CLASS.get(d) in classes and d not in avoid]
    if "string" in allowed_dtypes(s) and "STR" in classes:
        ok.append("string")
    if not ok:
        return []
    new = [d for d in ok if prev is None or d not in allowed_dtypes(prev)]
    out = [ok[0]]
    for d in new + ok:
        if d not in out and len(out) < (3 if d in new else 2):
            out.append(d)
    return out


# ---- cases -----------------------------------------------------------------------------------

class Case:
    """One node (and the Constants it reads) at one opset: take it and match, or refuse it
    with `refuse` in its diagnostic."""

    def __init__(self, op, opset, label, nodes, inputs, inits=None, outputs=("y",), refuse=None,
                 exact=True, ref_only=False, known=None):
        self.op, self.opset, self.label = op, opset, label
        self.nodes = nodes            # helper.make_node(...) with local names
        self.inputs = inputs          # local name -> array (graph inputs)
        self.inits = inits or {}      # local name -> array (initializers)
        self.outputs = list(outputs)
        self.refuse = refuse
        self.exact = exact
        self.ref_only = ref_only      # onnxruntime is known to differ: the reference decides
        self.known = known or {}      # local name -> array: Constants' values the importer
                                      # makes parameters (the caller passes them)
        self.deviation = None         # why the oracle may differ (DEVIATIONS)
        self.expected = None
        self.oracle = None

    def name(self):
        return "%s-%d %s" % (self.op, self.opset, self.label)


def node(op, ins, outs=("y",), **attrs):
    return helper.make_node(op, list(ins), list(outs), **attrs)


def ttype(a):
    if a.dtype.kind == "S":
        return TensorProto.STRING
    return helper.np_dtype_to_tensor_dtype(a.dtype)


def const(a, name):
    return numpy_helper.from_array(np.asarray(a), name)


def nondefault(opname, aname, a):
    """A value of attribute aname other than its default, or None when the test has none."""
    d = a.default_value
    if a.type == onnx.AttributeProto.FLOAT:
        dv = d.f if d and d.HasField("f") else 0.0
        return float(np.float32(dv * 0.5 + 0.125))
    return None


def attr_cases(opname, s, mk):
    """mk(attrs, label) for the defaults and a non-default value of each float attribute."""
    out = [mk({}, "defaults")]
    for aname, a in sorted(s.attributes.items()):
        if aname in TOLERATED or aname in LEGACY:
            continue
        v = nondefault(opname, aname, a)
        if v is not None:
            out.append(mk({aname: v}, "%s=%g" % (aname, v)))
    return out


def shape_for(kind, opset):
    """The second operand's shape: broadcasting where the version has it."""
    return (4,) if opset >= 7 else (3, 4)


def build(op, opset, s, prev):
    """The cases of operator op (a row of ops.h) at opset, schema s (prev: the one before)."""
    name, kind = op["name"], op["kind"]
    cases = []
    dts = pick_dtypes(name, s, prev, op["classes"])
    C = lambda *a, **k: cases.append(Case(name, opset, *a, **k))  # noqa: E731
    exact = name not in INEXACT

    if kind in ("CMP", "LOGIC", "ARITH"):
        for dt in dts:
            b = data(dt, True, shape_for(kind, opset))
            C(dt, [node(name, ["a", "b"])], {"a": data(dt), "b": b})
            if opset < 7 and "broadcast" in s.attributes:
                # legacy: B aligned with A's trailing dimensions
                C(dt + " broadcast=1", [node(name, ["a", "b"], broadcast=1)],
                  {"a": data(dt), "b": data(dt, True, (4,))})
        if opset < 7 and "broadcast" in s.attributes and dts:
            C(dts[0] + " broadcast=1 axis=1", [node(name, ["a", "b"], broadcast=1, axis=1)],
              {"a": data(dts[0]), "b": data(dts[0], True, (4,))})
        if opset < 7 and "broadcast" in s.attributes and dts:
            dt = dts[0]
            C("broadcast=0 two shapes", [node(name, ["a", "b"])],
              {"a": data(dt), "b": data(dt, True, (4,))},
              refuse="before opset 7 its inputs must have one shape unless broadcast=1")
            C("broadcast=1 axis=0", [node(name, ["a", "b"], broadcast=1, axis=0)],
              {"a": data(dt), "b": data(dt, True, (3,))},
              refuse="aligns B with dimensions of A other than the trailing ones")
    elif kind in ("NOT", "UNARY", "FUNC", "SIGN", "NONZERO"):
        avoid = ("double",) if op["correctly_rounded"] else ()
        dts = pick_dtypes(name, s, prev, op["classes"], avoid)
        for dt in dts:
            C(dt, [node(name, ["x"])], {"x": data(dt)}, exact=exact)
        if avoid and "double" in allowed_dtypes(s):
            C("double", [node(name, ["x"])], {"x": data("double")},
              refuse="%s on double: wherec's exp, log, tanh, sigmoid, erf" % name)
        if kind == "NONZERO" and dts:
            C("bool", [node(name, ["x"])], {"x": data("bool")})
    elif kind in ("LEAKY", "THRELU", "ELU", "SELU", "CELU", "HSIGMOID", "SHRINK", "ISINF",
                  "GELU"):
        avoid = ("double",) if kind == "GELU" else ()
        dts = pick_dtypes(name, s, prev, op["classes"], avoid)
        for dt in dts:
            def mk(attrs, label, dt=dt):
                return Case(name, opset, "%s %s" % (dt, label), [node(name, ["x"], **attrs)],
                            {"x": data(dt)}, exact=exact)
            if kind == "SHRINK" and CLASS[dt] != "F":
                cases.append(Case(name, opset, dt + " defaults", [node(name, ["x"])],
                                  {"x": data(dt)}, refuse="lambd 0.5 or bias 0 is not a whole number"))
                cases.append(Case(name, opset, dt + " lambd=2 bias=1",
                                  [node(name, ["x"], lambd=2.0, bias=1.0)], {"x": data(dt)}))
                cases.append(Case(name, opset, dt + " lambd=0.5 bias=0.25",
                                  [node(name, ["x"], lambd=0.5, bias=0.25)], {"x": data(dt)},
                                  refuse="is not a whole number"))
                continue
            cases.extend(attr_cases(name, s, mk))
            if kind == "ISINF":
                for a in ("detect_negative", "detect_positive"):
                    cases.append(mk({a: 0}, a + "=0"))
            if kind == "GELU":
                cases.append(mk({"approximate": "tanh"}, "approximate=tanh"))
                cases.append(mk({"approximate": "none"}, "approximate=none"))
        if avoid and "double" in allowed_dtypes(s):
            C("double", [node(name, ["x"])], {"x": data("double")},
              refuse="%s on double: wherec's exp, log, tanh, sigmoid, erf" % name)
    elif kind == "MINMAX" or kind in ("SUM", "MEAN"):
        for dt in dts:
            C(dt + " one input", [node(name, ["a"])], {"a": data(dt)})
            C(dt + " three inputs", [node(name, ["a", "b", "c"])],
              {"a": data(dt), "b": data(dt, True, (3, 4)), "c": -data(dt) if CLASS[dt] != "U" else data(dt)[::-1].copy()})
            if opset >= 8:
                C(dt + " broadcasting", [node(name, ["a", "b"])],
                  {"a": data(dt), "b": data(dt, True, (4,))})
            else:
                C(dt + " two shapes", [node(name, ["a", "b"])],
                  {"a": data(dt), "b": data(dt, True, (4,))},
                  refuse="before opset 8 its inputs must have one shape")
    elif kind == "PRELU":
        for dt in dts:
            x = data(dt)
            if opset >= 7:
                C(dt + " slope [4]", [node(name, ["x", "s"])], {"x": x, "s": data(dt, True, (4,))})
            C(dt + " slope of X's shape", [node(name, ["x", "s"])],
              {"x": x, "s": data(dt, True, (3, 4))})
            C(dt + " one slope", [node(name, ["x", "s"])], {"x": x, "s": np.array([0.25] if CLASS[dt] == "F" else [2], dtype=NP[dt])})
    elif kind == "CLIP":
        for dt in dts:
            x = data(dt)
            if opset < 11:
                C(dt + " defaults", [node(name, ["x"])], {"x": x})
                C(dt + " min=-0.75 max=2", [node(name, ["x"], min=-0.75, max=2.0)], {"x": x})
                C(dt + " min=0.5", [node(name, ["x"], min=0.5)], {"x": x})
                C(dt + " max=-0.5", [node(name, ["x"], max=-0.5)], {"x": x})
            else:
                lo = np.array(-0.75 if CLASS[dt] == "F" else -3, dtype=NP[dt])
                hi = np.array(2.0 if CLASS[dt] == "F" else 5, dtype=NP[dt])
                C(dt + " no bounds", [node(name, ["x"])], {"x": x})
                C(dt + " min and max inputs", [node(name, ["x", "lo", "hi"])], {"x": x, "lo": lo, "hi": hi})
                C(dt + " min input", [node(name, ["x", "lo"])], {"x": x, "lo": lo})
                C(dt + " max input", [node(name, ["x", "", "hi"])], {"x": x, "hi": hi})
                C(dt + " constant bounds", [node(name, ["x", "lo", "hi"])], {"x": x},
                  inits={"lo": lo, "hi": hi})
        if opset < 11:
            C("int32 input", [node(name, ["x"])], {"x": data("int32")},
              refuse="Clip before opset 11 is defined on floating-point inputs only")
        elif opset < 12:
            pass
    elif kind == "MOD":
        for dt in dts:
            if CLASS[dt] == "F":
                C(dt + " fmod=1", [node(name, ["a", "b"], fmod=1)],
                  {"a": data(dt), "b": data(dt, True, (4,))})
                C(dt + " fmod=0", [node(name, ["a", "b"])],
                  {"a": data(dt), "b": data(dt, True, (4,))},
                  refuse="fmod=0 on floating-point inputs")
            else:
                for f in (0, 1):
                    C("%s fmod=%d" % (dt, f), [node(name, ["a", "b"], fmod=f)],
                      {"a": data(dt), "b": data(dt, True, (4,))})
        if "int32" not in dts:
            for f in (0, 1):
                C("int32 fmod=%d" % f, [node(name, ["a", "b"], fmod=f)],
                  {"a": data("int32"), "b": data("int32", True, (4,))})
    elif kind == "BITSHIFT":
        for dt in ("uint8", "uint32"):
            for d in ("LEFT", "RIGHT"):
                C("%s %s" % (dt, d), [node(name, ["a", "b"], direction=d)],
                  {"a": data(dt), "b": np.array([0, 1, 3, 7], dtype=NP[dt])})
    elif kind == "CAST":
        f = np.resize(np.array([-3.0, -1.5, -0.0, 0.0, 0.5, 1.0, 2.5, 3.0, 7.0, 100.0, -100.0, 65.0],
                               dtype=np.float32), 12).reshape(3, 4)
        for src, to in (("float", TensorProto.INT32), ("float", TensorProto.FLOAT16),
                        ("float", TensorProto.DOUBLE), ("float", TensorProto.BOOL),
                        ("int32", TensorProto.FLOAT), ("float16", TensorProto.FLOAT),
                        ("float", TensorProto.INT8)):
            if src not in allowed_dtypes(s):
                continue
            x = f.astype(NP[src])
            C("%s to %s" % (src, helper.tensor_dtype_to_np_dtype(to)), [node(name, ["x"], to=to)],
              {"x": x})
        if "saturate" in s.attributes:
            C("saturate=0", [node(name, ["x"], to=TensorProto.INT32, saturate=0)], {"x": f})
    elif kind == "CASTLIKE":
        f = np.resize(np.array([-3.0, -1.5, -0.0, 0.0, 0.5, 1.0, 2.5, 3.0, 7.0, 100.0], dtype=np.float32), 12).reshape(3, 4)
        for tdt in ("int32", "float16", "double"):
            C("float like " + tdt, [node(name, ["x", "t"])], {"x": f, "t": np.zeros((1,), NP[tdt])})
        if "saturate" in s.attributes:
            C("saturate=0", [node(name, ["x", "t"], saturate=0)],
              {"x": f, "t": np.zeros((1,), np.int32)})
    elif kind == "WHERE":
        for dt in dts + (["bool"] if "bool" not in dts else []):
            C(dt, [node(name, ["c", "a", "b"])],
              {"c": data("bool", True, (4,)), "a": data(dt), "b": data(dt, True, (3, 1))})
    elif kind == "CONSTANT":
        x = data("float")
        bc = {"broadcast": 1} if opset < 7 else {}
        vec = np.array([1, -2, 0.5, 4], np.float32)
        ivec = np.array([3, -2, 0, 5], np.int64)
        C("value", [node(name, [], ["k"], value=const(np.array(2.5, np.float32), "v")),
                    node("Add", ["x", "k"], **bc)], {"x": x})
        C("value [4]", [node(name, [], ["k"], value=const(vec, "v")),
                        node("Mul", ["x", "k"], **bc)], {"x": x}, known={"k": vec})
        if "value_float" in s.attributes:
            C("value_float", [node(name, [], ["k"], value_float=2.5), node("Add", ["x", "k"])], {"x": x})
            C("value_floats", [node(name, [], ["k"], value_floats=vec.tolist()),
                               node("Mul", ["x", "k"])], {"x": x}, known={"k": vec})
            C("value_int", [node(name, [], ["k"], value_int=3), node("Add", ["x", "k"])],
              {"x": data("int64")})
            C("value_ints", [node(name, [], ["k"], value_ints=ivec.tolist()), node("Add", ["x", "k"])],
              {"x": data("int64")}, known={"k": ivec})
    elif kind == "SOFTMAX":  # along the last axis (before 13: flattened from axis 1 of 2-D)
        dts = pick_dtypes(name, s, prev, op["classes"], ("double",))
        for dt in dts:
            C(dt, [node(name, ["x"])], {"x": data(dt)}, exact=exact)
            C(dt + " axis=-1", [node(name, ["x"], axis=-1)], {"x": data(dt)}, exact=exact)
        C("axis=0", [node(name, ["x"], axis=0)], {"x": data("float")},
          refuse="it reduces axis 0 of a rank-2 input")
    elif kind == "NORM":  # LayerNormalization along the last axis, with scale and bias
        for dt in dts:
            ins = {"x": data(dt), "g": data(dt, True, (4,)), "b": data(dt, True, (4,))[::-1].copy()}
            C(dt, [node(name, ["x", "g", "b"])], ins, exact=exact)
            C(dt + " no bias", [node(name, ["x", "g"], epsilon=0.5)], ins, exact=exact)
        C("axis=0", [node(name, ["x", "g"], axis=0)],
          {"x": data("float"), "g": data("float", True, (3, 4))}, refuse="it reduces axis 0")
    elif kind == "REDUCE":  # along the last axis, kept: read by a Sub of the row's shape
        since = 13 if name == "ReduceSum" else 18
        calls_cr = name in ("ReduceLogSumExp",)
        dts = pick_dtypes(name, s, prev, op["classes"], ("double",) if calls_cr else ())
        floats_only = name in ("ReduceL2", "ReduceLogSumExp", "ReduceMean")
        dts = [d for d in dts if CLASS[d] == "F" or (CLASS[d] in "SU" and not floats_only)]
        # before opset 7 no binary operator broadcasts [3,1] to [3,4]: a row of one element,
        # read by a Neg
        shape, after = ((3, 4), "Sub") if opset >= 7 else ((3, 1), "Neg")
        for dt in dts:
            x = {"x": data(dt, shape=shape)}
            reads = ["x", "r"] if after == "Sub" else ["r"]
            if opset >= since:
                nodes = [node(name, ["x", "axes"], ["r"]), node(after, reads)]
                inits = {"axes": np.array([-1], np.int64)}
            else:
                nodes = [node(name, ["x"], ["r"], axes=[-1]), node(after, reads)]
                inits = None
            C(dt, nodes, x, inits=inits, exact=exact)
        if name == "ReduceMean" and "int32" in allowed_dtypes(s):
            C("int32", [node(name, ["x", "axes"] if opset >= since else ["x"],
                             **({} if opset >= since else {"axes": [-1]}))],
              {"x": data("int32")}, inits={"axes": np.array([-1], np.int64)} if opset >= since else None,
              refuse="row_mean")
        if opset >= since:
            C("keepdims=0", [node(name, ["x", "axes"], keepdims=0)], {"x": data("float")},
              inits={"axes": np.array([-1], np.int64)}, refuse="keepdims=0")
        else:
            C("keepdims=0", [node(name, ["x"], axes=[-1], keepdims=0)], {"x": data("float")},
              refuse="keepdims=0")
    elif kind == "DROPOUT":
        x = data("float")
        C("defaults", [node(name, ["x"])], {"x": x})
        for aname in ("ratio", "seed"):
            if aname in s.attributes:
                C(aname, [node(name, ["x"], **{aname: 0.25 if aname == "ratio" else 7})], {"x": x})
        if "is_test" in s.attributes:
            C("is_test=1", [node(name, ["x"], is_test=1)], {"x": x})
        if opset >= 12:
            C("ratio input", [node(name, ["x", "r"])], {"x": x}, inits={"r": np.array(0.25, np.float32)})
            C("training_mode false", [node(name, ["x", "r", "t"])], {"x": x},
              inits={"r": np.array(0.25, np.float32), "t": np.array(False)})
            C("training_mode true", [node(name, ["x", "r", "t"])], {"x": x},
              inits={"r": np.array(0.25, np.float32), "t": np.array(True)},
              refuse="training_mode is true")
            C("float16", [node(name, ["x"])], {"x": data("float16")})
        elif opset >= 7:
            C("a ratio input", [node(name, ["x", "r"])], {"x": x}, inits={"r": np.array(0.25, np.float32)},
              refuse="Dropout before opset 12 takes one input")
    elif kind == "POW":
        x = data("float")
        for e in (2.0, 0.5, -1.0, 1.0, 0.0):
            C("float ** %g" % e, [node(name, ["x", "e"])], {"x": x}, inits={"e": np.array(e, np.float32)})
        # pow, correctly rounded: onnxruntime's powf (and x * x * x for 3) is not, so these
        # are compared within the tolerance of INEXACT
        C("float ** 3", [node(name, ["x", "e"])], {"x": x}, inits={"e": np.array(3.0, np.float32)},
          exact=False)
        C("float ** -1.5", [node(name, ["x", "e"])], {"x": x},
          inits={"e": np.array(-1.5, np.float32)}, exact=False)
        C("float ** y (runtime)", [node(name, ["x", "e"])],
          {"x": np.abs(x), "e": data("float", True)}, exact=False)
        C("double ** 3", [node(name, ["x", "e"])], {"x": data("double")},
          inits={"e": np.array(3.0, np.float64)}, refuse="Pow of a double base by 3")
        if opset >= 12:
            C("int32 ** 3 (int64)", [node(name, ["x", "e"])], {"x": data("int32")},
              inits={"e": np.array(3, np.int64)})
            nz = data("int64")
            nz[nz == 0] = -1  # 0 ** -1: onnxruntime converts inf to int64 (undefined); wherec gives 0
            C("int64 ** -1", [node(name, ["x", "e"])], {"x": nz},
              inits={"e": np.array(-1, np.int64)})
            C("float ** 2 (int32)", [node(name, ["x", "e"])], {"x": x}, inits={"e": np.array(2, np.int32)})
            C("float ** y (int64, runtime)", [node(name, ["x", "e"])],
              {"x": x, "e": np.resize(np.array([3, -2, 0, 5], np.int64), (3, 4))}, exact=False)
            C("int32 ** y (runtime)", [node(name, ["x", "e"])],
              {"x": data("int32"), "e": np.resize(np.array([3, 2, 0, 1], np.int32), (3, 4))},
              refuse="of an integer base is not a constant scalar")
        elif opset >= 7:
            C("int32 ** 2", [node(name, ["x", "e"])], {"x": data("int32")},
              inits={"e": np.array(2, np.int32)}, refuse="Pow takes integer bases from opset 12 on")
        if "float16" in allowed_dtypes(s):
            C("float16 ** 2", [node(name, ["x", "e"])], {"x": data("float16")},
              inits={"e": np.array(2, np.float16)})
    elif kind == "BATCHNORM":
        x = np.resize(np.array(FDATA[1:-1], np.float32), 24).reshape(2, 3, 4)
        p = {"s": np.array([1.5, -0.5, 2.0], np.float32), "b": np.array([0.25, 0.0, -1.0], np.float32),
             "m": np.array([0.5, -1.0, 0.0], np.float32), "v": np.array([1.0, 0.25, 4.0], np.float32)}
        ins = ["x", "s", "b", "m", "v"]
        C("defaults", [node(name, ins)], {"x": x}, inits=p, exact=False)
        C("epsilon=0.125 momentum=0.5", [node(name, ins, epsilon=0.125, momentum=0.5)], {"x": x},
          inits=p, exact=False)
        C("parameters as inputs", [node(name, ins)], dict(p, x=x), exact=False)
        if "is_test" in s.attributes:
            C("is_test=1", [node(name, ins, is_test=1)], {"x": x}, inits=p, exact=False)
        if "spatial" in s.attributes:
            p2 = {k: np.resize(v, 12).reshape(3, 4) for k, v in p.items()}
            p2["v"] = np.abs(p2["v"]) + 0.5
            C("spatial=0", [node(name, ins, spatial=0)], {"x": x}, inits=p2, exact=False)
        if "training_mode" in s.attributes:
            C("training_mode=0", [node(name, ins, training_mode=0)], {"x": x}, inits=p, exact=False)
            C("training_mode=1", [node(name, ins, training_mode=1)], {"x": x}, inits=p,
              refuse="training_mode=1")
        if "double" in allowed_dtypes(s):
            C("double", [node(name, ins)], {"x": x.astype(np.float64)},
              inits={k: v.astype(np.float64) for k, v in p.items()}, exact=False)
    elif kind == "QUANTIZE":
        x = np.resize(np.array([-300.0, -2.5, -1.5, -0.5, -0.0, 0.5, 1.5, 2.5, 3.49, 100.0, 400.0, -1e9],
                               np.float32), 24).reshape(2, 3, 4)
        sc = np.array(0.5, np.float32)
        C("uint8 zero point", [node(name, ["x", "s", "z"])], {"x": x},
          inits={"s": sc, "z": np.array(3, np.uint8)})
        C("int8 zero point", [node(name, ["x", "s", "z"])], {"x": x},
          inits={"s": sc, "z": np.array(-3, np.int8)})
        C("no zero point", [node(name, ["x", "s"])], {"x": x}, inits={"s": sc})
        pc = np.array([0.5, 2.0, 0.25], np.float32)
        if "axis" in s.attributes:
            C("per channel, axis 1", [node(name, ["x", "s", "z"])], {"x": x},
              inits={"s": pc, "z": np.array([1, 2, 3], np.uint8)})
            C("per channel, axis=0", [node(name, ["x", "s", "z"], axis=0)], {"x": x},
              inits={"s": np.array([0.5, 2.0], np.float32), "z": np.array([1, -2], np.int8)})
        else:
            C("per channel", [node(name, ["x", "s", "z"])], {"x": x},
              inits={"s": pc, "z": np.array([1, 2, 3], np.uint8)},
              refuse="before opset 13 its scale and zero point are scalars")
        if "float16" in allowed_dtypes(s):
            C("float16", [node(name, ["x", "s", "z"])], {"x": x.astype(np.float16)},
              inits={"s": sc.astype(np.float16), "z": np.array(3, np.uint8)})
        else:
            C("float16 scale", [node(name, ["x", "s", "z"])], {"x": x.astype(np.float16)},
              inits={"s": sc.astype(np.float16), "z": np.array(3, np.uint8)},
              refuse="its scale is float16")
        if "output_dtype" in s.attributes:
            C("output_dtype=int16", [node(name, ["x", "s"], output_dtype=TensorProto.INT16)],
              {"x": x * 200}, inits={"s": sc})
            C("int16 zero point", [node(name, ["x", "s", "z"])], {"x": x * 200},
              inits={"s": sc, "z": np.array(-7, np.int16)})
            C("uint16 zero point", [node(name, ["x", "s", "z"])], {"x": x * 200},
              inits={"s": sc, "z": np.array(7, np.uint16)})
            C("block_size=2", [node(name, ["x", "s"], block_size=2, axis=2)], {"x": x},
              inits={"s": np.full((2, 3, 2), 0.5, np.float32)}, refuse="block_size=2")
        elif opset >= 10:
            C("int16 zero point", [node(name, ["x", "s", "z"])], {"x": x},
              inits={"s": sc, "z": np.array(-7, np.int16)},
              refuse="quantizing to int16 is not supported")
    elif kind == "DEQUANTIZE":
        sc = np.array(0.5, np.float32)
        for dt in ("uint8", "int8", "int32") + (("int16", "uint16") if "int16" in allowed_dtypes(s) else ()):
            x = data(dt, shape=(2, 3, 4))
            zp = [] if dt == "int32" else ["z"]
            inits = {"s": sc}
            if zp:
                inits["z"] = np.array(3, NP[dt])
            C(dt, [node(name, ["x", "s"] + zp)], {"x": x}, inits=inits)
            C(dt + " no zero point", [node(name, ["x", "s"])], {"x": x}, inits={"s": sc})
        x = data("int8", shape=(2, 3, 4))
        if "axis" in s.attributes:
            C("per channel", [node(name, ["x", "s", "z"])], {"x": x},
              inits={"s": np.array([0.5, 2.0, 0.25], np.float32), "z": np.array([1, -2, 3], np.int8)})
            C("per channel, axis=-1", [node(name, ["x", "s"], axis=-1)], {"x": x},
              inits={"s": np.array([0.5, 2.0, 0.25, 4.0], np.float32)})
        if "float16" in {t[7:-1] for tc in s.type_constraints for t in tc.allowed_type_strs
                         if tc.type_param_str != s.inputs[0].type_str}:
            C("float16 scale", [node(name, ["x", "s", "z"])], {"x": x},
              inits={"s": sc.astype(np.float16), "z": np.array(3, np.int8)})
        else:
            C("float16 scale", [node(name, ["x", "s", "z"])], {"x": x},
              inits={"s": sc.astype(np.float16), "z": np.array(3, np.int8)},
              refuse="its scale is float16")
        if "int16" not in allowed_dtypes(s):
            C("int16", [node(name, ["x", "s", "z"])], {"x": data("int16", shape=(2, 3, 4))},
              inits={"s": sc, "z": np.array(3, np.int16)}, refuse="DequantizeLinear is not defined on int16")
        if "block_size" in s.attributes:
            C("block_size=2", [node(name, ["x", "s"], block_size=2, axis=2)], {"x": x},
              inits={"s": np.full((2, 3, 2), 0.5, np.float32)}, refuse="block_size=2")
    else:
        raise SystemExit("opsets.py: no cases for kind %s (operator %s): add them" % (kind, name))
    return cases


def plain_node(op, **attrs):
    """A node of op on inputs of a dtype it takes, and its feeds (for refusals)."""
    cls = op["classes"]
    x = data("float" if "F" in cls else "int32" if "S" in cls else "uint8" if "U" in cls else "bool")
    if op["kind"] == "WHERE":
        return node(op["name"], ["c", "x", "x"], **attrs), {"x": x, "c": data("bool")}
    if op["kind"] == "BITSHIFT":
        attrs.setdefault("direction", "LEFT")
    return node(op["name"], ["x"] * max(op["min"], 1), **attrs), {"x": x}


def refusals(op, opset, s, hist):
    """Refusals of a version's attributes: each attribute another version of op has and this
    one lacks (but TOLERATED, and opset 6's legacy ones, which build() covers)."""
    name = op["name"]
    out = []
    if name == "Constant":  # no kernel takes a Constant alone: it is folded into its reader
        return out
    others = set()
    for _, hs in hist:
        others |= set(hs.attributes)
    for aname in sorted(others - set(s.attributes) - TOLERATED):
        if aname in LEGACY and opset < 7:
            continue
        a = next(hs.attributes[aname] for _, hs in hist if aname in hs.attributes)
        v = {onnx.AttributeProto.FLOAT: 0.5, onnx.AttributeProto.INT: 1}.get(a.type)
        if v is None:
            continue
        n, feeds = plain_node(op, **{aname: v})
        out.append(Case(name, opset, "attribute %s" % aname, [n], feeds,
                        refuse="has no attribute '%s' at opset %d" % (aname, opset)))
    return out


def consumed_inputs(c):
    """Case c with opset 1's consumed_inputs on its operator's node: a memory hint, ignored."""
    nodes = []
    for n in c.nodes:
        m = onnx.NodeProto()
        m.CopyFrom(n)
        if m.op_type == c.op:
            m.attribute.append(helper.make_attribute("consumed_inputs", [0] * len(m.input)))
        nodes.append(m)
    return Case(c.op, c.opset, c.label.split(" [")[0] + " consumed_inputs", nodes, c.inputs,
                c.inits, c.outputs, exact=c.exact, known=c.known)


def all_cases(ops):
    cases = []
    for op in ops:
        hist = history(op["name"])
        legacy = any("consumed_inputs" in hs.attributes for _, hs in hist)
        for opset, why in opsets_of(op["name"]):
            s = schema(op["name"], opset)
            prev = None
            for since, hs in hist:
                if since < s.since_version:
                    prev = hs
            built = build(op, opset, s, prev)
            if opset == FIRST and legacy:
                built += [consumed_inputs(c) for c in built if not c.refuse][:1]
            for c in built:
                c.label = "%s [%s]" % (c.label, why)
            cases += built + refusals(op, opset, s, hist)
        if op["since"] - 1 >= FIRST and schema(op["name"], op["since"] - 1) is None:
            cases.extend(refusals_before(op))
    return cases


def refusals_before(op):
    """op at the opset before it appeared."""
    v = op["since"] - 1
    n, feeds = plain_node(op)
    return [Case(op["name"], v, "before it appeared", [n], feeds,
                 refuse="%s is not in opset %d: it appeared in opset %d" % (op["name"], v, op["since"]))]


# ---- the oracle --------------------------------------------------------------------------------

def case_model(c, prefix=""):
    """The case as a model of its own (prefix: on every name, to merge cases into one)."""
    p = lambda n: (prefix + n) if n else n  # noqa: E731
    nodes = []
    for n in c.nodes:
        m = onnx.NodeProto()
        m.CopyFrom(n)
        m.input[:] = [p(i) for i in n.input]
        m.output[:] = [p(o) for o in n.output]
        nodes.append(m)
    ins = [helper.make_tensor_value_info(p(k), ttype(v), v.shape) for k, v in c.inputs.items()]
    inits = [const(v, p(k)) for k, v in c.inits.items()]
    outs = [helper.make_empty_tensor_value_info(p(o)) for o in c.outputs]
    return nodes, ins, inits, outs


def make_model(parts, opset, name):
    nodes, ins, inits, outs = [], [], [], []
    for n, i, z, o in parts:
        nodes += n
        ins += i
        inits += z
        outs += o
    g = helper.make_graph(nodes, name, ins, outs, initializer=inits)
    ops = [helper.make_opsetid("", opset)]
    m = helper.make_model(g, opset_imports=ops, producer_name="opsets.py")
    m.ir_version = max(4, helper.find_min_ir_version_for(ops))
    return m


def lifted(c):
    """Case c of opset 6 as a model of opset 7 (onnxruntime's oldest), less the attributes
    the versions of opset 7 lack (broadcast/axis, which wherec takes when B trails A as
    numpy broadcasting does; is_test; consumed_inputs): the same computation."""
    nodes, ins, inits, outs = case_model(c)
    for n in nodes:
        s7 = schema(n.op_type, 7)
        keep = [a for a in n.attribute if s7 is None or a.name in s7.attributes]
        del n.attribute[:]
        n.attribute.extend(keep)
    return make_model([(nodes, ins, inits, outs)], 7, "case")


def oracle(c):
    """The expected output of case c: onnxruntime's, else the reference evaluator's."""
    m = make_model([case_model(c)], c.opset, "case")
    feeds = {k: (v.astype(object) if v.dtype.kind == "S" else v) for k, v in c.inputs.items()}
    why = None
    if not c.ref_only:
        try:
            opts = ort.SessionOptions()
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
            opts.log_severity_level = 4  # its refusals are said once, in the summary
            om = m if c.opset >= 7 else lifted(c)
            sess = ort.InferenceSession(om.SerializeToString(), opts, providers=["CPUExecutionProvider"])
            c.expected = sess.run([c.outputs[0]], feeds)[0]
            c.oracle = "onnxruntime" if c.opset >= 7 else "onnxruntime (at opset 7)"
            return
        except Exception as e:  # noqa: BLE001 - onnxruntime's errors have no stable types
            why = re.sub(r"^\[ONNXRuntimeError\] : \d+ : (FAIL : )?", "", str(e).strip())
            why = re.sub(r"Exception during initialization: \S+ \S+\(.*?\) ", "", why)
            why = why.splitlines()[0][:200]
    try:
        c.expected = np.asarray(ReferenceEvaluator(m).run([c.outputs[0]], feeds)[0])
        c.oracle = "reference" + (" (onnxruntime: %s)" % why if why else "")
    except Exception as e:  # noqa: BLE001
        c.oracle = "none: onnxruntime: %s; reference: %s" % (why, str(e).splitlines()[0][:200])


def compare(c, got):
    """'' when got matches c.expected under the case's rule, else what differs."""
    e = np.asarray(c.expected)
    if e.dtype != got.dtype or e.shape != got.shape:
        return "expected %s%s, got %s%s" % (e.dtype, e.shape, got.dtype, got.shape)
    if e.dtype.kind in "SUO":
        bad = np.flatnonzero(e.reshape(-1) != got.reshape(-1))
    else:
        ef, gf = e.reshape(-1), got.reshape(-1)
        bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[e.dtype.itemsize]
        bad = ef.view(bits) != gf.view(bits)
        if e.dtype.kind == "f":
            bad &= ~(np.isnan(ef) & np.isnan(gf))
            if not c.exact:
                # ulps apart, across zero too (sign-magnitude to a line)
                def line(a):
                    n = a.dtype.itemsize * 8
                    i = a.view({16: np.int16, 32: np.int32, 64: np.int64}[n]).astype(np.int64)
                    mag = i & np.int64((1 << (n - 1)) - 1)
                    return np.where(i < 0, -mag, mag)
                d = np.abs(line(ef) - line(gf))
                near = (d <= TOL_ULPS) | (np.abs(ef.astype(np.float64) - gf) <= TOL_REL * np.abs(ef))
                bad &= ~(near & (np.isinf(ef) == np.isinf(gf)))
        bad = np.flatnonzero(bad)
    if len(bad) == 0:
        return ""
    i = bad[:4]
    return "%d of %d elements differ, at %s: expected %s, got %s" % (
        len(bad), e.size, list(i), e.reshape(-1)[i].tolist(), got.reshape(-1)[i].tolist())


# ---- wherec ------------------------------------------------------------------------------------

KERNEL_RE = re.compile(r"^kernel ([A-Za-z_]\w*)\((.*?)\)(?: = | -> )")
PARAM_RE = re.compile(r"([A-Za-z_]\w*): ([a-z0-9]+)\[([^\]]*)\]")
TAKEN_RE = re.compile(r"^wherec: kernel (\w+): \w+ (?:'[^']*'|\(output '([^']*)'\))")
NOT_TAKEN_RE = re.compile(r"^wherec: not taken: \w+ \(output '([^']*)'\): (.*)$")


def run_opset(args, opset, cases, positive, tag):
    """Import cases of one opset as one model, run each kernel on both paths; fills each
    case's result (None: pass, else why not)."""
    work = os.path.join(args.work, "opset%d_%s" % (opset, tag))
    os.makedirs(work, exist_ok=True)
    parts, values = [], {}
    for i, c in enumerate(cases):
        pre = "k%d_" % i
        c.prefix = pre
        parts.append(case_model(c, pre))
        for k, v in list(c.inputs.items()) + list(c.inits.items()) + list(c.known.items()):
            values[pre + k] = v
    model = os.path.join(work, "model.onnx")
    onnx.save(make_model(parts, opset, "opset%d" % opset), model)
    spec = os.path.join(work, "model.where")
    if os.path.exists(spec):
        os.remove(spec)
    env = dict(os.environ, WHEREC_CACHE_DIR=os.path.join(args.work, "cache"))
    r = subprocess.run([args.wherec, "import", model, "-o", spec], capture_output=True, text=True,
                       env=env)
    log = r.stderr
    kernel_of, reason_of = {}, {}
    for line in log.splitlines():
        m = TAKEN_RE.match(line)
        if m:
            kernel_of[m.group(2) or ""] = m.group(1)
        m = NOT_TAKEN_RE.match(line)
        if m:
            reason_of[m.group(1)] = m.group(2)
    # a model of refusals only (a chunk's last cases can be) has nothing to import: wherec
    # import exits 1, and each case is judged by its reason as in a model of refusals
    if not positive or all(c.refuse for c in cases):
        for c in cases:
            out = c.prefix + c.outputs[0]
            why = reason_of.get(out)
            if why is None:
                c.result = "taken, expected refused with '%s'" % c.refuse
            elif c.refuse not in why:
                c.result = "refused with '%s', expected '%s'" % (why, c.refuse)
            else:
                c.result = None
        return
    if r.returncode != 0:
        for c in cases:
            c.result = "wherec import failed (%d):\n%s" % (r.returncode, log)
        return
    decls = {}
    for line in open(spec):
        m = KERNEL_RE.match(line)
        if m:
            decls[m.group(1)] = PARAM_RE.findall(m.group(2))

    def run_case(c):
        out = c.prefix + c.outputs[0]
        if c.refuse:
            why = reason_of.get(out)
            if why is None:
                return "taken, expected refused with '%s'" % c.refuse
            return None if c.refuse in why else "refused with '%s', expected '%s'" % (why, c.refuse)
        if out in reason_of:
            return "not taken: %s" % reason_of[out]
        k = kernel_of.get(out)
        if k is None or k not in decls:
            return "no kernel computes '%s'" % out
        files = []
        for pname, _dt, dims in decls[k]:
            v = values.get(pname)
            if v is None:
                return "kernel %s: parameter '%s' is no value of the case" % (k, pname)
            v = np.asarray(v)
            fixed = [int(d) for d in dims.split(",")] if dims and all(
                d.strip().isdigit() for d in dims.split(",")) else None
            if fixed is not None and list(v.shape) != fixed and v.size == int(np.prod(fixed)):
                v = v.reshape(fixed)  # a per-channel parameter declared [C,1,...]
            f = os.path.join(work, "%s.%s.npy" % (k, pname))
            np.save(f, v)
            files.append(f)
        got = []
        for interp in (False, True):
            o = os.path.join(work, "%s.%s.npy" % (k, "interp" if interp else "spec"))
            cmd = [args.wherec, "run", spec, k] + files + ["-o", o, "--cc", args.cc] + (
                ["--interp"] if interp else [])
            rr = subprocess.run(cmd, capture_output=True, text=True, env=env)
            path = "interpreted" if interp else "specialized"
            if rr.returncode != 0 or ("(%s)" % path) not in rr.stderr:
                return "wherec run (%s) failed (%d): %s" % (path, rr.returncode, rr.stderr.strip())
            got.append(np.load(o))
        a, b = got
        if a.dtype != b.dtype or a.shape != b.shape or a.tobytes() != b.tobytes():
            return "the specialized and interpreted paths differ"
        if c.expected is None:
            return "no oracle: %s" % c.oracle
        d = compare(c, a)
        if d and c.deviation:
            c.note = "differs from %s as known: %s (%s)" % (c.oracle.split(" ")[0], d, c.deviation)
            return None
        return ("%s differs from %s: %s" % (k, c.oracle.split(" ")[0], d)) if d else None

    for c in cases:
        c.result = run_case(c)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wherec", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cc", help="the compiler of wherec run (default: clang, or cc, at -O0)")
    ap.add_argument("--list", action="store_true", help="print the (operator, opset) pairs and stop")
    ap.add_argument("--only", help="operators (comma-separated) to run, for debugging")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    warnings.simplefilter("ignore", RuntimeWarning)  # numpy on NaN and inf: meant
    ort.set_default_logger_severity(4)  # the sessions it cannot make are said once, below
    np.seterr(all="ignore")
    t0 = time.time()
    ops = read_ops(args.wherec)
    INEXACT.update(o["name"] for o in ops if not o["exact"])
    problems = table_problems(ops)
    if args.only:
        ops = [o for o in ops if o["name"] in args.only.split(",")]
    pairs = [(o["name"], v, why) for o in ops for v, why in opsets_of(o["name"])]
    if args.list:
        for p in pairs:
            print("%s %d (%s)" % p)
        return 0
    if args.cc is None:
        # The kernels' bits are the same at every optimization level (tests/random checks
        # -O0 to -O3); at -O0 the ~900 kernels compile in seconds instead of a minute.
        import shutil
        os.makedirs(args.work, exist_ok=True)
        args.cc = os.path.join(os.path.abspath(args.work), "cc-O0")
        real = shutil.which("clang") or shutil.which("cc") or "cc"
        text = '#!/bin/sh\nexec %s "$@" -O0\n' % real
        if not os.path.exists(args.cc) or open(args.cc).read() != text:
            with open(args.cc + ".tmp", "w") as f:
                f.write(text)
            os.chmod(args.cc + ".tmp", 0o755)
            os.replace(args.cc + ".tmp", args.cc)
    cases = all_cases(ops)
    for c in cases:
        for op, opsets, label, why in DEVIATIONS:
            if c.op == op and (opsets is None or c.opset in opsets) and re.match(label, c.label):
                c.deviation, c.ref_only = why, True
    os.makedirs(args.work, exist_ok=True)
    for c in cases:
        if not c.refuse:
            oracle(c)
    t1 = time.time()
    groups = {}
    for c in cases:
        # refusals of operators the opset lacks, or of attributes the version lacks, make an
        # invalid model: they go in a model of their own
        bad = c.refuse is not None and (c.label.startswith("before it appeared") or
                                        c.label.startswith("attribute "))
        groups.setdefault((c.opset, not bad), []).append(c)
    # wherec run generates the whole spec before it finds the compiled one in its cache:
    # models of CHUNK cases balance that against one compile per model
    jobs = []
    for (opset, positive), cs in sorted(groups.items()):
        if not positive:
            jobs.append((opset, cs, False, "refusals"))
            continue
        for i in range(0, len(cs), CHUNK):
            jobs.append((opset, cs[i:i + CHUNK], True, str(i // CHUNK)))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for f in [ex.submit(run_opset, args, *j) for j in jobs]:
            f.result()
    failed = [c for c in cases if c.result]
    oracles = {}
    for c in cases:
        if c.oracle:
            oracles[c.oracle.split(" ")[0]] = oracles.get(c.oracle.split(" ")[0], 0) + 1
    noort = {}
    for c in cases:
        if c.oracle and c.oracle.startswith("reference"):
            why = c.deviation or c.oracle[len("reference (onnxruntime: "):-1]
            noort.setdefault("%s-%d" % (c.op, c.opset), "%s: %s" % (c.label.split(" [")[0], why[:150]))
    for c in cases:
        if args.v or c.result:
            print("%s: %s: %s" % ("FAIL" if c.result else "ok", c.name(), c.result or c.oracle or "refused"))
    for p in problems:
        print("FAIL: %s" % p)
    for c in cases:
        if getattr(c, "note", None):
            print("note: %s: %s" % (c.name(), c.note))
    print("%d (operator, opset) pairs of %d operators, %d cases (%d refusals); oracles: %s"
          % (len(pairs), len(ops), len(cases), sum(1 for c in cases if c.refuse),
             ", ".join("%s %d" % kv for kv in sorted(oracles.items()))))
    print("onnx's reference evaluator stood in for onnxruntime on %d pairs (a case of each, and why):"
          % len(noort))
    for k, v in sorted(noort.items()):
        print("  %s %s" % (k, v))
    print("%d failed; %.1f s (%.1f s building the cases and their expected outputs)"
          % (len(failed) + len(problems), time.time() - t0, t1 - t0))
    return 1 if failed or problems else 0


if __name__ == "__main__":
    sys.exit(main())
