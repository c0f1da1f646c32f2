# matrix.py: the build matrix of a wherec_bench run. Every case is timed on two
# kinds of pages (huge, 4k) under every build of the timed code (gcc and clang,
# -O2 and -O3 -march=native); each case is judged by the worst build of its
# generated kernel against the best build of the tuned loop on the same pages.
from records import fmt_time

# Cases of 16M elements move their data through memory; the others run in cache.
# The generated kernel's worst build must be within these ratios of the best tuned loop.
TARGET_MEMORY, TARGET_CACHE = 1.15, 1.30
MEMORY_ELEMENTS = 1 << 24
PAGES = ["huge", "4k"]


def judge(c, pages):
    """The matrix row of case c on pages, or None: the worst gen build, the best
    tuned build, their ratio, the target and whether it is met. A per-call case
    (timed beside an empty call) within 1 ns counts as met: that is below what
    the timing loop resolves."""
    m = c.get("m", {})
    gen = {b: ns for (pg, col, b), ns in m.items() if pg == pages and col == "gen"}
    tuned = {b: ns for (pg, col, b), ns in m.items() if pg == pages and col == "tuned"}
    if not gen or not tuned:
        return None
    worst, best = max(gen, key=gen.get), min(tuned, key=tuned.get)
    target = TARGET_MEMORY if c.get("elements", 0) >= MEMORY_ELEMENTS else TARGET_CACHE
    r = gen[worst] / tuned[best]
    floor = ("floor", "-") in {(col, b) for (pg, col, b) in m if pg == pages}
    met = r <= target or (floor and gen[worst] - tuned[best] < 1.0)
    return {"worst": worst, "gen": gen[worst], "best": best, "tuned": tuned[best], "ratio": r,
            "target": target, "met": met, "by_build": gen,
            "same": gen[worst] / tuned[worst] if worst in tuned else None,
            "build_cost": tuned[worst] / tuned[best] if worst in tuned else None}


def rows(recs):
    return [(name, pages, j) for name, c in recs.rows for pages in PAGES
            for j in [judge(c, pages)] if j]


def lines(recs):
    """The matrix table and its target line."""
    builds = [b for b, _ in recs.builds]
    short = {b: b.replace("-native", "n") for b in builds}
    matrix = rows(recs)
    if not matrix:
        return []
    out = ["Every build (gen time / the best tuned loop's on the same pages; "
           + ", ".join(f"{short[b]} = {f}" for b, f in recs.builds) + "):",
           f"{'case':20} {'pages':5} {'gen, worst build':>22} {'tuned, best build':>22} "
           f"{'ratio':>6} {'target':>7}  " + " ".join(f"{short[b]:>9}" for b in builds)]
    for name, pages, j in matrix:
        cells = " ".join(f"{j['by_build'][b] / j['tuned']:8.2f}x" if b in j["by_build"] else f"{'-':>9}"
                         for b in builds)
        out.append(f"{name:20} {pages:5} {fmt_time(j['gen']):>10} {short[j['worst']]:>11} "
                   f"{fmt_time(j['tuned']):>10} {short[j['best']]:>11} {j['ratio']:5.2f}x "
                   f"{('<' + format(j['target'], '.2f')) if j['met'] else 'MISSED':>7}  {cells}")
    return out


def target_lines(recs):
    """The build matrix's targets on the generated code: every build within 1.15x
    of the best tuned loop on 16M cases and 1.3x in cache, each kind of pages."""
    matrix = rows(recs)
    out = []
    for label, memory in [("16M cases: every build within 1.15x of the best tuned loop", True),
                          ("in-cache cases: every build within 1.3x of the best tuned loop", False)]:
        for pages in PAGES:
            sel = [(n, j) for n, pg, j in matrix
                   if pg == pages and (j["target"] == TARGET_MEMORY) == memory]
            if not sel:
                continue
            # a miss with the tuned loop of the same build: is it the code or the build?
            misses = [f"{n} {j['ratio']:.2f}x ({j['worst']}"
                      + (f"; its tuned loop {j['build_cost']:.2f}x the best, gen {j['same']:.2f}x"
                         " its tuned loop" if j["same"] else "") + ")"
                      for n, j in sel if not j["met"]]
            worst = max(sel, key=lambda x: x[1]["ratio"])
            state = "met" if not misses else "MISSED"
            out.append(f"  [{state:6}] {label}, {pages} pages: worst {worst[1]['ratio']:.2f}x "
                       f"({worst[0]}, {worst[1]['worst']})"
                       + (f"; over: {', '.join(misses)}" if misses else ""))
    out += coords_lines(recs)
    return out


# argwhere / nonzero: every build within this ratio of the bandwidth bound.
TARGET_COORDS = 1.5


def coords_lines(recs):
    """The target on coordinates: the worst gen build of each argwhere and
    nonzero case over its bandwidth bound (its bytes at the rate of memcpy on
    the same pages). A miss shows the count column, one pass over the input:
    a kernel that must know n before its first write (nonzero's [rank, n])
    reads the input twice, so twice that pass is its floor."""
    out = []
    for pages in PAGES:
        sel = []
        for name, c in recs.rows:
            m = c.get("m", {})
            gen = {b: ns for (pg, col, b), ns in m.items() if pg == pages and col == "gen"}
            copy = m.get((pages, "memcpy", "-"))
            if c.get("kind") not in ("argwhere", "nonzero") or not gen or not copy or not c.get("out_bytes"):
                continue
            bound = c["bytes"] / (2 * c["out_bytes"] / copy)
            worst = max(gen, key=gen.get)
            sel.append((name, worst, gen[worst] / bound, m.get((pages, "count", "-")), bound))
        if not sel:
            continue
        misses = [f"{n} {r:.2f}x ({b}" + (f"; a count pass alone, which nonzero adds where true is"
                                            f" dense, {cnt / bound:.2f}x the bound" if cnt else "") + ")"
                  for n, b, r, cnt, bound in sel if r > TARGET_COORDS]
        worst = max(sel, key=lambda x: x[2])
        out.append(f"  [{'met' if not misses else 'MISSED':6}] argwhere/nonzero: every build within "
                   f"{TARGET_COORDS}x of the bandwidth bound, {pages} pages: worst {worst[2]:.2f}x "
                   f"({worst[0]}, {worst[1]})" + (f"; over: {', '.join(misses)}" if misses else ""))
    return out
