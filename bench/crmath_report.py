"""bench/crmath_report.py: the table, the targets and the plot of a bench/crmath.sh run.

Reads the run's lines (KERNEL<TAB>COLUMN<TAB>ns: a build of the generated kernels, or numpy or
onnxruntime) from standard input, or from --csv with --replot; writes bench/crmath.csv, prints
a Markdown table (ns per element) and each target of the correctly rounded functions, met or
missed, and draws bench/crmath.png when this python has matplotlib (else says so).
usage: ... | python3 bench/crmath_report.py [--csv F] [--png F] [--replot]
"""
import argparse
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# the builds crmath.sh compiles, by their compiler flags -> a column
BUILDS = [("gcc -O2", "gcc -O2"), ("gcc -O3 -march=native", "gcc O3n"), ("clang -O2", "clang -O2"),
          ("clang -O3 -march=native", "clang O3n"), ("gcc -O3 -mavx2 -mfma", "gcc AVX2"),
          ("clang -O3 -mavx2 -mfma", "clang AVX2")]
FUNCTIONS = ["exp", "log", "tanh", "sigmoid", "erf", "sinh", "cosh", "sin", "cos", "tan", "asin",
             "acos", "atan", "asinh", "acosh", "atanh"]
# the activations rounded once, then the forms they replaced and the memory-bound floor
KERNELS = FUNCTIONS + ["elu_cr", "selu_cr", "silu_cr", "softplus", "softsign", "mish", "gelu_cr",
                       "gelu_tanh", "expm1", "elu", "selu", "silu", "gelu", "gelu_tanh_lit", "relu"]
LABELS = {"elu_cr": "Elu: where(x < 0, expm1(x), x)", "selu_cr": "Selu: selu(x)",
          "silu_cr": "SiLU: silu(x)",
          "softplus": "Softplus: softplus(x)", "softsign": "Softsign: softsign(x)",
          "mish": "Mish: mish(x)", "gelu_cr": "Gelu: gelu(x)",
          "gelu_tanh": "Gelu (tanh): gelu_tanh(x)",
          "elu": "Elu as where(x < 0, exp(x) - 1, x)",
          "selu": "Selu as where(x > 0, gamma * x, (expm1(x) * alpha) * gamma)",
          "silu": "SiLU as x * sigmoid(x)",
          "gelu": "Gelu as x * (erf(x * 0.70710678) + 1) * 0.5",
          "gelu_tanh_lit": "Gelu (tanh) as (0.5 * x) * (1 + tanh(0.7978845 * (x + 0.044715 * x^3)))",
          "relu": "Relu (memory-bound)"}
# the kernels set against onnxruntime's same ONNX nodes, within 2x
ACTIVATIONS = ["elu_cr", "silu_cr", "softplus", "mish", "gelu_cr", "gelu_tanh"]
# at most this many ns per element under -O3 -mavx2 -mfma
AVX2_TARGETS = {"exp": 1.0, "sigmoid": 1.0, "log": 2.0, "tanh": 2.0, "erf": 2.0, "sin": 2.5,
                "cos": 2.5, "asin": 2.5, "acos": 2.5}


def column_of(name):
    return dict(BUILDS).get(name, name)


def read_lines(lines):
    runs = {}
    for line in lines:
        parts = line.rstrip("\n").split("\t")
        if len(parts) == 3:
            runs.setdefault(parts[0], {})[column_of(parts[1])] = float(parts[2])
    return runs


def peers_of(runs):
    cols = {c for r in runs.values() for c in r}
    return sorted(c for c in cols if c.startswith("numpy")) + \
        sorted(c for c in cols if c.startswith("onnxruntime"))


def faster_peer(row, peers):
    ts = [(row[p], p.split()[0]) for p in peers if p in row]
    return min(ts) if ts else None


