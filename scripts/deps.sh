#!/usr/bin/env bash
# Makes sure the Debian packages that a purpose needs are installed:
#   scripts/deps.sh build   the library, `make run`, `make install`: a C compiler, make, CMake, pkg-config,
#                           SLEEF and OpenBLAS's OpenMP build (its libgomp is loaded at run time)
#   scripts/deps.sh check   `make check`: the above, g++ (the C++ header test), Python 3 with PyTorch 1.13 and
#                           numpy (the differential suites), clang-14 with its sanitizer/libFuzzer runtimes and
#                           libomp (the fuzz target)
#   scripts/deps.sh bench   `make bench`: the build's, Python 3 with PyTorch and numpy, g++ and libtorch-dev
#                           (the C++ side of the core benchmark)
# As root it installs what is missing with apt-get; otherwise it names the missing packages and fails.
set -euo pipefail
purpose=${1:-build}
# libc6-dev: gcc only recommends it, and the install below skips recommendations.
# libopenblas0-openmp: the BLAS/LAPACK the products load at run time (src/kernels/cpu/blas.h: by dlopen, so
# nothing is linked and no header is needed; its libgomp, loaded by src/core/omp_runtime.c, comes with it).
# libdnnl-dev: oneDNN's header for the bfloat16 products torch 1.13 sends to oneDNN on AVX-512 CPUs
# (src/kernels/cpu/dnnl.h; libdnnl.so.2 is loaded at run time, as OpenBLAS is).
build=(gcc libc6-dev make cmake pkg-config libsleef-dev libopenblas0-openmp libdnnl-dev)
case "$purpose" in
  build) needed=("${build[@]}") ;;
  check) needed=("${build[@]}" g++ python3 python3-numpy python3-torch clang-14 libclang-rt-14-dev libomp-14-dev) ;;
  bench) needed=("${build[@]}" g++ python3 python3-numpy python3-torch libtorch-dev) ;;
  *) echo "usage: scripts/deps.sh [build|check|bench]" >&2; exit 2 ;;
esac
missing=()
for p in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "deps ($purpose): installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "deps ($purpose): missing Debian packages: ${missing[*]}" >&2
  echo "deps ($purpose): install them with: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
