"""Differential tests of ctorch against PyTorch 1.13.

  CTORCH_LIB=build/libctorch.so /usr/bin/python3 tests/diff/run.py [--seed S] [--cases N]
      [--op NAME ...] [--only K] [--show N] [--strict]

The seed is printed first; `--seed S --op NAME --only K` replays one failing case. Functions the
library does not export yet are reported as skipped (failures with --strict). The last line is
`diff: N passed, M failed`; the exit status is non-zero on any failure.
"""
import argparse
import collections
import os
import random
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import ctorch as C  # noqa: E402
import harness as H  # noqa: E402
import ops_convert  # noqa: E402
import ops_create  # noqa: E402
import ops_query  # noqa: E402
import ops_view  # noqa: E402

TABLES = [ops_view.OPS, ops_create.OPS, ops_convert.OPS, ops_query.OPS]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: random, printed)")
    ap.add_argument("--cases", type=int, default=5000, help="total case budget, split by op weight")
    ap.add_argument("--op", action="append", default=[], help="run only these ops (repeatable)")
    ap.add_argument("--only", type=int, default=None, help="run only case K of each selected op")
    ap.add_argument("--show", type=int, default=3, help="failures printed per op")
    ap.add_argument("--strict", action="store_true", help="count functions missing from the library as failures")
    args = ap.parse_args()

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print("seed: %d" % seed, flush=True)
    try:
        C.lib()
    except OSError as e:
        print("cannot load the library: %s" % e)
        print("diff: 0 passed, 1 failed")
        return 2
    print("library: %s" % C.lib().path)
    warnings.filterwarnings("ignore")
    torch.set_num_threads(1)

    ops = [op for table in TABLES for op in table]
    names = [op.name for op in ops]
    dup = [n for n, k in collections.Counter(names).items() if k > 1]
    if dup:
        sys.exit("duplicate op names in the tables: %s" % dup)
    if args.op:
        unknown = set(args.op) - set(names)
        if unknown:
            sys.exit("unknown op(s): %s" % ", ".join(sorted(unknown)))
        ops = [op for op in ops if op.name in args.op]
    total_weight = sum(op.weight for op in ops)

    t0 = time.time()
    passed = failed = skipped = 0
    missing = collections.Counter()
    for op in ops:
        n = H.case_count(op, args.cases, total_weight)
        indices = [args.only] if args.only is not None else range(n)
        counts = collections.Counter()
        shown = 0
        null_done = False  # the NULL-argument check runs once per op, on its first successful call
        t_op = time.time()
        for k in indices:
            r = H.run_case(op, seed, k, do_null_check=not null_done)
            null_done = null_done or r.null_checked
            if r.status == H.Result.SKIP:
                if args.strict:
                    r = H.Result(H.Result.FAIL, ["missing from the library: %s" % r.missing], op.name)
                else:
                    counts["skip"] += 1
                    missing[r.missing] += 1
                    continue
            counts[r.status] += 1
            if r.status == H.Result.FAIL and shown < args.show:
                shown += 1
                print("FAIL %s  [replay: --seed %d --op %s --only %d]" % (r.desc, seed, op.name, k))
                for line in r.lines:
                    print("    " + line)
        passed += counts["pass"]
        failed += counts["fail"]
        skipped += counts["skip"]
        print("  %-22s %5d passed %5d failed %5d skipped  %5.2fs" % (
            op.name, counts["pass"], counts["fail"], counts["skip"], time.time() - t_op), flush=True)
    if missing:
        print("skipped %d cases: not in the library yet: %s" % (
            skipped, ", ".join("%s (%d)" % (m, k) for m, k in sorted(missing.items()))))
    print("time: %.1fs" % (time.time() - t0))
    print("diff: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
