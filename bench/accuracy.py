#!/usr/bin/env python3
"""bench/accuracy.py: how close the provider's outputs are to the true values, and whether
what users decode from them is the same.

For each model bench/e2e.py imported (build/e2e/<key>/ with kernels.so; run e2e.py first):

1. Outputs against a float64 evaluation. The same inputs (e2e's saved .npy files) go through
   onnxruntime alone, onnxruntime + wherec claim=measured and + claim=all (ORT_ENABLE_ALL,
   one thread), and through onnx's reference evaluator on the model with every float32
   tensor, initializer, attribute and Cast target made float64 (onnxruntime's CPU provider
   has no double Conv; the evaluator's BatchNormalization, which takes version 9's momentum
   as training mode, is replaced by inference's). Per session: the largest absolute error against float64 and the
   root mean square error, over all outputs. The provider passes when its rms error is not
   above onnxruntime alone's by more than 1%, the spread of two equally careful float32
   evaluations (the largest error is printed beside it).
2. Decoded results, on inputs with meaning rather than noise:
   - PP-OCR: an image of printed text lines (Pillow's own font). det's probability map is
     binarized at 0.3, its 4-connected components are the boxes (expanded by DB's unclip
     distance, area * 1.5 / perimeter); each box is classified (cls: 0 or 180 degrees) and
     read (rec: greedy CTC over the dictionary in the model's metadata). The boxes, labels
     and strings must be equal with and without the provider, and to float64's.
   - Silero VAD: 4 s of synthetic audio (silence, a voiced vowel-like tone with a 4 Hz
     envelope over noise, silence) in chunks of 512 samples after 64 of context, the state
     carried from chunk to chunk as silero_vad's OnnxWrapper does; the probabilities must be
     within 1e-5 of onnxruntime alone's.
Prints both tables and writes bench/accuracy.csv.

usage: build/ort-venv/bin/python bench/accuracy.py [--models det,rec,...] [--ep PATH] [--no-f64]
                                                   [--dir build/e2e] [--models-dir build/models]
"""
import argparse
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import e2e  # noqa: E402  (the models, their imports and inputs, session())

POLICIES = ("alone", "measured", "all")
# Two float32 evaluations of one network, each rounding differently, land at slightly
# different distances from the truth: an rms error up to 1% above onnxruntime's own counts as
# as close (the largest single error is printed beside it, not judged)
RMS_NOISE = 1.01
VAD_TOLERANCE = 1e-5


# ---- float64 ------------------------------------------------------------------------------

def to_float64(model):
    """The model with every float32 made float64: tensors, value types, Cast targets."""
    import numpy as np
    from onnx import AttributeProto, TensorProto, numpy_helper
    f32, f64 = TensorProto.FLOAT, TensorProto.DOUBLE

    def tensor(t):
        if t.data_type == f32:
            t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(t).astype(np.float64), t.name))

    def graph(g):
        for t in g.initializer:
            tensor(t)
        for vi in list(g.input) + list(g.output) + list(g.value_info):
            if vi.type.tensor_type.elem_type == f32:
                vi.type.tensor_type.elem_type = f64
        for n in g.node:
            for a in n.attribute:
                if a.name == "to" and a.type == AttributeProto.INT and a.i == f32:
                    a.i = f64
                elif a.type == AttributeProto.TENSOR:
                    tensor(a.t)
                elif a.type == AttributeProto.GRAPH:
                    graph(a.g)
                elif a.type == AttributeProto.GRAPHS:
                    for sub in a.graphs:
                        graph(sub)
    graph(model.graph)
    return model


def inference_batch_normalization():
    """BatchNormalization as inference reads it. onnx's reference evaluator (1.23) takes
    version 9's momentum, which its schema always fills in, as training mode and normalizes
    by a blend of the batch's own statistics; with one output the node is inference."""
    from onnx.reference.op_run import OpRun
    from onnx.reference.ops.op_batch_normalization import _batchnorm_test_mode

    class BatchNormalization(OpRun):
        op_domain = ""

        def _run(self, x, scale, bias, mean, var, epsilon=None, momentum=None, training_mode=None,
                 spatial=None, is_test=None):
            if training_mode:
                raise NotImplementedError("BatchNormalization in training mode")
            return (_batchnorm_test_mode(x, scale, bias, mean, var, epsilon=epsilon),)
    return BatchNormalization


class Float64:
    """run(names, feeds) of onnx's reference evaluator on the float64 model."""

    def __init__(self, path):
        import onnx
        from onnx.reference import ReferenceEvaluator
        self.ev = ReferenceEvaluator(to_float64(onnx.load(path)), new_ops=[inference_batch_normalization()])

    def run(self, names, feeds):
        import numpy as np
        f = {k: (v.astype(np.float64) if v.dtype == np.float32 else v) for k, v in feeds.items()}
        return self.ev.run(names, f)


