"""What the paired benchmark scripts share: the library loaded through ctypes, the structs its signatures
take, tensors handed over without a copy, the bit check, the paired timing (one ctorch call and one torch
call per round, the median of the per-round ratios torch/ctorch) and the loop over 1 and 2 threads that
prints one line per case.

A script declares the functions it calls (`declare`), builds its cases and calls `run`."""
import ctypes
import os
import statistics
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("CTORCH_BUILD", os.path.join(ROOT, "build"))

lib = ctypes.CDLL(os.path.join(BUILD, "libctorch.so"))
P = ctypes.c_void_p
PP = ctypes.POINTER(P)

# ct_dtype's values (include/ctorch/types.h)
DT = {torch.bool: 1, torch.int32: 5, torch.int64: 6, torch.float32: 9, torch.float64: 10,
      torch.complex64: 11, torch.complex128: 12}


class Shape(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(ctypes.c_int64)), ("ndim", ctypes.c_int64)]


class Tensors(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(P)), ("n", ctypes.c_int64)]


def declare(table):
    """table: (name, restype, argtypes) of the library's functions a script calls."""
    for name, res, args in table:
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args


declare([("ct_tensor_from_data", P, [P, ctypes.c_int, Shape, P]), ("ct_release", None, [P]),
         ("ct_set_num_threads", None, [ctypes.c_int]), ("ct_data_ptr", P, [P]),
         ("ct_numel", ctypes.c_int64, [P])])


def shape(*dims):
    return Shape((ctypes.c_int64 * max(len(dims), 1))(*dims), len(dims))


def to_ct(t):
    """A ctorch tensor over t's memory (made contiguous first; keep t alive while it is used)."""
    t = t.contiguous()
    return lib.ct_tensor_from_data(t.data_ptr(), DT[t.dtype], shape(*t.shape), None)


def same_bits(ct, t):
    """Whether the contiguous ctorch tensor ct holds t's bytes."""
    n = t.numel()
    if lib.ct_numel(ct) != n:
        return False
    buf = (ctypes.c_char * (n * t.element_size())).from_address(lib.ct_data_ptr(ct))
    return bytes(buf) == t.contiguous().numpy().tobytes()


def released(make):
    """A call that makes a new ctorch result and releases it."""
    return lambda: lib.ct_release(make())


def paired(ct_call, torch_call, reps=None, settle=None):
    """(median ratio torch/ctorch, median ctorch seconds per call, median torch seconds per call) over reps
    rounds after a warm-up (BENCH_REPS, default 7); each round times one turn of each library.
    settle: seconds to wait before each turn; None: 0.03 where ctorch is set to more than one thread, so
    that neither library meets the other's threads still busy from its turn (torch's OpenMP threads spin
    GOMP_SPINCOUNT pauses after each parallel region, ~20 ms on a CPU whose PAUSE takes ~140 cycles, on the
    core that ctorch's pool worker needs: a user's program that runs ctorch alone never meets them; on 2
    CPUs cat and tril at 2 threads ran no faster than at 1 beside them).
    A turn is a batch of back-to-back calls lasting about a millisecond (one call where a call takes
    longer), timed as a whole: after the pause the first call runs on cold caches, the others as in a
    program's loop, and a 10 us call's timer noise is spread over the batch."""
    reps = reps or int(os.environ.get("BENCH_REPS", "7"))
    if settle is None:
        settle = 0.03 if lib.ct_get_num_threads() > 1 else 0.0
    ct_call(), torch_call()
    t0 = time.perf_counter(); ct_call(); one = time.perf_counter() - t0
    batch = max(1, min(1000, int(1e-3 / max(one, 1e-7))))
    ratios, times = [], []
    for _ in range(reps):
        turn = []
        for call in (ct_call, torch_call):
            if settle:
                time.sleep(settle)
            t0 = time.perf_counter()
            for _ in range(batch):
                call()
            turn.append((time.perf_counter() - t0) / batch)
        ratios.append(turn[1] / turn[0])
        times.append(tuple(turn))
    return statistics.median(ratios), statistics.median(c for c, _ in times), statistics.median(t for _, t in times)


def ratio_line(label, target, r, tc, tt, same=None, width=34, extra=""):
    """One printed case: flag (ok / LOW against the target), ratio, both times, the check's word."""
    goal = f"(target >= {target}x)" if target else ""
    flag = "   " if not target else ("ok " if r >= target else "LOW")
    word = "" if same is None else ("  identical" if same else "  RESULTS DIFFER")
    return f"  {flag} {label:{width}s} {r:6.2f}x  ctorch {tc * 1e3:8.2f} ms  torch {tt * 1e3:8.2f} ms {goal}{word}{extra}"


def run(title, cases, line=None, header=None, reps=None):
    """Prints title, then each case at 1 and 2 threads (both libraries set alike). cases: (label, target,
    ctorch call, torch call, check or None), timed over reps rounds; line(case, threads) -> str overrides
    the default line; header(threads) -> str is appended to each thread count's heading."""
    print(title + ": ratio = torch time / ctorch time (median of paired rounds); > 1 means ctorch is faster")
    for threads in (1, 2):
        lib.ct_set_num_threads(threads)
        torch.set_num_threads(threads)
        print(f"-- {threads} thread(s){header(threads) if header else ''}")
        for case in cases:
            if line:
                print(line(case, threads))
                continue
            label, target, ct_call, torch_call, check = case
            r, tc, tt = paired(ct_call, torch_call, reps)
            print(ratio_line(label, target, r, tc, tt, None if check is None else check()))
    lib.ct_set_num_threads(0)
