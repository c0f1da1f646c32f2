# cases.py: the bench's cases as numpy operands, rebuilt from the `case` records
# wherec_bench writes (bench.c holds the one list), for numpy_bench.py and peers.py.
import zlib

import numpy as np

DTYPES = {"float": np.float32, "double": np.float64}  # ONNX names numpy spells otherwise
# A run of special values starts every SPECIAL_PERIOD elements of a float operand,
# as bench.c's fill_random puts them: -0.0, subnormals, and a normal number whose
# product with 0.01 is subnormal, so that a peer that drops the sign of a zero or
# flushes subnormals shows in the byte check. 5 in 4096 elements: no time to speak of.
SPECIAL_PERIOD = 4096


def specials(dtype):
    """-0.0, the smallest subnormal, a negative subnormal, 0.75 x the smallest normal
    (subnormal), -1.5 x the smallest normal (x 0.01 is subnormal); exact in f16 and f32."""
    fi = np.finfo(dtype)
    sub = float(fi.smallest_subnormal)
    return np.array([-0.0, sub, -sub * 2 ** 9, 0.75 * float(fi.tiny), -1.5 * float(fi.tiny)], dtype)


# The fields of a `case` record after its tag, as records.py reads them: a `fields case
# NAME...` record names them otherwise; fields this script does not use are ignored.
CASE_FIELDS = ["name", "kind", "dtype", "p", "shapes"]


class Case:
    """One `case` record's name, kind, dtype, p and shapes."""

    def __init__(self, rec, fields=CASE_FIELDS):
        f = dict(zip(fields, rec[1:]))
        self.name, self.kind, self.dtype_name, self.p = f["name"], f["kind"], f["dtype"], float(f["p"])
        self.shapes = [tuple(int(e) for e in s.split(",")) if s else () for s in f["shapes"].split(";")]
        self.dtype = DTYPES.get(self.dtype_name) or np.dtype(self.dtype_name).type

    def operands(self):
        """The operands by name (c, x, y; leaky: x; argwhere, nonzero: c), drawn from a
        generator seeded by the case's name: every script gets the same arrays."""
        rng = np.random.default_rng(zlib.crc32(self.name.encode()))
        if self.kind == "where":
            return {"c": operand(rng, np.bool_, self.shapes[0], self.p),
                    "x": operand(rng, self.dtype, self.shapes[1], self.p),
                    "y": operand(rng, self.dtype, self.shapes[2], self.p)}
        if self.kind == "leaky":
            return {"x": operand(rng, self.dtype, self.shapes[0], self.p)}
        return {"c": operand(rng, np.bool_, self.shapes[0], self.p)}


def read_cases(path):
    cases, fields = [], CASE_FIELDS
    with open(path) as f:
        for r in (line.rstrip("\n").split("\t") for line in f):
            if r[0] == "fields" and r[1:2] == ["case"]:
                fields = r[2:]
            elif r[0] == "case":
                cases.append(Case(r, fields))
    return cases


def operand(rng, dtype, shape, p):
    """Random operands as bench.c draws them: bools true with probability p, floats in
    [-1, 1) but for the specials, integers over their whole range."""
    if dtype == np.bool_:
        return np.asarray(rng.random(shape) < p)
    if np.issubdtype(dtype, np.floating):
        a = np.asarray(rng.random(shape, dtype=np.float64) * 2 - 1, dtype=dtype)
        flat = a.reshape(-1)                   # a view: the specials land in a
        for k, v in enumerate(specials(dtype)):
            flat[k::SPECIAL_PERIOD] = v
        return a
    info = np.iinfo(dtype)
    return np.asarray(rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True))


def numpy_call(case, ops):
    """The numpy call a user writes for the case, as a closure."""
    if case.kind == "where":
        c, x, y = ops["c"], ops["x"], ops["y"]
        return lambda: np.where(c, x, y)
    if case.kind == "leaky":
        x = ops["x"]
        return lambda: np.where(x > 0, x, x * 0.01)  # x * 0.01 stays float32
    c = ops["c"]
    return (lambda: np.argwhere(c)) if case.kind == "argwhere" else (lambda: np.nonzero(c))


def expected(case, ops):
    """wherec's output for the case, which numpy's equals bit for bit: nonzero as
    one [rank, n] int64 array, as wc_nonzero and ONNX NonZero lay it out."""
    out = numpy_call(case, ops)()
    return np.stack(out) if case.kind == "nonzero" else out