def table(runs):
    peers = peers_of(runs)
    cols = [c for _, c in BUILDS] + peers
    out = ["| kernel | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
    for k in KERNELS:
        if k in runs:
            cells = ["%.2f" % runs[k][c] if c in runs[k] else "" for c in cols]
            out.append("| %s | %s |" % (LABELS.get(k, k), " | ".join(cells)))
    return "\n".join(out)


def targets(runs):
    peers = peers_of(runs)
    out = []
    for k in FUNCTIONS + ACTIVATIONS:
        row = runs.get(k, {})
        ref = faster_peer(row, [p for p in peers if k not in ACTIVATIONS or p.startswith("onnxruntime")])
        if ref is None or "gcc O3n" not in row or "clang O3n" not in row:
            continue
        worst = max(row["gcc O3n"], row["clang O3n"]) / ref[0]
        out.append("- %s: gcc O3n %.2f, clang O3n %.2f ns against %s's %.2f: %.1fx and %.1fx (within 2x: %s)"
                   % (LABELS.get(k, k), row["gcc O3n"], row["clang O3n"], ref[1], ref[0],
                      row["gcc O3n"] / ref[0], row["clang O3n"] / ref[0], "met" if worst <= 2 else "missed"))
    for k, limit in AVX2_TARGETS.items():
        row = runs.get(k, {})
        if "gcc AVX2" in row and "clang AVX2" in row:
            worst = max(row["gcc AVX2"], row["clang AVX2"])
            out.append("- %s under -O3 -mavx2 -mfma: gcc %.2f, clang %.2f ns (at most %.1f: %s)"
                       % (k, row["gcc AVX2"], row["clang AVX2"], limit, "met" if worst <= limit else "missed"))
    return "\n".join(out)


def write_csv(runs, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kernel", "column", "ns_per_element"])
        for k in KERNELS + sorted(set(runs) - set(KERNELS)):
            for c, ns in runs.get(k, {}).items():
                w.writerow([k, c, "%.3f" % ns])


def read_csv(path):
    runs = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            runs.setdefault(r["kernel"], {})[r["column"]] = float(r["ns_per_element"])
    return runs


def plot(runs, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        return "no plot: matplotlib is not installed in %s (%s)" % (sys.executable, e)
    peers = peers_of(runs)
    bars = [("gcc O3n", "wherec, gcc -O3 -march=native", "#1f6fb4"),
            ("clang O3n", "wherec, clang -O3 -march=native", "#6baed6"),
            ("clang AVX2", "wherec, clang -O3 -mavx2 -mfma", "#c6dbef")] + \
        [(p, p, col) for p, col in zip(peers, ["#e6550d", "#31a354"])]
    kernels = [k for k in FUNCTIONS + ACTIVATIONS if k in runs]
    fig, ax = plt.subplots(figsize=(9, 0.42 * len(kernels) + 1.2))
    h = 0.8 / len(bars)
    for i, (col, lab, colour) in enumerate(bars):
        ys = [g + (i - (len(bars) - 1) / 2) * h for g in range(len(kernels))]
        ax.barh(ys, [runs[k].get(col, 0) for k in kernels], h, label=lab, color=colour)
    ax.set_xscale("log")
    ax.set_yticks(range(len(kernels)))
    ax.set_yticklabels([LABELS.get(k, k).split(":")[0] for k in kernels])
    ax.invert_yaxis()
    ax.set_xlabel("ns per element (16M floats, one thread; log scale, shorter is faster)")
    ax.set_title("Correctly rounded (wherec) against approximations (numpy, onnxruntime)")
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(axis="x", which="both", linewidth=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    return "wrote %s" % os.path.relpath(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--csv", default=os.path.join(HERE, "crmath.csv"))
    ap.add_argument("--png", default=os.path.join(HERE, "crmath.png"))
    ap.add_argument("--replot", action="store_true", help="read --csv instead of standard input")
    a = ap.parse_args()
    if a.replot and not os.path.exists(a.csv):
        ap.error("--replot: no %s (bench/crmath.sh writes it)" % a.csv)
    runs = read_csv(a.csv) if a.replot else read_lines(sys.stdin)
    if not runs:
        ap.error("no measurements read (lines KERNEL<TAB>COLUMN<TAB>ns, as bench/crmath.sh prints)")
    if not a.replot:
        write_csv(runs, a.csv)
    print(table(runs))
    print()
    print(targets(runs))
    print("crmath_report: " + plot(runs, a.png))


if __name__ == "__main__":
    main()
