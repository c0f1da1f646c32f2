# chart.py: results.svg, speed-up over numpy per case, drawn by hand.
import math

from peers_report import best_peer
from records import bound_ns

# Bars of the chart: speed-up over numpy of these variants.
BARS = [("gen", "generated kernel (direct call)", "#1f6fb4"),
        ("runtime", "runtime (wc_where / wc_argwhere / wc_nonzero)", "#f08a24"),
        ("interp", "interpreter fallback (wc_interpret)", "#3a9d3a"),
        ("tuned", "hand-tuned C loop", "#8c8c8c")]
# and, when peers.py ran, the fastest peer of each case
PEER_BAR = ("best peer", "fastest peer (numexpr, onnxruntime, jax.jit)", "#9b59b6")


def write_svg(path, recs, title):
    """Horizontal bars on a log axis: speed-up over numpy per case and variant;
    a black tick marks the case's bandwidth bound (bytes moved at memcpy's rate)."""
    rows = [(n, c) for n, c in recs.rows if c["t"].get("numpy")]
    bars = BARS + [PEER_BAR] if recs.peers else BARS
    time = lambda c, v: (best_peer(recs, c) or (None,))[0] if v == PEER_BAR[0] else c["t"].get(v)
    left, width, top, bar, gap = 170, 620, 70, 6, 10
    lo, hi = 0.1, 1000.0
    group = bar * len(bars) + gap
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
    for i, (_, label, color) in enumerate(bars):
        s.append(f'<rect x="{10 + i * 160}" y="44" width="10" height="10" fill="{color}"/>'
                 f'<text x="{24 + i * 160}" y="53">{label.split(" (")[0]}</text>')
    tick = lo
    while tick <= hi:
        s.append(f'<line x1="{x(tick):.1f}" y1="{top - 4}" x2="{x(tick):.1f}" y2="{height - 26}" '
                 f'stroke="{"#000" if tick == 1 else "#ddd"}"/>'
                 f'<text x="{x(tick):.1f}" y="{height - 12}" text-anchor="middle">{tick:g}x</text>')
        tick *= 10
    for g, (name, c) in enumerate(rows):
        y0 = top + g * group
        s.append(f'<text x="{left - 6}" y="{y0 + bar * len(bars) / 2 + 4}" text-anchor="end">{name}</text>')
        for i, (v, label, color) in enumerate(bars):
            ns = time(c, v)
            if ns:
                r = c["t"]["numpy"] / ns
                s.append(f'<rect x="{left}" y="{y0 + i * bar}" width="{x(r) - left:.1f}" height="{bar - 1}" '
                         f'fill="{color}"><title>{name}, {label}: {r:.1f}x</title></rect>')
        if bound_ns(c):
            mx = x(c["t"]["numpy"] / bound_ns(c))
            s.append(f'<line x1="{mx:.1f}" y1="{y0 - 1}" x2="{mx:.1f}" y2="{y0 + bar * len(bars)}" '
                     f'stroke="black" stroke-width="2"/>')
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")

