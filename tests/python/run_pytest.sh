#!/usr/bin/env bash
# tests/python/run_pytest.sh: the Python package's test, as a new user would meet it: a venv
# under the build tree, the package built from the source tree by pip (scikit-build-core
# builds the CMake project, incrementally in a build directory kept beside the venv) and
# installed, then pytest on tests/python. Exit 77 (ctest: skipped) when the package index
# cannot be reached.
# usage: run_pytest.sh PYTHON SOURCE_DIR WORK_DIR [pytest args...]
# WHEREC_PACKAGE_CC (ctest sets it to the build tree's compiler): the package's C compiler,
# so that under a compiler cache (test.sh's ccache) the package's compiles find the plain
# build's objects instead of compiling the same sources again.
set -uo pipefail
python=$1 src=$2 work=$3
shift 3
venv=$work/venv
mkdir -p "$work"
build_args=(--config-settings=build-dir="$work/wheel-build")
[ -n "${WHEREC_PACKAGE_CC:-}" ] &&
  build_args+=(--config-settings=cmake.define.CMAKE_C_COMPILER="$WHEREC_PACKAGE_CC")

skip() { echo "python tests skipped: $*"; exit 77; }

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv" >"$work/venv.log" 2>&1 ||
    skip "'$python -m venv' failed (on Debian: apt-get install python3-venv): $(tail -1 "$work/venv.log")"
fi
vpy=$venv/bin/python
pip=("$vpy" -m pip --disable-pip-version-check)

# The test's own dependencies; when pip cannot fetch them, find out whether the index is
# reachable at all (then skip) or something else failed (then fail).
if ! "${pip[@]}" install -q pytest hypothesis ml-dtypes numpy cffi onnx "onnxruntime>=1.23" >"$work/deps.log" 2>&1; then
  tmp=$(mktemp -d)
  if ! "${pip[@]}" download -q --no-deps --no-cache-dir --timeout 20 -d "$tmp" pip >/dev/null 2>&1; then
    rm -rf "$tmp"
    skip "the package index cannot be reached (pip install pytest hypothesis ml-dtypes numpy cffi onnx onnxruntime failed; see $work/deps.log)"
  fi
  rm -rf "$tmp"
  cat "$work/deps.log"
  echo "run_pytest.sh: installing the test dependencies failed" >&2
  exit 1
fi

# The package built once, by pip through scikit-build-core as `pip install SOURCE_DIR` builds
# it, into a wheel that both venvs below install.
start=$SECONDS
rm -rf "$work/dist"
if ! "${pip[@]}" wheel --no-deps -w "$work/dist" "${build_args[@]}" "$src" >"$work/install.log" 2>&1 ||
   ! "${pip[@]}" install --force-reinstall --no-deps "$work"/dist/wherec-*.whl >>"$work/install.log" 2>&1; then
  cat "$work/install.log"
  echo "run_pytest.sh: building and installing the package from $src failed" >&2
  exit 1
fi
echo "run_pytest.sh: pip wheel and install of the package took $((SECONDS - start)) s"

# Kernels compiled by the tests go to a cache of their own (the tests of the cache make
# fresh ones); pytest's, hypothesis's and Python's caches stay out of the source tree.
export WHEREC_CACHE_DIR=$work/kernel-cache
export HYPOTHESIS_STORAGE_DIRECTORY=$work/hypothesis PYTHONDONTWRITEBYTECODE=1
cd "$src/tests/python" || exit 1
"$vpy" -m pytest -p no:cacheprovider -q "$@" . || exit 1

# The execution provider in the oldest onnxruntime with plugin providers, 1.23: a second
# venv, the same wheel installed, its tests.
old=$work/venv-ort123
[ -x "$old/bin/python" ] || "$python" -m venv "$old" >"$work/venv-ort123.log" 2>&1 ||
  { echo "run_pytest.sh: no venv for onnxruntime 1.23: $(tail -1 "$work/venv-ort123.log")" >&2; exit 1; }
opip=("$old/bin/python" -m pip --disable-pip-version-check)
"${opip[@]}" install -q pytest hypothesis ml-dtypes numpy cffi onnx "onnxruntime==1.23.2" >"$work/deps-ort123.log" 2>&1 ||
  { cat "$work/deps-ort123.log"; echo "run_pytest.sh: onnxruntime 1.23.2 did not install" >&2; exit 1; }
"${opip[@]}" install -q --force-reinstall --no-deps "$work"/dist/wherec-*.whl \
  >"$work/install-ort123.log" 2>&1 || { cat "$work/install-ort123.log"; exit 1; }
# The same kernel cache as the first pass: a model's kernels do not depend on the onnxruntime
# that loads them (the key is the model, the compiler and this wherec), so this pass tests the
# provider under 1.23, not the import and compile of every model a second time.
exec "$old/bin/python" -m pytest -p no:cacheprovider -q test_onnxruntime.py
