#!/usr/bin/env python3
"""bench/models.py: how much of real exported models `wherec import` takes.

Downloads (pip download --no-deps, into build/models; no model is committed) the
rapidocr-onnxruntime wheel (PP-OCRv4 detector and recognizer, the PP-OCR direction
classifier, and the classifier dynamically quantized by onnxruntime's quantize_dynamic when
this python has onnxruntime), the silero-vad wheel (its six graphs, four with a dynamic audio
length) and the onnx wheel (backend/test/data/light: the nine model-zoo graphs;
backend/test/data/pytorch-operator and pytorch-converted), extracts the models (with
bench/export_models.py --dynamic's torch exports when they are in --dir, static and with
dynamic axes, the dynamic transformer also dynamically quantized), runs
`wherec import` on each and prints per model: element-wise nodes, nodes in kernels,
kernels, and the reasons the element-wise nodes left out were left out (counted).

With --verify, also `wherec import --verify` on each development model (onnxruntime from
this python): per model its kernels bit-exact against onnxruntime on the model's own
tensors, those that differ only where onnxruntime approximates, wrong, skipped.

usage: build/ort-venv/bin/python bench/models.py [--wherec build-imp/gen/wherec]
                                                 [--dir build/models] [--reasons N] [--pytorch]
                                                 [--verify]
Exits 77 (skipped) when the packages cannot be downloaded. Needs only the python
standard library; pip from any python.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import zipfile

# ONNX operators that are element-wise (one output element from the inputs' elements at
# the same broadcast index), whether or not wherec has them yet: the denominator.
ELEMENTWISE = set("""
Abs Acos Acosh Add And Asin Asinh Atan Atanh BatchNormalization BitShift BitwiseAnd BitwiseNot
BitwiseOr BitwiseXor Cast CastLike Ceil Celu Clip Cos Cosh Div Dropout Elu Equal Erf Exp Floor
Gelu Greater GreaterOrEqual HardSigmoid HardSwish Identity IsInf IsNaN LeakyRelu Less
LessOrEqual Log Max Mean Min Mish Mod Mul Neg Not Or PRelu Pow Reciprocal Relu Round Selu
Shrink Sigmoid Sign Sin Sinh Softplus Softsign Sqrt Sub Sum Tan Tanh ThresholdedRelu Where Xor
""".split())

PACKAGES = {
    "rapidocr": ("rapidocr-onnxruntime==1.4.4", "rapidocr_onnxruntime-"),
    "onnx": ("onnx==1.23.2", "onnx-"),
    "silero": ("silero-vad==6.2.3", "silero_vad-"),
}
MODELS = [
    ("PP-OCRv4 det", "rapidocr", "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx"),
    ("PP-OCRv4 rec", "rapidocr", "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"),
    ("PP-OCR cls", "rapidocr", "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx"),
] + [(n, "onnx", "onnx/backend/test/data/light/light_%s.onnx" % n) for n in (
    "resnet50", "densenet121", "inception_v1", "inception_v2", "shufflenet", "squeezenet",
    "vgg19", "zfnet512", "bvlc_alexnet")] + [
    ("Silero %s" % n, "silero", "silero_vad/data/%s.onnx" % n) for n in (
        "silero_vad", "silero_vad_16k_op15", "silero_vad_16k_sequence", "silero_vad_half",
        "silero_vad_op18_ifless", "silero_vad_openvino_16k")] + [
    ("Silero %s, dims" % n, "silero", "silero_vad/data/%s.onnx" % n) for n in (
        "silero_vad_16k_op15", "silero_vad_half")]
# Import options of a row: the dims fixed (wherec import --dim), here those of a 512-sample
# chunk of one stream, which decide the If on the frame count that the dynamic rows leave.
ARGS = {"Silero %s, dims" % n: ["--dim", "batch=1", "--dim", "sequence=512"]
        for n in ("silero_vad_16k_op15", "silero_vad_half")}

# bench/export_models.py --dynamic's torch exports (made in a torch venv, never committed):
# rows when they are in --dir, the dynamic transformer also dynamically quantized
EXPORTED = [("YOLO SiLU", "yolo_silu.onnx"), ("transformer", "transformer_encoder.onnx"),
            ("YOLO SiLU, dynamic axes", "dynamic/yolo_silu.onnx"),
            ("transformer, dynamic axes", "dynamic/transformer_encoder.onnx"),
            ("audio tagger, dynamic axes", "dynamic/audio_tagger.onnx")]

LABEL = re.compile(r"([A-Za-z0-9_]+) (?:'[^']*'|\(output '[^']*'\))")


def fetch(dest):
    wheels = {}
    os.makedirs(dest, exist_ok=True)
    for key, (req, prefix) in PACKAGES.items():
        have = [f for f in os.listdir(dest) if f.startswith(prefix) and f.endswith(".whl")]
        if not have:
            r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                                "--disable-pip-version-check", "--only-binary=:all:", req,
                                "-d", dest], capture_output=True, text=True)
            have = [f for f in os.listdir(dest) if f.startswith(prefix) and f.endswith(".whl")]
            if r.returncode != 0 or not have:
                print("models.py: skipped: cannot download %s: %s" % (req, r.stderr.strip()[-300:]))
                sys.exit(77)
        wheels[key] = os.path.join(dest, sorted(have)[-1])
    return wheels


def extract(wheel, member, dest):
    out = os.path.join(dest, member)
    if not os.path.exists(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with zipfile.ZipFile(wheel) as z, open(out + ".part", "wb") as f:
            f.write(z.read(member))
        os.replace(out + ".part", out)
    return out


# ---- counting the element-wise nodes of a model: a minimal protobuf walk (no onnx
# package needed): ModelProto.graph (7) -> GraphProto.node (1) -> NodeProto.op_type (4),
# attributes (5) -> AttributeProto.g (6) / graphs (11), sub-graphs counted too.

def _varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def _fields(b):
    i = 0
    while i < len(b):
        key, i = _varint(b, i)
        f, w = key >> 3, key & 7
        if w == 0:
            v, i = _varint(b, i)
            yield f, w, v
        elif w == 1:
            yield f, w, b[i:i + 8]
            i += 8
        elif w == 5:
            yield f, w, b[i:i + 4]
            i += 4
        elif w == 2:
            n, i = _varint(b, i)
            yield f, w, b[i:i + n]
            i += n
        else:
            raise ValueError("wire type %d" % w)


def _graph_ops(g, ops):
    for f, w, v in _fields(g):
        if f == 1 and w == 2:  # node
            for nf, nw, nv in _fields(v):
                if nf == 4 and nw == 2:
                    ops.append(bytes(nv).decode())
                elif nf == 5 and nw == 2:
                    for af, aw, av in _fields(nv):
                        if af in (6, 11) and aw == 2:
                            _graph_ops(av, ops)


def model_ops(path):
    with open(path, "rb") as f:
        b = memoryview(f.read())
    ops = []
    for f, w, v in _fields(b):
        if f == 7 and w == 2:
            _graph_ops(v, ops)
    return ops


def run(wherec, path, spec, args=()):
    r = subprocess.run([wherec, "import", path, "-o", spec] + list(args), capture_output=True,
                       text=True)
    in_kernels = collections.Counter()
    kernels = 0
    reasons = collections.Counter()
    folded = 0
    for line in r.stderr.splitlines():
        if line.startswith("wherec: folded: "):
            m = LABEL.match(line[len("wherec: folded: "):])
            folded += bool(m and m.group(1) in ELEMENTWISE)
        if line.startswith("wherec: kernel "):
            kernels += 1
            for op in LABEL.findall(line.split(": ", 2)[2]):
                in_kernels[op] += 1
        elif line.startswith("wherec: not taken: "):
            rest = line[len("wherec: not taken: "):]
            m = LABEL.match(rest)
            if not m or m.group(1) not in ELEMENTWISE:
                continue
            why = rest[m.end() + 2:]
            why = re.sub(r"'[^']*'", "'…'", why)  # one reason, whatever the tensor
            why = re.sub(r"\b\d+\b", "N", why) if "opset" not in why else why
            reasons[why] += 1
    return r.returncode, kernels, in_kernels, folded, reasons, r.stderr


SUMMARY = re.compile(r"^(\d+) kernels: (\d+) bit-exact, (\d+) differ where onnxruntime "
                     r"approximates, (\d+) wrong, (\d+) skipped$", re.M)


def verify_model(wherec, path, spec):
    """`wherec import --verify` of one model: (kernels, bit-exact, approximated, wrong,
    skipped, exit status), or None and why when it did not get as far as the table."""
    env = dict(os.environ, WHEREC_ORT_PYTHON=sys.executable)
    r = subprocess.run([wherec, "import", path, "-o", spec, "--verify"], capture_output=True,
                       text=True, env=env)
    m = SUMMARY.search(r.stdout)
    if not m:
        return None, (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1][:150]
    return tuple(int(g) for g in m.groups()) + (r.returncode,), None


def verify(wherec, path, spec, log, workdir):
    """A PyTorch export case whose spec is one kernel: run it (both paths) on the case's
    inputs and compare with PyTorch's output bit for bit. 'match', 'MISMATCH ...', or
    why it was not run."""
    try:
        import numpy as np
        import onnx
        from onnx import numpy_helper
    except ImportError:
        return "no onnx/numpy"
    text = open(spec).read()
    ks = re.findall(r"^kernel (\w+)\(([^)]*)\)", text, re.M)
    if len(ks) != 1:
        return "%d kernels" % len(ks)
    name, params = ks[0]
    decl = re.findall(r"(\w+): \w+\[([^\]]*)\]", params)
    params = [p for p, _ in decl]
    shapes = {p: [int(d) for d in sh.split(",") if d] if re.fullmatch(r"[\d,]*", sh) else None
              for p, sh in decl}
    case = os.path.dirname(path)
    m = onnx.load(path)
    taken = sum(len(LABEL.findall(l.split(": ", 2)[2])) for l in log.splitlines()
                if l.startswith("wherec: kernel "))
    if taken != sum(1 for n in m.graph.node if n.op_type != "Constant"):
        return "not the whole graph"
    inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    for n in m.graph.node:
        if n.op_type == "Constant":
            for a in n.attribute:
                if a.name == "value":
                    inits[n.output[0]] = numpy_helper.to_array(a.t)
    inputs = [i.name for i in m.graph.input if i.name not in inits]
    data = os.path.join(case, "test_data_set_0")
    vals = {}
    for k, nm in enumerate(inputs):
        t = onnx.TensorProto()
        with open(os.path.join(data, "input_%d.pb" % k), "rb") as f:
            t.ParseFromString(f.read())
        vals[nm] = numpy_helper.to_array(t)
    consts = dict(re.findall(r"reads the constant '([^']*)'; it becomes parameter '(\w+)'", log))
    by_param = {p: c for c, p in consts.items()}
    left = [i for i in inputs]
    files = []
    os.makedirs(workdir, exist_ok=True)
    for p in params:
        if p in by_param:
            arr = inits[by_param[p]]
        else:
            pick = [i for i in left if re.sub(r"\W", "_", i) in (p, p[1:])] or left[:1]
            if not pick:
                return "cannot map parameter %s" % p
            left.remove(pick[0])
            arr = vals[pick[0]]
        if shapes.get(p) is not None and int(np.prod(shapes[p])) == arr.size:
            arr = arr.reshape(shapes[p])  # a per-channel [C] declared [C,1,...]
        fn = os.path.join(workdir, p + ".npy")
        np.save(fn, np.ascontiguousarray(arr))
        files.append(fn)
    t = onnx.TensorProto()
    with open(os.path.join(data, "output_0.pb"), "rb") as f:
        t.ParseFromString(f.read())
    want = numpy_helper.to_array(t)
    for flag in ([], ["--interp"]):
        out = os.path.join(workdir, "out.npy")
        r = subprocess.run([wherec, "run", spec, name] + files + ["-o", out] + flag,
                           capture_output=True, text=True)
        if r.returncode != 0:
            return "run failed: " + r.stderr.strip().splitlines()[-1][:120]
        got = np.load(out)
        if got.shape != want.shape or got.dtype != want.dtype or got.tobytes() != want.tobytes():
            if got.shape == want.shape and got.dtype == want.dtype and got.dtype.kind == "f":
                g64, w64 = got.astype(np.float64), want.astype(np.float64)
                if np.array_equal(g64, w64, equal_nan=True):
                    return "match but NaN bits differ" + (" (interp)" if flag else "")
                d = np.abs(g64 - w64)
                return "MISMATCH%s: max abs diff %g" % (" (interp)" if flag else "", np.nanmax(d))
            return "MISMATCH%s: %s%s vs %s%s" % (" (interp)" if flag else "", got.dtype,
                                                got.shape, want.dtype, want.shape)
    return "match"


def quantized(path, dest):
    """The model at path dynamically quantized by onnxruntime (quantize_dynamic: uint8
    weights, DynamicQuantizeLinear, ConvInteger or MatMulInteger and the scale arithmetic
    around them), made once into dest/quantized; None when this python has no onnxruntime."""
    out = os.path.join(dest, "quantized", os.path.basename(path)[:-5] + "_dq.onnx")
    if "dynamic" in path.split(os.sep)[-2:-1]:
        out = out[:-len(".onnx")] + "_dynamic.onnx"
    if not os.path.exists(out):
        try:
            from onnxruntime.quantization import QuantType, quantize_dynamic
        except ImportError:
            return None
        os.makedirs(os.path.dirname(out), exist_ok=True)
        quantize_dynamic(path, out + ".part.onnx", weight_type=QuantType.QUInt8)
        os.replace(out + ".part.onnx", out)
    return out


def main():
    ap = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--wherec", default=os.path.join(root, "build-imp/gen/wherec"))
    ap.add_argument("--dir", default=os.path.join(root, "build/models"))
    ap.add_argument("--reasons", type=int, default=6, help="reasons shown per model")
    ap.add_argument("--pytorch", action="store_true",
                    help="also the onnx wheel's pytorch-operator and pytorch-converted cases")
    ap.add_argument("--verify", action="store_true",
                    help="also wherec import --verify on each development model")
    a = ap.parse_args()
    wheels = fetch(a.dir)
    models = [(name, extract(wheels[pkg], member, a.dir)) for name, pkg, member in MODELS]
    for name in ("PP-OCR cls", "Silero silero_vad_16k_op15"):  # static, and dynamic axes
        dq = quantized(dict(models)[name], a.dir)
        if dq:
            models.append((name.replace("silero_vad_", "") + ", quantized", dq))
    for name, f in EXPORTED:  # export_models.py's, when it has run
        path = os.path.join(a.dir, f)
        if os.path.exists(path):
            models.append((name, path))
            dq = quantized(path, a.dir) if name.endswith(", dynamic axes") and "YOLO" not in name else None
            if dq:  # the audio tagger's LSTM becomes com.microsoft's DynamicQuantizeLSTM
                models.append((name.replace("dynamic axes", "dyn., quantized"), dq))
    tv = os.path.join(a.dir, "dynamic", "torchvision")  # export_models.py --torchvision --dynamic
    for f in sorted(os.listdir(tv)) if os.path.isdir(tv) else []:
        models.append(("%s, dynamic" % f[:-5], os.path.join(tv, f)))
    if a.pytorch:
        with zipfile.ZipFile(wheels["onnx"]) as z:
            names = sorted(n for n in z.namelist() if re.search(
                r"backend/test/data/pytorch-(operator|converted)/[^/]+/model\.onnx$", n))
            for n in names:  # with their test_data_set_*/ inputs and outputs
                case = os.path.dirname(n)
                for m in z.namelist():
                    if m.startswith(case + "/") and not m.endswith("/"):
                        extract(wheels["onnx"], m, a.dir)
        models += [(n.split("/")[-2], os.path.join(a.dir, n)) for n in names]
    total_ew = total_in = total_k = total_f = 0
    checks = collections.Counter()
    all_reasons = collections.Counter()
    print("%-26s %9s %9s %6s %7s %7s %7s" % ("model", "elemwise", "in kern.", "%", "kernels", "folded",
                                             "+fold%"))
    for name, path in models:
        ops = model_ops(path)
        ew = sum(1 for o in ops if o in ELEMENTWISE)
        spec = os.path.join(a.dir, "specs", re.sub(r"\W", "_", name) + ".where")
        os.makedirs(os.path.dirname(spec), exist_ok=True)
        rc, k, ink, fold, reasons, log = run(a.wherec, path, spec, ARGS.get(name, ()))
        check = ""
        if a.pytorch and "/pytorch-" in path and rc == 0:
            check = verify(a.wherec, path, spec, log, os.path.join(a.dir, "work", name))
            checks[check.split(":")[0]] += 1
        n_in = min(ew, sum(c for o, c in ink.items() if o in ELEMENTWISE))
        total_ew += ew
        total_in += n_in
        total_k += k
        total_f += fold
        all_reasons.update(reasons)
        print("%-26s %9d %9d %5.1f%% %7d %7d %6.1f%%%s%s" % (
            name, ew, n_in, 100.0 * n_in / ew if ew else 100, k, fold,
            100.0 * min(ew, n_in + fold) / ew if ew else 100,
            "" if rc == 0 else "  (exit %d)" % rc, "  " + check if check else ""))
        if not a.pytorch:
            for why, c in reasons.most_common(a.reasons):
                print("    %5d  %s" % (c, why[:150]))
    print("%-26s %9d %9d %5.1f%% %7d %7d %6.1f%%" % (
        "total", total_ew, total_in, 100.0 * total_in / total_ew if total_ew else 100, total_k,
        total_f, 100.0 * (total_in + total_f) / total_ew if total_ew else 100))
    print("(elemwise: ONNX element-wise nodes, sub-graphs included; folded: element-wise nodes of "
          "constant inputs computed at import, in no kernel; +fold%: in a kernel or folded)")
    if checks:
        print("PyTorch cases run against PyTorch's outputs: %s" % dict(checks))
    print("reasons, all models:")
    for why, c in all_reasons.most_common(12):
        print("    %5d  %s" % (c, why[:150]))
    if a.verify:
        print_verify(a, models[:len(MODELS)])


def print_verify(a, models):
    """The --verify table: each development model's kernels against onnxruntime."""
    print("\nwherec import --verify (onnxruntime from %s):" % sys.executable)
    print("%-26s %7s %9s %7s %5s %7s %4s" % ("model", "kernels", "bit-exact", "approx.", "wrong",
                                           "skipped", "exit"))
    totals = [0] * 5
    for name, path in models:
        spec = os.path.join(a.dir, "specs", re.sub(r"\W", "_", name) + ".verify.where")
        row, why = verify_model(a.wherec, path, spec)
        if row is None:
            print("%-26s not verified: %s" % (name, why))
            continue
        totals = [t + v for t, v in zip(totals, row)]
        print("%-26s %7d %9d %7d %5d %7d %4d" % ((name,) + row))
    print("%-26s %7d %9d %7d %5d %7d" % (("total",) + tuple(totals)))
    print("(approx.: differ only in operators onnxruntime approximates or reorders: Exp, Sigmoid, "
          "Tanh, Erf, ..., BatchNormalization; wrong: a kernel of exact operators that differs, "
          "or whose two paths differ)")


if __name__ == "__main__":
    main()
