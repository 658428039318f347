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
import signal
import subprocess
import sys
import tempfile
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# torch's OpenBLAS (numpy's too: the first to load libopenblas.so.0 fixes its core) with the core type ctorch
# picks by itself (bench/blas_core.py), kept in the environment for the child processes: the products are
# checked with the kernels a program without torch gets (OpenBLAS alone falls back to Prescott's on AVX-512
# CPUs it does not know, whose bits hide the operand-order and layout differences the fast kernels show)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bench"))
import blas_core  # noqa: E402
if blas_core.CORE:
    os.environ["OPENBLAS_CORETYPE"] = blas_core.CORE

import torch  # noqa: E402

import ctorch as C  # noqa: E402
import coverage  # noqa: E402
import harness as H  # noqa: E402
import ops_alias  # noqa: E402
import ops_basics  # noqa: E402
import ops_convert  # noqa: E402
import ops_create  # noqa: E402
import ops_errors  # noqa: E402
import ops_conj  # noqa: E402
import ops_outgrad  # noqa: E402
import ops_pw_binary  # noqa: E402
import ops_pw_arith  # noqa: E402
import ops_pw_math  # noqa: E402
import ops_pw_compare  # noqa: E402
import ops_pw_elem  # noqa: E402
import ops_gather  # noqa: E402
import ops_matmul  # noqa: E402
import ops_meta  # noqa: E402
import ops_linalg_meta  # noqa: E402  (h6-la)
import ops_meta_core  # noqa: E402  (h7-pwmeta)
import ops_index  # noqa: E402
import ops_join  # noqa: E402
import ops_linalg  # noqa: E402
import ops_linalg_eig  # noqa: E402
import ops_linalg_lu  # noqa: E402
import ops_linalg_norm  # noqa: E402
import ops_linalg_qr  # noqa: E402
import ops_query  # noqa: E402
import ops_reduce  # noqa: E402
import ops_scan  # noqa: E402
import ops_sort  # noqa: E402
import ops_view  # noqa: E402

TABLES = [ops_view.OPS, ops_create.OPS, ops_convert.OPS, ops_query.OPS, ops_scan.OPS, ops_pw_binary.OPS, ops_pw_arith.OPS,
          ops_pw_math.OPS, ops_pw_compare.OPS, ops_pw_elem.OPS, ops_reduce.OPS, ops_alias.OPS, ops_outgrad.OPS,
          ops_errors.OPS, ops_conj.OPS, ops_basics.OPS, ops_index.OPS, ops_join.OPS, ops_sort.OPS,
          ops_gather.OPS, ops_linalg.OPS, ops_linalg_lu.OPS, ops_linalg_qr.OPS, ops_linalg_eig.OPS,
          ops_linalg_norm.OPS, ops_matmul.OPS, ops_meta.OPS,
          ops_linalg_meta.OPS,  # h6-la: ops_linalg_meta
          ops_meta_core.OPS]  # h7-pwmeta: ops_meta_core


def select_ops(names_wanted):
    ops = [op for table in TABLES for op in table]
    names = [op.name for op in ops]
    dup = [n for n, k in collections.Counter(names).items() if k > 1]
    if dup:
        sys.exit("duplicate op names in the tables: %s" % dup)
    if names_wanted:
        unknown = set(names_wanted) - set(names)
        if unknown:
            sys.exit("unknown op(s): %s" % ", ".join(sorted(unknown)))
        ops = [op for op in ops if op.name in names_wanted]
    return ops


