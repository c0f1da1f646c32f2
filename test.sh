#!/usr/bin/env bash
# test.sh: install what is missing, build, and run every test through ctest:
# once in a plain build, once under AddressSanitizer + UBSan (WHEREC_SANITIZE).
set -euo pipefail
cd "$(dirname "$0")"
. scripts/deps.sh
wherec_install_deps
start=$SECONDS
wherec_build build
(cd build && ctest --output-on-failure -j "$(nproc)" -LE exhaustive)
(cd build && ctest --output-on-failure -V -L exhaustive) # exp on all 2^32 floats, every core
wherec_build build-asan -DWHEREC_SANITIZE=ON -DCMAKE_C_COMPILER=clang
(cd build-asan && ctest --output-on-failure -j "$(nproc)")
echo "test.sh: all suites passed in $((SECONDS - start)) s"
