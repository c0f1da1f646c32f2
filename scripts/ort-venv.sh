#!/usr/bin/env bash
# scripts/ort-venv.sh: makes a venv with onnxruntime from PyPI, the oracle of the test
# onnx_models_match_onnxruntime, under the build tree (numpy comes from Debian's python3
# through --system-site-packages; onnx from PyPI, pinned: see below).
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
# onnx 1.23.2 from PyPI over Debian's 1.12: opset 21's schemas and the reference evaluator
# (tests/gen/import/opsets.py), and the node tests of tests/gen/import/node/node_tests_pypi.txt,
# which lists that version's tests (a newer onnx would change the list: pinned)
ONNX_VERSION=1.23.2
"$venv/bin/python" -c "import onnx, sys; sys.exit(onnx.__version__ != '$ONNX_VERSION')" 2>/dev/null ||
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "onnx==$ONNX_VERSION" >&2
"$venv/bin/python" -c "import onnxruntime, onnx, numpy" >&2
echo "$(cd "$venv" && pwd)/bin/python"
