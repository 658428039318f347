#!/bin/sh
# The compile-fail test (run by ctest): every case of misuse.c must fail to compile, with a compiler error
# from the argument checks (a _Generic association or a macro's arguments, not some other mistake), and
# control.c plus misuse.c without a case must compile cleanly, with each compiler: gcc and clang (clang-14
# where `clang` is not installed; `make check` installs it). Plain -std=c11, no -Werror, for the misuses:
# a mistake must be an error with a user's default flags.
# Usage: run.sh INCLUDE_DIR [COMPILER...]
set -u
inc=$1
shift
here=$(dirname "$0")
compilers=${*:-gcc clang}
cases=$(sed -n 's/^#elif defined(CASE_\([a-z_]*\)).*/\1/p; s/^#if defined(CASE_\([a-z_]*\)).*/\1/p' "$here/misuse.c" | grep -v '^none$')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ran=0
for cc in $compilers; do
  if ! command -v "$cc" >/dev/null 2>&1; then
    if [ "$cc" = clang ] && command -v clang-14 >/dev/null 2>&1; then cc=clang-14; else
      echo "compile_fail: $cc is not installed"; fail=1; continue; fi
  fi
  ran=$((ran + 1))
  strict="-std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I$inc"
  for f in control.c misuse.c; do
    if ! $cc $strict -DCASE_none "$here/$f" 2>"$tmp/err"; then
      echo "FAIL [$cc] $f must compile cleanly:"; cat "$tmp/err"; fail=1
    fi
  done
  n=0
  for c in $cases; do
    n=$((n + 1))
    if $cc -std=c11 -fsyntax-only -I"$inc" -DCASE_"$c" "$here/misuse.c" 2>"$tmp/err"; then
      echo "FAIL [$cc] $c compiles"; fail=1
    elif ! grep -qiE "generic|macro" "$tmp/err"; then
      echo "FAIL [$cc] $c fails for another reason:"; cat "$tmp/err"; fail=1
    fi
  done
  echo "compile_fail [$cc]: $n misuses refused, control compiled"
done
[ "$ran" -gt 0 ] || fail=1
exit $fail
