#!/usr/bin/env bash
# bench/run.sh: builds wherec (Release) and runs the whole benchmark, C and numpy, in one
# go: prints the table and writes bench/results.csv and bench/results.svg. From anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
wherec_install_deps                        # only what is missing (python3-numpy among them)
build=${WHEREC_BENCH_BUILD:-build}
wherec_build "$build"
cmake --build "$build" --target bench
