#!/usr/bin/env bash
# bench/python.sh: the Python rows of the benchmark. The package installed from the tree
# (`pip install .`, its CMake build kept in BUILD/bench-python/wheel-build, so a second run
# rebuilds only what changed) into a venv of its own, BUILD/bench-python/venv, with numpy
# and numexpr from PyPI; then python/bench/bench_python.py: per call, the Python layer
# against numpy and numexpr on the same arrays, at 4, 1K, 64K and 16M elements, in one run.
# usage: bench/python.sh [BUILD [bench_python.py args...]]   (BUILD: default build)
# e.g.   bench/python.sh build --threads 2
# Prints the machine's load before and after (the large sizes move with it). From anywhere.
# The venv's Python: $WHEREC_BENCH_BASE_PYTHON, else python3 (its development files give
# the package its C call path; without them calls take cffi's, slower).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
mkdir -p "$build/bench-python"
work=$(cd "$build/bench-python" && pwd)
if [ ! -x "$work/venv/bin/python" ]; then
  "${WHEREC_BENCH_BASE_PYTHON:-python3}" -m venv "$work/venv"
fi
py=$work/venv/bin/python
pip=("$py" -m pip --disable-pip-version-check -q)
if ! "${pip[@]}" install numpy cffi numexpr >"$work/deps.log" 2>&1; then
  cat "$work/deps.log" >&2
  echo "bench/python.sh: pip install numpy cffi numexpr failed (offline?)" >&2
  exit 1
fi
start=$SECONDS
if ! "${pip[@]}" install --force-reinstall --no-deps \
     --config-settings=build-dir="$work/wheel-build" . >"$work/install.log" 2>&1; then
  tail -30 "$work/install.log" >&2
  echo "bench/python.sh: pip install . failed; see $work/install.log" >&2
  exit 1
fi
echo "bench/python.sh: pip install . took $((SECONDS - start)) s"
"$py" -c 'import numpy, numexpr, cffi, platform, importlib.util
path = "C extension" if importlib.util.find_spec("wherec._fast") else "cffi only"
print(f"python {platform.python_version()}, numpy {numpy.__version__}, numexpr {numexpr.__version__}, "
      f"cffi {cffi.__version__}; call path: {path}")'
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
"$py" python/bench/bench_python.py "$@"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
