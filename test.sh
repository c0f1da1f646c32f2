#!/usr/bin/env bash
# test.sh: install what is missing, build, and run every test through ctest:
# once in a plain build, once under AddressSanitizer + UBSan (WHEREC_SANITIZE), and
# the parallel paths (label parallel) under ThreadSanitizer (WHEREC_SANITIZE=thread);
# between the first two, a shared build (BUILD_SHARED_LIBS) and its unit tests.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/deps.sh
start=$SECONDS
# elapsed: where the time goes, in the log (CI keeps the suite well inside 20 minutes)
elapsed() { echo "test.sh: $1 at $((SECONDS - start)) s"; }
wherec_install_deps
elapsed "packages"
# One compiler cache for every build below (CMake reads the launcher from the environment
# when it configures a new build directory, pip's build of the Python package included):
# the shared build and the package compile, with the same compiler and flags, the very
# sources the plain build compiled, and get the same objects back instead of compiling
# again. Its key is the preprocessed source, the compiler and its options, so a cached
# object is the one the compile would make.
if command -v ccache >/dev/null; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CCACHE_DIR=$PWD/build/ccache CCACHE_MAXSIZE=2G
fi
# onnxruntime from PyPI, the import test's oracle: without PyPI that one test skips, saying so
ort_python=$(scripts/ort-venv.sh build/ort-venv) ||
  { echo "test.sh: no onnxruntime venv; onnx_models_match_onnxruntime will skip" >&2; ort_python=/usr/bin/python3; }
elapsed "venv"
wherec_build build -DWHEREC_ORT_PYTHON="$ort_python"
elapsed "plain build"
(cd build && ctest --output-on-failure -j "$(nproc)" -LE exhaustive)
elapsed "plain tests"
(cd build && ctest --output-on-failure -V -L exhaustive) # the correctly rounded functions on every 1021st float
# A shared libwherec (BUILD_SHARED_LIBS): every target links, each library naming what it
# uses itself (the static build lends libm and the rest through libwherec.a); of its tests
# the runtime's and the generator's unit tests, and the imported models and numpy's
# cases through `wherec run` (kernels dlopened into a wherec that links libwherec.so).
wherec_build build-shared -DBUILD_SHARED_LIBS=ON -DWHEREC_BUILD_BENCH=OFF -DWHEREC_ONNX_NODE_TESTS=OFF \
             -DWHEREC_ORT_PYTHON="$ort_python"
(cd build-shared && ctest --output-on-failure -j "$(nproc)" -R '^(test_|onnx_model_|run_)')
elapsed "shared build"
# (bench/ is measured, not checked, under the sanitizers: its smoke tests ran above)
# (and ONNX's node tests, label onnx_node, are not run there: their data is not generated)
wherec_build build-asan -DWHEREC_SANITIZE=ON -DWHEREC_BUILD_BENCH=OFF -DCMAKE_C_COMPILER=clang \
             -DWHEREC_ONNX_NODE_TESTS=OFF -DWHEREC_ORT_PYTHON="$ort_python"
elapsed "sanitizer build"
# Under the sanitizers, what exercises the tool and the runtime's own code: ONNX's node
# tests, the package builds and the -O3 builds of generated code (compiled without the
# sanitizers) already ran in the plain pass above; of the crmath spec's builds (its
# reference's pow is the slowest under ASan, a minute) clang -O0 runs here too. The
# comparison of imported opsets with onnxruntime (80 s under ASan) ran above; the
# importer's code runs here under its fuzz target and the import tests. Left out too: the
# golden source's compiles with each compiler and flags (no sanitized code runs in them)
# and a spec's second compiler where it has two (coords, operators, exp, consts,
# onnx_where: the other runs the same harness and reference under the sanitizers).
(cd build-asan && ctest --output-on-failure -j "$(nproc)" -LE 'onnx_node|package' \
                        -E '_O3_native|crmath_matches_reference_gcc_O2|onnx_opsets_match_onnxruntime|golden_source_is_warning_free|golden_source_compiles_after|coords_match_reference_clang_O2|operators_match_reference_clang_O0|exp_matches_reference_gcc_O2|consts_match_reference_clang|example_onnx_where_matches_reference_clang')
elapsed "sanitizer tests"
# Only what the parallel tests need. The adapter tests (label parallel_adapter) stay out:
# libgomp and libpthreadpool are not instrumented, so TSan cannot see their synchronization.
# shellcheck disable=SC2046 # the generator arguments are words or nothing
cmake -S . -B build-tsan $(wherec_generator build-tsan) -DCMAKE_BUILD_TYPE=Release \
      -DWHEREC_SANITIZE=thread -DWHEREC_FUZZ=OFF -DCMAKE_C_COMPILER=clang >/dev/null
cmake --build build-tsan -j "$(nproc)" --target test_parallel wherec
(cd build-tsan && ctest --output-on-failure -j "$(nproc)" -L '^parallel$')
echo "test.sh: all suites passed in $((SECONDS - start)) s"
