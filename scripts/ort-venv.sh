#!/usr/bin/env bash
# scripts/ort-venv.sh: makes a venv with onnxruntime from PyPI, the oracle of the test
# onnx_models_match_onnxruntime, under the build tree (numpy comes from Debian's python3
# through --system-site-packages; onnx too unless it is older than 1.16, then from PyPI).
# Never needed to build wherec.
# Prints the venv's python on success; test.sh passes it to cmake (WHEREC_ORT_PYTHON).
# usage: scripts/ort-venv.sh [VENV]        (default: build/ort-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-build/ort-venv}
. scripts/deps.sh
WHEREC_PACKAGES=(python3-venv)                       # python3 -m venv needs it on Debian
wherec_install_deps >&2
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$venv" >&2
"$venv/bin/python" -c "import onnxruntime" 2>/dev/null ||
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check onnxruntime >&2
# onnx >= 1.16 (opset 21's schemas and the reference evaluator, for tests/gen/import/opsets.py)
# from PyPI over Debian's 1.12 when the venv has an older one
"$venv/bin/python" -c "import onnx, sys; sys.exit(tuple(map(int, onnx.__version__.split('.')[:2])) < (1, 16))" 2>/dev/null ||
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "onnx>=1.16" >&2
"$venv/bin/python" -c "import onnxruntime, onnx, numpy" >&2
echo "$(cd "$venv" && pwd)/bin/python"
