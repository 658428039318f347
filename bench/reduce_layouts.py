#!/usr/bin/env python3
"""Reductions over many layouts: ctorch against torch on permuted views of 3-D and 4-D float32 tensors,
reduced over each dim in turn (sum, amax, argmax, var, logsumexp, prod). Not part of `make bench` (it
takes minutes, and has no targets): it finds the layouts where ctorch falls behind, the cases the fixed
shapes of reduce_bench.py do not reach (small dims reduced or kept, transposing reductions).

  /usr/bin/python3 bench/reduce_layouts.py [THREADS] [op,op,...]

Each case times one ctorch call and one torch call alternately, five rounds, and takes the median ratio
torch/ctorch (> 1: ctorch faster). Prints the 30 lowest ratios, then per op the lowest, the median and
how many cases are below 1."""
import collections
import ctypes
import itertools
import statistics
import sys
import time

import torch

import reduce_bench as rb

lib = rb.lib
lib.ct_permute.restype, lib.ct_permute.argtypes = ctypes.c_void_p, [ctypes.c_void_p, rb.Shape]
SHAPES = [(7, 300000, 5), (3, 1000, 1000), (1000, 3, 1000), (50, 50, 50, 50), (2, 2000000), (2000000, 2),
          (100, 5, 20000)]
OPS = [("sum", lambda x, d: x.sum(d), rb.ReduceOpts), ("amax", lambda x, d: x.amax(d), rb.ReduceOpts),
       ("argmax", lambda x, d: x.argmax(d), rb.ReduceOpts), ("var", lambda x, d: x.var(d), rb.VarOpts),
       ("logsumexp", lambda x, d: torch.logsumexp(x, d), rb.ReduceOpts), ("prod", lambda x, d: x.prod(d), rb.ReduceOpts)]
for name, _, _ in OPS:
    f = getattr(lib, "ct_" + name)
    f.restype, f.argtypes = ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_void_p]


def ratio(ct_call, torch_call):
    ct_call(), torch_call()
    rs = []
    for _ in range(5):
        t0 = time.perf_counter(); ct_call(); t1 = time.perf_counter(); torch_call(); t2 = time.perf_counter()
        rs.append((t2 - t1) / (t1 - t0))
    return statistics.median(rs)


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    wanted = sys.argv[2].split(",") if len(sys.argv) > 2 else None
    torch.set_num_threads(threads)
    lib.ct_set_num_threads(threads)
    torch.manual_seed(0)
    results = []
    for shape in SHAPES:
        base = torch.rand(shape) + 0.5  # positive: products stay finite
        cb = rb.to_ct(base)
        perms = list(itertools.permutations(range(len(shape))))
        if len(shape) == 4:
            perms = perms[::5]
        for perm in perms:
            x = base.permute(perm)
            cx = lib.ct_permute(cb, rb.shape(list(perm)))
            for dim in range(len(shape)):
                for name, torch_op, opts_type in OPS:
                    if wanted and name not in wanted:
                        continue
                    o = opts_type()
                    o.dims = rb.shape([dim])
                    f = getattr(lib, "ct_" + name)
                    r = ratio(lambda: lib.ct_release(f(cx, ctypes.byref(o))), lambda: torch_op(x, dim))
                    results.append((r, name, shape, perm, dim))
            lib.ct_release(cx)
        lib.ct_release(cb)
    results.sort()
    print(f"reductions over layouts, {threads} thread(s): ratio = torch time / ctorch time")
    for r, name, shape, perm, dim in results[:30]:
        print(f"  {r:5.2f}  {name:9s} {str(shape):18s} permuted {str(perm):14s} dim {dim}")
    by_op = collections.defaultdict(list)
    for r, name, *_ in results:
        by_op[name].append(r)
    for name, rs in by_op.items():
        print(f"  {name:9s} lowest {min(rs):5.2f}  median {statistics.median(rs):5.2f}  below 1: {sum(r < 1 for r in rs)}/{len(rs)}")


if __name__ == "__main__":
    sys.exit(main())
