# The README's two commands: `make run` (build and run the tour) and `make check` (build and run every test).
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
NOCOMPAT_BUILD ?= build-nocompat
CLANG_BUILD ?= build-clang
# `make check`'s fuzz run: FUZZ_RUNS inputs past the corpus (about a minute), at most FUZZ_TIME seconds.
FUZZ_RUNS  ?= 40000
FUZZ_TIME  ?= 150
FUZZ_SEED  ?= 1
JOBS       ?= $(shell nproc)
PYTHON     ?= /usr/bin/python3
# `make install PREFIX=/opt/ctorch` (default: CMake's, /usr/local); DESTDIR=/stage is honoured as well.
PREFIX     ?=
# The configure lines: the user's (`make run`, `make install`: warnings are not errors, a newer compiler's new
# warning must not stop the build) and the developer's (`make check` and the targets it runs, CI: -Werror).
# Once a build dir has run the developer's line, it keeps -Werror (a plain `cmake -S . -B` keeps the cache).
CONFIGURE     = cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
CONFIGURE_DEV = cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCT_WERROR=ON >/dev/null

.PHONY: all deps build asan run check unit asan-check diff diff-explore diff-alias-asan install-check fuzz-build fuzz fuzz-replay \
  docs bench install clean deps-check deps-bench build-dev tests format-check check-nocompat check-clang

all: build

# scripts/deps.sh build|check|bench: the Debian packages each purpose needs (the library and `make run`: a C
# compiler, make, CMake, pkg-config and SLEEF; the tests add g++, Python with torch and numpy, clang-14).
deps:
	@scripts/deps.sh build

deps-check:
	@scripts/deps.sh check

deps-bench:
	@scripts/deps.sh bench

# The default target: the library (.so and .a) and the tour, nothing else.
build: deps
	@if [ -f $(BUILD)/CMakeCache.txt ]; then cmake -S . -B $(BUILD) >/dev/null; else $(CONFIGURE); fi
	@cmake --build $(BUILD) -j $(JOBS)

# The same build dir configured as a developer's (-Werror), with the test programs (the `tests` target).
build-dev: deps-check
	@$(CONFIGURE_DEV)
	@cmake --build $(BUILD) -j $(JOBS)

tests: build-dev
	@cmake --build $(BUILD) -j $(JOBS) --target tests

asan: deps-check
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCT_SANITIZE=ON -DCT_WERROR=ON >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS) --target all tests

run: build
	@./$(BUILD)/examples/tour

unit: tests
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

asan-check: asan
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

# The differential suites against PyTorch 1.13: each prints its seed, so a failure can be replayed.
# `make check` draws with a fixed seed (DIFF_SEED), so CI runs exactly the cases a developer's `make check`
# ran; `make diff-explore` draws DIFF_ROUNDS fresh seeds (each failure found there is fixed, not skipped).
DIFF_SEED ?= 20261126
DIFF_ROUNDS ?= 4
DIFF_SUITES := $(wildcard tests/diff/run.py tests/diff/print_diff.py tests/diff/random_diff.py tests/diff/tour_diff.py \
  tests/diff/numbers_diff.py tests/diff/threads_diff.py)
diff: tests
	@set -e; for s in $(DIFF_SUITES); do \
	  CTORCH_SEED=$(DIFF_SEED) CTORCH_LIB=$(BUILD)/libctorch.so CTORCH_BUILD=$(BUILD) $(PYTHON) $$s; done
	@$(PYTHON) scripts/gen_meta_messages.py | cmp -s - src/core/meta_messages.c || { echo "src/core/meta_messages.c \
	  differs from torch's messages: run $(PYTHON) scripts/gen_meta_messages.py > src/core/meta_messages.c"; exit 1; }

# The out=-aliasing differential table (tests/diff/ops_alias.py) against the ASan + UBSan library: an out=
# tensor that is, or overlaps, an input must never make ctorch read freed or reallocated memory. Python is
# not instrumented, so the ASan runtime is preloaded (with libstdc++, whose __cxa_throw ASan intercepts:
# torch throws its errors as C++ exceptions); Python's own leaks are not ctorch's.
diff-alias-asan: asan
	@ops=$$(cd tests/diff && $(PYTHON) -c 'import ops_alias; print(" ".join("--op " + o.name for o in ops_alias.OPS))') && \
	  LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libstdc++.so)" \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  CTORCH_SEED=$(DIFF_SEED) CTORCH_LIB=$(ASAN_BUILD)/libctorch.so CTORCH_BUILD=$(ASAN_BUILD) $(PYTHON) \
	  tests/diff/run.py $$ops --cases 1200

diff-explore: tests
	@fail=0; for i in $$(seq $(DIFF_ROUNDS)); do for s in tests/diff/run.py tests/diff/print_diff.py; do \
	  CTORCH_LIB=$(BUILD)/libctorch.so CTORCH_BUILD=$(BUILD) $(PYTHON) $$s || fail=1; done; done; exit $$fail

install-check: build-dev
	@tests/install/check_install.sh $(BUILD)

# The libFuzzer target over the public API (tests/fuzz/README.md), clang 14 with ASan + UBSan: a bounded run
# from the committed corpus; new inputs go to $(FUZZ_BUILD)/corpus, a failing input to $(FUZZ_BUILD)/crash-*.
# allocator_may_return_null: a huge metadata request fails as it does without ASan (out of memory).
FUZZ_ENV := ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=1024 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fuzz-build: deps-check
	@if [ -f $(FUZZ_BUILD)/CMakeCache.txt ]; then cmake -S . -B $(FUZZ_BUILD) >/dev/null; else \
	  CC=clang-14 CXX=clang++-14 cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCT_FUZZ=ON \
	  -DCT_WERROR=ON >/dev/null; fi
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_api

