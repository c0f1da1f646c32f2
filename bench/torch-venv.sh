#!/usr/bin/env bash
# bench/torch-venv.sh: makes the venv bench/export_models.py runs in (torch, onnx, numpy from
# PyPI) under the build tree. Never needed to build or test wherec. From anywhere.
# PyPI's one torch wheel for x86-64 Linux is the CUDA build, and it does not import without
# its CUDA libraries (libtorch_cuda.so needs libcudart, cuDNN, cuBLAS, NCCL...): pip brings
# them (cuda-toolkit, nvidia-*, triton), about 5.4 GB installed in all (torch 2.15.0: a 514 MB
# wheel, then 3 GB of nvidia-* and 1 GB of triton). They are never loaded onto a GPU here.
# torch pinned: the exported bytes depend on its version (export_models.py is deterministic
# for one version); onnx as scripts/ort-venv.sh pins it.
# Prints the venv's python on success.
# usage: bench/torch-venv.sh [VENV]        (default: build/torch-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-build/torch-venv}
. scripts/deps.sh
WHEREC_PACKAGES=(python3-venv)                       # python3 -m venv needs it on Debian
wherec_install_deps >&2
TORCH_VERSION=2.15.0
TORCHVISION_VERSION=0.29.2
ONNX_VERSION=1.23.2
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv" >&2
"$venv/bin/python" -c "import torch, onnx, numpy, sys
sys.exit(torch.__version__.split('+')[0] != '$TORCH_VERSION' or onnx.__version__ != '$ONNX_VERSION')" \
  2>/dev/null ||
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "torch==$TORCH_VERSION" "onnx==$ONNX_VERSION" numpy >&2
# torchvision for export_models.py --torchvision: the release built against this torch;
# --no-deps, so pip does not replace torch (pillow is its one other import)
"$venv/bin/python" -c "import torchvision" 2>/dev/null ||
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
    "torchvision==$TORCHVISION_VERSION" pillow >&2
"$venv/bin/python" -c "import torch, onnx, numpy, torchvision" >&2
echo "$(cd "$venv" && pwd)/bin/python"
