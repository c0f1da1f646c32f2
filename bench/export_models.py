# bench/export_models.py: exports the end-to-end benchmark's two torch models to ONNX:
# a small YOLOv8-style detector (Conv-BN-SiLU) and a 2-layer transformer encoder with a padding mask.
"""Writes, into OUTDIR (default build/models), deterministically (fixed seeds, one thread,
opset 17, static shapes, the TorchScript exporter):

  yolo_silu.onnx            images float[1,3,320,320] -> detections float[1,84,2100]
      YOLOv8n's layout at half its width (8 to 128 channels, head branches 32), one
      bottleneck per C2f: Conv-BN-SiLU blocks, C2f backbone, SPPF, FPN/PAN neck, the
      decoupled detect head (80 classes) with its DFL box decoding and the class sigmoid. BN statistics calibrated on random images, then
      folded into the convolutions by the export; SiLU exported as Sigmoid then Mul.
  transformer_encoder.onnx  x float[1,128,128], padding_mask bool[1,128] (true: a padded
      key) -> y float[1,128,128]
      torch.nn.TransformerEncoder: 2 post-norm layers, d_model 128, 4 heads, feed-forward
      512, exact (erf) GELU, a final LayerNorm; the mask reaches the scores as a Where
      (-inf where padded) and an Add.

Prints per model its export time, node count and operator histogram (needs onnx).
bench/e2e.py runs both. The venv: bench/torch-venv.sh.

With --torchvision, also five torchvision architectures (their list below) for
bench/ep_models.py, into OUTDIR/torchvision/. With --dynamic, also the two models with
dynamic axes (batch, image size, sequence) and a recurrent audio tagger (Conv1d, LSTM,
GRU; batch and time) into OUTDIR/dynamic/, for bench/models.py (with --torchvision too,
the five architectures with dynamic batch and image size, into OUTDIR/dynamic/torchvision/).

usage: $(bench/torch-venv.sh) bench/export_models.py [OUTDIR] [--opset N] [--torchvision] [--dynamic]
"""
import argparse
import collections
import math
import os
import sys
import time
import warnings

import torch
from torch import nn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPSET = 17


# ---- the detector: YOLOv8's modules (Conv, Bottleneck, C2f, SPPF, Detect) ---------------

class Conv(nn.Module):
    """Conv2d (no bias) -> BatchNorm2d -> SiLU, padding k // 2."""

    def __init__(self, c1, c2, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2, eps=1e-3, momentum=0.03)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Bottleneck(nn.Module):
    def __init__(self, c, shortcut):
        super().__init__()
        self.cv1 = Conv(c, c, 3)
        self.cv2 = Conv(c, c, 3)
        self.add = shortcut

    def forward(self, x):
        y = self.cv2(self.cv1(x))
        return x + y if self.add else y


class C2f(nn.Module):
    """CSP bottleneck with two convolutions: split in halves, n bottlenecks on the second,
    every intermediate concatenated."""

    def __init__(self, c1, c2, n=1, shortcut=False):
        super().__init__()
        self.c = c2 // 2
        self.cv1 = Conv(c1, 2 * self.c, 1)
        self.cv2 = Conv((2 + n) * self.c, c2, 1)
        self.m = nn.ModuleList(Bottleneck(self.c, shortcut) for _ in range(n))

    def forward(self, x):
        y = list(self.cv1(x).split((self.c, self.c), 1))
        y.extend(m(y[-1]) for m in self.m)
        return self.cv2(torch.cat(y, 1))


