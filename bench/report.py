#!/usr/bin/env python3
# report.py: merges the records of wherec_bench, numpy_bench.py and peers.py into
# the terminal table, the target checks, results.csv, results.svg and README.md's table.
"""usage: report.py C_RECORDS [NUMPY_RECORDS] [PEER_RECORDS] [--csv FILE] [--svg FILE] [--readme FILE]"""
import argparse
import os
import platform

from chart import write_svg
from matrix import lines as matrix_lines, target_lines as matrix_targets
from peers_report import bit_exact, peer_lines
from records import bound_ns, fmt_ratio, fmt_time, ratio, read_records
from targets import check_targets

# Columns of the table: (variant, heading); times are medians per call.
COLUMNS = [("gen", "gen"), ("wc_run", "wc_run"), ("runtime", "runtime"), ("interp", "interp"),
           ("tuned", "tuned"), ("gen_2thr", "gen 2thr"), ("memcpy", "memcpy"), ("numpy", "numpy")]
# Variants whose output bench.c checks against the tuned loop's (the tuned loop's
# against the reference in the bench_quick test): bit-exact in results.csv.
CHECKED = {"gen", "wc_run", "runtime", "interp", "gen_2thr", "tuned"}
# Cases whose 2-thread speed-up the report states (threads.c).
THREAD_CASES = ["f32 16M p.5", "f32 1M p.5 (in L3)", "leaky relu 16M"]
# The README's table sits between these lines (report.py --readme rewrites it).
README_BEGIN, README_END = "<!-- bench:begin -->", "<!-- bench:end -->"


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


def write_csv(path, recs):
    """One row per case and variant, peers included; gen_speedup: the variant's time /
    the generated kernel's."""
    with open(path, "w") as f:
        f.write("case,kind,dtype,p,elements,bytes_moved,pages,build,variant,median_ns,gb_per_s,"
                "speedup_vs_numpy,ratio_vs_tuned,gen_speedup,bit_exact\n")
        opt = lambda r: "" if r is None else f"{r:.3f}"
        for name, c in recs.rows:
            t = c["t"]
            # wherec_bench's columns under every build and pages; then numpy's and the peers'
            timed = [(pg, b, v, ns) for (pg, v, b), ns in c.get("m", {}).items()]
            timed += [("huge", "-", v, ns) for v, ns in t.items() if v not in c.get("build_of", {})]
            for pages, build, v, ns in timed:
                if v == "floor":
                    continue
                gbs = c["bytes"] / ns if ns else 0
                exact = "yes" if v in CHECKED else bit_exact(recs, name, v)
                f.write(f"{name},{c['kind']},{c['dtype']},{c['p']:g},{c['elements']},"
                        f"{c['bytes']:.0f},{pages},{build},{v},{ns:.3f},{gbs:.3f},"
                        f"{opt(ratio(t.get('numpy'), ns))},{opt(ratio(ns, t.get('tuned')))},"
                        f"{opt(ratio(ns, t.get('gen')))},{exact}\n")


def machine_name():
    try:
        with open("/proc/cpuinfo") as f:
            model = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
        return f"{model}, {os.cpu_count()} cores"
    except (OSError, StopIteration):
        return f"{platform.machine()}, {os.cpu_count()} cores"


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
    ap.add_argument("more_records", nargs="*", help="numpy_bench.py's, peers.py's")
    ap.add_argument("--csv")
    ap.add_argument("--svg")
    ap.add_argument("--readme", help="replace the table between the bench markers of this file")
    args = ap.parse_args()
    recs = read_records([args.records] + args.more_records)
    rows, extra, machine = recs.rows, recs.extra, machine_name()
    numpy = f"numpy {extra['numpy'][0]}" if "numpy" in extra else "numpy not run"
    lines = [f"wherec benchmark on {machine}; {numpy}; medians per call"] + table_lines(rows)
    lines += ["", "Buffers on huge pages.  gen: the worst of the builds below; tuned: the best of them.",
              "GB/s: bytes moved (inputs read + output written) / gen time.  bound: those bytes at the",
              "rate of memcpy on the output's size.  vs numpy: numpy / gen.  gen 2thr: wc_run with a",
              "2-thread pool installed by wc_set_parallel (threads.c)."]
    matrix = matrix_lines(recs)
    if matrix:
        lines += [""] + matrix
    by = dict(rows)
    split = [(n, by[n]["t"]) for n in THREAD_CASES if by.get(n, {}).get("t", {}).get("gen_2thr")]
    if split:
        lines.append("wc_run on 2 threads through wc_set_parallel, speed-up over wc_run on 1: " +
                     ", ".join(f"{n} {t['wc_run'] / t['gen_2thr']:.2f}x" for n, t in split))
        # the limit: what two threads gain on a plain copy of the same bytes
        copies = [(n, t) for n, t in split if t.get("memcpy_2thr")]
        if copies:
            lines.append("memcpy of the output on 2 threads, speed-up over 1 (the memory's limit): " +
                         ", ".join(f"{n} {t['memcpy'] / t['memcpy_2thr']:.2f}x" for n, t in copies))
    lines += ["", "targets against numpy (gen built gcc -O3 -march=native, as they were set):"]
    lines += check_targets(rows, extra)
    lines += [""] + peer_lines(recs)
    targets = matrix_targets(recs)
    if targets:
        lines += targets if recs.peers else ["", "targets of the build matrix:"] + targets
    print("\n".join(lines))
    if args.readme:
        update_readme(args.readme, lines)
    if args.csv:
        write_csv(args.csv, recs)
    if args.svg:
        write_svg(args.svg, recs, f"wherec vs numpy and peers ({machine})")
    written = [p for p in (args.csv, args.svg, args.readme) if p]
    if written:
        print(f"\nwrote {', '.join(written)}")


if __name__ == "__main__":
    main()
