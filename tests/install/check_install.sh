#!/usr/bin/env bash
# `make install` gives a usable package. Installs the built library with `make install PREFIX=...` into a
# temporary prefix (and once more with DESTDIR), then builds and runs consumers as a user would:
#   - pkg-config ctorch (the .so), run without LD_LIBRARY_PATH: the .pc's rpath finds the library;
#   - pkg-config ctorch-static: libctorch.a linked, no libctorch.so needed at run time;
#   - pkg-config --static ctorch: Libs.private lists what libctorch.a needs;
#   - CMake find_package(ctorch) from a C project (ctorch::ctorch_static) and from a C++-only project
#     (ctorch::ctorch; the package must not need OpenMP or a C compiler there).
# Run from the repository root: tests/install/check_install.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: check_install.sh BUILD_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
passed=0
pass() { echo "install: $1 ok"; passed=$((passed + 1)); }
fail() { echo "install: FAILED: $1" >&2; exit 1; }

make -s --no-print-directory install BUILD="$build" PREFIX="$prefix" >/dev/null
pc=$(find "$prefix" -name ctorch.pc)
[ -n "$pc" ] && [ -f "$(dirname "$pc")/ctorch-static.pc" ] || fail "make install PREFIX=$prefix wrote no .pc files"
libdir=$(dirname "$(dirname "$pc")")
[ -f "$libdir/libctorch.so" ] && [ -f "$libdir/libctorch.a" ] && [ -f "$prefix/include/ctorch.h" ] ||
  fail "make install PREFIX=$prefix: library or headers missing"
pass "make install PREFIX"

# DESTDIR: everything under the staging dir, the .pc written for the final prefix (an rpath to it).
make -s --no-print-directory install BUILD="$build" PREFIX=/opt/ctorch-check DESTDIR="$work/stage" >/dev/null
[ -f "$work/stage/opt/ctorch-check/include/ctorch.h" ] && [ ! -e /opt/ctorch-check ] ||
  fail "make install DESTDIR=$work/stage PREFIX=/opt/ctorch-check"
grep -q -- '-Wl,-rpath,${libdir}' "$(find "$work/stage" -name ctorch.pc)" || fail "no rpath in the .pc for /opt"
pass "make install DESTDIR"

cat >"$work/consumer.c" <<'C'
#include <ctorch.h>
#include <stdio.h>
int main(void) {
  ct_tensor *t = ct_ones(CT_SHAPE(2, 3), NULL);
  ct_tensor *u = ct_exp(t); /* a SLEEF kernel */
  ct_tensor *s = ct_sum(u, NULL);
  double v = 0;
  int ok = s && ct_item_double(s, &v) == CT_OK && v > 16.30 && v < 16.31; /* 6 e = 16.3097 */
  ct_release(s);
  ct_release(u);
  ct_release(t);
  puts(ok ? "consumer ok" : "consumer FAILED");
  return !ok;
}
C
export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc_() { cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$work/consumer.c" -o "$@"; }

# The shared library, found at run time through the .pc's rpath (no LD_LIBRARY_PATH).
# shellcheck disable=SC2046
cc_ "$work/consumer_pc" $(pkg-config --cflags --libs ctorch)
env -u LD_LIBRARY_PATH "$work/consumer_pc" >/dev/null || fail "pkg-config ctorch: the program does not run"
readelf -d "$work/consumer_pc" | grep -q 'NEEDED.*libctorch\.so' || fail "pkg-config ctorch: libctorch.so not linked"
pass "pkg-config ctorch (rpath)"

# The archive: the program must not need libctorch.so.
# shellcheck disable=SC2046
cc_ "$work/consumer_static" $(pkg-config --cflags --libs ctorch-static)
! readelf -d "$work/consumer_static" | grep -q 'NEEDED.*libctorch' || fail "ctorch-static links libctorch.so"
"$work/consumer_static" >/dev/null || fail "pkg-config ctorch-static: the program does not run"
pass "pkg-config ctorch-static"

# pkg-config --static ctorch: -lctorch with Libs.private; forced onto the archive, it links.
private=$(pkg-config --static --libs-only-l ctorch | sed 's/-lctorch//')
for l in -lsleef -lm; do case " $private " in *" $l "*) ;; *) fail "Libs.private lacks $l: $private" ;; esac; done
# shellcheck disable=SC2046,SC2086
cc_ "$work/consumer_private" $(pkg-config --cflags ctorch) -L"$libdir" -Wl,-Bstatic -lctorch -Wl,-Bdynamic $private \
  $(pkg-config --static --libs-only-other ctorch)
"$work/consumer_private" >/dev/null || fail "libctorch.a with Libs.private: the program does not run"
pass "pkg-config --static ctorch (Libs.private)"

# CMake, C project, the static target.
mkdir -p "$work/cmake_c"
cat >"$work/cmake_c/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.18)
project(consumer C)
find_package(ctorch REQUIRED)
add_executable(consumer ../consumer.c)
target_link_libraries(consumer PRIVATE ctorch::ctorch_static)
CM
cmake -S "$work/cmake_c" -B "$work/cmake_c/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake_c/build" >/dev/null
"$work/cmake_c/build/consumer" >/dev/null || fail "CMake C consumer"
pass "CMake C project, ctorch::ctorch_static"

# CMake, C++-only project (no C compiler enabled), the shared target.
mkdir -p "$work/cmake_cxx"
cat >"$work/cmake_cxx/consumer.cpp" <<'CPP'
#include <ctorch.h>
#include <cstdio>
int main() {
  const int64_t dims[] = {2, 3};
  ct_tensor *t = ct_ones(ct_shape{dims, 2}, nullptr);
  bool ok = t && ct_numel(t) == 6;
  ct_release(t);
  std::puts(ok ? "consumer ok" : "consumer FAILED");
  return ok ? 0 : 1;
}
CPP
cat >"$work/cmake_cxx/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.18)
project(consumer CXX)
find_package(ctorch REQUIRED)
add_executable(consumer consumer.cpp)
target_link_libraries(consumer PRIVATE ctorch::ctorch)
CM
cmake -S "$work/cmake_cxx" -B "$work/cmake_cxx/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake_cxx/build" >/dev/null
"$work/cmake_cxx/build/consumer" >/dev/null || fail "CMake C++ consumer"
pass "CMake C++-only project, ctorch::ctorch"
echo "install: $passed passed, 0 failed"
