#!/usr/bin/env bash
# bench/peers-venv.sh: makes the venv the bench's peers run in (numexpr, onnxruntime,
# jax; bench/peers.py), from PyPI, under the build tree, where the bench target finds it.
# Never needed to build or test wherec. From anywhere.
# usage: bench/peers-venv.sh [VENV]        (default: build/bench-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-build/bench-venv}
base=${WHEREC_BENCH_BASE_PYTHON:-/usr/bin/python3}   # Debian's, with numpy and onnx
. scripts/deps.sh
WHEREC_PACKAGES=(python3-venv)                       # python3 -m venv needs it on Debian
wherec_install_deps
[ -x "$venv/bin/python" ] || "$base" -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check numexpr onnxruntime onnx "jax[cpu]"
"$venv/bin/python" -c "import numexpr, onnxruntime, jax; print('bench peers in $venv:',
  'numexpr', numexpr.__version__, 'onnxruntime', onnxruntime.__version__, 'jax', jax.__version__)"
