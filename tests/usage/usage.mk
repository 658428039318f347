# tests/usage (issue 15): the k-means, standardise, softmax and EMA programs in C and C++, built against
# the installed library through pkg-config and through CMake's find_package, and compared with torch 1.13.
# Included from the Makefile; part of `make check`.
.PHONY: usage-check
usage-check: build
	@$(PYTHON) tests/usage/run_usage.py $(BUILD)

check: usage-check
