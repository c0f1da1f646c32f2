#!/usr/bin/env bash
# bench/crmath.sh: the correctly rounded functions (exp log tanh sigmoid erf sinh cosh, the
# circular functions and their inverses, the inverse hyperbolic ones) and the activations
# (Elu, SiLU, Softplus, Softsign, Mish, Gelu, alone and in the forms they replace) in generated kernels on 16M floats, built six
# ways (the last two for AVX2 machines: -mavx2 -mfma), then numpy's and onnxruntime's on the
# same inputs (bench/crmath_peers.py, with each PYTHON given; onnxruntime runs the ONNX
# nodes at ORT_ENABLE_ALL), in one run: ns per element, one thread.
# bench/crmath_report.py then writes bench/crmath.csv, prints the table and the targets, and
# draws bench/crmath.png (with the last PYTHON's matplotlib).
# usage: bench/crmath.sh [PYTHON...]   (default: python3; e.g. build/ort-venv/bin/python)
# Needs a built wherec (WHEREC_BUILD, default build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${WHEREC_BUILD:-build}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/gen/wherec" gen bench/crmath.where -o "$dir"
pythons=("${@:-python3}")
uptime >&2
{
  for cc in "gcc -O2" "gcc -O3 -march=native" "clang -O2" "clang -O3 -march=native" \
            "gcc -O3 -mavx2 -mfma" "clang -O3 -mavx2 -mfma"; do # the last two: AVX2 machines
    $cc -std=c99 -Wall -Wextra -Werror -pedantic -Iinclude -I"$dir" "$dir/crb.c" bench/crmath_speed.c \
        -o "$dir/speed"
    "$dir/speed" | while read -r name ns; do printf '%s\t%s\t%s\n' "$name" "$cc" "$ns"; done
  done
  for py in "${pythons[@]}"; do "$py" bench/crmath_peers.py; done
} | tee "$dir/lines" >&2
uptime >&2
"${pythons[-1]}" bench/crmath_report.py < "$dir/lines"
