#!/usr/bin/env python3
"""Scans: ctorch (through ctypes) and torch timed alternately in one process on the same inputs, at 1
and 2 threads. For each case REPS rounds each time one ctorch call and one torch call (after a warm-up);
the median of the per-round ratios torch/ctorch is printed (> 1: ctorch faster).

The target (issue 5): cumsum of 16M float32 >= 2x PyTorch. PyTorch scans one line on one thread
whatever its thread count; ctorch splits a long line over threads when the result stays bit-identical
(src/ops/scan/scan_cumsum_f32.c), so its 2-thread row is the one the target reads. Inputs: torch.rand
(values on a 2^-24 grid: every block sums exactly) and randn (most blocks exact, the rest sequential).
Every pair is also checked to be bit-identical."""
import ctypes
import os
import sys

import torch

from bench_common import P, Shape, declare, lib, paired as _paired, run, same_bits, to_ct  # noqa: F401

REPS = int(os.environ.get("BENCH_REPS", "9"))


class ScanOpts(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int)]


declare([("ct_cumsum", P, [P, ctypes.c_int64, P]), ("ct_cumsum_out", ctypes.c_int, [P, P, ctypes.c_int64, P]),
         ("ct_cumprod", P, [P, ctypes.c_int64, P])])


def paired(ct_call, torch_call):
    return _paired(ct_call, torch_call, REPS)


N = 16 << 20


def cases():
    """(label, target, ctorch call, torch call, check): check() -> bit-identical results."""
    torch.manual_seed(0)
    out = []
    for gen in ("rand", "randn"):
        x = getattr(torch, gen)(N)
        cx, co, to = to_ct(x), to_ct(torch.empty(N)), torch.empty(N)
        out.append((f"cumsum 16M f32 {gen}, out=", 2.0 if gen == "rand" else None,
                    (lambda cx, co: lambda: lib.ct_cumsum_out(co, cx, 0, None))(cx, co),
                    (lambda x, to: lambda: torch.cumsum(x, 0, out=to))(x, to),
                    (lambda co, to: lambda: same_bits(co, to))(co, to)))
        out.append((f"cumsum 16M f32 {gen}, new output", None,
                    (lambda cx: lambda: lib.ct_release(lib.ct_cumsum(cx, 0, None)))(cx),
                    (lambda x: lambda: torch.cumsum(x, 0))(x), None))
    m = torch.randn(4096, 4096)
    cm = to_ct(m)
    for d in (0, 1):
        co, to = to_ct(torch.empty(4096, 4096)), torch.empty(4096, 4096)
        out.append((f"cumsum 4096x4096 f32 dim {d}, out=", None,
                    (lambda co, d: lambda: lib.ct_cumsum_out(co, cm, d, None))(co, d),
                    (lambda to, d: lambda: torch.cumsum(m, d, out=to))(to, d),
                    (lambda co, to: lambda: same_bits(co, to))(co, to)))
    xi = torch.randint(-100, 100, (N,), dtype=torch.int32)
    cxi = to_ct(xi)
    out.append(("cumsum 16M int32 -> int64", None, lambda: lib.ct_release(lib.ct_cumsum(cxi, 0, None)),
                lambda: torch.cumsum(xi, 0), None))
    return out


def main():
    run("scans", cases(), reps=REPS)


if __name__ == "__main__":
    sys.exit(main())
