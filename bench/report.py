#!/usr/bin/env python3
# report.py: merges the records of wherec_bench and numpy_bench.py into the
# terminal table, the issue-5 target check, results.csv and results.svg.
"""usage: report.py C_RECORDS [NUMPY_RECORDS] [--csv FILE] [--svg FILE]"""
import argparse
import math
import os
import platform

# Columns of the table: (variant, heading); times are medians per call.
COLUMNS = [("gen", "gen"), ("wc_run", "wc_run"), ("runtime", "runtime"), ("interp", "interp"),
           ("tuned", "tuned"), ("gen_2thr", "gen 2thr"), ("memcpy", "memcpy"), ("numpy", "numpy")]
# Cases whose 2-thread speed-up the report states (threads.c).
THREAD_CASES = ["f32 16M p.5", "f32 1M p.5 (in L3)", "leaky relu 16M"]
# The README's table sits between these lines (report.py --readme rewrites it).
README_BEGIN, README_END = "<!-- bench:begin -->", "<!-- bench:end -->"
# Bars of the chart: speed-up over numpy of these variants.
BARS = [("gen", "generated kernel (direct call)", "#1f6fb4"),
        ("runtime", "runtime (wc_where / wc_argwhere / wc_nonzero)", "#f08a24"),
        ("interp", "interpreter fallback (wc_interpret)", "#3a9d3a"),
        ("tuned", "hand-tuned C loop", "#8c8c8c")]


def read_records(paths):
    cases, order, extra = {}, [], {}
    for path in paths:
        if not path or not os.path.exists(path):
            continue
        with open(path) as f:
            for line in f:
                r = line.rstrip("\n").split("\t")
                if r[0] == "case":
                    cases.setdefault(r[1], {"t": {}})
                    cases[r[1]].update(kind=r[2], dtype=r[3], p=float(r[4]), shapes=r[5],
                                       elements=int(r[6]), bytes=float(r[7]), out_bytes=int(r[8]))
                    order.append(r[1])
                elif r[0] == "time":
                    cases.setdefault(r[1], {"t": {}})["t"][r[2]] = float(r[3])
                else:
                    extra[r[0]] = r[1:]
    return [(name, cases[name]) for name in order], extra


def fmt_time(ns):
    if ns is None:
        return "-"
    if ns < 1e3:
        return f"{ns:.1f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.1f} us"
    return f"{ns / 1e6:.2f} ms"


def ratio(a, b):
    return a / b if a is not None and b else None


def bound_ns(c):
    """The bandwidth bound of a case: its bytes moved at the copy rate memcpy
    reached on the output's size (2 x output bytes per memcpy: read and write)."""
    m = c["t"].get("memcpy")
    return c["bytes"] / (2 * c["out_bytes"] / m) if m and c["out_bytes"] else None


def fmt_ratio(r, digits=2):
    return "-" if r is None else f"{r:.{digits}f}x"


def table_lines(rows):
    head = ["case"] + [h for _, h in COLUMNS] + ["GB/s", "bound", "vs numpy", "gen/tuned",
                                                   "gen/bound", "interp/gen"]
    widths = [20] + [9] * len(COLUMNS) + [5, 9, 8, 9, 9, 10]
    join = lambda cells: "  ".join(s.rjust(w) if i else s.ljust(w)
                                   for i, (s, w) in enumerate(zip(cells, widths))).rstrip()
    lines = [join(head)]
    for name, c in rows:
        t = c["t"]
        gen = t.get("gen")
        cells = [name] + [fmt_time(t.get(v)) for v, _ in COLUMNS]
        cells += [f"{c['bytes'] / gen:.1f}" if gen else "-", fmt_time(bound_ns(c)),
                  fmt_ratio(ratio(t.get("numpy"), gen), 1), fmt_ratio(ratio(gen, t.get("tuned"))),
                  fmt_ratio(ratio(gen, bound_ns(c))), fmt_ratio(ratio(t.get("interp"), gen), 1)]
        lines.append(join(cells))
    return lines


