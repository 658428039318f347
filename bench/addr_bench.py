#!/usr/bin/env python3
"""torch.addr (issue 17): ctorch (through ctypes) and torch timed alternately in one process on the same
inputs, at 1 and 2 threads; the median of the per-round ratios torch/ctorch is printed (> 1: ctorch faster),
with a bit check of each pair. Cases: float32, float64, complex64, complex128, n x n for n = 256, 1024,
2048, the functional form with torch's default coefficients (beta = alpha = 1: the vector blocks and the
scalar lambda of torch's addr_kernel over a fresh contiguous output), the in-place form at 2048 and beta = 0
(the other lambda) at 2048. Target >= 1.0x.

  /usr/bin/python3 bench/addr_bench.py [dtype names...]     (BENCH_REPS rounds, default 7)"""
import ctypes
import sys

import blas_core  # noqa: F401  (torch's OpenBLAS gets the core type ctorch picks; before torch)
import torch  # noqa: E402

from bench_common import DT, P, declare, lib, paired, ratio_line, released, same_bits, to_ct


class Scalar(ctypes.Structure):  # ct_scalar: {kind; pad; union of 16 bytes} (tests/diff/ctorch.py)
    _fields_ = [("kind", ctypes.c_int), ("_pad", ctypes.c_int), ("re", ctypes.c_double), ("im", ctypes.c_double)]


class Opts(ctypes.Structure):  # ct_addmm_opts
    _fields_ = [("beta", Scalar), ("alpha", Scalar)]


declare([("ct_addr", P, [P, P, P, ctypes.POINTER(Opts)]), ("ct_addr_", ctypes.c_int, [P, P, P, ctypes.POINTER(Opts)])])


def opts(beta, alpha):
    o = Opts()
    o.beta, o.alpha = Scalar(3, 0, beta, 0), Scalar(3, 0, alpha, 0)  # CT_SCALAR_DOUBLE
    return o


def cases(dtypes):
    g = torch.Generator().manual_seed(17)
    out = []
    for dt in dtypes:
        for n in (256, 1024, 2048):
            s = torch.randn(n, n, dtype=dt, generator=g)
            v1, v2 = torch.randn(n, dtype=dt, generator=g), torch.randn(n, dtype=dt, generator=g)
            cs, c1, c2 = to_ct(s), to_ct(v1), to_ct(v2)
            name = str(dt)[6:]
            o1 = opts(1.0, 1.0)
            out.append((f"addr {name} {n}", 1.0, released(lambda cs=cs, c1=c1, c2=c2, o=o1: lib.ct_addr(cs, c1, c2, o)),
                        lambda s=s, v1=v1, v2=v2: torch.addr(s, v1, v2),
                        lambda cs=cs, c1=c1, c2=c2, o=o1, s=s, v1=v1, v2=v2: check(lib.ct_addr(cs, c1, c2, o),
                                                                                    torch.addr(s, v1, v2))))
            if n != 2048:
                continue
            o0 = opts(0.0, 1.0)
            out.append((f"addr {name} {n} beta=0", 1.0,
                        released(lambda cs=cs, c1=c1, c2=c2, o=o0: lib.ct_addr(cs, c1, c2, o)),
                        lambda s=s, v1=v1, v2=v2: torch.addr(s, v1, v2, beta=0),
                        lambda cs=cs, c1=c1, c2=c2, o=o0, s=s, v1=v1, v2=v2: check(lib.ct_addr(cs, c1, c2, o),
                                                                                    torch.addr(s, v1, v2, beta=0))))
            # in place: both targets start from the same values and are written by every round
            ts, tc = s.clone(), s.clone()
            ct_t = to_ct(tc)
            out.append((f"addr_ {name} {n}", 1.0, lambda ct_t=ct_t, c1=c1, c2=c2, o=o1: lib.ct_addr_(ct_t, c1, c2, o),
                        lambda ts=ts, v1=v1, v2=v2: ts.addr_(v1, v2), None, (cs, c1, c2, ct_t, ts, tc)))
    return out


def check(c, t):
    ok = same_bits(c, t)
    lib.ct_release(c)
    return ok


def main():
    names = sys.argv[1:] or ["float32", "float64", "complex64", "complex128"]
    cs = cases([getattr(torch, n) for n in names])
    print("addr: ratio = torch time / ctorch time (median of paired rounds); > 1 means ctorch is faster")
    for threads in (1, 2):
        lib.ct_set_num_threads(threads)
        torch.set_num_threads(threads)
        print(f"-- {threads} thread(s)")
        for label, target, ct_call, torch_call, chk, *_ in cs:
            r, tc, tt = paired(ct_call, torch_call)
            print(ratio_line(label, target, r, tc, tt, None if chk is None else chk()), flush=True)
    lib.ct_set_num_threads(0)


if __name__ == "__main__":
    main()