class SPPF(nn.Module):
    def __init__(self, c1, c2, k=5):
        super().__init__()
        c = c1 // 2
        self.cv1 = Conv(c1, c, 1)
        self.cv2 = Conv(c * 4, c2, 1)
        self.m = nn.MaxPool2d(k, 1, k // 2)

    def forward(self, x):
        y = [self.cv1(x)]
        y.extend(self.m(y[-1]) for _ in range(3))
        return self.cv2(torch.cat(y, 1))


class Detect(nn.Module):
    """Decoupled head per level (box: 4 x reg_max distances, cls: nc logits), then the
    distribution focal loss' expectation, anchor decoding to xywh in pixels, sigmoid.
    Both branches ch[0] wide (YOLOv8's 64 and 80 would be 70% of the work at these widths)."""

    def __init__(self, nc, ch, strides, hw, reg_max=16):
        super().__init__()
        self.nc, self.reg_max, self.no = nc, reg_max, nc + 4 * reg_max
        c2 = c3 = ch[0]
        self.cv2 = nn.ModuleList(
            nn.Sequential(Conv(c, c2, 3), Conv(c2, c2, 3), nn.Conv2d(c2, 4 * reg_max, 1)) for c in ch)
        self.cv3 = nn.ModuleList(
            nn.Sequential(Conv(c, c3, 3), Conv(c3, c3, 3), nn.Conv2d(c3, nc, 1)) for c in ch)
        self.dfl = nn.Conv2d(reg_max, 1, 1, bias=False).requires_grad_(False)
        self.dfl.weight.data[:] = torch.arange(reg_max, dtype=torch.float32).view(1, reg_max, 1, 1)
        self.hw = [h * w for h, w in hw]
        anchors, stride_t = [], []
        for s, (h, w) in zip(strides, hw):
            sy, sx = torch.meshgrid(torch.arange(h) + 0.5, torch.arange(w) + 0.5, indexing="ij")
            anchors.append(torch.stack((sx, sy), -1).view(-1, 2))
            stride_t.append(torch.full((h * w, 1), float(s)))
        self.register_buffer("anchors", torch.cat(anchors).transpose(0, 1).unsqueeze(0))   # [1,2,A]
        self.register_buffer("strides", torch.cat(stride_t).transpose(0, 1).unsqueeze(0))  # [1,1,A]
        for a, b, s in zip(self.cv2, self.cv3, strides):  # YOLOv8's bias init
            a[-1].bias.data[:] = 1.0
            b[-1].bias.data[:] = math.log(5 / nc / (320 / s) ** 2)

    def forward(self, xs):
        # Shapes as constants (static export): -1 the batch, sizes from the module, not
        # from the tensors, so that no Shape/Gather arithmetic lands in the graph.
        y = torch.cat([torch.cat((cv2(x), cv3(x)), 1).reshape(-1, self.no, hw)
                       for x, cv2, cv3, hw in zip(xs, self.cv2, self.cv3, self.hw)], 2)
        box, cls = y.split((4 * self.reg_max, self.nc), 1)
        a = sum(self.hw)
        dist = self.dfl(box.reshape(-1, 4, self.reg_max, a).transpose(2, 1).softmax(1)).reshape(-1, 4, a)
        lt, rb = dist.split((2, 2), 1)
        x1y1, x2y2 = self.anchors - lt, self.anchors + rb
        xywh = torch.cat(((x1y1 + x2y2) / 2, x2y2 - x1y1), 1) * self.strides
        return torch.cat((xywh, cls.sigmoid()), 1)


class YoloSiLU(nn.Module):
    """YOLOv8's backbone and neck, widths w (YOLOv8n: 16 ... 256), n blocks per C2f."""

    def __init__(self, size=320, w=(8, 16, 32, 64, 128), n=1, nc=80):
        super().__init__()
        self.b0, self.b1 = Conv(3, w[0], 3, 2), Conv(w[0], w[1], 3, 2)        # P1/2, P2/4
        self.b2 = C2f(w[1], w[1], n, True)
        self.b3, self.b4 = Conv(w[1], w[2], 3, 2), C2f(w[2], w[2], n, True)   # P3/8
        self.b5, self.b6 = Conv(w[2], w[3], 3, 2), C2f(w[3], w[3], n, True)   # P4/16
        self.b7, self.b8 = Conv(w[3], w[4], 3, 2), C2f(w[4], w[4], n, True)   # P5/32
        self.b9 = SPPF(w[4], w[4])
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.h12 = C2f(w[4] + w[3], w[3], n)
        self.h15 = C2f(w[3] + w[2], w[2], n)                                  # out P3
        self.h16, self.h18 = Conv(w[2], w[2], 3, 2), C2f(w[2] + w[3], w[3], n)  # out P4
        self.h19, self.h21 = Conv(w[3], w[3], 3, 2), C2f(w[3] + w[4], w[4], n)  # out P5
        strides = (8, 16, 32)
        self.detect = Detect(nc, (w[2], w[3], w[4]), strides, [(size // s, size // s) for s in strides])

    def forward(self, x):
        p3 = self.b4(self.b3(self.b2(self.b1(self.b0(x)))))
        p4 = self.b6(self.b5(p3))
        p5 = self.b9(self.b8(self.b7(p4)))
        h12 = self.h12(torch.cat((self.up(p5), p4), 1))
        h15 = self.h15(torch.cat((self.up(h12), p3), 1))
        h18 = self.h18(torch.cat((self.h16(h15), h12), 1))
        h21 = self.h21(torch.cat((self.h19(h18), p5), 1))
        return self.detect([h15, h18, h21])


def yolo_silu():
    torch.manual_seed(0)
    model = YoloSiLU()
    # BatchNorm statistics from random images (cumulative average), so that activations
    # keep a trained network's scale instead of the defaults' (mean 0, variance 1).
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.momentum = None
            nn.init.uniform_(m.weight, 0.5, 1.5)
            nn.init.uniform_(m.bias, -0.2, 0.2)
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(torch.rand(2, 3, 320, 320))
    model.eval()
    return model, (torch.rand(1, 3, 320, 320),), ["images"], ["detections"]


# ---- the transformer encoder --------------------------------------------------------------

class Encoder(nn.Module):
    def __init__(self, d_model=128, heads=4, ff=512, layers=2):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model, heads, ff, dropout=0.1, activation="gelu",
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, norm=nn.LayerNorm(d_model),
                                             enable_nested_tensor=False)

    def forward(self, x, padding_mask):
        return self.encoder(x, src_key_padding_mask=padding_mask)


def transformer_encoder():
    torch.manual_seed(1)
    model = Encoder().eval()
    x = torch.randn(1, 128, 128)
    mask = torch.arange(128).unsqueeze(0) >= 100          # the last 28 keys are padding
    return model, (x, mask), ["x", "padding_mask"], ["y"]


MODELS = [("yolo_silu.onnx", yolo_silu), ("transformer_encoder.onnx", transformer_encoder)]


# ---- a recurrent audio tagger (--dynamic only) ----------------------------------------------

class AudioTagger(nn.Module):
    """Conv1d-ReLU, an LSTM, a bidirectional GRU, a gated sigmoid head: [batch, 16, time] ->
    [batch, time, 5], the element-wise work between recurrences that speech models have."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 32, 3, padding=1)
        self.lstm = nn.LSTM(32, 48, batch_first=True)
        self.gru = nn.GRU(48, 24, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(48, 5)

    def forward(self, x):
        h = torch.relu(self.conv(x)).transpose(1, 2)
        h, _ = self.lstm(h)
        h, _ = self.gru(torch.tanh(h) * 0.5 + h)
        return torch.sigmoid(self.fc(h)) * (h.mean(-1, keepdim=True) > 0)


def audio_tagger():
    torch.manual_seed(0)
    return AudioTagger().eval(), (torch.randn(2, 16, 50),), ["x"], ["y"]

# --dynamic: the same two with PyTorch's dynamic axes, as exporters of audio, text and
# detection models write them (dim_params on batch, image size, sequence), into
# OUTDIR/dynamic/ for bench/models.py: what import's shape inference meets in the wild
DYNAMIC_AXES = {
    "yolo_silu.onnx": {"images": {0: "batch", 2: "height", 3: "width"},
                       "detections": {0: "batch", 2: "anchors"}},
    "transformer_encoder.onnx": {"x": {0: "batch", 1: "sequence"},
                                 "padding_mask": {0: "batch", 1: "sequence"},
                                 "y": {0: "batch", 1: "sequence"}},
    "audio_tagger.onnx": {"x": {0: "batch", 2: "time"}, "y": {0: "batch", 1: "time"}},
}

# --torchvision: five architectures of other families, random weights (nothing downloaded),
# 1x3x224x224, into OUTDIR/torchvision/ for bench/ep_models.py: hard-swish and SE blocks,
# SiLU, SE with ReLU, LayerNorm and exact GELU, a vision transformer
TORCHVISION = ["mobilenet_v3_small", "efficientnet_b0", "regnet_y_400mf", "convnext_tiny", "vit_b_16"]


def torchvision_model(name):
    def make():
        import torchvision
        torch.manual_seed(0)
        return getattr(torchvision.models, name)(weights=None).eval(), (torch.randn(1, 3, 224, 224),), ["x"], ["y"]
    return make


# ---- export -------------------------------------------------------------------------------

def export(make, path, opset, dynamic_axes=None):
    model, args, inputs, outputs = make()
    # Not under no_grad: with gradients off, TransformerEncoderLayer in eval mode takes its
    # fused fast path (aten::_transformer_encoder_layer_fwd), which has no ONNX export.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the TorchScript exporter's deprecation notice
        torch.onnx.export(model, args, path, input_names=inputs, output_names=outputs,
                          opset_version=opset, do_constant_folding=True, dynamo=False,
                          dynamic_axes=dynamic_axes)


def summary(path):
    """(node count, {op type: count}) of the model's main graph, or None without onnx."""
    try:
        import onnx
    except ImportError:
        return None
    m = onnx.load(path)
    onnx.checker.check_model(m)
    return len(m.graph.node), collections.Counter(n.op_type for n in m.graph.node)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?", default=os.path.join(ROOT, "build", "models"))
    ap.add_argument("--opset", type=int, default=OPSET)
    ap.add_argument("--torchvision", action="store_true",
                    help="also torchvision's %s into OUTDIR/torchvision (needs torchvision)" % ", ".join(TORCHVISION))
    ap.add_argument("--dynamic", action="store_true",
                    help="also both models with dynamic axes into OUTDIR/dynamic")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    torch.set_num_threads(1)              # the same sums, in the same order, every run
    torch.use_deterministic_algorithms(True)
    print("torch %s, opset %d, into %s" % (torch.__version__, a.opset, a.outdir))
    models = [(name, make, None) for name, make in MODELS]
    if a.dynamic:
        os.makedirs(os.path.join(a.outdir, "dynamic"), exist_ok=True)
        models += [(os.path.join("dynamic", name), make, DYNAMIC_AXES[name])
                   for name, make in MODELS + [("audio_tagger.onnx", audio_tagger)]]
    if a.torchvision:
        os.makedirs(os.path.join(a.outdir, "torchvision"), exist_ok=True)
        models += [(os.path.join("torchvision", n + ".onnx"), torchvision_model(n), None) for n in TORCHVISION]
    if a.torchvision and a.dynamic:  # batch, height and width dynamic (ViT's patches fix its size)
        os.makedirs(os.path.join(a.outdir, "dynamic", "torchvision"), exist_ok=True)
        models += [(os.path.join("dynamic", "torchvision", n + ".onnx"), torchvision_model(n),
                    {"x": {0: "batch"} if n.startswith("vit") else {0: "batch", 2: "height", 3: "width"},
                     "y": {0: "batch"}}) for n in TORCHVISION]
    for name, make, axes in models:
        path = os.path.join(a.outdir, name)
        t0 = time.perf_counter()
        export(make, path, a.opset, axes)
        dt = time.perf_counter() - t0
        s = summary(path)
        print("%s: %.1f s, %d bytes" % (path, dt, os.path.getsize(path)), end="")
        if s is None:
            print(" (no onnx in this python: no node counts)")
            continue
        count, ops = s
        print(", %d nodes" % count)
        print("  " + ", ".join("%s %d" % kv for kv in sorted(ops.items(), key=lambda kv: (-kv[1], kv[0]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
