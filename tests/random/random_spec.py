#!/usr/bin/env python3
"""random_spec.py: writes a spec of random fused kernels over the whole
expression grammar (docs/language.md), every dtype and broadcast pattern, one
kernel in five with a body of lets and several outputs that read each other,
for `wherec check`. Deterministic for a seed: random_spec.py SEED COUNT > x.where"""
import os
import random
import re
import sys

INTS = {"int8": (-128, 127), "int16": (-32768, 32767), "int32": (-2**31, 2**31 - 1),
        "int64": (-2**63, 2**63 - 1), "uint8": (0, 255), "uint16": (0, 65535),
        "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1)}
FLOATS = ["float", "double", "float16", "bfloat16"]
NUMERIC = list(INTS) + FLOATS
OTHER = ["bool", "complex64", "complex128", "string"]
ORDER_OPS = ["<", "<=", ">", ">="]
ARITH_OPS = ["+", "-", "*", "/"]
INT_OPS = ["%", "&", "|", "^", "<<", ">>"]           # integers only


def float_functions():
    """The spec's functions of one operand defined on every float dtype (double too): the
    CALL rows of domain FLOAT in the operation table, in its order."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include",
                        "wherec", "operations.h")
    rows = re.findall(r'X\(P, \w+, +"(\w+)", +1, FLOAT, +SAME, CALL,', open(path).read())
    if not rows:
        raise SystemExit("random_spec.py: no FLOAT function rows in %s: its columns changed" % path)
    return rows


FLOAT_FNS = float_functions()  # floats only

# Output shape patterns: symbolic extents N, M, K and fixed ones, ranks 0..5;
# all-fixed ones are straight-line code up to 64 elements (8x8 is the limit,
# 9x8 over it), and a fixed 0 makes a kernel with no elements.
PATTERNS = [[], ["N"], ["N", "M"], ["N", "1"], ["2", "N"], ["N", "M", "K"], ["3", "N", "4"],
            ["N", "M", "2", "K"], ["2", "2", "N", "1", "M"], ["7"], ["N", "5"], ["16", "N"],
            ["0"], ["2", "0", "3"], ["0", "N"], ["2", "3"], ["8", "8"], ["9", "8"]]


class Kernel:
    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.out = rng.choice(PATTERNS)
        self.params = []                     # (name, dtype, dims)
        self.values = []                     # a body's statements so far: (name, dtype)
        self.read = set()                    # the statements read by later ones

    def shape(self):
        """A shape that broadcasts to the output: dims kept, set to 1 or dropped."""
        r = self.rng
        dims = [d if r.random() < 0.7 else "1" for d in self.out]
        drop = r.randrange(len(dims) + 1) if r.random() < 0.3 else 0
        return dims[drop:]

    def param(self, dtype):
        """A parameter of this dtype: an existing one or a new one."""
        same = [p for p in self.params if p[1] == dtype]
        if same and self.rng.random() < 0.6:
            return self.rng.choice(same)[0]
        name = "p%d" % len(self.params)
        self.params.append((name, dtype, self.shape()))
        return name

    def literal(self, dtype):
        r = self.rng
        if dtype == "bool":
            return r.choice(["true", "false"])
        if dtype in INTS:
            lo, hi = INTS[dtype]
            v = r.choice([0, 1, 2, 7, 100, lo, hi, r.randint(lo, hi)])
            return str(v)
        return r.choice(["0", "1", "0.5", "-2.25", "1e-3", "3.0e2", "inf", "-inf", "nan", "65504"])

    def expr(self, dtype, depth):
        """A random expression of dtype, at most depth levels deep: (text,
        typed), typed meaning its dtype does not come from a literal only."""
        r = self.rng
        if depth == 0 or r.random() < 0.25:
            return self.leaf(dtype)
        if r.random() < 0.25:
            c = self.typed("bool", depth - 1)
            (a, ta), (b, tb) = self.expr(dtype, depth - 1), self.expr(dtype, depth - 1)
            return "where(%s, %s, %s)" % (c, a, b), ta or tb
        if dtype == "bool":
            choice = r.randrange(4)
            if choice == 0:
                t = r.choice(NUMERIC)
                a, _ = self.expr(t, depth - 1)
                return "(%s %s %s)" % (a, r.choice(ORDER_OPS + ["==", "!="]), self.typed(t, depth - 1)), True
            if choice == 1:
                t = r.choice(OTHER + NUMERIC)
                return "(%s %s %s)" % (self.typed(t, depth - 1), r.choice(["==", "!="]),
                                       self.typed(t, depth - 1)), True
            if choice == 2:
                (a, ta), (b, tb) = self.expr("bool", depth - 1), self.expr("bool", depth - 1)
                return "(%s %s %s)" % (a, r.choice(["&&", "||", "&", "|", "^"]), b), ta or tb
            if r.random() < 0.5:
                a, ta = self.expr("bool", depth - 1)
                return "!(%s)" % a, ta
            return "bool(%s)" % self.typed(r.choice(NUMERIC), depth - 1), True
        if dtype not in NUMERIC:
            return self.leaf(dtype)
        choice = r.randrange(7)
        if choice == 0:
            b, _ = self.expr(dtype, depth - 1)
            ops = ARITH_OPS + (INT_OPS if dtype in INTS else [])
            return "(%s %s %s)" % (self.typed(dtype, depth - 1), r.choice(ops), b), True
        if choice == 5:
            b, _ = self.expr(dtype, depth - 1)
            return "fmod(%s, %s)" % (self.typed(dtype, depth - 1), b), True
        if choice == 6:
            if dtype in INTS:
                return "~(%s)" % self.typed(dtype, depth - 1), True
            return "%s(%s)" % (r.choice(FLOAT_FNS), self.typed(dtype, depth - 1)), True
        if choice == 1:
            b, _ = self.expr(dtype, depth - 1)
            return "%s(%s, %s)" % (r.choice(["min", "max"]), self.typed(dtype, depth - 1), b), True
        if choice == 2:
            if dtype in ("float", "float16", "bfloat16") and r.random() < 0.4:
                return "exp(%s)" % self.typed(dtype, depth - 1), True   # not on double
            return "abs(%s)" % self.typed(dtype, depth - 1), True
        if choice == 3:
            return "-(%s)" % self.typed(dtype, depth - 1), True
        return "%s(%s)" % (dtype, self.typed(r.choice(NUMERIC + ["bool"]), depth - 1)), True

    def typed(self, dtype, depth):
        """An expression whose dtype does not hang on a literal."""
        read = set(self.read)
        e, typed = self.expr(dtype, depth)
        if typed:
            return e
        self.read = read                     # e is dropped: what it read is not read
        return self.param(dtype)

    def leaf(self, dtype):
        named = [n for n, t in self.values if t == dtype]
        if named and self.rng.random() < 0.5:
            name = self.rng.choice(named)
            self.read.add(name)
            return name, True
        if dtype in ("complex64", "complex128", "string") or self.rng.random() < 0.7:
            return self.param(dtype), True
        return self.literal(dtype), False

    def statement(self, name):
        """`name = expr;` of a random dtype; later statements may read name."""
        r = self.rng
        dtype = r.choice(NUMERIC + OTHER)
        text = "%s = %s;" % (name, self.typed(dtype, r.randrange(1, 4)))
        self.values.append((name, dtype))
        return text

    def render_body(self):
        """-> (outputs) { lets and outputs }: a let nothing reads is an output too."""
        r = self.rng
        stmts = ["let " + self.statement("l%d" % i) for i in range(r.randrange(0, 3))]
        outs = ["o%d" % i for i in range(r.randrange(1, 4))]
        stmts += [self.statement(o) for o in outs]
        outs += [n for n, _ in self.values if n.startswith("l") and n not in self.read]
        params = ", ".join("%s: %s[%s]" % (n, t, ",".join(d)) for n, t, d in self.params)
        return "kernel %s(%s) -> (%s) { %s }" % (self.name, params, ", ".join(outs), " ".join(stmts))

    def render(self):
        if self.rng.random() < 0.2:
            return self.render_body()
        top = self.rng.choice(NUMERIC + OTHER)
        if not self.params and self.rng.random() < 0.5:
            self.param(top)                  # most kernels name their output's shape
        body = self.typed(top, self.rng.randrange(1, 5))
        if self.rng.random() < 0.08:
            body = "%s(%s)" % (self.rng.choice(["argwhere", "nonzero"]), self.typed(top, 2))
        params = ", ".join("%s: %s[%s]" % (n, t, ",".join(d)) for n, t, d in self.params)
        return "kernel %s(%s) = %s;" % (self.name, params, body)


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    print("# random_spec.py %d %d: generated, do not edit" % (seed, count))
    print('option prefix = "rnd%d";' % seed)
    print("option unroll = %d;" % [1, 4, 8, 3][seed % 4])   # each unroll remainder, by seed
    for i in range(count):
        print(Kernel(rng, "k%d" % i).render())


if __name__ == "__main__":
    main()
