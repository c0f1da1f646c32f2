#!/usr/bin/env bash
# bench/run.sh: builds wherec (Release) and runs the whole benchmark, C, numpy and the
# peers (numexpr, onnxruntime, jax), in one go: prints the table and writes
# bench/results.csv and bench/results.svg. From anywhere.
# WHEREC_BENCH_PEERS=0: no venv for the peers is made (the table then says they are missing).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
wherec_install_deps                        # only what is missing (python3-numpy among them)
build=${WHEREC_BENCH_BUILD:-build}
wherec_build "$build"
if [ "${WHEREC_BENCH_PEERS:-1}" != 0 ]; then
  bench/peers-venv.sh "$build/bench-venv" ||
    echo "bench/run.sh: the peers could not be installed (offline?); the table will say so" >&2
fi
cmake --build "$build" --target bench
[ "${WHEREC_BENCH_PYTHON_ROWS:-1}" = 0 ] || bench/python.sh "$build" || echo "bench/run.sh: the Python rows failed (bench/python.sh)" >&2
