# The README's two commands: `make run` (build and run the tour) and `make check` (build and run every test).
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
# `make check`'s fuzz run: FUZZ_RUNS inputs past the corpus (about a minute), at most FUZZ_TIME seconds.
FUZZ_RUNS  ?= 40000
FUZZ_TIME  ?= 150
FUZZ_SEED  ?= 1
JOBS       ?= $(shell nproc)
PYTHON     ?= /usr/bin/python3

.PHONY: all deps build asan run check unit asan-check diff diff-alias-asan install-check fuzz-build fuzz fuzz-replay \
  docs bench install clean

all: build

deps:
	@scripts/deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCT_SANITIZE=ON >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

run: build
	@./$(BUILD)/examples/tour

unit: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

asan-check: asan
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

# The differential suites against PyTorch 1.13: each prints its seed, so a failure can be replayed.
DIFF_SUITES := $(wildcard tests/diff/run.py tests/diff/print_diff.py tests/diff/random_diff.py tests/diff/tour_diff.py \
  tests/diff/numbers_diff.py)
diff: build
	@set -e; for s in $(DIFF_SUITES); do \
	  CTORCH_LIB=$(BUILD)/libctorch.so CTORCH_BUILD=$(BUILD) $(PYTHON) $$s; done
	@$(PYTHON) scripts/gen_meta_messages.py | cmp -s - src/ops/meta_messages.c || { echo "src/ops/meta_messages.c \
	  differs from torch's messages: run $(PYTHON) scripts/gen_meta_messages.py > src/ops/meta_messages.c"; exit 1; }

# The out=-aliasing differential table (tests/diff/ops_alias.py) against the ASan + UBSan library: an out=
# tensor that is, or overlaps, an input must never make ctorch read freed or reallocated memory. Python is
# not instrumented, so the ASan runtime is preloaded (with libstdc++, whose __cxa_throw ASan intercepts:
# torch throws its errors as C++ exceptions); Python's own leaks are not ctorch's.
diff-alias-asan: asan
	@ops=$$(cd tests/diff && $(PYTHON) -c 'import ops_alias; print(" ".join("--op " + o.name for o in ops_alias.OPS))') && \
	  LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libstdc++.so)" \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  CTORCH_LIB=$(ASAN_BUILD)/libctorch.so CTORCH_BUILD=$(ASAN_BUILD) $(PYTHON) tests/diff/run.py $$ops --cases 1200

install-check: build
	@tests/install/check_install.sh $(BUILD)

# The libFuzzer target over the public API (tests/fuzz/README.md), clang 14 with ASan + UBSan: a bounded run
# from the committed corpus; new inputs go to $(FUZZ_BUILD)/corpus, a failing input to $(FUZZ_BUILD)/crash-*.
# allocator_may_return_null: a huge metadata request fails as it does without ASan (out of memory).
FUZZ_ENV := ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=1024 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fuzz-build: deps
	@if [ -f $(FUZZ_BUILD)/CMakeCache.txt ]; then cmake -S . -B $(FUZZ_BUILD) >/dev/null; else \
	  CC=clang-14 CXX=clang++-14 cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCT_FUZZ=ON >/dev/null; fi
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

# The generated API reference (docs/api/pointwise.md), rewritten from the op table and the ops' descriptors,
# and the C macros of the table's ops (include/ctorch/pointwise_args.h); `make check` fails when either
# committed file is out of date.
docs: build
	@./$(BUILD)/scripts/pointwise_doc > docs/api/pointwise.md.tmp && mv docs/api/pointwise.md.tmp docs/api/pointwise.md
	@./$(BUILD)/scripts/pointwise_args > include/ctorch/pointwise_args.h.tmp && \
	  mv include/ctorch/pointwise_args.h.tmp include/ctorch/pointwise_args.h

bench: build
	@CTORCH_LIB=$(BUILD)/libctorch.so $(PYTHON) bench/run.py

install: build
	@cmake --install $(BUILD)

clean:
	@rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)

# ---- issue 15: the usage programs against the installed library (tests/usage), part of `make check` ----
include tests/usage/usage.mk