def errors(np, outs, truth):
    """(max abs error, rms error) of float outputs against the float64 ones."""
    worst, sq, n = 0.0, 0.0, 0
    for o, t in zip(outs, truth):
        o, t = np.asarray(o), np.asarray(t)
        if o.dtype.kind != "f" or o.size == 0:
            continue
        d = o.astype(np.float64) - t.astype(np.float64)
        worst = max(worst, float(np.max(np.abs(d))))
        sq += float(np.sum(d * d))
        n += d.size
    return worst, (sq / n) ** 0.5 if n else 0.0


# ---- sessions -----------------------------------------------------------------------------

class Runner:
    """Sessions of one model, by policy ("alone", "measured", "all") and "f64"."""

    def __init__(self, ort, ep, path, d, f64=True):
        self.sessions = {}
        devices = ep_devices(ort, ep)
        for pol in POLICIES:
            if pol != "alone" and not (devices and os.path.exists(os.path.join(d, "kernels.so"))):
                continue
            rep = os.path.join(d, "report-accuracy-%s.jsonl" % pol)
            self.sessions[pol] = e2e.session(ort, path, 1, pol, devices, d, report=rep)
        if f64:
            self.sessions["f64"] = Float64(path)
        self.names = [o.name for o in self.sessions["alone"].get_outputs()]

    def run(self, which, feeds):
        return self.sessions[which].run(self.names, feeds)


_registered = {}


def ep_devices(ort, ep):
    if ep not in _registered:
        if not os.path.exists(ep):
            _registered[ep] = []
        else:
            ort.register_execution_provider_library("wherec", os.path.abspath(ep))
            _registered[ep] = [x for x in ort.get_ep_devices() if x.ep_name == e2e.EP_NAME]
    return _registered[ep]


# ---- 1: outputs against float64 -----------------------------------------------------------

def outputs_against_float64(np, ort, a, paths):
    rows = []
    for key, path in paths.items():
        d = os.path.join(a.dir, key)
        names_file = os.path.join(d, "inputs", "names.json")
        if not os.path.exists(names_file):
            print("accuracy: %s: no inputs in %s (run bench/e2e.py first)" % (key, d))
            continue
        with open(names_file) as f:
            feeds = {n: np.load(os.path.join(d, "inputs", fn)) for fn, n in sorted(json.load(f).items())}
        r = Runner(ort, a.ep, path, d, f64=True)
        truth = r.run("f64", feeds)
        row = {"model": key}
        for pol in POLICIES:
            if pol in r.sessions:
                row[pol + "_max"], row[pol + "_rms"] = errors(np, r.run(pol, feeds), truth)
        row["pass"] = all(row.get(p + "_rms", 0) <= row["alone_rms"] * RMS_NOISE for p in POLICIES[1:])
        rows.append(row)
        print("accuracy: %-12s max |err| alone %.6g measured %.6g all %.6g; rms %.6g / %.6g / %.6g %s" % (
            key, row["alone_max"], row.get("measured_max", float("nan")), row.get("all_max", float("nan")),
            row["alone_rms"], row.get("measured_rms", float("nan")), row.get("all_rms", float("nan")),
            "ok" if row["pass"] else "FARTHER"))
        sys.stdout.flush()
    return rows


# ---- 2: decoded results -------------------------------------------------------------------

OCR_LINES = ["wherec 2026", "fused select kernels", "Where(cond, x, y)", "onnxruntime provider",
             "ReLU HardSwish 0.5"]


def text_image(np):
    """640x640 RGB uint8: the lines in black on white."""
    from PIL import Image, ImageDraw, ImageFont
    img = Image.new("RGB", (640, 640), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=36)
    for i, line in enumerate(OCR_LINES):
        draw.text((40, 60 + 110 * i), line, fill="black", font=font)
    return np.asarray(img)


def det_input(np, img):
    x = img.astype(np.float32) / 255.0
    x = (x - np.array([0.485, 0.456, 0.406], np.float32)) / np.array([0.229, 0.224, 0.225], np.float32)
    return x.transpose(2, 0, 1)[None].astype(np.float32)


