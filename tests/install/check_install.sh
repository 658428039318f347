#!/usr/bin/env bash
# Installs the built library into a temporary prefix and builds a consumer two ways: with pkg-config,
# and with CMake's find_package(ctorch). Proves `make install` gives a usable package.
set -euo pipefail
build=${1:?usage: check_install.sh BUILD_DIR}
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
cat >"$prefix/consumer.c" <<'C'
#include <ctorch.h>
#include <stdio.h>
int main(void) {
  ct_tensor *t = ct_zeros(CT_SHAPE(2, 3), NULL);
  int ok = t && ct_numel(t) == 6;
  ct_release(t);
  puts(ok ? "consumer ok" : "consumer FAILED");
  return !ok;
}
C
# pkg-config, shared library
PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib/x86_64-linux-gnu/pkgconfig" \
  sh -c 'cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$0/consumer.c" -o "$0/consumer_pc" $(pkg-config --cflags --libs ctorch)' "$prefix"
libdir=$(dirname "$(find "$prefix" -name 'libctorch.so' | head -n1)")
LD_LIBRARY_PATH="$libdir" "$prefix/consumer_pc"
# CMake package
mkdir -p "$prefix/cmake_consumer"
cat >"$prefix/cmake_consumer/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.18)
project(consumer C)
find_package(ctorch REQUIRED)
add_executable(consumer ../consumer.c)
target_link_libraries(consumer PRIVATE ctorch::ctorch_static)
CM
cmake -S "$prefix/cmake_consumer" -B "$prefix/cmake_consumer/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/cmake_consumer/build" >/dev/null
"$prefix/cmake_consumer/build/consumer"
echo "install: 2 passed, 0 failed"
