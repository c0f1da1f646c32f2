# peers_report.py: the peers' part of the report (peers.py's records): their times
# beside wherec's generated kernel and numpy, what they skip, where their output
# differs from wherec's, and the target check that wherec stays ahead of each.
from records import fmt_ratio, fmt_time, ratio

# How a class of mismatch (peers.py) reads in the summary.
CLASS_TEXT = {"-0.0 lost": "a selected -0.0 comes out +0.0",
              "subnormal flushed": "subnormals flushed to zero"}


def best_peer(recs, c):
    """(ns, heading) of the fastest peer on case c, or None."""
    times = [(c["t"][v], h) for v, h, _ in recs.peers if v in c["t"]]
    return min(times) if times else None


def bit_exact(recs, case, variant):
    """"yes", or what differs: "no: -0.0 lost 6/65536"; "" when the peer did not run."""
    if (case, variant) in recs.skips or not any(v == variant for v, _, _ in recs.peers):
        return ""
    bad = recs.mismatches.get((case, variant))
    return "no: " + "; ".join(f"{k} {n}/{of}" for k, n, of in bad) if bad else "yes"


def table(recs):
    peers = recs.peers
    head = ["case", "gen", "numpy"] + [h for _, h, _ in peers] + ["best peer", "vs best"]
    widths = [20, 9, 9] + [max(10, len(h)) for _, h, _ in peers] + [10, 8]
    join = lambda cells: "  ".join(s.rjust(w) if i else s.ljust(w)
                                   for i, (s, w) in enumerate(zip(cells, widths))).rstrip()
    lines = [join(head)]
    for name, c in recs.rows:
        t = c["t"]
        cells = [name, fmt_time(t.get("gen")), fmt_time(t.get("numpy"))]
        for v, _, _ in peers:
            mark = "*" if recs.mismatches.get((name, v)) else ""
            cells.append(fmt_time(t.get(v)) + mark)
        best = best_peer(recs, c)
        cells += [best[1] if best else "-", fmt_ratio(ratio(best[0], t.get("gen")) if best else None, 1)]
        lines.append(join(cells))
    return lines


def listed(cases, most=4):
    return ", ".join(cases[:most]) + (f" and {len(cases) - most} more" if len(cases) > most else "")


def skipped(recs):
    """One line per reason: the cases, the peers."""
    by = {}
    for (case, v), why in recs.skips.items():
        cases, heads = by.setdefault(why, ([], []))
        if case not in cases:
            cases.append(case)
        h = next(h for pv, h, _ in recs.peers if pv == v)
        if h not in heads:
            heads.append(h)
    return [f"  {', '.join(heads)}: {why}: {listed(cases)}" for why, (cases, heads) in by.items()]


def differences(recs):
    """Per peer, bit-exact or what differs in which cases; peers that differ alike share a line."""
    by = {}
    for v, h, _ in recs.peers:
        parts = []
        for cls in dict.fromkeys(k for (_, pv), ms in recs.mismatches.items() if pv == v for k, _, _ in ms):
            hits = sorted(((n / of, case, n, of) for (case, pv), ms in recs.mismatches.items() if pv == v
                           for k, n, of in ms if k == cls), reverse=True)   # the most first
            cases = [f"{case} {n} of {of}" for _, case, n, of in hits]
            parts.append(f"{CLASS_TEXT.get(cls, cls)} in {len(hits)} case{'s' * (len(hits) > 1)}"
                         f" ({listed(cases, 3)})")
        by.setdefault("; ".join(parts) or "bit-exact on every case it runs", []).append(h)
    return [f"  {', '.join(hs)}: {what}" for what, hs in by.items()]


def target(recs):
    """wherec's generated kernel (one thread) ahead of each peer on every case."""
    leads = [(ratio(t[v], t["gen"]), name, h) for name, c in recs.rows for t in [c["t"]]
             if t.get("gen") for v, h, _ in recs.peers if v in t]
    if not leads:
        return "  [-     ] generated kernel ahead of every peer on every case: n/a"
    lo = min(leads)
    behind = [f"{n} ({h} {r:.2f}x)" for r, n, h in leads if r < 1]
    state = "MISSED" if behind else "met"
    return (f"  [{state:6}] generated kernel ahead of every peer on every case: closest {lo[0]:.1f}x "
            f"({lo[1]}, {lo[2]})" + (f"; behind: {', '.join(behind)}" if behind else ""))


def peer_lines(recs):
    lines = []
    if recs.peers:
        versions = dict.fromkeys(ver for _, _, ver in recs.peers)
        lines += [f"peers ({', '.join(versions)}): medians per call, each output checked byte for",
                  "byte against numpy's, which is wherec's; * marks an output that differs (below)"]
        lines += table(recs)
        lines += ["", "numexpr Nt: numexpr.set_num_threads(N).  ort Nt: onnxruntime, intra_op_num_threads=N,",
                  "sequential.  jax.jit: XLA's own threads.  vs best: the fastest peer's time / gen."]
    if recs.missing:
        missing = dict.fromkeys(why for _, _, why in recs.missing)
        lines.append(f"peers missing: {'; '.join(missing)} (bench/peers-venv.sh installs them)")
    if not recs.peers:
        return lines or ["peers: not run (peers.py)"]
    skips = skipped(recs)
    if skips:
        lines += ["not run:"] + skips
    lines += ["bit-exact:"] + differences(recs)
    lines += ["", "targets against the peers and the build matrix:", target(recs)]
    return lines