def components(np, mask):
    """[(row0, col0, row1, col1, pixels)] of the 4-connected components of a 2-D bool mask
    (runs per row joined by union-find)."""
    parent = []

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    runs, prev = [], []
    for r in range(mask.shape[0]):
        d = np.diff(np.concatenate(([0], mask[r].astype(np.int8), [0])))
        cur = []
        for s, e in zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1)):
            i = len(parent)
            parent.append(i)
            for ps, pe, pi in prev:
                if ps < e and s < pe:
                    a, b = find(i), find(pi)
                    parent[max(a, b)] = min(a, b)
            cur.append((s, e, i))
            runs.append((r, s, e, i))
        prev = cur
    boxes = {}
    for r, s, e, i in runs:
        k = find(i)
        r0, c0, r1, c1, n = boxes.get(k, (r, s, r, e - 1, 0))
        boxes[k] = (min(r0, r), min(c0, s), max(r1, r), max(c1, e - 1), n + e - s)
    return sorted(boxes.values())


def db_boxes(np, prob, shape):
    """DB's boxes from a probability map: binarized at 0.3, components of 10 pixels or more,
    each expanded by area * 1.5 / perimeter and clipped to the image."""
    out = []
    for r0, c0, r1, c1, n in components(np, prob > 0.3):
        if n < 10:
            continue
        h, w = r1 - r0 + 1, c1 - c0 + 1
        pad = int(round(h * w * 1.5 / (2 * (h + w))))
        out.append((max(0, r0 - pad), max(0, c0 - pad), min(shape[0] - 1, r1 + pad), min(shape[1] - 1, c1 + pad)))
    return out


def line_input(np, crop, width):
    """A crop as PP-OCR's rec and cls read it: height 48, width kept in proportion up to
    `width`, scaled to [-1, 1], padded with zeros on the right."""
    from PIL import Image
    h, w = crop.shape[:2]
    nw = max(1, min(width, int(round(48 * w / h))))
    x = np.asarray(Image.fromarray(crop).resize((nw, 48), Image.BILINEAR)).astype(np.float32)
    x = (x / 255.0 - 0.5) / 0.5
    out = np.zeros((1, 3, 48, width), np.float32)
    out[0, :, :, :nw] = x.transpose(2, 0, 1)
    return out


def ctc_text(np, logits, chars):
    """Greedy CTC: the best class per step, repeats merged, blanks (0) dropped."""
    best = np.argmax(logits[0], axis=-1)
    text, last = [], 0
    for k in best:
        if k != last and k != 0:
            text.append(chars[k] if k < len(chars) else "?")
        last = k
    return "".join(text)


def ocr_pipeline(np, runners, chars, img, which, probs):
    det, cls, rec = runners
    prob = det.run(which, {det.feed: det_input(np, img)})[0][0, 0]
    probs[which] = prob
    result = []
    for box in db_boxes(np, prob, img.shape[:2]):
        r0, c0, r1, c1 = box
        crop = img[r0:r1 + 1, c0:c1 + 1]
        label = int(np.argmax(cls.run(which, {cls.feed: line_input(np, crop, 192)})[0][0]))
        text = ctc_text(np, rec.run(which, {rec.feed: line_input(np, crop, 320)})[0], chars)
        result.append((box, label, text))
    return result


def rec_characters(path):
    """The rec model's dictionary as rapidocr reads it: blank, the metadata's lines, space."""
    import onnx
    m = onnx.load(path, load_external_data=False)
    meta = {p.key: p.value for p in m.metadata_props}
    return ["blank"] + meta["character"].splitlines() + [" "]


def decoded_ocr(np, ort, a, paths):
    if not all(k in paths for k in ("det", "cls", "rec")):
        return []
    runners = []
    for key in ("det", "cls", "rec"):
        r = Runner(ort, a.ep, paths[key], os.path.join(a.dir, key), f64=not a.no_f64)
        r.feed = r.sessions["alone"].get_inputs()[0].name
        runners.append(r)
    chars = rec_characters(paths["rec"])
    img = text_image(np)
    probs = {}
    results = {w: ocr_pipeline(np, runners, chars, img, w, probs) for w in runners[0].sessions}
    base = results["alone"]
    map_err = {}
    if "f64" in probs:
        for w in probs:
            map_err[w] = errors(np, [probs[w]], [probs["f64"]])
            print("accuracy: OCR %-8s det's probability map against float64: max |err| %.6g, rms %.6g" % (
                w, *map_err[w]))
    print("accuracy: OCR alone: %s" % [(tuple(int(v) for v in b), lb, t) for b, lb, t in base])
    rows = []
    for w, res in results.items():
        same = [res == base, [b for b, _, _ in res] == [b for b, _, _ in base],
                [lb for _, lb, _ in res] == [lb for _, lb, _ in base], [t for _, _, t in res] == [t for _, _, t in base]]
        rows.append({"model": "PP-OCR pipeline", "session": w, "boxes": len(res),
                     "texts": " | ".join(t for _, _, t in res), "equal_to_alone": same[0] or w == "f64",
                     "boxes_equal": same[1], "labels_equal": same[2], "texts_equal": same[3]})
        if w in map_err and w != "f64":
            rows[-1].update({"map_max_err": map_err[w][0], "map_rms_err": map_err[w][1],
                             "map_as_close": map_err[w][1] <= map_err["alone"][1] * RMS_NOISE})
        print("accuracy: OCR %-8s %d boxes; boxes %s, labels %s, texts %s to onnxruntime alone's" % (
            w, len(res), *("equal" if x else "DIFFERENT" for x in same[1:])))
        if not same[0]:
            print("accuracy: OCR %-8s %s" % (w, [(tuple(int(v) for v in b), lb, t) for b, lb, t in res]))
    return rows


