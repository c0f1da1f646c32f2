#!/usr/bin/env bash
# scripts/deps.sh: installs the Debian packages wherec needs, only those missing.
# Sourced by run.sh and test.sh; needs root (or sudo) on a fresh machine.
set -euo pipefail

WHEREC_PACKAGES=(cmake make gcc clang pkg-config re2c liblua5.4-dev libcmocka-dev
                 ninja-build ccache               # test.sh's builds: generator and compiler cache
                 libclang-rt-14-dev python3 python3-numpy python3-onnx valgrind
                 libomp-dev libpthreadpool-dev    # the parallel adapters' tests
                 libmpfr-dev                      # pow's random pairs against MPFR, crmath_hardest
                 python3-mpmath                   # crmath_tables.py: the functions' tables
                 gcc-aarch64-linux-gnu gcc-s390x-linux-gnu gcc-riscv64-linux-gnu qemu-user
                 libc6-dev-arm64-cross libc6-dev-s390x-cross libc6-dev-riscv64-cross) # tests/cross

wherec_install_deps() {
  local missing=()
  for p in "${WHEREC_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# wherec_generator DIR: the cmake generator arguments for DIR: Ninja for a new build
# directory when ninja is installed (it compiles a target's objects while the libraries it
# links are still compiling, so interp.c's long compile does not hold the other core idle);
# an existing directory keeps the generator it was made with.
wherec_generator() {
  [ ! -f "$1/CMakeCache.txt" ] && command -v ninja >/dev/null && echo "-G Ninja"
  return 0
}

# wherec_build DIR [cmake args...]: configure and build into DIR.
wherec_build() {
  local dir=$1; shift
  # shellcheck disable=SC2046 # the generator arguments are words or nothing
  cmake -S . -B "$dir" $(wherec_generator "$dir") -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$(nproc)"
}
