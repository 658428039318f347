#!/usr/bin/python3
"""The dtype-dispatched paths at one thread against torch 1.13, paired in one process: random fills
(rand, randn, randint into int64 / int32 / float32, random_ into uint8), casts (to(float64),
to(float16), to(int32) of a float32 tensor, to(float32) of a float16 one) and a strided cast.

Each round calls torch and ctorch back to back (alternating which goes first); the ratio is the median
over rounds of torch_time / ctorch_time (> 1: ctorch is faster). Printing has its own script
(bench/print_bench.py). Used to check that generating the per-dtype switches from the dtype list
(src/core/dtype_list.h) costs nothing.

    CTORCH_BUILD=build /usr/bin/python3 bench/dtype_bench.py [rounds]
"""
import ctypes
import os
import statistics
import sys

import torch

from random_bench import RandomOpts, Shape, timed  # the same ctypes structs and timer

N = 4 << 20
CT = {torch.bool: 1, torch.uint8: 2, torch.int32: 5, torch.int64: 6, torch.float16: 7, torch.float32: 9,
      torch.float64: 10}


def load(build):
    lib = ctypes.CDLL(os.path.join(build, "libctorch.so"))
    P = ctypes.c_void_p
    sigs = {"ct_rand": (P, [Shape, P]), "ct_randn": (P, [Shape, P]),
            "ct_randint": (P, [ctypes.c_int64, ctypes.c_int64, Shape, P]), "ct_random_": (ctypes.c_int, [P, P]),
            "ct_to_dtype": (P, [P, ctypes.c_int]), "ct_release": (None, [P]), "ct_set_num_threads": (None, [ctypes.c_int]),
            "ct_manual_seed": (None, [ctypes.c_int64]), "ct_transpose": (P, [P, ctypes.c_int64, ctypes.c_int64])}
    for name, (res, args) in sigs.items():
        getattr(lib, name).restype = res
        getattr(lib, name).argtypes = args
    return lib


def cases(lib):
    dims = (ctypes.c_int64 * 1)(N)
    shape = Shape(dims, 1)
    dims2 = (ctypes.c_int64 * 2)(2048, N // 2048)
    shape2 = Shape(dims2, 2)

    def made(fn, *args):
        t = fn(*args)
        if not t:
            sys.exit("ctorch call failed")
        return t

    def ct_fill(fn, dt, *lead):
        opts = RandomOpts(None, CT[dt])
        return lambda: lib.ct_release(made(fn, *lead, shape, ctypes.byref(opts)))

    f32 = made(lib.ct_rand, shape, ctypes.byref(RandomOpts(None, CT[torch.float32])))
    f16 = made(lib.ct_to_dtype, f32, CT[torch.float16])
    f32_2d = made(lib.ct_rand, shape2, ctypes.byref(RandomOpts(None, CT[torch.float32])))
    f32_t = made(lib.ct_transpose, f32_2d, 0, 1)
    u8 = made(lib.ct_randint, 0, 2, shape, ctypes.byref(RandomOpts(None, CT[torch.uint8])))
    tf32, tf16 = torch.rand(N), torch.rand(N).half()
    tf32_t = torch.rand(2048, N // 2048).t()
    tu8 = torch.zeros(N, dtype=torch.uint8)

    def to(t, dt):
        return lambda: lib.ct_release(made(lib.ct_to_dtype, t, CT[dt]))

    return {
        "rand float32": (lambda: torch.rand(N), ct_fill(lib.ct_rand, torch.float32)),
        "rand float16": (lambda: torch.rand(N, dtype=torch.float16), ct_fill(lib.ct_rand, torch.float16)),
        "randn float32": (lambda: torch.randn(N), ct_fill(lib.ct_randn, torch.float32)),
        "randn float64": (lambda: torch.randn(N, dtype=torch.float64), ct_fill(lib.ct_randn, torch.float64)),
        "randint int64": (lambda: torch.randint(0, 1000, (N,)), ct_fill(lib.ct_randint, torch.int64, 0, 1000)),
        "randint int32": (lambda: torch.randint(0, 1000, (N,), dtype=torch.int32),
                          ct_fill(lib.ct_randint, torch.int32, 0, 1000)),
        "randint float32": (lambda: torch.randint(0, 1000, (N,), dtype=torch.float32),
                            ct_fill(lib.ct_randint, torch.float32, 0, 1000)),
        "random_ uint8": (lambda: tu8.random_(), lambda: lib.ct_random_(u8, None)),
        "f32.to(float64)": (lambda: tf32.to(torch.float64), to(f32, torch.float64)),
        "f32.to(float16)": (lambda: tf32.to(torch.float16), to(f32, torch.float16)),
        "f32.to(int32)": (lambda: tf32.to(torch.int32), to(f32, torch.int32)),
        "f16.to(float32)": (lambda: tf16.to(torch.float32), to(f16, torch.float32)),
        "f32.t().to(float64)": (lambda: tf32_t.to(torch.float64), to(f32_t, torch.float64)),
    }


def main():
    lib = load(os.environ.get("CTORCH_BUILD", "build"))
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    torch.set_num_threads(1)
    lib.ct_set_num_threads(1)
    load0 = os.getloadavg()[0]
    print(f"op ({N >> 20}M elements, 1 thread)  {'torch ms':>9} {'ctorch ms':>10} {'torch/ctorch':>13}")
    for name, (theirs, ours) in cases(lib).items():
        theirs(), ours()  # warm up: first-touch page faults
        tt, ct = [], []
        for r in range(rounds):
            pair = [(tt, theirs), (ct, ours)]
            for acc, f in (pair if r % 2 == 0 else pair[::-1]):
                acc.append(timed(f))
        ratio = statistics.median(a / b for a, b in zip(tt, ct))
        print(f"{name:<28} {statistics.median(tt) * 1e3:9.2f} {statistics.median(ct) * 1e3:10.2f} {ratio:12.2f}x")
    print(f"median of {rounds} paired rounds; load average {load0:.2f} -> {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