def check_targets(rows, extra):
    """The targets of issue 5, each with its measured figure."""
    by = dict(rows)
    t = lambda name, v: by.get(name, {}).get("t", {}).get(v)
    out = []

    def target(label, value, ok, detail=""):
        state = "-" if value is None else ("met" if ok else "MISSED")
        out.append(f"  [{state:6}] {label}: {value if value is not None else 'n/a'}{detail}")

    def over(n):
        """gen over 1.15x of tuned; a per-call case (timed beside an empty call, the
        loop's floor of about 3 ns) only if also more than 1 ns slower: a couple of
        cycles is below what the timing loop resolves."""
        g, tu = t(n, "gen"), t(n, "tuned")
        if not g or not tu or g <= 1.15 * tu:
            return False
        return not (t(n, "floor") and g - tu < 1.0)
    misses = [n for n, _ in rows if over(n)]
    floor_cases = [n for n, _ in rows if t(n, "floor") and (ratio(t(n, "gen"), t(n, "tuned")) or 0) > 1.15
                   and not over(n)]
    worst = max(((ratio(t(n, "gen"), t(n, "tuned")), n) for n, _ in rows
                 if t(n, "tuned") and n not in floor_cases), default=(None, ""))
    target("generated kernel within 1.15x of the tuned loop, every case",
           fmt_ratio(worst[0]) if worst[0] else None, worst[0] is not None and not misses,
           f" (worst: {worst[1]})" + (f"; over 1.15x: {', '.join(misses)}" if misses else "")
           + "".join(f"; {n}: {fmt_time(t(n, 'gen'))} vs {fmt_time(t(n, 'tuned'))}, within 1 ns"
                     " at the timing floor" for n in floor_cases))
    rb = "row bcast 16Kx1K"
    r = ratio(t(rb, "gen"), t(rb, "memcpy"))
    target("row broadcast at memcpy speed (gen / memcpy of the output)", fmt_ratio(r),
           r is not None and r <= 1.15)
    for label, names, goal in [
            ("plain where >= 7x np.where (16M, p=0.5)",
             ["f32 16M p.5", "f16 16M p.5", "i64 16M p.5", "u8 16M p.5"], 7),
            ("row broadcast >= 4x np.where", [rb], 4),
            ("scalar y >= 10x np.where", ["scalar y 16M"], 10),
            ("fused leaky relu >= 10x numpy as users write it", ["leaky relu 16M"], 10),
            ("argwhere >= 8x np.argwhere", ["argwhere 4Kx4K p.5", "argwhere 4Kx4K p.01"], 8)]:
        rs = [(ratio(t(n, "numpy"), t(n, "gen")), n) for n in names]
        rs = [(x, n) for x, n in rs if x is not None]
        if not rs:
            target(label, None, False)
            continue
        lo = min(rs)
        # each case with the time its generated kernel takes over its bandwidth bound
        detail = ", ".join(f"{n} {x:.1f}x, gen/bound {fmt_ratio(ratio(t(n, 'gen'), bound_ns(by[n])))}"
                           for x, n in rs)
        target(label, fmt_ratio(lo[0], 1), lo[0] >= goal, f" ({detail})")
    # The per-call case measures call overhead: there the interpreter is held
    # against the specialized kernel reached the same way, through wc_run.
    tiny = "2x2 per call"
    bulk = [n for n, _ in rows if n != tiny and t(n, "interp")]
    worst = max(((ratio(t(n, "interp"), t(n, "gen")), n) for n in bulk), default=(None, ""))
    misses = [n for n in bulk if ratio(t(n, "interp"), t(n, "gen")) > 3]
    target("interpreter fallback within 3x of the generated kernel, every case",
           fmt_ratio(worst[0], 1) if worst[0] else None, worst[0] is not None and not misses,
           f" (worst: {worst[1]}; over 3x in {len(misses)} of {len(bulk)} cases)")
    r = ratio(t(tiny, "interp"), t(tiny, "wc_run"))
    target("2x2: interpreter within 3x of wc_run's specialized path", fmt_ratio(r, 2),
           r is not None and r <= 3, f" ({fmt_time(t(tiny, 'interp'))} vs {fmt_time(t(tiny, 'wc_run'))};"
           f" the direct call {fmt_time(t(tiny, 'gen'))})")
    g, w, floor = t(tiny, "gen"), t(tiny, "runtime"), t(tiny, "floor")
    target("2x2 direct generated call < 10 ns", fmt_time(g), g is not None and g < 10,
           f" (timing-loop floor {fmt_time(floor)} included)" if floor else "")
    target("2x2 wc_where < 100 ns", fmt_time(w), w is not None and w < 100)
    if "genscale" in extra:
        k, sec, bc, bh = extra["genscale"]
        k, sec = int(k), float(sec)
        target(f"{k} kernels generate in < 1 s", f"{sec:.3f} s", sec < 1.0,
               f" ({int(bc) / k:.0f} bytes of C and {int(bh) / k:.0f} of header per kernel)")
    return out


def write_csv(path, rows):
    with open(path, "w") as f:
        f.write("case,kind,dtype,p,elements,bytes_moved,variant,median_ns,gb_per_s,"
                "speedup_vs_numpy,ratio_vs_tuned\n")
        for name, c in rows:
            for v, ns in c["t"].items():
                if v == "floor":
                    continue
                gbs = c["bytes"] / ns if ns else 0
                sn = ratio(c["t"].get("numpy"), ns)
                rt = ratio(ns, c["t"].get("tuned"))
                f.write(f"{name},{c['kind']},{c['dtype']},{c['p']:g},{c['elements']},"
                        f"{c['bytes']:.0f},{v},{ns:.3f},{gbs:.3f},"
                        f"{'' if sn is None else f'{sn:.3f}'},{'' if rt is None else f'{rt:.3f}'}\n")