def child(args, seed):
    """Runs the cases, printing failures; records each case's start and outcome in the progress file so
    the parent can report (and step over) a case that crashes the process."""
    warnings.filterwarnings("ignore")
    torch.set_num_threads(1)
    ops = select_ops(args.op)
    total_weight = sum(op.weight for op in ops)
    names = [op.name for op in ops]
    first = names.index(args.start_op) if args.start_op else 0
    progress = open(args.child, "a", buffering=1)
    for op in ops[first:]:
        n = H.case_count(op, args.cases, total_weight)
        indices = [args.only] if args.only is not None else range(n)
        if op.name == args.start_op:
            indices = [k for k in indices if k >= args.start_case]
        shown = 0
        null_done = False  # the NULL-argument check runs once per op, on its first successful call
        for k in indices:
            progress.write("B\t%s\t%d\n" % (op.name, k))
            t = time.time()
            r = H.run_case(op, seed, k, do_null_check=not null_done,
                           announce=lambda d: progress.write("D\t%s\n" % d.replace("\n", " ")))
            null_done = null_done or r.null_checked
            if r.status == H.Result.SKIP and args.strict:
                r = H.Result(H.Result.FAIL, ["missing from the library: %s" % r.missing], r.desc or op.name)
            if r.status == H.Result.FAIL and shown < args.show:
                shown += 1
                print("FAIL %s  [replay: --seed %d --op %s --only %d]" % (r.desc, seed, op.name, k))
                for line in r.lines:
                    print("    " + line)
                sys.stdout.flush()
            progress.write("E\t%s\t%d\t%s\t%s\t%.6f\t%r\n" % (op.name, k, r.status, r.missing or "", time.time() - t,
                                                          H.take_max_ulp()))
    progress.write("F\t%s\n" % ",".join(sorted(C.lib().called())))
    progress.close()
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: random, printed)")
    ap.add_argument("--cases", type=int, default=5000, help="total case budget, split by op weight")
    ap.add_argument("--op", action="append", default=[], help="run only these ops (repeatable)")
    ap.add_argument("--only", type=int, default=None, help="run only case K of each selected op")
    ap.add_argument("--show", type=int, default=3, help="failures printed per op")
    ap.add_argument("--strict", action="store_true", help="count functions missing from the library as failures")
    ap.add_argument("--child", help=argparse.SUPPRESS)  # progress file: run the cases in this process
    ap.add_argument("--start-op", help=argparse.SUPPRESS)
    ap.add_argument("--start-case", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.seed is None and os.environ.get("CTORCH_SEED"):  # `make check`'s fixed seed (Makefile DIFF_SEED)
        args.seed = int(os.environ["CTORCH_SEED"])
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    if args.child:
        return child(args, seed)
    print("seed: %d" % seed, flush=True)
    try:
        C.lib()
    except OSError as e:
        print("cannot load the library: %s" % e)
        print("diff: 0 passed, 1 failed")
        return 2
    print("library: %s" % C.lib().path, flush=True)
    ops = select_ops(args.op)

    # The cases run in a child process: a crash (a segfault in the library) is reported as a failure
    # of that case, with its replay command, and the run goes on from the next case.
    t0 = time.time()
    counts = {op.name: collections.Counter() for op in ops}
    secs = collections.Counter()
    called = set()  # every library function the cases resolved through the bridge
    ulps = collections.Counter()  # per op: the largest ulp distance among values compared with a tolerance
    missing = collections.Counter()
    crashes = 0
    start_op, start_case = None, 0
    with tempfile.TemporaryDirectory() as tmp:
        progress = os.path.join(tmp, "progress")
        while True:
            open(progress, "w").close()
            cmd = [sys.executable, os.path.abspath(__file__), "--seed", str(seed), "--cases", str(args.cases),
                   "--show", str(args.show), "--child", progress, "--start-case", str(start_case)]
            cmd += sum((["--op", o] for o in args.op), [])
            cmd += (["--only", str(args.only)] if args.only is not None else []) + (["--strict"] if args.strict else [])
            cmd += ["--start-op", start_op] if start_op else []
            rc = subprocess.call(cmd)
            pending, desc = None, ""
            with open(progress) as f:
                for line in f:
                    parts = line.rstrip("\n").split("\t")
                    if parts[0] == "B" and len(parts) == 3:
                        pending, desc = (parts[1], int(parts[2])), ""
                    elif parts[0] == "F":
                        called.update(parts[1].split(","))
                    elif parts[0] == "D":
                        desc = "\t".join(parts[1:])
                    elif parts[0] == "E" and len(parts) == 7:
                        pending = None
                        counts[parts[1]][parts[3]] += 1
                        secs[parts[1]] += float(parts[5])
                        ulps[parts[1]] = max(ulps[parts[1]], float(parts[6]))
                        if parts[3] == H.Result.SKIP:
                            missing[parts[4]] += 1
            if rc == 0:
                break
            crashes += 1
            if pending is None or crashes > 20:
                print("FAIL the test process exited with status %d outside any case" % rc)
                counts.setdefault("(harness)", collections.Counter())["fail"] += 1
                break
            name, k = pending
            print("FAIL %s  [replay: --seed %d --op %s --only %d]\n    crashed the process (%s)" % (
                desc or "%s case %d" % (name, k), seed, name, k, _signal_name(rc)), flush=True)
            counts[name]["fail"] += 1
            start_op, start_case = name, k + 1

    passed = sum(c["pass"] for c in counts.values())
    failed = sum(c["fail"] for c in counts.values())
    skipped = sum(c["skip"] for c in counts.values())
    for name, c in counts.items():
        tolerant = next((op.tol for op in ops if op.name == name), None) not in (None, (0.0, 0.0))
        ulp = "  max %.3g ulp" % ulps[name] if tolerant else ""
        print("  %-22s %5d passed %5d failed %5d skipped  %5.2fs%s" % (name, c["pass"], c["fail"], c["skip"], secs[name],
                                                                        ulp))
    if missing:
        print("skipped %d cases: not in the library yet: %s" % (
            skipped, ", ".join("%s (%d)" % (m, k) for m, k in sorted(missing.items()))))
    if not args.op and args.only is None:
        for header, fns in coverage.uncalled(called).items():
            failed += 1
            print("FAIL no case called these functions of include/ctorch/%s: %s" % (header, ", ".join(fns)))
        for gap in coverage.table_gaps(op.name for op in ops):
            failed += 1
            print("FAIL %s" % gap)
    print("time: %.1fs" % (time.time() - t0))
    print("diff: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def _signal_name(rc):
    if rc < 0:
        try:
            return signal.Signals(-rc).name
        except ValueError:
            return "signal %d" % -rc
    return "exit status %d" % rc


if __name__ == "__main__":
    sys.exit(main())
