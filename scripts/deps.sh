#!/usr/bin/env bash
# scripts/deps.sh: installs the Debian packages wherec needs, only those missing.
# Sourced by run.sh and test.sh; needs root (or sudo) on a fresh machine.
set -euo pipefail

WHEREC_PACKAGES=(cmake make gcc clang pkg-config re2c liblua5.4-dev libcmocka-dev
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

# wherec_build DIR [cmake args...]: configure and build into DIR.
wherec_build() {
  local dir=$1; shift
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j "$(nproc)"
}
