#!/usr/bin/env bash
# run.sh: install what is missing, build, then the main job: generate the
# worked examples of both seed pages (examples/onnx_where.where), compile them
# with clang and check every kernel against the reference, printing the table.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/deps.sh
wherec_install_deps
wherec_build build
mkdir -p build/examples
./build/gen/wherec gen examples/onnx_where.where -o build/examples
echo "generated: build/examples/onnx_where.h, build/examples/onnx_where.c"
./build/gen/wherec check examples/onnx_where.where
