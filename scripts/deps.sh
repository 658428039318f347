#!/usr/bin/env bash
# Makes sure the Debian packages the build and the tests need are installed.
# As root it installs what is missing with apt-get; otherwise it names the missing packages and fails.
set -euo pipefail
# clang-14, libclang-rt-14-dev (libFuzzer and the sanitizer runtimes) and libomp-14-dev (OpenMP for clang):
# the fuzz target of `make check` (tests/fuzz).
needed=(gcc g++ make cmake pkg-config libsleef-dev python3 python3-numpy python3-torch
        clang-14 libclang-rt-14-dev libomp-14-dev)
missing=()
for p in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "deps: missing Debian packages: ${missing[*]}" >&2
  echo "deps: install them with: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