def vad_audio(np, seconds=4.0, rate=16000):
    rng = np.random.default_rng(7)
    t = np.arange(int(seconds * rate)) / rate
    voiced = sum(np.sin(2 * np.pi * f0 * k * t) / k for f0 in (140.0,) for k in range(1, 12))
    envelope = (0.5 + 0.5 * np.sin(2 * np.pi * 4 * t)) * ((t > 1.0) & (t < 3.0))
    x = 0.3 * envelope * voiced + 0.01 * rng.standard_normal(t.size)
    return x.astype(np.float32)


def vad_probabilities(np, r, which, audio):
    state = np.zeros((2, 1, 128), np.float32)
    context = np.zeros(64, np.float32)
    probs = []
    for k in range(0, audio.size - 511, 512):
        chunk = audio[k:k + 512]
        feeds = {"input": np.concatenate([context, chunk])[None].astype(np.float32), "state": state,
                 "sr": np.array(16000, np.int64)}
        out, state = r.run(which, feeds)[:2]
        state = state.astype(np.float32)
        probs.append(float(np.asarray(out).reshape(-1)[0]))
        context = chunk[-64:]
    return np.array(probs)


def decoded_vad(np, ort, a, paths):
    if "silero" not in paths:
        return []
    r = Runner(ort, a.ep, paths["silero"], os.path.join(a.dir, "silero"), f64=not a.no_f64)
    audio = vad_audio(np)
    probs = {w: vad_probabilities(np, r, w, audio) for w in r.sessions}
    base = probs["alone"]
    rows = []
    for w, p in probs.items():
        diff = float(np.max(np.abs(p - base)))
        rows.append({"model": "Silero VAD", "session": w, "chunks": p.size, "max_prob": float(p.max()),
                     "max_diff_to_alone": diff, "within_1e-5": diff <= VAD_TOLERANCE})
        print("accuracy: VAD %-8s %d chunks, speech probability up to %.4f, |diff| to alone %.3g %s" % (
            w, p.size, p.max(), diff, "ok" if diff <= VAD_TOLERANCE else "OVER 1e-5"))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default=",".join(k for k, *_ in e2e.E2E))
    ap.add_argument("--ep", default=os.path.join(ROOT, "build/ep/libwherec_ep.so"))
    ap.add_argument("--dir", default=os.path.join(ROOT, "build/e2e"), help="e2e.py's import directories")
    ap.add_argument("--models-dir", default=os.path.join(ROOT, "build/models"), help="where the models are")
    ap.add_argument("--no-f64", action="store_true", help="decoded results without float64")
    ap.add_argument("--csv", default=os.path.join(HERE, "accuracy.csv"))
    a = ap.parse_args()
    import numpy as np
    import onnxruntime as ort
    keys = a.models.split(",")
    paths, missing = e2e.model_paths(a.models_dir, set(keys) | {"det", "cls", "rec"})
    for k, why in missing.items():
        print("accuracy: %s left out: %s" % (k, why))
    rows = outputs_against_float64(np, ort, a, {k: p for k, p in paths.items() if k in keys})
    decoded = decoded_ocr(np, ort, a, paths) + decoded_vad(np, ort, a, paths)
    with open(a.csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["table", "model", "field", "value"])
        for r in rows:
            for k, v in r.items():
                if k != "model":
                    w.writerow(["float64", r["model"], k, v])
        for r in decoded:
            for k, v in r.items():
                if k not in ("model", "session"):
                    w.writerow(["decoded", r["model"], "%s/%s" % (r["session"], k), v])
    ok = all(r["pass"] for r in rows) and all(
        r.get("equal_to_alone", True) and r.get("within_1e-5", True) and r.get("map_as_close", True) for r in decoded)
    print("accuracy: %s; %s written" % ("every check passed" if ok else "SOME CHECKS FAILED", a.csv))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
