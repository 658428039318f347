#!/bin/sh
# clang builds: every SLEEF vector function the library calls goes through its trampoline
# (src/kernels/cpu/sleef_clang_abi.h); a direct reference from any other object would read garbage lanes.
lib="$1"
bad=$(nm -A "$lib" 2>/dev/null | grep -v 'sleef_clang_abi\.c\.o' | grep -E ' U Sleef_[a-z0-9]*(f|d)(4|8|16)_' \
  | sed 's/.* U //' | sort -u)
if [ -n "$bad" ]; then
  echo "SLEEF vector functions called without a trampoline (add them to CT_SLEEF_ABI_LIST):"
  echo "$bad"
  exit 1
fi
echo "clang_sleef_abi: every SLEEF vector call goes through a trampoline"
