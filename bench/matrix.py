# matrix.py: the build matrix of a wherec_bench run. Every case is timed on two
# kinds of pages (huge, 4k) under every build of the timed code (gcc and clang,
# -O2 and -O3 -march=native); this module reads those records and judges each
# case by its worst build of the generated kernel against the best build of
# the tuned loop on the same pages (issue 13's targets).
"""Read by report.py; `python3 matrix.py C_RECORDS` prints the matrix alone."""
import sys

# Cases of 16M elements move their data through memory; the others run in cache.
# A generated kernel's worst build must be within these ratios of the best tuned loop.
TARGET_MEMORY, TARGET_CACHE = 1.15, 1.30
MEMORY_ELEMENTS = 1 << 24


def read(path):
    """builds: [(name, flags)]; times: {(case, pages): {(column, build): ns}};
    order: [(case, pages)] as run; elements: {case: elements}."""
    builds, times, order, elements = [], {}, [], {}
    with open(path) as f:
        for line in f:
            r = line.rstrip("\n").split("\t")
            if r[0] == "build":
                builds.append((r[1], r[2]))
            elif r[0] == "case":
                elements[r[1]] = int(r[6])
            elif r[0] == "time" and len(r) == 6:
                key = (r[1], r[2])
                if key not in times:
                    times[key] = {}
                    order.append(key)
                times[key][(r[3], r[4])] = float(r[5])
    return builds, times, order, elements


def per_build(t, column):
    return {b: ns for (c, b), ns in t.items() if c == column}


def judge(case, t, elements, floor=None):
    """One row of the matrix: the worst gen build, the best tuned build, their
    ratio and the target it is held to. A per-call case (floor: the empty call)
    within 1 ns of the tuned loop counts as met: that is below what the loop resolves."""
    gen, tuned = per_build(t, "gen"), per_build(t, "tuned")
    if not gen or not tuned:
        return None
    worst = max(gen, key=gen.get)
    best = min(tuned, key=tuned.get)
    memory = elements.get(case, 0) >= MEMORY_ELEMENTS
    target = TARGET_MEMORY if memory else TARGET_CACHE
    r = gen[worst] / tuned[best]
    met = r <= target or (floor is not None and gen[worst] - tuned[best] < 1.0)
    return {"worst": worst, "gen": gen[worst], "best": best, "tuned": tuned[best], "ratio": r,
            "target": target, "met": met, "gen_by_build": gen, "tuned_by_build": tuned}


def rows(path):
    builds, times, order, elements = read(path)
    out = []
    for case, pages in order:
        t = times[(case, pages)]
        floor = t.get(("floor", "-"))
        j = judge(case, t, elements, floor)
        if j:
            out.append((case, pages, j))
    return builds, out


def fmt(ns):
    return f"{ns:.1f} ns" if ns < 1e3 else f"{ns / 1e3:.1f} us" if ns < 1e6 else f"{ns / 1e6:.2f} ms"


def lines(builds, matrix):
    short = {b: b.replace("-native", "n") for b, _ in builds}
    head = f"{'case':22} {'pages':5} {'gen (worst build)':>26} {'tuned (best build)':>26} {'ratio':>6} {'target':>7}  " + \
        "  ".join(f"{short[b]:>8}" for b, _ in builds)
    out = [head]
    for case, pages, j in matrix:
        cells = "  ".join(f"{j['gen_by_build'].get(b, 0) / j['tuned']:7.2f}x" for b, _ in builds)
        out.append(f"{case:22} {pages:5} {fmt(j['gen']):>10} {short[j['worst']]:>15} "
                   f"{fmt(j['tuned']):>10} {short[j['best']]:>15} {j['ratio']:5.2f}x "
                   f"{'met' if j['met'] else 'MISSED':>7}  {cells}")
    return out


if __name__ == "__main__":
    b, m = rows(sys.argv[1])
    print("\n".join(lines(b, m)))