# In `make check` the run is deterministic: a fixed seed, a fixed number of inputs from the committed corpus
# and crash inputs, a fresh work corpus, so that CI runs exactly the inputs a developer's `make check` ran
# (FUZZ_TIME only caps a slow machine, which then runs a prefix of them). A long exploring run:
# `make fuzz FUZZ_RUNS=-1 FUZZ_TIME=3600 FUZZ_SEED=0` (seed 0: a new one each run).
fuzz: fuzz-build
	@rm -rf $(FUZZ_BUILD)/corpus && mkdir -p $(FUZZ_BUILD)/corpus
	@$(FUZZ_ENV) ./$(FUZZ_BUILD)/tests/fuzz_api -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_TIME) -seed=$(FUZZ_SEED) \
	  -timeout=20 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/ \
	  $(FUZZ_BUILD)/corpus tests/fuzz/corpus tests/fuzz/crashes

# Replays the saved crashing inputs (tests/fuzz/crashes) one by one: each ran into a defect that is fixed,
# and stays as a regression input (`make fuzz` starts from them too).
fuzz-replay: fuzz-build
	@fail=0; for f in tests/fuzz/crashes/*; do \
	  if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=1024 ./$(FUZZ_BUILD)/tests/fuzz_api $$f >/dev/null 2>&1; \
	  then echo "clean  $$f"; else echo "FAILS  $$f"; fail=1; fi; done; exit $$fail

check: unit asan-check diff diff-alias-asan install-check fuzz

# The unit tests against a library built without torch's rounding paths (-DCT_TORCH_COMPAT=OFF,
# src/kernels/cpu/torch_compat.h): every element by the scalar formula, one rounding per operation. The
# tests that assert torch's last bits assert the scalar formula's there (tests/unit/compat.h). Not part of
# `make check`: it builds the library a second time (several minutes on two cores). The differential
# suites (`make diff`) compare bits with torch and assume the default build (CT_TORCH_COMPAT=ON).
check-nocompat: deps-check
	@cmake -S . -B $(NOCOMPAT_BUILD) -DCMAKE_BUILD_TYPE=Release -DCT_WERROR=ON -DCT_TORCH_COMPAT=OFF >/dev/null
	@cmake --build $(NOCOMPAT_BUILD) -j $(JOBS) --target all tests
	@ctest --test-dir $(NOCOMPAT_BUILD) --output-on-failure -j $(JOBS)

# The library and every unit test built by clang 14 with -Werror (the build is also GCC's; not part of
# `make check`, which builds with the default compiler).
check-clang: deps-check
	@CC=clang-14 CXX=clang++-14 cmake -S . -B $(CLANG_BUILD) -DCMAKE_BUILD_TYPE=Release -DCT_WERROR=ON >/dev/null
	@cmake --build $(CLANG_BUILD) -j $(JOBS) --target all tests
	@ctest --test-dir $(CLANG_BUILD) --output-on-failure -j $(JOBS)

# The generated API reference (docs/api/pointwise.md), rewritten from the op table and the ops' descriptors,
# and the C macros of the table's ops (include/ctorch/pointwise_args.h); `make check` fails when either
# committed file is out of date.
docs: tests
	@./$(BUILD)/scripts/pointwise_doc > docs/api/pointwise.md.tmp && mv docs/api/pointwise.md.tmp docs/api/pointwise.md
	@./$(BUILD)/scripts/pointwise_args > include/ctorch/pointwise_args.h.tmp && \
	  mv include/ctorch/pointwise_args.h.tmp include/ctorch/pointwise_args.h
	@$(PYTHON) scripts/gen_api_docs.py

bench: build deps-bench
	@cmake --build $(BUILD) -j $(JOBS) --target benches
	@CTORCH_LIB=$(BUILD)/libctorch.so $(PYTHON) bench/run.py

install: build
	@DESTDIR="$(DESTDIR)" cmake --install $(BUILD) $(if $(PREFIX),--prefix "$(PREFIX)")

# clang-format on the lines changed since main (FORMAT_BASE), not on whole files: the sources predate
# .clang-format, and reformatting them would bury every branch's diff. Prints the fixes; fails if any.
# src/core/meta_messages.c is generated (scripts/gen_meta_messages.py; make diff compares it byte for byte).
FORMAT_BASE ?= main
format-check:
	@out=$$(git clang-format-14 --diff --extensions c,h,cpp,hpp $(FORMAT_BASE) -- . ':!src/core/meta_messages.c' 2>&1); \
	  case "$$out" in *"no modified files"*|*"did not modify"*|"") echo "format-check: clean";; \
	  *) echo "$$out"; echo "format-check: run git clang-format-14 $(FORMAT_BASE) to apply"; exit 1;; esac

clean:
	@rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(NOCOMPAT_BUILD) $(CLANG_BUILD)

# ---- issue 15: the usage programs against the installed library (tests/usage), part of `make check` ----
include tests/usage/usage.mk

# ---- issue 15: the per-header API reference (docs/api, scripts/gen_api_docs.py) is in step with the headers,
# and docs/FROM_PYTORCH.md's C lines (tests/usage/from_pytorch.c) compile; part of `make check` ----
.PHONY: docs-check
docs-check: deps-check
	@$(PYTHON) scripts/gen_api_docs.py --check
	@$(CC) -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -Iinclude tests/usage/from_pytorch.c
check: docs-check
