"""The C short forms with Python numbers and the literal form (tests/diff/numbers_gen.c, built as
$CTORCH_BUILD/tests/numbers_gen) against torch 1.13: each `>>> line` it prints runs in torch and must give
what ctorch printed below it, as the tour is checked (tour_diff.py).

  CTORCH_BUILD=build /usr/bin/python3 tests/diff/numbers_diff.py"""
import os
import sys

import tour_diff

if __name__ == "__main__":
    sys.exit(tour_diff.main(os.path.join(tour_diff.BUILD, "tests", "numbers_gen"), "numbers"))
