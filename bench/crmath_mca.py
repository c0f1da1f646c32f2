"""bench/crmath_mca.py: what a block of each correctly rounded function costs, from the
compiler's output: instructions, micro-ops and llvm-mca's cycles per element.

For each function of bench/crmath.where, a block of 64 floats as generated kernels run it
(the raw form over the block where the function has one, else the exact form; the exact
form is shown too) is compiled alone with --cc (clang or gcc) at -O3 -march=native and at
-O3 -mavx2 -mfma; llvm-mca (its model of --mcpu, Sapphire Rapids by default: llvm 14 models no
AVX-512 AMD CPU) reads the instructions and reports the throughput the ports allow. The
measured times (bench/crmath.sh) are set beside it by the reader: the cycles here are a
floor for the compute, before memory and the frequency.
usage: python3 bench/crmath_mca.py [--mcpu CPU] [--cc clang|gcc] [FUNCTION...]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BLOCK = 64
FUNCTIONS = ["exp", "log", "tanh", "sigmoid", "erf", "sinh", "cosh", "sin", "cos", "tan", "asin",
             "acos", "atan", "asinh", "acosh", "atanh", "expm1", "selu", "softplus", "softsign", "silu",
             "mish", "gelu", "gelu_tanh"]
BUILDS = {"O3n": ["-O3", "-march=native"], "AVX2": ["-O3", "-mavx2", "-mfma"]}


def defines(header_text, fn):
    return re.search(r"\b%s\s*\(" % fn, header_text) is not None


def source(functions, raw):
    lines = ["#include <wherec/kernel.h>"]
    for f in functions:
        lines.append("void blk_%s_exact(const float *restrict x, float *restrict y) {" % f)
        lines.append("  for (int i = 0; i < %d; i++) y[i] = wc_%s_f32(x[i]);\n}" % (BLOCK, f))
        if f in raw:
            # as a generated kernel's first pass: the raw forms and the block's NaN test
            lines.append("int blk_%s_raw(const float *restrict x, float *restrict y) {" % f)
            lines.append("  int any = 0;\n  for (int i = 0; i < %d; i++) {" % BLOCK)
            lines.append("    y[i] = wc_%s_raw_f32(x[i]);\n    any |= y[i] != y[i];\n  }" % f)
            lines.append("  return any;\n}")
    return "\n".join(lines) + "\n"


def functions_asm(asm):
    """function name -> its lines (AT&T syntax), comments and directives left out."""
    out, name = {}, None
    for line in asm.splitlines():
        m = re.match(r"^(blk_\w+):", line)
        if m:
            name = m.group(1)
            out[name] = []
        elif name is not None:
            s = line.split("#")[0].strip()
            if s and not (s.startswith(".") and not s.endswith(":")):
                out[name].append(s)
            if s.startswith("ret") or s.startswith(".cfi_endproc"):
                name = None
    return out


STORE_BYTES = {"vmovss": 4, "movss": 4, "vextractps": 4, "vpextrd": 4, "vmovlps": 8, "vmovhps": 8,
               "vmovq": 8, "vmovsd": 8, "movq": 8, "movsd": 8}
REG_BYTES = {"zmm": 64, "ymm": 32, "xmm": 16}


def stored_bytes(ins):
    """Bytes an instruction stores to memory other than the stack (0 if none)."""
    op, args = (ins.split(None, 1) + [""])[:2]
    dest = re.search(r",\s*([-\w.+]*\([^()]*\))$", args)  # AT&T: the destination is last
    if not dest or "%rsp" in dest.group(1) or "%rbp" in dest.group(1) or \
            not op.startswith(("vmov", "mov", "vextract", "vpextr")):
        return 0
    if op in STORE_BYTES:
        return STORE_BYTES[op]
    for reg, n in REG_BYTES.items():
        if "%" + reg in args:
            return n if not op.startswith("vextract") else n // 2
    return 0


def vector_loop(lines):
    """The main loop: the longest run from a label to a jump back to it; its instructions
    and the floats it stores per iteration. Straight-line code (no loop): all of it."""
    best = None
    for i, s in enumerate(lines):
        if not s.endswith(":"):
            continue
        label = s[:-1]
        for k in range(i + 1, len(lines)):
            if lines[k].startswith("j") and lines[k].split()[-1] == label:
                body = [t for t in lines[i + 1:k + 1] if not t.endswith(":")]
                if best is None or len(body) > len(best):
                    best = body
    body = best or [t for t in lines if not t.endswith(":")]
    floats = sum(stored_bytes(t) for t in body) / 4
    return body, floats


def mca(lines, mcpu):
    r = subprocess.run(["llvm-mca", "-mcpu=" + mcpu, "-iterations=100"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None
    get = lambda key: float(re.search(key + r":\s+([\d.]+)", r.stdout).group(1))
    return {"instructions": get("Instructions") / 100, "uops": get("Total uOps") / 100,
            "cycles": get("Block RThroughput")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mcpu", default="sapphirerapids")
    ap.add_argument("--cc", default="clang")
    ap.add_argument("functions", nargs="*")
    a = ap.parse_args()
    headers = "".join(open(os.path.join(ROOT, "include/wherec", h)).read()
                      for h in sorted(os.listdir(os.path.join(ROOT, "include/wherec"))) if h.endswith(".h"))
    unknown = [f for f in a.functions if not defines(headers, "wc_%s_f32" % f)]
    if unknown:
        ap.error("no such correctly rounded function in include/wherec: " + ", ".join(unknown))
    if shutil.which("llvm-mca") is None:
        ap.error("llvm-mca is not on PATH (Debian: the llvm package)")
    funcs = [f for f in (a.functions or FUNCTIONS) if defines(headers, "wc_%s_f32" % f)]
    raw = {f for f in funcs if defines(headers, "wc_%s_raw_f32" % f)}
    print("| function | build | form | instructions / element | uops / element | llvm-mca cycles / element (%s) |"
          % a.mcpu)
    print("|---|---|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "blk.c")
        with open(src, "w") as fh:
            fh.write(source(funcs, raw))
        for build, flags in BUILDS.items():
            asm = subprocess.run([a.cc, "-std=c99", "-S", "-o", "-", "-I" + os.path.join(ROOT, "include")]
                                 + flags + [src], capture_output=True, text=True, check=True).stdout
            fns = functions_asm(asm)
            for f in funcs:
                for form in (["raw"] if f in raw else []) + ["exact"]:
                    body, floats = vector_loop(fns.get("blk_%s_%s" % (f, form), []))
                    res = mca(body, a.mcpu) if body and floats else None
                    if res is None:
                        print("| %s | %s %s | %s | (no loop storing floats found, or llvm-mca failed) | | |"
                              % (f, a.cc, build, form))
                        continue
                    print("| %s | %s %s | %s | %.1f | %.1f | %.2f |"
                          % (f, a.cc, build, form, res["instructions"] / floats, res["uops"] / floats,
                             res["cycles"] / floats), flush=True)


if __name__ == "__main__":
    sys.exit(main())