def write_svg(path, rows, title):
    """Horizontal bars on a log axis: speed-up over numpy per case and variant;
    a black tick marks the case's bandwidth bound (bytes moved at memcpy's rate)."""
    rows = [(n, c) for n, c in rows if c["t"].get("numpy")]
    left, width, top, bar, gap = 170, 620, 70, 6, 10
    lo, hi = 0.1, 1000.0
    group = bar * len(BARS) + gap
    height = top + group * len(rows) + 30

    def x(r):
        r = min(max(r, lo), hi)
        return left + width * (math.log10(r) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 30}" height="{height}" '
         f'font-family="sans-serif" font-size="11">',
         '<rect width="100%" height="100%" fill="white"/>',
         f'<text x="10" y="18" font-size="14" font-weight="bold">{title}</text>',
         '<text x="10" y="34">speed-up over numpy (numpy time / time; log scale); black tick: '
         'the bandwidth bound (bytes moved at the rate of memcpy)</text>']
    for i, (_, label, color) in enumerate(BARS):
        s.append(f'<rect x="{10 + i * 200}" y="44" width="10" height="10" fill="{color}"/>'
                 f'<text x="{24 + i * 200}" y="53">{label.split(" (")[0]}</text>')
    tick = lo
    while tick <= hi:
        s.append(f'<line x1="{x(tick):.1f}" y1="{top - 4}" x2="{x(tick):.1f}" y2="{height - 26}" '
                 f'stroke="{"#000" if tick == 1 else "#ddd"}"/>'
                 f'<text x="{x(tick):.1f}" y="{height - 12}" text-anchor="middle">{tick:g}x</text>')
        tick *= 10
    for g, (name, c) in enumerate(rows):
        y0 = top + g * group
        s.append(f'<text x="{left - 6}" y="{y0 + bar * len(BARS) / 2 + 4}" text-anchor="end">{name}</text>')
        for i, (v, label, color) in enumerate(BARS):
            ns = c["t"].get(v)
            if ns:
                r = c["t"]["numpy"] / ns
                s.append(f'<rect x="{left}" y="{y0 + i * bar}" width="{x(r) - left:.1f}" height="{bar - 1}" '
                         f'fill="{color}"><title>{name}, {label}: {r:.1f}x</title></rect>')
        if bound_ns(c):
            mx = x(c["t"]["numpy"] / bound_ns(c))
            s.append(f'<line x1="{mx:.1f}" y1="{y0 - 1}" x2="{mx:.1f}" y2="{y0 + bar * len(BARS)}" '
                     f'stroke="black" stroke-width="2"/>')
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


def update_readme(path, lines):
    with open(path) as f:
        text = f.read()
    b, e = text.find(README_BEGIN), text.find(README_END)
    if b < 0 or e < b:
        raise SystemExit(f"report.py: {path} lacks the lines {README_BEGIN} and {README_END}")
    block = "\n".join([README_BEGIN, "```"] + lines + ["```", ""])
    with open(path, "w") as f:
        f.write(text[:b] + block + text[e:])


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("records")
    ap.add_argument("numpy_records", nargs="?")
    ap.add_argument("--csv")
    ap.add_argument("--svg")
    ap.add_argument("--readme", help="replace the table between the bench markers of this file")
    args = ap.parse_args()
    rows, extra = read_records([args.records, args.numpy_records])
    machine = f"{platform.machine()}, {os.cpu_count()} cores"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
        machine = f"{model}, {os.cpu_count()} cores"
    except (OSError, StopIteration):
        pass
    numpy = f"numpy {extra['numpy'][0]}" if "numpy" in extra else "numpy not run"
    lines = [f"wherec benchmark on {machine}; {numpy}; medians per call"] + table_lines(rows)
    lines += ["", "GB/s: bytes moved (inputs read + output written) / gen time.  bound: those bytes at the",
              "rate of memcpy on the output's size.  vs numpy: numpy / gen.  gen 2thr: P_K_range on 2",
              "threads (threads.c)."]
    split = [(n, dict(rows)[n]["t"]) for n in THREAD_CASES if dict(rows).get(n, {}).get("t", {}).get("gen_2thr")]
    if split:
        lines.append("P_K_range on 2 threads, speed-up over 1: " +
                     ", ".join(f"{n} {t['gen'] / t['gen_2thr']:.2f}x" for n, t in split))
    lines += ["", "issue 5 targets:"] + check_targets(rows, extra)
    print("\n".join(lines))
    if args.readme:
        update_readme(args.readme, lines)
    if args.csv:
        write_csv(args.csv, rows)
    if args.svg:
        write_svg(args.svg, rows, f"wherec vs numpy ({machine})")
    written = [p for p in (args.csv, args.svg, args.readme) if p]
    if written:
        print(f"\nwrote {', '.join(written)}")


if __name__ == "__main__":
    main()
