#!/usr/bin/env bash
# run.sh: install what is missing, build, and run the main job: the worked
# examples of the ONNX Where page through the runtime.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/deps.sh
wherec_install_deps
wherec_build build
./build/wherec_demo
