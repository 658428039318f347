#!/usr/bin/python3
"""rand / randn on 16M elements: ctorch at 1 and 2 threads against torch 1.13 (whose CPU generators are
serial), paired in one process.

libctorch is loaded with ctypes next to torch, and each round calls torch, ctorch at 1 thread and
ctorch at 2 threads back to back (in a rotating order), so the three see the same machine load. The
ratio reported is the median over rounds of torch_time / ctorch_time (> 1: ctorch is faster), with
the median times. The load average is printed: on a shared machine the 2-thread numbers need a second
core that is idle, and processes in other sessions (autogroups) take their share first.

Run: CTORCH_BUILD=build /usr/bin/python3 bench/random_bench.py [rounds]
"""
import ctypes
import os
import statistics
import sys
import time

import torch

N = 16 << 20
CT_FLOAT32, CT_FLOAT64 = 9, 10


class Shape(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(ctypes.c_int64)), ("ndim", ctypes.c_int64)]


class RandomOpts(ctypes.Structure):  # ct_random_opts: generator, dtype, then fields left zero
    _fields_ = [("generator", ctypes.c_void_p), ("dtype", ctypes.c_int), ("rest", ctypes.c_char * 64)]


def load(build):
    lib = ctypes.CDLL(os.path.join(build, "libctorch.so"))
    for name in ("ct_rand", "ct_randn"):
        getattr(lib, name).restype = ctypes.c_void_p
        getattr(lib, name).argtypes = [Shape, ctypes.POINTER(RandomOpts)]
    lib.ct_release.argtypes = [ctypes.c_void_p]
    lib.ct_set_num_threads.argtypes = [ctypes.c_int]
    lib.ct_manual_seed.argtypes = [ctypes.c_int64]
    return lib


def set_threads(lib, n):
    """ctorch's thread setting, and OpenMP's (which older ctorch builds read directly)."""
    lib.ct_set_num_threads(n)
    ctypes.CDLL("libgomp.so.1").omp_set_num_threads(n if n > 0 else os.cpu_count())


def cases(lib):
    dims = (ctypes.c_int64 * 1)(N)
    shape = Shape(dims, 1)

    def ct(fn, dt):
        opts = RandomOpts(None, dt)

        def run():
            t = fn(shape, ctypes.byref(opts))
            if not t:
                sys.exit("ctorch call failed")
            lib.ct_release(t)
        return run

    return {"rand_float32": (lambda: torch.rand(N), ct(lib.ct_rand, CT_FLOAT32)),
            "randn_float32": (lambda: torch.randn(N), ct(lib.ct_randn, CT_FLOAT32)),
            "randn_float64": (lambda: torch.randn(N, dtype=torch.float64), ct(lib.ct_randn, CT_FLOAT64))}


def timed(f):
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def main():
    build = os.environ.get("CTORCH_BUILD", "build")
    if not os.path.exists(os.path.join(build, "libctorch.so")):
        sys.exit(f"{build}/libctorch.so not found: build first (make build)")
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    lib = load(build)
    torch.set_num_threads(1)  # PyTorch's CPU generators are serial: one thread is its real speed
    torch.manual_seed(0)
    lib.ct_manual_seed(0)
    load0 = os.getloadavg()[0]
    print(f"op (16M elements)  {'torch s':>8} {'ctorch 1T s':>12} {'ratio':>7} {'ctorch 2T s':>12} {'ratio':>7}")
    for name, (theirs, ours) in cases(lib).items():
        times = {"torch": [], 1: [], 2: []}

        def ct_at(threads):
            def run():
                set_threads(lib, threads)
                ours()
            return run

        runs = [("torch", theirs), (1, ct_at(1)), (2, ct_at(2))]
        for f in (theirs, ours):  # warm up: first-touch page faults, thread pools
            f()
        for r in range(rounds):
            for k in range(3):
                key, f = runs[(r + k) % 3]
                times[key].append(timed(f))
        set_threads(lib, 0)
        med = {k: statistics.median(v) for k, v in times.items()}
        ratio = {t: statistics.median([a / b for a, b in zip(times["torch"], times[t])]) for t in (1, 2)}
        print(f"{name:<18} {med['torch']:8.4f} {med[1]:12.4f} {ratio[1]:6.2f}x {med[2]:12.4f} {ratio[2]:6.2f}x")
    print(f"median of {rounds} paired rounds; load average {load0:.2f} -> {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} cpus")


if __name__ == "__main__":
    main()
